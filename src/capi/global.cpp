// capi/global.cpp — process-wide settings: fpmath default, verbose, version,
// cache capacities, and llga_last_error_message.
#include <climits>

#include "base/verbose.hpp"
#include "capi/barrier.hpp"
#include "capi/handles.hpp"
#include "runtime/cache_settings.hpp"

#include "oneapi/dnnl/dnnl_common.h"
#include "oneapi/dnnl/dnnl_version.h"
#include "oneapi/dnnl/dnnl_version_hash.h"
#include "oneapi/dnnl/llga.h"

using namespace llga;

namespace {
std::atomic<int> g_default_fpmath {dnnl_fpmath_mode_strict};

bool valid_fpmath(dnnl_fpmath_mode_t m) {
    return m >= dnnl_fpmath_mode_strict && m <= dnnl_fpmath_mode_tf32;
}
} // namespace

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
        if (!valid_fpmath(mode))
            return fail(dnnl_invalid_arguments, "unknown fpmath mode %d",
                    static_cast<int>(mode));
        g_default_fpmath.store(mode);
        return dnnl_success;
    });
}

dnnl_status_t dnnl_set_verbose(int level) {
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
    return LLGA_API_BODY("dnnl_graph_set_constant_tensor_cache_capacity",
            { return rt::set_constant_cache_capacity_mb(eng_kind, size); });
}

dnnl_status_t dnnl_graph_get_constant_tensor_cache_capacity(
        dnnl_engine_kind_t eng_kind, size_t *size) {
    return LLGA_API_BODY("dnnl_graph_get_constant_tensor_cache_capacity", {
        LLGA_CHECK_ARG(size);
        if (eng_kind != dnnl_cpu && eng_kind != dnnl_gpu)
            return fail(dnnl_invalid_arguments,
                    "engine kind must be cpu or gpu, got %d",
                    static_cast<int>(eng_kind));
        *size = rt::constant_cache_capacity_mb(eng_kind);
        return dnnl_success;
    });
}

} // extern "C"
