// SPDX-License-Identifier: Apache-2.0
// capi/backends.cpp — the list of enabled backends, best first. The C API
// layer is the only place that sees every backend, so the compiler stays
// independent of them. A GPU engine compiles with its own OpenCL backend
// only: nothing runs on the host behind its back.
#include "backends/cpu/cpu_backend.hpp"
#include "backends/ref/ref_backend.hpp"
#include "capi/handles.hpp"
#ifdef LLGA_WITH_OPENCL
#include "backends/ocl/ocl_api.hpp"
#endif

namespace llga {
namespace capi {

const compiler::backend_list_t &enabled_backends() {
    static const compiler::backend_list_t list = {
            &cpu::cpu_backend(), &ref::ref_backend()};
    return list;
}

compiler::backend_list_t backends_for(const rt::engine_t &engine) {
    if (engine.kind() != dnnl_gpu) return enabled_backends();
    compiler::backend_list_t list;
#ifdef LLGA_WITH_OPENCL
    if (const compiler::backend_t *b = ocl::backend_for(engine))
        list.push_back(b);
#endif
    return list;
}

} // namespace capi
} // namespace llga
