// SPDX-License-Identifier: Apache-2.0
// tests/conformance/op_cases_other.cpp — known-answer cases for the
// reductions (7), softmax family (4), Interpolate(+Backward), the four
// quantization ops, data movement (5) and the misc kinds GenIndex, End and
// Wildcard (opset.md §2.9–§2.14). Values are derived by hand in comments or
// from the spec formulas written out here in double.
#include "conformance_cases.hpp"

using namespace conf;

namespace {
// [[1,-2,3],[-4,5,-6]]
const std::vector<double> R = {1, -2, 3, -4, 5, -6};
op_case_t reduce(std::vector<int64_t> axes, bool keep, std::vector<int64_t> dims,
        std::vector<double> want) {
    return make_case()
            .in(dnnl_f32, {2, 3}, R)
            .s64s(dnnl_graph_op_attr_axes, std::move(axes))
            .b(dnnl_graph_op_attr_keep_dims, keep)
            .out(dnnl_f32, std::move(dims), std::move(want));
}
// Softmax over rows of a [2,3] tensor, in double.
std::vector<double> softmax_rows(const std::vector<double> &x, bool log) {
    std::vector<double> y(x.size());
    for (size_t r = 0; r < 2; ++r) {
        const double m = std::max({x[r * 3], x[r * 3 + 1], x[r * 3 + 2]});
        double s = 0;
        for (size_t c = 0; c < 3; ++c)
            s += std::exp(x[r * 3 + c] - m);
        for (size_t c = 0; c < 3; ++c)
            y[r * 3 + c] = log ? x[r * 3 + c] - m - std::log(s)
                               : std::exp(x[r * 3 + c] - m) / s;
    }
    return y;
}
const std::vector<double> SX = {1, 2, 3, -1, 0, 1};
} // namespace

// ---- reductions ---------------------------------------------------------

op_case_t case_reduce_l1() { return reduce({1}, false, {2}, {6, 15}); }
op_case_t case_reduce_l2() {
    return reduce({1}, false, {2}, {std::sqrt(14.0), std::sqrt(77.0)});
}
op_case_t case_reduce_max() { return reduce({0}, true, {1, 3}, {1, 5, 3}); }
op_case_t case_reduce_mean() {
    return reduce({-1}, false, {2}, {2.0 / 3, -5.0 / 3});
}
op_case_t case_reduce_min() { return reduce({0, 1}, true, {1, 1}, {-6}); }
op_case_t case_reduce_prod() { return reduce({1}, false, {2}, {-6, 120}); }
op_case_t case_reduce_sum() { return reduce({0}, false, {3}, {-3, 3, -3}); }

// ---- softmax family -----------------------------------------------------

op_case_t case_softmax() { // axis 1 (default), with the stats output
    std::vector<double> stats;
    for (size_t r = 0; r < 2; ++r) {
        const double m = SX[r * 3 + 2];
        stats.push_back(m + std::log(std::exp(SX[r * 3] - m) + std::exp(SX[r * 3 + 1] - m) + 1));
    }
    return make_case()
            .in(dnnl_f32, {2, 3}, SX)
            .out(dnnl_f32, {2, 3}, softmax_rows(SX, false))
            .out(dnnl_f32, {2, 1}, stats);
}
op_case_t case_softmax_backward() {
    // diff_src = y * (dy - sum(dy*y)); inputs are diff_dst, dst.
    // row0 y {.2,.3,.5}, dy {1,-1,2}: sum .9 -> {.02, -.57, .55}
    // row1 y {.1,.6,.3}, dy {0,1,3}: sum 1.5 -> {-.15, -.3, .45}
    return make_case()
            .in(dnnl_f32, {2, 3}, {1, -1, 2, 0, 1, 3})
            .in(dnnl_f32, {2, 3}, {0.2, 0.3, 0.5, 0.1, 0.6, 0.3})
            .out(dnnl_f32, {2, 3}, {0.02, -0.57, 0.55, -0.15, -0.3, 0.45})
            .tol(1e-6, 1e-5);
}
op_case_t case_log_softmax() { // axis -1 (default)
    return make_case()
            .in(dnnl_f32, {2, 3}, SX)
            .out(dnnl_f32, {2, 3}, softmax_rows(SX, true));
}
op_case_t case_log_softmax_backward() {
    // diff_src = dy - exp(y) * sum(dy); y = log p.
    // row0 p {.2,.3,.5}, dy {1,-1,2}: sum 2 -> {.6, -1.6, 1}
    // row1 p {.1,.6,.3}, dy {0,1,3}: sum 4 -> {-.4, -1.4, 1.8}
    return make_case()
            .in(dnnl_f32, {2, 3}, {1, -1, 2, 0, 1, 3})
            .in(dnnl_f32, {2, 3},
                    map1({0.2, 0.3, 0.5, 0.1, 0.6, 0.3}, [](double p) { return std::log(p); }))
            .out(dnnl_f32, {2, 3}, {0.6, -1.6, 1, -0.4, -1.4, 1.8})
            .tol(1e-5, 1e-5);
}

