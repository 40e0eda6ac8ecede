/* SPDX-License-Identifier: Apache-2.0 */
/** @file
 * dnnl_common.h -- part of llga, a from-scratch implementation of the
 * oneDNN v3.9 Graph API.
 *
 * Owns: the C functions shared by the graph API and the rest of the
 * library: engine and stream management, the global default fp-math mode,
 * verbose control and version reporting (12 functions).
 */

#ifndef ONEAPI_DNNL_DNNL_COMMON_H
#define ONEAPI_DNNL_DNNL_COMMON_H

#include "oneapi/dnnl/dnnl_common_types.h"
#include "oneapi/dnnl/dnnl_config.h"
#include "oneapi/dnnl/dnnl_version.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Engines.                                                                 */
/* ------------------------------------------------------------------------ */

/** Returns how many devices of the given kind are available (0 if none). */
DNNL_API size_t dnnl_engine_get_count(dnnl_engine_kind_t kind);

/** Creates an engine for device number `index` of the given kind and stores
 * it in *engine. The engine uses a default graph allocator. */
DNNL_API dnnl_status_t dnnl_engine_create(
        dnnl_engine_t *engine, dnnl_engine_kind_t kind, size_t index);

/** Stores the device kind of `engine` in *kind. */
DNNL_API dnnl_status_t dnnl_engine_get_kind(
        dnnl_engine_t engine, dnnl_engine_kind_t *kind);

/** Destroys an engine. */
DNNL_API dnnl_status_t dnnl_engine_destroy(dnnl_engine_t engine);

/* ------------------------------------------------------------------------ */
/* Streams.                                                                 */
/* ------------------------------------------------------------------------ */

/** Creates an execution stream on `engine`. `flags` is a combination of
 * dnnl_stream_flags_t values. */
DNNL_API dnnl_status_t dnnl_stream_create(
        dnnl_stream_t *stream, dnnl_engine_t engine, unsigned flags);

/** Stores the engine of `stream` in *engine. The engine is borrowed: the
 * caller must not destroy it. */
DNNL_API dnnl_status_t dnnl_stream_get_engine(
        const_dnnl_stream_t stream, dnnl_engine_t *engine);

/** Blocks until all work submitted to `stream` has completed. */
DNNL_API dnnl_status_t dnnl_stream_wait(dnnl_stream_t stream);

/** Destroys a stream. */
DNNL_API dnnl_status_t dnnl_stream_destroy(dnnl_stream_t stream);

/* ------------------------------------------------------------------------ */
/* Global settings.                                                         */
/* ------------------------------------------------------------------------ */

/** Stores the process-wide default fp-math mode in *mode. */
DNNL_API dnnl_status_t dnnl_get_default_fpmath_mode(dnnl_fpmath_mode_t *mode);

/** Sets the process-wide default fp-math mode. */
DNNL_API dnnl_status_t dnnl_set_default_fpmath_mode(dnnl_fpmath_mode_t mode);

/** Sets the verbosity level: 0 prints nothing, 1 prints execution
 * information, 2 also prints creation and compilation information. Takes
 * precedence over the ONEDNN_VERBOSE environment variable. */
DNNL_API dnnl_status_t dnnl_set_verbose(int level);

/** Returns a pointer to static version information (never NULL). */
DNNL_API const dnnl_version_t *dnnl_version(void);

#ifdef __cplusplus
}
#endif

#endif /* ONEAPI_DNNL_DNNL_COMMON_H */
