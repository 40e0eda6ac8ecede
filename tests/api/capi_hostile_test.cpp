// SPDX-License-Identifier: Apache-2.0
// tests/api/capi_hostile_test.cpp — hostile shapes and strides through the C
// API (issue 31's reproductions): sizes that would wrap int64/size_t, shapes
// given only at compile time, overlapping, gapped and huge strides, and
// execute-time checks of every tensor against its compiled port. Each must
// end in a status with a message and no memory error (run under ASan and
// valgrind), or, for overlapping inputs, in correct results.
#include <cmath>
#include <cstdint>

#include "capi_test_util.hpp"

using namespace capi_test;

namespace {

constexpr int64_t k_2_62 = int64_t(1) << 62;

dnnl_graph_logical_tensor_t raw_lt(size_t id, std::vector<int64_t> dims,
        std::vector<int64_t> strides, dnnl_data_type_t dt = dnnl_f32) {
    dnnl_graph_logical_tensor_t t;
    std::memset(&t, 0, sizeof(t));
    t.id = id;
    t.data_type = dt;
    t.ndims = static_cast<int32_t>(dims.size());
    t.layout_type = dnnl_graph_layout_type_strided;
    t.property = dnnl_graph_tensor_property_undef;
    for (size_t k = 0; k < dims.size(); ++k) {
        t.dims[k] = dims[k];
        t.layout.strides[k] = strides[k];
    }
    return t;
}

dnnl_graph_logical_tensor_t strided_lt(size_t id, std::vector<int64_t> dims,
        std::vector<int64_t> strides, dnnl_data_type_t dt = dnnl_f32) {
    dnnl_graph_logical_tensor_t t;
    EXPECT_EQ(dnnl_graph_logical_tensor_init_with_strides(&t, id, dt,
                      static_cast<int32_t>(dims.size()), dims.data(),
                      strides.data(), dnnl_graph_tensor_property_undef),
            dnnl_success);
    return t;
}

dnnl_graph_logical_tensor_t unknown_dims_lt(size_t id, int ndims) {
    std::vector<int64_t> d(static_cast<size_t>(ndims), DNNL_GRAPH_UNKNOWN_DIM);
    return lt(id, dnnl_f32, d);
}

// One op in a graph, partitioned (one partition expected); compile() takes
// the compile-time tensors; tensors made with bind() die with the object.
struct one_op_t {
    cpu_env_t env;
    dnnl_graph_graph_t g = nullptr;
    dnnl_graph_partition_t part = nullptr;
    dnnl_graph_compiled_partition_t cp = nullptr;
    std::vector<dnnl_graph_tensor_t> tensors;

    one_op_t(dnnl_graph_op_kind_t kind,
            std::vector<dnnl_graph_logical_tensor_t> ins,
            std::vector<dnnl_graph_logical_tensor_t> outs) {
        dnnl_graph_op_t op = nullptr;
        EXPECT_EQ(dnnl_graph_graph_create(&g, dnnl_cpu), dnnl_success);
        EXPECT_EQ(dnnl_graph_op_create(&op, 1, kind, "op"), dnnl_success);
        for (auto &t : ins)
            EXPECT_EQ(dnnl_graph_op_add_input(op, &t), dnnl_success);
        for (auto &t : outs)
            EXPECT_EQ(dnnl_graph_op_add_output(op, &t), dnnl_success);
        EXPECT_EQ(dnnl_graph_add_op(g, op), dnnl_success) << last_error();
        dnnl_graph_op_destroy(op);
        size_t n = 0;
        EXPECT_EQ(dnnl_graph_graph_finalize(g), dnnl_success);
        EXPECT_EQ(dnnl_graph_graph_filter(g, dnnl_graph_partition_policy_fusion),
                dnnl_success);
        EXPECT_EQ(dnnl_graph_graph_get_partition_num(g, &n), dnnl_success);
        EXPECT_EQ(n, 1u);
        if (n != 1) return;
        EXPECT_EQ(dnnl_graph_graph_get_partitions(g, 1, &part), dnnl_success);
        EXPECT_EQ(dnnl_graph_compiled_partition_create(&cp, part), dnnl_success);
    }
    ~one_op_t() {
        for (auto t : tensors)
            dnnl_graph_tensor_destroy(t);
        dnnl_graph_compiled_partition_destroy(cp);
        dnnl_graph_partition_destroy(part);
        dnnl_graph_graph_destroy(g);
    }
    dnnl_status_t compile(std::vector<dnnl_graph_logical_tensor_t> ins,
            std::vector<dnnl_graph_logical_tensor_t> outs) {
        std::vector<const dnnl_graph_logical_tensor_t *> pi, po;
        for (auto &t : ins)
            pi.push_back(&t);
        for (auto &t : outs)
            po.push_back(&t);
        return dnnl_graph_partition_compile(part, cp, pi.size(), pi.data(),
                po.size(), po.data(), env.engine);
    }
    dnnl_graph_logical_tensor_t query(size_t id) const {
        dnnl_graph_logical_tensor_t q;
        EXPECT_EQ(dnnl_graph_compiled_partition_query_logical_tensor(cp, id, &q),
                dnnl_success);
        return q;
    }
    dnnl_graph_tensor_t bind(const dnnl_graph_logical_tensor_t &t, void *data) {
        dnnl_graph_tensor_t h = nullptr;
        EXPECT_EQ(dnnl_graph_tensor_create(&h, &t, env.engine, data),
                dnnl_success)
                << last_error();
        tensors.push_back(h);
        return h;
    }
    dnnl_status_t execute(std::vector<const_dnnl_graph_tensor_t> ins,
            std::vector<const_dnnl_graph_tensor_t> outs) const {
        return dnnl_graph_compiled_partition_execute(cp, env.stream, ins.size(),
                ins.data(), outs.size(), outs.data());
    }
};

} // namespace