// ---- interpolate --------------------------------------------------------

op_case_t case_interpolate() {
    // NCX [1,1,2,2] -> sizes {4,4}, bilinear, half_pixel. Per axis 2 -> 4:
    // s = (o+0.5)/2 - 0.5 = -0.25, 0.25, 0.75, 1.25 giving the weights
    // (x0), (.75 x0 + .25 x1), (.25 x0 + .75 x1), (x1); separable in 2-D.
    const double w[4][2] = {{1, 0}, {0.75, 0.25}, {0.25, 0.75}, {0, 1}};
    const double x[2][2] = {{1, 2}, {3, 5}};
    std::vector<double> y;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
            double v = 0;
            for (int a = 0; a < 2; ++a)
                for (int b = 0; b < 2; ++b)
                    v += w[i][a] * w[j][b] * x[a][b];
            y.push_back(v);
        }
    return make_case()
            .in(dnnl_f32, {1, 1, 2, 2}, {1, 2, 3, 5})
            .str(dnnl_graph_op_attr_mode, "bilinear")
            .s64s(dnnl_graph_op_attr_sizes, {4, 4})
            .str(dnnl_graph_op_attr_data_format, "NCX")
            .out(dnnl_f32, {1, 1, 4, 4}, y);
}
op_case_t case_interpolate_backward() {
    // NCX src [1,1,2], nearest, scales {2} -> forward out 4; half_pixel
    // s = -0.25, 0.25, 0.75, 1.25 -> indices 0, 0, 1, 1. dy {1,2,3,4}
    // scatters to {1+2, 3+4} = {3, 7}.
    return make_case()
            .in(dnnl_f32, {1, 1, 2}, {10, 20})
            .in(dnnl_f32, {1, 1, 4}, {1, 2, 3, 4})
            .str(dnnl_graph_op_attr_mode, "nearest")
            .f32s(dnnl_graph_op_attr_scales, {2.f})
            .str(dnnl_graph_op_attr_data_format, "NCX")
            .out(dnnl_f32, {1, 1, 2}, {3, 7});
}

// ---- quantization -------------------------------------------------------

op_case_t case_quantize() {
    // per_channel on axis 1 of [3,2] -> u8. c0: scale 0.5, zp 10;
    // c1: scale 2, zp 0. q = sat(round_half_even(x/scale + zp)):
    //   c0: 1 -> 12, -10 -> -10 -> 0 (saturate), 2.5 -> 15
    //   c1: 3 -> 1.5 -> 2, 600 -> 300 -> 255, 5 -> 2.5 -> 2
    return make_case()
            .in(dnnl_f32, {3, 2}, {1, 3, -10, 600, 2.5, 5})
            .str(dnnl_graph_op_attr_qtype, "per_channel")
            .s64(dnnl_graph_op_attr_axis, 1)
            .f32s(dnnl_graph_op_attr_scales, {0.5f, 2.f})
            .s64s(dnnl_graph_op_attr_zps, {10, 0})
            .out(dnnl_u8, {3, 2}, {12, 2, 0, 255, 15, 2});
}
op_case_t case_dequantize() {
    // f8_e4m3 src (all values exactly representable; 448 is the e4m3 max),
    // per_tensor scale 0.5, no zps: x = q * 0.5.
    return make_case()
            .in(dnnl_f8_e4m3, {4}, {1.5, -2, 448, 0.125})
            .f32s(dnnl_graph_op_attr_scales, {0.5f})
            .out(dnnl_f32, {4}, {0.75, -1, 224, 0.0625});
}
op_case_t case_dynamic_quantize() {
    // per_tensor, scale 0.25 (f32 tensor), zp -3 (s8 tensor), dst s8:
    // x/0.25 - 3: 1 -> 1, -1 -> -7, 40 -> 157 -> 127 (saturate),
    // -0.3 -> -4.2 -> -4.
    return make_case()
            .in(dnnl_f32, {4}, {1, -1, 40, -0.3})
            .in(dnnl_f32, {1}, {0.25})
            .in(dnnl_s8, {1}, {-3})
            .out(dnnl_s8, {4}, {1, -7, 127, -4});
}
op_case_t case_dynamic_dequantize() {
    // u4 src [2,4] (packed two per byte, low nibble first), per_group with
    // group_shape {1,2}: scales/zps [2,2], zps u8.
    // row0: g0 (1-1)*.5 = 0, (2-1)*.5 = .5; g1 (3-2)*1 = 1, (4-2)*1 = 2
    // row1: g0 (15-8)*2 = 14, (0-8)*2 = -16; g1 (8-0)*.25 = 2, (7-0)*.25 = 1.75
    return make_case()
            .in(dnnl_u4, {2, 4}, {1, 2, 3, 4, 15, 0, 8, 7})
            .in(dnnl_f32, {2, 2}, {0.5, 1, 2, 0.25})
            .in(dnnl_u8, {2, 2}, {1, 2, 8, 0})
            .str(dnnl_graph_op_attr_qtype, "per_group")
            .s64s(dnnl_graph_op_attr_group_shape, {1, 2})
            .out(dnnl_f32, {2, 4}, {0, 0.5, 1, 2, 14, -16, 2, 1.75});
}

