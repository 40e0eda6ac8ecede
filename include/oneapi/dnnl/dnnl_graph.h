/* SPDX-License-Identifier: Apache-2.0 */
/** @file
 * dnnl_graph.h -- part of llga, a from-scratch implementation of the
 * oneDNN v3.9 Graph API.
 *
 * Owns: the 59 C functions of the graph API (allocators, engine helper,
 * logical tensors, tensors, ops, partitions, compiled partitions, graphs and
 * global cache settings). Every function returns dnnl_success on success and
 * another dnnl_status_t value on failure; llga_last_error_message() (see
 * llga.h) then describes the failure. Handles returned through out
 * parameters are owned by the caller unless stated otherwise.
 */

#ifndef ONEAPI_DNNL_DNNL_GRAPH_H
#define ONEAPI_DNNL_DNNL_GRAPH_H

#include "oneapi/dnnl/dnnl_common.h"
#include "oneapi/dnnl/dnnl_config.h"
#include "oneapi/dnnl/dnnl_graph_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ======================================================================== */
/* Allocator                                                                */
/* ======================================================================== */

/** Creates a host allocator from a pair of callbacks. If either callback is
 * NULL, an allocator using the library's own malloc/free is created. */
DNNL_API dnnl_status_t dnnl_graph_allocator_create(
        dnnl_graph_allocator_t *allocator,
        dnnl_graph_host_allocate_f host_malloc,
        dnnl_graph_host_deallocate_f host_free);

/** Destroys an allocator. Engines that were given it keep their own copy. */
DNNL_API dnnl_status_t dnnl_graph_allocator_destroy(
        dnnl_graph_allocator_t allocator);

/* ======================================================================== */
/* Engine                                                                   */
/* ======================================================================== */

/** Creates engine `index` of `kind` (like dnnl_engine_create) that uses a
 * copy of `alloc` for every buffer the library allocates internally. Destroy
 * the engine with dnnl_engine_destroy; `alloc` may be destroyed at once. */
DNNL_API dnnl_status_t dnnl_graph_make_engine_with_allocator(
        dnnl_engine_t *engine, dnnl_engine_kind_t kind, size_t index,
        const_dnnl_graph_allocator_t alloc);

/* ======================================================================== */
/* Logical tensor (operates on caller-owned structs)                        */
/* ======================================================================== */

/** Fills *logical_tensor with an id, element type, rank, layout type and
 * property; dimensions and strides are set to unknown. A rank of 0 describes
 * a scalar; DNNL_GRAPH_UNKNOWN_NDIMS an unknown rank. */
DNNL_API dnnl_status_t dnnl_graph_logical_tensor_init(
        dnnl_graph_logical_tensor_t *logical_tensor, size_t tid,
        dnnl_data_type_t dtype, int32_t ndims, dnnl_graph_layout_type_t ltype,
        dnnl_graph_tensor_property_t ptype);

/** Like dnnl_graph_logical_tensor_init, but also sets the first `ndims`
 * dimensions from `dims`. For a strided layout with all dimensions known,
 * dense row-major strides are derived; otherwise strides are unknown. */
DNNL_API dnnl_status_t dnnl_graph_logical_tensor_init_with_dims(
        dnnl_graph_logical_tensor_t *logical_tensor, size_t tid,
        dnnl_data_type_t dtype, int32_t ndims, const dnnl_dims_t dims,
        dnnl_graph_layout_type_t ltype, dnnl_graph_tensor_property_t ptype);

/** Fills a strided logical tensor with explicit dimensions and strides
 * (`ndims` of each). Unknown entries are DNNL_GRAPH_UNKNOWN_DIM. */
DNNL_API dnnl_status_t dnnl_graph_logical_tensor_init_with_strides(
        dnnl_graph_logical_tensor_t *logical_tensor, size_t tid,
        dnnl_data_type_t dtype, int32_t ndims, const dnnl_dims_t dims,
        const dnnl_dims_t strides, dnnl_graph_tensor_property_t ptype);

