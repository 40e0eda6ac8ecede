// SPDX-License-Identifier: Apache-2.0
// tests/api/capi_graph_test.cpp — graphs, partitions and compiled partitions
// through the C API: success paths with hand-computed results, and the
// errors of wrong call order, bad ports and wrong tensors.
#include "capi_test_util.hpp"

using namespace capi_test;

namespace {

// y = ReLU(a + b) on 2x3 f32, then a Wildcard consumer and an End.
struct add_relu_graph_t {
    dnnl_graph_graph_t g = nullptr;
    add_relu_graph_t() {
        EXPECT_EQ(dnnl_graph_graph_create(&g, dnnl_cpu), dnnl_success);
        auto a = lt(1, dnnl_f32, {2, 3}), b = lt(2, dnnl_f32, {2, 3});
        auto s = lt_unknown(3, dnnl_f32), y = lt_unknown(4, dnnl_f32);
        auto w = lt_unknown(5, dnnl_f32);
        EXPECT_EQ(add_and_destroy(g, make_op(10, dnnl_graph_op_add, {a, b}, {s})), dnnl_success);
        EXPECT_EQ(add_and_destroy(g, make_op(11, dnnl_graph_op_relu, {s}, {y})), dnnl_success);
        EXPECT_EQ(add_and_destroy(g, make_op(12, dnnl_graph_op_wildcard, {y}, {w})), dnnl_success);
        EXPECT_EQ(add_and_destroy(g, make_op(13, dnnl_graph_op_end, {w}, {})), dnnl_success);
    }
    ~add_relu_graph_t() { dnnl_graph_graph_destroy(g); }
};

std::vector<dnnl_graph_partition_t> partitions_of(dnnl_graph_graph_t g) {
    size_t n = 0;
    EXPECT_EQ(dnnl_graph_graph_get_partition_num(g, &n), dnnl_success);
    std::vector<dnnl_graph_partition_t> parts(n, nullptr);
    if (n) {
        EXPECT_EQ(dnnl_graph_graph_get_partitions(g, n, parts.data()), dnnl_success);
    }
    return parts;
}

} // namespace

