/* SPDX-License-Identifier: Apache-2.0 */
/** @file
 * dnnl_common_types.h -- part of llga, a from-scratch implementation of the
 * oneDNN v3.9 Graph API.
 *
 * Owns: the C types shared by the graph API and the rest of the library:
 * status codes, element data types, dimension types, floating-point math and
 * accumulation modes, engine kinds, stream flags, the opaque engine and
 * stream handles, the version structure and the DNNL_MEMORY_* handle values.
 * C99; every numeric value here is part of the ABI.
 */

#ifndef ONEAPI_DNNL_DNNL_COMMON_TYPES_H
#define ONEAPI_DNNL_DNNL_COMMON_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "oneapi/dnnl/dnnl_config.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Status codes returned by every C API function.                           */
/* ------------------------------------------------------------------------ */

/** Status returned by every C API function. */
typedef enum {
    /** The call succeeded. */
    dnnl_success = 0,
    /** A memory allocation failed. */
    dnnl_out_of_memory = 1,
    /** An argument was missing, malformed or inconsistent. */
    dnnl_invalid_arguments = 2,
    /** The requested functionality is not available. */
    dnnl_unimplemented = 3,
    /** No further implementation is available (primitive iteration). */
    dnnl_last_impl_reached = 4,
    /** An error was reported by a runtime or the operating system. */
    dnnl_runtime_error = 5,
    /** The requested work was not needed (e.g. nothing to do). */
    dnnl_not_required = 6,
    /** The graph is malformed or in the wrong state for the call. */
    dnnl_invalid_graph = 7,
    /** An operation violates its schema (operands, types, attributes). */
    dnnl_invalid_graph_op = 8,
    /** A shape is invalid or could not be inferred. */
    dnnl_invalid_shape = 9,
    /** A data type is invalid for the requested use. */
    dnnl_invalid_data_type = 10,
} dnnl_status_t;

/* ------------------------------------------------------------------------ */
/* Element data types.                                                      */
/* ------------------------------------------------------------------------ */

/** Element data types. */
typedef enum {
    /** Unspecified type. */
    dnnl_data_type_undef = 0,
    /** IEEE 754 binary16. */
    dnnl_f16 = 1,
    /** bfloat16: 8-bit exponent, 7-bit mantissa. */
    dnnl_bf16 = 2,
    /** IEEE 754 binary32. */
    dnnl_f32 = 3,
    /** Signed 32-bit integer. */
    dnnl_s32 = 4,
    /** Signed 8-bit integer. */
    dnnl_s8 = 5,
    /** Unsigned 8-bit integer. */
    dnnl_u8 = 6,
    /** IEEE 754 binary64. */
    dnnl_f64 = 7,
    /** Boolean stored in one byte. */
    dnnl_boolean = 8,
    /** 8-bit float, 5-bit exponent, 2-bit mantissa. */
    dnnl_f8_e5m2 = 9,
    /** 8-bit float, 4-bit exponent, 3-bit mantissa. */
    dnnl_f8_e4m3 = 10,
    /** Signed 4-bit integer, two per byte. */
    dnnl_s4 = 11,
    /** Unsigned 4-bit integer, two per byte. */
    dnnl_u4 = 12,
    /** 8-bit power-of-two scale (exponent only). */
    dnnl_e8m0 = 13,
    /** 4-bit float, 2-bit exponent, 1-bit mantissa, two per byte. */
    dnnl_f4_e2m1 = 14,
    /** 4-bit float, 3-bit exponent, no mantissa, two per byte. */
    dnnl_f4_e3m0 = 15,
    /** Upper bound of the enumeration (not a type). */
    dnnl_data_type_max = 0x7fff,
} dnnl_data_type_t;

/* ------------------------------------------------------------------------ */
/* Dimensions.                                                              */
/* ------------------------------------------------------------------------ */

/** Largest supported tensor rank. */
#define DNNL_MAX_NDIMS 12

/** One dimension (or stride) value. */
typedef int64_t dnnl_dim_t;

/** A fixed-capacity array of dimensions (or strides). */
typedef dnnl_dim_t dnnl_dims_t[DNNL_MAX_NDIMS];

