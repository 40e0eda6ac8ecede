// SPDX-License-Identifier: Apache-2.0
// tests/unit/ops/pool_test.cpp — AvgPool, AvgPoolBackward, MaxPool,
// MaxPoolBackward: hand-computed values, shape inference (ceil rounding,
// auto_pad, formats), schema violations, and finite-difference checks of the
// backward ops against the forward ops.
#include <functional>
#include <string>

#include "ops/op_test_util.hpp"

namespace llga {
namespace test {

namespace {

struct pparams_t {
    dims_t k, s, pb, pe, d;
    std::string df = "NCX";
    std::string rounding; // "" = default
    int exclude_pad = -1; // -1 = not set
};

op_runner_t &with(op_runner_t &r, const pparams_t &p) {
    r.s64s(dnnl_graph_op_attr_kernel, p.k)
            .s64s(dnnl_graph_op_attr_strides, p.s)
            .s64s(dnnl_graph_op_attr_pads_begin, p.pb)
            .s64s(dnnl_graph_op_attr_pads_end, p.pe)
            .str(dnnl_graph_op_attr_data_format, p.df);
    if (!p.d.empty()) r.s64s(dnnl_graph_op_attr_dilations, p.d);
    if (!p.rounding.empty())
        r.str(dnnl_graph_op_attr_rounding_type, p.rounding);
    if (p.exclude_pad >= 0)
        r.boolean(dnnl_graph_op_attr_exclude_pad, p.exclude_pad != 0);
    return r;
}

pparams_t p1d(dim_t k, dim_t s, dim_t pb = 0, dim_t pe = 0) {
    pparams_t p;
    p.k = {k};
    p.s = {s};
    p.pb = {pb};
    p.pe = {pe};
    return p;
}

std::vector<double> fd_grad(
        const std::function<std::vector<double>(const std::vector<double> &)> &f,
        std::vector<double> x, const std::vector<double> &dy, double h) {
    std::vector<double> g(x.size());
    auto loss = [&](const std::vector<double> &xx) {
        const auto y = f(xx);
        double l = 0;
        for (size_t i = 0; i < y.size(); ++i)
            l += dy[i] * y[i];
        return l;
    };
    for (size_t i = 0; i < x.size(); ++i) {
        const double x0 = x[i];
        x[i] = x0 + h;
        const double lp = loss(x);
        x[i] = x0 - h;
        const double lm = loss(x);
        x[i] = x0;
        g[i] = (lp - lm) / (2 * h);
    }
    return g;
}

// Distinct values (a permutation of 0..n-1, scaled) so that small
// perturbations never change a window's maximum.
std::vector<double> distinct(size_t n) {
    std::vector<double> v(n);
    for (size_t i = 0; i < n; ++i)
        v[i] = static_cast<double>((i * 7) % n) - static_cast<double>(n) / 2;
    return v;
}

} // namespace

TEST(MaxPool, HandComputed) {
    pparams_t p;
    p.k = p.s = {2, 2};
    p.pb = p.pe = {0, 0};
    std::vector<double> x(16);
    for (int i = 0; i < 16; ++i)
        x[i] = i + 1;
    op_runner_t r(dnnl_graph_op_max_pool);
    r.input(dnnl_f32, {1, 1, 4, 4}, x).output(dnnl_f32);
    with(r, p);
    ASSERT_EQ(r.run(), dnnl_success);
    EXPECT_EQ(r.out_dims(), (dims_t {1, 1, 2, 2}));
    expect_near_all(r.out_values(), {6, 8, 14, 16});

    // Dilation 2 (attribute convention: 1 = none): taps i and i+2.
    pparams_t d = p1d(2, 1);
    d.d = {2};
    op_runner_t dl(dnnl_graph_op_max_pool);
    dl.input(dnnl_f32, {1, 1, 5}, {3, 1, 4, 1, 5}).output(dnnl_f32);
    with(dl, d);
    ASSERT_EQ(dl.run(), dnnl_success);
    expect_near_all(dl.out_values(), {4, 1, 5});

    // Padding never wins, even against negative values.
    op_runner_t pad(dnnl_graph_op_max_pool);
    pad.input(dnnl_f32, {1, 1, 3}, {-3, -1, -2}).output(dnnl_f32);
    with(pad, p1d(2, 1, 1, 1));
    ASSERT_EQ(pad.run(), dnnl_success);
    expect_near_all(pad.out_values(), {-3, -1, -1, -2});
}

TEST(MaxPool, CeilRoundingAndNxc) {
    pparams_t p = p1d(2, 2);
    op_runner_t fl(dnnl_graph_op_max_pool);
    fl.input(dnnl_f32, {1, 1, 5}, {3, 1, 4, 1, 5}).output(dnnl_f32);
    with(fl, p);
    ASSERT_EQ(fl.run(), dnnl_success);
    expect_near_all(fl.out_values(), {3, 4});

    p.rounding = "ceil";
    op_runner_t ce(dnnl_graph_op_max_pool);
    ce.input(dnnl_f32, {1, 1, 5}, {3, 1, 4, 1, 5}).output(dnnl_f32);
    with(ce, p);
    ASSERT_EQ(ce.run(), dnnl_success);
    expect_near_all(ce.out_values(), {3, 4, 5});

    // NXC, two channels interleaved: [n, w, c].
    p.df = "NXC";
    op_runner_t nx(dnnl_graph_op_max_pool);
    nx.input(dnnl_f32, {1, 5, 2}, {3, -3, 1, -1, 4, -4, 1, -1, 5, -5})
            .output(dnnl_f32);
    with(nx, p);
    ASSERT_EQ(nx.run(), dnnl_success);
    EXPECT_EQ(nx.out_dims(), (dims_t {1, 3, 2}));
    expect_near_all(nx.out_values(), {3, -1, 4, -1, 5, -5});

    // bf16 data.
    op_runner_t bf(dnnl_graph_op_max_pool);
    bf.input(dnnl_bf16, {1, 1, 5}, {3, 1, 4, 1, 5}).output(dnnl_bf16);
    with(bf, p1d(3, 1));
    ASSERT_EQ(bf.run(), dnnl_success);
    expect_near_all(bf.out_values(), {4, 4, 5});
}

TEST(MaxPool, ShapeInference) {
    // K=4, S=1, in=6: SAME_UPPER pads (1,2), SAME_LOWER (2,1).
    for (auto mode : {"SAME_UPPER", "SAME_LOWER"}) {
        op_runner_t r(dnnl_graph_op_max_pool);
        r.input(dnnl_f32, {1, 6, 6, 3}).output(dnnl_f32)
                .s64s(dnnl_graph_op_attr_kernel, {4, 4})
                .s64s(dnnl_graph_op_attr_strides, {1, 1})
                .s64s(dnnl_graph_op_attr_pads_begin, {0, 0})
                .s64s(dnnl_graph_op_attr_pads_end, {0, 0})
                .str(dnnl_graph_op_attr_auto_pad, mode);
        ASSERT_EQ(r.infer(), dnnl_success);
        EXPECT_EQ(r.out_dims(), (dims_t {1, 6, 6, 3})); // default NXC
        const bool upper = std::string(mode) == "SAME_UPPER";
        EXPECT_EQ(r.op().get_s64s(dnnl_graph_op_attr_pads_begin),
                (std::vector<int64_t> {upper ? 1 : 2, upper ? 1 : 2}));
        EXPECT_EQ(r.op().get_s64s(dnnl_graph_op_attr_pads_end),
                (std::vector<int64_t> {upper ? 2 : 1, upper ? 2 : 1}));
    }
    // 3-D NCX with dilation and ceil: in 10, K 3, D 2 (extent 5), S 2:
    // floor (10-5)/2+1 = 3, ceil = 4.
    pparams_t p;
    p.k = {3, 3, 3};
    p.s = {2, 2, 2};
    p.d = {2, 2, 2};
    p.pb = p.pe = {0, 0, 0};
    p.rounding = "ceil";
    op_runner_t c(dnnl_graph_op_max_pool);
    c.input(dnnl_f32, {2, 3, 10, 10, 10}).output(dnnl_f32);
    with(c, p);
    ASSERT_EQ(c.infer(), dnnl_success);
    EXPECT_EQ(c.out_dims(), (dims_t {2, 3, 4, 4, 4}));

    op_runner_t bad(dnnl_graph_op_max_pool);
    bad.input(dnnl_f32, {2, 3, 10, 10, 10}).output(dnnl_f32, {2, 3, 3, 3, 3});
    with(bad, p);
    EXPECT_EQ(bad.infer(), dnnl_invalid_shape);
}

TEST(MaxPool, SchemaViolations) {
    op_runner_t no_kernel(dnnl_graph_op_max_pool);
    no_kernel.input(dnnl_f32, {1, 1, 4}).output(dnnl_f32)
            .s64s(dnnl_graph_op_attr_strides, {1})
            .s64s(dnnl_graph_op_attr_pads_begin, {0})
            .s64s(dnnl_graph_op_attr_pads_end, {0});
    EXPECT_EQ(no_kernel.verify(), dnnl_invalid_graph_op);

    pparams_t p = p1d(2, 1);
    p.exclude_pad = 1; // AvgPool-only attribute
    op_runner_t excl(dnnl_graph_op_max_pool);
    excl.input(dnnl_f32, {1, 1, 4}).output(dnnl_f32);
    with(excl, p);
    EXPECT_EQ(excl.verify(), dnnl_invalid_graph_op);

    op_runner_t neg(dnnl_graph_op_max_pool);
    neg.input(dnnl_f32, {1, 1, 4}).output(dnnl_f32);
    with(neg, p1d(2, 1, -1, 0));
    EXPECT_EQ(neg.verify(), dnnl_invalid_graph_op);

    pparams_t l = p1d(2, 1);
    l.k = {2, 2};
    op_runner_t len(dnnl_graph_op_max_pool);
    len.input(dnnl_f32, {1, 1, 4}).output(dnnl_f32);
    with(len, l);
    EXPECT_EQ(len.verify(), dnnl_invalid_graph_op);

    op_runner_t dt(dnnl_graph_op_max_pool);
    dt.input(dnnl_f32, {1, 1, 4}).output(dnnl_bf16);
    with(dt, p1d(2, 1));
    EXPECT_EQ(dt.verify(), dnnl_invalid_graph_op);
}

TEST(AvgPool, ExcludePadAndCeil) {
    // {1,2,3,4}, K=3, S=1, pads 1/1: window sums 3, 6, 9, 7 over 2, 3, 3, 2
    // real positions.
    pparams_t p = p1d(3, 1, 1, 1);
    p.exclude_pad = 1;
    op_runner_t ex(dnnl_graph_op_avg_pool);
    ex.input(dnnl_f32, {1, 1, 4}, {1, 2, 3, 4}).output(dnnl_f32);
    with(ex, p);
    ASSERT_EQ(ex.run(), dnnl_success);
    expect_near_all(ex.out_values(), {1.5, 2, 3, 3.5});

    p.exclude_pad = 0;
    op_runner_t in(dnnl_graph_op_avg_pool);
    in.input(dnnl_f32, {1, 1, 4}, {1, 2, 3, 4}).output(dnnl_f32);
    with(in, p);
    ASSERT_EQ(in.run(), dnnl_success);
    expect_near_all(in.out_values(), {1, 2, 3, 7.0 / 3});

    // Ceil: {1..5}, K=2, S=2 -> 3 windows; the last one holds only 5.
    pparams_t c = p1d(2, 2);
    c.exclude_pad = 0;
    c.rounding = "ceil";
    op_runner_t ce(dnnl_graph_op_avg_pool);
    ce.input(dnnl_f32, {1, 1, 5}, {1, 2, 3, 4, 5}).output(dnnl_f32);
    with(ce, c);
    ASSERT_EQ(ce.run(), dnnl_success);
    expect_near_all(ce.out_values(), {1.5, 3.5, 5});

    // 2-D NXC, 2 channels, global 2x2 average.
    pparams_t g;
    g.k = g.s = {2, 2};
    g.pb = g.pe = {0, 0};
    g.df = "NXC";
    g.exclude_pad = 0;
    op_runner_t nx(dnnl_graph_op_avg_pool);
    nx.input(dnnl_f32, {1, 2, 2, 2}, {1, 10, 2, 20, 3, 30, 4, 40})
            .output(dnnl_f32);
    with(nx, g);
    ASSERT_EQ(nx.run(), dnnl_success);
    EXPECT_EQ(nx.out_dims(), (dims_t {1, 1, 1, 2}));
    expect_near_all(nx.out_values(), {2.5, 25});
}

TEST(AvgPool, SchemaViolations) {
    op_runner_t no_excl(dnnl_graph_op_avg_pool);
    no_excl.input(dnnl_f32, {1, 1, 4}).output(dnnl_f32);
    with(no_excl, p1d(2, 1));
    EXPECT_EQ(no_excl.verify(), dnnl_invalid_graph_op);

    pparams_t p = p1d(2, 1);
    p.exclude_pad = 0;
    p.d = {1}; // MaxPool-only attribute
    op_runner_t dil(dnnl_graph_op_avg_pool);
    dil.input(dnnl_f32, {1, 1, 4}).output(dnnl_f32);
    with(dil, p);
    EXPECT_EQ(dil.verify(), dnnl_invalid_graph_op);

    pparams_t q = p1d(2, 1);
    q.exclude_pad = 0;
    op_runner_t ap(dnnl_graph_op_avg_pool);
    ap.input(dnnl_f32, {1, 1, 4}).output(dnnl_f32)
            .str(dnnl_graph_op_attr_auto_pad, "EXPLICIT");
    with(ap, q);
    EXPECT_EQ(ap.verify(), dnnl_invalid_graph_op);

    op_runner_t ok(dnnl_graph_op_avg_pool);
    ok.input(dnnl_f32, {1, 1, 4}).output(dnnl_f32);
    with(ok, q);
    EXPECT_EQ(ok.verify(), dnnl_success);
    EXPECT_EQ(ok.op().get_str(dnnl_graph_op_attr_rounding_type), "floor");
}

TEST(AvgPoolBackward, FiniteDifference) {
    // 2-D, padding, exclude_pad on and off, and a ceil-mode forward.
    for (int excl = 0; excl < 2; ++excl)
        for (const char *rounding : {"floor", "ceil"}) {
            pparams_t p;
            p.k = {3, 2};
            p.s = {2, 2};
            p.pb = {1, 0};
            p.pe = {1, 0};
            p.exclude_pad = excl;
            pparams_t fp = p;
            fp.rounding = rounding;
            const dims_t xd {2, 2, 6, 5};
            std::vector<double> x(2 * 2 * 6 * 5, 0.5);
            auto fwd = [&](const std::vector<double> &xx) {
                op_runner_t r(dnnl_graph_op_avg_pool);
                r.input(dnnl_f32, xd, xx).output(dnnl_f32);
                with(r, fp);
                EXPECT_EQ(r.run(), dnnl_success);
                return r.out_values();
            };
            op_runner_t shape(dnnl_graph_op_avg_pool);
            shape.input(dnnl_f32, xd).output(dnnl_f32);
            with(shape, fp);
            ASSERT_EQ(shape.infer(), dnnl_success);
            const dims_t yd = shape.out_dims();
            std::vector<double> dy(static_cast<size_t>(ir::product(yd)));
            for (size_t i = 0; i < dy.size(); ++i)
                dy[i] = static_cast<double>(i % 5) - 2;
            const auto want = fd_grad(fwd, x, dy, 0.5);

            op_runner_t b(dnnl_graph_op_avg_pool_backward);
            b.input(dnnl_f32, yd, dy).output(dnnl_f32)
                    .s64s(dnnl_graph_op_attr_src_shape, xd);
            with(b, p);
            ASSERT_EQ(b.run(), dnnl_success) << excl << rounding;
            EXPECT_EQ(b.out_dims(), xd);
            expect_near_all(b.out_values(), want, 1e-4, 1e-4);
        }
}

TEST(AvgPoolBackward, ShapeAndSchema) {
    pparams_t p = p1d(2, 2);
    p.exclude_pad = 0;
    op_runner_t none(dnnl_graph_op_avg_pool_backward);
    none.input(dnnl_f32, {1, 1, 2}).output(dnnl_f32);
    with(none, p);
    EXPECT_EQ(none.infer(), dnnl_invalid_shape);

    op_runner_t decl(dnnl_graph_op_avg_pool_backward);
    decl.input(dnnl_f32, {1, 1, 2}).output(dnnl_f32, {1, 1, 4});
    with(decl, p);
    EXPECT_EQ(decl.infer(), dnnl_success);

    op_runner_t mismatch(dnnl_graph_op_avg_pool_backward);
    mismatch.input(dnnl_f32, {1, 1, 2}).output(dnnl_f32)
            .s64s(dnnl_graph_op_attr_src_shape, {1, 1, 9});
    with(mismatch, p);
    EXPECT_EQ(mismatch.verify(), dnnl_invalid_graph_op);

    pparams_t r = p;
    r.rounding = "ceil"; // forward-only attribute
    op_runner_t round(dnnl_graph_op_avg_pool_backward);
    round.input(dnnl_f32, {1, 1, 2}).output(dnnl_f32);
    with(round, r);
    EXPECT_EQ(round.verify(), dnnl_invalid_graph_op);
    EXPECT_TRUE(ops::find_op_def(dnnl_graph_op_avg_pool_backward)
                        ->traits.is_backward);
}

TEST(MaxPoolBackward, FiniteDifference) {
    // Overlapping, dilated, padded windows in NXC: gradients accumulate.
    pparams_t p;
    p.k = {3, 2};
    p.s = {1, 2};
    p.d = {1, 2};
    p.pb = {1, 1};
    p.pe = {1, 0};
    p.df = "NXC";
    const dims_t xd {2, 5, 6, 3};
    const auto x = distinct(2 * 5 * 6 * 3);
    auto fwd = [&](const std::vector<double> &xx) {
        op_runner_t r(dnnl_graph_op_max_pool);
        r.input(dnnl_f32, xd, xx).output(dnnl_f32);
        with(r, p);
        EXPECT_EQ(r.run(), dnnl_success);
        return r.out_values();
    };
    op_runner_t shape(dnnl_graph_op_max_pool);
    shape.input(dnnl_f32, xd).output(dnnl_f32);
    with(shape, p);
    ASSERT_EQ(shape.infer(), dnnl_success);
    const dims_t yd = shape.out_dims();
    std::vector<double> dy(static_cast<size_t>(ir::product(yd)));
    for (size_t i = 0; i < dy.size(); ++i)
        dy[i] = static_cast<double>(i % 7) - 3;
    const auto want = fd_grad(fwd, x, dy, 0.25);

    op_runner_t b(dnnl_graph_op_max_pool_backward);
    b.input(dnnl_f32, xd, x).input(dnnl_f32, yd, dy).output(dnnl_f32);
    with(b, p);
    ASSERT_EQ(b.run(), dnnl_success);
    EXPECT_EQ(b.out_dims(), xd);
    expect_near_all(b.out_values(), want, 1e-4, 1e-4);
}

TEST(MaxPoolBackward, TiesAndSchema) {
    // Ties: the first maximum in scan order takes the gradient.
    op_runner_t t(dnnl_graph_op_max_pool_backward);
    t.input(dnnl_f32, {1, 1, 4}, {2, 2, 2, 2}).input(dnnl_f32, {1, 1, 2}, {1, 10})
            .output(dnnl_f32);
    with(t, p1d(2, 2));
    ASSERT_EQ(t.run(), dnnl_success);
    expect_near_all(t.out_values(), {1, 0, 10, 0});

    op_runner_t one(dnnl_graph_op_max_pool_backward);
    one.input(dnnl_f32, {1, 1, 4}).output(dnnl_f32);
    with(one, p1d(2, 2));
    EXPECT_EQ(one.verify(), dnnl_invalid_graph_op);

    op_runner_t bad(dnnl_graph_op_max_pool_backward);
    bad.input(dnnl_f32, {1, 1, 4}).input(dnnl_f32, {1, 1, 3}).output(dnnl_f32);
    with(bad, p1d(2, 2));
    EXPECT_EQ(bad.verify(), dnnl_invalid_graph_op);
}

} // namespace test
} // namespace llga

