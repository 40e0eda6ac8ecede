// SPDX-License-Identifier: Apache-2.0
// tests/unit/fusion/patterns_llm_test.cpp — the large transformer blocks:
// scaled dot-product attention (plain, implicit causal mask, GPT order,
// int8, training forward and backward) and the gated MLP. Each forms one
// partition in oneDNN v3.9 (shared/spec/patterns.md §1.14–1.17); these
// tests also pin down what must not fuse (escaping intermediates, paths
// that leave the block and come back, gate and up on different inputs).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fusion_test_builder.hpp"

namespace llga {
namespace fusion {
namespace {

using test::builder_t;
using test::groups_t;
using ir::attr_value_t;

std::vector<size_t> ids(const std::vector<logical_tensor_t> &lts) {
    std::vector<size_t> r;
    for (const auto &lt : lts)
        r.push_back(lt.id);
    return r;
}

void set_axis(ir::op_t &o, int64_t axis) {
    o.set_attr(dnnl_graph_op_attr_axis, attr_value_t::make_s64(axis));
}

TEST(FusionLlmPatterns, PlainSdpaIsOnePartition) {
    //  MatMul(1,2) → Divide(·,4) → Add(·,6) → SoftMax → MatMul(·,9)
    builder_t b;
    b.add(dnnl_graph_op_matmul, {1, 2}, 3);
    b.add(dnnl_graph_op_divide, {3, 4}, 5);
    b.add(dnnl_graph_op_add, {6, 5}, 7); // mask first: Add commutes
    set_axis(b.add(dnnl_graph_op_softmax, {7}, 8), -1);
    b.add(dnnl_graph_op_matmul, {8, 9}, 10);
    EXPECT_EQ(b.partition(), (groups_t {{1, 2, 3, 4, 5}}));
    const partition_t &p = *b.parts[0];
    EXPECT_EQ(p.kind, "sdp");
    EXPECT_EQ(ids(p.inputs), (std::vector<size_t> {1, 2, 4, 6, 9}));
    EXPECT_EQ(ids(p.outputs), (std::vector<size_t> {10}));
}

TEST(FusionLlmPatterns, DivideChainsOnlyOnItsFirstInput) {
    // 4 / scores is not a scale, so no block forms, and nothing else
    // joins these ops (Divide chains only on input 0 as a post-op too).
    builder_t b;
    b.add(dnnl_graph_op_matmul, {1, 2}, 3);
    b.add(dnnl_graph_op_divide, {4, 3}, 5);
    set_axis(b.add(dnnl_graph_op_softmax, {5}, 8), -1);
    b.add(dnnl_graph_op_matmul, {8, 9}, 10);
    EXPECT_EQ(b.partition().size(), 4u);
}

TEST(FusionLlmPatterns, ImplicitCausalMaskIsAbsorbed) {
    //  s = MatMul(1,2) * 4; row = GenIndex(s, axis 0) + 30 - 31;
    //  col = GenIndex(s, axis 1); Select(row >= col, s, 5) → SoftMax → MatMul
    builder_t b;
    b.add(dnnl_graph_op_matmul, {1, 2}, 3);
    b.add(dnnl_graph_op_multiply, {3, 4}, 11);
    set_axis(b.add(dnnl_graph_op_gen_index, {11}, 20, dnnl_f32, dnnl_s32), 0);
    b.add(dnnl_graph_op_add, {20, 30}, 21, dnnl_s32, dnnl_s32);
    b.add(dnnl_graph_op_subtract, {21, 31}, 22, dnnl_s32, dnnl_s32);
    set_axis(b.add(dnnl_graph_op_gen_index, {11}, 23, dnnl_f32, dnnl_s32), 1);
    b.add(dnnl_graph_op_greater_equal, {22, 23}, 24, dnnl_s32, dnnl_boolean);
    b.add(dnnl_graph_op_select, {24, 11, 5}, 12);
    set_axis(b.add(dnnl_graph_op_softmax, {12}, 13), -1);
    b.add(dnnl_graph_op_matmul, {13, 9}, 14);
    const groups_t g = b.partition();
    ASSERT_EQ(g.size(), 1u);
    EXPECT_EQ(g[0].size(), 10u);
    EXPECT_EQ(b.parts[0]->kind, "sdp");
    EXPECT_EQ(ids(b.parts[0]->outputs), (std::vector<size_t> {14}));
}

TEST(FusionLlmPatterns, GptOrderAndOutputTransposeReorder) {
    //  MatMul → Select(mask, s, fill) → Divide → Add → SoftMax → MatMul →
    //  StaticTranspose → Reorder
    builder_t b;
    b.add(dnnl_graph_op_matmul, {1, 2}, 3);
    b.add(dnnl_graph_op_select, {20, 3, 21}, 4).inputs[0].data_type
            = dnnl_boolean;
    b.add(dnnl_graph_op_divide, {4, 22}, 5);
    b.add(dnnl_graph_op_add, {5, 23}, 6);
    set_axis(b.add(dnnl_graph_op_softmax, {6}, 7), -1);
    b.add(dnnl_graph_op_matmul, {7, 9}, 10);
    b.add(dnnl_graph_op_static_transpose, {10}, 11)
            .set_attr(dnnl_graph_op_attr_order, attr_value_t::make_s64s({1, 0}));
    b.add(dnnl_graph_op_reorder, {11}, 12);
    const groups_t g = b.partition();
    ASSERT_EQ(g.size(), 1u);
    EXPECT_EQ(g[0].size(), 8u);
    EXPECT_EQ(ids(b.parts[0]->outputs), (std::vector<size_t> {12}));
}

TEST(FusionLlmPatterns, EscapingProbabilitiesPreventTheBlock) {
    // The SoftMax output is also read outside (attention weights returned
    // to the framework): the block cannot hide it.
    builder_t b;
    b.add(dnnl_graph_op_matmul, {1, 2}, 3);
    set_axis(b.add(dnnl_graph_op_softmax, {3}, 8), -1);
    b.add(dnnl_graph_op_matmul, {8, 9}, 10);
    b.add(dnnl_graph_op_relu, {8}, 11);
    const groups_t g = b.partition();
    for (const auto &grp : g)
        EXPECT_LT(grp.size(), 3u);
    for (const auto &p : b.parts)
        EXPECT_NE(p->kind, "sdp");
}

TEST(FusionLlmPatterns, Int8SdpaIsQuantizedSdp) {
    //  DQ(Q), DQ(K) → MatMul → Divide → SoftMax → Q → DQ → MatMul(·, DQ(V))
    //  → Q
    builder_t b;
    b.quant(dnnl_graph_op_dequantize, 1, 2, dnnl_u8, dnnl_f32);
    b.quant(dnnl_graph_op_dequantize, 3, 4, dnnl_u8, dnnl_f32);
    b.add(dnnl_graph_op_matmul, {2, 4}, 5);
    b.add(dnnl_graph_op_divide, {5, 6}, 7);
    set_axis(b.add(dnnl_graph_op_softmax, {7}, 8), -1);
    b.quant(dnnl_graph_op_quantize, 8, 9, dnnl_f32, dnnl_u8);
    b.quant(dnnl_graph_op_dequantize, 9, 10, dnnl_u8, dnnl_f32);
    b.quant(dnnl_graph_op_dequantize, 11, 12, dnnl_u8, dnnl_f32);
    b.add(dnnl_graph_op_matmul, {10, 12}, 13);
    b.quant(dnnl_graph_op_quantize, 13, 14, dnnl_f32, dnnl_u8);
    const groups_t g = b.partition();
    ASSERT_EQ(g.size(), 1u);
    EXPECT_EQ(g[0].size(), 10u);
    EXPECT_EQ(b.parts[0]->kind, "quantized_sdp");
    EXPECT_EQ(ids(b.parts[0]->inputs), (std::vector<size_t> {1, 3, 6, 11}));
    EXPECT_EQ(ids(b.parts[0]->outputs), (std::vector<size_t> {14}));
}

// SoftMax with its statistics output (training forward), [4, 4] → [4, 1].
ir::op_t &softmax_with_stats(builder_t &b, size_t in, size_t out,
        size_t stats) {
    ir::op_t &sm = b.add(dnnl_graph_op_softmax, {in}, out);
    set_axis(sm, -1);
    sm.outputs.push_back(ir::make_lt(stats, dnnl_f32, {4, 1}));
    return sm;
}

TEST(FusionLlmPatterns, TrainingForwardExposesTheStatistics) {
    builder_t b;
    b.add(dnnl_graph_op_matmul, {1, 2}, 3);
    b.add(dnnl_graph_op_multiply, {3, 4}, 5);
    softmax_with_stats(b, 5, 6, 7);
    b.add(dnnl_graph_op_matmul, {6, 9}, 10);
    EXPECT_EQ(b.partition(), (groups_t {{1, 2, 3, 4}}));
    EXPECT_EQ(ids(b.parts[0]->outputs), (std::vector<size_t> {7, 10}));
}

TEST(FusionLlmPatterns, PathLeavingAndReenteringTheBlockIsRejected) {
    // The statistics feed V through an outside op: fusing the block would
    // make it run both before and after that op.
    builder_t b;
    b.add(dnnl_graph_op_matmul, {1, 2}, 3);
    softmax_with_stats(b, 3, 6, 7);
    b.add(dnnl_graph_op_multiply, {7, 8}, 9).inputs[0]
            = ir::make_lt(7, dnnl_f32, {4, 1}); // as the SoftMax gives it
    b.add(dnnl_graph_op_matmul, {6, 9}, 10);
    for (const auto &p : b.partition())
        EXPECT_LT(p.size(), 3u);
    for (const auto &p : b.parts)
        EXPECT_NE(p->kind, "sdp");
}

TEST(FusionLlmPatterns, TrainingBackwardBlockHasThreeGradients) {
    //  P = Exp(MatMul(Q=1, K=2) / 4 - stats 5); dV = MatMul(P^T, dO=6);
    //  dP = MatMul(dO, V=7); dS = SoftMaxBackward(dP, P) / 4;
    //  dQ = MatMul(dS, K); dK = MatMul(dS^T, Q)
    builder_t b;
    b.add(dnnl_graph_op_matmul, {1, 2}, 10);
    b.add(dnnl_graph_op_divide, {10, 4}, 11);
    b.add(dnnl_graph_op_subtract, {11, 5}, 12).inputs[1].dims[1] = 1;
    b.add(dnnl_graph_op_exp, {12}, 13);
    b.add(dnnl_graph_op_matmul, {13, 6}, 20).set_attr(
            dnnl_graph_op_attr_transpose_a, attr_value_t::make_bool(true));
    b.add(dnnl_graph_op_matmul, {6, 7}, 14);
    set_axis(b.add(dnnl_graph_op_softmax_backward, {14, 13}, 15), -1);
    b.add(dnnl_graph_op_divide, {15, 4}, 16);
    b.add(dnnl_graph_op_matmul, {16, 2}, 21);
    b.add(dnnl_graph_op_matmul, {16, 1}, 22).set_attr(
            dnnl_graph_op_attr_transpose_a, attr_value_t::make_bool(true));
    const groups_t g = b.partition();
    ASSERT_EQ(g.size(), 1u);
    EXPECT_EQ(g[0].size(), 10u);
    EXPECT_EQ(b.parts[0]->kind, "sdp");
    EXPECT_EQ(ids(b.parts[0]->outputs), (std::vector<size_t> {20, 21, 22}));
}

// x = 1; gate = MatMul(x, 2); up = MatMul(x, 3); down weights 9.
void gate_and_up(builder_t &b, size_t up_src = 1) {
    b.add(dnnl_graph_op_matmul, {1, 2}, 4);
    b.add(dnnl_graph_op_matmul, {up_src, 3}, 5);
}

TEST(FusionLlmPatterns, GatedMlpWithSwishIsOnePartition) {
    for (bool swap : {false, true}) {
        builder_t b;
        gate_and_up(b);
        b.add(dnnl_graph_op_sigmoid, {4}, 6);
        b.add(dnnl_graph_op_multiply,
                swap ? std::vector<size_t> {6, 4} : std::vector<size_t> {4, 6},
                7);
        b.add(dnnl_graph_op_multiply,
                swap ? std::vector<size_t> {5, 7} : std::vector<size_t> {7, 5},
                8);
        b.add(dnnl_graph_op_matmul, {8, 9}, 10);
        EXPECT_EQ(b.partition(), (groups_t {{1, 2, 3, 4, 5, 6}})) << swap;
        EXPECT_EQ(b.parts[0]->kind, "matmul_post_ops");
        EXPECT_NE(b.parts[0]->reason.find("gated_mlp"), std::string::npos);
        EXPECT_EQ(ids(b.parts[0]->inputs), (std::vector<size_t> {1, 2, 3, 9}));
    }
}

TEST(FusionLlmPatterns, GatedMlpWithOneActivationOrNone) {
    builder_t b;
    gate_and_up(b);
    b.add(dnnl_graph_op_gelu, {4}, 6);
    b.add(dnnl_graph_op_subtract, {6, 5}, 8); // any binary joins
    b.add(dnnl_graph_op_matmul, {8, 9}, 10);
    EXPECT_EQ(b.partition(), (groups_t {{1, 2, 3, 4, 5}}));
    builder_t c;
    gate_and_up(c);
    c.add(dnnl_graph_op_multiply, {4, 5}, 8);
    c.add(dnnl_graph_op_matmul, {8, 9}, 10);
    EXPECT_EQ(c.partition(), (groups_t {{1, 2, 3, 4}}));
    EXPECT_NE(c.parts[0]->reason.find("gated_mlp"), std::string::npos);
}

TEST(FusionLlmPatterns, GateAndUpOnDifferentInputsAreNotAGatedMlp) {
    builder_t b;
    gate_and_up(b, /*up_src=*/11);
    b.add(dnnl_graph_op_gelu, {4}, 6);
    b.add(dnnl_graph_op_multiply, {6, 5}, 8);
    b.add(dnnl_graph_op_matmul, {8, 9}, 10);
    for (const auto &p : b.partition())
        EXPECT_LT(p.size(), 5u);
    for (const auto &p : b.parts)
        EXPECT_EQ(p->reason.find("gated_mlp"), std::string::npos);
}

} // namespace
} // namespace fusion
} // namespace llga