/** Stores in *size the number of bytes a buffer for `logical_tensor` needs.
 * For layouts that are not yet determined the result is (size_t)-1. */
DNNL_API dnnl_status_t dnnl_graph_logical_tensor_get_mem_size(
        const dnnl_graph_logical_tensor_t *logical_tensor, size_t *size);

/** Sets *is_equal to 1 if both logical tensors describe the same tensor
 * (including a strided and an opaque layout that are physically identical),
 * and to 0 otherwise. */
DNNL_API dnnl_status_t dnnl_graph_logical_tensor_is_equal(
        const dnnl_graph_logical_tensor_t *lt1,
        const dnnl_graph_logical_tensor_t *lt2, uint8_t *is_equal);

/* ======================================================================== */
/* Tensor                                                                   */
/* ======================================================================== */

/** Creates a tensor that binds `logical_tensor` to memory on `engine`.
 * `handle` is either a user buffer (not owned by the tensor),
 * DNNL_MEMORY_ALLOCATE (the library allocates and owns the buffer) or
 * DNNL_MEMORY_NONE (no buffer yet). Host-scalar logical tensors must use
 * dnnl_graph_tensor_create_scalar instead. */
DNNL_API dnnl_status_t dnnl_graph_tensor_create(dnnl_graph_tensor_t *tensor,
        const dnnl_graph_logical_tensor_t *logical_tensor, dnnl_engine_t engine,
        void *handle);

/** Creates an engine-less tensor for a host-scalar logical tensor. The value
 * pointed to by `handle` (which must not be NULL) is copied at creation. */
DNNL_API dnnl_status_t dnnl_graph_tensor_create_scalar(
        dnnl_graph_tensor_t *tensor,
        const dnnl_graph_logical_tensor_t *logical_tensor, void *handle);

/** Destroys a tensor, releasing its buffer if the library allocated it. */
DNNL_API dnnl_status_t dnnl_graph_tensor_destroy(dnnl_graph_tensor_t tensor);

/** Stores the tensor's current buffer pointer in *handle (NULL for host
 * scalars). */
DNNL_API dnnl_status_t dnnl_graph_tensor_get_data_handle(
        const_dnnl_graph_tensor_t tensor, void **handle);

/** Points the tensor at a different buffer (not allowed for host scalars). */
DNNL_API dnnl_status_t dnnl_graph_tensor_set_data_handle(
        dnnl_graph_tensor_t tensor, void *handle);

/** Stores the tensor's engine in *engine (NULL for host scalars). The engine
 * is borrowed: the caller must not destroy it. */
DNNL_API dnnl_status_t dnnl_graph_tensor_get_engine(
        const_dnnl_graph_tensor_t tensor, dnnl_engine_t *engine);

/** Copies the tensor's logical tensor into *logical_tensor. */
DNNL_API dnnl_status_t dnnl_graph_tensor_get_logical_tensor(
        const_dnnl_graph_tensor_t tensor,
        dnnl_graph_logical_tensor_t *logical_tensor);

/* ======================================================================== */
/* Op                                                                       */
/* ======================================================================== */

/** Creates an op of `kind` with the user-chosen `id` (unique among the ops of
 * a graph) and a non-NULL name used in diagnostics. */
DNNL_API dnnl_status_t dnnl_graph_op_create(dnnl_graph_op_t *op, size_t id,
        dnnl_graph_op_kind_t kind, const char *verbose_name);

/** Destroys an op. Graphs the op was added to keep their own copy. */
DNNL_API dnnl_status_t dnnl_graph_op_destroy(dnnl_graph_op_t op);

/** Appends an input; inputs are positional. Ops are connected through the
 * logical tensor ids of their inputs and outputs. */
DNNL_API dnnl_status_t dnnl_graph_op_add_input(
        dnnl_graph_op_t op, const dnnl_graph_logical_tensor_t *input);

