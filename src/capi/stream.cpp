// SPDX-License-Identifier: Apache-2.0
// capi/stream.cpp — dnnl_stream_*.
#include "capi/barrier.hpp"
#include "capi/handles.hpp"
#ifdef LLGA_WITH_OPENCL
#include "backends/ocl/ocl_api.hpp"
#endif

using namespace llga;

extern "C" {

dnnl_status_t dnnl_stream_create(
        dnnl_stream_t *stream, dnnl_engine_t engine, unsigned flags) {
    return LLGA_API_BODY("dnnl_stream_create", {
        LLGA_CHECK_ARG(stream);
        *stream = nullptr;
        LLGA_CHECK_ARG(engine);
        LLGA_RETURN_IF_ERROR(rt::stream_t::check_flags(flags));
#ifdef LLGA_WITH_OPENCL
        if (engine->kind() == dnnl_gpu) {
            // GPU streams are in-order queues (out_of_order is honoured as
            // in-order, which is a valid schedule).
            std::shared_ptr<rt::queue_t> q;
            LLGA_RETURN_IF_ERROR(ocl::make_queue(*engine, nullptr, q));
            *stream = new dnnl_stream(engine, flags, q);
            return dnnl_success;
        }
#endif
        *stream = new dnnl_stream(engine, flags);
        return dnnl_success;
    });
}

dnnl_status_t dnnl_stream_get_engine(
        const_dnnl_stream_t stream, dnnl_engine_t *engine) {
    return LLGA_API_BODY("dnnl_stream_get_engine", {
        LLGA_CHECK_ARG(stream);
        LLGA_CHECK_ARG(engine);
        *engine = static_cast<dnnl_engine_t>(stream->engine());
        return dnnl_success;
    });
}

dnnl_status_t dnnl_stream_wait(dnnl_stream_t stream) {
    return LLGA_API_BODY("dnnl_stream_wait", {
        LLGA_CHECK_ARG(stream);
        return stream->wait();
    });
}

dnnl_status_t dnnl_stream_destroy(dnnl_stream_t stream) {
    return LLGA_API_BODY("dnnl_stream_destroy", {
        LLGA_CHECK_ARG(stream);
        delete stream;
        return dnnl_success;
    });
}

} // extern "C"