// ---- data movement ------------------------------------------------------

op_case_t case_concat() { // [2,1] ++ [2,2] on axis 1
    return make_case()
            .in(dnnl_f32, {2, 1}, {1, 2})
            .in(dnnl_f32, {2, 2}, {3, 4, 5, 6})
            .s64(dnnl_graph_op_attr_axis, 1)
            .out(dnnl_f32, {2, 3}, {1, 3, 4, 2, 5, 6});
}
op_case_t case_static_reshape() { // [2,3,2] -> {0,-1} with special_zero
    std::vector<double> v = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    return make_case()
            .in(dnnl_f32, {2, 3, 2}, v)
            .s64s(dnnl_graph_op_attr_shape, {0, -1})
            .b(dnnl_graph_op_attr_special_zero, true)
            .out(dnnl_f32, {2, 6}, v);
}
op_case_t case_static_transpose() {
    // src [2,1,3] = a*3 + c + 1; order {2,0,1} -> dst [3,2,1] with
    // dst[c,a,0] = src[a,0,c] -> {1,4,2,5,3,6}.
    return make_case()
            .in(dnnl_f32, {2, 1, 3}, {1, 2, 3, 4, 5, 6})
            .s64s(dnnl_graph_op_attr_order, {2, 0, 1})
            .out(dnnl_f32, {3, 2, 1}, {1, 4, 2, 5, 3, 6});
}
op_case_t case_reorder() {
    // Dense [2,3] into a column-major [2,3] (strides {1,2}): same logical
    // values; the harness reads dst through its strides.
    return make_case()
            .in(dnnl_f32, {2, 3}, {1, 2, 3, 4, 5, 6})
            .out_strided(dnnl_f32, {2, 3}, {1, 2}, {1, 2, 3, 4, 5, 6});
}
op_case_t case_type_cast() {
    // f32 -> bf16 with round-to-nearest-even (7 stored mantissa bits):
    // 1 + 2^-8 is a tie -> 1; 1 + 3*2^-8 is a tie -> 1 + 2^-6 = 1.015625;
    // -2.5 exact; 65504 = 1.1111111111b * 2^15 rounds up to 65536.
    return make_case()
            .in(dnnl_f32, {4}, {1.00390625, 1.01171875, -2.5, 65504})
            .out(dnnl_bf16, {4}, {1, 1.015625, -2.5, 65536})
            .tol(0, 0);
}

// ---- misc ---------------------------------------------------------------

op_case_t case_gen_index() { // axis 1 of [2,3]: dst = column index
    return make_case()
            .in(dnnl_f32, {2, 3}, {9, 9, 9, 9, 9, 9})
            .s64(dnnl_graph_op_attr_axis, 1)
            .out(dnnl_s32, {2, 3}, {0, 1, 2, 0, 1, 2});
}
op_case_t case_end() {
    // Graph ReLU -> End: the End forms an unsupported partition of its own
    // (as in oneDNN), the ReLU partition still reports the ReLU output as
    // its output port and computes relu.
    auto c = make_case()
                     .in(dnnl_f32, {2, 3}, {-1, 2, -3, 4, 0, 0.5})
                     .out(dnnl_f32, {2, 3}, {0, 2, 0, 4, 0, 0.5});
    c.special = special_t::end;
    c.host_kind = dnnl_graph_op_relu;
    return c;
}
op_case_t case_wildcard() {
    // One unsupported partition; compiling it fails with invalid_arguments.
    auto c = make_case().in(dnnl_f32, {2, 3}).out(dnnl_f32, {2, 3});
    c.special = special_t::wildcard;
    return c;
}