/** Appends an output. */
DNNL_API dnnl_status_t dnnl_graph_op_add_output(
        dnnl_graph_op_t op, const dnnl_graph_logical_tensor_t *output);

/** Sets a floating-point attribute. Names in the f32-scalar range keep only
 * value[0]; other names keep all `value_len` values. */
DNNL_API dnnl_status_t dnnl_graph_op_set_attr_f32(dnnl_graph_op_t op,
        dnnl_graph_op_attr_t name, const float *value, size_t value_len);

/** Sets a boolean attribute; `value_len` must be 1. */
DNNL_API dnnl_status_t dnnl_graph_op_set_attr_bool(dnnl_graph_op_t op,
        dnnl_graph_op_attr_t name, const uint8_t *value, size_t value_len);

/** Sets an integer attribute. Names in the s64-scalar range keep only
 * value[0]; other names keep all `value_len` values. */
DNNL_API dnnl_status_t dnnl_graph_op_set_attr_s64(dnnl_graph_op_t op,
        dnnl_graph_op_attr_t name, const int64_t *value, size_t value_len);

/** Sets a string attribute from a NUL-terminated string whose length is
 * `value_len` (which must not be 0). */
DNNL_API dnnl_status_t dnnl_graph_op_set_attr_str(dnnl_graph_op_t op,
        dnnl_graph_op_attr_t name, const char *value, size_t value_len);

/** Stores the op's id in *id. */
DNNL_API dnnl_status_t dnnl_graph_op_get_id(const_dnnl_graph_op_t op, size_t *id);

/** Stores the op's kind in *kind. */
DNNL_API dnnl_status_t dnnl_graph_op_get_kind(
        const_dnnl_graph_op_t op, dnnl_graph_op_kind_t *kind);

/* ======================================================================== */
/* Partition                                                                */
/* ======================================================================== */

/** Creates a single-op partition for engine kind `ekind` without building a
 * graph. Fails with the same status as dnnl_graph_add_op if the op is
 * invalid. */
DNNL_API dnnl_status_t dnnl_graph_partition_create_with_op(
        dnnl_graph_partition_t *partition, const_dnnl_graph_op_t op,
        dnnl_engine_kind_t ekind);

/** Destroys a partition. */
DNNL_API dnnl_status_t dnnl_graph_partition_destroy(
        dnnl_graph_partition_t partition);

/** Stores the number of ops in the partition in *num. */
DNNL_API dnnl_status_t dnnl_graph_partition_get_op_num(
        const_dnnl_graph_partition_t partition, size_t *num);

/** Writes the ids of the partition's ops to ids[0..num); `num` must equal the
 * partition's op count. */
DNNL_API dnnl_status_t dnnl_graph_partition_get_ops(
        dnnl_graph_partition_t partition, size_t num, size_t *ids);

/** Stores the library-assigned partition id in *id. */
DNNL_API dnnl_status_t dnnl_graph_partition_get_id(
        const_dnnl_graph_partition_t partition, size_t *id);

/** Compiles `partition` into the (already created) `compiled_partition` for
 * `engine`. Inputs must have known shapes; outputs may have unknown
 * dimensions and/or layout "any", which are resolved by the library and can
 * be read back with dnnl_graph_compiled_partition_query_logical_tensor. */
DNNL_API dnnl_status_t dnnl_graph_partition_compile(
        dnnl_graph_partition_t partition,
        dnnl_graph_compiled_partition_t compiled_partition, size_t in_num,
        const dnnl_graph_logical_tensor_t **inputs, size_t out_num,
        const dnnl_graph_logical_tensor_t **outputs, dnnl_engine_t engine);

/** Stores the number of partition inputs in *num. */
DNNL_API dnnl_status_t dnnl_graph_partition_get_input_ports_num(
        const_dnnl_graph_partition_t partition, size_t *num);

/** Copies the partition's input logical tensors to inputs[0..num); `num` must
 * equal the input count. */