TEST(CapiGraph, PartitionsInTopologicalOrder) {
    add_relu_graph_t G;
    uint8_t fin = 9;
    EXPECT_EQ(dnnl_graph_graph_is_finalized(G.g, &fin), dnnl_success);
    EXPECT_EQ(fin, 0);
    ASSERT_EQ(dnnl_graph_graph_finalize(G.g), dnnl_success);
    EXPECT_EQ(dnnl_graph_graph_finalize(G.g), dnnl_success); // idempotent
    EXPECT_EQ(dnnl_graph_graph_is_finalized(G.g, &fin), dnnl_success);
    EXPECT_EQ(fin, 1);
    size_t n = 99;
    EXPECT_EQ(dnnl_graph_graph_get_partition_num(G.g, &n), dnnl_success);
    EXPECT_EQ(n, 0u); // nothing before filter
    ASSERT_EQ(dnnl_graph_graph_filter(G.g, dnnl_graph_partition_policy_debug),
            dnnl_success);
    auto parts = partitions_of(G.g);
    // Add, ReLU, Wildcard, and the End in an unsupported partition of its
    // own (as oneDNN's fake backend gives it).
    ASSERT_EQ(parts.size(), 4u);
    const size_t want_ops[] = {10, 11, 12, 13};
    const uint8_t want_supported[] = {1, 1, 0, 0};
    for (size_t k = 0; k < 4; ++k) {
        size_t num = 0, id = 0;
        EXPECT_EQ(dnnl_graph_partition_get_op_num(parts[k], &num), dnnl_success);
        EXPECT_EQ(num, 1u);
        EXPECT_EQ(dnnl_graph_partition_get_ops(parts[k], 1, &id), dnnl_success);
        EXPECT_EQ(id, want_ops[k]);
        uint8_t sup = 9;
        EXPECT_EQ(dnnl_graph_partition_is_supported(parts[k], &sup), dnnl_success);
        EXPECT_EQ(sup, want_supported[k]);
        dnnl_engine_kind_t ek;
        EXPECT_EQ(dnnl_graph_partition_get_engine_kind(parts[k], &ek), dnnl_success);
        EXPECT_EQ(ek, dnnl_cpu);
    }
    size_t pid0 = 0, pid1 = 0;
    EXPECT_EQ(dnnl_graph_partition_get_id(parts[0], &pid0), dnnl_success);
    EXPECT_EQ(dnnl_graph_partition_get_id(parts[1], &pid1), dnnl_success);
    EXPECT_NE(pid0, pid1);
    // Ports of the Add partition: inputs 1, 2; output 3.
    size_t nin = 0, nout = 0;
    EXPECT_EQ(dnnl_graph_partition_get_input_ports_num(parts[0], &nin), dnnl_success);
    EXPECT_EQ(dnnl_graph_partition_get_output_ports_num(parts[0], &nout), dnnl_success);
    ASSERT_EQ(nin, 2u);
    ASSERT_EQ(nout, 1u);
    dnnl_graph_logical_tensor_t ins[2], outs[1];
    EXPECT_EQ(dnnl_graph_partition_get_input_ports(parts[0], 2, ins), dnnl_success);
    EXPECT_EQ(dnnl_graph_partition_get_output_ports(parts[0], 1, outs), dnnl_success);
    EXPECT_EQ(ins[0].id, 1u);
    EXPECT_EQ(ins[1].id, 2u);
    EXPECT_EQ(outs[0].id, 3u);
    EXPECT_EQ(dnnl_graph_partition_get_input_ports(parts[0], 3, ins),
            dnnl_invalid_arguments);
    // Re-filtering replaces the results: the fusion policy puts Add and
    // ReLU into one partition (fp_binary_post_ops).
    EXPECT_EQ(dnnl_graph_graph_filter(G.g, dnnl_graph_partition_policy_fusion),
            dnnl_success);
    EXPECT_EQ(dnnl_graph_graph_get_partition_num(G.g, &n), dnnl_success);
    EXPECT_EQ(n, 3u);
    for (auto p : parts)
        EXPECT_EQ(dnnl_graph_partition_destroy(p), dnnl_success);
}

