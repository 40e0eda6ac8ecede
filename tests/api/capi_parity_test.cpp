// SPDX-License-Identifier: Apache-2.0
// tests/api/capi_parity_test.cpp — C API behaviours oneDNN v3.9 programs rely
// on (docs/compatibility.md, "oneDNN v3.9 C API parity"): the string
// setter's length, scalar setters with a count of 0, one tensor id with two
// descriptions failing at finalize, compile matching logical tensors by id,
// the constant cache capacity read back in MB, and End's own partition.
#include <cstdint>

#include "capi_test_util.hpp"

using namespace capi_test;

namespace {

std::vector<dnnl_graph_partition_t> partitions(dnnl_graph_graph_t g) {
    size_t n = 0;
    EXPECT_EQ(dnnl_graph_graph_get_partition_num(g, &n), dnnl_success);
    std::vector<dnnl_graph_partition_t> p(n, nullptr);
    if (n) {
        EXPECT_EQ(dnnl_graph_graph_get_partitions(g, n, p.data()), dnnl_success);
    }
    return p;
}

void destroy(std::vector<dnnl_graph_partition_t> &parts) {
    for (auto p : parts)
        dnnl_graph_partition_destroy(p);
    parts.clear();
}

// Compiles the graph's only partition with the given tensors and returns
// the compiled partition's output port `out_id` (or the status).
dnnl_status_t compile_single(dnnl_graph_graph_t g,
        std::vector<dnnl_graph_logical_tensor_t> ins,
        std::vector<dnnl_graph_logical_tensor_t> outs, size_t out_id,
        dnnl_graph_logical_tensor_t *queried) {
    auto parts = partitions(g);
    EXPECT_EQ(parts.size(), 1u);
    if (parts.size() != 1) return dnnl_runtime_error;
    cpu_env_t env;
    dnnl_graph_compiled_partition_t cp = nullptr;
    EXPECT_EQ(dnnl_graph_compiled_partition_create(&cp, parts[0]), dnnl_success);
    std::vector<const dnnl_graph_logical_tensor_t *> ip, op;
    for (auto &t : ins)
        ip.push_back(&t);
    for (auto &t : outs)
        op.push_back(&t);
    dnnl_status_t st = dnnl_graph_partition_compile(parts[0], cp, ip.size(),
            ip.data(), op.size(), op.data(), env.engine);
    if (st == dnnl_success && queried) {
        EXPECT_EQ(dnnl_graph_compiled_partition_query_logical_tensor(
                          cp, out_id, queried),
                dnnl_success);
    }
    dnnl_graph_compiled_partition_destroy(cp);
    destroy(parts);
    return st;
}

// Convolution NXC/OIX 1x1, src 1x4x4x3, weights 2x3x1x1, output unknown.
dnnl_graph_op_t conv_op(size_t id, size_t src, size_t wei, size_t dst) {
    auto s = lt(src, dnnl_f32, {1, 4, 4, 3});
    auto w = lt(wei, dnnl_f32, {2, 3, 1, 1});
    auto d = lt_unknown(dst, dnnl_f32);
    dnnl_graph_op_t op = make_op(id, dnnl_graph_op_convolution, {s, w}, {d});
    const int64_t ones[] = {1, 1}, zeros[] = {0, 0};
    EXPECT_EQ(dnnl_graph_op_set_attr_s64(op, dnnl_graph_op_attr_strides, ones, 2),
            dnnl_success);
    EXPECT_EQ(dnnl_graph_op_set_attr_s64(op, dnnl_graph_op_attr_dilations, ones, 2),
            dnnl_success);
    EXPECT_EQ(dnnl_graph_op_set_attr_s64(op, dnnl_graph_op_attr_pads_begin, zeros, 2),
            dnnl_success);
    EXPECT_EQ(dnnl_graph_op_set_attr_s64(op, dnnl_graph_op_attr_pads_end, zeros, 2),
            dnnl_success);
    return op;
}

TEST(CapiParity, StringSetterReadsTheWholeString) {
    // The size argument only has to be non-zero: "NXC" given with 1 is
    // "NXC" (with "N" the op would be refused, with "NCX" the channels 4
    // and 3 would not match).
    dnnl_graph_graph_t g = nullptr;
    ASSERT_EQ(dnnl_graph_graph_create(&g, dnnl_cpu), dnnl_success);
    dnnl_graph_op_t op = conv_op(1, 1, 2, 3);
    ASSERT_EQ(dnnl_graph_op_set_attr_str(op, dnnl_graph_op_attr_data_format, "NXC", 1),
            dnnl_success);
    ASSERT_EQ(dnnl_graph_op_set_attr_str(op, dnnl_graph_op_attr_weights_format, "OIX",
                      1),
            dnnl_success);
    // A longer size than the string reads nothing past its terminator.
    ASSERT_EQ(dnnl_graph_op_set_attr_str(op, dnnl_graph_op_attr_auto_pad, "None", 64),
            dnnl_success);
    ASSERT_EQ(add_and_destroy(g, op), dnnl_success) << last_error();
    ASSERT_EQ(dnnl_graph_graph_finalize(g), dnnl_success);
    ASSERT_EQ(dnnl_graph_graph_filter(g, dnnl_graph_partition_policy_fusion),
            dnnl_success);
    dnnl_graph_logical_tensor_t out;
    ASSERT_EQ(compile_single(g, {lt(1, dnnl_f32, {1, 4, 4, 3}),
                                         lt(2, dnnl_f32, {2, 3, 1, 1})},
                      {lt_unknown(3, dnnl_f32)}, 3, &out),
            dnnl_success)
            << last_error();
    ASSERT_EQ(out.ndims, 4);
    EXPECT_EQ(out.dims[0], 1);
    EXPECT_EQ(out.dims[1], 4);
    EXPECT_EQ(out.dims[2], 4);
    EXPECT_EQ(out.dims[3], 2); // NXC: channels last
    dnnl_graph_graph_destroy(g);

    // Length 0 is refused, as in oneDNN.
    dnnl_graph_op_t o2 = conv_op(1, 1, 2, 3);
    EXPECT_EQ(dnnl_graph_op_set_attr_str(o2, dnnl_graph_op_attr_data_format, "NXC", 0),
            dnnl_invalid_arguments);
    EXPECT_EQ(dnnl_graph_op_set_attr_str(o2, dnnl_graph_op_attr_data_format, nullptr, 3),
            dnnl_invalid_arguments);
    dnnl_graph_op_destroy(o2);
}

TEST(CapiParity, ScalarSettersIgnoreTheCount) {
    cpu_env_t env;
    // LeakyReLU alpha set with a count of 0: the value is used.
    dnnl_graph_graph_t g = nullptr;
    ASSERT_EQ(dnnl_graph_graph_create(&g, dnnl_cpu), dnnl_success);
    auto x = lt(1, dnnl_f32, {4}), y = lt(2, dnnl_f32, {4});
    dnnl_graph_op_t op = make_op(1, dnnl_graph_op_leaky_relu, {x}, {y});
    const float alpha = 0.25f;
    ASSERT_EQ(dnnl_graph_op_set_attr_f32(op, dnnl_graph_op_attr_alpha, &alpha, 0),
            dnnl_success);
    ASSERT_EQ(add_and_destroy(g, op), dnnl_success) << last_error();
    ASSERT_EQ(dnnl_graph_graph_finalize(g), dnnl_success);
    ASSERT_EQ(dnnl_graph_graph_filter(g, dnnl_graph_partition_policy_fusion),
            dnnl_success);
    auto parts = partitions(g);
    ASSERT_EQ(parts.size(), 1u);
    dnnl_graph_compiled_partition_t cp = nullptr;
    ASSERT_EQ(dnnl_graph_compiled_partition_create(&cp, parts[0]), dnnl_success);
    const dnnl_graph_logical_tensor_t *ip[] = {&x}, *op_[] = {&y};
    ASSERT_EQ(dnnl_graph_partition_compile(parts[0], cp, 1, ip, 1, op_, env.engine),
            dnnl_success)
            << last_error();
    float xv[4] = {-4.f, -1.f, 0.f, 2.f}, yv[4] = {0, 0, 0, 0};
    dnnl_graph_tensor_t tx = nullptr, ty = nullptr;
    ASSERT_EQ(dnnl_graph_tensor_create(&tx, &x, env.engine, xv), dnnl_success);
    ASSERT_EQ(dnnl_graph_tensor_create(&ty, &y, env.engine, yv), dnnl_success);
    const_dnnl_graph_tensor_t ti[] = {tx}, to[] = {ty};
    ASSERT_EQ(dnnl_graph_compiled_partition_execute(cp, env.stream, 1, ti, 1, to),
            dnnl_success)
            << last_error();
    EXPECT_FLOAT_EQ(yv[0], -1.f);
    EXPECT_FLOAT_EQ(yv[1], -0.25f);
    EXPECT_FLOAT_EQ(yv[2], 0.f);
    EXPECT_FLOAT_EQ(yv[3], 2.f);
    dnnl_graph_tensor_destroy(tx);
    dnnl_graph_tensor_destroy(ty);
    dnnl_graph_compiled_partition_destroy(cp);
    destroy(parts);
    dnnl_graph_graph_destroy(g);

    // Concat axis set with a count of 0: 1x2 and 1x3 along axis 1 -> 1x5.
    ASSERT_EQ(dnnl_graph_graph_create(&g, dnnl_cpu), dnnl_success);
    auto a = lt(1, dnnl_f32, {1, 2}), b = lt(2, dnnl_f32, {1, 3});
    auto c = lt_unknown(3, dnnl_f32);
    op = make_op(1, dnnl_graph_op_concat, {a, b}, {c});
    const int64_t axis = 1;
    ASSERT_EQ(dnnl_graph_op_set_attr_s64(op, dnnl_graph_op_attr_axis, &axis, 0),
            dnnl_success);
    ASSERT_EQ(add_and_destroy(g, op), dnnl_success) << last_error();
    ASSERT_EQ(dnnl_graph_graph_finalize(g), dnnl_success);
    ASSERT_EQ(dnnl_graph_graph_filter(g, dnnl_graph_partition_policy_fusion),
            dnnl_success);
    dnnl_graph_logical_tensor_t out;
    ASSERT_EQ(compile_single(g, {a, b}, {c}, 3, &out), dnnl_success) << last_error();
    ASSERT_EQ(out.ndims, 2);
    EXPECT_EQ(out.dims[1], 5);
    dnnl_graph_graph_destroy(g);

    // Convolution groups and BatchNorm epsilon with a count of 0 pass
    // add_op; a scalar still needs a value pointer; bool needs exactly one.
    op = conv_op(1, 1, 2, 3);
    const int64_t groups = 1;
    EXPECT_EQ(dnnl_graph_op_set_attr_s64(op, dnnl_graph_op_attr_groups, &groups, 0),
            dnnl_success);
    EXPECT_EQ(dnnl_graph_op_set_attr_s64(op, dnnl_graph_op_attr_groups, nullptr, 0),
            dnnl_invalid_arguments);
    const float eps = 1e-5f;
    EXPECT_EQ(dnnl_graph_op_set_attr_f32(op, dnnl_graph_op_attr_epsilon, &eps, 0),
            dnnl_success);
    EXPECT_EQ(dnnl_graph_op_set_attr_f32(op, dnnl_graph_op_attr_epsilon, nullptr, 0),
            dnnl_invalid_arguments);
    const uint8_t t = 1;
    EXPECT_EQ(dnnl_graph_op_set_attr_bool(op, dnnl_graph_op_attr_keep_dims, &t, 0),
            dnnl_invalid_arguments);
    // Vectors keep their count: an empty list needs no pointer.
    EXPECT_EQ(dnnl_graph_op_set_attr_s64(op, dnnl_graph_op_attr_axes, nullptr, 0),
            dnnl_success);
    dnnl_graph_op_destroy(op);
}

TEST(CapiParity, OneIdTwoDescriptionsFailsAtFinalize) {
    // Tensor 2 leaves ReLU 1 as strided 2x3 and enters ReLU 2 with layout
    // undef: add_op accepts both, finalize refuses.
    auto build = [](dnnl_graph_logical_tensor_t second) {
        dnnl_graph_graph_t g = nullptr;
        EXPECT_EQ(dnnl_graph_graph_create(&g, dnnl_cpu), dnnl_success);
        auto x = lt(1, dnnl_f32, {2, 3}), y = lt(2, dnnl_f32, {2, 3});
        auto z = lt(3, second.data_type, {2, 3});
        EXPECT_EQ(add_and_destroy(g, make_op(1, dnnl_graph_op_relu, {x}, {y})),
                dnnl_success);
        EXPECT_EQ(add_and_destroy(g, make_op(2, dnnl_graph_op_relu, {second}, {z})),
                dnnl_success)
                << last_error();
        return g;
    };
    struct variant_t {
        dnnl_graph_logical_tensor_t lt;
        dnnl_status_t want;
    };
    const variant_t variants[] = {
            {lt(2, dnnl_f32, {2, 3}), dnnl_success},
            {lt(2, dnnl_f32, {2, 3}, dnnl_graph_layout_type_undef),
                    dnnl_invalid_graph},
            {lt(2, dnnl_f32, {2, 3}, dnnl_graph_layout_type_any),
                    dnnl_invalid_graph},
            {lt(2, dnnl_f32, {3, 2}), dnnl_invalid_graph},
            {lt(2, dnnl_f16, {2, 3}), dnnl_invalid_graph},
            {lt_unknown(2, dnnl_f32), dnnl_invalid_graph},
            {lt(2, dnnl_f32, {2, 3}, dnnl_graph_layout_type_strided,
                     dnnl_graph_tensor_property_constant),
                    dnnl_invalid_graph},
    };
    for (size_t k = 0; k < sizeof(variants) / sizeof(variants[0]); ++k) {
        dnnl_graph_graph_t g = build(variants[k].lt);
        const dnnl_status_t st = dnnl_graph_graph_finalize(g);
        EXPECT_EQ(st, variants[k].want) << "variant " << k;
        if (st != dnnl_success) {
            EXPECT_NE(last_error().find("tensor 2"), std::string::npos)
                    << last_error();
        }
        dnnl_graph_graph_destroy(g);
    }
    // Strides that differ are two descriptions too.
    dnnl_graph_logical_tensor_t strided;
    const dnnl_dims_t d = {2, 3}, s = {1, 2};
    ASSERT_EQ(dnnl_graph_logical_tensor_init_with_strides(&strided, 2, dnnl_f32, 2,
                      d, s, dnnl_graph_tensor_property_undef),
            dnnl_success);
    dnnl_graph_graph_t g = build(strided);
    EXPECT_EQ(dnnl_graph_graph_finalize(g), dnnl_invalid_graph);
    dnnl_graph_graph_destroy(g);
}

TEST(CapiParity, CompileMatchesLogicalTensorsById) {
    cpu_env_t env;
    dnnl_graph_graph_t g = nullptr;
    ASSERT_EQ(dnnl_graph_graph_create(&g, dnnl_cpu), dnnl_success);
    auto a = lt(1, dnnl_f32, {2}), b = lt(2, dnnl_f32, {2});
    auto s = lt(3, dnnl_f32, {2});
    ASSERT_EQ(add_and_destroy(g, make_op(1, dnnl_graph_op_add, {a, b}, {s})),
            dnnl_success);
    ASSERT_EQ(dnnl_graph_graph_finalize(g), dnnl_success);
    ASSERT_EQ(dnnl_graph_graph_filter(g, dnnl_graph_partition_policy_fusion),
            dnnl_success);
    auto parts = partitions(g);
    ASSERT_EQ(parts.size(), 1u);
    auto extra = lt(99, dnnl_f32, {7}), extra_out = lt(98, dnnl_s8, {1});
    // More inputs and outputs than ports, in another order: matched by id.
    const dnnl_graph_logical_tensor_t *ins[] = {&extra, &b, &a};
    const dnnl_graph_logical_tensor_t *outs[] = {&s, &extra_out};
    dnnl_graph_compiled_partition_t cp = nullptr;
    ASSERT_EQ(dnnl_graph_compiled_partition_create(&cp, parts[0]), dnnl_success);
    ASSERT_EQ(dnnl_graph_partition_compile(parts[0], cp, 3, ins, 2, outs, env.engine),
            dnnl_success)
            << last_error();
    // Execute takes the matched ports in the order they were given: b, a.
    float av[2] = {1, 2}, bv[2] = {10, 20}, sv[2] = {0, 0};
    dnnl_graph_tensor_t ta, tb, ts;
    ASSERT_EQ(dnnl_graph_tensor_create(&ta, &a, env.engine, av), dnnl_success);
    ASSERT_EQ(dnnl_graph_tensor_create(&tb, &b, env.engine, bv), dnnl_success);
    ASSERT_EQ(dnnl_graph_tensor_create(&ts, &s, env.engine, sv), dnnl_success);
    const_dnnl_graph_tensor_t ti[] = {tb, ta}, to[] = {ts};
    ASSERT_EQ(dnnl_graph_compiled_partition_execute(cp, env.stream, 2, ti, 1, to),
            dnnl_success)
            << last_error();
    EXPECT_FLOAT_EQ(sv[0], 11.f);
    EXPECT_FLOAT_EQ(sv[1], 22.f);
    dnnl_graph_tensor_destroy(ta);
    dnnl_graph_tensor_destroy(tb);
    dnnl_graph_tensor_destroy(ts);
    dnnl_graph_compiled_partition_destroy(cp);
    // A port no given tensor names is still an error.
    const dnnl_graph_logical_tensor_t *missing[] = {&a, &extra};
    ASSERT_EQ(dnnl_graph_compiled_partition_create(&cp, parts[0]), dnnl_success);
    EXPECT_EQ(dnnl_graph_partition_compile(
                      parts[0], cp, 2, missing, 1, outs, env.engine),
            dnnl_invalid_arguments);
    EXPECT_NE(last_error().find("port 2"), std::string::npos) << last_error();
    dnnl_graph_compiled_partition_destroy(cp);
    destroy(parts);
    dnnl_graph_graph_destroy(g);
}

TEST(CapiParity, ConstantCacheCapacityReadsBackInMegabytes) {
    size_t saved = 0;
    ASSERT_EQ(dnnl_graph_get_constant_tensor_cache_capacity(dnnl_cpu, &saved),
            dnnl_success);
    const size_t max_mb = SIZE_MAX / (1024 * 1024);
    struct step_t {
        size_t set, read;
    };
    const step_t steps[] = {{SIZE_MAX, max_mb}, {max_mb + 1, max_mb},
            {max_mb, max_mb}, {max_mb - 1, max_mb - 1}, {1024, 1024}, {0, 0}};
    for (const auto &s : steps) {
        ASSERT_EQ(dnnl_graph_set_constant_tensor_cache_capacity(dnnl_cpu, s.set),
                dnnl_success);
        size_t got = 0;
        ASSERT_EQ(dnnl_graph_get_constant_tensor_cache_capacity(dnnl_cpu, &got),
                dnnl_success);
        EXPECT_EQ(got, s.read) << s.set;
    }
    // The deprecated switch sets SIZE_MAX MB for both kinds.
    ASSERT_EQ(dnnl_graph_set_constant_tensor_cache(1), dnnl_success);
    size_t cpu = 0, gpu = 0;
    ASSERT_EQ(dnnl_graph_get_constant_tensor_cache_capacity(dnnl_cpu, &cpu),
            dnnl_success);
    ASSERT_EQ(dnnl_graph_get_constant_tensor_cache_capacity(dnnl_gpu, &gpu),
            dnnl_success);
    EXPECT_EQ(cpu, max_mb);
    EXPECT_EQ(gpu, max_mb);
    ASSERT_EQ(dnnl_graph_set_constant_tensor_cache(0), dnnl_success);
    ASSERT_EQ(dnnl_graph_set_constant_tensor_cache_capacity(dnnl_cpu, saved),
            dnnl_success);
}

TEST(CapiParity, EndFormsAnUnsupportedPartition) {
    for (auto policy : {dnnl_graph_partition_policy_fusion,
                 dnnl_graph_partition_policy_debug}) {
        dnnl_graph_graph_t g = nullptr;
        ASSERT_EQ(dnnl_graph_graph_create(&g, dnnl_cpu), dnnl_success);
        auto x = lt(1, dnnl_f32, {2}), y = lt(2, dnnl_f32, {2});
        ASSERT_EQ(add_and_destroy(g, make_op(1, dnnl_graph_op_wildcard, {x}, {y})),
                dnnl_success);
        ASSERT_EQ(add_and_destroy(g, make_op(2, dnnl_graph_op_end, {y}, {})),
                dnnl_success);
        ASSERT_EQ(dnnl_graph_graph_finalize(g), dnnl_success);
        ASSERT_EQ(dnnl_graph_graph_filter(g, policy), dnnl_success);
        auto parts = partitions(g);
        ASSERT_EQ(parts.size(), 2u);
        size_t ids[2] = {0, 0};
        for (size_t k = 0; k < 2; ++k) {
            uint8_t sup = 9;
            EXPECT_EQ(dnnl_graph_partition_is_supported(parts[k], &sup), dnnl_success);
            EXPECT_EQ(sup, 0);
            EXPECT_EQ(dnnl_graph_partition_get_ops(parts[k], 1, &ids[k]), dnnl_success);
        }
        EXPECT_EQ(ids[0], 1u); // Wildcard first: End reads it
        EXPECT_EQ(ids[1], 2u);
        size_t nin = 9, nout = 9;
        EXPECT_EQ(dnnl_graph_partition_get_input_ports_num(parts[1], &nin),
                dnnl_success);
        EXPECT_EQ(dnnl_graph_partition_get_output_ports_num(parts[1], &nout),
                dnnl_success);
        EXPECT_EQ(nin, 1u);
        EXPECT_EQ(nout, 0u);
        destroy(parts);
        dnnl_graph_graph_destroy(g);
    }
    // MatMul -> ReLU -> End: the End does not join the fused partition.
    dnnl_graph_graph_t g = nullptr;
    ASSERT_EQ(dnnl_graph_graph_create(&g, dnnl_cpu), dnnl_success);
    auto a = lt(1, dnnl_f32, {2, 2}), b = lt(2, dnnl_f32, {2, 2});
    auto m = lt(3, dnnl_f32, {2, 2}), r = lt(4, dnnl_f32, {2, 2});
    ASSERT_EQ(add_and_destroy(g, make_op(1, dnnl_graph_op_matmul, {a, b}, {m})),
            dnnl_success);
    ASSERT_EQ(add_and_destroy(g, make_op(2, dnnl_graph_op_relu, {m}, {r})),
            dnnl_success);
    ASSERT_EQ(add_and_destroy(g, make_op(3, dnnl_graph_op_end, {r}, {})),
            dnnl_success);
    ASSERT_EQ(dnnl_graph_graph_finalize(g), dnnl_success);
    ASSERT_EQ(dnnl_graph_graph_filter(g, dnnl_graph_partition_policy_fusion),
            dnnl_success);
    auto parts = partitions(g);
    ASSERT_EQ(parts.size(), 2u);
    size_t n = 0;
    EXPECT_EQ(dnnl_graph_partition_get_op_num(parts[0], &n), dnnl_success);
    EXPECT_EQ(n, 2u);
    uint8_t sup = 0;
    EXPECT_EQ(dnnl_graph_partition_is_supported(parts[1], &sup), dnnl_success);
    EXPECT_EQ(sup, 0);
    destroy(parts);
    dnnl_graph_graph_destroy(g);
}

} // namespace
