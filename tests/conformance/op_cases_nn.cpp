// SPDX-License-Identifier: Apache-2.0
// tests/conformance/op_cases_nn.cpp — known-answer cases for the
// convolution family (6), pooling family (4) and normalization family (6)
// (opset.md §2.6–§2.8). Convolution and pooling answers are derived by hand
// in the comments; normalization answers use the spec formulas written out
// below in double.
#include "conformance_cases.hpp"

using namespace conf;

namespace {
op_case_t &conv_attrs(op_case_t &c, std::vector<int64_t> strides) {
    const size_t n = strides.size();
    return c.s64s(dnnl_graph_op_attr_strides, strides)
            .s64s(dnnl_graph_op_attr_pads_begin, std::vector<int64_t>(n, 0))
            .s64s(dnnl_graph_op_attr_pads_end, std::vector<int64_t>(n, 0))
            .s64s(dnnl_graph_op_attr_dilations, std::vector<int64_t>(n, 1));
}
const std::vector<double> X9 = {1, 2, 3, 4, 5, 6, 7, 8, 9};
const std::vector<double> W4 = {1, 2, 3, 4};
// ConvTranspose of x=[[1,2],[3,4]] with W=[[1,2],[3,4]], stride 2, no
// overlap: dst[2a+i, 2b+j] = x[a,b] * W[i,j].
const std::vector<double> DECONV = {1, 2, 2, 4, 3, 4, 6, 8, 3, 6, 4, 8, 9, 12, 12, 16};
} // namespace

// ---- convolution family -------------------------------------------------

