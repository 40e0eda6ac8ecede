// SPDX-License-Identifier: Apache-2.0
// backends/ocl/device.cpp — device discovery, default contexts, device memory
// (USM or SVM), user allocation callbacks and the program cache.
#include "backends/ocl/device.hpp"

#include <cstring>

#include "backends/ocl/cl_status.hpp"
#include "base/env.hpp"
#include "base/hash.hpp"
#include "base/verbose.hpp"
#include "oneapi/dnnl/dnnl_graph_ocl.h"

namespace llga {
namespace ocl {

namespace {

// USM entry points (Intel extension), looked up per platform.
using usm_dev_alloc_f = void *(CL_API_CALL *)(cl_context, cl_device_id,
        const cl_ulong *, size_t, cl_uint, cl_int *);
using usm_free_f = cl_int(CL_API_CALL *)(cl_context, void *);
using usm_set_arg_f = cl_int(CL_API_CALL *)(cl_kernel, cl_uint, const void *);
using usm_memcpy_f = cl_int(CL_API_CALL *)(cl_command_queue, cl_bool, void *,
        const void *, size_t, cl_uint, const cl_event *, cl_event *);

struct discovery_t {
    std::vector<cl_device_id> devices;
    std::string why_none;
};

discovery_t discover() {
    discovery_t d;
    const bool any = getenv_int("LLGA_OCL_ANY_DEVICE", 0) != 0;
    cl_uint np = 0;
    cl_int err = clGetPlatformIDs(0, nullptr, &np);
    if (err != CL_SUCCESS || np == 0) {
        d.why_none = "no OpenCL platform is installed (clGetPlatformIDs: "
                + std::string(cl_error_name(err)) + ")";
        return d;
    }
    std::vector<cl_platform_id> ps(np);
    clGetPlatformIDs(np, ps.data(), nullptr);
    size_t skipped = 0;
    for (cl_platform_id p : ps) {
        cl_uint nd = 0;
        if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &nd) != CL_SUCCESS
                || nd == 0)
            continue;
        std::vector<cl_device_id> ds(nd);
        clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, nd, ds.data(), nullptr);
        for (cl_device_id dev : ds) {
            cl_device_type t = 0;
            clGetDeviceInfo(dev, CL_DEVICE_TYPE, sizeof(t), &t, nullptr);
            if ((t & CL_DEVICE_TYPE_GPU) || any)
                d.devices.push_back(dev);
            else
                ++skipped;
        }
    }
    if (d.devices.empty())
        d.why_none = skipped
                ? "the OpenCL devices present are not GPUs (set "
                  "LLGA_OCL_ANY_DEVICE=1 to use CPU/accelerator devices)"
                : "no OpenCL device found";
    return d;
}

const discovery_t &discovery() {
    static const discovery_t d = discover();
    return d;
}

std::string device_string(cl_device_id dev, cl_device_info what) {
    size_t n = 0;
    if (clGetDeviceInfo(dev, what, 0, nullptr, &n) != CL_SUCCESS || n == 0)
        return std::string();
    std::string s(n, '\0');
    clGetDeviceInfo(dev, what, n, &s[0], nullptr);
    while (!s.empty() && s.back() == '\0')
        s.pop_back();
    return s;
}

// The default context of each device, shared by its default engines (and
// their program caches), made on first use and kept for the process.
struct default_ctx_t {
    std::mutex mu;
    std::map<cl_device_id, std::pair<cl_context, std::shared_ptr<program_cache_t>>> m;
};
default_ctx_t &default_ctxs() {
    static default_ctx_t *d = new default_ctx_t(); // never destroyed: the
    // ICD may already be unloaded when static destructors run.
    return *d;
}

} // namespace

const std::vector<cl_device_id> &gpu_devices() { return discovery().devices; }
std::string no_device_reason() { return discovery().why_none; }

// ---- program cache ------------------------------------------------------

program_cache_t::~program_cache_t() {
    for (auto &kv : programs_)
        clReleaseProgram(kv.second);
}

size_t program_cache_t::size() const {
    std::lock_guard<std::mutex> lock(mu_);
    return programs_.size();
}

