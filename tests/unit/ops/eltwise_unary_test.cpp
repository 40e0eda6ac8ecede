// SPDX-License-Identifier: Apache-2.0
// tests/unit/ops/eltwise_unary_test.cpp — the 19 elementwise unary forward
// ops: hand-computed answers, independent formulas over a range of inputs,
// schema violations, identity shape inference, strided / bf16 / f16 inputs
// and in-place execution.
#include <cmath>
#include <cstring>
#include <functional>
#include <string>

#include "ops/op_test_util.hpp"

namespace llga {
namespace test {

namespace {

// Marks dim `d` of input `k` unknown after the runner built it (its buffer
// sizing needs known dims).
void forget_dim(op_runner_t &r, size_t k, int d) {
    r.op().inputs[k].dims[d] = unknown_dim;
}

const std::vector<op_kind_t> k_unary_ops {dnnl_graph_op_abs,
        dnnl_graph_op_clamp, dnnl_graph_op_elu, dnnl_graph_op_exp,
        dnnl_graph_op_gelu, dnnl_graph_op_hard_sigmoid, dnnl_graph_op_hard_swish,
        dnnl_graph_op_leaky_relu, dnnl_graph_op_log, dnnl_graph_op_mish,
        dnnl_graph_op_pow, dnnl_graph_op_reciprocal, dnnl_graph_op_relu,
        dnnl_graph_op_round, dnnl_graph_op_sigmoid, dnnl_graph_op_softplus,
        dnnl_graph_op_sqrt, dnnl_graph_op_square, dnnl_graph_op_tanh};

// Sets every required attribute of `kind` to a valid value.
void add_required_attrs(op_runner_t &r, op_kind_t kind) {
    switch (kind) {
        case dnnl_graph_op_clamp:
            r.f32(dnnl_graph_op_attr_min, -1.f).f32(dnnl_graph_op_attr_max, 1.f);
            break;
        case dnnl_graph_op_elu:
        case dnnl_graph_op_leaky_relu: r.f32(dnnl_graph_op_attr_alpha, 0.5f); break;
        case dnnl_graph_op_hard_sigmoid:
            r.f32(dnnl_graph_op_attr_alpha, 0.2f).f32(dnnl_graph_op_attr_beta, 0.5f);
            break;
        case dnnl_graph_op_pow: r.f32(dnnl_graph_op_attr_beta, 2.f); break;
        default: break;
    }
}

std::vector<double> run_f32(op_kind_t kind, const std::vector<double> &x,
        const std::function<void(op_runner_t &)> &attrs = nullptr) {
    op_runner_t r(kind);
    r.input(dnnl_f32, {static_cast<dim_t>(x.size())}, x).output(dnnl_f32);
    if (attrs) attrs(r);
    EXPECT_EQ(r.run(), dnnl_success) << ops::op_kind_name(kind);
    return r.out_values();
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

// Independent formulas (double precision) used over a sweep of inputs.
double sig(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double softplus(double x, double beta) {
    return std::log(1.0 + std::exp(beta * x)) / beta;
}

} // namespace

// ---- hand-computed answers ---------------------------------------------------

TEST(Abs, KnownAnswer) {
    expect_near_all(run_f32(dnnl_graph_op_abs, {-2, -0.5, 0, 3}), {2, 0.5, 0, 3});
}

TEST(Clamp, KnownAnswer) {
    expect_near_all(run_f32(dnnl_graph_op_clamp, {-3, -1, 0.5, 2, 5},
                            [](op_runner_t &r) {
                                r.f32(dnnl_graph_op_attr_min, -1.f)
                                        .f32(dnnl_graph_op_attr_max, 2.f);
                            }),
            {-1, -1, 0.5, 2, 2});
}

TEST(Elu, KnownAnswer) {
    expect_near_all(run_f32(dnnl_graph_op_elu, {1.5, 0, -1, -20},
                            [](op_runner_t &r) {
                                r.f32(dnnl_graph_op_attr_alpha, 2.f);
                            }),
            {1.5, 0, 2 * (std::exp(-1.0) - 1), 2 * (std::exp(-20.0) - 1)});
}

TEST(Exp, KnownAnswer) {
    expect_near_all(run_f32(dnnl_graph_op_exp, {0, 1, -2}),
            {1, 2.718281828459045, 0.1353352832366127});
}

TEST(GELU, ErfAndTanhModes) {
    const std::vector<double> x {-3, -1, -0.25, 0, 0.5, 1, 2.5};
    std::vector<double> erf_want, tanh_want;
    for (double v : x) {
        erf_want.push_back(0.5 * v * (1 + std::erf(v / std::sqrt(2.0))));
        const double c = std::sqrt(2 / 3.14159265358979323846);
        tanh_want.push_back(0.5 * v * (1 + std::tanh(c * (v + 0.044715 * v * v * v))));
    }
    expect_near_all(run_f32(dnnl_graph_op_gelu, x), erf_want, 1e-6, 1e-5);
    expect_near_all(run_f32(dnnl_graph_op_gelu, x,
                            [](op_runner_t &r) {
                                r.str(dnnl_graph_op_attr_mode, "gelu_tanh");
                            }),
            tanh_want, 1e-6, 1e-5);
    // GELU(1) with erf: 0.5 * (1 + erf(0.7071...)) = 0.841344746...
    EXPECT_NEAR(run_f32(dnnl_graph_op_gelu, {1})[0], 0.8413447460685429, 1e-6);
}

TEST(HardSigmoid, KnownAnswer) {
    expect_near_all(run_f32(dnnl_graph_op_hard_sigmoid, {-5, 0, 1, 5},
                            [](op_runner_t &r) {
                                r.f32(dnnl_graph_op_attr_alpha, 0.25f)
                                        .f32(dnnl_graph_op_attr_beta, 0.5f);
                            }),
            {0, 0.5, 0.75, 1});
}

TEST(HardSwish, KnownAnswer) {
    expect_near_all(run_f32(dnnl_graph_op_hard_swish, {-4, -3, 0, 1.5, 3, 4}),
            {0, 0, 0, 1.5 * 0.75, 3, 4});
}

TEST(LeakyReLU, KnownAnswer) {
    expect_near_all(run_f32(dnnl_graph_op_leaky_relu, {-2, 0, 3},
                            [](op_runner_t &r) {
                                r.f32(dnnl_graph_op_attr_alpha, 0.125f);
                            }),
            {-0.25, 0, 3});
}

TEST(Log, KnownAnswer) {
    const auto v = run_f32(dnnl_graph_op_log, {1, 2.718281828459045, 0.5, 0, -1});
    expect_near_all({v[0], v[1], v[2]}, {0, 1, -0.6931471805599453});
    EXPECT_TRUE(std::isinf(v[3]) && v[3] < 0);
    EXPECT_TRUE(std::isnan(v[4]));
}

TEST(Mish, KnownAnswer) {
    const std::vector<double> x {-5, -1, 0, 0.5, 2, 30};
    std::vector<double> want;
    for (double v : x)
        want.push_back(v * std::tanh(std::log(1 + std::exp(v))));
    expect_near_all(run_f32(dnnl_graph_op_mish, x), want, 1e-6, 1e-5);
}

TEST(Pow, KnownAnswer) {
    expect_near_all(run_f32(dnnl_graph_op_pow, {3, -2, 0.5},
                            [](op_runner_t &r) {
                                r.f32(dnnl_graph_op_attr_beta, 2.f);
                            }),
            {9, 4, 0.25});
    expect_near_all(run_f32(dnnl_graph_op_pow, {4, 9, 0.25},
                            [](op_runner_t &r) {
                                r.f32(dnnl_graph_op_attr_beta, -0.5f);
                            }),
            {0.5, 1.0 / 3, 2});
}

TEST(Reciprocal, KnownAnswerAndSignedZero) {
    const auto v = run_f32(dnnl_graph_op_reciprocal, {2, -4, 0.5, 0, -0.0});
    expect_near_all({v[0], v[1], v[2]}, {0.5, -0.25, 2});
    EXPECT_TRUE(std::isinf(v[3]) && v[3] > 0);
    EXPECT_TRUE(std::isinf(v[4]) && v[4] < 0);
}

TEST(ReLU, KnownAnswer) {
    expect_near_all(run_f32(dnnl_graph_op_relu, {-1, 0, 2, -1e-30, 7.5}),
            {0, 0, 2, 0, 7.5});
}

TEST(Round, TiesToEven) {
    expect_near_all(run_f32(dnnl_graph_op_round,
                            {0.5, 1.5, 2.5, -0.5, -1.5, 2.4, -2.6, 3}),
            {0, 2, 2, 0, -2, 2, -3, 3}, 0, 0);
}

TEST(Sigmoid, KnownAnswer) {
    const std::vector<double> x {-10, -1, 0, 0.5, 3, 20};
    std::vector<double> want;
    for (double v : x)
        want.push_back(sig(v));
    expect_near_all(run_f32(dnnl_graph_op_sigmoid, x), want, 1e-7, 1e-6);
    EXPECT_EQ(run_f32(dnnl_graph_op_sigmoid, {0})[0], 0.5);
    // Far left the result is 0 (no overflow, no NaN).
    EXPECT_EQ(run_f32(dnnl_graph_op_sigmoid, {-200})[0], 0.0);
}

TEST(SoftPlus, DefaultBetaAndCustomBeta) {
    const std::vector<double> x {-4, -0.5, 0, 1, 3};
    std::vector<double> want1, want2;
    for (double v : x) {
        want1.push_back(softplus(v, 1));
        want2.push_back(softplus(v, 2));
    }
    expect_near_all(run_f32(dnnl_graph_op_softplus, x), want1, 1e-7, 1e-6);
    expect_near_all(run_f32(dnnl_graph_op_softplus, x,
                            [](op_runner_t &r) {
                                r.f32(dnnl_graph_op_attr_beta, 2.f);
                            }),
            want2, 1e-7, 1e-6);
    // ln 2 at zero; identity for large inputs (no overflow).
    EXPECT_NEAR(run_f32(dnnl_graph_op_softplus, {0})[0], 0.6931471805599453, 1e-7);
    EXPECT_EQ(run_f32(dnnl_graph_op_softplus, {1000})[0], 1000.0);
}

TEST(Sqrt, KnownAnswer) {
    const auto v = run_f32(dnnl_graph_op_sqrt, {4, 2.25, 0, -1});
    expect_near_all({v[0], v[1], v[2]}, {2, 1.5, 0});
    EXPECT_TRUE(std::isnan(v[3]));
}

TEST(Square, KnownAnswer) {
    expect_near_all(run_f32(dnnl_graph_op_square, {-3, 0.5, 0}), {9, 0.25, 0});
}

TEST(Tanh, KnownAnswer) {
    expect_near_all(run_f32(dnnl_graph_op_tanh, {0, 0.5, -2, 30}),
            {0, 0.46211715726000974, -0.9640275800758169, 1}, 1e-7, 1e-6);
}

// ---- schemas -------------------------------------------------------------------

TEST(EltwiseUnarySchema, EveryOpRegisteredWithReference) {
    for (op_kind_t k : k_unary_ops) {
        SCOPED_TRACE(ops::op_kind_name(k));
        EXPECT_TRUE(ops::has_reference(k));
        const ops::op_def_t *def = ops::find_op_def(k);
        ASSERT_NE(def, nullptr);
        EXPECT_EQ(def->traits.inplace_input, 0);
        EXPECT_FALSE(def->traits.is_backward);
        op_runner_t ok(k);
        ok.input(dnnl_f32, {2}).output(dnnl_f32);
        add_required_attrs(ok, k);
        EXPECT_EQ(ok.verify(), dnnl_success);
    }
}

TEST(EltwiseUnarySchema, WrongDtypesAndCounts) {
    for (op_kind_t k : k_unary_ops) {
        SCOPED_TRACE(ops::op_kind_name(k));
        op_runner_t s32(k);
        s32.input(dnnl_s32, {2}).output(dnnl_s32);
        add_required_attrs(s32, k);
        EXPECT_EQ(s32.verify(), dnnl_invalid_graph_op);
        op_runner_t mixed(k);
        mixed.input(dnnl_f32, {2}).output(dnnl_bf16);
        add_required_attrs(mixed, k);
        EXPECT_EQ(mixed.verify(), dnnl_invalid_graph_op);
        op_runner_t two(k);
        two.input(dnnl_f32, {2}).input(dnnl_f32, {2}).output(dnnl_f32);
        add_required_attrs(two, k);
        EXPECT_EQ(two.verify(), dnnl_invalid_graph_op);
        op_runner_t none(k);
        none.input(dnnl_f32, {2});
        add_required_attrs(none, k);
        EXPECT_EQ(none.verify(), dnnl_invalid_graph_op);
        // An attribute no unary op declares.
        op_runner_t foreign(k);
        foreign.input(dnnl_f32, {2}).output(dnnl_f32);
        add_required_attrs(foreign, k);
        foreign.s64(dnnl_graph_op_attr_axis, 0);
        EXPECT_EQ(foreign.verify(), dnnl_invalid_graph_op);
    }
}

TEST(EltwiseUnarySchema, Attributes) {
    auto verify = [](op_kind_t k, const std::function<void(op_runner_t &)> &attrs) {
        op_runner_t r(k);
        r.input(dnnl_f32, {2}).output(dnnl_f32);
        attrs(r);
        return r.verify();
    };
    // Required attributes missing.
    EXPECT_EQ(verify(dnnl_graph_op_clamp,
                      [](op_runner_t &r) { r.f32(dnnl_graph_op_attr_min, 0.f); }),
            dnnl_invalid_graph_op);
    EXPECT_EQ(verify(dnnl_graph_op_elu, [](op_runner_t &) {}), dnnl_invalid_graph_op);
    EXPECT_EQ(verify(dnnl_graph_op_leaky_relu, [](op_runner_t &) {}),
            dnnl_invalid_graph_op);
    EXPECT_EQ(verify(dnnl_graph_op_hard_sigmoid,
                      [](op_runner_t &r) { r.f32(dnnl_graph_op_attr_alpha, 1.f); }),
            dnnl_invalid_graph_op);
    EXPECT_EQ(verify(dnnl_graph_op_pow, [](op_runner_t &) {}), dnnl_invalid_graph_op);
    // Wrong value kinds and values.
    EXPECT_EQ(verify(dnnl_graph_op_elu,
                      [](op_runner_t &r) { r.s64(dnnl_graph_op_attr_alpha, 1); }),
            dnnl_invalid_graph_op);
    EXPECT_EQ(verify(dnnl_graph_op_gelu,
                      [](op_runner_t &r) { r.str(dnnl_graph_op_attr_mode, "erf"); }),
            dnnl_invalid_graph_op);
    EXPECT_EQ(verify(dnnl_graph_op_gelu,
                      [](op_runner_t &r) {
                          r.str(dnnl_graph_op_attr_mode, "gelu_tanh");
                      }),
            dnnl_success);
    // Attributes of another op.
    EXPECT_EQ(verify(dnnl_graph_op_relu,
                      [](op_runner_t &r) { r.f32(dnnl_graph_op_attr_alpha, 0.1f); }),
            dnnl_invalid_graph_op);
    EXPECT_EQ(verify(dnnl_graph_op_softplus,
                      [](op_runner_t &r) { r.f32(dnnl_graph_op_attr_alpha, 0.1f); }),
            dnnl_invalid_graph_op);
    // Defaults are injected.
    op_runner_t gelu(dnnl_graph_op_gelu);
    gelu.input(dnnl_f32, {2}).output(dnnl_f32);
    ASSERT_EQ(gelu.verify(), dnnl_success);
    EXPECT_EQ(gelu.op().get_str(dnnl_graph_op_attr_mode), "gelu_erf");
    op_runner_t sp(dnnl_graph_op_softplus);
    sp.input(dnnl_f32, {2}).output(dnnl_f32);
    ASSERT_EQ(sp.verify(), dnnl_success);
    EXPECT_EQ(sp.op().get_f32(dnnl_graph_op_attr_beta), 1.f);
}

// ---- shapes ----------------------------------------------------------------------

TEST(EltwiseUnaryShape, IdentityAndErrors) {
    op_runner_t r(dnnl_graph_op_relu);
    r.input(dnnl_f32, {2, 3, 4}).output(dnnl_f32);
    ASSERT_EQ(r.infer(), dnnl_success);
    EXPECT_EQ(r.out_dims(), (dims_t {2, 3, 4}));

    op_runner_t scalar(dnnl_graph_op_sigmoid);
    scalar.input(dnnl_f32, {}, {0}).output(dnnl_f32);
    ASSERT_EQ(scalar.run(), dnnl_success);
    EXPECT_EQ(scalar.op().outputs[0].ndims, 0);
    expect_near_all(scalar.out_values(), {0.5});

    op_runner_t unknown(dnnl_graph_op_tanh);
    unknown.input(dnnl_f32, {2, 3}).output(dnnl_f32);
    forget_dim(unknown, 0, 1);
    EXPECT_EQ(unknown.infer(), dnnl_invalid_shape);

    op_runner_t declared(dnnl_graph_op_exp);
    declared.input(dnnl_f32, {2, 3}).output(dnnl_f32, {3, 2});
    EXPECT_EQ(declared.infer(), dnnl_invalid_shape);
    op_runner_t declared_rank(dnnl_graph_op_exp);
    declared_rank.input(dnnl_f32, {2, 3}).output(dnnl_f32, {6});
    EXPECT_EQ(declared_rank.infer(), dnnl_invalid_shape);
}

// ---- layouts and dtypes -------------------------------------------------------

TEST(EltwiseUnaryLayout, TransposedStrides) {
    // Logical [2,3] stored column-major; every op must see the logical values.
    const std::vector<double> x {-1.5, 2, 0.25, 3, -4, 1};
    for (op_kind_t k : {dnnl_graph_op_relu, dnnl_graph_op_square, dnnl_graph_op_abs}) {
        op_runner_t r(k);
        r.input_strided(dnnl_f32, {2, 3}, {1, 2}, x).output(dnnl_f32);
        ASSERT_EQ(r.run(), dnnl_success);
        std::vector<double> want;
        for (double v : x)
            want.push_back(k == dnnl_graph_op_relu
                            ? (v > 0 ? v : 0)
                            : (k == dnnl_graph_op_square ? v * v : std::fabs(v)));
        expect_near_all(r.out_values(), want, 0, 0);
    }
    // A strided output is honoured too.
    op_runner_t r(dnnl_graph_op_leaky_relu);
    r.input_strided(dnnl_f32, {2, 3}, {1, 2}, x).output(dnnl_f32)
            .f32(dnnl_graph_op_attr_alpha, 0.5f);
    ASSERT_EQ(r.infer(), dnnl_success);
    r.op().outputs[0].layout.strides[0] = 1;
    r.op().outputs[0].layout.strides[1] = 2;
    std::vector<float> in(6), out(6, -99.f);
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 3; ++j)
            in[j * 2 + i] = static_cast<float>(x[i * 3 + j]);
    const ops::op_def_t *def = ops::find_op_def(dnnl_graph_op_leaky_relu);
    ASSERT_EQ(def->ref(r.op(), {in.data()}, {out.data()}), dnnl_success);
    for (int i = 0; i < 6; ++i)
        EXPECT_EQ(out[i], in[i] >= 0 ? in[i] : 0.5f * in[i]) << i;
}

TEST(EltwiseUnaryLayout, Bf16AndF16) {
    const std::vector<double> x {-2, -0.75, 0.3, 1, 2.5};
    op_runner_t b(dnnl_graph_op_sigmoid);
    b.input(dnnl_bf16, {5}, x).output(dnnl_bf16);
    ASSERT_EQ(b.run(), dnnl_success);
    std::vector<double> want;
    for (double v : x)
        want.push_back(to_bf16(sig(to_bf16(v))));
    expect_near_all(b.out_values(), want, 0, 0);

    // f16 results that are exact (squares of short binary fractions).
    op_runner_t h(dnnl_graph_op_square);
    h.input(dnnl_f16, {4}, {1.5, -0.25, 3, 10}).output(dnnl_f16);
    ASSERT_EQ(h.run(), dnnl_success);
    expect_near_all(h.out_values(), {2.25, 0.0625, 9, 100}, 0, 0);

    // f16 tanh within half an f16 ulp (2^-11 relative).
    op_runner_t t(dnnl_graph_op_tanh);
    t.input(dnnl_f16, {3}, {0.5, -1, 2}).output(dnnl_f16);
    ASSERT_EQ(t.run(), dnnl_success);
    expect_near_all(t.out_values(), {std::tanh(0.5), std::tanh(-1.0), std::tanh(2.0)},
            0, 1.0 / 2048);
    // bf16 ReLU keeps values exactly.
    op_runner_t rl(dnnl_graph_op_relu);
    rl.input(dnnl_bf16, {3}, {-1, 0.5, 3}).output(dnnl_bf16);
    ASSERT_EQ(rl.run(), dnnl_success);
    expect_near_all(rl.out_values(), {0, 0.5, 3}, 0, 0);
}

TEST(EltwiseUnaryLayout, InPlace) {
    op_runner_t r(dnnl_graph_op_elu);
    r.input(dnnl_f32, {2, 2}).output(dnnl_f32).f32(dnnl_graph_op_attr_alpha, 1.f);
    ASSERT_EQ(r.infer(), dnnl_success);
    std::vector<float> buf {-1, 0, 1, 2};
    const ops::op_def_t *def = ops::find_op_def(dnnl_graph_op_elu);
    ASSERT_EQ(def->ref(r.op(), {buf.data()}, {buf.data()}), dnnl_success);
    EXPECT_FLOAT_EQ(buf[0], static_cast<float>(std::exp(-1.0) - 1));
    EXPECT_EQ(buf[1], 0.f);
    EXPECT_EQ(buf[2], 1.f);
    EXPECT_EQ(buf[3], 2.f);
}

TEST(EltwiseUnaryLayout, LargeTensorUsesEveryElement) {
    // Bigger than one parallel chunk: every element must be written.
    const dim_t n = 3 * 4096 + 17;
    op_runner_t r(dnnl_graph_op_square);
    std::vector<double> x;
    for (dim_t i = 0; i < n; ++i)
        x.push_back(static_cast<double>(i % 100) - 50);
    r.input(dnnl_f32, {n}, x).output(dnnl_f32);
    ASSERT_EQ(r.run(), dnnl_success);
    const auto v = r.out_values();
    for (dim_t i = 0; i < n; ++i)
        ASSERT_EQ(v[i], x[i] * x[i]) << i;
}

} // namespace test
} // namespace llga