namespace llga {
namespace test {

// oneDNN's ceil rule keeps a last window that starts in the right padding:
// in=4, K=2, S=2, pads (0,1): ceil((4 + 0 + 1 - 2) / 2) + 1 = 3 outputs.
TEST(AvgPool, CeilKeepsWindowStartingInPadding) {
    op_runner_t p(dnnl_graph_op_avg_pool);
    p.input(dnnl_f32, {1, 1, 1, 4}, {1, 2, 3, 4})
            .output(dnnl_f32)
            .s64s(dnnl_graph_op_attr_strides, {1, 2})
            .s64s(dnnl_graph_op_attr_kernel, {1, 2})
            .s64s(dnnl_graph_op_attr_pads_begin, {0, 0})
            .s64s(dnnl_graph_op_attr_pads_end, {0, 1})
            .boolean(dnnl_graph_op_attr_exclude_pad, true)
            .str(dnnl_graph_op_attr_rounding_type, "ceil")
            .str(dnnl_graph_op_attr_data_format, "NCX");
    ASSERT_EQ(p.run(), dnnl_success);
    EXPECT_EQ(p.out_dims(), (dims_t {1, 1, 1, 3}));
    // windows: {1,2} -> 1.5, {3,4} -> 3.5, {pad,pad} -> no real input -> 0
    expect_near_all(p.out_values(), {1.5, 3.5, 0});
}

} // namespace test
} // namespace llga