/* ------------------------------------------------------------------------ */
/* Floating-point math and accumulation modes.                              */
/* ------------------------------------------------------------------------ */

/** How far the implementation may lower the precision of f32 arithmetic. */
typedef enum {
    /** Compute in the nominal precision only. */
    dnnl_fpmath_mode_strict,
    /** bf16 arithmetic may be used for f32 computations. */
    dnnl_fpmath_mode_bf16,
    /** f16 arithmetic may be used for f32 computations. */
    dnnl_fpmath_mode_f16,
    /** Any lower-precision arithmetic may be used. */
    dnnl_fpmath_mode_any,
    /** tf32 arithmetic may be used for f32 computations. */
    dnnl_fpmath_mode_tf32,
} dnnl_fpmath_mode_t;

/** Which data type may be used for intermediate accumulation. */
typedef enum {
    /** Accumulate in the default (most accurate) type. */
    dnnl_accumulation_mode_strict,
    /** A faster, possibly less accurate accumulator is allowed. */
    dnnl_accumulation_mode_relaxed,
    /** Any accumulator type is allowed. */
    dnnl_accumulation_mode_any,
    /** Accumulate in s32. */
    dnnl_accumulation_mode_s32,
    /** Accumulate in f32. */
    dnnl_accumulation_mode_f32,
    /** Accumulate in f16. */
    dnnl_accumulation_mode_f16,
} dnnl_accumulation_mode_t;

/* ------------------------------------------------------------------------ */
/* Engines and streams.                                                     */
/* ------------------------------------------------------------------------ */

/** Kind of device an engine represents. */
typedef enum {
    /** Any device (only meaningful in queries). */
    dnnl_any_engine,
    /** The host CPU. */
    dnnl_cpu,
    /** A GPU. */
    dnnl_gpu,
} dnnl_engine_kind_t;

/** Opaque engine object: one device plus library-side resources. */
struct dnnl_engine;

/** Engine handle. */
typedef struct dnnl_engine *dnnl_engine_t;

/** Flags accepted by dnnl_stream_create(); they can be OR-ed together. */
typedef enum {
    /** Work is executed in submission order. */
    dnnl_stream_in_order = 0x1,
    /** Work may be executed out of submission order. */
    dnnl_stream_out_of_order = 0x2,
    /** The default: in-order execution. */
    dnnl_stream_default_flags = dnnl_stream_in_order,
#ifdef DNNL_EXPERIMENTAL_PROFILING
    /** Collect execution timings (experimental). */
    dnnl_stream_profiling = 0x4,
#endif
    /** Upper bound of the enumeration (not a flag). */
    dnnl_stream_flags_max = 0x7fff,
} dnnl_stream_flags_t;

/** Opaque stream object: an execution queue on an engine. */
struct dnnl_stream;

/** Stream handle. */
typedef struct dnnl_stream *dnnl_stream_t;

/** Read-only stream handle. */
typedef const struct dnnl_stream *const_dnnl_stream_t;

/* ------------------------------------------------------------------------ */
/* Version information.                                                     */
/* ------------------------------------------------------------------------ */

/** Returned (as a pointer to static storage) by dnnl_version(). */
typedef struct {
    /** API major version. */
    int major;
    /** API minor version. */
    int minor;
    /** API patch level. */
    int patch;
    /** Source revision the library was built from. */
    const char *hash;
    /** CPU runtime, one of the DNNL_RUNTIME_* values. */
    unsigned cpu_runtime;
    /** GPU runtime, one of the DNNL_RUNTIME_* values. */
    unsigned gpu_runtime;
} dnnl_version_t;

/* ------------------------------------------------------------------------ */
/* Special buffer handles for tensor creation.                              */
/* ------------------------------------------------------------------------ */

/** The tensor gets no buffer. */
#define DNNL_MEMORY_NONE (NULL)

/** The library allocates (and owns) the buffer. */
#define DNNL_MEMORY_ALLOCATE ((void *)(size_t)-1)

#ifdef __cplusplus
}
#endif

#endif /* ONEAPI_DNNL_DNNL_COMMON_TYPES_H */
