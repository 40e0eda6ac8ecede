/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dnnl_graph_ocl.h -- part of llga, a from-scratch implementation of the
 * oneDNN v3.9 Graph API.
 *
 * Owns: the graph OpenCL interop C API: allocators from OpenCL allocation
 * callbacks, engines with such an allocator, and execution ordered by
 * OpenCL events. Exported only by OpenCL builds.
 */
#ifndef ONEAPI_DNNL_DNNL_GRAPH_OCL_H
#define ONEAPI_DNNL_DNNL_GRAPH_OCL_H

#include "oneapi/dnnl/dnnl_graph.h"
#include "oneapi/dnnl/dnnl_ocl.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Allocates `size` bytes of device memory usable by kernels in `context`
 * (USM device memory, or an SVM pointer on devices without USM). */
typedef void *(*dnnl_graph_ocl_allocate_f)(
        size_t size, size_t alignment, cl_device_id device, cl_context context);

/** Frees `buf` once `event` has completed (`event` may be NULL: free now). */
typedef void (*dnnl_graph_ocl_deallocate_f)(
        void *buf, cl_device_id device, cl_context context, cl_event event);

/** Allocator from OpenCL callbacks; NULL callbacks give the default one. */
dnnl_status_t DNNL_API dnnl_graph_ocl_interop_allocator_create(
        dnnl_graph_allocator_t *allocator, dnnl_graph_ocl_allocate_f ocl_malloc,
        dnnl_graph_ocl_deallocate_f ocl_free);

/** GPU engine on `device` in `context` that allocates through `alloc`. */
dnnl_status_t DNNL_API dnnl_graph_ocl_interop_make_engine_with_allocator(
        dnnl_engine_t *engine, cl_device_id device, cl_context context,
        const_dnnl_graph_allocator_t alloc);

/** Same, seeded with an engine cache blob. */
dnnl_status_t DNNL_API
dnnl_graph_ocl_interop_make_engine_from_cache_blob_with_allocator(
        dnnl_engine_t *engine, cl_device_id device, cl_context context,
        const_dnnl_graph_allocator_t alloc, size_t size,
        const uint8_t *cache_blob);

/** Executes after `deps`; *return_event (if not NULL) receives an event that
 * completes with the execution (the caller releases it). */
dnnl_status_t DNNL_API dnnl_graph_ocl_interop_compiled_partition_execute(
        const_dnnl_graph_compiled_partition_t compiled_partition,
        dnnl_stream_t stream, size_t num_inputs,
        const_dnnl_graph_tensor_t *inputs, size_t num_outputs,
        const_dnnl_graph_tensor_t *outputs, const cl_event *deps, int ndeps,
        cl_event *return_event);

#ifdef __cplusplus
}
#endif

#endif /* ONEAPI_DNNL_DNNL_GRAPH_OCL_H */
