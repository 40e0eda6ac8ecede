// SPDX-License-Identifier: Apache-2.0
// tests/api/capi_objects_test.cpp — success and error paths of the C API
// for engines, streams, allocators, logical tensors, tensors, ops and the
// global settings.
#include "capi_test_util.hpp"

#include "oneapi/dnnl/dnnl_common.h"
#include "oneapi/dnnl/dnnl_version.h"

using namespace capi_test;

TEST(CapiEngine, CreateQueryDestroy) {
    EXPECT_EQ(dnnl_engine_get_count(dnnl_cpu), 1u);
    // GPU engines exist only in OpenCL builds with a device (tests/ocl).
    if (DNNL_GPU_RUNTIME == DNNL_RUNTIME_NONE) {
        EXPECT_EQ(dnnl_engine_get_count(dnnl_gpu), 0u);
    }
    dnnl_engine_t e = nullptr;
    ASSERT_EQ(dnnl_engine_create(&e, dnnl_cpu, 0), dnnl_success);
    dnnl_engine_kind_t k;
    EXPECT_EQ(dnnl_engine_get_kind(e, &k), dnnl_success);
    EXPECT_EQ(k, dnnl_cpu);
    EXPECT_EQ(dnnl_engine_destroy(e), dnnl_success);
}

TEST(CapiEngine, Errors) {
    dnnl_engine_t e = reinterpret_cast<dnnl_engine_t>(0x1);
    EXPECT_EQ(dnnl_engine_create(&e, dnnl_cpu, 1), dnnl_invalid_arguments);
    EXPECT_EQ(e, nullptr); // out-pointer cleared on failure
    EXPECT_NE(last_error().find("index 1"), std::string::npos) << last_error();
    if (dnnl_engine_get_count(dnnl_gpu) == 0) {
        // No OpenCL in the build (unimplemented) or no device (out of range).
        const dnnl_status_t st = dnnl_engine_create(&e, dnnl_gpu, 0);
        EXPECT_TRUE(st == dnnl_unimplemented || st == dnnl_invalid_arguments);
        EXPECT_NE(last_error().find("OpenCL"), std::string::npos) << last_error();
    }
    EXPECT_EQ(dnnl_engine_create(&e, dnnl_any_engine, 0), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_engine_create(nullptr, dnnl_cpu, 0), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_engine_get_kind(nullptr, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_engine_destroy(nullptr), dnnl_invalid_arguments);
}

TEST(CapiStream, CreateWaitEngine) {
    cpu_env_t env;
    dnnl_engine_t e = nullptr;
    EXPECT_EQ(dnnl_stream_get_engine(env.stream, &e), dnnl_success);
    EXPECT_EQ(e, env.engine);
    EXPECT_EQ(dnnl_stream_wait(env.stream), dnnl_success);
    dnnl_stream_t s = nullptr;
    EXPECT_EQ(dnnl_stream_create(&s, env.engine, dnnl_stream_out_of_order),
            dnnl_success);
    EXPECT_EQ(dnnl_stream_destroy(s), dnnl_success);
}

TEST(CapiStream, Errors) {
    cpu_env_t env;
    dnnl_stream_t s = nullptr;
    EXPECT_EQ(dnnl_stream_create(&s, nullptr, 1), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_stream_create(&s, env.engine, 0x40), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_stream_create(&s, env.engine, 0x3), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_stream_wait(nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_stream_get_engine(env.stream, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_stream_destroy(nullptr), dnnl_invalid_arguments);
}

namespace {
int g_allocs = 0, g_frees = 0;
void *counting_malloc(size_t size, size_t alignment) {
    ++g_allocs;
    return aligned_alloc(alignment, (size + alignment - 1) / alignment * alignment);
}
void counting_free(void *p) {
    ++g_frees;
    free(p);
}
} // namespace

TEST(CapiAllocator, UserCallbacksServeLibraryAllocations) {
    dnnl_graph_allocator_t a = nullptr;
    ASSERT_EQ(dnnl_graph_allocator_create(&a, counting_malloc, counting_free),
            dnnl_success);
    dnnl_engine_t e = nullptr;
    ASSERT_EQ(dnnl_graph_make_engine_with_allocator(&e, dnnl_cpu, 0, a),
            dnnl_success);
    // The engine keeps its own copy: the allocator may go first.
    EXPECT_EQ(dnnl_graph_allocator_destroy(a), dnnl_success);
    g_allocs = g_frees = 0;
    auto t = lt(1, dnnl_f32, {4, 4});
    dnnl_graph_tensor_t tensor = nullptr;
    ASSERT_EQ(dnnl_graph_tensor_create(&tensor, &t, e, DNNL_MEMORY_ALLOCATE),
            dnnl_success);
    void *h = nullptr;
    EXPECT_EQ(dnnl_graph_tensor_get_data_handle(tensor, &h), dnnl_success);
    EXPECT_NE(h, nullptr);
    EXPECT_EQ(g_allocs, 1);
    EXPECT_EQ(dnnl_graph_tensor_destroy(tensor), dnnl_success);
    EXPECT_EQ(g_frees, 1);
    EXPECT_EQ(dnnl_engine_destroy(e), dnnl_success);
}

TEST(CapiAllocator, DefaultsAndErrors) {
    dnnl_graph_allocator_t a = nullptr;
    EXPECT_EQ(dnnl_graph_allocator_create(&a, nullptr, nullptr), dnnl_success);
    EXPECT_EQ(dnnl_graph_allocator_destroy(a), dnnl_success);
    EXPECT_EQ(dnnl_graph_allocator_create(nullptr, nullptr, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_allocator_destroy(nullptr), dnnl_invalid_arguments);
    dnnl_engine_t e = nullptr;
    EXPECT_EQ(dnnl_graph_make_engine_with_allocator(&e, dnnl_cpu, 0, nullptr),
            dnnl_invalid_arguments);
}

TEST(CapiLogicalTensor, InitForms) {
    dnnl_graph_logical_tensor_t t;
    ASSERT_EQ(dnnl_graph_logical_tensor_init(&t, 7, dnnl_f32, 3,
                      dnnl_graph_layout_type_strided,
                      dnnl_graph_tensor_property_variable),
            dnnl_success);
    EXPECT_EQ(t.id, 7u);
    EXPECT_EQ(t.ndims, 3);
    EXPECT_EQ(t.dims[0], DNNL_GRAPH_UNKNOWN_DIM);
    EXPECT_EQ(t.layout.strides[2], DNNL_GRAPH_UNKNOWN_DIM);
    EXPECT_EQ(t.property, dnnl_graph_tensor_property_variable);

    ASSERT_EQ(dnnl_graph_logical_tensor_init(&t, 1, dnnl_s32, 0,
                      dnnl_graph_layout_type_strided,
                      dnnl_graph_tensor_property_host_scalar),
            dnnl_success);
    EXPECT_EQ(t.dims[0], 0);
    EXPECT_EQ(t.layout.strides[0], 0);

    auto d = lt(2, dnnl_f32, {2, 3, 4, 5});
    const int64_t want[] = {60, 20, 5, 1}; // dense row-major
    for (int k = 0; k < 4; ++k)
        EXPECT_EQ(d.layout.strides[k], want[k]);
    // A zero dim counts as 1 when computing strides.
    auto z = lt(3, dnnl_f32, {2, 0, 4});
    EXPECT_EQ(z.layout.strides[0], 4);
    // Unknown dims leave strides unknown.
    auto u = lt(4, dnnl_f32, {2, DNNL_GRAPH_UNKNOWN_DIM});
    EXPECT_EQ(u.layout.strides[0], DNNL_GRAPH_UNKNOWN_DIM);
    // Layout any keeps strides unknown.
    auto a = lt(5, dnnl_f32, {2, 3}, dnnl_graph_layout_type_any);
    EXPECT_EQ(a.layout.strides[0], DNNL_GRAPH_UNKNOWN_DIM);

    dnnl_dims_t dims = {2, 3}, strides = {1, 2};
    ASSERT_EQ(dnnl_graph_logical_tensor_init_with_strides(&t, 6, dnnl_bf16, 2,
                      dims, strides, dnnl_graph_tensor_property_constant),
            dnnl_success);
    EXPECT_EQ(t.layout_type, dnnl_graph_layout_type_strided);
    EXPECT_EQ(t.layout.strides[1], 2);
}

TEST(CapiLogicalTensor, InitErrors) {
    dnnl_graph_logical_tensor_t t;
    dnnl_dims_t dims = {1, 2};
    EXPECT_EQ(dnnl_graph_logical_tensor_init(&t, 1, dnnl_f32, 13,
                      dnnl_graph_layout_type_strided,
                      dnnl_graph_tensor_property_undef),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_logical_tensor_init(nullptr, 1, dnnl_f32, 1,
                      dnnl_graph_layout_type_strided,
                      dnnl_graph_tensor_property_undef),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_logical_tensor_init(&t, 1, dnnl_f32, 0,
                      dnnl_graph_layout_type_strided,
                      dnnl_graph_tensor_property_host_scalar),
            dnnl_invalid_arguments); // host scalars must be s32
    EXPECT_EQ(dnnl_graph_logical_tensor_init_with_dims(&t, 1, dnnl_f32, 2,
                      nullptr, dnnl_graph_layout_type_strided,
                      dnnl_graph_tensor_property_undef),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_logical_tensor_init_with_dims(&t, 1, dnnl_f32, -1,
                      dims, dnnl_graph_layout_type_strided,
                      dnnl_graph_tensor_property_undef),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_logical_tensor_init_with_dims(&t, 1,
                      static_cast<dnnl_data_type_t>(99), 2, dims,
                      dnnl_graph_layout_type_strided,
                      dnnl_graph_tensor_property_undef),
            dnnl_invalid_arguments);
    dnnl_dims_t neg = {1, -3};
    EXPECT_EQ(dnnl_graph_logical_tensor_init_with_strides(
                      &t, 1, dnnl_f32, 2, dims, neg, dnnl_graph_tensor_property_undef),
            dnnl_invalid_arguments);
}

TEST(CapiLogicalTensor, MemSize) {
    size_t sz = 0;
    auto d = lt(1, dnnl_f32, {2, 3});
    ASSERT_EQ(dnnl_graph_logical_tensor_get_mem_size(&d, &sz), dnnl_success);
    EXPECT_EQ(sz, 24u);
    // A strided view reports the span it addresses: dims (2,3) with strides
    // (8,1) spans 2*8 = 16 floats.
    dnnl_graph_logical_tensor_t v;
    dnnl_dims_t dims = {2, 3}, strides = {8, 1};
    ASSERT_EQ(dnnl_graph_logical_tensor_init_with_strides(
                      &v, 2, dnnl_f32, 2, dims, strides, dnnl_graph_tensor_property_undef),
            dnnl_success);
    EXPECT_EQ(dnnl_graph_logical_tensor_get_mem_size(&v, &sz), dnnl_success);
    EXPECT_EQ(sz, 64u);
    auto u4 = lt(3, dnnl_u4, {3, 3}); // 9 nibbles -> 5 bytes
    EXPECT_EQ(dnnl_graph_logical_tensor_get_mem_size(&u4, &sz), dnnl_success);
    EXPECT_EQ(sz, 5u);
    auto zero = lt(4, dnnl_f32, {2, 0});
    EXPECT_EQ(dnnl_graph_logical_tensor_get_mem_size(&zero, &sz), dnnl_success);
    EXPECT_EQ(sz, 0u);
    dnnl_graph_logical_tensor_t s;
    dnnl_graph_logical_tensor_init(&s, 5, dnnl_f16, 0,
            dnnl_graph_layout_type_strided, dnnl_graph_tensor_property_undef);
    EXPECT_EQ(dnnl_graph_logical_tensor_get_mem_size(&s, &sz), dnnl_success);
    EXPECT_EQ(sz, 2u);
    auto any = lt(6, dnnl_f32, {2, 3}, dnnl_graph_layout_type_any);
    EXPECT_EQ(dnnl_graph_logical_tensor_get_mem_size(&any, &sz), dnnl_success);
    EXPECT_EQ(sz, static_cast<size_t>(-1));
    EXPECT_EQ(dnnl_graph_logical_tensor_get_mem_size(nullptr, &sz),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_logical_tensor_get_mem_size(&d, nullptr),
            dnnl_invalid_arguments);
}

TEST(CapiLogicalTensor, IsEqual) {
    auto a = lt(1, dnnl_f32, {2, 3});
    auto b = lt(1, dnnl_f32, {2, 3});
    auto c = lt(1, dnnl_f32, {3, 2});
    auto d = lt(2, dnnl_f32, {2, 3});
    uint8_t eq = 9;
    EXPECT_EQ(dnnl_graph_logical_tensor_is_equal(&a, &b, &eq), dnnl_success);
    EXPECT_EQ(eq, 1);
    EXPECT_EQ(dnnl_graph_logical_tensor_is_equal(&a, &c, &eq), dnnl_success);
    EXPECT_EQ(eq, 0);
    EXPECT_EQ(dnnl_graph_logical_tensor_is_equal(&a, &d, &eq), dnnl_success);
    EXPECT_EQ(eq, 0);
    EXPECT_EQ(dnnl_graph_logical_tensor_is_equal(&a, nullptr, &eq),
            dnnl_invalid_arguments);
}

TEST(CapiTensor, CreateHandlesEngineLogicalTensor) {
    cpu_env_t env;
    float buf[6] = {0};
    auto t = lt(1, dnnl_f32, {2, 3});
    dnnl_graph_tensor_t tensor = nullptr;
    ASSERT_EQ(dnnl_graph_tensor_create(&tensor, &t, env.engine, buf), dnnl_success);
    void *h = nullptr;
    EXPECT_EQ(dnnl_graph_tensor_get_data_handle(tensor, &h), dnnl_success);
    EXPECT_EQ(h, buf);
    float other[6];
    EXPECT_EQ(dnnl_graph_tensor_set_data_handle(tensor, other), dnnl_success);
    EXPECT_EQ(dnnl_graph_tensor_get_data_handle(tensor, &h), dnnl_success);
    EXPECT_EQ(h, other);
    dnnl_engine_t e = nullptr;
    EXPECT_EQ(dnnl_graph_tensor_get_engine(tensor, &e), dnnl_success);
    EXPECT_EQ(e, env.engine);
    dnnl_graph_logical_tensor_t back;
    EXPECT_EQ(dnnl_graph_tensor_get_logical_tensor(tensor, &back), dnnl_success);
    EXPECT_EQ(std::memcmp(&back, &t, sizeof(t)), 0);
    EXPECT_EQ(dnnl_graph_tensor_destroy(tensor), dnnl_success);

    // No buffer yet, then attach one.
    ASSERT_EQ(dnnl_graph_tensor_create(&tensor, &t, env.engine, DNNL_MEMORY_NONE),
            dnnl_success);
    EXPECT_EQ(dnnl_graph_tensor_get_data_handle(tensor, &h), dnnl_success);
    EXPECT_EQ(h, nullptr);
    EXPECT_EQ(dnnl_graph_tensor_destroy(tensor), dnnl_success);
}

TEST(CapiTensor, HostScalarCopiesValue) {
    dnnl_graph_logical_tensor_t s;
    ASSERT_EQ(dnnl_graph_logical_tensor_init(&s, 9, dnnl_s32, 0,
                      dnnl_graph_layout_type_strided,
                      dnnl_graph_tensor_property_host_scalar),
            dnnl_success);
    int32_t v = 42;
    dnnl_graph_tensor_t t = nullptr;
    ASSERT_EQ(dnnl_graph_tensor_create_scalar(&t, &s, &v), dnnl_success);
    v = 7; // the tensor kept its own copy
    void *h = reinterpret_cast<void *>(0x1);
    EXPECT_EQ(dnnl_graph_tensor_get_data_handle(t, &h), dnnl_success);
    EXPECT_EQ(h, nullptr);
    dnnl_engine_t e = reinterpret_cast<dnnl_engine_t>(0x1);
    EXPECT_EQ(dnnl_graph_tensor_get_engine(t, &e), dnnl_success);
    EXPECT_EQ(e, nullptr);
    EXPECT_EQ(dnnl_graph_tensor_set_data_handle(t, &v), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_tensor_destroy(t), dnnl_success);
}

TEST(CapiTensor, Errors) {
    cpu_env_t env;
    auto t = lt(1, dnnl_f32, {2, 3});
    dnnl_graph_tensor_t tensor = nullptr;
    EXPECT_EQ(dnnl_graph_tensor_create(&tensor, nullptr, env.engine, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_tensor_create(&tensor, &t, nullptr, nullptr),
            dnnl_invalid_arguments);
    auto unknown = lt_unknown(2, dnnl_f32);
    EXPECT_EQ(dnnl_graph_tensor_create(
                      &tensor, &unknown, env.engine, DNNL_MEMORY_ALLOCATE),
            dnnl_invalid_arguments);
    dnnl_graph_logical_tensor_t s;
    dnnl_graph_logical_tensor_init(&s, 3, dnnl_s32, 0,
            dnnl_graph_layout_type_strided, dnnl_graph_tensor_property_host_scalar);
    int32_t v = 1;
    EXPECT_EQ(dnnl_graph_tensor_create(&tensor, &s, env.engine, &v),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_tensor_create_scalar(&tensor, &t, &v),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_tensor_create_scalar(&tensor, &s, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_tensor_create_scalar(&tensor, &s, DNNL_MEMORY_ALLOCATE),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_tensor_destroy(nullptr), dnnl_invalid_arguments);
    void *h;
    EXPECT_EQ(dnnl_graph_tensor_get_data_handle(nullptr, &h),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_tensor_set_data_handle(nullptr, &h),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_tensor_get_engine(nullptr, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_tensor_get_logical_tensor(nullptr, nullptr),
            dnnl_invalid_arguments);
}

TEST(CapiOp, CreateAttributesGetters) {
    dnnl_graph_op_t op = nullptr;
    ASSERT_EQ(dnnl_graph_op_create(&op, 11, dnnl_graph_op_convolution, "conv"),
            dnnl_success);
    size_t id = 0;
    dnnl_graph_op_kind_t kind;
    EXPECT_EQ(dnnl_graph_op_get_id(op, &id), dnnl_success);
    EXPECT_EQ(id, 11u);
    EXPECT_EQ(dnnl_graph_op_get_kind(op, &kind), dnnl_success);
    EXPECT_EQ(kind, dnnl_graph_op_convolution);
    const int64_t strides[] = {1, 1};
    const float alpha = 0.5f;
    const uint8_t yes = 1;
    EXPECT_EQ(dnnl_graph_op_set_attr_s64(op, dnnl_graph_op_attr_strides, strides, 2),
            dnnl_success);
    EXPECT_EQ(dnnl_graph_op_set_attr_s64(op, dnnl_graph_op_attr_groups, strides, 1),
            dnnl_success);
    EXPECT_EQ(dnnl_graph_op_set_attr_f32(op, dnnl_graph_op_attr_alpha, &alpha, 1),
            dnnl_success);
    EXPECT_EQ(dnnl_graph_op_set_attr_f32(op, dnnl_graph_op_attr_scales, &alpha, 1),
            dnnl_success);
    EXPECT_EQ(dnnl_graph_op_set_attr_bool(op, dnnl_graph_op_attr_keep_dims, &yes, 1),
            dnnl_success);
    EXPECT_EQ(dnnl_graph_op_set_attr_str(op, dnnl_graph_op_attr_data_format, "NCX", 3),
            dnnl_success);
    auto in = lt(1, dnnl_f32, {1, 1, 3, 3});
    EXPECT_EQ(dnnl_graph_op_add_input(op, &in), dnnl_success);
    EXPECT_EQ(dnnl_graph_op_add_output(op, &in), dnnl_success);
    EXPECT_EQ(dnnl_graph_op_destroy(op), dnnl_success);

    // An empty name is allowed (the library makes one).
    ASSERT_EQ(dnnl_graph_op_create(&op, 12, dnnl_graph_op_relu, ""), dnnl_success);
    EXPECT_EQ(dnnl_graph_op_destroy(op), dnnl_success);
}

TEST(CapiOp, Errors) {
    dnnl_graph_op_t op = nullptr;
    EXPECT_EQ(dnnl_graph_op_create(&op, 1, dnnl_graph_op_relu, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_op_create(&op, 1, dnnl_graph_op_last_symbol, "x"),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_op_create(&op, 1, static_cast<dnnl_graph_op_kind_t>(-3), "x"),
            dnnl_invalid_arguments);
    ASSERT_EQ(dnnl_graph_op_create(&op, 1, dnnl_graph_op_relu, "r"), dnnl_success);
    const uint8_t b[2] = {1, 0};
    EXPECT_EQ(dnnl_graph_op_set_attr_bool(op, dnnl_graph_op_attr_keep_dims, b, 2),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_op_set_attr_str(op, dnnl_graph_op_attr_mode, "x", 0),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_op_set_attr_str(op, dnnl_graph_op_attr_mode, nullptr, 3),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_op_set_attr_s64(op, static_cast<dnnl_graph_op_attr_t>(0x99),
                      nullptr, 0),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_op_set_attr_f32(op, dnnl_graph_op_attr_alpha, nullptr, 1),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_op_set_attr_f32(op, dnnl_graph_op_attr_alpha, nullptr, 0),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_op_add_input(op, nullptr), dnnl_invalid_arguments);
    dnnl_graph_logical_tensor_t bad = lt(1, dnnl_f32, {2});
    bad.ndims = 40;
    EXPECT_EQ(dnnl_graph_op_add_output(op, &bad), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_op_get_id(op, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_op_get_kind(nullptr, nullptr), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_op_destroy(op), dnnl_success);
    EXPECT_EQ(dnnl_graph_op_destroy(nullptr), dnnl_invalid_arguments);
}

TEST(CapiGlobal, VersionVerboseFpmath) {
    const dnnl_version_t *v = dnnl_version();
    ASSERT_NE(v, nullptr);
    EXPECT_EQ(v->major, 3);
    EXPECT_EQ(v->minor, 9);
    EXPECT_EQ(v->patch, 2);
    EXPECT_NE(v->hash, nullptr);
    EXPECT_EQ(v->cpu_runtime, DNNL_RUNTIME_TBB);
    EXPECT_EQ(dnnl_set_verbose(0), dnnl_success);
    EXPECT_EQ(dnnl_set_verbose(3), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_set_verbose(-1), dnnl_invalid_arguments);
    dnnl_fpmath_mode_t m;
    EXPECT_EQ(dnnl_get_default_fpmath_mode(&m), dnnl_success);
    EXPECT_EQ(m, dnnl_fpmath_mode_strict);
    EXPECT_EQ(dnnl_set_default_fpmath_mode(dnnl_fpmath_mode_bf16), dnnl_success);
    EXPECT_EQ(dnnl_get_default_fpmath_mode(&m), dnnl_success);
    EXPECT_EQ(m, dnnl_fpmath_mode_bf16);
    EXPECT_EQ(dnnl_set_default_fpmath_mode(dnnl_fpmath_mode_strict), dnnl_success);
    EXPECT_EQ(dnnl_set_default_fpmath_mode(static_cast<dnnl_fpmath_mode_t>(9)),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_get_default_fpmath_mode(nullptr), dnnl_invalid_arguments);
}

TEST(CapiGlobal, CacheSettings) {
    int cap = -1;
    EXPECT_EQ(dnnl_graph_get_compiled_partition_cache_capacity(&cap), dnnl_success);
    EXPECT_GE(cap, 0);
    EXPECT_EQ(dnnl_graph_set_compiled_partition_cache_capacity(17), dnnl_success);
    EXPECT_EQ(dnnl_graph_get_compiled_partition_cache_capacity(&cap), dnnl_success);
    EXPECT_EQ(cap, 17);
    EXPECT_EQ(dnnl_graph_set_compiled_partition_cache_capacity(-1),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_set_compiled_partition_cache_capacity(1024), dnnl_success);
    EXPECT_EQ(dnnl_graph_get_compiled_partition_cache_capacity(nullptr),
            dnnl_invalid_arguments);

    size_t mb = 99;
    EXPECT_EQ(dnnl_graph_set_constant_tensor_cache_capacity(dnnl_cpu, 256),
            dnnl_success);
    EXPECT_EQ(dnnl_graph_get_constant_tensor_cache_capacity(dnnl_cpu, &mb),
            dnnl_success);
    EXPECT_EQ(mb, 256u);
    int flag = -1;
    EXPECT_EQ(dnnl_graph_get_constant_tensor_cache(&flag), dnnl_success);
    EXPECT_EQ(flag, 1);
    EXPECT_EQ(dnnl_graph_set_constant_tensor_cache(0), dnnl_success);
    EXPECT_EQ(dnnl_graph_get_constant_tensor_cache(&flag), dnnl_success);
    EXPECT_EQ(flag, 0);
    EXPECT_EQ(dnnl_graph_get_constant_tensor_cache_capacity(dnnl_gpu, &mb),
            dnnl_success);
    EXPECT_EQ(mb, 0u);
    EXPECT_EQ(dnnl_graph_set_constant_tensor_cache(-2), dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_set_constant_tensor_cache_capacity(dnnl_any_engine, 1),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_get_constant_tensor_cache_capacity(dnnl_cpu, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_get_constant_tensor_cache(nullptr), dnnl_invalid_arguments);
}

TEST(CapiGlobal, LastErrorIsReplacedByEachFailure) {
    dnnl_engine_t e = nullptr;
    EXPECT_EQ(dnnl_engine_create(&e, dnnl_cpu, 5), dnnl_invalid_arguments);
    const std::string first = last_error();
    EXPECT_EQ(first.rfind("dnnl_engine_create:", 0), 0u) << first;
    EXPECT_EQ(dnnl_stream_wait(nullptr), dnnl_invalid_arguments);
    const std::string second = last_error();
    EXPECT_EQ(second.rfind("dnnl_stream_wait:", 0), 0u) << second;
    // Success leaves the message alone.
    EXPECT_EQ(dnnl_engine_get_count(dnnl_cpu), 1u);
    EXPECT_EQ(last_error(), second);
}
