// SPDX-License-Identifier: Apache-2.0
// capi/global.cpp — process-wide settings: fpmath default, verbose, version,
// cache capacities, and llga_last_error_message.
#include <climits>

#include "base/verbose.hpp"
#include "capi/barrier.hpp"
#include "capi/handles.hpp"
#include "runtime/cache_settings.hpp"
#include "runtime/constant_cache.hpp"

#include "oneapi/dnnl/dnnl_common.h"
#include "oneapi/dnnl/dnnl_version.h"
#include "oneapi/dnnl/dnnl_version_hash.h"
#include "oneapi/dnnl/llga.h"
#include "llga_build_version.h"

using namespace llga;

namespace {
std::atomic<int> g_default_fpmath {dnnl_fpmath_mode_strict};

} // namespace

namespace {
status_t check_cache_kind(const dnnl_engine_kind_t &k) {
    const int raw = capi::raw_enum(k);
    if (raw != dnnl_cpu && raw != dnnl_gpu)
        return fail(dnnl_invalid_arguments,
                "engine kind must be cpu or gpu, got %d", raw);
    return dnnl_success;
}
} // namespace

namespace llga {
namespace capi {
// capi/verbose_header.cpp; referenced so a static link keeps it.
bool verbose_header_installed();
} // namespace capi
} // namespace llga

