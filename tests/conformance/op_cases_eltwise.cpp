// SPDX-License-Identifier: Apache-2.0
// tests/conformance/op_cases_eltwise.cpp — known-answer cases for the 19
// elementwise unary forward ops and the 12 elementwise backward ops.
// Expected values come from the spec formulas (opset.md §2.1, §2.2)
// evaluated in double by the lambdas below, never from llga code.
#include "conformance_cases.hpp"

using namespace conf;

namespace {
const std::vector<double> X = {-2, -1, -0.5, 0, 1, 2.5}; // mixed signs
const std::vector<double> P = {0.25, 0.5, 1, 2, 4, 9}; // positive
const std::vector<double> DY = {1, 2, 3, 4, 5, 6};
const double PI = 3.14159265358979323846;

op_case_t unary(const std::vector<double> &x, const std::function<double(double)> &f) {
    return make_case()
            .in(dnnl_f32, {2, 3}, x)
            .out(dnnl_f32, {2, 3}, map1(x, f));
}
// Backward: input 0 (src or dst), input 1 diff_dst.
op_case_t bwd(const std::vector<double> &v,
        const std::function<double(double, double)> &f) {
    return make_case()
            .in(dnnl_f32, {2, 3}, v)
            .in(dnnl_f32, {2, 3}, DY)
            .out(dnnl_f32, {2, 3}, map2(v, DY, f));
}
} // namespace

// ---- forward ------------------------------------------------------------

op_case_t case_abs() {
    return make_case()
            .in(dnnl_f32, {2, 3}, X)
            .out(dnnl_f32, {2, 3}, {2, 1, 0.5, 0, 1, 2.5});
}
op_case_t case_clamp() {
    return unary(X, [](double x) { return std::min(std::max(x, -1.0), 1.5); })
            .f32(dnnl_graph_op_attr_min, -1.f)
            .f32(dnnl_graph_op_attr_max, 1.5f);
}
op_case_t case_elu() {
    return unary(X, [](double x) { return x > 0 ? x : 0.5 * (std::exp(x) - 1); })
            .f32(dnnl_graph_op_attr_alpha, 0.5f);
}
op_case_t case_exp() {
    return unary(X, [](double x) { return std::exp(x); });
}
op_case_t case_gelu() { // default mode gelu_erf
    return unary(X, [](double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); });
}
op_case_t case_hard_swish() {
    const std::vector<double> x = {-4, -3, -1, 0, 1, 4};
    // x * max(0, min(1, x/6 + 1/2)): -4 -> 0, -3 -> 0, -1 -> -1/3, 0, 2/3, 4
    return make_case()
            .in(dnnl_f32, {2, 3}, x)
            .out(dnnl_f32, {2, 3}, {0, 0, -1.0 / 3, 0, 2.0 / 3, 4});
}
op_case_t case_leaky_relu() {
    return make_case()
            .in(dnnl_f32, {2, 3}, X)
            .f32(dnnl_graph_op_attr_alpha, 0.25f)
            .out(dnnl_f32, {2, 3}, {-0.5, -0.25, -0.125, 0, 1, 2.5});
}
op_case_t case_log() {
    return unary(P, [](double x) { return std::log(x); });
}
op_case_t case_mish() {
    return unary(X, [](double x) { return x * std::tanh(std::log1p(std::exp(x))); });
}
op_case_t case_reciprocal() {
    return make_case()
            .in(dnnl_f32, {2, 3}, {-2, -0.5, 0.25, 1, 4, 8})
            .out(dnnl_f32, {2, 3}, {-0.5, -2, 4, 1, 0.25, 0.125});
}
op_case_t case_relu() {
    return make_case()
            .in(dnnl_f32, {2, 3}, X)
            .out(dnnl_f32, {2, 3}, {0, 0, 0, 0, 1, 2.5});
}
op_case_t case_round() { // ties to even
    return make_case()
            .in(dnnl_f32, {2, 4}, {-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 2.4, -2.6})
            .out(dnnl_f32, {2, 4}, {-2, -2, 0, 0, 2, 2, 2, -3});
}
op_case_t case_sigmoid() {
    return unary(X, sigm);
}
op_case_t case_softplus() { // beta = 2: (1/2) ln(1 + e^(2x))
    return unary(X, [](double x) { return 0.5 * std::log1p(std::exp(2 * x)); })
            .f32(dnnl_graph_op_attr_beta, 2.f);
}
op_case_t case_sqrt() {
    return make_case()
            .in(dnnl_f32, {2, 3}, P)
            .out(dnnl_f32, {2, 3}, {0.5, std::sqrt(0.5), 1, std::sqrt(2.0), 2, 3});
}
op_case_t case_square() {
    return make_case()
            .in(dnnl_f32, {2, 3}, X)
            .out(dnnl_f32, {2, 3}, {4, 1, 0.25, 0, 1, 6.25});
}
op_case_t case_tanh() {
    return unary(X, [](double x) { return std::tanh(x); });
}
op_case_t case_hard_sigmoid() { // max(0, min(1, 0.2x + 0.5))
    return make_case()
            .in(dnnl_f32, {2, 3}, {-3, -2.5, -1, 0, 2, 3})
            .f32(dnnl_graph_op_attr_alpha, 0.2f)
            .f32(dnnl_graph_op_attr_beta, 0.5f)
            .out(dnnl_f32, {2, 3}, {0, 0, 0.3, 0.5, 0.9, 1});
}
op_case_t case_pow() { // x^1.5
    return make_case()
            .in(dnnl_f32, {2, 3}, {0.25, 1, 4, 9, 16, 0})
            .f32(dnnl_graph_op_attr_beta, 1.5f)
            .out(dnnl_f32, {2, 3}, {0.125, 1, 8, 27, 64, 0});
}

