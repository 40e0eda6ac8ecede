// SPDX-License-Identifier: Apache-2.0
// runtime/cache_settings.cpp — cache capacity knobs (API + environment).
#include "runtime/cache_settings.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <mutex>

#include "base/env.hpp"
#include "base/status.hpp"
#include "runtime/compiled_cache.hpp"

namespace llga {
namespace rt {

int compiled_partition_cache_capacity() {
    const size_t c = compiled_cache_t::instance().capacity();
    return c > static_cast<size_t>(INT_MAX) ? INT_MAX : static_cast<int>(c);
}

status_t set_compiled_partition_cache_capacity(int capacity) {
    if (capacity < 0)
        return fail(dnnl_invalid_arguments,
                "compiled partition cache capacity must be >= 0, got %d",
                capacity);
    // Synchronous: dropped compiled partitions nobody else holds are
    // destroyed here, and with them their cached constants (see
    // compiler/kernel.cpp), so a user pool may be freed right after.
    compiled_cache_t::instance().set_capacity(static_cast<size_t>(capacity));
    return dnnl_success;
}

bool parse_constant_cache_env(const std::string &text, constant_cache_env_t &out) {
    constant_cache_env_t r;
    size_t pos = 0;
    while (pos < text.size()) {
        size_t end = text.find(';', pos);
        if (end == std::string::npos) end = text.size();
        const std::string item = text.substr(pos, end - pos);
        pos = end + 1;
        if (item.empty()) continue;
        const size_t colon = item.find(':');
        if (colon == std::string::npos) return false;
        const std::string kind = item.substr(0, colon);
        std::string num = item.substr(colon + 1), pol;
        const size_t colon2 = num.find(':');
        if (colon2 != std::string::npos) {
            pol = num.substr(colon2 + 1);
            num = num.substr(0, colon2);
        }
        if (num.empty() || num.size() > 19
                || num.find_first_not_of("0123456789") != std::string::npos)
            return false;
        constant_cache_policy_t policy = constant_cache_policy_t::no_evict;
        if (pol == "lru" || pol == "LRU")
            policy = constant_cache_policy_t::lru;
        else if (!(pol.empty() || pol == "no_evict" || pol == "NO_EVICT"))
            return false;
        const size_t mb = std::strtoull(num.c_str(), nullptr, 10);
        if (kind == "cpu") {
            r.cpu_mb = mb;
            r.cpu_policy = policy;
            r.has_cpu = true;
        } else if (kind == "gpu") {
            r.gpu_mb = mb;
            r.gpu_policy = policy;
            r.has_gpu = true;
        } else {
            return false;
        }
    }
    out = r;
    return true;
}

bool parse_constant_cache_env(const std::string &text, size_t *cpu_mb,
        size_t *gpu_mb, bool *has_cpu, bool *has_gpu) {
    constant_cache_env_t e;
    *has_cpu = *has_gpu = false;
    if (!parse_constant_cache_env(text, e)) return false;
    *has_cpu = e.has_cpu;
    *has_gpu = e.has_gpu;
    if (e.has_cpu) *cpu_mb = e.cpu_mb;
    if (e.has_gpu) *gpu_mb = e.gpu_mb;
    return true;
}

namespace {
struct constant_settings_t {
    std::mutex m;
    // Default 0 (disabled), as oneDNN v3.9; the env var is read once here.
    size_t mb[2] = {0, 0}; // [0] cpu, [1] gpu
    constant_cache_policy_t policy[2] = {constant_cache_policy_t::no_evict,
            constant_cache_policy_t::no_evict};
    constant_settings_t() {
        const std::string env
                = getenv_string("ONEDNN_GRAPH_CONSTANT_TENSOR_CACHE_CAPACITY");
        constant_cache_env_t e;
        if (env.empty() || !parse_constant_cache_env(env, e)) return;
        if (e.has_cpu) {
            mb[0] = e.cpu_mb;
            policy[0] = e.cpu_policy;
        }
        if (e.has_gpu) {
            mb[1] = e.gpu_mb;
            policy[1] = e.gpu_policy;
        }
    }
};
constant_settings_t &settings() {
    static constant_settings_t *s = new constant_settings_t(); // never freed
    return *s;
}
int slot(engine_kind_t kind) { return kind == dnnl_gpu ? 1 : 0; }
size_t mb_to_bytes(size_t mb) {
    const size_t unit = size_t(1) << 20;
    return mb > SIZE_MAX / unit ? SIZE_MAX : mb * unit;
}
// Serialises setters so the last one wins in the settings and the caches.
std::mutex &setter_mutex() {
    static std::mutex *m = new std::mutex();
    return *m;
}
status_t check_kind(engine_kind_t kind) {
    if (kind != dnnl_cpu && kind != dnnl_gpu)
        return fail(dnnl_invalid_arguments,
                "constant tensor cache settings need engine kind cpu or gpu, "
                "got %d",
                static_cast<int>(kind));
    return dnnl_success;
}
} // namespace

namespace {
size_t stored_mb(engine_kind_t kind) {
    auto &s = settings();
    std::lock_guard<std::mutex> lock(s.m);
    return s.mb[slot(kind)];
}
} // namespace

size_t constant_cache_capacity_mb(engine_kind_t kind) {
    // oneDNN keeps the capacity in bytes (saturated at SIZE_MAX) and reads
    // it back in whole MB, so a capacity past SIZE_MAX bytes reads back as
    // SIZE_MAX / (1024 * 1024).
    return std::min(stored_mb(kind), SIZE_MAX / (size_t(1) << 20));
}

size_t constant_cache_capacity_bytes(engine_kind_t kind) {
    return mb_to_bytes(stored_mb(kind));
}

status_t set_constant_cache_capacity_mb(engine_kind_t kind, size_t mb) {
    LLGA_RETURN_IF_ERROR(check_kind(kind));
    std::lock_guard<std::mutex> serial(setter_mutex());
    auto &s = settings();
    {
        std::lock_guard<std::mutex> lock(s.m);
        s.mb[slot(kind)] = mb;
    }
    // Outside the settings lock: cache creation takes the registry lock and
    // then reads the settings, so holding both here could deadlock.
    const size_t bytes = mb_to_bytes(mb);
    constant_cache_t::for_each(
            kind, [bytes](constant_cache_t &c) { c.set_capacity(bytes); });
    return dnnl_success;
}

constant_cache_policy_t constant_cache_policy(engine_kind_t kind) {
    auto &s = settings();
    std::lock_guard<std::mutex> lock(s.m);
    return s.policy[slot(kind)];
}

status_t set_constant_cache_policy(
        engine_kind_t kind, constant_cache_policy_t policy) {
    LLGA_RETURN_IF_ERROR(check_kind(kind));
    std::lock_guard<std::mutex> serial(setter_mutex());
    auto &s = settings();
    {
        std::lock_guard<std::mutex> lock(s.m);
        s.policy[slot(kind)] = policy;
    }
    constant_cache_t::for_each(
            kind, [policy](constant_cache_t &c) { c.set_policy(policy); });
    return dnnl_success;
}

} // namespace rt
} // namespace llga
