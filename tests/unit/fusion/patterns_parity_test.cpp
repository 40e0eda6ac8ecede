// SPDX-License-Identifier: Apache-2.0
// tests/unit/fusion/patterns_parity_test.cpp — the families oneDNN v3.9
// forms as one partition that llga used to split (docs/fusion.md, "Parity
// with oneDNN v3.9"): the gated MLP with all three weights compressed,
// attention with layout ops inside the block (JAX MQA), SDPA training
// backward in mixed precision, and the int8 depthwise convolution whose
// weights are prepared in the graph; with the optional ops varied and the
// spellings that must not fuse. Results of these families are checked
// against the reference by tests/inputs/parity (conformance.run.parity).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fusion_test_builder.hpp"

namespace llga {
namespace fusion {
namespace {

using ir::attr_value_t;
using test::builder_t;
using test::groups_t;

logical_tensor_t lt(size_t id, data_type_t dt, dims_t d,
        property_t prop = dnnl_graph_tensor_property_undef) {
    return ir::make_lt(id, dt, d, dnnl_graph_layout_type_strided, prop);
}

ir::op_t &raw(builder_t &b, op_kind_t kind, std::vector<logical_tensor_t> ins,
        std::vector<logical_tensor_t> outs) {
    b.ops.emplace_back();
    ir::op_t &o = b.ops.back();
    o.id = b.next_op++;
    o.kind = kind;
    o.inputs = std::move(ins);
    o.outputs = std::move(outs);
    return o;
}

void s64s(ir::op_t &o, attr_id_t a, std::vector<int64_t> v) {
    o.set_attr(a, attr_value_t::make_s64s(std::move(v)));
}

// ---- gated MLP, every weight through DynamicDequantize ---------------------

// u4 weights {4, 4} with f16 scales and u8 zero points grouped along `dim`.
void compressed_weight(builder_t &b, size_t w, size_t out, int dim) {
    const dims_t sd = dim == 0 ? dims_t {1, 4} : dims_t {4, 1};
    ir::op_t &o = raw(b, dnnl_graph_op_dynamic_dequantize,
            {lt(w, dnnl_u4, {4, 4}, dnnl_graph_tensor_property_constant),
                    lt(w + 100, dnnl_f16, sd), lt(w + 200, dnnl_u8, sd)},
            {lt(out, dnnl_f16, {4, 4})});
    o.set_attr(dnnl_graph_op_attr_qtype, attr_value_t::make_str("per_group"));
    s64s(o, dnnl_graph_op_attr_group_shape, dim == 0 ? std::vector<int64_t> {4, 1}
                                                     : std::vector<int64_t> {1, 4});
    o.set_attr(dnnl_graph_op_attr_axis, attr_value_t::make_s64(dim));
}

TEST(FusionParity, GatedMlpWithThreeCompressedWeights) {
    for (int dim : {0, 1}) {
        builder_t b;
        compressed_weight(b, 2, 12, dim);  // op 1: gate weights
        compressed_weight(b, 3, 13, dim);  // op 2: up weights
        compressed_weight(b, 9, 19, 1 - dim); // op 3: down weights
        b.add(dnnl_graph_op_matmul, {1, 12}, 4, dnnl_f16, dnnl_f16);
        b.add(dnnl_graph_op_matmul, {1, 13}, 5, dnnl_f16, dnnl_f16);
        b.add(dnnl_graph_op_sigmoid, {4}, 6, dnnl_f16, dnnl_f16);
        b.add(dnnl_graph_op_multiply, {4, 6}, 7, dnnl_f16, dnnl_f16);
        b.add(dnnl_graph_op_multiply, {7, 5}, 8, dnnl_f16, dnnl_f16);
        b.add(dnnl_graph_op_matmul, {8, 19}, 10, dnnl_f16, dnnl_f16);
        EXPECT_EQ(b.partition(), (groups_t {{1, 2, 3, 4, 5, 6, 7, 8, 9}})) << dim;
        EXPECT_EQ(b.parts[0]->kind, "matmul_post_ops");
    }
}

TEST(FusionParity, GatedMlpDownWeightsReadElsewhereStayOutside) {
    // The down weights' DynamicDequantize also feeds another op: it cannot
    // join, the rest still forms the block.
    builder_t b;
    compressed_weight(b, 2, 12, 0);
    compressed_weight(b, 3, 13, 0);
    compressed_weight(b, 9, 19, 1);
    b.add(dnnl_graph_op_matmul, {1, 12}, 4, dnnl_f16, dnnl_f16);
    b.add(dnnl_graph_op_matmul, {1, 13}, 5, dnnl_f16, dnnl_f16);
    b.add(dnnl_graph_op_sigmoid, {4}, 6, dnnl_f16, dnnl_f16);
    b.add(dnnl_graph_op_multiply, {6, 4}, 7, dnnl_f16, dnnl_f16);
    b.add(dnnl_graph_op_multiply, {5, 7}, 8, dnnl_f16, dnnl_f16);
    b.add(dnnl_graph_op_matmul, {8, 19}, 10, dnnl_f16, dnnl_f16);
    b.add(dnnl_graph_op_abs, {19}, 11, dnnl_f16, dnnl_f16);
    const groups_t g = b.partition();
    ASSERT_EQ(g.size(), 3u);
    EXPECT_EQ(g[0], (std::vector<size_t> {3})); // the shared DynamicDequantize
    EXPECT_EQ(g[1], (std::vector<size_t> {1, 2, 4, 5, 6, 7, 8, 9}));
}

// ---- attention with layout ops inside the block ----------------------------

void reshape(builder_t &b, size_t in, size_t out) {
    s64s(b.add(dnnl_graph_op_static_reshape, {in}, out), dnnl_graph_op_attr_shape,
            {4, 4});
    b.ops.back().set_attr(dnnl_graph_op_attr_special_zero, attr_value_t::make_bool(false));
}
void transpose(builder_t &b, size_t in, size_t out) {
    s64s(b.add(dnnl_graph_op_static_transpose, {in}, out), dnnl_graph_op_attr_order,
            {1, 0});
}

TEST(FusionParity, JaxMqaWithLayoutOpsAroundTheMaskIsOneBlock) {
    //  MatMul(K, Qt) → reshape → transpose → Add(mask) → SoftMax →
    //  transpose → reshape → MatMul(V, ·)
    for (bool mask : {true, false}) {
        builder_t b;
        b.add(dnnl_graph_op_matmul, {1, 2}, 3);
        reshape(b, 3, 4);
        transpose(b, 4, 5);
        size_t v = 5;
        if (mask) {
            b.add(dnnl_graph_op_add, {5, 6}, 7);
            v = 7;
        }
        b.add(dnnl_graph_op_softmax, {v}, 8).set_attr(
                dnnl_graph_op_attr_axis, attr_value_t::make_s64(-1));
        transpose(b, 8, 9);
        reshape(b, 9, 10);
        b.add(dnnl_graph_op_matmul, {11, 10}, 12);
        const groups_t g = b.partition();
        ASSERT_EQ(g.size(), 1u) << mask;
        EXPECT_EQ(g[0].size(), mask ? 8u : 7u);
        EXPECT_EQ(b.parts[0]->kind, "sdp");
    }
}

TEST(FusionParity, LayoutOpWhoseOutputEscapesEndsTheBlock) {
    builder_t b;
    b.add(dnnl_graph_op_matmul, {1, 2}, 3);
    reshape(b, 3, 4);
    transpose(b, 4, 5);
    b.add(dnnl_graph_op_add, {5, 6}, 7);
    b.add(dnnl_graph_op_softmax, {7}, 8).set_attr(
            dnnl_graph_op_attr_axis, attr_value_t::make_s64(-1));
    b.add(dnnl_graph_op_matmul, {8, 11}, 12);
    b.add(dnnl_graph_op_relu, {5}, 13); // the transposed scores leave
    for (const auto &p : b.partition())
        EXPECT_LT(p.size(), 6u);
    for (const auto &p : b.parts)
        EXPECT_NE(p->kind, "sdp");
}

// ---- SDPA training backward in mixed precision -----------------------------

// P = Exp(MatMul(Q=1, K=2) scaled - stats 5) in f32; P' = TypeCast(P) bf16;
// dV = MatMul(P'^T, dO=6); dP = MatMul(dO, V=7) f32; dS = SoftMaxBackward
// (dP, P or P') scaled; dS' = TypeCast(dS); dQ = MatMul(dS', K); dK =
// MatMul(dS'^T, Q).
void mixed_backward(builder_t &b, op_kind_t scale, bool mask, bool smb_f32) {
    const data_type_t f = dnnl_f32, h = dnnl_bf16;
    b.add(dnnl_graph_op_matmul, {1, 2}, 10, h, f);
    b.add(scale, {10, 4}, 11, f, f);
    size_t v = 11;
    if (mask) {
        b.add(dnnl_graph_op_add, {11, 3}, 17, f, f);
        v = 17;
    }
    b.add(dnnl_graph_op_subtract, {v, 5}, 12, f, f);
    b.add(dnnl_graph_op_exp, {12}, 13, f, f);
    b.add(dnnl_graph_op_type_cast, {13}, 30, f, h);
    b.add(dnnl_graph_op_matmul, {30, 6}, 20, h, h).set_attr(
            dnnl_graph_op_attr_transpose_a, attr_value_t::make_bool(true));
    b.add(dnnl_graph_op_matmul, {6, 7}, 14, h, f);
    b.add(dnnl_graph_op_softmax_backward, {14, smb_f32 ? size_t(13) : size_t(30)}, 15,
            f, f)
            .set_attr(dnnl_graph_op_attr_axis, attr_value_t::make_s64(-1));
    if (!smb_f32) b.ops.back().inputs[1].data_type = h;
    b.add(scale, {15, 4}, 16, f, f);
    b.add(dnnl_graph_op_type_cast, {16}, 31, f, h);
    b.add(dnnl_graph_op_matmul, {31, 2}, 21, h, h);
    b.add(dnnl_graph_op_matmul, {31, 1}, 22, h, h).set_attr(
            dnnl_graph_op_attr_transpose_a, attr_value_t::make_bool(true));
}

TEST(FusionParity, MixedPrecisionTrainingBackwardIsOneBlock) {
    for (op_kind_t scale : {dnnl_graph_op_multiply, dnnl_graph_op_divide})
        for (bool mask : {true, false}) {
            builder_t b;
            mixed_backward(b, scale, mask, true);
            const groups_t g = b.partition();
            ASSERT_EQ(g.size(), 1u) << scale << mask;
            EXPECT_EQ(g[0].size(), mask ? 13u : 12u);
            EXPECT_EQ(b.parts[0]->kind, "sdp");
            std::vector<size_t> outs;
            for (const auto &t : b.parts[0]->outputs)
                outs.push_back(t.id);
            EXPECT_EQ(outs, (std::vector<size_t> {20, 21, 22}));
        }
}

TEST(FusionParity, CastProbabilitiesReadByAnOutsideOpAreNotABlock) {
    builder_t b;
    mixed_backward(b, dnnl_graph_op_multiply, true, true);
    b.add(dnnl_graph_op_abs, {30}, 40, dnnl_bf16, dnnl_bf16);
    for (const auto &p : b.partition())
        EXPECT_LT(p.size(), 12u);
}

// ---- int8 depthwise convolution, weights prepared in the graph -------------

// DQ(src u8 1x4x4x4) and weights 3x3x4x1 (constant unless `computed`) →
// StaticReshape 3x3x1x4 → Quantize s8 → Dequantize → StaticReshape →
// Convolution(groups 4, NXC/XIO) → [ReLU] → [Quantize u8].
void depthwise(builder_t &b, bool relu, bool out_q, bool computed) {
    ir::op_t &dq = raw(b, dnnl_graph_op_dequantize, {lt(1, dnnl_u8, {1, 4, 4, 4})},
            {lt(2, dnnl_f32, {1, 4, 4, 4})});
    dq.set_attr(dnnl_graph_op_attr_scales, attr_value_t::make_f32s({0.5f}));
    size_t w = 3;
    if (computed) {
        raw(b, dnnl_graph_op_abs, {lt(50, dnnl_f32, {3, 3, 4, 1})},
                {lt(3, dnnl_f32, {3, 3, 4, 1})});
    }
    const property_t wp = computed ? dnnl_graph_tensor_property_undef
                                   : dnnl_graph_tensor_property_constant;
    ir::op_t &r1 = raw(b, dnnl_graph_op_static_reshape, {lt(w, dnnl_f32, {3, 3, 4, 1}, wp)},
            {lt(4, dnnl_f32, {3, 3, 1, 4})});
    s64s(r1, dnnl_graph_op_attr_shape, {3, 3, 1, 4});
    r1.set_attr(dnnl_graph_op_attr_special_zero, attr_value_t::make_bool(false));
    for (op_kind_t k : {dnnl_graph_op_quantize, dnnl_graph_op_dequantize}) {
        const bool q = k == dnnl_graph_op_quantize;
        ir::op_t &o = raw(b, k, {lt(q ? 4 : 5, q ? dnnl_f32 : dnnl_s8, {3, 3, 1, 4})},
                {lt(q ? 5 : 6, q ? dnnl_s8 : dnnl_f32, {3, 3, 1, 4})});
        o.set_attr(dnnl_graph_op_attr_qtype, attr_value_t::make_str("per_channel"));
        o.set_attr(dnnl_graph_op_attr_scales,
                attr_value_t::make_f32s({0.25f, 0.5f, 0.25f, 0.5f}));
        s64s(o, dnnl_graph_op_attr_zps, {0, 0, 0, 0});
        o.set_attr(dnnl_graph_op_attr_axis, attr_value_t::make_s64(3));
    }
    ir::op_t &r2 = raw(b, dnnl_graph_op_static_reshape, {lt(6, dnnl_f32, {3, 3, 1, 4})},
            {lt(7, dnnl_f32, {3, 3, 1, 4})});
    s64s(r2, dnnl_graph_op_attr_shape, {3, 3, 1, 4});
    r2.set_attr(dnnl_graph_op_attr_special_zero, attr_value_t::make_bool(false));
    ir::op_t &c = raw(b, dnnl_graph_op_convolution,
            {lt(2, dnnl_f32, {1, 4, 4, 4}), lt(7, dnnl_f32, {3, 3, 1, 4})},
            {lt(8, dnnl_f32, {1, 2, 2, 4})});
    for (attr_id_t a : {dnnl_graph_op_attr_strides, dnnl_graph_op_attr_dilations})
        s64s(c, a, {1, 1});
    for (attr_id_t a : {dnnl_graph_op_attr_pads_begin, dnnl_graph_op_attr_pads_end})
        s64s(c, a, {0, 0});
    c.set_attr(dnnl_graph_op_attr_groups, attr_value_t::make_s64(4));
    size_t v = 8;
    if (relu) {
        raw(b, dnnl_graph_op_relu, {lt(8, dnnl_f32, {1, 2, 2, 4})},
                {lt(9, dnnl_f32, {1, 2, 2, 4})});
        v = 9;
    }
    if (out_q) {
        ir::op_t &q = raw(b, dnnl_graph_op_quantize, {lt(v, dnnl_f32, {1, 2, 2, 4})},
                {lt(10, dnnl_u8, {1, 2, 2, 4})});
        q.set_attr(dnnl_graph_op_attr_scales, attr_value_t::make_f32s({0.25f}));
    }
}

TEST(FusionParity, DepthwiseConvWithWeightsPreparedInTheGraph) {
    for (bool relu : {true, false})
        for (bool out_q : {true, false}) {
            builder_t b;
            depthwise(b, relu, out_q, false);
            const groups_t g = b.partition();
            ASSERT_EQ(g.size(), 1u) << relu << out_q;
            EXPECT_EQ(g[0].size(), 6u + relu + out_q);
            EXPECT_EQ(b.parts[0]->kind, "quantized_convolution_post_ops");
            EXPECT_NE(b.parts[0]->reason.find("x8s8x_conv_reshape_post_ops"),
                    std::string::npos);
        }
}

TEST(FusionParity, ComputedWeightsAreNotQuantizedInside) {
    // Weights produced by another op may change between runs: the weight
    // preparation is not absorbed, so the convolution's weights come from
    // outside and no x8s8x_conv_reshape block forms.
    builder_t b;
    depthwise(b, true, true, true);
    for (const auto &p : b.partition())
        EXPECT_LT(p.size(), 8u);
    for (const auto &p : b.parts)
        EXPECT_EQ(p->reason.find("x8s8x_conv_reshape_post_ops"), std::string::npos);
}

// ---- MatMul written into heads; Reorder → Add ------------------------------

TEST(FusionParity, MatmulReshapeTransposeReshape) {
    // MatMul → [BiasAdd] → [reshape] → transpose → [reshape | Reorder]
    struct v_t {
        bool bias, pre, post, reorder;
    };
    for (v_t v : {v_t {true, true, true, false}, v_t {false, true, false, false},
                 v_t {false, false, true, false}, v_t {true, false, false, true}}) {
        builder_t b;
        b.add(dnnl_graph_op_matmul, {1, 2}, 3);
        size_t x = 3;
        if (v.bias) {
            b.add(dnnl_graph_op_bias_add, {3, 4}, 5).inputs[1] = lt(4, dnnl_f32, {4});
            x = 5;
        }
        if (v.pre) reshape(b, x, 6), x = 6;
        transpose(b, x, 7);
        x = 7;
        if (v.reorder) b.add(dnnl_graph_op_reorder, {7}, 8);
        else if (v.post) reshape(b, 7, 8);
        const size_t n = 2 + v.bias + v.pre + (v.post || v.reorder);
        const groups_t g = b.partition();
        ASSERT_EQ(g.size(), 1u) << v.bias << v.pre << v.post << v.reorder;
        EXPECT_EQ(g[0].size(), n);
        EXPECT_NE(b.parts[0]->reason.find("fp_matmul_reshape_transpose_reshape"),
                std::string::npos);
    }
    // A post-op in between: the reference has no such pattern.
    builder_t c;
    c.add(dnnl_graph_op_matmul, {1, 2}, 3);
    c.add(dnnl_graph_op_relu, {3}, 4);
    transpose(c, 4, 5);
    EXPECT_EQ(c.partition(), (groups_t {{1, 2}, {3}}));
}

TEST(FusionParity, QuantizedMatmulIntoHeads) {
    builder_t b;
    b.quant(dnnl_graph_op_dequantize, 1, 2, dnnl_u8, dnnl_f32);
    b.quant(dnnl_graph_op_dequantize, 3, 4, dnnl_s8, dnnl_f32);
    b.add(dnnl_graph_op_matmul, {2, 4}, 5);
    reshape(b, 5, 6);
    transpose(b, 6, 7);
    reshape(b, 7, 8);
    b.quant(dnnl_graph_op_quantize, 8, 9, dnnl_f32, dnnl_u8);
    EXPECT_EQ(b.partition(), (groups_t {{1, 2, 3, 4, 5, 6, 7}}));
    EXPECT_EQ(b.parts[0]->kind, "quantized_matmul_post_ops");
}

TEST(FusionParity, ReorderThenAddOfTheSameShape) {
    builder_t b;
    b.add(dnnl_graph_op_reorder, {1}, 2);
    b.add(dnnl_graph_op_add, {3, 2}, 4);
    EXPECT_EQ(b.partition(), (groups_t {{1, 2}}));
    // Broadcast Add: not this pattern.
    builder_t c;
    c.add(dnnl_graph_op_reorder, {1}, 2);
    c.add(dnnl_graph_op_add, {2, 3}, 4).inputs[1] = lt(3, dnnl_f32, {1, 4});
    EXPECT_EQ(c.partition().size(), 2u);
}

TEST(FusionParity, ConvolutionThenOneOpThenSwishTakesFourMore) {
    // Convolution → Add → swish → ReLU, Tanh, Abs, Multiply: one partition
    // (fp_conv_post_ops_swish_post_ops); a fifth op after the swish starts
    // a new one.
    for (int tail : {4, 5}) {
        builder_t b;
        ir::op_t &c = raw(b, dnnl_graph_op_convolution,
                {lt(1, dnnl_f32, {1, 4, 4, 2}), lt(2, dnnl_f32, {1, 1, 2, 2})},
                {lt(3, dnnl_f32, {1, 4, 4, 2})});
        for (attr_id_t a : {dnnl_graph_op_attr_strides, dnnl_graph_op_attr_dilations})
            s64s(c, a, {1, 1});
        for (attr_id_t a : {dnnl_graph_op_attr_pads_begin, dnnl_graph_op_attr_pads_end})
            s64s(c, a, {0, 0});
        const dims_t d = {1, 4, 4, 2};
        raw(b, dnnl_graph_op_add, {lt(3, dnnl_f32, d), lt(4, dnnl_f32, d)},
                {lt(5, dnnl_f32, d)});
        raw(b, dnnl_graph_op_sigmoid, {lt(5, dnnl_f32, d)}, {lt(6, dnnl_f32, d)});
        raw(b, dnnl_graph_op_multiply, {lt(5, dnnl_f32, d), lt(6, dnnl_f32, d)},
                {lt(7, dnnl_f32, d)});
        size_t v = 7;
        const op_kind_t kinds[] = {dnnl_graph_op_relu, dnnl_graph_op_tanh,
                dnnl_graph_op_abs, dnnl_graph_op_sigmoid, dnnl_graph_op_relu};
        for (int k = 0; k < tail; ++k, ++v)
            raw(b, kinds[k], {lt(v, dnnl_f32, d)}, {lt(v + 1, dnnl_f32, d)});
        const groups_t g = b.partition();
        ASSERT_EQ(g.size(), tail == 4 ? 1u : 2u) << tail;
        EXPECT_EQ(g[0].size(), 8u);
        EXPECT_NE(b.parts[0]->reason.find("fp_conv_post_ops_swish_post_ops"),
                std::string::npos);
    }
}

TEST(FusionParity, SmallFamiliesOfTheTable) {
    // ConvTranspose → BiasAdd → ReLU (fp_convtranspose_post_ops).
    builder_t ct;
    ir::op_t &d = raw(ct, dnnl_graph_op_conv_transpose,
            {lt(1, dnnl_f32, {1, 2, 3, 3}), lt(2, dnnl_f32, {2, 2, 1, 1})},
            {lt(3, dnnl_f32, {1, 3, 3, 2})});
    for (attr_id_t a : {dnnl_graph_op_attr_strides, dnnl_graph_op_attr_dilations})
        s64s(d, a, {1, 1});
    for (attr_id_t a : {dnnl_graph_op_attr_pads_begin, dnnl_graph_op_attr_pads_end})
        s64s(d, a, {0, 0});
    d.set_attr(dnnl_graph_op_attr_data_format, attr_value_t::make_str("NCX"));
    d.set_attr(dnnl_graph_op_attr_weights_format, attr_value_t::make_str("IOX"));
    d.outputs[0] = lt(3, dnnl_f32, {1, 2, 3, 3});
    raw(ct, dnnl_graph_op_bias_add, {lt(3, dnnl_f32, {1, 2, 3, 3}), lt(4, dnnl_f32, {2})},
            {lt(5, dnnl_f32, {1, 2, 3, 3})})
            .set_attr(dnnl_graph_op_attr_data_format, attr_value_t::make_str("NCX"));
    raw(ct, dnnl_graph_op_relu, {lt(5, dnnl_f32, {1, 2, 3, 3})},
            {lt(6, dnnl_f32, {1, 2, 3, 3})});
    EXPECT_EQ(ct.partition(), (groups_t {{1, 2, 3}}));
    EXPECT_EQ(ct.parts[0]->kind, "convtranspose_post_ops");
    // TypeCast bf16 → f32 → Quantize (typecast_quantize).
    builder_t tq;
    tq.add(dnnl_graph_op_type_cast, {1}, 2, dnnl_bf16, dnnl_f32);
    tq.quant(dnnl_graph_op_quantize, 2, 3, dnnl_f32, dnnl_u8);
    EXPECT_EQ(tq.partition(), (groups_t {{1, 2}}));
    EXPECT_EQ(tq.parts[0]->kind, "misc_quantized_post_ops");
    // DQ → Reorder → Quantize (x8_reorder).
    builder_t rq;
    rq.quant(dnnl_graph_op_dequantize, 1, 2, dnnl_s8, dnnl_f32);
    rq.add(dnnl_graph_op_reorder, {2}, 3);
    rq.quant(dnnl_graph_op_quantize, 3, 4, dnnl_f32, dnnl_s8);
    EXPECT_EQ(rq.partition(), (groups_t {{1, 2, 3}}));
    EXPECT_EQ(rq.parts[0]->reason, "pattern x8_reorder");
}

} // namespace
} // namespace fusion
} // namespace llga
