/* SPDX-License-Identifier: Apache-2.0 */
/** @file
 * dnnl_graph_types.h -- part of llga, a from-scratch implementation of the
 * oneDNN v3.9 Graph API.
 *
 * Owns: the C types of the graph API: the unknown-rank/unknown-dim macros,
 * layout/property/partition-policy enums, the op-kind and op-attribute
 * enums, the logical tensor and in-place pair structs, the opaque handle
 * typedefs and the host allocator callback types. C99; every numeric value
 * and struct layout here is part of the ABI.
 */

#ifndef ONEAPI_DNNL_DNNL_GRAPH_TYPES_H
#define ONEAPI_DNNL_DNNL_GRAPH_TYPES_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "oneapi/dnnl/dnnl_common_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Special values.                                                          */
/* ------------------------------------------------------------------------ */

/** Rank of a logical tensor whose number of dimensions is not known yet. */
#define DNNL_GRAPH_UNKNOWN_NDIMS -1

/** Value of a dimension or stride that is not known yet. */
#define DNNL_GRAPH_UNKNOWN_DIM INT64_MIN

/* ------------------------------------------------------------------------ */
/* Small enums.                                                             */
/* ------------------------------------------------------------------------ */

/** How the memory of a logical tensor is laid out. */
typedef enum {
    /** Not specified yet. */
    dnnl_graph_layout_type_undef = 0,
    /** Let the library choose when the partition is compiled. */
    dnnl_graph_layout_type_any = 1,
    /** Described by explicit strides (layout.strides). */
    dnnl_graph_layout_type_strided = 2,
    /** Library-private layout identified by layout.layout_id. */
    dnnl_graph_layout_type_opaque = 3,
} dnnl_graph_layout_type_t;

/** What is known about the contents of a logical tensor. */
typedef enum {
    /** Nothing is known. */
    dnnl_graph_tensor_property_undef = 0,
    /** The contents may change between executions. */
    dnnl_graph_tensor_property_variable = 1,
    /** The contents stay the same across executions (may be cached). */
    dnnl_graph_tensor_property_constant = 2,
    /** A 0-D value passed from host memory (currently s32 only). */
    dnnl_graph_tensor_property_host_scalar = 3,
} dnnl_graph_tensor_property_t;

/** How a graph is split into partitions. */
typedef enum {
    /** Fuse ops into as few partitions as the library supports. */
    dnnl_graph_partition_policy_fusion = 1,
    /** One op per partition. */
    dnnl_graph_partition_policy_debug = 2,
} dnnl_graph_partition_policy_t;

/* ------------------------------------------------------------------------ */
/* Operation kinds. Values are fixed: new kinds are only ever appended.     */
/* Note that `end` (25) is an ordinary op kind; `last_symbol` is the only   */
/* sentinel.                                                                */
/* ------------------------------------------------------------------------ */

