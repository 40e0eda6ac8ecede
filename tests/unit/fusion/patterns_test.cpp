// SPDX-License-Identifier: Apache-2.0
// tests/unit/fusion/patterns_test.cpp — which partitions the fusion passes
// form: the post-op families (bias, chains, swish, the 4-op limit,
// escaping intermediates, operand order), the quantized heads, the
// memory-bound chains, partition order and ports. Expected groupings follow
// shared/spec/patterns.md (oneDNN v3.9's measured behaviour).
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <initializer_list>
#include <string>
#include <vector>

#include "fusion/partitioner.hpp"
#include "fusion_test_builder.hpp"

namespace llga {
namespace fusion {
namespace {

using test::builder_t;
using test::groups_t;
using ir::attr_value_t;

TEST(FusionPatterns, MatmulBiasAndChainFormOnePartition) {
    builder_t b;
    b.add(dnnl_graph_op_matmul, {1, 2}, 3);
    b.add(dnnl_graph_op_bias_add, {3, 4}, 5).inputs[1] = ir::make_lt(4, dnnl_f32, {4});
    b.add(dnnl_graph_op_gelu, {5}, 6);
    b.add(dnnl_graph_op_add, {7, 6}, 8); // chained value on input 1: commutes
    EXPECT_EQ(b.partition(), (groups_t {{1, 2, 3, 4}}));
    const partition_t &p = *b.parts[0];
    EXPECT_EQ(p.kind, "matmul_post_ops");
    EXPECT_NE(p.reason.find("fp_matmul_post_ops"), std::string::npos);
    std::vector<size_t> in;
    for (const auto &lt : p.inputs)
        in.push_back(lt.id);
    EXPECT_EQ(in, (std::vector<size_t> {1, 2, 4, 7}));
    ASSERT_EQ(p.outputs.size(), 1u);
    EXPECT_EQ(p.outputs[0].id, 8u);
}

TEST(FusionPatterns, DebugPolicyFusesNothing) {
    builder_t b;
    b.add(dnnl_graph_op_matmul, {1, 2}, 3);
    b.add(dnnl_graph_op_relu, {3}, 4);
    EXPECT_EQ(b.partition(dnnl_graph_partition_policy_debug),
            (groups_t {{1}, {2}}));
}

TEST(FusionPatterns, FifthPostOpStartsANewPartition) {
    // MatMul → ReLU → Sigmoid → Tanh → Abs → Exp: {MatMul..Abs}, {Exp}.
    builder_t b;
    b.add(dnnl_graph_op_matmul, {1, 2}, 3);
    size_t t = 3;
    for (op_kind_t k : {dnnl_graph_op_relu, dnnl_graph_op_sigmoid,
                 dnnl_graph_op_tanh, dnnl_graph_op_abs, dnnl_graph_op_exp}) {
        b.add(k, {t}, t + 1);
        ++t;
    }
    EXPECT_EQ(b.partition(), (groups_t {{1, 2, 3, 4, 5}, {6}}));
}

TEST(FusionPatterns, EscapingIntermediateStopsTheChain) {
    // MatMul's output feeds GELU and an unrelated Add: three partitions.
    builder_t b;
    b.add(dnnl_graph_op_matmul, {1, 2}, 3);
    b.add(dnnl_graph_op_gelu, {3}, 4);
    b.add(dnnl_graph_op_add, {3, 5}, 6);
    EXPECT_EQ(b.partition().size(), 3u);
    // An End marking the intermediate as a graph output counts as a use
    // (and forms an unsupported partition of its own).
    builder_t e;
    e.add(dnnl_graph_op_matmul, {1, 2}, 3);
    e.add(dnnl_graph_op_relu, {3}, 4);
    e.add(dnnl_graph_op_end, {3}, 0);
    EXPECT_EQ(e.partition(), (groups_t {{1}, {2}, {3}}));
    EXPECT_FALSE(e.parts[2]->supported);
}

TEST(FusionPatterns, SwishIsTwoPostOps) {
    // x = MatMul; x * sigmoid(x), either operand order of the Multiply.
    for (bool swap : {false, true}) {
        builder_t b;
        b.add(dnnl_graph_op_matmul, {1, 2}, 3);
        b.add(dnnl_graph_op_sigmoid, {3}, 4);
        b.add(dnnl_graph_op_multiply, swap ? std::vector<size_t> {4, 3}
                                           : std::vector<size_t> {3, 4},
                5);
        b.add(dnnl_graph_op_relu, {5}, 6);
        EXPECT_EQ(b.partition(), (groups_t {{1, 2, 3, 4}})) << swap;
        ASSERT_EQ(b.parts[0]->inputs.size(), 2u);
    }
}

TEST(FusionPatterns, SubtractChainsOnlyOnItsFirstInput) {
    builder_t b;
    b.add(dnnl_graph_op_matmul, {1, 2}, 3);
    b.add(dnnl_graph_op_subtract, {7, 3}, 4); // 7 - x: not a post-op
    EXPECT_EQ(b.partition(), (groups_t {{1}, {2}}));
    builder_t c;
    c.add(dnnl_graph_op_matmul, {1, 2}, 3);
    c.add(dnnl_graph_op_subtract, {3, 7}, 4);
    EXPECT_EQ(c.partition(), (groups_t {{1, 2}}));
}

TEST(FusionPatterns, UnaryAfterUnaryIsNotFused) {
    builder_t b;
    b.add(dnnl_graph_op_relu, {1}, 2);
    b.add(dnnl_graph_op_sigmoid, {2}, 3);
    EXPECT_EQ(b.partition(), (groups_t {{1}, {2}}));
    // ...but a unary followed by a binary is (fp_eltwise_binary).
    builder_t c;
    c.add(dnnl_graph_op_gelu, {1}, 2);
    c.add(dnnl_graph_op_subtract, {2, 5}, 3);
    EXPECT_EQ(c.partition(), (groups_t {{1, 2}}));
    EXPECT_EQ(c.parts[0]->kind, "unary_post_ops");
    // The binary pass runs first (higher priority): with a binary after
    // the Subtract, the Subtract anchors its own chain and GELU stays alone.
    builder_t d;
    d.add(dnnl_graph_op_gelu, {1}, 2);
    d.add(dnnl_graph_op_subtract, {2, 5}, 3);
    d.add(dnnl_graph_op_multiply, {3, 6}, 4);
    EXPECT_EQ(d.partition(), (groups_t {{1}, {2, 3}}));
}

TEST(FusionPatterns, BinaryChainsAndOrderByLastOp) {
    // Independent: Add(1,2)→ReLU and MatMul(5,6). Partitions come in the
    // topological order of their last op.
    builder_t b;
    b.add(dnnl_graph_op_add, {1, 2}, 3);
    b.add(dnnl_graph_op_matmul, {5, 6}, 7);
    b.add(dnnl_graph_op_relu, {3}, 4);
    EXPECT_EQ(b.partition(), (groups_t {{2}, {1, 3}}));
    EXPECT_EQ(b.parts[1]->kind, "binary_post_ops");
}

TEST(FusionPatterns, QuantizedMatmulTakesItsDequantizeHeadAndQuantize) {
    builder_t b;
    b.quant(dnnl_graph_op_dequantize, 1, 2, dnnl_u8, dnnl_f32);
    b.quant(dnnl_graph_op_quantize, 3, 4, dnnl_f32, dnnl_s8); // f32 weights
    b.quant(dnnl_graph_op_dequantize, 4, 5, dnnl_s8, dnnl_f32);
    b.add(dnnl_graph_op_matmul, {2, 5}, 6);
    b.add(dnnl_graph_op_relu, {6}, 7);
    b.quant(dnnl_graph_op_quantize, 7, 8, dnnl_f32, dnnl_u8);
    EXPECT_EQ(b.partition(), (groups_t {{1, 2, 3, 4, 5, 6}}));
    EXPECT_EQ(b.parts[0]->kind, "quantized_matmul_post_ops");
    ASSERT_EQ(b.parts[0]->inputs.size(), 2u);
    EXPECT_EQ(b.parts[0]->inputs[0].id, 1u);
    EXPECT_EQ(b.parts[0]->inputs[1].id, 3u);
}

TEST(FusionPatterns, QuantizedResidualAddAbsorbsItsDequantize) {
    builder_t b;
    b.quant(dnnl_graph_op_dequantize, 1, 2, dnnl_u8, dnnl_f32);
    b.quant(dnnl_graph_op_dequantize, 3, 4, dnnl_s8, dnnl_f32);
    b.add(dnnl_graph_op_matmul, {2, 4}, 5);
    b.quant(dnnl_graph_op_dequantize, 9, 10, dnnl_u8, dnnl_f32);
    b.add(dnnl_graph_op_add, {5, 10}, 6);
    b.quant(dnnl_graph_op_quantize, 6, 7, dnnl_f32, dnnl_u8);
    EXPECT_EQ(b.partition(), (groups_t {{1, 2, 3, 4, 5, 6}}));
}

TEST(FusionPatterns, DequantizeOnOneSideOnlyIsFloatingPoint) {
    // f32 weights without DQ: the DQ stays alone, MatMul+ReLU fuse.
    builder_t b;
    b.quant(dnnl_graph_op_dequantize, 1, 2, dnnl_u8, dnnl_f32);
    b.add(dnnl_graph_op_matmul, {2, 3}, 4);
    b.add(dnnl_graph_op_relu, {4}, 5);
    EXPECT_EQ(b.partition(), (groups_t {{1}, {2, 3}}));
}

TEST(FusionPatterns, QuantizedBf16ComputeHeadsAndTails) {
    // DQ → TypeCast(bf16) on both inputs, bf16 MatMul + ReLU, TypeCast back
    // to f32, the SmoothQuant Multiply, Quantize: one partition.
    builder_t b;
    b.quant(dnnl_graph_op_dequantize, 1, 2, dnnl_u8, dnnl_f32);
    b.add(dnnl_graph_op_type_cast, {2}, 3, dnnl_f32, dnnl_bf16);
    b.quant(dnnl_graph_op_dequantize, 4, 5, dnnl_s8, dnnl_f32);
    b.add(dnnl_graph_op_type_cast, {5}, 6, dnnl_f32, dnnl_bf16);
    b.add(dnnl_graph_op_matmul, {3, 6}, 7, dnnl_bf16, dnnl_bf16);
    b.add(dnnl_graph_op_relu, {7}, 8, dnnl_bf16, dnnl_bf16);
    b.add(dnnl_graph_op_type_cast, {8}, 9, dnnl_bf16, dnnl_f32);
    b.add(dnnl_graph_op_multiply, {9, 10}, 11);
    b.quant(dnnl_graph_op_quantize, 11, 12, dnnl_f32, dnnl_s8);
    EXPECT_EQ(b.partition(), (groups_t {{1, 2, 3, 4, 5, 6, 7, 8, 9}}));
    // Without the TypeCast f32 → bf16 on the weights the head is not
    // quantized: the MatMul's weights come from a plain TypeCast chain.
    builder_t c;
    c.add(dnnl_graph_op_type_cast, {1}, 2, dnnl_f32, dnnl_bf16);
    c.quant(dnnl_graph_op_dequantize, 3, 4, dnnl_u8, dnnl_f32);
    c.add(dnnl_graph_op_type_cast, {4}, 5, dnnl_f32, dnnl_bf16);
    c.add(dnnl_graph_op_matmul, {5, 2}, 6, dnnl_bf16, dnnl_bf16);
    EXPECT_EQ(c.partition().size(), 4u); // TC, DQ, TC and MatMul apart
}

TEST(FusionPatterns, Int8IslandsAndSmallFamilies) {
    // DQ, DQ → Concat → Q.
    builder_t c;
    c.quant(dnnl_graph_op_dequantize, 1, 2, dnnl_s8, dnnl_f32);
    c.quant(dnnl_graph_op_dequantize, 3, 4, dnnl_s8, dnnl_f32);
    ir::op_t &cat = c.add(dnnl_graph_op_concat, {2, 4}, 5);
    cat.set_attr(dnnl_graph_op_attr_axis, attr_value_t::make_s64(0));
    cat.outputs[0] = ir::make_lt(5, dnnl_f32, {8, 4});
    ir::op_t &q = c.quant(dnnl_graph_op_quantize, 5, 6, dnnl_f32, dnnl_s8);
    q.inputs[0] = ir::make_lt(5, dnnl_f32, {8, 4});
    q.outputs[0] = ir::make_lt(6, dnnl_s8, {8, 4});
    EXPECT_EQ(c.partition(), (groups_t {{1, 2, 3, 4}}));
    EXPECT_EQ(c.parts[0]->kind, "quantized_concat");
    // ...but a Concat with one plain f32 input stays apart.
    builder_t d;
    d.quant(dnnl_graph_op_dequantize, 1, 2, dnnl_s8, dnnl_f32);
    ir::op_t &cat2 = d.add(dnnl_graph_op_concat, {2, 3}, 5);
    cat2.set_attr(dnnl_graph_op_attr_axis, attr_value_t::make_s64(0));
    cat2.outputs[0] = ir::make_lt(5, dnnl_f32, {8, 4});
    EXPECT_EQ(d.partition().size(), 2u);

    // MatMul → Select(cond, other, x): the Select joins as a tail.
    builder_t s;
    s.add(dnnl_graph_op_matmul, {1, 2}, 3);
    s.add(dnnl_graph_op_select, {4, 5, 3}, 6).inputs[0]
            = ir::make_lt(4, dnnl_boolean, {4, 4});
    EXPECT_EQ(s.partition(), (groups_t {{1, 2}}));

    // StaticReshape → StaticTranspose → StaticReshape (channel shuffle).
    builder_t h;
    ir::op_t &r1 = h.add(dnnl_graph_op_static_reshape, {1}, 2);
    r1.set_attr(dnnl_graph_op_attr_shape, attr_value_t::make_s64s({4, 2, 2}));
    r1.set_attr(dnnl_graph_op_attr_special_zero, attr_value_t::make_bool(false));
    r1.outputs[0] = ir::make_lt(2, dnnl_f32, {4, 2, 2});
    ir::op_t &tr = h.add(dnnl_graph_op_static_transpose, {2}, 3);
    tr.inputs[0] = r1.outputs[0];
    tr.set_attr(dnnl_graph_op_attr_order, attr_value_t::make_s64s({0, 2, 1}));
    tr.outputs[0] = ir::make_lt(3, dnnl_f32, {4, 2, 2});
    ir::op_t &r2 = h.add(dnnl_graph_op_static_reshape, {3}, 4);
    r2.inputs[0] = tr.outputs[0];
    r2.set_attr(dnnl_graph_op_attr_shape, attr_value_t::make_s64s({4, 4}));
    r2.set_attr(dnnl_graph_op_attr_special_zero, attr_value_t::make_bool(false));
    EXPECT_EQ(h.partition(), (groups_t {{1, 2, 3}}));
}

TEST(FusionPatterns, MemoryBoundChains) {
    builder_t b;
    ir::op_t &r = b.add(dnnl_graph_op_reduce_sum, {1}, 2);
    r.set_attr(dnnl_graph_op_attr_axes, attr_value_t::make_s64s({1}));
    r.set_attr(dnnl_graph_op_attr_keep_dims, attr_value_t::make_bool(true));
    r.outputs[0] = ir::make_lt(2, dnnl_f32, {4, 1});
    b.add(dnnl_graph_op_sqrt, {2}, 3).inputs[0] = ir::make_lt(2, dnnl_f32, {4, 1});
    b.ops.back().outputs[0] = ir::make_lt(3, dnnl_f32, {4, 1});
    b.add(dnnl_graph_op_reciprocal, {5}, 6);
    b.add(dnnl_graph_op_multiply, {6, 7}, 8);
    EXPECT_EQ(b.partition(), (groups_t {{1, 2}, {3, 4}}));
    EXPECT_EQ(b.parts[0]->kind, "reduction_post_ops");
}

} // namespace
} // namespace fusion
} // namespace llga