extern "C" {

dnnl_status_t dnnl_get_default_fpmath_mode(dnnl_fpmath_mode_t *mode) {
    return LLGA_API_BODY("dnnl_get_default_fpmath_mode", {
        LLGA_CHECK_ARG(mode);
        *mode = static_cast<dnnl_fpmath_mode_t>(g_default_fpmath.load());
        return dnnl_success;
    });
}

dnnl_status_t dnnl_set_default_fpmath_mode(dnnl_fpmath_mode_t mode) {
    return LLGA_API_BODY("dnnl_set_default_fpmath_mode", {
        LLGA_CHECK_ENUM(mode, dnnl_fpmath_mode_strict, dnnl_fpmath_mode_tf32,
                "fpmath mode");
        g_default_fpmath.store(mode);
        return dnnl_success;
    });
}

dnnl_status_t dnnl_set_verbose(int level) {
    (void)llga::capi::verbose_header_installed();
    return LLGA_API_BODY("dnnl_set_verbose", {
        if (level < 0 || level > 2)
            return fail(dnnl_invalid_arguments,
                    "verbose level must be 0, 1 or 2, got %d", level);
        set_verbose_level(level);
        return dnnl_success;
    });
}

const dnnl_version_t *dnnl_version(void) {
    static const dnnl_version_t v = {DNNL_VERSION_MAJOR, DNNL_VERSION_MINOR,
            DNNL_VERSION_PATCH, DNNL_VERSION_HASH, DNNL_CPU_RUNTIME,
            DNNL_GPU_RUNTIME};
    return &v;
}

const char *llga_last_error_message(void) { return last_error().c_str(); }

const llga_version_t *llga_version(void) {
    static const llga_version_t v = {LLGA_BUILD_VERSION_MAJOR,
            LLGA_BUILD_VERSION_MINOR, LLGA_BUILD_VERSION_PATCH,
            LLGA_BUILD_VERSION_HASH};
    return &v;
}

dnnl_status_t dnnl_graph_get_compiled_partition_cache_capacity(int *capacity) {
    return LLGA_API_BODY("dnnl_graph_get_compiled_partition_cache_capacity", {
        LLGA_CHECK_ARG(capacity);
        *capacity = rt::compiled_partition_cache_capacity();
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_set_compiled_partition_cache_capacity(int capacity) {
    return LLGA_API_BODY("dnnl_graph_set_compiled_partition_cache_capacity",
            { return rt::set_compiled_partition_cache_capacity(capacity); });
}

dnnl_status_t dnnl_graph_set_constant_tensor_cache(int flag) {
    return LLGA_API_BODY("dnnl_graph_set_constant_tensor_cache", {
        if (flag < 0)
            return fail(dnnl_invalid_arguments,
                    "flag must be 0 (disable) or positive (enable), got %d",
                    flag);
        const size_t mb = flag ? static_cast<size_t>(SIZE_MAX) : 0;
        LLGA_RETURN_IF_ERROR(rt::set_constant_cache_capacity_mb(dnnl_cpu, mb));
        return rt::set_constant_cache_capacity_mb(dnnl_gpu, mb);
    });
}

dnnl_status_t dnnl_graph_get_constant_tensor_cache(int *flag) {
    return LLGA_API_BODY("dnnl_graph_get_constant_tensor_cache", {
        LLGA_CHECK_ARG(flag);
        *flag = (rt::constant_cache_capacity_mb(dnnl_cpu) != 0
                        || rt::constant_cache_capacity_mb(dnnl_gpu) != 0)
                ? 1
                : 0;
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_set_constant_tensor_cache_capacity(
        dnnl_engine_kind_t eng_kind, size_t size) {
    return LLGA_API_BODY("dnnl_graph_set_constant_tensor_cache_capacity", {
        LLGA_CHECK_ENUM(eng_kind, dnnl_any_engine, dnnl_gpu, "engine kind");
        return rt::set_constant_cache_capacity_mb(eng_kind, size);
    });
}

dnnl_status_t dnnl_graph_get_constant_tensor_cache_capacity(
        dnnl_engine_kind_t eng_kind, size_t *size) {
    return LLGA_API_BODY("dnnl_graph_get_constant_tensor_cache_capacity", {
        LLGA_CHECK_ARG(size);
        LLGA_RETURN_IF_ERROR(check_cache_kind(eng_kind));
        *size = rt::constant_cache_capacity_mb(eng_kind);
        return dnnl_success;
    });
}


dnnl_status_t llga_set_constant_tensor_cache_policy(
        dnnl_engine_kind_t eng_kind, llga_constant_cache_policy_t policy) {
    return LLGA_API_BODY("llga_set_constant_tensor_cache_policy", {
        LLGA_RETURN_IF_ERROR(check_cache_kind(eng_kind));
        LLGA_CHECK_ENUM(policy, llga_constant_cache_no_evict,
                llga_constant_cache_lru, "cache policy");
        return rt::set_constant_cache_policy(eng_kind,
                policy == llga_constant_cache_lru
                        ? rt::constant_cache_policy_t::lru
                        : rt::constant_cache_policy_t::no_evict);
    });
}

dnnl_status_t llga_get_constant_tensor_cache_policy(
        dnnl_engine_kind_t eng_kind, llga_constant_cache_policy_t *policy) {
    return LLGA_API_BODY("llga_get_constant_tensor_cache_policy", {
        LLGA_CHECK_ARG(policy);
        LLGA_RETURN_IF_ERROR(check_cache_kind(eng_kind));
        *policy = rt::constant_cache_policy(eng_kind) == rt::constant_cache_policy_t::lru
                ? llga_constant_cache_lru
                : llga_constant_cache_no_evict;
        return dnnl_success;
    });
}

dnnl_status_t llga_get_constant_tensor_cache_usage(
        dnnl_engine_kind_t eng_kind, llga_constant_cache_usage_t *usage) {
    return LLGA_API_BODY("llga_get_constant_tensor_cache_usage", {
        LLGA_CHECK_ARG(usage);
        LLGA_RETURN_IF_ERROR(check_cache_kind(eng_kind));
        llga_constant_cache_usage_t u = {};
        rt::constant_cache_t::for_each(eng_kind, [&](rt::constant_cache_t &c) {
            const rt::constant_cache_usage_t s = c.usage();
            u.capacity_bytes = s.capacity_bytes;
            u.bytes += s.bytes;
            u.entries += s.entries;
            u.hits += s.hits;
            u.misses += s.misses;
            u.computed += s.computed;
            u.evictions += s.evictions;
            u.rejected += s.rejected;
        });
        if (u.capacity_bytes == 0) { // no device cache created yet
            u.capacity_bytes = rt::constant_cache_capacity_bytes(eng_kind);
        }
        *usage = u;
        return dnnl_success;
    });
}

} // extern "C"