status_t program_cache_t::get(const std::string &source,
        const std::string &options, const std::string &what, cl_program &out) {
    const std::string key
            = std::to_string(std::hash<std::string>()(source)) + "|" + options;
    std::lock_guard<std::mutex> lock(mu_);
    auto it = programs_.find(key);
    if (it != programs_.end()) {
        out = it->second;
        return dnnl_success;
    }
    const double t0 = now_ms();
    const char *src = source.c_str();
    const size_t len = source.size();
    cl_int err = CL_SUCCESS;
    cl_program p = clCreateProgramWithSource(ctx_, 1, &src, &len, &err);
    if (err != CL_SUCCESS) return cl_fail(err, "clCreateProgramWithSource");
    err = clBuildProgram(p, 1, &dev_, options.c_str(), nullptr, nullptr);
    if (err != CL_SUCCESS) {
        size_t n = 0;
        clGetProgramBuildInfo(
                p, dev_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
        std::string log(n, '\0');
        if (n)
            clGetProgramBuildInfo(
                    p, dev_, CL_PROGRAM_BUILD_LOG, n, &log[0], nullptr);
        clReleaseProgram(p);
        if (log.size() > 2000) log.resize(2000);
        return fail(cl_status(err) == dnnl_out_of_memory ? dnnl_out_of_memory
                                                        : dnnl_runtime_error,
                "OpenCL: building the %s program failed: %s (%d); options "
                "'%s'; build log:\n%s",
                what.c_str(), cl_error_name(err), static_cast<int>(err),
                options.c_str(), log.c_str());
    }
    verbose_print(1, "graph,gpu,build:program,%s,%.3f", what.c_str(),
            now_ms() - t0);
    programs_.emplace(key, p);
    out = p;
    return dnnl_success;
}

// ---- device ---------------------------------------------------------------

status_t device_impl_t::create(cl_device_id device, cl_context context,
        const rt::allocator_t &alloc, std::shared_ptr<device_impl_t> &out) {
    std::shared_ptr<device_impl_t> d(new device_impl_t());
    d->dev_ = device;
    cl_device_type type = 0;
    LLGA_CL_CHECK(clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof(type), &type,
                          nullptr),
            "clGetDeviceInfo(CL_DEVICE_TYPE) on the given device");
    if (context) {
        // The context must contain the device.
        size_t n = 0;
        LLGA_CL_CHECK(clGetContextInfo(
                              context, CL_CONTEXT_DEVICES, 0, nullptr, &n),
                "clGetContextInfo(CL_CONTEXT_DEVICES) on the given context");
        std::vector<cl_device_id> devs(n / sizeof(cl_device_id));
        clGetContextInfo(context, CL_CONTEXT_DEVICES, n, devs.data(), nullptr);
        bool found = false;
        for (cl_device_id x : devs)
            found = found || x == device;
        if (!found)
            return fail(dnnl_invalid_arguments,
                    "the OpenCL device is not in the given context");
        LLGA_CL_CHECK(clRetainContext(context), "clRetainContext");
        d->ctx_ = context;
        d->programs_ = std::make_shared<program_cache_t>(context, device);
    } else {
        auto &dc = default_ctxs();
        std::lock_guard<std::mutex> lock(dc.mu);
        auto it = dc.m.find(device);
        if (it == dc.m.end()) {
            cl_int err = CL_SUCCESS;
            cl_context c = clCreateContext(
                    nullptr, 1, &device, nullptr, nullptr, &err);
            if (err != CL_SUCCESS) return cl_fail(err, "clCreateContext");
            it = dc.m.emplace(device,
                             std::make_pair(c,
                                     std::make_shared<program_cache_t>(
                                             c, device)))
                         .first;
        }
        LLGA_CL_CHECK(clRetainContext(it->second.first), "clRetainContext");
        d->ctx_ = it->second.first;
        d->programs_ = it->second.second;
    }
    clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(size_t),
            &d->max_wg_, nullptr);
    // Memory: USM where the extension exists, else SVM.
    const std::string ext = device_string(device, CL_DEVICE_EXTENSIONS);
    cl_platform_id plat = nullptr;
    clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof(plat), &plat, nullptr);
    if (ext.find("cl_intel_unified_shared_memory") != std::string::npos) {
        d->usm_alloc_ = clGetExtensionFunctionAddressForPlatform(
                plat, "clDeviceMemAllocINTEL");
        d->usm_free_ = clGetExtensionFunctionAddressForPlatform(
                plat, "clMemBlockingFreeINTEL");
        d->usm_set_arg_ = clGetExtensionFunctionAddressForPlatform(
                plat, "clSetKernelArgMemPointerINTEL");
        d->usm_memcpy_ = clGetExtensionFunctionAddressForPlatform(
                plat, "clEnqueueMemcpyINTEL");
        if (d->usm_alloc_ && d->usm_free_ && d->usm_set_arg_ && d->usm_memcpy_)
            d->mem_kind_ = mem_kind_t::usm;
    }
    if (d->mem_kind_ == mem_kind_t::svm) {
        cl_device_svm_capabilities caps = 0;
        if (clGetDeviceInfo(device, CL_DEVICE_SVM_CAPABILITIES, sizeof(caps),
                    &caps, nullptr)
                        != CL_SUCCESS
                || caps == 0)
            return fail(dnnl_unimplemented,
                    "OpenCL device '%s' has neither Intel USM nor SVM; llga's "
                    "GPU engine needs one of them for tensor memory",
                    device_string(device, CL_DEVICE_NAME).c_str());
        d->fine_grain_ = (caps & CL_DEVICE_SVM_FINE_GRAIN_BUFFER) != 0;
    }
    d->user_alloc_ = alloc.device_alloc_fn();
    d->user_free_ = alloc.device_free_fn();
    d->backend_ = make_backend(*d);
    out = d;
    return dnnl_success;
}

