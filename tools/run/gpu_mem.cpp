// SPDX-License-Identifier: Apache-2.0
// tools/run/gpu_mem.cpp — OpenCL device buffers for llga-run (gpu_mem.hpp).
#include "gpu_mem.hpp"

#ifdef LLGA_RUN_WITH_OPENCL
#include <CL/cl_ext.h>

#include "oneapi/dnnl/dnnl_ocl.h"
#endif

namespace llga_run {

#ifdef LLGA_RUN_WITH_OPENCL
namespace {
using usm_alloc_f = void *(CL_API_CALL *)(cl_context, cl_device_id,
        const cl_ulong *, size_t, cl_uint, cl_int *);
using usm_free_f = cl_int(CL_API_CALL *)(cl_context, void *);
using usm_copy_f = cl_int(CL_API_CALL *)(cl_command_queue, cl_bool, void *,
        const void *, size_t, cl_uint, const cl_event *, cl_event *);
} // namespace

bool gpu_mem_t::init(dnnl_engine_t engine, dnnl_stream_t stream,
        std::string &error) {
    cl_context c = nullptr;
    cl_device_id d = nullptr;
    cl_command_queue q = nullptr;
    if (dnnl_ocl_interop_engine_get_context(engine, &c) != dnnl_success
            || dnnl_ocl_interop_get_device(engine, &d) != dnnl_success
            || dnnl_ocl_interop_stream_get_command_queue(stream, &q)
                    != dnnl_success) {
        error = "the GPU engine has no OpenCL context/queue";
        return false;
    }
    ctx_ = c;
    dev_ = d;
    queue_ = q;
    size_t n = 0;
    clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, 0, nullptr, &n);
    std::string ext(n, '\0');
    clGetDeviceInfo(d, CL_DEVICE_EXTENSIONS, n, &ext[0], nullptr);
    if (ext.find("cl_intel_unified_shared_memory") != std::string::npos) {
        cl_platform_id p = nullptr;
        clGetDeviceInfo(d, CL_DEVICE_PLATFORM, sizeof(p), &p, nullptr);
        usm_alloc_ = clGetExtensionFunctionAddressForPlatform(
                p, "clDeviceMemAllocINTEL");
        usm_free_ = clGetExtensionFunctionAddressForPlatform(
                p, "clMemBlockingFreeINTEL");
        usm_copy_ = clGetExtensionFunctionAddressForPlatform(
                p, "clEnqueueMemcpyINTEL");
        usm_ = usm_alloc_ && usm_free_ && usm_copy_;
    }
    return true;
}

void *gpu_mem_t::alloc(size_t bytes) {
    if (bytes == 0) bytes = 1;
    void *p = nullptr;
    auto c = static_cast<cl_context>(ctx_);
    if (usm_) {
        cl_int err = CL_SUCCESS;
        p = reinterpret_cast<usm_alloc_f>(usm_alloc_)(c,
                static_cast<cl_device_id>(dev_), nullptr, bytes, 64, &err);
    } else {
        p = clSVMAlloc(c, CL_MEM_READ_WRITE, bytes, 64);
    }
    if (p) blocks_.push_back(p);
    return p;
}

bool gpu_mem_t::copy(void *dst, const void *src, size_t bytes) {
    if (bytes == 0) return true;
    auto q = static_cast<cl_command_queue>(queue_);
    if (usm_)
        return reinterpret_cast<usm_copy_f>(usm_copy_)(
                       q, CL_TRUE, dst, src, bytes, 0, nullptr, nullptr)
                == CL_SUCCESS;
    return clEnqueueSVMMemcpy(q, CL_TRUE, dst, src, bytes, 0, nullptr, nullptr)
            == CL_SUCCESS;
}

gpu_mem_t::~gpu_mem_t() {
    if (queue_) clFinish(static_cast<cl_command_queue>(queue_));
    auto c = static_cast<cl_context>(ctx_);
    for (void *p : blocks_) {
        if (usm_)
            reinterpret_cast<usm_free_f>(usm_free_)(c, p);
        else
            clSVMFree(c, p);
    }
}
#else
bool gpu_mem_t::init(dnnl_engine_t, dnnl_stream_t, std::string &error) {
    error = "this build of llga-run has no OpenCL support";
    return false;
}
void *gpu_mem_t::alloc(size_t) { return nullptr; }
bool gpu_mem_t::copy(void *, const void *, size_t) { return false; }
gpu_mem_t::~gpu_mem_t() = default;
#endif

} // namespace llga_run