TEST(CapiGraph, CompileExecuteWithHandComputedValues) {
    cpu_env_t env;
    add_relu_graph_t G;
    ASSERT_EQ(dnnl_graph_graph_finalize(G.g), dnnl_success);
    // Debug policy: Add and ReLU in partitions of their own.
    ASSERT_EQ(dnnl_graph_graph_filter(G.g, dnnl_graph_partition_policy_debug),
            dnnl_success);
    auto parts = partitions_of(G.g);
    ASSERT_EQ(parts.size(), 4u); // Add, ReLU, Wildcard, End
    // Compile Add with output shape left unknown and layout any.
    auto a = lt(1, dnnl_f32, {2, 3}), b = lt(2, dnnl_f32, {2, 3});
    auto s = lt_unknown(3, dnnl_f32);
    const dnnl_graph_logical_tensor_t *add_in[] = {&a, &b}, *add_out[] = {&s};
    dnnl_graph_compiled_partition_t cp_add = nullptr;
    ASSERT_EQ(dnnl_graph_compiled_partition_create(&cp_add, parts[0]), dnnl_success);
    ASSERT_EQ(dnnl_graph_partition_compile(parts[0], cp_add, 2, add_in, 1, add_out,
                      env.engine),
            dnnl_success);
    dnnl_graph_logical_tensor_t s_final;
    ASSERT_EQ(dnnl_graph_compiled_partition_query_logical_tensor(cp_add, 3, &s_final),
            dnnl_success);
    EXPECT_EQ(s_final.ndims, 2);
    EXPECT_EQ(s_final.dims[0], 2);
    EXPECT_EQ(s_final.dims[1], 3);
    EXPECT_EQ(s_final.layout_type, dnnl_graph_layout_type_strided);
    EXPECT_EQ(s_final.layout.strides[0], 3);
    EXPECT_EQ(dnnl_graph_compiled_partition_query_logical_tensor(cp_add, 77, &s_final),
            dnnl_invalid_arguments);

    // ReLU consumes the queried tensor.
    auto y = lt_unknown(4, dnnl_f32);
    const dnnl_graph_logical_tensor_t *relu_in[] = {&s_final}, *relu_out[] = {&y};
    dnnl_graph_compiled_partition_t cp_relu = nullptr;
    ASSERT_EQ(dnnl_graph_compiled_partition_create(&cp_relu, parts[1]), dnnl_success);
    ASSERT_EQ(dnnl_graph_partition_compile(parts[1], cp_relu, 1, relu_in, 1, relu_out,
                      env.engine),
            dnnl_success);
    dnnl_graph_logical_tensor_t y_final;
    ASSERT_EQ(dnnl_graph_compiled_partition_query_logical_tensor(cp_relu, 4, &y_final),
            dnnl_success);
    // ReLU may run in place: its output can reuse its input buffer.
    size_t npairs = 0;
    const dnnl_graph_inplace_pair_t *pairs = nullptr;
    EXPECT_EQ(dnnl_graph_compiled_partition_get_inplace_ports(cp_relu, &npairs, &pairs),
            dnnl_success);
    ASSERT_EQ(npairs, 1u);
    EXPECT_EQ(pairs[0].input_id, 3u);
    EXPECT_EQ(pairs[0].output_id, 4u);

    float av[6] = {1, -2, 3, -4, 5, -6}, bv[6] = {0.5f, 1, -4, 2, -5, 7};
    float sv[6] = {0}, yv[6] = {0};
    dnnl_graph_tensor_t ta, tb, ts, ty;
    ASSERT_EQ(dnnl_graph_tensor_create(&ta, &a, env.engine, av), dnnl_success);
    ASSERT_EQ(dnnl_graph_tensor_create(&tb, &b, env.engine, bv), dnnl_success);
    ASSERT_EQ(dnnl_graph_tensor_create(&ts, &s_final, env.engine, sv), dnnl_success);
    ASSERT_EQ(dnnl_graph_tensor_create(&ty, &y_final, env.engine, yv), dnnl_success);
    const_dnnl_graph_tensor_t e_in[] = {ta, tb}, e_out[] = {ts};
    ASSERT_EQ(dnnl_graph_compiled_partition_execute(cp_add, env.stream, 2, e_in, 1, e_out),
            dnnl_success);
    const_dnnl_graph_tensor_t r_in[] = {ts}, r_out[] = {ty};
    ASSERT_EQ(dnnl_graph_compiled_partition_execute(cp_relu, env.stream, 1, r_in, 1, r_out),
            dnnl_success);
    ASSERT_EQ(dnnl_stream_wait(env.stream), dnnl_success);
    // a + b = {1.5, -1, -1, -2, 0, 1}; relu -> {1.5, 0, 0, 0, 0, 1}
    const float want_s[6] = {1.5f, -1, -1, -2, 0, 1};
    const float want_y[6] = {1.5f, 0, 0, 0, 0, 1};
    for (int k = 0; k < 6; ++k) {
        EXPECT_EQ(sv[k], want_s[k]) << k;
        EXPECT_EQ(yv[k], want_y[k]) << k;
    }
    // In-place execution gives the same answer.
    const_dnnl_graph_tensor_t ip_out[] = {ts};
    ASSERT_EQ(dnnl_graph_compiled_partition_execute(cp_relu, env.stream, 1, r_in, 1, ip_out),
            dnnl_success);
    for (int k = 0; k < 6; ++k)
        EXPECT_EQ(sv[k], want_y[k]) << k;

    // The Wildcard partition cannot be compiled.
    dnnl_graph_compiled_partition_t cp_w = nullptr;
    ASSERT_EQ(dnnl_graph_compiled_partition_create(&cp_w, parts[2]), dnnl_success);
    auto yin = y_final;
    auto w = lt_unknown(5, dnnl_f32);
    const dnnl_graph_logical_tensor_t *w_in[] = {&yin}, *w_out[] = {&w};
    EXPECT_EQ(dnnl_graph_partition_compile(parts[2], cp_w, 1, w_in, 1, w_out, env.engine),
            dnnl_invalid_arguments);
    EXPECT_NE(last_error().find("not supported"), std::string::npos) << last_error();

    for (auto t : {ta, tb, ts, ty})
        dnnl_graph_tensor_destroy(t);
    for (auto c : {cp_add, cp_relu, cp_w})
        dnnl_graph_compiled_partition_destroy(c);
    for (auto p : parts)
        dnnl_graph_partition_destroy(p);
}