// ---- backward -----------------------------------------------------------

op_case_t case_abs_backward() {
    return make_case()
            .in(dnnl_f32, {2, 3}, {-2, -1, 0, 0.5, 1, 3})
            .in(dnnl_f32, {2, 3}, DY)
            .out(dnnl_f32, {2, 3}, {-1, -2, 0, 4, 5, 6});
}
op_case_t case_clamp_backward() {
    // use_dst defaults to true: input 0 is the forward dst; dy passes only
    // where min < y < max strictly.
    return make_case()
            .in(dnnl_f32, {2, 3}, {-1, -1, -0.5, 0.5, 1, 1})
            .in(dnnl_f32, {2, 3}, DY)
            .f32(dnnl_graph_op_attr_min, -1.f)
            .f32(dnnl_graph_op_attr_max, 1.f)
            .out(dnnl_f32, {2, 3}, {0, 0, 3, 4, 0, 0});
}
op_case_t case_elu_backward() {
    // use_dst (default true): dy * (y > 0 ? 1 : y + alpha), alpha = 0.5.
    return make_case()
            .in(dnnl_f32, {2, 3}, {-0.25, -0.125, 0, 0.5, 1, 2})
            .in(dnnl_f32, {2, 3}, DY)
            .f32(dnnl_graph_op_attr_alpha, 0.5f)
            .out(dnnl_f32, {2, 3}, {0.25, 0.75, 1.5, 4, 5, 6});
}
op_case_t case_gelu_backward() { // gelu_tanh derivative
    return bwd(X, [](double x, double dy) {
        const double c = std::sqrt(2 / PI);
        const double g = c * x * (1 + 0.044715 * x * x);
        const double t = std::tanh(g);
        const double gp = c * (1 + 3 * 0.044715 * x * x);
        return dy * 0.5 * (1 + t) * (1 + x * (1 - t) * gp);
    })
            .str(dnnl_graph_op_attr_mode, "gelu_tanh");
}
op_case_t case_hard_swish_backward() {
    // v = x/6 + 1/2: v <= 0 -> 0; v >= 1 -> dy; else dy * (x/3 + 1/2).
    return make_case()
            .in(dnnl_f32, {2, 3}, {-4, -3, -1, 0, 3, 4})
            .in(dnnl_f32, {2, 3}, DY)
            .out(dnnl_f32, {2, 3}, {0, 0, 3.0 / 6, 2, 5, 6});
}
op_case_t case_mish_backward() {
    return bwd(X, [](double x, double dy) {
        const double s = std::log1p(std::exp(x)), t = std::tanh(s);
        return dy * (t + x * sigm(x) * (1 - t * t));
    });
}
op_case_t case_relu_backward() { // use_dst default true: dy where y > 0
    return make_case()
            .in(dnnl_f32, {2, 3}, {0, 0, 0.5, 2, 0, 1})
            .in(dnnl_f32, {2, 3}, DY)
            .out(dnnl_f32, {2, 3}, {0, 0, 3, 4, 0, 6});
}
op_case_t case_sigmoid_backward() { // use_dst = false: dy * s(x)(1 - s(x))
    return bwd(X, [](double x, double dy) { return dy * sigm(x) * (1 - sigm(x)); })
            .b(dnnl_graph_op_attr_use_dst, false);
}
op_case_t case_softplus_backward() { // beta = 2: dy * s(2x)
    return bwd(X, [](double x, double dy) { return dy * sigm(2 * x); })
            .f32(dnnl_graph_op_attr_beta, 2.f);
}
op_case_t case_sqrt_backward() { // use_dst default true: dy / (2y)
    return make_case()
            .in(dnnl_f32, {2, 3}, {0.5, 1, 2, 4, 0.25, 3})
            .in(dnnl_f32, {2, 3}, DY)
            .out(dnnl_f32, {2, 3}, {1, 1, 0.75, 0.5, 10, 1});
}
op_case_t case_tanh_backward() { // use_dst = false: dy * (1 - tanh^2 x)
    return bwd(X, [](double x, double dy) {
        const double t = std::tanh(x);
        return dy * (1 - t * t);
    })
            .b(dnnl_graph_op_attr_use_dst, false);
}
op_case_t case_hard_sigmoid_backward() {
    // dy * alpha where 0 < alpha x + beta < 1 (alpha 0.2, beta 0.5).
    return make_case()
            .in(dnnl_f32, {2, 3}, {-3, -2.5, -1, 0, 2.5, 3})
            .in(dnnl_f32, {2, 3}, DY)
            .f32(dnnl_graph_op_attr_alpha, 0.2f)
            .f32(dnnl_graph_op_attr_beta, 0.5f)
            .out(dnnl_f32, {2, 3}, {0, 0, 0.6, 0.8, 0, 0});
}