/** Operation kinds; values are fixed and new kinds are only appended. */
typedef enum {
    dnnl_graph_op_abs = 0,
    dnnl_graph_op_abs_backward = 1,
    dnnl_graph_op_add = 2,
    dnnl_graph_op_avg_pool = 3,
    dnnl_graph_op_avg_pool_backward = 4,
    dnnl_graph_op_batch_norm_backward = 5,
    dnnl_graph_op_batch_norm_forward_training = 6,
    dnnl_graph_op_batch_norm_inference = 7,
    dnnl_graph_op_bias_add = 8,
    dnnl_graph_op_bias_add_backward = 9,
    dnnl_graph_op_clamp = 10,
    dnnl_graph_op_clamp_backward = 11,
    dnnl_graph_op_concat = 12,
    dnnl_graph_op_convolution = 13,
    dnnl_graph_op_convolution_backward_data = 14,
    dnnl_graph_op_convolution_backward_weights = 15,
    dnnl_graph_op_conv_transpose = 16,
    dnnl_graph_op_conv_transpose_backward_data = 17,
    dnnl_graph_op_conv_transpose_backward_weights = 18,
    dnnl_graph_op_dequantize = 19,
    dnnl_graph_op_divide = 20,
    dnnl_graph_op_dynamic_dequantize = 21,
    dnnl_graph_op_dynamic_quantize = 22,
    dnnl_graph_op_elu = 23,
    dnnl_graph_op_elu_backward = 24,
    dnnl_graph_op_end = 25,
    dnnl_graph_op_exp = 26,
    dnnl_graph_op_gelu = 27,
    dnnl_graph_op_gelu_backward = 28,
    dnnl_graph_op_hard_swish = 29,
    dnnl_graph_op_hard_swish_backward = 30,
    dnnl_graph_op_interpolate = 31,
    dnnl_graph_op_interpolate_backward = 32,
    dnnl_graph_op_layer_norm = 33,
    dnnl_graph_op_layer_norm_backward = 34,
    dnnl_graph_op_leaky_relu = 35,
    dnnl_graph_op_log = 36,
    dnnl_graph_op_log_softmax = 37,
    dnnl_graph_op_log_softmax_backward = 38,
    dnnl_graph_op_matmul = 39,
    dnnl_graph_op_maximum = 40,
    dnnl_graph_op_max_pool = 41,
    dnnl_graph_op_max_pool_backward = 42,
    dnnl_graph_op_minimum = 43,
    dnnl_graph_op_mish = 44,
    dnnl_graph_op_mish_backward = 45,
    dnnl_graph_op_multiply = 46,
    dnnl_graph_op_prelu = 47,
    dnnl_graph_op_prelu_backward = 48,
    dnnl_graph_op_quantize = 49,
    dnnl_graph_op_reciprocal = 50,
    dnnl_graph_op_reduce_l1 = 51,
    dnnl_graph_op_reduce_l2 = 52,
    dnnl_graph_op_reduce_max = 53,
    dnnl_graph_op_reduce_mean = 54,
    dnnl_graph_op_reduce_min = 55,
    dnnl_graph_op_reduce_prod = 56,
    dnnl_graph_op_reduce_sum = 57,
    dnnl_graph_op_relu = 58,
    dnnl_graph_op_relu_backward = 59,
    dnnl_graph_op_reorder = 60,
    dnnl_graph_op_round = 61,
    dnnl_graph_op_sigmoid = 62,
    dnnl_graph_op_sigmoid_backward = 63,
    dnnl_graph_op_softmax = 64,
    dnnl_graph_op_softmax_backward = 65,
    dnnl_graph_op_softplus = 66,
    dnnl_graph_op_softplus_backward = 67,
    dnnl_graph_op_sqrt = 68,
    dnnl_graph_op_sqrt_backward = 69,
    dnnl_graph_op_square = 70,
    dnnl_graph_op_squared_difference = 71,
    dnnl_graph_op_static_reshape = 72,
    dnnl_graph_op_static_transpose = 73,
    dnnl_graph_op_subtract = 74,
    dnnl_graph_op_tanh = 75,
    dnnl_graph_op_tanh_backward = 76,
    dnnl_graph_op_type_cast = 77,
    dnnl_graph_op_wildcard = 78,
    dnnl_graph_op_hard_sigmoid = 79,
    dnnl_graph_op_hard_sigmoid_backward = 80,
    dnnl_graph_op_select = 81,
    dnnl_graph_op_pow = 82,
    dnnl_graph_op_group_norm = 83,
    dnnl_graph_op_gen_index = 84,
    dnnl_graph_op_greater_equal = 85,
    dnnl_graph_op_last_symbol = 86,
} dnnl_graph_op_kind_t;

/* ------------------------------------------------------------------------ */
/* Operation attribute names. The numeric range of a name encodes the type  */
/* of its value and which dnnl_graph_op_set_attr_* function sets it.        */
/* ------------------------------------------------------------------------ */

