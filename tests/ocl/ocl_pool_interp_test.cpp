// SPDX-License-Identifier: Apache-2.0
// tests/ocl/ocl_pool_interp_test.cpp — MaxPoolBackward, AvgPoolBackward,
// Interpolate and InterpolateBackward on the OpenCL engine against the
// reference: 1-3 spatial dims with tails, odd strides, both data formats,
// padding, dilations, ceil rounding, exclude_pad, auto_pad, MaxPool ties
// and NaNs, every Interpolate mode and coordinate_transformation_mode with
// sizes and scales, up- and downsampling, f32 and bf16/f16; Interpolate
// composed with binary post-ops in one partition.
#include "ocl_test_util.hpp"

namespace llga {
namespace ocl_test {
namespace {

using ir::attr_value_t;
using attrs_t = std::vector<std::pair<attr_id_t, attr_value_t>>;

dims_t data_dims(int64_t n, int64_t c, const dims_t &sp, bool ncx) {
    dims_t d = {n};
    if (ncx) d.push_back(c);
    d.insert(d.end(), sp.begin(), sp.end());
    if (!ncx) d.push_back(c);
    return d;
}

std::string fmt_name(bool ncx) {
    return ncx ? "NCX" : "NXC";
}

// ---- pooling backward ------------------------------------------------------

struct pool_case_t {
    dims_t xsp;
    std::vector<int64_t> k, s, d, pb, pe;
    bool ceil = false, ncx = true, excl = false;
    data_type_t dt = dnnl_f32;
    std::string auto_pad = "None";
};

attrs_t pool_attrs(const pool_case_t &p, bool avg, bool fwd) {
    attrs_t a = {{dnnl_graph_op_attr_strides, attr_value_t::make_s64s(p.s)},
            {dnnl_graph_op_attr_kernel, attr_value_t::make_s64s(p.k)},
            {dnnl_graph_op_attr_pads_begin, attr_value_t::make_s64s(p.pb)},
            {dnnl_graph_op_attr_pads_end, attr_value_t::make_s64s(p.pe)},
            {dnnl_graph_op_attr_auto_pad, attr_value_t::make_str(p.auto_pad)},
            {dnnl_graph_op_attr_data_format,
                    attr_value_t::make_str(fmt_name(p.ncx))}};
    if (fwd)
        a.push_back({dnnl_graph_op_attr_rounding_type,
                attr_value_t::make_str(p.ceil ? "ceil" : "floor")});
    if (avg)
        a.push_back({dnnl_graph_op_attr_exclude_pad,
                attr_value_t::make_bool(p.excl)});
    else
        a.push_back({dnnl_graph_op_attr_dilations,
                attr_value_t::make_s64s(p.d)});
    return a;
}

std::string pool_trace(const pool_case_t &p) {
    return "x=" + ir::dims_to_string(p.xsp) + " " + fmt_name(p.ncx) + " "
            + ir::dtype_name(p.dt) + (p.ceil ? " ceil" : " floor")
            + (p.excl ? " exclude_pad" : "") + " auto_pad=" + p.auto_pad;
}

// `pre`: ops producing MaxPoolBackward's src from input 1 (ties, NaNs).
void check_pool_bwd(bool avg, const pool_case_t &p, uint32_t seed,
        op_kind_t pre = dnnl_graph_op_last_symbol, float lo = -2.f,
        float hi = 2.f) {
    SCOPED_TRACE(std::string(avg ? "AvgPoolBackward " : "MaxPoolBackward ")
            + pool_trace(p));
    const dims_t xd = data_dims(2, 3, p.xsp, p.ncx);
    const ir::op_t f = make_op(
            avg ? dnnl_graph_op_avg_pool : dnnl_graph_op_max_pool,
            {make_t(1, p.dt, xd)}, pool_attrs(p, avg, true), p.dt, 2);
    const dims_t yd = ir::dims_of(f.outputs[0]);
    std::vector<ir::op_t> ops;
    attrs_t a = pool_attrs(p, avg, false);
    if (avg) {
        a.push_back({dnnl_graph_op_attr_src_shape,
                attr_value_t::make_s64s(std::vector<int64_t>(xd))});
        ops.push_back(make_op(dnnl_graph_op_avg_pool_backward,
                {make_t(2, p.dt, yd, true)}, a, p.dt, 10, true));
    } else {
        logical_tensor_t src = make_t(1, p.dt, xd, true);
        if (pre != dnnl_graph_op_last_symbol) {
            ops.push_back(make_op(pre, {src}, {}, p.dt, 5, true));
            src = ops.back().outputs[0];
        }
        ops.push_back(make_op(dnnl_graph_op_max_pool_backward,
                {src, make_t(2, p.dt, yd, true)}, a, p.dt, 10, true));
    }
    EXPECT_EQ(run_and_compare(ops, seed, lo, hi), dnnl_success)
            << llga_last_error_message();
}

std::vector<pool_case_t> pool_cases() {
    std::vector<pool_case_t> v;
    pool_case_t c;
    // 2-D: overlapping windows with odd strides, asymmetric pads, tails.
    c.xsp = {9, 10};
    c.k = {3, 3};
    c.s = {2, 3};
    c.d = {1, 1};
    c.pb = {1, 1};
    c.pe = {1, 2};
    v.push_back(c);
    c.ncx = false;
    c.ceil = true;
    c.excl = true;
    v.push_back(c);
    // 1-D: kernel wider than the stride, ceil overhang past pads_end.
    c = pool_case_t();
    c.xsp = {17};
    c.k = {4};
    c.s = {3};
    c.d = {1};
    c.pb = {2};
    c.pe = {0};
    c.ceil = true;
    c.dt = dnnl_bf16;
    v.push_back(c);
    c.ncx = false;
    c.excl = true;
    c.ceil = false;
    c.dt = dnnl_f16;
    v.push_back(c);
    // 3-D: stride larger than the kernel (positions no window covers).
    c = pool_case_t();
    c.xsp = {5, 7, 6};
    c.k = {2, 3, 2};
    c.s = {1, 2, 3};
    c.d = {1, 1, 1};
    c.pb = {0, 1, 1};
    c.pe = {1, 1, 0};
    c.ceil = true;
    v.push_back(c);
    c.ncx = false;
    c.excl = true;
    c.dt = dnnl_bf16;
    v.push_back(c);
    // auto_pad resolves the pads.
    c = pool_case_t();
    c.xsp = {11, 6};
    c.k = {3, 2};
    c.s = {2, 2};
    c.d = {1, 1};
    c.pb = {0, 0};
    c.pe = {0, 0};
    c.auto_pad = "SAME_UPPER";
    v.push_back(c);
    c.auto_pad = "SAME_LOWER";
    c.ncx = false;
    c.excl = true;
    v.push_back(c);
    c.auto_pad = "VALID";
    c.pb = {1, 1}; // ignored: VALID means no padding
    c.pe = {2, 0};
    c.dt = dnnl_f16;
    v.push_back(c);
    return v;
}

TEST(OclPoolBackward, AvgPoolEveryShapeAndAttribute) {
    LLGA_NEED_GPU();
    uint32_t seed = 3300;
    for (const pool_case_t &p : pool_cases())
        check_pool_bwd(true, p, seed++);
}

TEST(OclPoolBackward, MaxPoolEveryShapeAndAttribute) {
    LLGA_NEED_GPU();
    uint32_t seed = 3320;
    for (pool_case_t p : pool_cases()) {
        p.excl = false;
        check_pool_bwd(false, p, seed++);
    }
}

TEST(OclPoolBackward, MaxPoolDilations) {
    LLGA_NEED_GPU();
    pool_case_t c;
    c.xsp = {13, 12};
    c.k = {3, 2};
    c.s = {2, 1};
    c.d = {2, 3};
    c.pb = {2, 1};
    c.pe = {1, 2};
    check_pool_bwd(false, c, 3340);
    c.ncx = false;
    c.ceil = true;
    c.xsp = {6, 9, 8};
    c.k = {2, 2, 3};
    c.s = {2, 3, 1};
    c.d = {2, 1, 2};
    c.pb = {1, 0, 2};
    c.pe = {0, 1, 1};
    c.dt = dnnl_f16;
    check_pool_bwd(false, c, 3341);
}

// Rounded sources have many equal values in a window: the gradient goes
// to the first maximum in scan order, as in the reference. A log of
// negative values gives NaNs: a NaN wins only as the window's first tap.
TEST(OclPoolBackward, MaxPoolTiesAndNaNs) {
    LLGA_NEED_GPU();
    pool_case_t c;
    c.xsp = {8, 11};
    c.k = {3, 3};
    c.s = {1, 2};
    c.d = {1, 1};
    c.pb = {1, 1};
    c.pe = {1, 1};
    check_pool_bwd(false, c, 3350, dnnl_graph_op_round);
    c.ncx = false;
    c.dt = dnnl_bf16;
    check_pool_bwd(false, c, 3351, dnnl_graph_op_round);
    check_pool_bwd(false, c, 3352, dnnl_graph_op_log, -1.f, 2.f);
}

// ---- Interpolate -----------------------------------------------------------

struct interp_case_t {
    std::string mode, ctm;
    dims_t xsp;
    std::vector<int64_t> sizes; // empty: scales
    std::vector<float> scales;
    bool ncx = true;
    data_type_t dt = dnnl_f32;
};

void check_interp(bool fwd, const interp_case_t &p, uint32_t seed) {
    SCOPED_TRACE(std::string(fwd ? "Interpolate " : "InterpolateBackward ")
            + p.mode + " " + p.ctm + " x=" + ir::dims_to_string(p.xsp) + " "
            + (p.sizes.empty() ? "scales " : "sizes ") + fmt_name(p.ncx) + " "
            + ir::dtype_name(p.dt));
    attrs_t a = {{dnnl_graph_op_attr_mode, attr_value_t::make_str(p.mode)},
            {dnnl_graph_op_attr_coordinate_transformation_mode,
                    attr_value_t::make_str(p.ctm)},
            {dnnl_graph_op_attr_data_format,
                    attr_value_t::make_str(fmt_name(p.ncx))}};
    if (p.sizes.empty())
        a.push_back({dnnl_graph_op_attr_scales,
                attr_value_t::make_f32s(p.scales)});
    else
        a.push_back(
                {dnnl_graph_op_attr_sizes, attr_value_t::make_s64s(p.sizes)});
    const dims_t xd = data_dims(2, 3, p.xsp, p.ncx);
    const ir::op_t f = make_op(dnnl_graph_op_interpolate,
            {make_t(1, p.dt, xd, true)}, a, p.dt, 10, true);
    if (fwd) {
        EXPECT_EQ(run_and_compare({f}, seed), dnnl_success)
                << llga_last_error_message();
        return;
    }
    const ir::op_t b = make_op(dnnl_graph_op_interpolate_backward,
            {make_t(1, p.dt, xd), make_t(2, p.dt, ir::dims_of(f.outputs[0]),
                                          true)},
            a, p.dt, 10, true);
    EXPECT_EQ(run_and_compare({b}, seed), dnnl_success)
            << llga_last_error_message();
}

// Every mode with both coordinate transformations, 1-3 spatial dims, up-
// and downsampling (ratios that put taps on, between and past the source
// ends), size-1 dims on either side, sizes and scales, both formats.
std::vector<interp_case_t> interp_cases() {
    std::vector<interp_case_t> v;
    const char *modes[] = {"nearest", "linear", "bilinear", "trilinear"};
    for (const char *m : modes)
        for (const char *ctm : {"half_pixel", "align_corners"}) {
            interp_case_t c;
            c.mode = m;
            c.ctm = ctm;
            const std::string mm(m);
            const int nsp = mm == "linear" ? 1 : mm == "bilinear" ? 2 : 3;
            if (nsp == 1) {
                c.xsp = {7};
                c.sizes = {17};
            } else if (nsp == 2) {
                c.xsp = {9, 5};
                c.scales = {0.45f, 2.5f};
            } else {
                c.xsp = {4, 13, 6};
                c.sizes = {7, 5, 6};
            }
            c.ncx = std::string(ctm) == "half_pixel";
            v.push_back(c);
        }
    // Nearest in 1 and 2 dims, half types; exact .5 source coordinates
    // (in 6 -> out 3 half_pixel: 0.5, 2.5, 4.5; in 4 -> out 3
    // align_corners: 1.5; rounding ties go away from zero) and size-1
    // sides.
    interp_case_t c;
    c.mode = "nearest";
    c.ctm = "half_pixel";
    c.xsp = {6};
    c.sizes = {3};
    c.ncx = false;
    c.dt = dnnl_bf16;
    v.push_back(c);
    c.ctm = "align_corners";
    c.xsp = {4, 1};
    c.sizes = {3, 4};
    c.dt = dnnl_f16;
    v.push_back(c);
    c.xsp = {6, 7};
    c.sizes = {1, 19};
    c.ncx = true;
    c.dt = dnnl_bf16;
    v.push_back(c);
    // Linear with half types, size-1 outputs, scales in 3 dims.
    c.mode = "bilinear";
    c.ctm = "half_pixel";
    c.xsp = {1, 11};
    c.sizes = {5, 1};
    c.dt = dnnl_f16;
    v.push_back(c);
    c.mode = "trilinear";
    c.ctm = "align_corners";
    c.xsp = {3, 5, 10};
    c.sizes = {};
    c.scales = {2.f, 1.7f, 0.35f};
    c.ncx = false;
    c.dt = dnnl_bf16;
    v.push_back(c);
    return v;
}

TEST(OclInterpolate, EveryModeAndCoordinateTransformation) {
    LLGA_NEED_GPU();
    uint32_t seed = 3400;
    for (const interp_case_t &c : interp_cases())
        check_interp(true, c, seed++);
}

TEST(OclInterpolateBackward, EveryModeAndCoordinateTransformation) {
    LLGA_NEED_GPU();
    uint32_t seed = 3430;
    for (const interp_case_t &c : interp_cases())
        check_interp(false, c, seed++);
}

// Large up- and downsampling ratios: the backward gather's candidate range
// must hold every reader.
TEST(OclInterpolateBackward, LargeRatios) {
    LLGA_NEED_GPU();
    uint32_t seed = 3460;
    for (const char *m : {"nearest", "linear"})
        for (const char *ctm : {"half_pixel", "align_corners"}) {
            interp_case_t c;
            c.mode = m;
            c.ctm = ctm;
            c.xsp = {3, 40};
            c.sizes = {29, 6};
            check_interp(false, c, seed++);
        }
}

// Interpolate with post-ops as the partitioner fuses them
// (interpolate_post_ops): the executor composes the kernels through an
// intermediate buffer.
TEST(OclInterpolate, WithBinaryPostOps) {
    LLGA_NEED_GPU();
    const ir::op_t f = make_op(dnnl_graph_op_interpolate,
            {make_t(1, dnnl_f32, {2, 5, 6, 9}, true)},
            {{dnnl_graph_op_attr_mode, attr_value_t::make_str("linear")},
                    {dnnl_graph_op_attr_scales,
                            attr_value_t::make_f32s({1.5f, 0.8f})},
                    {dnnl_graph_op_attr_data_format,
                            attr_value_t::make_str("NCX")}},
            dnnl_f32, 10);
    const ir::op_t add = make_op(dnnl_graph_op_add,
            {f.outputs[0], make_t(2, dnnl_f32, {1, 5, 1, 1})}, {}, dnnl_f32,
            11);
    const ir::op_t mul = make_op(dnnl_graph_op_multiply,
            {add.outputs[0], make_t(3, dnnl_f32, {9, 7})}, {}, dnnl_f32, 12,
            true);
    EXPECT_EQ(run_and_compare({f, add, mul}, 3470), dnnl_success)
            << llga_last_error_message();
}

} // namespace
} // namespace ocl_test
} // namespace llga
