// SPDX-License-Identifier: Apache-2.0
// tests/unit/ops/eltwise_backward_test.cpp — the 12 elementwise backward ops:
// hand-computed answers, finite-difference checks against forward formulas
// written here (for use_dst ops both with src and with dst as input 0),
// schema violations, shape inference, strided and bf16 inputs.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>

#include "ops/op_test_util.hpp"

namespace llga {
namespace test {

namespace {

// Marks dim `d` of input `k` unknown after the runner built it (its buffer
// sizing needs known dims).
void forget_dim(op_runner_t &r, size_t k, int d) {
    r.op().inputs[k].dims[d] = unknown_dim;
}

using attrs_fn_t = std::function<void(op_runner_t &)>;

const std::vector<op_kind_t> k_bwd_ops {dnnl_graph_op_abs_backward,
        dnnl_graph_op_clamp_backward, dnnl_graph_op_elu_backward,
        dnnl_graph_op_gelu_backward, dnnl_graph_op_hard_sigmoid_backward,
        dnnl_graph_op_hard_swish_backward, dnnl_graph_op_mish_backward,
        dnnl_graph_op_relu_backward, dnnl_graph_op_sigmoid_backward,
        dnnl_graph_op_softplus_backward, dnnl_graph_op_sqrt_backward,
        dnnl_graph_op_tanh_backward};

bool has_use_dst(op_kind_t k) {
    return k == dnnl_graph_op_clamp_backward || k == dnnl_graph_op_elu_backward
            || k == dnnl_graph_op_relu_backward
            || k == dnnl_graph_op_sigmoid_backward
            || k == dnnl_graph_op_sqrt_backward
            || k == dnnl_graph_op_tanh_backward;
}

void add_required_attrs(op_runner_t &r, op_kind_t kind) {
    switch (kind) {
        case dnnl_graph_op_clamp_backward:
            r.f32(dnnl_graph_op_attr_min, -1.f).f32(dnnl_graph_op_attr_max, 1.f);
            break;
        case dnnl_graph_op_elu_backward: r.f32(dnnl_graph_op_attr_alpha, 1.f); break;
        case dnnl_graph_op_hard_sigmoid_backward:
            r.f32(dnnl_graph_op_attr_alpha, 0.2f).f32(dnnl_graph_op_attr_beta, 0.5f);
            break;
        default: break;
    }
}

// diff_src for input 0 = v, diff_dst = dy (f32, 1-D).
std::vector<double> run_bwd(op_kind_t kind, const std::vector<double> &v,
        const std::vector<double> &dy, const attrs_fn_t &attrs = nullptr) {
    const dim_t n = static_cast<dim_t>(v.size());
    op_runner_t r(kind);
    r.input(dnnl_f32, {n}, v).input(dnnl_f32, {n}, dy).output(dnnl_f32);
    if (attrs) attrs(r);
    EXPECT_EQ(r.run(), dnnl_success) << ops::op_kind_name(kind);
    return r.out_values();
}

attrs_fn_t use_src(const attrs_fn_t &more = nullptr) {
    return [more](op_runner_t &r) {
        r.boolean(dnnl_graph_op_attr_use_dst, false);
        if (more) more(r);
    };
}

double to_bf16(double v) {
    float f = static_cast<float>(v);
    uint32_t u;
    std::memcpy(&u, &f, 4);
    u += 0x7FFFu + ((u >> 16) & 1u);
    u &= 0xFFFF0000u;
    std::memcpy(&f, &u, 4);
    return f;
}

// Forward formulas, written independently of the library.
const double k_pi = 3.14159265358979323846;
double sig(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double softplus(double x, double b) { return std::log(1.0 + std::exp(b * x)) / b; }

} // namespace

// ---- hand-computed answers ---------------------------------------------------

TEST(AbsBackward, KnownAnswer) {
    expect_near_all(run_bwd(dnnl_graph_op_abs_backward, {-1, 0, 2}, {3, 3, 3}),
            {-3, 0, 3});
}

TEST(ClampBackward, StrictBounds) {
    const attrs_fn_t attrs = [](op_runner_t &r) {
        r.f32(dnnl_graph_op_attr_min, -1.f).f32(dnnl_graph_op_attr_max, 2.f);
    };
    expect_near_all(run_bwd(dnnl_graph_op_clamp_backward, {-1, 0, 2, 3},
                            {5, 5, 5, 5}, use_src(attrs)),
            {0, 5, 0, 0});
    // Default use_dst: input 0 is clamp(x), so clipped points sit on a bound.
    expect_near_all(run_bwd(dnnl_graph_op_clamp_backward, {-1, 0.5, 2}, {5, 5, 5},
                            attrs),
            {0, 5, 0});
}

TEST(EluBackward, KnownAnswer) {
    const attrs_fn_t alpha = [](op_runner_t &r) {
        r.f32(dnnl_graph_op_attr_alpha, 2.f);
    };
    expect_near_all(
            run_bwd(dnnl_graph_op_elu_backward, {1, -0.5}, {2, 2}, alpha), {2, 3});
    expect_near_all(run_bwd(dnnl_graph_op_elu_backward, {1, 0}, {2, 2},
                            use_src(alpha)),
            {2, 4});
}

TEST(GELUBackward, KnownAnswerAtZero) {
    expect_near_all(run_bwd(dnnl_graph_op_gelu_backward, {0}, {3}), {1.5});
    expect_near_all(run_bwd(dnnl_graph_op_gelu_backward, {0}, {3},
                            [](op_runner_t &r) {
                                r.str(dnnl_graph_op_attr_mode, "gelu_tanh");
                            }),
            {1.5});
}

TEST(HardSigmoidBackward, KnownAnswer) {
    expect_near_all(run_bwd(dnnl_graph_op_hard_sigmoid_backward, {-4, -2, 0, 2, 4},
                            {2, 2, 2, 2, 2},
                            [](op_runner_t &r) {
                                r.f32(dnnl_graph_op_attr_alpha, 0.25f)
                                        .f32(dnnl_graph_op_attr_beta, 0.5f);
                            }),
            {0, 0, 0.5, 0, 0});
}

TEST(HardSwishBackward, KnownAnswer) {
    expect_near_all(run_bwd(dnnl_graph_op_hard_swish_backward,
                            {-4, -3, 0, 1.5, 3, 4}, {2, 2, 2, 2, 2, 2}),
            {0, 0, 1, 2, 2, 2});
}

TEST(MishBackward, KnownAnswerAtZero) {
    // tanh(ln 2) = (2 - 1/2) / (2 + 1/2) = 0.6; the x-term vanishes at 0.
    expect_near_all(run_bwd(dnnl_graph_op_mish_backward, {0}, {2}), {1.2});
}

TEST(ReLUBackward, KnownAnswer) {
    expect_near_all(run_bwd(dnnl_graph_op_relu_backward, {0, 2, 0}, {5, 5, 5}),
            {0, 5, 0});
    expect_near_all(run_bwd(dnnl_graph_op_relu_backward, {-1, 2, 0}, {5, 5, 5},
                            use_src()),
            {0, 5, 0});
}

TEST(SigmoidBackward, KnownAnswer) {
    expect_near_all(run_bwd(dnnl_graph_op_sigmoid_backward, {0.5, 0.25}, {4, 4}),
            {1, 0.75});
    expect_near_all(run_bwd(dnnl_graph_op_sigmoid_backward, {0}, {4}, use_src()),
            {1});
}

TEST(SoftPlusBackward, KnownAnswer) {
    expect_near_all(run_bwd(dnnl_graph_op_softplus_backward, {0}, {3}), {1.5});
    expect_near_all(run_bwd(dnnl_graph_op_softplus_backward, {0.5}, {1},
                            [](op_runner_t &r) {
                                r.f32(dnnl_graph_op_attr_beta, 2.f);
                            }),
            {sig(1.0)});
}

TEST(SqrtBackward, KnownAnswer) {
    expect_near_all(run_bwd(dnnl_graph_op_sqrt_backward, {2, 0.5}, {4, 4}), {1, 4});
    expect_near_all(
            run_bwd(dnnl_graph_op_sqrt_backward, {4}, {4}, use_src()), {1});
}

TEST(TanhBackward, KnownAnswer) {
    expect_near_all(run_bwd(dnnl_graph_op_tanh_backward, {0.5, 0}, {2, 2}),
            {1.5, 2});
    expect_near_all(
            run_bwd(dnnl_graph_op_tanh_backward, {0}, {2}, use_src()), {2});
}

// ---- finite differences ----------------------------------------------------------

struct fd_case_t {
    op_kind_t kind;
    std::function<double(double)> fwd;
    attrs_fn_t attrs;
    std::vector<double> x; // away from kinks
};

TEST(EltwiseBackwardGradient, MatchesCentralDifferences) {
    const std::vector<double> pts {-3.7, -1.9, -0.7, -0.3, 0.3, 0.7, 1.3, 2.2, 3.6};
    const std::vector<double> pos {0.3, 0.7, 1.3, 2.2, 3.6, 9};
    const double c = std::sqrt(2 / k_pi);
    const std::vector<fd_case_t> cases {
            {dnnl_graph_op_abs_backward, [](double x) { return std::fabs(x); },
                    nullptr, pts},
            {dnnl_graph_op_clamp_backward,
                    [](double x) { return std::min(std::max(x, -1.0), 1.5); },
                    [](op_runner_t &r) {
                        r.f32(dnnl_graph_op_attr_min, -1.f)
                                .f32(dnnl_graph_op_attr_max, 1.5f);
                    },
                    pts},
            {dnnl_graph_op_elu_backward,
                    [](double x) { return x > 0 ? x : 1.5 * (std::exp(x) - 1); },
                    [](op_runner_t &r) { r.f32(dnnl_graph_op_attr_alpha, 1.5f); },
                    pts},
            {dnnl_graph_op_gelu_backward,
                    [](double x) {
                        return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
                    },
                    nullptr, pts},
            {dnnl_graph_op_gelu_backward,
                    [c](double x) {
                        return 0.5 * x * (1 + std::tanh(c * (x + 0.044715 * x * x * x)));
                    },
                    [](op_runner_t &r) { r.str(dnnl_graph_op_attr_mode, "gelu_tanh"); },
                    pts},
            {dnnl_graph_op_hard_sigmoid_backward,
                    [](double x) { return std::min(1.0, std::max(0.0, 0.2 * x + 0.5)); },
                    [](op_runner_t &r) {
                        r.f32(dnnl_graph_op_attr_alpha, 0.2f)
                                .f32(dnnl_graph_op_attr_beta, 0.5f);
                    },
                    pts},
            {dnnl_graph_op_hard_swish_backward,
                    [](double x) {
                        return x * std::min(1.0, std::max(0.0, x / 6 + 0.5));
                    },
                    nullptr, pts},
            {dnnl_graph_op_mish_backward,
                    [](double x) { return x * std::tanh(std::log(1 + std::exp(x))); },
                    nullptr, pts},
            {dnnl_graph_op_relu_backward, [](double x) { return x > 0 ? x : 0; },
                    nullptr, pts},
            {dnnl_graph_op_sigmoid_backward, sig, nullptr, pts},
            {dnnl_graph_op_softplus_backward,
                    [](double x) { return softplus(x, 1); }, nullptr, pts},
            {dnnl_graph_op_softplus_backward,
                    [](double x) { return softplus(x, 0.5); },
                    [](op_runner_t &r) { r.f32(dnnl_graph_op_attr_beta, 0.5f); },
                    pts},
            {dnnl_graph_op_sqrt_backward, [](double x) { return std::sqrt(x); },
                    nullptr, pos},
            {dnnl_graph_op_tanh_backward, [](double x) { return std::tanh(x); },
                    nullptr, pts},
    };
    const double h = 1e-4;
    for (const fd_case_t &fc : cases) {
        SCOPED_TRACE(ops::op_kind_name(fc.kind));
        std::vector<double> dy, want, y;
        for (size_t i = 0; i < fc.x.size(); ++i) {
            const double d = 0.5 + 0.25 * static_cast<double>(i % 3);
            dy.push_back(i % 2 ? -d : d);
            want.push_back(dy.back() * (fc.fwd(fc.x[i] + h) - fc.fwd(fc.x[i] - h))
                    / (2 * h));
            y.push_back(fc.fwd(fc.x[i]));
        }
        if (has_use_dst(fc.kind)) {
            // Input 0 = src with use_dst=false, = dst with the default.
            expect_near_all(run_bwd(fc.kind, fc.x, dy, use_src(fc.attrs)), want,
                    1e-4, 1e-3);
            expect_near_all(run_bwd(fc.kind, y, dy, fc.attrs), want, 1e-4, 1e-3);
        } else {
            expect_near_all(run_bwd(fc.kind, fc.x, dy, fc.attrs), want, 1e-4, 1e-3);
        }
    }
}

// ---- schemas -------------------------------------------------------------------

TEST(EltwiseBackwardSchema, EveryOpRegistered) {
    for (op_kind_t k : k_bwd_ops) {
        SCOPED_TRACE(ops::op_kind_name(k));
        EXPECT_TRUE(ops::has_reference(k));
        EXPECT_TRUE(ops::find_op_def(k)->traits.is_backward);
        op_runner_t ok(k);
        ok.input(dnnl_bf16, {2}).input(dnnl_bf16, {2}).output(dnnl_bf16);
        add_required_attrs(ok, k);
        ASSERT_EQ(ok.verify(), dnnl_success);
        // use_dst is declared (default true) exactly on the six ops that have it.
        EXPECT_EQ(ok.op().has_attr(dnnl_graph_op_attr_use_dst), has_use_dst(k));
        if (has_use_dst(k)) {
            EXPECT_TRUE(ok.op().get_bool(dnnl_graph_op_attr_use_dst));
        }
    }
}

TEST(EltwiseBackwardSchema, Violations) {
    for (op_kind_t k : k_bwd_ops) {
        SCOPED_TRACE(ops::op_kind_name(k));
        op_runner_t s32(k);
        s32.input(dnnl_s32, {2}).input(dnnl_s32, {2}).output(dnnl_s32);
        add_required_attrs(s32, k);
        EXPECT_EQ(s32.verify(), dnnl_invalid_graph_op);
        op_runner_t mixed(k);
        mixed.input(dnnl_f32, {2}).input(dnnl_f16, {2}).output(dnnl_f32);
        add_required_attrs(mixed, k);
        EXPECT_EQ(mixed.verify(), dnnl_invalid_graph_op);
        op_runner_t one(k);
        one.input(dnnl_f32, {2}).output(dnnl_f32);
        add_required_attrs(one, k);
        EXPECT_EQ(one.verify(), dnnl_invalid_graph_op);
        if (!has_use_dst(k)) {
            op_runner_t ud(k);
            ud.input(dnnl_f32, {2}).input(dnnl_f32, {2}).output(dnnl_f32)
                    .boolean(dnnl_graph_op_attr_use_dst, true);
            add_required_attrs(ud, k);
            EXPECT_EQ(ud.verify(), dnnl_invalid_graph_op);
        }
    }
    auto verify = [](op_kind_t k, const attrs_fn_t &attrs) {
        op_runner_t r(k);
        r.input(dnnl_f32, {2}).input(dnnl_f32, {2}).output(dnnl_f32);
        attrs(r);
        return r.verify();
    };
    EXPECT_EQ(verify(dnnl_graph_op_clamp_backward,
                      [](op_runner_t &r) { r.f32(dnnl_graph_op_attr_max, 1.f); }),
            dnnl_invalid_graph_op);
    EXPECT_EQ(verify(dnnl_graph_op_elu_backward, [](op_runner_t &) {}),
            dnnl_invalid_graph_op);
    EXPECT_EQ(verify(dnnl_graph_op_hard_sigmoid_backward,
                      [](op_runner_t &r) { r.f32(dnnl_graph_op_attr_beta, 1.f); }),
            dnnl_invalid_graph_op);
    EXPECT_EQ(verify(dnnl_graph_op_gelu_backward,
                      [](op_runner_t &r) { r.str(dnnl_graph_op_attr_mode, "tanh"); }),
            dnnl_invalid_graph_op);
    EXPECT_EQ(verify(dnnl_graph_op_relu_backward,
                      [](op_runner_t &r) { r.s64(dnnl_graph_op_attr_use_dst, 1); }),
            dnnl_invalid_graph_op);
    EXPECT_EQ(verify(dnnl_graph_op_softplus_backward,
                      [](op_runner_t &r) { r.f32(dnnl_graph_op_attr_alpha, 1.f); }),
            dnnl_invalid_graph_op);
}

TEST(EltwiseBackwardShape, IdentityAndErrors) {
    op_runner_t ok(dnnl_graph_op_tanh_backward);
    ok.input(dnnl_f32, {2, 3}).input(dnnl_f32, {2, 3}).output(dnnl_f32);
    ASSERT_EQ(ok.infer(), dnnl_success);
    EXPECT_EQ(ok.out_dims(), (dims_t {2, 3}));
    op_runner_t mismatch(dnnl_graph_op_relu_backward);
    mismatch.input(dnnl_f32, {2, 3}).input(dnnl_f32, {3}).output(dnnl_f32);
    EXPECT_EQ(mismatch.infer(), dnnl_invalid_shape);
    op_runner_t unknown(dnnl_graph_op_abs_backward);
    unknown.input(dnnl_f32, {3}).input(dnnl_f32, {3}).output(dnnl_f32);
    forget_dim(unknown, 0, 0);
    EXPECT_EQ(unknown.infer(), dnnl_invalid_shape);
    op_runner_t declared(dnnl_graph_op_sigmoid_backward);
    declared.input(dnnl_f32, {2, 3}).input(dnnl_f32, {2, 3}).output(dnnl_f32, {3, 2});
    EXPECT_EQ(declared.infer(), dnnl_invalid_shape);
}

// ---- layouts and dtypes -------------------------------------------------------

TEST(EltwiseBackwardLayout, StridedAndBf16) {
    // src/dst transposed, diff_dst dense.
    const std::vector<double> y {0, 1, 2, 0, 3, 0}, dy {1, 2, 3, 4, 5, 6};
    op_runner_t r(dnnl_graph_op_relu_backward);
    r.input_strided(dnnl_f32, {2, 3}, {1, 2}, y).input(dnnl_f32, {2, 3}, dy)
            .output(dnnl_f32);
    ASSERT_EQ(r.run(), dnnl_success);
    expect_near_all(r.out_values(), {0, 2, 3, 0, 5, 0}, 0, 0);

    // bf16 sigmoid backward from dst: dy * y * (1 - y), rounded to bf16.
    const std::vector<double> yb {0.1, 0.5, 0.9}, db {1.3, -2, 0.7};
    op_runner_t b(dnnl_graph_op_sigmoid_backward);
    b.input(dnnl_bf16, {3}, yb).input(dnnl_bf16, {3}, db).output(dnnl_bf16);
    ASSERT_EQ(b.run(), dnnl_success);
    std::vector<double> want;
    for (size_t i = 0; i < 3; ++i) {
        const double yy = to_bf16(yb[i]), dd = to_bf16(db[i]);
        want.push_back(to_bf16(dd * yy * (1 - yy)));
    }
    expect_near_all(b.out_values(), want, 0, 0);
}

TEST(EltwiseBackwardLayout, InPlaceOnDiffDst) {
    op_runner_t r(dnnl_graph_op_tanh_backward);
    r.input(dnnl_f32, {3}).input(dnnl_f32, {3}).output(dnnl_f32);
    ASSERT_EQ(r.infer(), dnnl_success);
    std::vector<float> y {0, 0.5f, -0.5f}, dy {2, 2, 4};
    const ops::op_def_t *def = ops::find_op_def(dnnl_graph_op_tanh_backward);
    EXPECT_EQ(def->traits.inplace_input, 1);
    ASSERT_EQ(def->ref(r.op(), {y.data(), dy.data()}, {dy.data()}), dnnl_success);
    EXPECT_EQ(dy, (std::vector<float> {2, 1.5f, 3}));
}

} // namespace test
} // namespace llga