TEST(CapiGraph, FusionPolicyRunsAddReluAsOnePartition) {
    cpu_env_t env;
    add_relu_graph_t G;
    ASSERT_EQ(dnnl_graph_graph_finalize(G.g), dnnl_success);
    ASSERT_EQ(dnnl_graph_graph_filter(G.g, dnnl_graph_partition_policy_fusion),
            dnnl_success);
    auto parts = partitions_of(G.g);
    ASSERT_EQ(parts.size(), 3u); // {Add, ReLU}, {Wildcard}, {End}
    size_t num = 0, ids[2] = {0, 0};
    EXPECT_EQ(dnnl_graph_partition_get_op_num(parts[0], &num), dnnl_success);
    ASSERT_EQ(num, 2u);
    EXPECT_EQ(dnnl_graph_partition_get_ops(parts[0], 2, ids), dnnl_success);
    EXPECT_EQ(ids[0], 10u);
    EXPECT_EQ(ids[1], 11u);
    // The intermediate sum (3) is not a port: inputs 1, 2; output 4.
    size_t nin = 0, nout = 0;
    EXPECT_EQ(dnnl_graph_partition_get_input_ports_num(parts[0], &nin), dnnl_success);
    EXPECT_EQ(dnnl_graph_partition_get_output_ports_num(parts[0], &nout), dnnl_success);
    ASSERT_EQ(nin, 2u);
    ASSERT_EQ(nout, 1u);
    dnnl_graph_logical_tensor_t outs[1];
    EXPECT_EQ(dnnl_graph_partition_get_output_ports(parts[0], 1, outs), dnnl_success);
    EXPECT_EQ(outs[0].id, 4u);

    auto a = lt(1, dnnl_f32, {2, 3}), b = lt(2, dnnl_f32, {2, 3});
    auto y = lt_unknown(4, dnnl_f32);
    const dnnl_graph_logical_tensor_t *in[] = {&a, &b}, *out[] = {&y};
    dnnl_graph_compiled_partition_t cp = nullptr;
    ASSERT_EQ(dnnl_graph_compiled_partition_create(&cp, parts[0]), dnnl_success);
    ASSERT_EQ(dnnl_graph_partition_compile(parts[0], cp, 2, in, 1, out, env.engine),
            dnnl_success);
    dnnl_graph_logical_tensor_t y_final;
    ASSERT_EQ(dnnl_graph_compiled_partition_query_logical_tensor(cp, 4, &y_final),
            dnnl_success);
    float av[6] = {1, -2, 3, -4, 5, -6}, bv[6] = {0.5f, 1, -4, 2, -5, 7};
    float yv[6] = {9, 9, 9, 9, 9, 9};
    dnnl_graph_tensor_t ta, tb, ty;
    ASSERT_EQ(dnnl_graph_tensor_create(&ta, &a, env.engine, av), dnnl_success);
    ASSERT_EQ(dnnl_graph_tensor_create(&tb, &b, env.engine, bv), dnnl_success);
    ASSERT_EQ(dnnl_graph_tensor_create(&ty, &y_final, env.engine, yv), dnnl_success);
    const_dnnl_graph_tensor_t e_in[] = {ta, tb}, e_out[] = {ty};
    ASSERT_EQ(dnnl_graph_compiled_partition_execute(cp, env.stream, 2, e_in, 1, e_out),
            dnnl_success);
    ASSERT_EQ(dnnl_stream_wait(env.stream), dnnl_success);
    // relu(a + b) = relu({1.5, -1, -1, -2, 0, 1})
    const float want_y[6] = {1.5f, 0, 0, 0, 0, 1};
    for (int k = 0; k < 6; ++k)
        EXPECT_EQ(yv[k], want_y[k]) << k;
    for (auto t : {ta, tb, ty})
        dnnl_graph_tensor_destroy(t);
    dnnl_graph_compiled_partition_destroy(cp);
    for (auto p : parts)
        dnnl_graph_partition_destroy(p);
}

