// SPDX-License-Identifier: Apache-2.0
// dnnl_graph_ocl.hpp -- part of llga, a from-scratch implementation of the
// oneDNN v3.9 Graph API.
//
// Owns: namespace dnnl::graph::ocl_interop — allocators from OpenCL
// callbacks, engines with such an allocator, and execution ordered by
// OpenCL events.
#ifndef ONEAPI_DNNL_DNNL_GRAPH_OCL_HPP
#define ONEAPI_DNNL_DNNL_GRAPH_OCL_HPP

#include <cstdint>
#include <vector>

#include "oneapi/dnnl/dnnl_graph.hpp"
#include "oneapi/dnnl/dnnl_graph_ocl.h"
#include "oneapi/dnnl/dnnl_ocl.hpp"

namespace dnnl {
namespace graph {
namespace ocl_interop {

/// Allocator from OpenCL allocation callbacks.
inline allocator make_allocator(dnnl_graph_ocl_allocate_f ocl_malloc,
        dnnl_graph_ocl_deallocate_f ocl_free) {
    dnnl_graph_allocator_t c_allocator = nullptr;
    error::wrap_c_api(dnnl_graph_ocl_interop_allocator_create(
                              &c_allocator, ocl_malloc, ocl_free),
            "could not create allocator for opencl device");
    return allocator(c_allocator);
}

/// GPU engine on `device` in `context` that allocates through `alloc`.
inline engine make_engine_with_allocator(
        cl_device_id device, cl_context context, const allocator &alloc) {
    dnnl_engine_t c_engine = nullptr;
    error::wrap_c_api(dnnl_graph_ocl_interop_make_engine_with_allocator(
                              &c_engine, device, context, alloc.get()),
            "could not make an engine with allocator");
    return engine(c_engine);
}

/// Same, seeded with an engine cache blob.
inline engine make_engine_with_allocator(cl_device_id device,
        cl_context context, const allocator &alloc,
        const std::vector<uint8_t> &cache_blob) {
    dnnl_engine_t c_engine = nullptr;
    error::wrap_c_api(
            dnnl_graph_ocl_interop_make_engine_from_cache_blob_with_allocator(
                    &c_engine, device, context, alloc.get(), cache_blob.size(),
                    cache_blob.data()),
            "could not make an engine with allocator from cache blob");
    return engine(c_engine);
}

/// Executes `c_partition` on `astream` after `deps`; returns an event that
/// completes with it (the caller releases it with clReleaseEvent).
inline cl_event execute(compiled_partition &c_partition, stream &astream,
        const std::vector<tensor> &inputs, std::vector<tensor> &outputs,
        const std::vector<cl_event> &deps = {}) {
    std::vector<const_dnnl_graph_tensor_t> c_inputs;
    c_inputs.reserve(inputs.size());
    for (const auto &in : inputs)
        c_inputs.push_back(in.get());
    std::vector<const_dnnl_graph_tensor_t> c_outputs;
    c_outputs.reserve(outputs.size());
    for (const auto &out : outputs)
        c_outputs.push_back(out.get());
    cl_event ocl_event = nullptr;
    error::wrap_c_api(
            dnnl_graph_ocl_interop_compiled_partition_execute(
                    c_partition.get(), astream.get(), c_inputs.size(),
                    c_inputs.data(), c_outputs.size(), c_outputs.data(),
                    deps.empty() ? nullptr : deps.data(),
                    static_cast<int>(deps.size()), &ocl_event),
            "could not execute the compiled_partition on a specified opencl "
            "stream");
    return ocl_event;
}

} // namespace ocl_interop
} // namespace graph
} // namespace dnnl

#endif // ONEAPI_DNNL_DNNL_GRAPH_OCL_HPP
