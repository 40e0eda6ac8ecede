// SPDX-License-Identifier: Apache-2.0
// ops/eltwise_math.hpp — scalar formulas of the elementwise unary ops, forward
// and backward, shared by eltwise_unary.cpp and eltwise_backward.cpp so that a
// gradient is always written next to the function it differentiates. Values
// travel as double; the store into the destination rounds to its dtype.
#pragma once

#include <cmath>

#include "ir/op.hpp"
#include "ops/schema.hpp"

namespace llga {
namespace ops {
namespace eltwise {

// Attribute values one formula may need, read once per kernel call.
struct params_t {
    double alpha = 0, beta = 0; // Elu/LeakyReLU/HardSigmoid alpha; beta
    double lo = 0, hi = 0;      // Clamp min / max
    bool gelu_tanh = false;     // GELU mode
    bool use_dst = true;        // backward: input 0 is the forward dst
};

inline params_t params_of(const ir::op_t &op) {
    params_t p;
    p.alpha = op.get_f32(dnnl_graph_op_attr_alpha, 0.f);
    // SoftPlus's beta defaults to 1; verify() injects it, the fallback only
    // matters for ops run without verification.
    p.beta = op.get_f32(dnnl_graph_op_attr_beta,
            op.kind == dnnl_graph_op_softplus
                            || op.kind == dnnl_graph_op_softplus_backward
                    ? 1.f
                    : 0.f);
    p.lo = op.get_f32(dnnl_graph_op_attr_min, 0.f);
    p.hi = op.get_f32(dnnl_graph_op_attr_max, 0.f);
    p.gelu_tanh = iequals(op.get_str(dnnl_graph_op_attr_mode, "gelu_erf"),
            "gelu_tanh");
    p.use_dst = op.get_bool(dnnl_graph_op_attr_use_dst, true);
    return p;
}

// The opset's sigmoid flushes to 0 where e^-x would overflow in f32, so the
// oracle does the same rather than returning an f32 denormal.
constexpr double k_exp_overflow = 88.7228;
constexpr double k_pi = 3.14159265358979323846;

inline double sigmoid(double x) {
    if (-x >= k_exp_overflow) return 0.0;
    return 1.0 / (1.0 + std::exp(-x));
}

// ln(1 + e^t), exact enough in double below the f32 overflow point; above it
// the result equals t to far better than f32 precision.
inline double log1pexp(double t) {
    if (t >= k_exp_overflow) return t;
    return std::log1p(std::exp(t));
}

// ---- forward formulas: y = f(x) -------------------------------------------

using fwd_fn_t = double (*)(double x, const params_t &p);

inline double abs_f(double x, const params_t &) { return std::fabs(x); }
// Comparisons written so that NaN passes through unchanged (fmin/fmax would
// swallow it).
inline double clamp_to(double x, double lo, double hi) {
    const double t = x < lo ? lo : x;
    return t > hi ? hi : t;
}
inline double clamp_f(double x, const params_t &p) {
    return clamp_to(x, p.lo, p.hi);
}
inline double elu_f(double x, const params_t &p) {
    return x > 0 ? x : p.alpha * (std::exp(x) - 1.0);
}
inline double exp_f(double x, const params_t &) { return std::exp(x); }
inline double gelu_f(double x, const params_t &p) {
    if (p.gelu_tanh) {
        const double g = std::sqrt(2.0 / k_pi) * (x + 0.044715 * x * x * x);
        return 0.5 * x * (1.0 + std::tanh(g));
    }
    return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
}
inline double hardsigmoid_f(double x, const params_t &p) {
    return clamp_to(p.alpha * x + p.beta, 0.0, 1.0);
}
inline double hardswish_f(double x, const params_t &) {
    return x * clamp_to(x / 6.0 + 0.5, 0.0, 1.0);
}
inline double leaky_relu_f(double x, const params_t &p) {
    return x >= 0 ? x : p.alpha * x;
}
inline double log_f(double x, const params_t &) { return std::log(x); }
inline double mish_f(double x, const params_t &) {
    return x * std::tanh(log1pexp(x));
}
inline double pow_f(double x, const params_t &p) { return std::pow(x, p.beta); }
// 1/x keeps the sign of zero: 1/-0 = -inf, as powf(x, -1) does.
inline double reciprocal_f(double x, const params_t &) { return 1.0 / x; }
// `x < 0` rather than `x > 0` so NaN propagates.
inline double relu_f(double x, const params_t &) { return x < 0 ? 0.0 : x; }
// nearbyint under the default rounding mode: ties go to even.
inline double round_f(double x, const params_t &) { return std::nearbyint(x); }
inline double sigmoid_f(double x, const params_t &) { return sigmoid(x); }
inline double softplus_f(double x, const params_t &p) {
    return log1pexp(p.beta * x) / p.beta;
}
inline double sqrt_f(double x, const params_t &) { return std::sqrt(x); }
inline double square_f(double x, const params_t &) { return x * x; }
inline double tanh_f(double x, const params_t &) { return std::tanh(x); }

// ---- backward formulas: diff_src = g(v, dy) --------------------------------
// v is the forward src, or the forward dst for ops whose use_dst is true.

using bwd_fn_t = double (*)(double v, double dy, const params_t &p);

// The formula of each unary op and each unary backward op (nullptr for any
// other kind): what the reference kernels apply element by element, and
// what backend kernels that must match them bit for bit call.
fwd_fn_t forward_fn(op_kind_t kind);
bwd_fn_t backward_fn(op_kind_t kind);

inline double abs_b(double x, double dy, const params_t &) {
    return x > 0 ? dy : (x < 0 ? -dy : 0.0);
}
inline double clamp_b(double v, double dy, const params_t &p) {
    return (v > p.lo && v < p.hi) ? dy : 0.0;
}
inline double elu_b(double v, double dy, const params_t &p) {
    if (p.use_dst) return dy * (v > 0 ? 1.0 : v + p.alpha);
    return dy * (v > 0 ? 1.0 : p.alpha * std::exp(v));
}
inline double gelu_b(double x, double dy, const params_t &p) {
    if (p.gelu_tanh) {
        const double c = std::sqrt(2.0 / k_pi), k = 0.044715;
        const double t = std::tanh(c * x * (1.0 + k * x * x));
        const double dg = c * (1.0 + 3.0 * k * x * x);
        return dy * 0.5 * (1.0 + t) * (1.0 + x * (1.0 - t) * dg);
    }
    const double v = x / std::sqrt(2.0);
    return dy * 0.5
            * (1.0 + std::erf(v) + v * (2.0 / std::sqrt(k_pi)) * std::exp(-v * v));
}
inline double hardsigmoid_b(double x, double dy, const params_t &p) {
    const double t = p.alpha * x + p.beta;
    return (t > 0 && t < 1) ? dy * p.alpha : 0.0;
}
inline double hardswish_b(double x, double dy, const params_t &) {
    const double v = x / 6.0 + 0.5;
    if (v <= 0) return 0.0;
    if (v >= 1) return dy;
    return dy * (x / 3.0 + 0.5);
}
inline double mish_b(double x, double dy, const params_t &) {
    const double t = std::tanh(log1pexp(x));
    return dy * (t + x * sigmoid(x) * (1.0 - t * t));
}
inline double relu_b(double v, double dy, const params_t &) {
    return v > 0 ? dy : 0.0;
}
inline double sigmoid_b(double v, double dy, const params_t &p) {
    const double y = p.use_dst ? v : sigmoid(v);
    return dy * y * (1.0 - y);
}
inline double softplus_b(double x, double dy, const params_t &p) {
    return dy * sigmoid(p.beta * x);
}
inline double sqrt_b(double v, double dy, const params_t &p) {
    const double y = p.use_dst ? v : std::sqrt(v);
    return dy / (2.0 * y);
}
inline double tanh_b(double v, double dy, const params_t &p) {
    const double y = p.use_dst ? v : std::tanh(v);
    return dy * (1.0 - y) * (1.0 + y);
}

// Every formula with the op kind it computes (dnnl_graph_op_<kind>): the
// one list the reference's forward_fn/backward_fn and the CPU backend's
// inlined loops (eltwise_exact.cpp) expand, X(kind, formula).
#define LLGA_ELTWISE_FWD_FORMULAS(X) \
    X(abs, abs_f) X(clamp, clamp_f) X(elu, elu_f) X(exp, exp_f) \
    X(gelu, gelu_f) X(hard_sigmoid, hardsigmoid_f) \
    X(hard_swish, hardswish_f) X(leaky_relu, leaky_relu_f) X(log, log_f) \
    X(mish, mish_f) X(pow, pow_f) X(reciprocal, reciprocal_f) \
    X(relu, relu_f) X(round, round_f) X(sigmoid, sigmoid_f) \
    X(softplus, softplus_f) X(sqrt, sqrt_f) X(square, square_f) \
    X(tanh, tanh_f)
#define LLGA_ELTWISE_BWD_FORMULAS(X) \
    X(abs_backward, abs_b) X(clamp_backward, clamp_b) \
    X(elu_backward, elu_b) X(gelu_backward, gelu_b) \
    X(hard_sigmoid_backward, hardsigmoid_b) \
    X(hard_swish_backward, hardswish_b) X(mish_backward, mish_b) \
    X(relu_backward, relu_b) X(sigmoid_backward, sigmoid_b) \
    X(softplus_backward, softplus_b) X(sqrt_backward, sqrt_b) \
    X(tanh_backward, tanh_b)

} // namespace eltwise
} // namespace ops
} // namespace llga
