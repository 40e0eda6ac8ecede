// SPDX-License-Identifier: Apache-2.0
// capi/ocl_interop.cpp — the OpenCL interop C API (dnnl_ocl.h and
// dnnl_graph_ocl.h): engines from a user's device and context, streams on a
// user's queue, allocators from OpenCL callbacks, event-ordered execution.
// Built only with LLGA_WITH_OPENCL. The OpenCL handles are passed to
// backends/ocl as void*; this file makes no OpenCL call.
#include <cstring>

#include "backends/ocl/ocl_api.hpp"
#include "capi/barrier.hpp"
#include "capi/execute.hpp"
#include "capi/handles.hpp"
#include "oneapi/dnnl/dnnl_graph_ocl.h"

using namespace llga;

namespace {

status_t make_interop_engine(dnnl_engine_t *engine, cl_device_id device,
        cl_context context, const rt::allocator_t &alloc, size_t blob_size,
        const uint8_t *blob, bool with_blob) {
    if (with_blob) {
        if (!device)
            return fail(dnnl_invalid_arguments, "device is null");
        const std::string id = ocl::cache_blob_id(device);
        if (blob_size > 0 && !blob)
            return fail(dnnl_invalid_arguments,
                    "cache_blob is null but its size is %zu", blob_size);
        if (blob_size != id.size()
                || (blob_size && std::memcmp(blob, id.data(), blob_size) != 0))
            return fail(dnnl_invalid_arguments,
                    "the cache blob (%zu bytes) was not made for this OpenCL "
                    "device and driver",
                    blob_size);
    }
    std::shared_ptr<const rt::device_t> dev;
    size_t index = 0;
    LLGA_RETURN_IF_ERROR(
            ocl::make_interop_device(device, context, alloc, dev, index));
    *engine = new dnnl_engine(dnnl_gpu, index, alloc, dev);
    return dnnl_success;
}

} // namespace

