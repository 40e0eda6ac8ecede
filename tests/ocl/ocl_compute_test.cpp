// SPDX-License-Identifier: Apache-2.0
// tests/ocl/ocl_compute_test.cpp — MatMul, Convolution and SoftMax kernels
// against the reference on shapes with tails, odd strides, broadcast batch
// dims, transposes, groups, strides, dilations and padding; and partitions
// of several ops composed by the executor with intermediate buffers.
#include "ocl_test_util.hpp"

namespace llga {
namespace ocl_test {
namespace {

using ir::attr_value_t;

TEST(OclMatMul, BatchBroadcastTransposesBias) {
    LLGA_NEED_GPU();
    uint32_t seed = 400;
    for (bool ta : {false, true})
        for (bool tb : {false, true}) {
            const dims_t ad = ta ? dims_t {2, 1, 13, 7} : dims_t {2, 1, 7, 13};
            const dims_t bd = tb ? dims_t {3, 9, 13} : dims_t {3, 13, 9};
            ir::op_t op = make_op(dnnl_graph_op_matmul,
                    {make_t(1, dnnl_f32, ad, true), make_t(2, dnnl_f32, bd),
                            make_t(3, dnnl_f32, {9})},
                    {{dnnl_graph_op_attr_transpose_a,
                             attr_value_t::make_bool(ta)},
                            {dnnl_graph_op_attr_transpose_b,
                                    attr_value_t::make_bool(tb)}},
                    dnnl_f32, 4, true);
            SCOPED_TRACE(std::to_string(ta) + std::to_string(tb));
            EXPECT_EQ(run_and_compare({op}, seed++), dnnl_success)
                    << llga_last_error_message();
        }
}

TEST(OclMatMul, VectorsAndHalfTypes) {
    LLGA_NEED_GPU();
    ir::op_t mv = make_op(dnnl_graph_op_matmul,
            {make_t(1, dnnl_f32, {5, 17}), make_t(2, dnnl_f32, {17})}, {},
            dnnl_f32, 3);
    EXPECT_EQ(run_and_compare({mv}, 410), dnnl_success)
            << llga_last_error_message();
    ir::op_t vm = make_op(dnnl_graph_op_matmul,
            {make_t(1, dnnl_f32, {17}), make_t(2, dnnl_f32, {2, 17, 3})}, {},
            dnnl_f32, 3);
    EXPECT_EQ(run_and_compare({vm}, 411), dnnl_success)
            << llga_last_error_message();
    ir::op_t h = make_op(dnnl_graph_op_matmul,
            {make_t(1, dnnl_bf16, {9, 33}), make_t(2, dnnl_bf16, {33, 10})},
            {}, dnnl_bf16, 3);
    EXPECT_EQ(run_and_compare({h}, 412), dnnl_success)
            << llga_last_error_message();
}

ir::op_t conv(const dims_t &x, const dims_t &w, bool bias, const char *df,
        const char *wf, std::vector<int64_t> s, std::vector<int64_t> d,
        std::vector<int64_t> pb, std::vector<int64_t> pe, int64_t groups,
        bool odd, data_type_t dt = dnnl_f32) {
    std::vector<logical_tensor_t> in = {
            make_t(1, dt, x, odd), make_t(2, dt, w)};
    if (bias) {
        const int64_t oc = std::string(wf) == "OIX" ? w[0] : w.back();
        in.push_back(make_t(3, dt, {oc}));
    }
    return make_op(dnnl_graph_op_convolution, in,
            {{dnnl_graph_op_attr_strides, attr_value_t::make_s64s(s)},
                    {dnnl_graph_op_attr_dilations, attr_value_t::make_s64s(d)},
                    {dnnl_graph_op_attr_pads_begin,
                            attr_value_t::make_s64s(pb)},
                    {dnnl_graph_op_attr_pads_end, attr_value_t::make_s64s(pe)},
                    {dnnl_graph_op_attr_groups,
                            attr_value_t::make_s64(groups)},
                    {dnnl_graph_op_attr_data_format,
                            attr_value_t::make_str(df)},
                    {dnnl_graph_op_attr_weights_format,
                            attr_value_t::make_str(wf)}},
            dt, 10, odd);
}

TEST(OclConv, FormatsGroupsStridesDilationsPads) {
    LLGA_NEED_GPU();
    // NCX/OIX 2-D, strided, padded, with bias.
    EXPECT_EQ(run_and_compare({conv({2, 3, 9, 11}, {5, 3, 3, 3}, true, "NCX",
                                      "OIX", {2, 1}, {1, 1}, {1, 0}, {1, 2}, 1,
                                      true)},
                      500),
            dnnl_success)
            << llga_last_error_message();
    // NXC/XIO 2-D, grouped, dilated.
    EXPECT_EQ(run_and_compare({conv({1, 10, 9, 4}, {3, 3, 2, 6}, true, "NXC",
                                      "XIO", {1, 1}, {2, 2}, {2, 2}, {2, 2}, 2,
                                      false)},
                      501),
            dnnl_success)
            << llga_last_error_message();
    // 1-D depthwise and 3-D, no bias.
    EXPECT_EQ(run_and_compare({conv({2, 4, 13}, {4, 1, 3}, false, "NCX", "OIX",
                                      {1}, {1}, {1}, {1}, 4, true)},
                      502),
            dnnl_success)
            << llga_last_error_message();
    EXPECT_EQ(run_and_compare({conv({1, 2, 5, 6, 7}, {3, 2, 2, 3, 2}, false,
                                      "NCX", "OIX", {1, 2, 1}, {1, 1, 2},
                                      {0, 1, 1}, {1, 0, 0}, 1, false)},
                      503),
            dnnl_success)
            << llga_last_error_message();
}

TEST(OclConv, HalfStorage) {
    LLGA_NEED_GPU();
    for (data_type_t dt : {dnnl_bf16, dnnl_f16})
        EXPECT_EQ(run_and_compare({conv({1, 8, 7, 7}, {4, 8, 3, 3}, true,
                                          "NCX", "OIX", {1, 1}, {1, 1},
                                          {1, 1}, {1, 1}, 1, false, dt)},
                          504, -1.f, 1.f),
                dnnl_success)
                << llga_last_error_message();
}

std::vector<std::pair<attr_id_t, attr_value_t>> conv_attrs(
        std::vector<int64_t> s, std::vector<int64_t> d, std::vector<int64_t> pb,
        std::vector<int64_t> pe, int64_t groups, const char *df,
        const char *wf) {
    return {{dnnl_graph_op_attr_strides, attr_value_t::make_s64s(s)},
            {dnnl_graph_op_attr_dilations, attr_value_t::make_s64s(d)},
            {dnnl_graph_op_attr_pads_begin, attr_value_t::make_s64s(pb)},
            {dnnl_graph_op_attr_pads_end, attr_value_t::make_s64s(pe)},
            {dnnl_graph_op_attr_groups, attr_value_t::make_s64(groups)},
            {dnnl_graph_op_attr_data_format, attr_value_t::make_str(df)},
            {dnnl_graph_op_attr_weights_format, attr_value_t::make_str(wf)}};
}

TEST(OclConv, BackwardDataWeightsAndTransposed) {
    LLGA_NEED_GPU();
    // Backward data: diff_dst 2x6x5x6 (NCX), weights 6x2x3x3 (groups 2:
    // 4 input channels) -> diff_src 2x4x10x11, stride 2, dilation 1.
    auto a = conv_attrs({2, 2}, {1, 1}, {1, 1}, {1, 1}, 2, "NCX", "OIX");
    a.push_back({dnnl_graph_op_attr_dst_shape,
            attr_value_t::make_s64s({2, 4, 10, 11})});
    ir::op_t bd = make_op(dnnl_graph_op_convolution_backward_data,
            {make_t(1, dnnl_f32, {2, 6, 5, 6}, true),
                    make_t(2, dnnl_f32, {6, 2, 3, 3})},
            a, dnnl_f32, 3, true);
    EXPECT_EQ(run_and_compare({bd}, 520), dnnl_success)
            << llga_last_error_message();
    // Backward weights, NXC / XIO, dilated.
    auto b = conv_attrs({1, 1}, {2, 1}, {2, 0}, {2, 1}, 1, "NXC", "XIO");
    b.push_back({dnnl_graph_op_attr_weights_shape,
            attr_value_t::make_s64s({3, 2, 3, 5})});
    ir::op_t bw = make_op(dnnl_graph_op_convolution_backward_weights,
            {make_t(1, dnnl_f32, {2, 7, 6, 3}, true),
                    make_t(2, dnnl_f32, {2, 7, 6, 5})},
            b, dnnl_f32, 3, true);
    EXPECT_EQ(run_and_compare({bw}, 521), dnnl_success)
            << llga_last_error_message();
    // ConvTranspose with bias, stride 2 and output padding.
    auto c = conv_attrs({2, 2}, {1, 1}, {0, 1}, {0, 1}, 1, "NCX", "IOX");
    c.push_back({dnnl_graph_op_attr_output_padding,
            attr_value_t::make_s64s({1, 0})});
    ir::op_t ct = make_op(dnnl_graph_op_conv_transpose,
            {make_t(1, dnnl_f32, {1, 3, 4, 5}), make_t(2, dnnl_f32, {3, 4, 3, 3}),
                    make_t(3, dnnl_f32, {4})},
            c, dnnl_f32, 4, true);
    EXPECT_EQ(run_and_compare({ct}, 522), dnnl_success)
            << llga_last_error_message();
}

TEST(OclSoftmax, EveryAxisBothKinds) {
    LLGA_NEED_GPU();
    uint32_t seed = 600;
    for (op_kind_t k : {dnnl_graph_op_softmax, dnnl_graph_op_log_softmax})
        for (int64_t axis : {0, 1, -1}) {
            ir::op_t op = make_op(k, {make_t(1, dnnl_f32, {3, 10, 7}, true)},
                    {{dnnl_graph_op_attr_axis, attr_value_t::make_s64(axis)}},
                    dnnl_f32, 2, true);
            EXPECT_EQ(run_and_compare({op}, seed++, -5.f, 5.f), dnnl_success)
                    << llga_last_error_message();
        }
}

TEST(OclSoftmax, StatsAndBackward) {
    LLGA_NEED_GPU();
    ir::op_t f = make_op(dnnl_graph_op_softmax,
            {make_t(1, dnnl_f32, {4, 9, 5})},
            {{dnnl_graph_op_attr_axis, attr_value_t::make_s64(1)}}, dnnl_f32,
            2, true, 2);
    EXPECT_EQ(run_and_compare({f}, 610, -5.f, 5.f), dnnl_success)
            << llga_last_error_message();
    for (op_kind_t k : {dnnl_graph_op_softmax_backward,
                 dnnl_graph_op_log_softmax_backward}) {
        ir::op_t b = make_op(k,
                {make_t(1, dnnl_f32, {6, 11}, true),
                        make_t(2, dnnl_f32, {6, 11})},
                {{dnnl_graph_op_attr_axis, attr_value_t::make_s64(-1)}},
                dnnl_f32, 3);
        EXPECT_EQ(run_and_compare({b}, 611, -1.f, 1.f), dnnl_success)
                << llga_last_error_message();
    }
}

// Conv -> BiasAdd -> ReLU -> MatMul-free chain: the executor composes the
// per-op kernels in order, intermediates in device scratch memory.
TEST(OclPartition, ComposesOpsWithIntermediates) {
    LLGA_NEED_GPU();
    ir::op_t c = conv({1, 3, 8, 8}, {4, 3, 3, 3}, false, "NCX", "OIX", {1, 1},
            {1, 1}, {1, 1}, {1, 1}, 1, false);
    ir::op_t b = make_op(dnnl_graph_op_bias_add,
            {c.outputs[0], make_t(20, dnnl_f32, {4})},
            {{dnnl_graph_op_attr_data_format, attr_value_t::make_str("NCX")}},
            dnnl_f32, 21);
    ir::op_t r = make_op(dnnl_graph_op_relu, {b.outputs[0]}, {}, dnnl_f32, 22);
    ir::op_t t = make_op(dnnl_graph_op_type_cast, {r.outputs[0]}, {},
            dnnl_bf16, 23, true);
    EXPECT_EQ(run_and_compare({c, b, r, t}, 700), dnnl_success)
            << llga_last_error_message();
}

} // namespace
} // namespace ocl_test
} // namespace llga