// get_mem_size never wraps: the values answered 16, 2^64-3 and 0.
TEST(CapiHostile, MemSizeNeverWraps) {
    const int64_t big = INT64_MAX;
    const dnnl_graph_logical_tensor_t cases[] = {
            raw_lt(0, {k_2_62 + 1, 4}, {4, 1}),
            raw_lt(1, {big, big}, {big, 1}),
            raw_lt(2, {3, k_2_62}, {k_2_62, 1}),
            raw_lt(3, {2, 2}, {k_2_62, 1}),
    };
    for (const auto &t : cases) {
        size_t size = 12345;
        EXPECT_NE(dnnl_graph_logical_tensor_get_mem_size(&t, &size),
                dnnl_success)
                << "tensor " << t.id << " answered " << size;
        EXPECT_NE(last_error().find("tensor " + std::to_string(t.id)),
                std::string::npos)
                << last_error();
    }
}

TEST(CapiHostile, InitRefusesHugeDimsAndStrides) {
    dnnl_graph_logical_tensor_t t;
    const int64_t dims1[] = {k_2_62 + 1, 4};
    EXPECT_EQ(dnnl_graph_logical_tensor_init_with_dims(&t, 7, dnnl_f32, 2, dims1,
                      dnnl_graph_layout_type_strided,
                      dnnl_graph_tensor_property_undef),
            dnnl_invalid_arguments);
    EXPECT_NE(last_error().find("tensor 7"), std::string::npos) << last_error();
    const int64_t dims2[] = {3, k_2_62};
    EXPECT_EQ(dnnl_graph_logical_tensor_init_with_dims(&t, 8, dnnl_f32, 2, dims2,
                      dnnl_graph_layout_type_any,
                      dnnl_graph_tensor_property_undef),
            dnnl_invalid_arguments);
    const int64_t dims3[] = {2, 2}, strides3[] = {k_2_62, 1};
    EXPECT_EQ(dnnl_graph_logical_tensor_init_with_strides(&t, 9, dnnl_f32, 2,
                      dims3, strides3, dnnl_graph_tensor_property_undef),
            dnnl_invalid_arguments);
    // Largest accepted: 2^48 elements.
    const int64_t dims4[] = {int64_t(1) << 24, int64_t(1) << 24};
    EXPECT_EQ(dnnl_graph_logical_tensor_init_with_dims(&t, 10, dnnl_u8, 2, dims4,
                      dnnl_graph_layout_type_strided,
                      dnnl_graph_tensor_property_undef),
            dnnl_success);
    size_t size = 0;
    EXPECT_EQ(dnnl_graph_logical_tensor_get_mem_size(&t, &size), dnnl_success);
    EXPECT_EQ(size, size_t(1) << 48);
}