TEST(CapiGraph, SingleOpPartitionWithoutGraph) {
    cpu_env_t env;
    auto x = lt(1, dnnl_f32, {4}), y = lt(2, dnnl_f32, {4});
    dnnl_graph_op_t op = make_op(1, dnnl_graph_op_relu, {x}, {y});
    dnnl_graph_partition_t p = nullptr;
    ASSERT_EQ(dnnl_graph_partition_create_with_op(&p, op, dnnl_cpu), dnnl_success);
    dnnl_graph_op_destroy(op);
    dnnl_graph_compiled_partition_t cp = nullptr;
    ASSERT_EQ(dnnl_graph_compiled_partition_create(&cp, p), dnnl_success);
    const dnnl_graph_logical_tensor_t *ins[] = {&x}, *outs[] = {&y};
    ASSERT_EQ(dnnl_graph_partition_compile(p, cp, 1, ins, 1, outs, env.engine),
            dnnl_success);
    float xv[4] = {-1, 2, -3, 4}, yv[4];
    dnnl_graph_tensor_t tx, ty;
    dnnl_graph_tensor_create(&tx, &x, env.engine, xv);
    dnnl_graph_tensor_create(&ty, &y, env.engine, yv);
    const_dnnl_graph_tensor_t ti[] = {tx}, to[] = {ty};
    ASSERT_EQ(dnnl_graph_compiled_partition_execute(cp, env.stream, 1, ti, 1, to),
            dnnl_success);
    EXPECT_EQ(yv[0], 0.f);
    EXPECT_EQ(yv[1], 2.f);
    EXPECT_EQ(yv[2], 0.f);
    EXPECT_EQ(yv[3], 4.f);
    dnnl_graph_tensor_destroy(tx);
    dnnl_graph_tensor_destroy(ty);
    dnnl_graph_compiled_partition_destroy(cp);
    dnnl_graph_partition_destroy(p);
}

TEST(CapiGraph, FpmathMode) {
    dnnl_graph_graph_t g = nullptr;
    ASSERT_EQ(dnnl_graph_graph_create_with_fpmath_mode(&g, dnnl_cpu,
                      dnnl_fpmath_mode_bf16),
            dnnl_success);
    dnnl_fpmath_mode_t m;
    int to_int = 9;
    EXPECT_EQ(dnnl_graph_graph_get_fpmath_mode(g, &m, &to_int), dnnl_success);
    EXPECT_EQ(m, dnnl_fpmath_mode_bf16);
    EXPECT_EQ(to_int, 0);
    EXPECT_EQ(dnnl_graph_graph_set_fpmath_mode(g, dnnl_fpmath_mode_tf32, 1),
            dnnl_success);
    EXPECT_EQ(dnnl_graph_graph_get_fpmath_mode(g, &m, nullptr), dnnl_success);
    EXPECT_EQ(m, dnnl_fpmath_mode_tf32);
    EXPECT_EQ(dnnl_graph_graph_get_fpmath_mode(g, nullptr, &to_int), dnnl_success);
    EXPECT_EQ(to_int, 1);
    EXPECT_EQ(dnnl_graph_graph_set_fpmath_mode(g, static_cast<dnnl_fpmath_mode_t>(7), 0),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_graph_finalize(g), dnnl_success);
    EXPECT_EQ(dnnl_graph_graph_set_fpmath_mode(g, dnnl_fpmath_mode_strict, 0),
            dnnl_invalid_graph);
    dnnl_graph_graph_destroy(g);
    EXPECT_EQ(dnnl_graph_graph_create_with_fpmath_mode(&g, dnnl_cpu,
                      static_cast<dnnl_fpmath_mode_t>(-1)),
            dnnl_invalid_arguments);
}
