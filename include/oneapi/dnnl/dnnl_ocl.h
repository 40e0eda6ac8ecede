/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dnnl_ocl.h -- part of llga, a from-scratch implementation of the oneDNN
 * v3.9 Graph API.
 *
 * Owns: the OpenCL interop C functions on engines and streams (engine from a
 * cl_device_id + cl_context, its context and device, the engine cache blob,
 * stream from a cl_command_queue and its queue). llga has no primitive API,
 * so the memory and primitive interop functions of oneDNN's dnnl_ocl.h are
 * not declared (docs/compatibility.md). Exported only by OpenCL builds
 * (DNNL_GPU_RUNTIME == DNNL_RUNTIME_OCL).
 */
#ifndef ONEAPI_DNNL_DNNL_OCL_H
#define ONEAPI_DNNL_DNNL_OCL_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>

#include "oneapi/dnnl/dnnl_common.h"
#include "oneapi/dnnl/dnnl_ocl_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Size of the cache blob id of `device` (when cache_blob_id is NULL) or the
 * id itself (cache_blob_id holds *size bytes). */
dnnl_status_t DNNL_API dnnl_ocl_interop_engine_get_cache_blob_id(
        cl_device_id device, size_t *size, uint8_t *cache_blob_id);

/** Size of the engine's cache blob (cache_blob NULL) or the blob itself. */
dnnl_status_t DNNL_API dnnl_ocl_interop_engine_get_cache_blob(
        dnnl_engine_t engine, size_t *size, uint8_t *cache_blob);

/** Engine on `device` in `context`, seeded with a cache blob. */
dnnl_status_t DNNL_API dnnl_ocl_interop_engine_create_from_cache_blob(
        dnnl_engine_t *engine, cl_device_id device, cl_context context,
        size_t size, const uint8_t *cache_blob);

/** Engine on `device` in the user's `context` (retained by the engine). */
dnnl_status_t DNNL_API dnnl_ocl_interop_engine_create(
        dnnl_engine_t *engine, cl_device_id device, cl_context context);

/** The engine's OpenCL context (not retained for the caller). */
dnnl_status_t DNNL_API dnnl_ocl_interop_engine_get_context(
        dnnl_engine_t engine, cl_context *context);

/** The engine's OpenCL device. */
dnnl_status_t DNNL_API dnnl_ocl_interop_get_device(
        dnnl_engine_t engine, cl_device_id *device);

/** Stream on the user's in-order `queue` (retained by the stream). */
dnnl_status_t DNNL_API dnnl_ocl_interop_stream_create(
        dnnl_stream_t *stream, dnnl_engine_t engine, cl_command_queue queue);

/** The stream's command queue (not retained for the caller). */
dnnl_status_t DNNL_API dnnl_ocl_interop_stream_get_command_queue(
        dnnl_stream_t stream, cl_command_queue *queue);

#ifdef __cplusplus
}
#endif

#endif /* ONEAPI_DNNL_DNNL_OCL_H */