// The true span: 1 + sum (dim - 1) * stride. 1x32x28x28 with all strides 1
// reaches element 31 + 27 + 27 = 85, so 86 f32 = 344 bytes (was 128).
TEST(CapiHostile, MemSizeIsTheSpanOfOverlappingStrides) {
    size_t size = 0;
    auto t = strided_lt(0, {1, 32, 28, 28}, {1, 1, 1, 1});
    ASSERT_EQ(dnnl_graph_logical_tensor_get_mem_size(&t, &size), dnnl_success);
    EXPECT_EQ(size, 344u);
    // Broadcast view: stride 0 everywhere is one element.
    t = strided_lt(1, {4, 5}, {0, 0});
    ASSERT_EQ(dnnl_graph_logical_tensor_get_mem_size(&t, &size), dnnl_success);
    EXPECT_EQ(size, 4u);
    // Gapped rows (2x3, row pitch 4): span 7, oneDNN's dims[0]*strides[0]
    // is 8; the larger is reported.
    t = strided_lt(2, {2, 3}, {4, 1});
    ASSERT_EQ(dnnl_graph_logical_tensor_get_mem_size(&t, &size), dnnl_success);
    EXPECT_EQ(size, 32u);
    // Column-major 2x3: span 6.
    t = strided_lt(3, {2, 3}, {1, 2});
    ASSERT_EQ(dnnl_graph_logical_tensor_get_mem_size(&t, &size), dnnl_success);
    EXPECT_EQ(size, 24u);
}

// A MatMul added with unknown dims and compiled with src {2^62+1, 8}
// compiled, reported 32 bytes and wrote past the heap block at execute.
TEST(CapiHostile, CompileRefusesHugeShapeMatMul) {
    one_op_t m(dnnl_graph_op_matmul,
            {unknown_dims_lt(0, 2), unknown_dims_lt(1, 2)},
            {unknown_dims_lt(2, 2)});
    ASSERT_NE(m.part, nullptr);
    auto src = raw_lt(0, {k_2_62 + 1, 8}, {8, 1});
    auto wei = lt(1, dnnl_f32, {8, 4});
    auto dst = lt_unknown(2, dnnl_f32);
    EXPECT_EQ(m.compile({src, wei}, {dst}), dnnl_invalid_arguments);
    EXPECT_NE(last_error().find("tensor 0"), std::string::npos) << last_error();
}

TEST(CapiHostile, CompileRefusesHugeShapeRelu) {
    one_op_t m(dnnl_graph_op_relu, {unknown_dims_lt(0, 2)},
            {unknown_dims_lt(1, 2)});
    ASSERT_NE(m.part, nullptr);
    auto src = raw_lt(0, {k_2_62 + 1, 4}, {4, 1});
    EXPECT_EQ(m.compile({src}, {lt_unknown(1, dnnl_f32)}),
            dnnl_invalid_arguments);
    EXPECT_NE(last_error().find("tensor 0"), std::string::npos) << last_error();
}

// Two inputs within bounds whose broadcast is not: 2^40 x 1 + 1 x 2^40.
TEST(CapiHostile, CompileRefusesHugeInferredShape) {
    one_op_t m(dnnl_graph_op_add,
            {unknown_dims_lt(0, 2), unknown_dims_lt(1, 2)},
            {unknown_dims_lt(2, 2)});
    ASSERT_NE(m.part, nullptr);
    const int64_t e = int64_t(1) << 40;
    EXPECT_EQ(m.compile({lt(0, dnnl_f32, {e, 1}), lt(1, dnnl_f32, {1, e})},
                      {lt_unknown(2, dnnl_f32)}),
            dnnl_invalid_shape);
    EXPECT_NE(last_error().find("output tensor 2"), std::string::npos)
            << last_error();
}

// Overlapping input strides are a view: every logical element reads the
// memory its strides address. in[c][h][w] = buf[c + h + w].
TEST(CapiHostile, OverlappingInputIsReadCorrectly) {
    one_op_t m(dnnl_graph_op_relu, {unknown_dims_lt(0, 4)},
            {unknown_dims_lt(1, 4)});
    ASSERT_NE(m.part, nullptr);
    auto src = strided_lt(0, {1, 32, 28, 28}, {1, 1, 1, 1});
    auto dst = lt(1, dnnl_f32, {1, 32, 28, 28});
    ASSERT_EQ(m.compile({src}, {dst}), dnnl_success) << last_error();
    std::vector<float> in(86), out(32 * 28 * 28, -1.f);
    for (size_t k = 0; k < in.size(); ++k)
        in[k] = static_cast<float>(k) - 40.f;
    auto ti = m.bind(src, in.data());
    auto to = m.bind(m.query(1), out.data());
    ASSERT_EQ(m.execute({ti}, {to}), dnnl_success) << last_error();
    size_t bad = 0;
    for (int c = 0; c < 32; ++c)
        for (int h = 0; h < 28; ++h)
            for (int w = 0; w < 28; ++w) {
                const float want = std::max(in[c + h + w], 0.f);
                bad += out[(c * 28 + h) * 28 + w] != want;
            }
    EXPECT_EQ(bad, 0u);
}

