// SPDX-License-Identifier: Apache-2.0
// tests/conformance/schema_violations_test.cpp — the schema-violation suite:
// for every kind in ops/ops.def one invalid op (wrong input/output count,
// wrong dtype, missing required attribute, undefined attribute, bad candidate
// value, violated per-op constraint) that dnnl_graph_add_op must reject with
// dnnl_invalid_graph_op, naming the op id in llga_last_error_message().
// Rules come from opset.md §1.4, §2 and §3. Coverage is enforced at link
// time (every bad_<suffix>() must exist) and by the Coverage test.
#include <sstream>

#include <gtest/gtest.h>

#include "conformance_cases.hpp"

using namespace conf;

namespace {
constexpr auto f32 = dnnl_f32, bf16 = dnnl_bf16, f16 = dnnl_f16, s32 = dnnl_s32,
               s8 = dnnl_s8, u8 = dnnl_u8;
using DT = dnnl_data_type_t;

// n inputs of dtype dt (shape [2,3]) and m outputs of unknown rank.
op_case_t io(size_t n, size_t m, DT dt = dnnl_f32, DT odt = dnnl_data_type_undef) {
    auto c = make_case();
    for (size_t k = 0; k < n; ++k)
        c.in(dt, {2, 3});
    for (size_t k = 0; k < m; ++k)
        c.out_any(odt == dnnl_data_type_undef ? dt : odt);
    return c;
}
// Valid spatial attributes for a 2-D conv / pool op (without the one named).
op_case_t &spatial(op_case_t &c, dnnl_graph_op_attr_t skip = dnnl_graph_op_attr_undef,
        bool dil = true) {
    for (auto a : {dnnl_graph_op_attr_strides, dnnl_graph_op_attr_pads_begin,
                 dnnl_graph_op_attr_pads_end, dnnl_graph_op_attr_dilations}) {
        if (a == skip || (a == dnnl_graph_op_attr_dilations && !dil)) continue;
        const int64_t v = (a == dnnl_graph_op_attr_strides || a == dnnl_graph_op_attr_dilations)
                ? 1
                : 0;
        c.s64s(a, {v, v});
    }
    return c;
}
op_case_t conv_io(size_t n) {
    auto c = make_case();
    c.in(f32, {1, 3, 3, 1});
    for (size_t k = 1; k < n; ++k)
        c.in(f32, {1, 1, 1, 1});
    return c.out_any(f32);
}
// n pooling-shaped inputs [1,1,3,3] and one output.
op_case_t pool_io(size_t n) {
    auto c = make_case();
    for (size_t k = 0; k < n; ++k)
        c.in(f32, {1, 1, 3, 3});
    return c.out_any(f32);
}
op_case_t pool_ok(op_case_t c, bool avg, dnnl_graph_op_attr_t skip = dnnl_graph_op_attr_undef) {
    spatial(c, skip, false);
    if (skip != dnnl_graph_op_attr_kernel) c.s64s(dnnl_graph_op_attr_kernel, {1, 1});
    if (avg && skip != dnnl_graph_op_attr_exclude_pad)
        c.b(dnnl_graph_op_attr_exclude_pad, false);
    return c;
}
} // namespace

