// SPDX-License-Identifier: Apache-2.0
// backends/ocl/ocl_api.cpp — GPU engines, queues and native handles for the
// C API layer.
#include "backends/ocl/ocl_api.hpp"

#include "backends/ocl/cl_status.hpp"
#include "backends/ocl/device.hpp"
#include "base/verbose.hpp"

namespace llga {
namespace ocl {

namespace {
const device_impl_t *impl_of(const rt::engine_t &e) {
    return dynamic_cast<const device_impl_t *>(e.device());
}

std::string info_string(cl_device_id dev, cl_device_info what) {
    size_t n = 0;
    if (clGetDeviceInfo(dev, what, 0, nullptr, &n) != CL_SUCCESS || n == 0)
        return std::string();
    std::string s(n, '\0');
    clGetDeviceInfo(dev, what, n, &s[0], nullptr);
    while (!s.empty() && s.back() == '\0')
        s.pop_back();
    return s;
}
} // namespace

size_t gpu_count() { return gpu_devices().size(); }

status_t check_gpu_index(size_t index) {
    const size_t n = gpu_count();
    if (n == 0)
        return fail(dnnl_invalid_arguments,
                "no GPU engine is available: %s", no_device_reason().c_str());
    if (index >= n)
        return fail(dnnl_invalid_arguments,
                "gpu engine index %zu is out of range (there are %zu)", index,
                n);
    return dnnl_success;
}

status_t make_device(size_t index, const rt::allocator_t &alloc,
        std::shared_ptr<const rt::device_t> &out) {
    LLGA_RETURN_IF_ERROR(check_gpu_index(index));
    std::shared_ptr<device_impl_t> d;
    LLGA_RETURN_IF_ERROR(
            device_impl_t::create(gpu_devices()[index], nullptr, alloc, d));
    verbose_print(1, "graph,info,gpu,engine,%zu,%s", index,
            d->description().c_str());
    out = d;
    return dnnl_success;
}

status_t make_interop_device(void *native_dev, void *native_ctx,
        const rt::allocator_t &alloc, std::shared_ptr<const rt::device_t> &out,
        size_t &index) {
    if (!native_dev || !native_ctx)
        return fail(dnnl_invalid_arguments,
                "an OpenCL engine needs a device and a context (got %s)",
                native_dev ? "a null context" : "a null device");
    auto dev = static_cast<cl_device_id>(native_dev);
    std::shared_ptr<device_impl_t> d;
    LLGA_RETURN_IF_ERROR(device_impl_t::create(
            dev, static_cast<cl_context>(native_ctx), alloc, d));
    index = 0;
    const auto &all = gpu_devices();
    for (size_t i = 0; i < all.size(); ++i)
        if (all[i] == dev) index = i;
    verbose_print(1, "graph,info,gpu,engine,interop,%s",
            d->description().c_str());
    out = d;
    return dnnl_success;
}

status_t make_queue(const rt::engine_t &engine, void *native_q,
        std::shared_ptr<rt::queue_t> &out) {
    const device_impl_t *d = impl_of(engine);
    if (!d)
        return fail(dnnl_invalid_arguments,
                "an OpenCL stream needs a GPU engine");
    cl_command_queue q = static_cast<cl_command_queue>(native_q);
    if (q) {
        cl_context qc = nullptr;
        cl_device_id qd = nullptr;
        cl_command_queue_properties props = 0;
        LLGA_CL_CHECK(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof(qc),
                              &qc, nullptr),
                "clGetCommandQueueInfo on the given queue");
        clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof(qd), &qd, nullptr);
        clGetCommandQueueInfo(
                q, CL_QUEUE_PROPERTIES, sizeof(props), &props, nullptr);
        if (qc != d->context() || qd != d->device())
            return fail(dnnl_invalid_arguments,
                    "the OpenCL queue belongs to another context or device "
                    "than the engine");
        if (props & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE)
            return fail(dnnl_invalid_arguments,
                    "llga's GPU streams need an in-order OpenCL queue");
        LLGA_CL_CHECK(clRetainCommandQueue(q), "clRetainCommandQueue");
    } else {
        cl_int err = CL_SUCCESS;
        q = clCreateCommandQueueWithProperties(
                d->context(), d->device(), nullptr, &err);
        if (err != CL_SUCCESS)
            return cl_fail(err, "clCreateCommandQueueWithProperties");
    }
    out = std::make_shared<queue_impl_t>(d->shared_from_this(), q);
    return dnnl_success;
}

status_t native_context(const rt::engine_t &engine, void **out) {
    const device_impl_t *d = impl_of(engine);
    if (!d)
        return fail(dnnl_invalid_arguments,
                "the engine is not an OpenCL (GPU) engine");
    *out = d->context();
    return dnnl_success;
}

status_t native_device(const rt::engine_t &engine, void **out) {
    const device_impl_t *d = impl_of(engine);
    if (!d)
        return fail(dnnl_invalid_arguments,
                "the engine is not an OpenCL (GPU) engine");
    *out = d->device();
    return dnnl_success;
}

status_t native_queue(const rt::stream_t &stream, void **out) {
    auto *q = dynamic_cast<const queue_impl_t *>(stream.queue());
    if (!q)
        return fail(dnnl_invalid_arguments,
                "the stream is not on an OpenCL (GPU) engine");
    *out = q->get();
    return dnnl_success;
}

std::string cache_blob_id(void *native_dev) {
    auto dev = static_cast<cl_device_id>(native_dev);
    return "llga-ocl|" + info_string(dev, CL_DEVICE_NAME) + "|"
            + info_string(dev, CL_DEVICE_VERSION) + "|"
            + info_string(dev, CL_DRIVER_VERSION);
}

const compiler::backend_t *backend_for(const rt::engine_t &engine) {
    const device_impl_t *d = impl_of(engine);
    return d ? &d->backend() : nullptr;
}

} // namespace ocl
} // namespace llga
