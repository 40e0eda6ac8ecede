// SPDX-License-Identifier: Apache-2.0
// dnnl_ocl.hpp -- part of llga, a from-scratch implementation of the oneDNN
// v3.9 Graph API.
//
// Owns: namespace dnnl::ocl_interop — engines from an OpenCL device and
// context, their context/device, the cache blob, streams on an OpenCL
// queue. Includes the common C++ API (llga has no primitive API, so the
// memory/primitive functions of oneDNN's header are absent).
#ifndef ONEAPI_DNNL_DNNL_OCL_HPP
#define ONEAPI_DNNL_DNNL_OCL_HPP

#include <cstdint>
#include <vector>

#include "oneapi/dnnl/dnnl_common.hpp"
#include "oneapi/dnnl/dnnl_ocl.h"

namespace dnnl {
namespace ocl_interop {

/// Memory kinds of an OpenCL engine.
enum class memory_kind {
    usm = dnnl_ocl_interop_usm,
    buffer = dnnl_ocl_interop_buffer,
};

inline dnnl_ocl_interop_memory_kind_t convert_to_c(memory_kind akind) {
    return static_cast<dnnl_ocl_interop_memory_kind_t>(akind);
}

/// Cache blob id of `device`.
inline std::vector<uint8_t> get_engine_cache_blob_id(cl_device_id device) {
    size_t size = 0;
    error::wrap_c_api(
            dnnl_ocl_interop_engine_get_cache_blob_id(device, &size, nullptr),
            "could not get an engine cache blob id size");
    std::vector<uint8_t> id(size);
    error::wrap_c_api(
            dnnl_ocl_interop_engine_get_cache_blob_id(device, &size, id.data()),
            "could not get an engine cache blob id");
    return id;
}

/// Cache blob of `aengine`.
inline std::vector<uint8_t> get_engine_cache_blob(const engine &aengine) {
    size_t size = 0;
    error::wrap_c_api(dnnl_ocl_interop_engine_get_cache_blob(
                              aengine.get(), &size, nullptr),
            "could not get an engine cache blob size");
    std::vector<uint8_t> blob(size);
    error::wrap_c_api(dnnl_ocl_interop_engine_get_cache_blob(
                              aengine.get(), &size, blob.data()),
            "could not get an engine cache blob");
    return blob;
}

/// Engine on `device` in `context`, seeded with `cache_blob`.
inline engine make_engine(cl_device_id device, cl_context context,
        const std::vector<uint8_t> &cache_blob) {
    dnnl_engine_t c_engine = nullptr;
    error::wrap_c_api(dnnl_ocl_interop_engine_create_from_cache_blob(&c_engine,
                              device, context, cache_blob.size(),
                              cache_blob.data()),
            "could not create an engine from cache blob");
    return engine(c_engine);
}

/// Engine on `device` in `context`.
inline engine make_engine(cl_device_id device, cl_context context) {
    dnnl_engine_t c_engine = nullptr;
    error::wrap_c_api(
            dnnl_ocl_interop_engine_create(&c_engine, device, context),
            "could not create an engine");
    return engine(c_engine);
}

/// The engine's OpenCL context.
inline cl_context get_context(const engine &aengine) {
    cl_context context = nullptr;
    error::wrap_c_api(
            dnnl_ocl_interop_engine_get_context(aengine.get(), &context),
            "could not get an OpenCL context from an engine");
    return context;
}

/// The engine's OpenCL device.
inline cl_device_id get_device(const engine &aengine) {
    cl_device_id device = nullptr;
    error::wrap_c_api(dnnl_ocl_interop_get_device(aengine.get(), &device),
            "could not get an OpenCL device from an engine");
    return device;
}

/// Stream on the in-order `queue`.
inline stream make_stream(const engine &aengine, cl_command_queue queue) {
    dnnl_stream_t c_stream = nullptr;
    error::wrap_c_api(
            dnnl_ocl_interop_stream_create(&c_stream, aengine.get(), queue),
            "could not create a stream");
    return stream(c_stream);
}

/// The stream's command queue.
inline cl_command_queue get_command_queue(const stream &astream) {
    cl_command_queue queue = nullptr;
    error::wrap_c_api(
            dnnl_ocl_interop_stream_get_command_queue(astream.get(), &queue),
            "could not get an OpenCL command queue from a stream");
    return queue;
}

} // namespace ocl_interop
} // namespace dnnl

#endif // ONEAPI_DNNL_DNNL_OCL_HPP