op_case_t case_convolution() {
    // NCX src [1,1,3,3] = 1..9; OIX weights [2,1,2,2]:
    //   O0 = [[1,2],[3,4]]: 1+4+12+20 = 37, 2+6+15+24 = 47, 4+10+21+32 = 67,
    //        5+12+24+36 = 77; + bias 0.5.
    //   O1 = [[0,1],[-1,0]]: x[i,j+1] - x[i+1,j] = -2 everywhere; + bias -1.
    auto c = make_case()
                     .in(dnnl_f32, {1, 1, 3, 3}, X9)
                     .in(dnnl_f32, {2, 1, 2, 2}, {1, 2, 3, 4, 0, 1, -1, 0})
                     .in(dnnl_f32, {2}, {0.5, -1})
                     .str(dnnl_graph_op_attr_data_format, "NCX")
                     .str(dnnl_graph_op_attr_weights_format, "OIX")
                     .out(dnnl_f32, {1, 2, 2, 2},
                             {37.5, 47.5, 67.5, 77.5, -3, -3, -3, -3});
    return conv_attrs(c, {1, 1});
}
op_case_t case_convolution_backward_data() {
    // Default NXC / XIO with one channel. dy = [[1,2],[3,4]], W = [[1,2],[3,4]]:
    // diff_src[p] = sum_{o+k=p} dy[o] W[k] (full correlation):
    //   (0,0) 1; (0,1) 2+2 = 4; (0,2) 4; (1,0) 3+3 = 6; (1,1) 4+6+6+4 = 20;
    //   (1,2) 8+8 = 16; (2,0) 9; (2,1) 12+12 = 24; (2,2) 16.
    auto c = make_case()
                     .in(dnnl_f32, {1, 2, 2, 1}, {1, 2, 3, 4})
                     .in(dnnl_f32, {2, 2, 1, 1}, W4)
                     .s64s(dnnl_graph_op_attr_dst_shape, {1, 3, 3, 1})
                     .out(dnnl_f32, {1, 3, 3, 1}, {1, 4, 4, 6, 20, 16, 9, 24, 16});
    return conv_attrs(c, {1, 1});
}
op_case_t case_convolution_backward_weights() {
    // NCX src 1..9, dy = [[1,0],[0,1]]: diff_W[k] = src[k] + src[k + (1,1)]:
    //   k00 1+5 = 6, k01 2+6 = 8, k10 4+8 = 12, k11 5+9 = 14.
    auto c = make_case()
                     .in(dnnl_f32, {1, 1, 3, 3}, X9)
                     .in(dnnl_f32, {1, 1, 2, 2}, {1, 0, 0, 1})
                     .s64s(dnnl_graph_op_attr_weights_shape, {1, 1, 2, 2})
                     .str(dnnl_graph_op_attr_data_format, "NCX")
                     .str(dnnl_graph_op_attr_weights_format, "OIX")
                     .out(dnnl_f32, {1, 1, 2, 2}, {6, 8, 12, 14});
    return conv_attrs(c, {1, 1});
}
op_case_t case_conv_transpose() {
    // NCX / IOX, stride 2, kernel 2: out = 2*(2-1) + 2 = 4 per dim; the
    // DECONV table above plus bias 1.
    std::vector<double> want;
    for (double v : DECONV)
        want.push_back(v + 1);
    auto c = make_case()
                     .in(dnnl_f32, {1, 1, 2, 2}, {1, 2, 3, 4})
                     .in(dnnl_f32, {1, 1, 2, 2}, W4)
                     .in(dnnl_f32, {1}, {1})
                     .str(dnnl_graph_op_attr_data_format, "NCX")
                     .str(dnnl_graph_op_attr_weights_format, "IOX")
                     .out(dnnl_f32, {1, 1, 4, 4}, want);
    return conv_attrs(c, {2, 2});
}
op_case_t case_conv_transpose_backward_data() {
    // Default NXC / XOI, one channel, stride 2: diff_src[a,b] =
    // sum_k dy[2a+k] W[k]; with dy = DECONV (= x (x) W) this is x * |W|^2
    // = 30 * {1,2,3,4}.
    auto c = make_case()
                     .in(dnnl_f32, {1, 4, 4, 1}, DECONV)
                     .in(dnnl_f32, {2, 2, 1, 1}, W4)
                     .out(dnnl_f32, {1, 2, 2, 1}, {30, 60, 90, 120});
    return conv_attrs(c, {2, 2});
}
op_case_t case_conv_transpose_backward_weights() {
    // NCX / IOX, stride 2: diff_W[k] = sum_q src[q] dy[2q+k]; with dy = DECONV
    // this is W * |x|^2 = 30 * {1,2,3,4}.
    auto c = make_case()
                     .in(dnnl_f32, {1, 1, 2, 2}, {1, 2, 3, 4})
                     .in(dnnl_f32, {1, 1, 4, 4}, DECONV)
                     .s64s(dnnl_graph_op_attr_weights_shape, {1, 1, 2, 2})
                     .str(dnnl_graph_op_attr_data_format, "NCX")
                     .str(dnnl_graph_op_attr_weights_format, "IOX")
                     .out(dnnl_f32, {1, 1, 2, 2}, {30, 60, 90, 120});
    return conv_attrs(c, {2, 2});
}

// ---- pooling family -----------------------------------------------------