DNNL_API dnnl_status_t dnnl_graph_partition_get_input_ports(
        const_dnnl_graph_partition_t partition, size_t num,
        dnnl_graph_logical_tensor_t *inputs);

/** Stores the number of partition outputs in *num. */
DNNL_API dnnl_status_t dnnl_graph_partition_get_output_ports_num(
        const_dnnl_graph_partition_t partition, size_t *num);

/** Copies the partition's output logical tensors to outputs[0..num); `num`
 * must equal the output count. */
DNNL_API dnnl_status_t dnnl_graph_partition_get_output_ports(
        const_dnnl_graph_partition_t partition, size_t num,
        dnnl_graph_logical_tensor_t *outputs);

/** Sets *is_supported to 1 if the library can compile the partition, or to 0
 * if the user has to execute its (single) op some other way. */
DNNL_API dnnl_status_t dnnl_graph_partition_is_supported(
        const_dnnl_graph_partition_t partition, uint8_t *is_supported);

/** Stores the engine kind the partition was created for in *kind. */
DNNL_API dnnl_status_t dnnl_graph_partition_get_engine_kind(
        const_dnnl_graph_partition_t partition, dnnl_engine_kind_t *kind);

/* ======================================================================== */
/* Compiled partition                                                       */
/* ======================================================================== */

/** Creates an empty compiled partition for `partition`; it becomes usable
 * once filled by dnnl_graph_partition_compile. */
DNNL_API dnnl_status_t dnnl_graph_compiled_partition_create(
        dnnl_graph_compiled_partition_t *compiled_partition,
        dnnl_graph_partition_t partition);

/** Submits the compiled partition to `stream`. Tensors are given in the same
 * order as the logical tensors passed at compilation. Execution is
 * asynchronous with respect to the stream: use dnnl_stream_wait. */
DNNL_API dnnl_status_t dnnl_graph_compiled_partition_execute(
        const_dnnl_graph_compiled_partition_t compiled_partition,
        dnnl_stream_t stream, size_t num_inputs,
        const_dnnl_graph_tensor_t *inputs, size_t num_outputs,
        const_dnnl_graph_tensor_t *outputs);

/** Destroys a compiled partition. */
DNNL_API dnnl_status_t dnnl_graph_compiled_partition_destroy(
        dnnl_graph_compiled_partition_t compiled_partition);

/** Copies the final (shape-inferred, layout-resolved) logical tensor of the
 * input or output with id `tid` into *lt. */
DNNL_API dnnl_status_t dnnl_graph_compiled_partition_query_logical_tensor(
        const_dnnl_graph_compiled_partition_t compiled_partition, size_t tid,
        dnnl_graph_logical_tensor_t *lt);

/** Reports which input buffers may be reused for which outputs. The array
 * stored in *inplace_pairs belongs to the compiled partition and stays valid
 * while it exists. */
DNNL_API dnnl_status_t dnnl_graph_compiled_partition_get_inplace_ports(
        const_dnnl_graph_compiled_partition_t compiled_partition,
        size_t *num_inplace_pairs,
        const dnnl_graph_inplace_pair_t **inplace_pairs);

/* ======================================================================== */
/* Graph                                                                    */
/* ======================================================================== */

/** Creates an empty graph targeting `engine_kind`. */
DNNL_API dnnl_status_t dnnl_graph_graph_create(
        dnnl_graph_graph_t *graph, dnnl_engine_kind_t engine_kind);

/** Creates an empty graph with an fp-math mode that its partitions inherit. */
DNNL_API dnnl_status_t dnnl_graph_graph_create_with_fpmath_mode(
        dnnl_graph_graph_t *graph, dnnl_engine_kind_t engine_kind,
        dnnl_fpmath_mode_t mode);

/** Destroys a graph; partitions obtained from it stay valid. */
DNNL_API dnnl_status_t dnnl_graph_graph_destroy(dnnl_graph_graph_t graph);

