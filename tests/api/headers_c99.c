/* SPDX-License-Identifier: Apache-2.0 */
/*
 * headers_c99.c -- compile-only checks of llga's public C headers under C99.
 *
 * Owns: static (compile-time) checks of the ABI facts the headers promise:
 * the size and field offsets of dnnl_graph_logical_tensor_t, the size of
 * dnnl_graph_inplace_pair_t and the numeric values of the public enums.
 * C99 has no _Static_assert, so each check declares an array type whose
 * size is negative (a compile error) when the condition is false.
 * Running the program does nothing.
 */

#include <stddef.h>
#include <stdint.h>

#include "oneapi/dnnl/dnnl_common.h"
#include "oneapi/dnnl/dnnl_common_types.h"
#include "oneapi/dnnl/dnnl_config.h"
#include "oneapi/dnnl/dnnl_graph.h"
#include "oneapi/dnnl/dnnl_graph_types.h"
#include "oneapi/dnnl/dnnl_version.h"
#include "oneapi/dnnl/llga.h"

#define LLGA_CAT_(a, b) a##b
#define LLGA_CAT(a, b) LLGA_CAT_(a, b)
/* Fails to compile (negative array size) when `cond` is false. */
#define CHECK(cond) \
    typedef char LLGA_CAT(llga_check_line_, __LINE__)[(cond) ? 1 : -1]

/* ---- logical tensor layout (LP64) ---- */
CHECK(sizeof(dnnl_graph_logical_tensor_t) == 224);
CHECK(offsetof(dnnl_graph_logical_tensor_t, id) == 0);
CHECK(offsetof(dnnl_graph_logical_tensor_t, ndims) == 8);
CHECK(offsetof(dnnl_graph_logical_tensor_t, dims) == 16);
CHECK(offsetof(dnnl_graph_logical_tensor_t, data_type) == 112);
CHECK(offsetof(dnnl_graph_logical_tensor_t, property) == 116);
CHECK(offsetof(dnnl_graph_logical_tensor_t, layout_type) == 120);
CHECK(offsetof(dnnl_graph_logical_tensor_t, layout) == 128);
CHECK(offsetof(dnnl_graph_logical_tensor_t, layout.strides) == 128);
CHECK(offsetof(dnnl_graph_logical_tensor_t, layout.layout_id) == 128);
CHECK(sizeof(((dnnl_graph_logical_tensor_t *)0)->dims) == 96);
CHECK(sizeof(((dnnl_graph_logical_tensor_t *)0)->layout) == 96);
CHECK(sizeof(dnnl_graph_inplace_pair_t) == 16);
CHECK(offsetof(dnnl_graph_inplace_pair_t, input_id) == 0);
CHECK(offsetof(dnnl_graph_inplace_pair_t, output_id) == 8);
CHECK(sizeof(dnnl_version_t) == 32);
CHECK(sizeof(dnnl_dims_t) == DNNL_MAX_NDIMS * sizeof(int64_t));

/* ---- macros ---- */
CHECK(DNNL_MAX_NDIMS == 12);
CHECK(DNNL_GRAPH_UNKNOWN_NDIMS == -1);
CHECK(DNNL_GRAPH_UNKNOWN_DIM == INT64_MIN);
CHECK(DNNL_VERSION_MAJOR == 3);
CHECK(DNNL_VERSION_MINOR == 9);
CHECK(DNNL_VERSION_PATCH == 2);
CHECK(DNNL_RUNTIME_NONE == 0u);
CHECK(DNNL_RUNTIME_SEQ == 1u);
CHECK(DNNL_RUNTIME_OMP == 2u);
CHECK(DNNL_RUNTIME_TBB == 4u);
CHECK(DNNL_RUNTIME_THREADPOOL == 8u);
CHECK(DNNL_RUNTIME_OCL == 256u);
CHECK(DNNL_RUNTIME_SYCL == 512u);
CHECK(DNNL_RUNTIME_DPCPP == DNNL_RUNTIME_SYCL);
CHECK(DNNL_VENDOR_NONE == 0u);
CHECK(DNNL_VENDOR_INTEL == 1u);
CHECK(DNNL_VENDOR_NVIDIA == 2u);
CHECK(DNNL_VENDOR_AMD == 4u);
CHECK(DNNL_VENDOR_GENERIC == 8u);
CHECK(DNNL_CPU_RUNTIME == DNNL_RUNTIME_TBB);
CHECK(DNNL_CPU_THREADING_RUNTIME == DNNL_RUNTIME_TBB);
#if DNNL_GPU_RUNTIME != DNNL_RUNTIME_NONE && DNNL_GPU_RUNTIME != DNNL_RUNTIME_OCL
#error "unexpected DNNL_GPU_RUNTIME"
#endif
#ifndef ONEDNN_BUILD_GRAPH
#error "ONEDNN_BUILD_GRAPH must be defined"
#endif
#if !BUILD_TRAINING || BUILD_GEMM_KERNELS_NONE || BUILD_XE2
#error "unexpected BUILD_* values"
#endif

/* ---- dnnl_status_t ---- */
CHECK(dnnl_success == 0);
CHECK(dnnl_out_of_memory == 1);
CHECK(dnnl_invalid_arguments == 2);
CHECK(dnnl_unimplemented == 3);
CHECK(dnnl_last_impl_reached == 4);
CHECK(dnnl_runtime_error == 5);
CHECK(dnnl_not_required == 6);
CHECK(dnnl_invalid_graph == 7);
CHECK(dnnl_invalid_graph_op == 8);
CHECK(dnnl_invalid_shape == 9);
CHECK(dnnl_invalid_data_type == 10);