// A stride-0 broadcast view as a binary operand.
TEST(CapiHostile, ZeroStrideInputIsABroadcast) {
    one_op_t m(dnnl_graph_op_add,
            {unknown_dims_lt(0, 2), unknown_dims_lt(1, 2)},
            {unknown_dims_lt(2, 2)});
    ASSERT_NE(m.part, nullptr);
    auto a = lt(0, dnnl_f32, {3, 4});
    auto b = strided_lt(1, {3, 4}, {0, 1}); // one row seen three times
    auto dst = lt(2, dnnl_f32, {3, 4});
    ASSERT_EQ(m.compile({a, b}, {dst}), dnnl_success) << last_error();
    std::vector<float> va(12), vb = {10, 20, 30, 40}, out(12, 0);
    for (int k = 0; k < 12; ++k)
        va[k] = static_cast<float>(k);
    auto ta = m.bind(a, va.data()), tb = m.bind(b, vb.data());
    auto to = m.bind(m.query(2), out.data());
    ASSERT_EQ(m.execute({ta, tb}, {to}), dnnl_success) << last_error();
    for (int k = 0; k < 12; ++k)
        EXPECT_EQ(out[k], static_cast<float>(k) + vb[k % 4]) << k;
    // The port keeps the user's strides.
    auto q = m.query(1);
    EXPECT_EQ(q.layout.strides[0], 0);
}

TEST(CapiHostile, OverlappingOutputIsRefused) {
    one_op_t m(dnnl_graph_op_relu, {unknown_dims_lt(0, 4)},
            {unknown_dims_lt(1, 4)});
    ASSERT_NE(m.part, nullptr);
    auto src = lt(0, dnnl_f32, {1, 32, 28, 28});
    auto dst = strided_lt(1, {1, 32, 28, 28}, {1, 1, 1, 1});
    EXPECT_EQ(m.compile({src}, {dst}), dnnl_invalid_arguments);
    EXPECT_NE(last_error().find("overlap"), std::string::npos) << last_error();
}

// Execute checks each tensor's layout against the compiled port, and a
// tensor of unknown rank is not a port's tensor.
TEST(CapiHostile, ExecuteChecksStridesAndRank) {
    one_op_t m(dnnl_graph_op_relu, {unknown_dims_lt(0, 2)},
            {unknown_dims_lt(1, 2)});
    ASSERT_NE(m.part, nullptr);
    auto src = lt(0, dnnl_f32, {2, 3});
    auto dst = lt(1, dnnl_f32, {2, 3});
    ASSERT_EQ(m.compile({src}, {dst}), dnnl_success) << last_error();
    std::vector<float> in(6, 1.f), out(6, 0.f);
    auto to = m.bind(dst, out.data());
    auto col_major = m.bind(strided_lt(0, {2, 3}, {1, 2}), in.data());
    EXPECT_EQ(m.execute({col_major}, {to}), dnnl_invalid_arguments);
    EXPECT_NE(last_error().find("strides"), std::string::npos) << last_error();
    auto no_rank = m.bind(lt_unknown(0, dnnl_f32), in.data());
    EXPECT_EQ(m.execute({no_rank}, {to}), dnnl_invalid_arguments);
    EXPECT_NE(last_error().find("unknown rank"), std::string::npos)
            << last_error();
    // The right tensor still runs.
    auto ok = m.bind(src, in.data());
    EXPECT_EQ(m.execute({ok}, {to}), dnnl_success) << last_error();
    EXPECT_EQ(out[5], 1.f);
}

TEST(CapiHostile, TensorCreateRefusesHugeShape) {
    cpu_env_t env;
    auto t = raw_lt(0, {3, k_2_62}, {k_2_62, 1});
    dnnl_graph_tensor_t h = nullptr;
    EXPECT_EQ(dnnl_graph_tensor_create(&h, &t, env.engine, DNNL_MEMORY_ALLOCATE),
            dnnl_invalid_arguments);
    EXPECT_EQ(h, nullptr);
}