// clang-format off
op_case_t bad_abs() { return io(2, 1).because("two inputs (exactly 1)", "inputs"); }
op_case_t bad_abs_backward() { return io(1, 1).because("one input (exactly 2)", "inputs"); }
op_case_t bad_add() { return io(2, 1, s8).because("s8 inputs (f32/bf16/f16/s32 only)", "s8"); }
op_case_t bad_avg_pool() {
    return pool_ok(pool_io(1), true, dnnl_graph_op_attr_exclude_pad)
            .because("missing required exclude_pad", "exclude_pad");
}
op_case_t bad_avg_pool_backward() {
    return pool_ok(pool_io(1), true).str(dnnl_graph_op_attr_auto_pad, "bogus")
            .because("auto_pad not a candidate", "auto_pad");
}
op_case_t bad_batch_norm_backward() {
    auto c = make_case().in(f32, {2, 2, 1, 1}).in(f32, {2, 2, 1, 1})
            .in(f32, {2}).in(f32, {2}).in(f32, {2});
    return c.out_any(f32).out_any(f32).out_any(f32).because("missing required epsilon", "epsilon");
}
op_case_t bad_batch_norm_forward_training() {
    return make_case().in(f32, {2, 2}).in(f32, {2})
            .f32(dnnl_graph_op_attr_epsilon, 1e-5f)
            .out_any(f32).out_any(f32).out_any(f32).out_any(f32).out_any(f32)
            .because("two inputs (3, 4 or 5)", "inputs");
}
op_case_t bad_batch_norm_inference() {
    return make_case().in(f32, {2, 2}).in(f32, {2}).in(f32, {2}).in(f32, {2})
            .f32(dnnl_graph_op_attr_epsilon, 1e-5f).out_any(f32)
            .because("four inputs (exactly 5)", "inputs");
}
op_case_t bad_bias_add() {
    return make_case().in(f32, {2, 3}).in(f32, {3})
            .str(dnnl_graph_op_attr_data_format, "bogus").out_any(f32)
            .because("data_format not a candidate", "data_format");
}
op_case_t bad_bias_add_backward() { return io(2, 1).because("two inputs (exactly 1)", "inputs"); }
op_case_t bad_clamp() {
    return io(1, 1).f32(dnnl_graph_op_attr_min, 0.f).because("missing required max", "max");
}
op_case_t bad_clamp_backward() {
    return io(2, 1).f32(dnnl_graph_op_attr_min, 0.f).f32(dnnl_graph_op_attr_max, 1.f)
            .f32(dnnl_graph_op_attr_alpha, 1.f).because("undefined attribute alpha", "alpha");
}
op_case_t bad_concat() { return io(2, 1).because("missing required axis", "axis"); }
op_case_t bad_convolution() {
    auto c = conv_io(2);
    return spatial(c, dnnl_graph_op_attr_strides).because("missing required strides", "strides");
}
op_case_t bad_convolution_backward_data() {
    auto c = conv_io(2);
    return spatial(c).str(dnnl_graph_op_attr_weights_format, "IOX")
            .because("weights_format IOX is for ConvTranspose only", "weights_format");
}
op_case_t bad_convolution_backward_weights() {
    auto c = conv_io(1);
    return spatial(c).because("one input (2 or 3)", "inputs");
}
op_case_t bad_conv_transpose() {
    auto c = conv_io(2);
    return spatial(c).str(dnnl_graph_op_attr_weights_format, "OIX")
            .because("weights_format OIX is for Convolution only", "weights_format");
}
op_case_t bad_conv_transpose_backward_data() {
    auto c = conv_io(2);
    return spatial(c).s64s(dnnl_graph_op_attr_output_padding, {0, 0})
            .because("output_padding is not declared by the schema", "output_padding");
}
op_case_t bad_conv_transpose_backward_weights() {
    auto c = conv_io(2);
    return spatial(c, dnnl_graph_op_attr_dilations)
            .because("missing required dilations", "dilations");
}
op_case_t bad_dequantize() {
    return io(1, 1, f32).f32s(dnnl_graph_op_attr_scales, {1.f})
            .because("f32 src (u8/s8/f8 only)", "f32");
}
op_case_t bad_divide() { return io(2, 1, s32).because("s32 inputs (floating point only)", "s32"); }
op_case_t bad_dynamic_dequantize() {
    return make_case().in(f32, {2, 3}).in(f32, {1}).out_any(f32)
            .because("f32 src (u8/s8/u4/s4 only)", "f32");
}
op_case_t bad_dynamic_quantize() {
    return make_case().in(f32, {2, 3}).in(f32, {1}).out_any(f32)
            .because("f32 dst (u8/s8 only)", "f32");
}
op_case_t bad_elu() { return io(1, 1).because("missing required alpha", "alpha"); }
op_case_t bad_elu_backward() {
    return io(3, 1).f32(dnnl_graph_op_attr_alpha, 1.f)
            .because("three inputs (exactly 2)", "inputs");
}
op_case_t bad_end() { return io(2, 0).because("two inputs (exactly 1)", "inputs"); }
op_case_t bad_exp() { return io(1, 1, s32).because("s32 (floating point only)", "s32"); }
op_case_t bad_gelu() {
    return io(1, 1).str(dnnl_graph_op_attr_mode, "bogus").because("mode not a candidate", "mode");
}
op_case_t bad_gelu_backward() {
    return make_case().in(f32, {2, 3}).in(bf16, {2, 3}).out_any(f32)
            .because("src f32 but diff_dst bf16 (one type T)", "bf16");
}
op_case_t bad_hard_swish() {
    return io(1, 1).f32(dnnl_graph_op_attr_alpha, 1.f)
            .because("undefined attribute alpha", "alpha");
}
op_case_t bad_hard_swish_backward() { return io(1, 1).because("one input (exactly 2)", "inputs"); }
op_case_t bad_interpolate() {
    return make_case().in(f32, {1, 1, 2, 2}).s64s(dnnl_graph_op_attr_sizes, {4, 4})
            .out_any(f32).because("missing required mode", "mode");
}
op_case_t bad_interpolate_backward() {
    return make_case().in(f32, {1, 1, 2, 2}).in(f32, {1, 1, 4, 4})
            .str(dnnl_graph_op_attr_mode, "cubic").s64s(dnnl_graph_op_attr_sizes, {4, 4})
            .out_any(f32).because("mode not a candidate", "mode");
}
op_case_t bad_layer_norm() {
    return make_case().in(f32, {2, 3}).in(f32, {3}).in(f32, {3}).out_any(f32)
            .because("keep_stats defaults to true but only one output", "keep_stats");
}
op_case_t bad_layer_norm_backward() {
    return make_case().in(f32, {2, 3}).in(f32, {2, 3}).in(f32, {2}).in(f32, {2})
            .in(f32, {3}).out_any(f32)
            .because("use_affine defaults to true but only one output", "use_affine");
}
op_case_t bad_leaky_relu() { return io(1, 1).because("missing required alpha", "alpha"); }
op_case_t bad_log() {
    return io(1, 1, f32, bf16).because("f32 src but bf16 dst (one type T)", "bf16");
}
op_case_t bad_log_softmax() { return io(2, 1).because("two inputs (exactly 1)", "inputs"); }
op_case_t bad_log_softmax_backward() {
    return io(2, 1).str(dnnl_graph_op_attr_mode, "none")
            .because("undefined attribute mode", "mode");
}
op_case_t bad_matmul() {
    return make_case().in(f32, {2, 3}).in(f32, {3, 2}).out_any(bf16)
            .because("dst bf16 with f32 src (dst must be src type or f32)", "bf16");
}
op_case_t bad_maximum() {
    return io(2, 1).str(dnnl_graph_op_attr_auto_broadcast, "bogus")
            .because("auto_broadcast not a candidate", "auto_broadcast");
}
op_case_t bad_max_pool() {
    return pool_ok(pool_io(1), false).b(dnnl_graph_op_attr_exclude_pad, true)
            .because("undefined attribute exclude_pad", "exclude_pad");
}
op_case_t bad_max_pool_backward() {
    return pool_ok(pool_io(2), false).str(dnnl_graph_op_attr_rounding_type, "floor")
            .because("undefined attribute rounding_type", "rounding_type");
}
op_case_t bad_minimum() { return io(3, 1).because("three inputs (exactly 2)", "inputs"); }
op_case_t bad_mish() { return io(0, 1).because("no input (exactly 1)", "inputs"); }
op_case_t bad_mish_backward() { return io(2, 1, s8).because("s8 (floating point only)", "s8"); }
op_case_t bad_multiply() { return io(2, 1, s32).because("s32 (floating point only)", "s32"); }
op_case_t bad_prelu() { return io(1, 1).because("one input (exactly 2)", "inputs"); }
op_case_t bad_prelu_backward() {
    return make_case().in(f32, {1, 2, 2}).in(f32, {2}).in(f32, {1, 2, 2}).out_any(f32)
            .because("one output (exactly 2)", "outputs");
}
op_case_t bad_quantize() { return io(1, 1, f32, u8).because("missing required scales", "scales"); }
op_case_t bad_reciprocal() { return io(1, 2).because("two outputs (exactly 1)", "outputs"); }
op_case_t bad_reduce_l1() {
    return io(1, 1).s64s(dnnl_graph_op_attr_axes, {1}).f32(dnnl_graph_op_attr_alpha, 1.f)
            .because("undefined attribute alpha", "alpha");
}
op_case_t bad_reduce_l2() {
    return io(1, 1, s32).s64s(dnnl_graph_op_attr_axes, {1}).because("s32 src (FP only)", "s32");
}
op_case_t bad_reduce_max() {
    return io(1, 0).s64s(dnnl_graph_op_attr_axes, {1}).because("no output (exactly 1)", "outputs");
}
op_case_t bad_reduce_mean() {
    return io(1, 1).s64s(dnnl_graph_op_attr_axes, {1}).str(dnnl_graph_op_attr_qtype, "per_tensor")
            .because("undefined attribute qtype", "qtype");
}
op_case_t bad_reduce_min() {
    return io(1, 1, u8).s64s(dnnl_graph_op_attr_axes, {1}).because("u8 src (FP only)", "u8");
}
op_case_t bad_reduce_prod() {
    return io(3, 1).s64s(dnnl_graph_op_attr_axes, {1}).because("three inputs (1 or 2)", "inputs");
}
op_case_t bad_reduce_sum() {
    return io(1, 1, f32, f16).s64s(dnnl_graph_op_attr_axes, {1})
            .because("f32 src but f16 dst (one type T)", "f32");
}
op_case_t bad_relu() {
    return io(1, 1).f32(dnnl_graph_op_attr_alpha, 0.f)
            .because("undefined attribute alpha", "alpha");
}
op_case_t bad_relu_backward() { return io(3, 1).because("three inputs (exactly 2)", "inputs"); }
op_case_t bad_reorder() { return io(1, 1, f32, bf16).because("dtype change (one type T)", "bf16"); }
op_case_t bad_round() { return io(2, 1).because("two inputs (exactly 1)", "inputs"); }
op_case_t bad_sigmoid() { return io(1, 1, s32).because("s32 (floating point only)", "s32"); }
op_case_t bad_sigmoid_backward() {
    return make_case().in(f16, {2, 3}).in(f32, {2, 3}).out_any(f16)
            .because("f16 and f32 inputs (one type T)", "f32");
}
op_case_t bad_softmax() {
    return io(1, 1).str(dnnl_graph_op_attr_mode, "bogus").because("mode not a candidate", "mode");
}
op_case_t bad_softmax_backward() { return io(3, 1).because("three inputs (exactly 2)", "inputs"); }
op_case_t bad_softplus() { return io(1, 2).because("two outputs (exactly 1)", "outputs"); }
op_case_t bad_softplus_backward() {
    return io(2, 1).f32(dnnl_graph_op_attr_alpha, 1.f)
            .because("undefined attribute alpha", "alpha");
}
op_case_t bad_sqrt() { return io(1, 1, u8).because("u8 (floating point only)", "u8"); }
op_case_t bad_sqrt_backward() { return io(1, 1).because("one input (exactly 2)", "inputs"); }
op_case_t bad_square() {
    return io(1, 1).f32(dnnl_graph_op_attr_beta, 2.f).because("undefined attribute beta", "beta");
}
op_case_t bad_squared_difference() {
    return make_case().in(f32, {2, 3}).in(bf16, {2, 3}).out_any(f32)
            .because("f32 and bf16 inputs (one type T)", "bf16");
}
op_case_t bad_static_reshape() {
    return io(1, 1).s64s(dnnl_graph_op_attr_shape, {3, 2})
            .because("missing required special_zero", "special_zero");
}
op_case_t bad_static_transpose() { return io(1, 1).because("missing required order", "order"); }
op_case_t bad_subtract() { return io(2, 1, s8).because("s8 inputs (f32/bf16/f16/s32 only)", "s8"); }
op_case_t bad_tanh() { return io(1, 0).because("no output (exactly 1)", "outputs"); }
op_case_t bad_tanh_backward() {
    return io(2, 1).f32(dnnl_graph_op_attr_alpha, 1.f)
            .because("undefined attribute alpha", "alpha");
}
op_case_t bad_type_cast() {
    return io(1, 1, bf16, f16).because("bf16 -> f16 is not an allowed cast", "f16");
}
op_case_t bad_wildcard() {
    return io(1, 1).f32(dnnl_graph_op_attr_alpha, 1.f)
            .because("Wildcard accepts no attribute", "alpha");
}
op_case_t bad_hard_sigmoid() {
    return io(1, 1).f32(dnnl_graph_op_attr_alpha, 0.2f).because("missing required beta", "beta");
}
op_case_t bad_hard_sigmoid_backward() {
    return io(2, 1).f32(dnnl_graph_op_attr_beta, 0.5f).because("missing required alpha", "alpha");
}
op_case_t bad_select() {
    return make_case().in(f32, {2, 3}).in(f32, {2, 3}).in(f32, {2, 3}).out_any(f32)
            .because("f32 cond (boolean only)", "f32");
}
op_case_t bad_pow() { return io(1, 1).because("missing required beta", "beta"); }
op_case_t bad_group_norm() {
    return make_case().in(f32, {1, 2, 4}).in(f32, {4}).in(f32, {4})
            .out_any(f32).out_any(f32).out_any(f32).because("missing required groups", "groups");
}
op_case_t bad_gen_index() { return io(1, 1, f32, s32).because("missing required axis", "axis"); }
op_case_t bad_greater_equal() {
    return io(2, 1, f32, f32).because("f32 dst (boolean only)", "f32");
}
// clang-format on