/** Operation attribute names; the numeric range of a name gives the type of its value and the dnnl_graph_op_set_attr_* function that sets it. */
typedef enum {
    dnnl_graph_op_attr_undef = 0x00,
    /** f32 scalars (0x01-0x1F) */
    dnnl_graph_op_attr_alpha = 0x01,
    dnnl_graph_op_attr_beta = 0x02,
    dnnl_graph_op_attr_epsilon = 0x03,
    dnnl_graph_op_attr_max = 0x04,
    dnnl_graph_op_attr_min = 0x05,
    dnnl_graph_op_attr_momentum = 0x06,
    /** f32 vectors (0x20-0x2F) */
    dnnl_graph_op_attr_scales = 0x20,
    /** s64 scalars (0x30-0x3F) */
    dnnl_graph_op_attr_axis = 0x30,
    dnnl_graph_op_attr_begin_norm_axis = 0x31,
    dnnl_graph_op_attr_groups = 0x32,
    /** s64 vectors (0x40-0x5F) */
    dnnl_graph_op_attr_axes = 0x40,
    dnnl_graph_op_attr_dilations = 0x41,
    dnnl_graph_op_attr_dst_shape = 0x42,
    dnnl_graph_op_attr_kernel = 0x43,
    dnnl_graph_op_attr_order = 0x44,
    dnnl_graph_op_attr_output_padding = 0x45,
    dnnl_graph_op_attr_pads_begin = 0x46,
    dnnl_graph_op_attr_pads_end = 0x47,
    dnnl_graph_op_attr_shape = 0x48,
    dnnl_graph_op_attr_sizes = 0x49,
    dnnl_graph_op_attr_src_shape = 0x4A,
    dnnl_graph_op_attr_strides = 0x4B,
    dnnl_graph_op_attr_weights_shape = 0x4C,
    dnnl_graph_op_attr_zps = 0x4D,
    dnnl_graph_op_attr_group_shape = 0x4E,
    /** booleans (0x60-0x7F) */
    dnnl_graph_op_attr_exclude_pad = 0x60,
    dnnl_graph_op_attr_keep_dims = 0x61,
    dnnl_graph_op_attr_keep_stats = 0x62,
    dnnl_graph_op_attr_per_channel_broadcast = 0x63,
    dnnl_graph_op_attr_special_zero = 0x64,
    dnnl_graph_op_attr_transpose_a = 0x65,
    dnnl_graph_op_attr_transpose_b = 0x66,
    dnnl_graph_op_attr_use_affine = 0x67,
    dnnl_graph_op_attr_use_dst = 0x68,
    /** strings (0x80-0xFE) */
    dnnl_graph_op_attr_auto_broadcast = 0x80,
    dnnl_graph_op_attr_auto_pad = 0x81,
    dnnl_graph_op_attr_coordinate_transformation_mode = 0x82,
    dnnl_graph_op_attr_data_format = 0x83,
    dnnl_graph_op_attr_mode = 0x84,
    dnnl_graph_op_attr_qtype = 0x85,
    dnnl_graph_op_attr_rounding_type = 0x86,
    dnnl_graph_op_attr_weights_format = 0x87,
    /** Sentinel: one past the last valid attribute range. */
    dnnl_graph_op_attr_end = 0xFF,
} dnnl_graph_op_attr_t;

/* ------------------------------------------------------------------------ */
/* Logical tensor: a caller-owned description of a tensor (no data).        */
/* ------------------------------------------------------------------------ */