/* ---- dnnl_data_type_t ---- */
CHECK(dnnl_data_type_undef == 0);
CHECK(dnnl_f16 == 1);
CHECK(dnnl_bf16 == 2);
CHECK(dnnl_f32 == 3);
CHECK(dnnl_s32 == 4);
CHECK(dnnl_s8 == 5);
CHECK(dnnl_u8 == 6);
CHECK(dnnl_f64 == 7);
CHECK(dnnl_boolean == 8);
CHECK(dnnl_f8_e5m2 == 9);
CHECK(dnnl_f8_e4m3 == 10);
CHECK(dnnl_s4 == 11);
CHECK(dnnl_u4 == 12);
CHECK(dnnl_e8m0 == 13);
CHECK(dnnl_f4_e2m1 == 14);
CHECK(dnnl_f4_e3m0 == 15);
CHECK(dnnl_data_type_max == 0x7fff);

/* ---- math modes, engine kinds, stream flags ---- */
CHECK(dnnl_fpmath_mode_strict == 0);
CHECK(dnnl_fpmath_mode_bf16 == 1);
CHECK(dnnl_fpmath_mode_f16 == 2);
CHECK(dnnl_fpmath_mode_any == 3);
CHECK(dnnl_fpmath_mode_tf32 == 4);
CHECK(dnnl_accumulation_mode_strict == 0);
CHECK(dnnl_accumulation_mode_relaxed == 1);
CHECK(dnnl_accumulation_mode_any == 2);
CHECK(dnnl_accumulation_mode_s32 == 3);
CHECK(dnnl_accumulation_mode_f32 == 4);
CHECK(dnnl_accumulation_mode_f16 == 5);
CHECK(dnnl_any_engine == 0);
CHECK(dnnl_cpu == 1);
CHECK(dnnl_gpu == 2);
CHECK(dnnl_stream_in_order == 0x1);
CHECK(dnnl_stream_out_of_order == 0x2);
CHECK(dnnl_stream_default_flags == 0x1);
CHECK(dnnl_stream_flags_max == 0x7fff);

/* ---- graph small enums ---- */
CHECK(dnnl_graph_layout_type_undef == 0);
CHECK(dnnl_graph_layout_type_any == 1);
CHECK(dnnl_graph_layout_type_strided == 2);
CHECK(dnnl_graph_layout_type_opaque == 3);
CHECK(dnnl_graph_tensor_property_undef == 0);
CHECK(dnnl_graph_tensor_property_variable == 1);
CHECK(dnnl_graph_tensor_property_constant == 2);
CHECK(dnnl_graph_tensor_property_host_scalar == 3);
CHECK(dnnl_graph_partition_policy_fusion == 1);
CHECK(dnnl_graph_partition_policy_debug == 2);

/* ---- enums are int-sized ---- */
CHECK(sizeof(dnnl_status_t) == sizeof(int));
CHECK(sizeof(dnnl_data_type_t) == sizeof(int));
CHECK(sizeof(dnnl_graph_op_kind_t) == sizeof(int));
CHECK(sizeof(dnnl_graph_op_attr_t) == sizeof(int));

/* ---- op kinds (representative) ---- */
CHECK(dnnl_graph_op_abs == 0);
CHECK(dnnl_graph_op_batch_norm_backward == 5);
CHECK(dnnl_graph_op_convolution == 13);
CHECK(dnnl_graph_op_end == 25);
CHECK(dnnl_graph_op_matmul == 39);
CHECK(dnnl_graph_op_wildcard == 78);
CHECK(dnnl_graph_op_hard_sigmoid == 79);
CHECK(dnnl_graph_op_greater_equal == 85);
CHECK(dnnl_graph_op_last_symbol == 86);

/* ---- op attributes (representative) ---- */
CHECK(dnnl_graph_op_attr_undef == 0x00);
CHECK(dnnl_graph_op_attr_alpha == 0x01);
CHECK(dnnl_graph_op_attr_momentum == 0x06);
CHECK(dnnl_graph_op_attr_scales == 0x20);
CHECK(dnnl_graph_op_attr_axis == 0x30);
CHECK(dnnl_graph_op_attr_groups == 0x32);
CHECK(dnnl_graph_op_attr_axes == 0x40);
CHECK(dnnl_graph_op_attr_strides == 0x4B);
CHECK(dnnl_graph_op_attr_group_shape == 0x4E);
CHECK(dnnl_graph_op_attr_exclude_pad == 0x60);
CHECK(dnnl_graph_op_attr_use_dst == 0x68);
CHECK(dnnl_graph_op_attr_auto_broadcast == 0x80);
CHECK(dnnl_graph_op_attr_weights_format == 0x87);
CHECK(dnnl_graph_op_attr_end == 0xFF);

/* ---- special handles ---- */
CHECK(sizeof(DNNL_MEMORY_ALLOCATE) == sizeof(void *));

/* Exercise the function and callback types (never called). */
static void *host_alloc(size_t size, size_t alignment) {
    (void)size;
    (void)alignment;
    return NULL;
}
static void host_free(void *buf) { (void)buf; }
static dnnl_graph_host_allocate_f alloc_fn = host_alloc;
static dnnl_graph_host_deallocate_f free_fn = host_free;

int llga_headers_c99_unused(void);
int llga_headers_c99_unused(void) {
    dnnl_graph_logical_tensor_t lt;
    dnnl_dims_t dims = {1, 2};
    lt.layout.layout_id = 0;
    (void)dims;
    (void)lt;
    (void)alloc_fn;
    (void)free_fn;
    return (DNNL_MEMORY_NONE == NULL) ? 0 : 1;
}

int main(void) { return 0; }
