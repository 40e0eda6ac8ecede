/* SPDX-License-Identifier: Apache-2.0 */
/*
 * dnnl_ocl_types.h -- part of llga, a from-scratch implementation of the
 * oneDNN v3.9 Graph API.
 *
 * Owns: the OpenCL interop memory kind enum.
 */
#ifndef ONEAPI_DNNL_DNNL_OCL_TYPES_H
#define ONEAPI_DNNL_DNNL_OCL_TYPES_H

#ifdef __cplusplus
extern "C" {
#endif

/** How an OpenCL engine's memory is handed over: a USM (or, on devices
 * without USM, SVM) pointer, or a cl_mem buffer. */
typedef enum {
    dnnl_ocl_interop_usm = 0,
    dnnl_ocl_interop_buffer = 1,
} dnnl_ocl_interop_memory_kind_t;

#ifdef __cplusplus
}
#endif

#endif /* ONEAPI_DNNL_DNNL_OCL_TYPES_H */