/** A caller-owned description of a tensor: id, type, shape, layout and property (no data). */
typedef struct {
    /** Identifier; ops that share a tensor id are connected through it. */
    size_t id;

    /** Rank: DNNL_GRAPH_UNKNOWN_NDIMS if unknown, 0 for a scalar. */
    int ndims;

    /** Sizes of the first `ndims` dimensions; an unknown size is
     * DNNL_GRAPH_UNKNOWN_DIM. Their meaning (e.g. channels first or last)
     * is given by op attributes, not by the tensor. */
    dnnl_dims_t dims;

    /** Element type. */
    dnnl_data_type_t data_type;

    /** Contents property. */
    dnnl_graph_tensor_property_t property;

    /** Which member of `layout` is meaningful. */
    dnnl_graph_layout_type_t layout_type;

    /** Layout details, selected by `layout_type`. */
    union {
        /** For dnnl_graph_layout_type_strided: stride (in elements) of each
         * dimension; an unknown stride is DNNL_GRAPH_UNKNOWN_DIM. */
        dnnl_dims_t strides;

        /** For dnnl_graph_layout_type_opaque: library-defined layout id. */
        size_t layout_id;
    } layout;
} dnnl_graph_logical_tensor_t;

/** A hint that the buffer of input `input_id` may be reused for output
 * `output_id` of a compiled partition. */
typedef struct {
    /** Logical tensor id of the input. */
    size_t input_id;
    /** Logical tensor id of the output. */
    size_t output_id;
} dnnl_graph_inplace_pair_t;

/* ------------------------------------------------------------------------ */
/* Opaque objects and their handles.                                        */
/* ------------------------------------------------------------------------ */

/** A set of ops that the library compiles and executes as one unit. */
struct dnnl_graph_partition;
/** The handle of a partition. */
typedef struct dnnl_graph_partition *dnnl_graph_partition_t;
/** Const handle of a partition. */
typedef const struct dnnl_graph_partition *const_dnnl_graph_partition_t;

/** A collection of connected ops, split into partitions by filtering. */
struct dnnl_graph_graph;
/** The handle of a graph. */
typedef struct dnnl_graph_graph *dnnl_graph_graph_t;
/** Const handle of a graph. */
typedef const struct dnnl_graph_graph *const_dnnl_graph_graph_t;

/** One operation with its inputs, outputs and attributes. */
struct dnnl_graph_op;
/** The handle of a op. */
typedef struct dnnl_graph_op *dnnl_graph_op_t;
/** Const handle of a op. */
typedef const struct dnnl_graph_op *const_dnnl_graph_op_t;

/** Memory allocation callbacks attached to an engine. */
struct dnnl_graph_allocator;
/** The handle of a allocator. */
typedef struct dnnl_graph_allocator *dnnl_graph_allocator_t;
/** Const handle of a allocator. */
typedef const struct dnnl_graph_allocator *const_dnnl_graph_allocator_t;

/** A partition compiled for concrete input/output descriptions. */
struct dnnl_graph_compiled_partition;
/** The handle of a compiled partition. */
typedef struct dnnl_graph_compiled_partition *dnnl_graph_compiled_partition_t;
/** Const handle of a compiled partition. */
typedef const struct dnnl_graph_compiled_partition
        *const_dnnl_graph_compiled_partition_t;

/** A logical tensor bound to a buffer on an engine. */
struct dnnl_graph_tensor;
/** The handle of a tensor. */
typedef struct dnnl_graph_tensor *dnnl_graph_tensor_t;
/** Const handle of a tensor. */
typedef const struct dnnl_graph_tensor *const_dnnl_graph_tensor_t;

/* ------------------------------------------------------------------------ */
/* Host allocator callbacks.                                                */
/* ------------------------------------------------------------------------ */

/** Returns a block of at least `size` bytes, or NULL on failure. The library
 * asks for `alignment`, but tolerates blocks aligned only as malloc's. */
typedef void *(*dnnl_graph_host_allocate_f)(size_t size, size_t alignment);

/** Releases a block returned by the matching allocate callback. */
typedef void (*dnnl_graph_host_deallocate_f)(void *buf);

#ifdef __cplusplus
}
#endif

#endif /* ONEAPI_DNNL_DNNL_GRAPH_TYPES_H */