/** Sets the graph's fp-math mode; a non-zero `apply_to_int` also applies it
 * to integer computations. Only allowed before finalization. */
DNNL_API dnnl_status_t dnnl_graph_graph_set_fpmath_mode(
        dnnl_graph_graph_t graph, dnnl_fpmath_mode_t mode, int apply_to_int);

/** Reads the graph's fp-math mode and apply-to-int flag; either out pointer
 * may be NULL. */
DNNL_API dnnl_status_t dnnl_graph_graph_get_fpmath_mode(
        dnnl_graph_graph_t graph, dnnl_fpmath_mode_t *mode, int *apply_to_int);

/** Adds a copy of `op` to the graph after checking it against the op's
 * schema. Fails with dnnl_invalid_graph_op if the op is invalid and with
 * dnnl_invalid_graph once the graph is finalized. */
DNNL_API dnnl_status_t dnnl_graph_add_op(
        dnnl_graph_graph_t graph, dnnl_graph_op_t op);

/** Freezes the graph and connects its ops through logical tensor ids; no ops
 * can be added afterwards. */
DNNL_API dnnl_status_t dnnl_graph_graph_finalize(dnnl_graph_graph_t graph);

/** Sets *finalized to 1 if the graph is finalized, else to 0. */
DNNL_API dnnl_status_t dnnl_graph_graph_is_finalized(
        dnnl_graph_graph_t graph, uint8_t *finalized);

/** Splits a finalized graph into partitions according to `policy`, replacing
 * the result of any previous call. */
DNNL_API dnnl_status_t dnnl_graph_graph_filter(
        dnnl_graph_graph_t graph, dnnl_graph_partition_policy_t policy);

/** Stores the number of partitions produced by the last filter call. */
DNNL_API dnnl_status_t dnnl_graph_graph_get_partition_num(
        const_dnnl_graph_graph_t graph, size_t *num);

/** Writes `num` new partition handles (in topological order) to
 * partitions[0..num); the caller destroys each of them. */
DNNL_API dnnl_status_t dnnl_graph_graph_get_partitions(dnnl_graph_graph_t graph,
        size_t num, dnnl_graph_partition_t *partitions);

/* ======================================================================== */
/* Global settings                                                          */
/* ======================================================================== */

/** Stores the capacity (in entries) of the compiled partition cache. */
DNNL_API dnnl_status_t dnnl_graph_get_compiled_partition_cache_capacity(
        int *capacity);

/** Sets the capacity (in entries) of the compiled partition cache. Shrinking
 * evicts entries; 0 empties and disables the cache. Thread safe. */
DNNL_API dnnl_status_t dnnl_graph_set_compiled_partition_cache_capacity(
        int capacity);

/** Deprecated: use dnnl_graph_set_constant_tensor_cache_capacity. A positive
 * `flag` enables the constant tensor cache for all engine kinds, 0 disables
 * it. */
DNNL_API dnnl_status_t dnnl_graph_set_constant_tensor_cache(int flag);

/** Deprecated: use dnnl_graph_get_constant_tensor_cache_capacity. Sets *flag
 * to 1 if the constant tensor cache is enabled for any engine kind. */
DNNL_API dnnl_status_t dnnl_graph_get_constant_tensor_cache(int *flag);

/** Sets the constant tensor cache capacity, in megabytes per device, for
 * engines of kind `eng_kind`; 0 disables the cache. Thread safe. */
DNNL_API dnnl_status_t dnnl_graph_set_constant_tensor_cache_capacity(
        dnnl_engine_kind_t eng_kind, size_t size);

/** Stores the constant tensor cache capacity (megabytes) for `eng_kind`. */
DNNL_API dnnl_status_t dnnl_graph_get_constant_tensor_cache_capacity(
        dnnl_engine_kind_t eng_kind, size_t *size);

#ifdef __cplusplus
}
#endif

#endif /* ONEAPI_DNNL_DNNL_GRAPH_H */
