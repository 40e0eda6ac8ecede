// SPDX-License-Identifier: Apache-2.0
// runtime/engine.cpp — engine enumeration and creation checks.
#include "runtime/engine.hpp"

#include "base/status.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace rt {

size_t engine_t::count(engine_kind_t kind) {
    return kind == dnnl_cpu ? 1 : 0;
}

status_t engine_t::check_create(engine_kind_t kind, size_t index) {
    // GPU engines are checked and made by the OpenCL backend (capi).
    if (kind == dnnl_gpu)
        return fail(dnnl_unimplemented,
                "gpu engines are not available: this build of llga has no "
                "OpenCL engine (dnnl_engine_get_count(dnnl_gpu) is 0)");
    if (kind != dnnl_cpu)
        return fail(dnnl_invalid_arguments,
                "engine kind %d is not a device kind (use dnnl_cpu)",
                static_cast<int>(kind));
    if (index >= count(kind))
        return fail(dnnl_invalid_arguments,
                "cpu engine index %zu is out of range (there is %zu)", index,
                count(kind));
    start_threading();
    return dnnl_success;
}

} // namespace rt
} // namespace llga
