// SPDX-License-Identifier: Apache-2.0
// tests/ocl/ocl_norm_bwd_test.cpp — the OpenCL kernels of
// BatchNormTrainingBackward, LayerNormBackward, GroupNorm and PReLUBackward
// against the reference: f32, bf16 and f16 data, odd strides, tails, both
// data formats, with and without gamma/beta and statistics outputs, every
// attribute value, and chains where a forward op's statistics feed the
// backward op.
#include "ocl_test_util.hpp"

#include "ir/shape.hpp"

namespace llga {
namespace ocl_test {
namespace {

using ir::attr_value_t;
using attrs_t = std::vector<std::pair<attr_id_t, attr_value_t>>;

// make_op with one dtype per output (data and statistics may differ).
ir::op_t make_op_dts(op_kind_t kind, std::vector<logical_tensor_t> inputs,
        const attrs_t &attrs, const std::vector<data_type_t> &out_dts,
        size_t out_id, bool odd_out) {
    ir::op_t op;
    op.kind = kind;
    op.id = out_id;
    op.inputs = std::move(inputs);
    for (const auto &a : attrs)
        op.set_attr(a.first, a.second);
    for (size_t k = 0; k < out_dts.size(); ++k)
        op.outputs.push_back(ir::make_lt_unknown(out_id + k, out_dts[k]));
    EXPECT_EQ(ops::verify_op(op), dnnl_success) << llga_last_error_message();
    EXPECT_EQ(ops::infer_shapes(op), dnnl_success) << llga_last_error_message();
    for (auto &o : op.outputs)
        o = make_t(o.id, o.data_type, ir::dims_of(o), odd_out);
    return op;
}

attr_value_t str(const char *s) { return attr_value_t::make_str(s); }

// ---- BatchNormTrainingBackward --------------------------------------------

struct bn_case_t {
    const char *fmt;
    data_type_t dt, st; // data, statistics
    dims_t dims;
    bool odd, gamma;
    size_t nout;
    float eps;
};

TEST(OclNormBwd, BatchNormBackwardEveryVariant) {
    LLGA_NEED_GPU();
    const std::vector<bn_case_t> cases = {
            {"NCX", dnnl_f32, dnnl_f32, {2, 6, 5, 3}, true, true, 3, 1e-3f},
            {"NXC", dnnl_f32, dnnl_f32, {2, 5, 3, 6}, true, false, 1, 0.f},
            {"NCX", dnnl_f32, dnnl_f32, {3, 7, 2, 3, 5}, false, true, 2,
                    0.0625f},
            {"NXC", dnnl_f32, dnnl_f32, {1, 3, 4, 7}, true, false, 3, 1e-5f},
            {"NXC", dnnl_bf16, dnnl_bf16, {2, 3, 5, 9}, true, true, 3, 1e-2f},
            {"NCX", dnnl_bf16, dnnl_f32, {2, 9, 3, 5}, false, true, 1, 1e-2f},
            {"NCX", dnnl_f16, dnnl_f32, {2, 5, 7, 3}, true, true, 3, 1e-3f},
    };
    uint32_t seed = 900;
    for (const bn_case_t &c : cases) {
        const bool ncx = std::string(c.fmt) == "NCX";
        const int64_t ch = c.dims[ncx ? 1 : c.dims.size() - 1];
        std::vector<logical_tensor_t> in = {make_t(1, c.dt, c.dims, c.odd),
                make_t(2, c.dt, c.dims, !c.odd), make_t(3, c.st, {ch}),
                make_t(4, c.st, {ch})};
        if (c.gamma) in.push_back(make_t(5, c.st, {ch}));
        std::vector<data_type_t> outs = {c.dt};
        while (outs.size() < c.nout)
            outs.push_back(c.st);
        ir::op_t op = make_op_dts(dnnl_graph_op_batch_norm_backward, in,
                {{dnnl_graph_op_attr_epsilon, attr_value_t::make_f32(c.eps)},
                        {dnnl_graph_op_attr_data_format, str(c.fmt)}},
                outs, 10, c.odd);
        SCOPED_TRACE(::testing::Message()
                << c.fmt << " " << ir::dtype_name(c.dt) << " gamma " << c.gamma
                << " outputs " << c.nout);
        // Variances must be >= 0 (and eps may be 0): inputs in [0.1, 2).
        EXPECT_EQ(run_and_compare({op}, seed++, 0.1f, 2.f), dnnl_success)
                << llga_last_error_message();
    }
}

// BatchNormForwardTraining's batch statistics feed the backward op, so src
// has both signs and the statistics are its own.
TEST(OclNormBwd, BatchNormTrainingThenBackward) {
    LLGA_NEED_GPU();
    for (const char *fmt : {"NCX", "NXC"}) {
        const bool ncx = std::string(fmt) == "NCX";
        const dims_t dims = ncx ? dims_t {3, 4, 5, 7} : dims_t {3, 5, 7, 4};
        const attrs_t attrs
                = {{dnnl_graph_op_attr_epsilon, attr_value_t::make_f32(1e-4f)},
                        {dnnl_graph_op_attr_data_format, str(fmt)}};
        ir::op_t fwd = make_op(dnnl_graph_op_batch_norm_forward_training,
                {make_t(1, dnnl_f32, dims, true), make_t(2, dnnl_f32, {4}),
                        make_t(3, dnnl_f32, {4})},
                attrs, dnnl_f32, 10, true, 5);
        ir::op_t bwd = make_op(dnnl_graph_op_batch_norm_backward,
                {fwd.inputs[0], make_t(20, dnnl_f32, dims), fwd.outputs[3],
                        fwd.outputs[4], make_t(21, dnnl_f32, {4})},
                attrs, dnnl_f32, 30, true, 3);
        SCOPED_TRACE(fmt);
        // Inputs in [-2, 2): the forward's mean/variance inputs only feed
        // its running statistics, and zero-mean diff_dst keeps the sums
        // free of cancellation.
        EXPECT_EQ(run_and_compare({fwd, bwd}, 910), dnnl_success)
                << llga_last_error_message();
    }
}

// ---- LayerNormBackward ----------------------------------------------------

struct ln_case_t {
    data_type_t dt, st;
    dims_t dims;
    int64_t axis;
    bool use_affine;
    int gamma; // 0 none, 1 shaped like the normalised dims, 2 flat
    bool beta;
    size_t nout;
    bool odd;
    float eps;
    bool flat_var = false; // variance flattened to one dim (mean is not)
};

TEST(OclNormBwd, LayerNormBackwardEveryVariant) {
    LLGA_NEED_GPU();
    const std::vector<ln_case_t> cases = {
            {dnnl_f32, dnnl_f32, {3, 4, 19}, -1, true, 1, true, 3, true, 1e-5f},
            {dnnl_f32, dnnl_f32, {3, 4, 5, 3}, 2, true, 2, false, 3, true,
                    0.0625f},
            {dnnl_f32, dnnl_f32, {2, 3, 5, 7}, 1, true, 1, false, 3, false,
                    1e-3f},
            {dnnl_f32, dnnl_f32, {5, 13}, -1, false, 0, false, 1, true, 1e-5f},
            {dnnl_f32, dnnl_f32, {4, 6, 9}, -2, false, 0, false, 3, true,
                    1e-2f},
            {dnnl_f32, dnnl_f32, {3, 5, 4}, -1, false, 1, true, 3, false,
                    1e-5f},
            {dnnl_f32, dnnl_f32, {6, 11}, 0, true, 1, true, 3, true, 1e-5f},
            {dnnl_bf16, dnnl_bf16, {4, 3, 17}, -1, true, 1, true, 3, true,
                    1e-5f},
            {dnnl_bf16, dnnl_f32, {2, 5, 6}, 1, true, 2, false, 3, false,
                    1e-3f},
            {dnnl_f16, dnnl_f32, {3, 7, 9}, -1, true, 1, false, 3, true, 1e-5f},
            {dnnl_f16, dnnl_f32, {5, 3, 8}, 2, false, 0, false, 1, false,
                    1e-5f},
            {dnnl_f32, dnnl_f32, {3, 4, 6}, 2, true, 1, true, 3, true, 1e-5f,
                    true},
    };
    uint32_t seed = 920;
    for (const ln_case_t &c : cases) {
        const int r = static_cast<int>(c.dims.size());
        const int64_t a = c.axis < 0 ? c.axis + r : c.axis;
        const dims_t lead(c.dims.begin(), c.dims.begin() + a);
        dims_t norm(c.dims.begin() + a, c.dims.end());
        if (c.gamma == 2) norm = {ir::product(norm)};
        std::vector<logical_tensor_t> in = {make_t(1, c.dt, c.dims, c.odd),
                make_t(2, c.dt, c.dims, c.odd), make_t(3, c.st, lead, c.odd),
                make_t(4, c.st, c.flat_var ? dims_t {ir::product(lead)} : lead,
                        c.odd)};
        if (c.gamma) in.push_back(make_t(5, c.st, norm, c.odd));
        if (c.beta) in.push_back(make_t(6, c.st, norm));
        std::vector<data_type_t> outs = {c.dt};
        while (outs.size() < c.nout)
            outs.push_back(c.st);
        ir::op_t op = make_op_dts(dnnl_graph_op_layer_norm_backward, in,
                {{dnnl_graph_op_attr_epsilon, attr_value_t::make_f32(c.eps)},
                        {dnnl_graph_op_attr_begin_norm_axis,
                                attr_value_t::make_s64(c.axis)},
                        {dnnl_graph_op_attr_use_affine,
                                attr_value_t::make_bool(c.use_affine)}},
                outs, 10, c.odd);
        SCOPED_TRACE(::testing::Message()
                << ir::dtype_name(c.dt) << " " << ir::dims_to_string(c.dims)
                << " axis " << c.axis << " affine " << c.use_affine << " gamma "
                << c.gamma << " outputs " << c.nout);
        EXPECT_EQ(run_and_compare({op}, seed++, 0.1f, 2.f), dnnl_success)
                << llga_last_error_message();
    }
}

TEST(OclNormBwd, LayerNormThenBackward) {
    LLGA_NEED_GPU();
    const attrs_t attrs
            = {{dnnl_graph_op_attr_begin_norm_axis, attr_value_t::make_s64(1)}};
    ir::op_t fwd = make_op(dnnl_graph_op_layer_norm,
            {make_t(1, dnnl_f32, {5, 3, 7}, true), make_t(2, dnnl_f32, {3, 7}),
                    make_t(3, dnnl_f32, {3, 7})},
            attrs, dnnl_f32, 10, true, 3);
    ir::op_t bwd = make_op(dnnl_graph_op_layer_norm_backward,
            {fwd.inputs[0], make_t(20, dnnl_f32, {5, 3, 7}, true),
                    fwd.outputs[1], fwd.outputs[2], fwd.inputs[1]},
            attrs, dnnl_f32, 30, true, 3);
    EXPECT_EQ(run_and_compare({fwd, bwd}, 930), dnnl_success)
            << llga_last_error_message();
}

// ---- GroupNorm ------------------------------------------------------------

struct gn_case_t {
    const char *fmt;
    data_type_t dt, st;
    dims_t dims;
    int64_t groups;
    bool use_affine, with_params, keep_stats, odd;
    float eps;
};

TEST(OclNorm, GroupNormEveryVariant) {
    LLGA_NEED_GPU();
    const std::vector<gn_case_t> cases = {
            {"NCX", dnnl_f32, dnnl_f32, {2, 6, 5, 3}, 3, true, true, true, true,
                    1e-5f},
            {"NXC", dnnl_f32, dnnl_f32, {2, 5, 3, 6}, 2, true, true, true, true,
                    1e-3f},
            {"NCX", dnnl_f32, dnnl_f32, {3, 8, 7}, 8, false, false, false, true,
                    1e-5f},
            {"NXC", dnnl_f32, dnnl_f32, {2, 4, 3, 2, 9}, 1, false, false, true,
                    false, 0.0625f},
            {"NCX", dnnl_f32, dnnl_f32, {4, 10}, 5, true, true, false, true,
                    1e-5f},
            {"NXC", dnnl_f32, dnnl_f32, {3, 6}, 3, true, true, true, false,
                    1e-5f},
            {"NCX", dnnl_f32, dnnl_f32, {2, 4, 5}, 2, false, true, true, true,
                    1e-5f},
            {"NXC", dnnl_f32, dnnl_f32, {2, 3, 4}, 2, true, false, true, true,
                    1e-5f},
            {"NCX", dnnl_bf16, dnnl_bf16, {2, 6, 4, 5}, 3, true, true, true,
                    false, 1e-5f},
            {"NXC", dnnl_f16, dnnl_f32, {2, 3, 7, 4}, 2, true, true, true, true,
                    1e-5f},
    };
    uint32_t seed = 940;
    for (const gn_case_t &c : cases) {
        const bool ncx = std::string(c.fmt) == "NCX";
        const int64_t ch = c.dims[ncx ? 1 : c.dims.size() - 1];
        std::vector<logical_tensor_t> in = {make_t(1, c.dt, c.dims, c.odd)};
        if (c.with_params) {
            in.push_back(make_t(2, c.st, {ch}, c.odd));
            in.push_back(make_t(3, c.st, {ch}, c.odd));
        }
        std::vector<data_type_t> outs = {c.dt};
        if (c.keep_stats) outs.insert(outs.end(), {c.st, c.st});
        ir::op_t op = make_op_dts(dnnl_graph_op_group_norm, in,
                {{dnnl_graph_op_attr_epsilon, attr_value_t::make_f32(c.eps)},
                        {dnnl_graph_op_attr_groups,
                                attr_value_t::make_s64(c.groups)},
                        {dnnl_graph_op_attr_use_affine,
                                attr_value_t::make_bool(c.use_affine)},
                        {dnnl_graph_op_attr_keep_stats,
                                attr_value_t::make_bool(c.keep_stats)},
                        {dnnl_graph_op_attr_data_format, str(c.fmt)}},
                outs, 10, c.odd);
        SCOPED_TRACE(::testing::Message()
                << c.fmt << " " << ir::dtype_name(c.dt) << " "
                << ir::dims_to_string(c.dims) << " groups " << c.groups
                << " affine " << c.use_affine << " stats " << c.keep_stats);
        EXPECT_EQ(run_and_compare({op}, seed++), dnnl_success)
                << llga_last_error_message();
    }
}

// The mean and variance outputs of GroupNorm and LayerNorm each written
// through their own strides (odd mean, dense variance).
TEST(OclNorm, StatisticsOutputsWithTheirOwnStrides) {
    LLGA_NEED_GPU();
    ir::op_t gn = make_op_dts(dnnl_graph_op_group_norm,
            {make_t(1, dnnl_f32, {3, 6, 5}, true)},
            {{dnnl_graph_op_attr_groups, attr_value_t::make_s64(2)},
                    {dnnl_graph_op_attr_use_affine,
                            attr_value_t::make_bool(false)},
                    {dnnl_graph_op_attr_data_format, str("NCX")}},
            {dnnl_f32, dnnl_f32, dnnl_f32}, 10, true);
    gn.outputs[2] = make_t(12, dnnl_f32, ir::dims_of(gn.outputs[2]));
    EXPECT_EQ(run_and_compare({gn}, 950), dnnl_success)
            << llga_last_error_message();
    ir::op_t ln = make_op_dts(dnnl_graph_op_layer_norm,
            {make_t(1, dnnl_f32, {3, 4, 5}, true)},
            {{dnnl_graph_op_attr_begin_norm_axis, attr_value_t::make_s64(1)},
                    {dnnl_graph_op_attr_use_affine,
                            attr_value_t::make_bool(false)}},
            {dnnl_f32, dnnl_f32, dnnl_f32}, 10, true);
    ln.outputs[2] = make_t(12, dnnl_f32, ir::dims_of(ln.outputs[2]));
    EXPECT_EQ(run_and_compare({ln}, 951), dnnl_success)
            << llga_last_error_message();
}

// ---- PReLUBackward --------------------------------------------------------

struct prelu_case_t {
    const char *fmt;
    data_type_t dt;
    dims_t src, slope;
    bool odd;
};

TEST(OclNormBwd, PReLUBackwardEverySlopeShape) {
    LLGA_NEED_GPU();
    const std::vector<prelu_case_t> cases = {
            {"NCX", dnnl_f32, {2, 5, 3, 4}, {5}, true}, // per channel
            {"NXC", dnnl_f32, {2, 3, 4, 5}, {5}, true}, // channels last
            {"NCX", dnnl_f32, {3, 4, 7}, {1}, true},    // per tensor
            {"NCX", dnnl_f32, {2, 3, 5}, {}, false},    // scalar slope
            {"NCX", dnnl_f32, {2, 5, 3, 4}, {1, 5, 1, 1}, true}, // numpy
            {"NXC", dnnl_f32, {2, 3, 4, 5}, {4, 1}, true}, // right-aligned
            {"NCX", dnnl_f32, {4, 16, 3, 4}, {4, 1, 1, 4}, true},
            {"NCX", dnnl_f32, {2, 3, 5}, {2, 3, 5}, true}, // full shape
            {"NCX", dnnl_f32, {7}, {7}, false},            // rank 1
            {"NCX", dnnl_bf16, {2, 5, 3, 4}, {5}, false},
            {"NXC", dnnl_f16, {2, 3, 4, 6}, {6}, true},
            {"NCX", dnnl_f16, {3, 2, 5}, {3, 1, 5}, false},
    };
    uint32_t seed = 960;
    for (const prelu_case_t &c : cases) {
        ir::op_t op = make_op(dnnl_graph_op_prelu_backward,
                {make_t(1, c.dt, c.src, c.odd), make_t(2, c.dt, c.slope, c.odd),
                        make_t(3, c.dt, c.src)},
                {{dnnl_graph_op_attr_data_format, str(c.fmt)}}, c.dt, 10, c.odd,
                2);
        SCOPED_TRACE(::testing::Message()
                << c.fmt << " " << ir::dtype_name(c.dt) << " src "
                << ir::dims_to_string(c.src) << " slope "
                << ir::dims_to_string(c.slope));
        EXPECT_EQ(run_and_compare({op}, seed++), dnnl_success)
                << llga_last_error_message();
    }
}

} // namespace
} // namespace ocl_test
} // namespace llga