namespace {

std::vector<op_case_t> all_bad() {
    std::vector<op_case_t> v;
#define LLGA_OP(suffix, json, family) \
    { \
        op_case_t c = bad_##suffix(); \
        c.kind = dnnl_graph_op_##suffix; \
        c.name = #json; \
        v.push_back(c); \
    }
#include "ops/ops.def"
#undef LLGA_OP
    return v;
}

dnnl_graph_logical_tensor_t lt_of(size_t id, const tensor_t &t) {
    dnnl_graph_logical_tensor_t lt;
    if (!t.known) {
        EXPECT_EQ(dnnl_graph_logical_tensor_init(&lt, id, t.dt, DNNL_GRAPH_UNKNOWN_NDIMS,
                          dnnl_graph_layout_type_any, dnnl_graph_tensor_property_undef),
                dnnl_success);
        return lt;
    }
    dnnl_dims_t d = {0};
    for (size_t k = 0; k < t.dims.size(); ++k)
        d[k] = t.dims[k];
    EXPECT_EQ(dnnl_graph_logical_tensor_init_with_dims(&lt, id, t.dt,
                      int32_t(t.dims.size()), d, dnnl_graph_layout_type_strided,
                      dnnl_graph_tensor_property_undef),
            dnnl_success);
    return lt;
}

class SchemaViolations : public ::testing::TestWithParam<op_case_t> {};

TEST_P(SchemaViolations, AddOpRejects) {
    const op_case_t &c = GetParam();
    const size_t op_id = 7000 + size_t(c.kind);
    dnnl_graph_graph_t g = nullptr;
    ASSERT_EQ(dnnl_graph_graph_create(&g, dnnl_cpu), dnnl_success);
    dnnl_graph_op_t op = nullptr;
    ASSERT_EQ(dnnl_graph_op_create(&op, op_id, c.kind, "invalid"), dnnl_success);
    for (size_t k = 0; k < c.ins.size(); ++k) {
        auto t = lt_of(1 + k, c.ins[k]);
        ASSERT_EQ(dnnl_graph_op_add_input(op, &t), dnnl_success);
    }
    for (size_t k = 0; k < c.outs.size(); ++k) {
        auto t = lt_of(100 + k, c.outs[k]);
        ASSERT_EQ(dnnl_graph_op_add_output(op, &t), dnnl_success);
    }
    for (const auto &a : c.attrs) {
        const dnnl_status_t st = set_attr(op, a);
        ASSERT_EQ(st, dnnl_success) << "setting attributes must succeed; add_op rejects";
    }
    EXPECT_EQ(dnnl_graph_add_op(g, op), dnnl_invalid_graph_op) << "invalid: " << c.why;
    const std::string msg = llga_last_error_message();
    EXPECT_NE(msg.find("op " + std::to_string(op_id)), std::string::npos)
            << "message must name the op id: " << msg;
    EXPECT_NE(msg.find(c.hint), std::string::npos)
            << "message should point at the violation (" << c.hint << "): " << msg;
    dnnl_graph_op_destroy(op);
    // The graph is unchanged: finalizing the empty graph yields no partition.
    ASSERT_EQ(dnnl_graph_graph_finalize(g), dnnl_success);
    ASSERT_EQ(dnnl_graph_graph_filter(g, dnnl_graph_partition_policy_fusion), dnnl_success);
    size_t np = 99;
    EXPECT_EQ(dnnl_graph_graph_get_partition_num(g, &np), dnnl_success);
    EXPECT_EQ(np, 0u);
    dnnl_graph_graph_destroy(g);
}

std::string bad_name(const ::testing::TestParamInfo<op_case_t> &info) {
    std::ostringstream os;
    os << (info.index < 10 ? "0" : "") << info.index << "_" << info.param.name;
    return os.str();
}

INSTANTIATE_TEST_SUITE_P(Conformance, SchemaViolations, ::testing::ValuesIn(all_bad()),
        bad_name);

TEST(SchemaViolationsCoverage, EveryKindHasAnInvalidCase) {
    const auto v = all_bad();
    ASSERT_EQ(v.size(), size_t(dnnl_graph_op_last_symbol));
    for (size_t k = 0; k < v.size(); ++k) {
        EXPECT_EQ(int(v[k].kind), int(k)) << v[k].name;
        EXPECT_FALSE(v[k].why.empty()) << v[k].name << " must say what is invalid";
        EXPECT_FALSE(v[k].hint.empty()) << v[k].name;
    }
}

} // namespace
