// runtime/cache_settings.cpp — cache capacity knobs (API + environment).
#include "runtime/cache_settings.hpp"

#include <atomic>
#include <climits>
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
    compiled_cache_t::instance().set_capacity(static_cast<size_t>(capacity));
    return dnnl_success;
}

bool parse_constant_cache_env(const std::string &text, size_t *cpu_mb,
        size_t *gpu_mb, bool *has_cpu, bool *has_gpu) {
    *has_cpu = *has_gpu = false;
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
        const std::string num = item.substr(colon + 1);
        if (num.empty() || num.find_first_not_of("0123456789") != std::string::npos)
            return false;
        const size_t mb = std::strtoull(num.c_str(), nullptr, 10);
        if (kind == "cpu") {
            *cpu_mb = mb;
            *has_cpu = true;
        } else if (kind == "gpu") {
            *gpu_mb = mb;
            *has_gpu = true;
        } else {
            return false;
        }
    }
    return true;
}

namespace {
struct constant_capacity_t {
    std::mutex m;
    size_t cpu_mb = 0, gpu_mb = 0;
    constant_capacity_t() {
        const std::string env
                = getenv_string("ONEDNN_GRAPH_CONSTANT_TENSOR_CACHE_CAPACITY");
        size_t c = 0, g = 0;
        bool hc = false, hg = false;
        if (!env.empty() && parse_constant_cache_env(env, &c, &g, &hc, &hg)) {
            if (hc) cpu_mb = c;
            if (hg) gpu_mb = g;
        }
    }
};
constant_capacity_t &constant_capacity() {
    static constant_capacity_t c;
    return c;
}
} // namespace

size_t constant_cache_capacity_mb(engine_kind_t kind) {
    auto &c = constant_capacity();
    std::lock_guard<std::mutex> lock(c.m);
    return kind == dnnl_gpu ? c.gpu_mb : c.cpu_mb;
}

status_t set_constant_cache_capacity_mb(engine_kind_t kind, size_t mb) {
    if (kind != dnnl_cpu && kind != dnnl_gpu)
        return fail(dnnl_invalid_arguments,
                "constant tensor cache capacity needs engine kind cpu or gpu, "
                "got %d",
                static_cast<int>(kind));
    auto &c = constant_capacity();
    std::lock_guard<std::mutex> lock(c.m);
    (kind == dnnl_gpu ? c.gpu_mb : c.cpu_mb) = mb;
    return dnnl_success;
}

} // namespace rt
} // namespace llga