op_case_t case_avg_pool() {
    // NCX 1..9, kernel 2, stride 2, pads_begin 1, pads_end 0, exclude_pad
    // false (divide by 4): out = (3+1-2)/2+1 = 2. Windows: {1} -> 0.25,
    // {2,3} -> 1.25, {4,7} -> 2.75, {5,6,8,9} -> 7.
    return make_case()
            .in(dnnl_f32, {1, 1, 3, 3}, X9)
            .s64s(dnnl_graph_op_attr_strides, {2, 2})
            .s64s(dnnl_graph_op_attr_pads_begin, {1, 1})
            .s64s(dnnl_graph_op_attr_pads_end, {0, 0})
            .s64s(dnnl_graph_op_attr_kernel, {2, 2})
            .b(dnnl_graph_op_attr_exclude_pad, false)
            .str(dnnl_graph_op_attr_data_format, "NCX")
            .out(dnnl_f32, {1, 1, 2, 2}, {0.25, 1.25, 2.75, 7});
}
op_case_t case_avg_pool_backward() {
    // kernel 2, stride 1 on a 3x3 src; dy = {4,8,12,16} / 4 = 1,2,3,4 per
    // window w(a,b); diff_src sums the windows covering each position:
    // {1, 1+2, 2, 1+3, 1+2+3+4, 2+4, 3, 3+4, 4}.
    return make_case()
            .in(dnnl_f32, {1, 1, 2, 2}, {4, 8, 12, 16})
            .s64s(dnnl_graph_op_attr_strides, {1, 1})
            .s64s(dnnl_graph_op_attr_pads_begin, {0, 0})
            .s64s(dnnl_graph_op_attr_pads_end, {0, 0})
            .s64s(dnnl_graph_op_attr_kernel, {2, 2})
            .b(dnnl_graph_op_attr_exclude_pad, false)
            .s64s(dnnl_graph_op_attr_src_shape, {1, 1, 3, 3})
            .str(dnnl_graph_op_attr_data_format, "NCX")
            .out(dnnl_f32, {1, 1, 3, 3}, {1, 3, 2, 4, 10, 6, 3, 7, 4});
}
op_case_t case_max_pool() {
    // Default NXC with one channel, kernel 2, stride 1 on
    // [[1,5,2],[7,3,9],[4,8,6]]: maxima 7, 9, 8, 9.
    return make_case()
            .in(dnnl_f32, {1, 3, 3, 1}, {1, 5, 2, 7, 3, 9, 4, 8, 6})
            .s64s(dnnl_graph_op_attr_strides, {1, 1})
            .s64s(dnnl_graph_op_attr_pads_begin, {0, 0})
            .s64s(dnnl_graph_op_attr_pads_end, {0, 0})
            .s64s(dnnl_graph_op_attr_kernel, {2, 2})
            .out(dnnl_f32, {1, 2, 2, 1}, {7, 9, 8, 9});
}
op_case_t case_max_pool_backward() {
    // Same src (NCX); dy = {1,2,3,4} goes to the window maxima: 7 at (1,0)
    // gets 1, 9 at (1,2) gets 2+4 = 6, 8 at (2,1) gets 3.
    return make_case()
            .in(dnnl_f32, {1, 1, 3, 3}, {1, 5, 2, 7, 3, 9, 4, 8, 6})
            .in(dnnl_f32, {1, 1, 2, 2}, {1, 2, 3, 4})
            .s64s(dnnl_graph_op_attr_strides, {1, 1})
            .s64s(dnnl_graph_op_attr_pads_begin, {0, 0})
            .s64s(dnnl_graph_op_attr_pads_end, {0, 0})
            .s64s(dnnl_graph_op_attr_kernel, {2, 2})
            .str(dnnl_graph_op_attr_data_format, "NCX")
            .out(dnnl_f32, {1, 1, 3, 3}, {0, 0, 0, 1, 0, 6, 0, 3, 0});
}

// ---- normalization family -----------------------------------------------

