/* SPDX-License-Identifier: Apache-2.0 */
/** @file
 * llga.h -- llga's own extensions to the oneDNN v3.9 Graph API.
 *
 * Owns: every public C function that exists in llga but not in oneDNN.
 * Currently: llga_last_error_message(), llga_version() and the constant
 * tensor cache policy and usage queries. C99. Programs written
 * for oneDNN never need this header; the C++ wrappers in dnnl_common.hpp use
 * it to put failure details into dnnl::error messages.
 */

#ifndef ONEAPI_DNNL_LLGA_H
#define ONEAPI_DNNL_LLGA_H

#include <stddef.h>

#include "oneapi/dnnl/dnnl_common_types.h"
#include "oneapi/dnnl/dnnl_config.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Returns a human-readable description of the most recent failing llga API
 * call made on the calling thread, for example
 *
 *     "dnnl_graph_add_op: op 3 (Convolution): missing required attribute
 *      'strides'"
 *
 * or "" (the empty string) if no call has failed on this thread yet.
 *
 * - The message is thread-local: failures on other threads never change it.
 * - Every llga call that returns a status other than dnnl_success replaces
 *   the message (possibly with a shorter or empty one); successful calls
 *   leave it unchanged. Read it right after the failing call.
 * - The returned pointer is never NULL and points to a NUL-terminated string
 *   owned by the library. It stays valid until the next failing llga call on
 *   the same thread; copy it if it is needed for longer. Do not free it.
 * - The function itself never fails and never changes the message.
 */
DNNL_API const char *llga_last_error_message(void);

/**
 * llga's own release version (not the oneDNN API version it implements,
 * which dnnl_version() reports).
 */
typedef struct {
    int major; /**< Major version. */
    int minor; /**< Minor version. */
    int patch; /**< Patch level. */
    /** The git commit the library was built from, or "unknown" when it was
     * built outside a git checkout. */
    const char *hash;
} llga_version_t;

/**
 * Returns llga's version. Never NULL; the structure is static and owned by
 * the library. Never fails.
 */
DNNL_API const llga_version_t *llga_version(void);

/**
 * Constant tensor cache eviction policy, per engine kind (llga extension).
 * no_evict (the default, as in oneDNN): when the cache is full, new constant
 * tensors are still computed but not cached. lru: the least recently used
 * entries not in use are evicted to make room.
 */
typedef enum {
    llga_constant_cache_no_evict = 0,
    llga_constant_cache_lru = 1,
} llga_constant_cache_policy_t;

/** Constant tensor cache counters, summed over the devices of one kind. */
typedef struct {
    size_t capacity_bytes; /**< capacity per device, in bytes */
    size_t bytes;          /**< bytes held by cached entries */
    size_t entries;        /**< cached entries */
    size_t hits;           /**< lookups that found an entry */
    size_t misses;         /**< lookups that did not */
    size_t computed;       /**< constant tensors computed (prepacked) */
    size_t evictions;      /**< entries evicted by the LRU policy */
    size_t rejected;       /**< misses not cached (disabled or full) */
} llga_constant_cache_usage_t;

/** Sets the policy for eng_kind (dnnl_cpu or dnnl_gpu); entries are kept.
 * Also settable with ONEDNN_GRAPH_CONSTANT_TENSOR_CACHE_CAPACITY="cpu:MB:lru". */
DNNL_API dnnl_status_t llga_set_constant_tensor_cache_policy(
        dnnl_engine_kind_t eng_kind, llga_constant_cache_policy_t policy);
/** Stores the current policy for eng_kind in *policy. */
DNNL_API dnnl_status_t llga_get_constant_tensor_cache_policy(
        dnnl_engine_kind_t eng_kind, llga_constant_cache_policy_t *policy);
/** Fills *usage for eng_kind. */
DNNL_API dnnl_status_t llga_get_constant_tensor_cache_usage(
        dnnl_engine_kind_t eng_kind, llga_constant_cache_usage_t *usage);

/* ---- Fusion report (llga issue 35) ------------------------------------ */

/** Output format of llga_graph_explain(). */
typedef enum {
    llga_explain_text = 0, /**< one line per op, indented reasons */
    llga_explain_json = 1, /**< {"partitions": N, "ops": [...]} */
    llga_explain_dot = 2,  /**< Graphviz dot, ops coloured by partition */
} llga_explain_format_t;

/**
 * Explains how a graph was partitioned: for every op, the partition and the
 * fusion pattern that claimed it, or, for an op left in a partition of its
 * own, each pattern that could have taken it and the first rule that stopped
 * it (dtype, attribute, rank, broadcast, a second consumer of a tensor,
 * Wildcard, cycle, chain length, priority lost to another pattern).
 * docs/fusion-report.md describes the formats.
 *
 * The graph must have been partitioned (dnnl_graph_graph_filter()).
 * Writes at most `size` bytes, NUL included, to `buffer` (which may be NULL
 * when `size` is 0) and stores the full length of the report, without the
 * NUL, in `*length`: call once with size 0 to learn the size.
 *
 * @param graph The partitioned graph.
 * @param format One of llga_explain_format_t.
 * @param buffer Output buffer, or NULL when size is 0.
 * @param size Size of buffer in bytes.
 * @param length Receives the report's length in bytes, without the NUL.
 * @returns dnnl_success, or dnnl_invalid_arguments (NULL graph or length,
 *     unknown format, graph not partitioned yet).
 */
struct dnnl_graph_graph; /**< dnnl_graph_graph_t of dnnl_graph_types.h */
DNNL_API dnnl_status_t llga_graph_explain(struct dnnl_graph_graph *graph,
        llga_explain_format_t format, char *buffer, size_t size,
        size_t *length);

/* ---- end of fusion report ---------------------------------------------- */

#ifdef __cplusplus
}
#endif

#endif /* ONEAPI_DNNL_LLGA_H */
