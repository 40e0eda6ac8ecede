// SPDX-License-Identifier: Apache-2.0
// tests/ocl/ocl_eltwise_binary_test.cpp — the eltwise and binary kernel
// families against the reference: every unary op forward and backward,
// every binary op with numpy broadcast, Select and BiasAdd, on shapes with
// tails and odd (non-dense) strides, in f32 and 16-bit storage.
#include "ocl_test_util.hpp"

namespace llga {
namespace ocl_test {
namespace {

using ir::attr_value_t;

struct unary_case_t {
    op_kind_t kind;
    float lo, hi;
    std::vector<std::pair<attr_id_t, attr_value_t>> attrs;
};

std::vector<unary_case_t> unary_cases() {
    return {
            {dnnl_graph_op_abs, -3, 3, {}},
            {dnnl_graph_op_clamp, -3, 3,
                    {{dnnl_graph_op_attr_min, attr_value_t::make_f32(-0.5f)},
                            {dnnl_graph_op_attr_max,
                                    attr_value_t::make_f32(1.25f)}}},
            {dnnl_graph_op_elu, -3, 3,
                    {{dnnl_graph_op_attr_alpha, attr_value_t::make_f32(0.7f)}}},
            {dnnl_graph_op_exp, -3, 3, {}},
            {dnnl_graph_op_gelu, -3, 3, {}},
            {dnnl_graph_op_gelu, -3, 3,
                    {{dnnl_graph_op_attr_mode,
                            attr_value_t::make_str("gelu_tanh")}}},
            {dnnl_graph_op_hard_sigmoid, -4, 4,
                    {{dnnl_graph_op_attr_alpha, attr_value_t::make_f32(0.2f)},
                            {dnnl_graph_op_attr_beta,
                                    attr_value_t::make_f32(0.5f)}}},
            {dnnl_graph_op_hard_swish, -5, 5, {}},
            {dnnl_graph_op_leaky_relu, -3, 3,
                    {{dnnl_graph_op_attr_alpha, attr_value_t::make_f32(0.1f)}}},
            {dnnl_graph_op_log, 0.1f, 5, {}},
            {dnnl_graph_op_mish, -3, 3, {}},
            {dnnl_graph_op_pow, 0.1f, 3,
                    {{dnnl_graph_op_attr_beta, attr_value_t::make_f32(1.5f)}}},
            {dnnl_graph_op_reciprocal, 0.5f, 3, {}},
            {dnnl_graph_op_relu, -3, 3, {}},
            {dnnl_graph_op_round, -3, 3, {}},
            {dnnl_graph_op_sigmoid, -5, 5, {}},
            {dnnl_graph_op_softplus, -3, 3,
                    {{dnnl_graph_op_attr_beta, attr_value_t::make_f32(2.f)}}},
            {dnnl_graph_op_sqrt, 0, 4, {}},
            {dnnl_graph_op_square, -3, 3, {}},
            {dnnl_graph_op_tanh, -3, 3, {}},
    };
}

TEST(OclEltwise, EveryUnaryOpF32OddStrides) {
    LLGA_NEED_GPU();
    uint32_t seed = 1;
    for (const auto &c : unary_cases()) {
        const dims_t dims = {3, 5, 17};
        ir::op_t op = make_op(c.kind, {make_t(1, dnnl_f32, dims, true)},
                c.attrs, dnnl_f32, 2, false);
        SCOPED_TRACE(ops::op_kind_name(c.kind));
        EXPECT_EQ(run_and_compare({op}, seed++, c.lo, c.hi), dnnl_success)
                << llga_last_error_message();
    }
}

TEST(OclEltwise, HalfTypesStoredComputedInF32) {
    LLGA_NEED_GPU();
    for (data_type_t dt : {dnnl_bf16, dnnl_f16})
        for (op_kind_t k : {dnnl_graph_op_relu, dnnl_graph_op_gelu,
                     dnnl_graph_op_sigmoid}) {
            ir::op_t op = make_op(k, {make_t(1, dt, {7, 33})}, {}, dt, 2, true);
            EXPECT_EQ(run_and_compare({op}, 7), dnnl_success)
                    << llga_last_error_message();
        }
}

TEST(OclEltwise, EveryBackwardOp) {
    LLGA_NEED_GPU();
    struct bcase_t {
        op_kind_t kind;
        float lo, hi;
        bool use_dst;
    };
    const std::vector<bcase_t> cases = {
            {dnnl_graph_op_abs_backward, -3, 3, false},
            {dnnl_graph_op_clamp_backward, -3, 3, true},
            {dnnl_graph_op_elu_backward, -3, 3, true},
            {dnnl_graph_op_elu_backward, -3, 3, false},
            {dnnl_graph_op_gelu_backward, -3, 3, false},
            {dnnl_graph_op_hard_sigmoid_backward, -4, 4, false},
            {dnnl_graph_op_hard_swish_backward, -5, 5, false},
            {dnnl_graph_op_mish_backward, -3, 3, false},
            {dnnl_graph_op_relu_backward, -3, 3, true},
            {dnnl_graph_op_sigmoid_backward, 0.05f, 0.95f, true},
            {dnnl_graph_op_sigmoid_backward, -3, 3, false},
            {dnnl_graph_op_softplus_backward, -3, 3, false},
            {dnnl_graph_op_sqrt_backward, 0.5f, 4, true},
            {dnnl_graph_op_tanh_backward, -0.9f, 0.9f, true},
            {dnnl_graph_op_tanh_backward, -3, 3, false},
    };
    uint32_t seed = 100;
    for (const auto &c : cases) {
        std::vector<std::pair<attr_id_t, attr_value_t>> attrs;
        if (c.kind == dnnl_graph_op_clamp_backward) {
            attrs.push_back({dnnl_graph_op_attr_min, attr_value_t::make_f32(-1)});
            attrs.push_back({dnnl_graph_op_attr_max, attr_value_t::make_f32(1)});
        }
        if (c.kind == dnnl_graph_op_elu_backward)
            attrs.push_back({dnnl_graph_op_attr_alpha, attr_value_t::make_f32(0.5f)});
        if (c.kind == dnnl_graph_op_hard_sigmoid_backward) {
            attrs.push_back({dnnl_graph_op_attr_alpha, attr_value_t::make_f32(0.2f)});
            attrs.push_back({dnnl_graph_op_attr_beta, attr_value_t::make_f32(0.5f)});
        }
        if (c.kind == dnnl_graph_op_elu_backward
                || c.kind == dnnl_graph_op_sigmoid_backward
                || c.kind == dnnl_graph_op_tanh_backward
                || c.kind == dnnl_graph_op_sqrt_backward
                || c.kind == dnnl_graph_op_clamp_backward
                || c.kind == dnnl_graph_op_relu_backward)
            attrs.push_back({dnnl_graph_op_attr_use_dst,
                    attr_value_t::make_bool(c.use_dst)});
        const dims_t dims = {4, 19};
        ir::op_t op = make_op(c.kind,
                {make_t(1, dnnl_f32, dims, true), make_t(2, dnnl_f32, dims)},
                attrs, dnnl_f32, 3);
        SCOPED_TRACE(ops::op_kind_name(c.kind));
        EXPECT_EQ(run_and_compare({op}, seed++, c.lo, c.hi), dnnl_success)
                << llga_last_error_message();
    }
}

TEST(OclBinary, EveryOpWithBroadcast) {
    LLGA_NEED_GPU();
    uint32_t seed = 200;
    for (op_kind_t k : {dnnl_graph_op_add, dnnl_graph_op_subtract,
                 dnnl_graph_op_multiply, dnnl_graph_op_divide,
                 dnnl_graph_op_maximum, dnnl_graph_op_minimum,
                 dnnl_graph_op_squared_difference}) {
        // a: 2x1x5x9 (odd strides), b: 3x1x9 -> 2x3x5x9
        ir::op_t op = make_op(k,
                {make_t(1, dnnl_f32, {2, 1, 5, 9}, true),
                        make_t(2, dnnl_f32, {3, 1, 9})},
                {}, dnnl_f32, 3, true);
        SCOPED_TRACE(ops::op_kind_name(k));
        EXPECT_EQ(run_and_compare({op}, seed++, 0.5f, 3.f), dnnl_success)
                << llga_last_error_message();
    }
}

TEST(OclBinary, MixedTypesAndGreaterEqual) {
    LLGA_NEED_GPU();
    ir::op_t add = make_op(dnnl_graph_op_add,
            {make_t(1, dnnl_bf16, {6, 13}), make_t(2, dnnl_bf16, {13})}, {},
            dnnl_bf16, 3);
    EXPECT_EQ(run_and_compare({add}, 11), dnnl_success)
            << llga_last_error_message();
    ir::op_t ge = make_op(dnnl_graph_op_greater_equal,
            {make_t(1, dnnl_f32, {6, 13}), make_t(2, dnnl_f32, {6, 1})}, {},
            dnnl_boolean, 3);
    EXPECT_EQ(run_and_compare({ge}, 12), dnnl_success)
            << llga_last_error_message();
}

TEST(OclBinary, SelectBroadcastsAllThree) {
    LLGA_NEED_GPU();
    ir::op_t op = make_op(dnnl_graph_op_select,
            {make_t(1, dnnl_boolean, {1, 7}), make_t(2, dnnl_f32, {5, 7}, true),
                    make_t(3, dnnl_f32, {5, 1})},
            {}, dnnl_f32, 4);
    EXPECT_EQ(run_and_compare({op}, 13, 0.f, 1.5f), dnnl_success)
            << llga_last_error_message();
}

TEST(OclBinary, BiasAddBothFormats) {
    LLGA_NEED_GPU();
    for (const char *fmt : {"NCX", "NXC"}) {
        const bool ncx = std::string(fmt) == "NCX";
        const dims_t dims = ncx ? dims_t {2, 6, 5, 3} : dims_t {2, 5, 3, 6};
        ir::op_t op = make_op(dnnl_graph_op_bias_add,
                {make_t(1, dnnl_f32, dims, true), make_t(2, dnnl_f32, {6})},
                {{dnnl_graph_op_attr_data_format, attr_value_t::make_str(fmt)}},
                dnnl_f32, 3);
        SCOPED_TRACE(fmt);
        EXPECT_EQ(run_and_compare({op}, 14), dnnl_success)
                << llga_last_error_message();
    }
}

TEST(OclBinary, PReLUPerChannelAndRightAligned) {
    LLGA_NEED_GPU();
    ir::op_t pc = make_op(dnnl_graph_op_prelu,
            {make_t(1, dnnl_f32, {2, 5, 4, 3}, true), make_t(2, dnnl_f32, {5})},
            {{dnnl_graph_op_attr_data_format, attr_value_t::make_str("NCX")},
                    {dnnl_graph_op_attr_per_channel_broadcast,
                            attr_value_t::make_bool(true)}},
            dnnl_f32, 3);
    EXPECT_EQ(run_and_compare({pc}, 15), dnnl_success)
            << llga_last_error_message();
    ir::op_t ra = make_op(dnnl_graph_op_prelu,
            {make_t(1, dnnl_f32, {2, 5, 4, 3}), make_t(2, dnnl_f32, {4, 1})},
            {{dnnl_graph_op_attr_per_channel_broadcast,
                    attr_value_t::make_bool(false)}},
            dnnl_f32, 3, true);
    EXPECT_EQ(run_and_compare({ra}, 16), dnnl_success)
            << llga_last_error_message();
}

TEST(OclBinary, HostScalarOperandByValue) {
    LLGA_NEED_GPU();
    logical_tensor_t sc = make_t(2, dnnl_s32, {});
    sc.property = dnnl_graph_tensor_property_host_scalar;
    ir::op_t op = make_op(dnnl_graph_op_subtract,
            {make_t(1, dnnl_s32, {3, 7}, true), sc}, {}, dnnl_s32, 3);
    EXPECT_EQ(run_and_compare({op}, 18, -50.f, 50.f), dnnl_success)
            << llga_last_error_message();
}

TEST(OclBinary, GenIndexAlongEachAxis) {
    LLGA_NEED_GPU();
    for (int64_t axis : {0, 2}) {
        ir::op_t op = make_op(dnnl_graph_op_gen_index,
                {make_t(1, dnnl_f32, {3, 4, 5})},
                {{dnnl_graph_op_attr_axis, attr_value_t::make_s64(axis)}},
                dnnl_s32, 2, true);
        EXPECT_EQ(run_and_compare({op}, 17), dnnl_success)
                << llga_last_error_message();
    }
}

} // namespace
} // namespace ocl_test
} // namespace llga