op_case_t case_batch_norm_inference() {
    // NXC [2,2]: c0 gamma 2, beta 1, mean 2, var+eps 4 -> x - 1;
    //            c1 gamma 0.5, beta -1, mean 3, var+eps 0.25 -> x - 4.
    // src [[1,2],[3,4]] -> [[0,-2],[2,0]].
    return make_case()
            .in(dnnl_f32, {2, 2}, {1, 2, 3, 4})
            .in(dnnl_f32, {2}, {2, 0.5})
            .in(dnnl_f32, {2}, {1, -1})
            .in(dnnl_f32, {2}, {2, 3})
            .in(dnnl_f32, {2}, {3.75, 0})
            .f32(dnnl_graph_op_attr_epsilon, 0.25f)
            .out(dnnl_f32, {2, 2}, {0, -2, 2, 0});
}
op_case_t case_batch_norm_forward_training() {
    // NXC [2,2]: c0 {1,3}: mu 2, var 1; c1 {2,6}: mu 4, var 4. eps 0.
    // gamma {1,2}, beta {0,1}: c0 -> x-2 = {-1, 1}; c1 -> 2(x-4)/2+1 = {-1, 3}.
    // momentum 0.25, mean_in {0,10}, var_in {1,1}:
    // running_mean = 0.25*in + 0.75*mu = {1.5, 5.5};
    // running_var  = 0.25*in + 0.75*var = {1, 3.25}.
    return make_case()
            .in(dnnl_f32, {2, 2}, {1, 2, 3, 6})
            .in(dnnl_f32, {2}, {0, 10})
            .in(dnnl_f32, {2}, {1, 1})
            .in(dnnl_f32, {2}, {1, 2})
            .in(dnnl_f32, {2}, {0, 1})
            .f32(dnnl_graph_op_attr_epsilon, 0.f)
            .f32(dnnl_graph_op_attr_momentum, 0.25f)
            .out(dnnl_f32, {2, 2}, {-1, -1, 1, 3})
            .out(dnnl_f32, {2}, {1.5, 5.5})
            .out(dnnl_f32, {2}, {1, 3.25})
            .out(dnnl_f32, {2}, {2, 4})
            .out(dnnl_f32, {2}, {1, 4});
}
op_case_t case_batch_norm_backward() {
    // NXC [3,1,1,2]; per channel c with M = 3 elements, eps 0:
    // xh = (x-mean)/sqrt(var), db = sum dy, dg = sum dy*xh,
    // dx = gamma/sqrt(var) * (dy - db/M - xh*dg/M).
    const std::vector<double> x = {1, 0, 2, 3, 6, -3}; // c0 {1,2,6}, c1 {0,3,-3}
    const std::vector<double> dy = {1, 2, -1, 0, 3, 1};
    const double mean[2] = {3, 0}, var[2] = {14.0 / 3, 6}, gamma[2] = {2, 0.5};
    std::vector<double> dx(6), dg(2), db(2);
    for (int c = 0; c < 2; ++c) {
        const double inv = 1 / std::sqrt(var[c]);
        double sdy = 0, sdyx = 0;
        for (int n = 0; n < 3; ++n) {
            sdy += dy[n * 2 + c];
            sdyx += dy[n * 2 + c] * (x[n * 2 + c] - mean[c]) * inv;
        }
        db[c] = sdy;
        dg[c] = sdyx;
        for (int n = 0; n < 3; ++n) {
            const double xh = (x[n * 2 + c] - mean[c]) * inv;
            dx[n * 2 + c] = gamma[c] * inv * (dy[n * 2 + c] - sdy / 3 - xh * sdyx / 3);
        }
    }
    return make_case()
            .in(dnnl_f32, {3, 1, 1, 2}, x)
            .in(dnnl_f32, {3, 1, 1, 2}, dy)
            .in(dnnl_f32, {2}, {mean[0], mean[1]})
            .in(dnnl_f32, {2}, {var[0], var[1]})
            .in(dnnl_f32, {2}, {gamma[0], gamma[1]})
            .f32(dnnl_graph_op_attr_epsilon, 0.f)
            .out(dnnl_f32, {3, 1, 1, 2}, dx)
            .out(dnnl_f32, {2}, dg)
            .out(dnnl_f32, {2}, db)
            .tol(1e-5, 1e-4);
}
op_case_t case_layer_norm() {
    // [2,3], normalized over the last dim; eps 0.
    // row0 {1,2,3}: mu 2, var 2/3; row1 {0,0,6}: mu 2, var 8.
    // gamma {1,2,-1}, beta {0,1,0.5}.
    const std::vector<double> x = {1, 2, 3, 0, 0, 6};
    const double g[3] = {1, 2, -1}, bt[3] = {0, 1, 0.5};
    const double mu[2] = {2, 2}, var[2] = {2.0 / 3, 8};
    std::vector<double> y(6);
    for (int r = 0; r < 2; ++r)
        for (int c = 0; c < 3; ++c)
            y[r * 3 + c] = g[c] * (x[r * 3 + c] - mu[r]) / std::sqrt(var[r]) + bt[c];
    return make_case()
            .in(dnnl_f32, {2, 3}, x)
            .in(dnnl_f32, {3}, {1, 2, -1})
            .in(dnnl_f32, {3}, {0, 1, 0.5})
            .f32(dnnl_graph_op_attr_epsilon, 0.f)
            .out(dnnl_f32, {2, 3}, y)
            .out(dnnl_f32, {2}, {2, 2})
            .out(dnnl_f32, {2}, {2.0 / 3, 8})
            .tol(1e-5, 1e-5);
}
op_case_t case_layer_norm_backward() {
    // [2,3] over the last dim, eps 0, gamma {1,2,-1}; per row with
    // inv = 1/sqrt(var), xh = (x-mu)*inv, g = gamma*dy:
    // dx = (g - mean(g) - xh*mean(g*xh)) * inv; dgamma = sum_rows dy*xh;
    // dbeta = sum_rows dy.
    const std::vector<double> x = {1, 2, 3, 0, 0, 6}, dy = {1, -1, 2, 0.5, 3, -2};
    const double gm[3] = {1, 2, -1}, mu[2] = {2, 2}, var[2] = {2.0 / 3, 8};
    std::vector<double> dx(6), dgam(3, 0), dbet(3, 0);
    for (int r = 0; r < 2; ++r) {
        const double inv = 1 / std::sqrt(var[r]);
        double mg = 0, mgx = 0;
        for (int c = 0; c < 3; ++c) {
            const double xh = (x[r * 3 + c] - mu[r]) * inv;
            mg += gm[c] * dy[r * 3 + c] / 3;
            mgx += gm[c] * dy[r * 3 + c] * xh / 3;
            dgam[c] += dy[r * 3 + c] * xh;
            dbet[c] += dy[r * 3 + c];
        }
        for (int c = 0; c < 3; ++c) {
            const double xh = (x[r * 3 + c] - mu[r]) * inv;
            dx[r * 3 + c] = (gm[c] * dy[r * 3 + c] - mg - xh * mgx) * inv;
        }
    }
    return make_case()
            .in(dnnl_f32, {2, 3}, x)
            .in(dnnl_f32, {2, 3}, dy)
            .in(dnnl_f32, {2}, {mu[0], mu[1]})
            .in(dnnl_f32, {2}, {var[0], var[1]})
            .in(dnnl_f32, {3}, {gm[0], gm[1], gm[2]})
            .f32(dnnl_graph_op_attr_epsilon, 0.f)
            .out(dnnl_f32, {2, 3}, dx)
            .out(dnnl_f32, {3}, dgam)
            .out(dnnl_f32, {3}, dbet)
            .tol(1e-5, 1e-4);
}
op_case_t case_group_norm() {
    // NXC [1,2,4] (N=1, W=2, C=4), groups 2: group 0 = channels {0,1},
    // group 1 = {2,3}. eps 0. gamma {1,1,2,2}, beta {0,0,1,-1}.
    // src rows (w): w0 = {1,3,0,4}, w1 = {5,7,2,-2}.
    // g0: {1,3,5,7}: mu 4, var (9+1+1+9)/4 = 5. g1: {0,4,2,-2}: mu 1,
    // var (1+9+1+9)/4 = 5.
    const std::vector<double> x = {1, 3, 0, 4, 5, 7, 2, -2};
    const double gam[4] = {1, 1, 2, 2}, bet[4] = {0, 0, 1, -1}, mu[2] = {4, 1};
    std::vector<double> y(8);
    for (int w = 0; w < 2; ++w)
        for (int c = 0; c < 4; ++c)
            y[w * 4 + c] = gam[c] * (x[w * 4 + c] - mu[c / 2]) / std::sqrt(5.0) + bet[c];
    return make_case()
            .in(dnnl_f32, {1, 2, 4}, x)
            .in(dnnl_f32, {4}, {1, 1, 2, 2})
            .in(dnnl_f32, {4}, {0, 0, 1, -1})
            .s64(dnnl_graph_op_attr_groups, 2)
            .f32(dnnl_graph_op_attr_epsilon, 0.f)
            .out(dnnl_f32, {1, 2, 4}, y)
            .out(dnnl_f32, {1, 2}, {4, 1})
            .out(dnnl_f32, {1, 2}, {5, 5})
            .tol(1e-5, 1e-5);
}