device_impl_t::~device_impl_t() {
    backend_.reset();
    programs_.reset();
    if (ctx_) clReleaseContext(ctx_);
}

void *device_impl_t::allocate(size_t size, size_t alignment) const {
    if (user_alloc_) {
        auto f = reinterpret_cast<dnnl_graph_ocl_allocate_f>(user_alloc_);
        return f(size, alignment, dev_, ctx_);
    }
    if (mem_kind_ == mem_kind_t::usm) {
        cl_int err = CL_SUCCESS;
        auto f = reinterpret_cast<usm_dev_alloc_f>(usm_alloc_);
        void *p = f(ctx_, dev_, nullptr, size, static_cast<cl_uint>(alignment),
                &err);
        return err == CL_SUCCESS ? p : nullptr;
    }
    cl_svm_mem_flags flags = CL_MEM_READ_WRITE;
    if (fine_grain_) flags |= CL_MEM_SVM_FINE_GRAIN_BUFFER;
    return clSVMAlloc(ctx_, flags, size, static_cast<cl_uint>(alignment));
}

void device_impl_t::deallocate(void *p, void *event) const {
    cl_event ev = static_cast<cl_event>(event);
    if (user_free_) {
        auto f = reinterpret_cast<dnnl_graph_ocl_deallocate_f>(user_free_);
        f(p, dev_, ctx_, ev);
        return;
    }
    if (ev) clWaitForEvents(1, &ev);
    if (mem_kind_ == mem_kind_t::usm) {
        reinterpret_cast<usm_free_f>(usm_free_)(ctx_, p);
        return;
    }
    clSVMFree(ctx_, p);
}

std::string device_impl_t::tag() const {
    char buf[64];
    std::snprintf(buf, sizeof(buf), "ocl:%p:%p", static_cast<void *>(dev_),
            static_cast<void *>(ctx_));
    return buf;
}

std::string device_impl_t::description() const {
    return device_string(dev_, CL_DEVICE_NAME) + " ("
            + device_string(dev_, CL_DEVICE_VERSION) + ", "
            + (mem_kind_ == mem_kind_t::usm ? "usm" : "svm") + ")";
}

cl_int device_impl_t::set_arg_pointer(
        cl_kernel k, cl_uint idx, const void *p) const {
    if (mem_kind_ == mem_kind_t::usm)
        return reinterpret_cast<usm_set_arg_f>(usm_set_arg_)(k, idx, p);
    return clSetKernelArgSVMPointer(k, idx, p);
}

status_t device_impl_t::copy(cl_command_queue q, void *dst, const void *src,
        size_t bytes) const {
    if (mem_kind_ == mem_kind_t::usm) {
        LLGA_CL_CHECK(reinterpret_cast<usm_memcpy_f>(usm_memcpy_)(
                              q, CL_TRUE, dst, src, bytes, 0, nullptr, nullptr),
                "clEnqueueMemcpyINTEL");
        return dnnl_success;
    }
    LLGA_CL_CHECK(clEnqueueSVMMemcpy(
                          q, CL_TRUE, dst, src, bytes, 0, nullptr, nullptr),
            "clEnqueueSVMMemcpy");
    return dnnl_success;
}

// ---- queue ----------------------------------------------------------------

queue_impl_t::~queue_impl_t() {
    if (q_) clReleaseCommandQueue(q_);
}

status_t queue_impl_t::wait() {
    LLGA_CL_CHECK(clFinish(q_), "clFinish");
    return dnnl_success;
}

} // namespace ocl
} // namespace llga