extern "C" {

dnnl_status_t dnnl_ocl_interop_engine_get_cache_blob_id(
        cl_device_id device, size_t *size, uint8_t *cache_blob_id) {
    return LLGA_API_BODY("dnnl_ocl_interop_engine_get_cache_blob_id", {
        LLGA_CHECK_ARG(device);
        LLGA_CHECK_ARG(size);
        const std::string id = ocl::cache_blob_id(device);
        if (!cache_blob_id) {
            *size = id.size();
            return dnnl_success;
        }
        if (*size != id.size())
            return fail(dnnl_invalid_arguments,
                    "cache blob id buffer is %zu bytes, the id has %zu",
                    *size, id.size());
        std::memcpy(cache_blob_id, id.data(), id.size());
        return dnnl_success;
    });
}

dnnl_status_t dnnl_ocl_interop_engine_get_cache_blob(
        dnnl_engine_t engine, size_t *size, uint8_t *cache_blob) {
    return LLGA_API_BODY("dnnl_ocl_interop_engine_get_cache_blob", {
        LLGA_CHECK_ARG(engine);
        LLGA_CHECK_ARG(size);
        void *dev = nullptr;
        LLGA_RETURN_IF_ERROR(ocl::native_device(*engine, &dev));
        // The blob identifies the device and driver; programs are rebuilt
        // (PoCL and most drivers keep their own binary cache).
        const std::string id = ocl::cache_blob_id(dev);
        if (!cache_blob) {
            *size = id.size();
            return dnnl_success;
        }
        if (*size != id.size())
            return fail(dnnl_invalid_arguments,
                    "cache blob buffer is %zu bytes, the blob has %zu", *size,
                    id.size());
        std::memcpy(cache_blob, id.data(), id.size());
        return dnnl_success;
    });
}

dnnl_status_t dnnl_ocl_interop_engine_create_from_cache_blob(
        dnnl_engine_t *engine, cl_device_id device, cl_context context,
        size_t size, const uint8_t *cache_blob) {
    return LLGA_API_BODY("dnnl_ocl_interop_engine_create_from_cache_blob", {
        LLGA_CHECK_ARG(engine);
        *engine = nullptr;
        return make_interop_engine(engine, device, context, rt::allocator_t(),
                size, cache_blob, true);
    });
}

dnnl_status_t dnnl_ocl_interop_engine_create(
        dnnl_engine_t *engine, cl_device_id device, cl_context context) {
    return LLGA_API_BODY("dnnl_ocl_interop_engine_create", {
        LLGA_CHECK_ARG(engine);
        *engine = nullptr;
        return make_interop_engine(engine, device, context, rt::allocator_t(),
                0, nullptr, false);
    });
}

dnnl_status_t dnnl_ocl_interop_engine_get_context(
        dnnl_engine_t engine, cl_context *context) {
    return LLGA_API_BODY("dnnl_ocl_interop_engine_get_context", {
        LLGA_CHECK_ARG(engine);
        LLGA_CHECK_ARG(context);
        void *c = nullptr;
        LLGA_RETURN_IF_ERROR(ocl::native_context(*engine, &c));
        *context = static_cast<cl_context>(c);
        return dnnl_success;
    });
}

dnnl_status_t dnnl_ocl_interop_get_device(
        dnnl_engine_t engine, cl_device_id *device) {
    return LLGA_API_BODY("dnnl_ocl_interop_get_device", {
        LLGA_CHECK_ARG(engine);
        LLGA_CHECK_ARG(device);
        void *d = nullptr;
        LLGA_RETURN_IF_ERROR(ocl::native_device(*engine, &d));
        *device = static_cast<cl_device_id>(d);
        return dnnl_success;
    });
}

dnnl_status_t dnnl_ocl_interop_stream_create(
        dnnl_stream_t *stream, dnnl_engine_t engine, cl_command_queue queue) {
    return LLGA_API_BODY("dnnl_ocl_interop_stream_create", {
        LLGA_CHECK_ARG(stream);
        *stream = nullptr;
        LLGA_CHECK_ARG(engine);
        LLGA_CHECK_ARG(queue);
        std::shared_ptr<rt::queue_t> q;
        LLGA_RETURN_IF_ERROR(ocl::make_queue(*engine, queue, q));
        *stream = new dnnl_stream(engine, dnnl_stream_in_order, q);
        return dnnl_success;
    });
}

dnnl_status_t dnnl_ocl_interop_stream_get_command_queue(
        dnnl_stream_t stream, cl_command_queue *queue) {
    return LLGA_API_BODY("dnnl_ocl_interop_stream_get_command_queue", {
        LLGA_CHECK_ARG(stream);
        LLGA_CHECK_ARG(queue);
        void *q = nullptr;
        LLGA_RETURN_IF_ERROR(ocl::native_queue(*stream, &q));
        *queue = static_cast<cl_command_queue>(q);
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_ocl_interop_allocator_create(
        dnnl_graph_allocator_t *allocator, dnnl_graph_ocl_allocate_f ocl_malloc,
        dnnl_graph_ocl_deallocate_f ocl_free) {
    return LLGA_API_BODY("dnnl_graph_ocl_interop_allocator_create", {
        LLGA_CHECK_ARG(allocator);
        *allocator = nullptr;
        using fn_t = rt::allocator_t::generic_fn_t;
        // One callback without the other gives the default allocator.
        auto *a = new dnnl_graph_allocator();
        static_cast<rt::allocator_t &>(*a) = rt::allocator_t::make_device(
                reinterpret_cast<fn_t>(ocl_malloc),
                reinterpret_cast<fn_t>(ocl_free));
        *allocator = a;
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_ocl_interop_make_engine_with_allocator(
        dnnl_engine_t *engine, cl_device_id device, cl_context context,
        const_dnnl_graph_allocator_t alloc) {
    return LLGA_API_BODY("dnnl_graph_ocl_interop_make_engine_with_allocator", {
        LLGA_CHECK_ARG(engine);
        *engine = nullptr;
        LLGA_CHECK_ARG(alloc);
        return make_interop_engine(
                engine, device, context, *alloc, 0, nullptr, false);
    });
}

dnnl_status_t dnnl_graph_ocl_interop_make_engine_from_cache_blob_with_allocator(
        dnnl_engine_t *engine, cl_device_id device, cl_context context,
        const_dnnl_graph_allocator_t alloc, size_t size,
        const uint8_t *cache_blob) {
    return LLGA_API_BODY(
            "dnnl_graph_ocl_interop_make_engine_from_cache_blob_with_allocator",
            {
                LLGA_CHECK_ARG(engine);
                *engine = nullptr;
                LLGA_CHECK_ARG(alloc);
                return make_interop_engine(engine, device, context, *alloc,
                        size, cache_blob, true);
            });
}

dnnl_status_t dnnl_graph_ocl_interop_compiled_partition_execute(
        const_dnnl_graph_compiled_partition_t compiled_partition,
        dnnl_stream_t stream, size_t num_inputs,
        const_dnnl_graph_tensor_t *inputs, size_t num_outputs,
        const_dnnl_graph_tensor_t *outputs, const cl_event *deps, int ndeps,
        cl_event *return_event) {
    return LLGA_API_BODY("dnnl_graph_ocl_interop_compiled_partition_execute", {
        if (return_event) *return_event = nullptr;
        LLGA_CHECK_ARG(compiled_partition);
        LLGA_CHECK_ARG(stream);
        if (stream->engine()->kind() != dnnl_gpu)
            return fail(dnnl_invalid_arguments,
                    "OpenCL interop execute needs a stream on a GPU engine");
        if (ndeps < 0)
            return fail(dnnl_invalid_arguments, "ndeps is negative (%d)",
                    ndeps);
        if (ndeps > 0) LLGA_CHECK_ARG(deps);
        compiler::device_events_t ev;
        ev.deps = reinterpret_cast<void *const *>(deps);
        ev.ndeps = ndeps;
        void *done = nullptr;
        ev.done = return_event ? &done : nullptr;
        LLGA_RETURN_IF_ERROR(capi::execute_handles(compiled_partition, stream,
                num_inputs, inputs, num_outputs, outputs, ev));
        if (return_event) *return_event = static_cast<cl_event>(done);
        return dnnl_success;
    });
}

} // extern "C"
