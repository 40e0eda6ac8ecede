// SPDX-License-Identifier: Apache-2.0
// tests/unit/ops/interpolate_test.cpp — Interpolate and InterpolateBackward:
// hand-computed nearest/linear values for both coordinate modes, shapes from
// sizes and scales, schema violations, and finite-difference checks of the
// backward op against the forward op.
#include <functional>
#include <string>

#include "ops/op_test_util.hpp"

namespace llga {
namespace test {

namespace {

op_runner_t &interp(op_runner_t &r, const std::string &mode,
        const std::string &ctm = "half_pixel", const std::string &df = "NCX") {
    return r.str(dnnl_graph_op_attr_mode, mode)
            .str(dnnl_graph_op_attr_coordinate_transformation_mode, ctm)
            .str(dnnl_graph_op_attr_data_format, df);
}

} // namespace

TEST(Interpolate, Nearest1d) {
    // in 2 -> out 4, half_pixel: source coords -0.25, 0.25, 0.75, 1.25.
    op_runner_t r(dnnl_graph_op_interpolate);
    r.input(dnnl_f32, {1, 1, 2}, {1, 2}).output(dnnl_f32)
            .s64s(dnnl_graph_op_attr_sizes, {4});
    interp(r, "nearest");
    ASSERT_EQ(r.run(), dnnl_success);
    EXPECT_EQ(r.out_dims(), (dims_t {1, 1, 4}));
    expect_near_all(r.out_values(), {1, 1, 2, 2});

    // Downsampling 4 -> 2: coords 0.5 and 2.5 round half away from zero.
    op_runner_t d(dnnl_graph_op_interpolate);
    d.input(dnnl_f32, {1, 1, 4}, {10, 20, 30, 40}).output(dnnl_f32)
            .f32s(dnnl_graph_op_attr_scales, {0.5f});
    interp(d, "nearest");
    ASSERT_EQ(d.run(), dnnl_success);
    expect_near_all(d.out_values(), {20, 40});
}

TEST(Interpolate, LinearHalfPixelAndAlignCorners) {
    op_runner_t hp(dnnl_graph_op_interpolate);
    hp.input(dnnl_f32, {1, 1, 2}, {1, 2}).output(dnnl_f32)
            .s64s(dnnl_graph_op_attr_sizes, {4});
    interp(hp, "linear");
    ASSERT_EQ(hp.run(), dnnl_success);
    expect_near_all(hp.out_values(), {1, 1.25, 1.75, 2});

    // Bilinear 2x2 -> 3x3 align_corners, NXC with a second channel = 10x.
    op_runner_t ac(dnnl_graph_op_interpolate);
    ac.input(dnnl_f32, {1, 2, 2, 2}, {1, 10, 2, 20, 3, 30, 4, 40})
            .output(dnnl_f32)
            .s64s(dnnl_graph_op_attr_sizes, {3, 3});
    interp(ac, "bilinear", "align_corners", "NXC");
    ASSERT_EQ(ac.run(), dnnl_success);
    EXPECT_EQ(ac.out_dims(), (dims_t {1, 3, 3, 2}));
    const std::vector<double> plane {1, 1.5, 2, 2, 2.5, 3, 3, 3.5, 4};
    std::vector<double> want;
    for (double v : plane) {
        want.push_back(v);
        want.push_back(10 * v);
    }
    expect_near_all(ac.out_values(), want);

    // bf16, trilinear name on a 1-D problem behaves like linear.
    op_runner_t bf(dnnl_graph_op_interpolate);
    bf.input(dnnl_bf16, {1, 1, 2}, {1, 2}).output(dnnl_bf16)
            .s64s(dnnl_graph_op_attr_sizes, {4});
    interp(bf, "trilinear");
    ASSERT_EQ(bf.run(), dnnl_success);
    expect_near_all(bf.out_values(), {1, 1.25, 1.75, 2});
}

TEST(Interpolate, ShapeInference) {
    // scales: trunc(3 * 2.5) = 7, trunc(4 * 0.6) = 2; default NXC.
    op_runner_t sc(dnnl_graph_op_interpolate);
    sc.input(dnnl_f32, {2, 3, 4, 5}).output(dnnl_f32)
            .str(dnnl_graph_op_attr_mode, "nearest")
            .f32s(dnnl_graph_op_attr_scales, {2.5f, 0.6f});
    ASSERT_EQ(sc.infer(), dnnl_success);
    EXPECT_EQ(sc.out_dims(), (dims_t {2, 7, 2, 5}));

    op_runner_t sz(dnnl_graph_op_interpolate);
    sz.input(dnnl_f32, {2, 3, 4, 5}).output(dnnl_f32)
            .s64s(dnnl_graph_op_attr_sizes, {8, 9});
    interp(sz, "linear");
    ASSERT_EQ(sz.infer(), dnnl_success);
    EXPECT_EQ(sz.out_dims(), (dims_t {2, 3, 8, 9}));

    op_runner_t bad(dnnl_graph_op_interpolate);
    bad.input(dnnl_f32, {2, 3, 4, 5}).output(dnnl_f32, {2, 3, 8, 8})
            .s64s(dnnl_graph_op_attr_sizes, {8, 9});
    interp(bad, "linear");
    EXPECT_EQ(bad.infer(), dnnl_invalid_shape);
}

TEST(Interpolate, SchemaViolations) {
    op_runner_t both(dnnl_graph_op_interpolate);
    both.input(dnnl_f32, {1, 1, 4}).output(dnnl_f32)
            .s64s(dnnl_graph_op_attr_sizes, {8})
            .f32s(dnnl_graph_op_attr_scales, {2.f});
    interp(both, "linear");
    EXPECT_EQ(both.verify(), dnnl_invalid_graph_op);

    op_runner_t neither(dnnl_graph_op_interpolate);
    neither.input(dnnl_f32, {1, 1, 4}).output(dnnl_f32);
    interp(neither, "linear");
    EXPECT_EQ(neither.verify(), dnnl_invalid_graph_op);

    op_runner_t no_mode(dnnl_graph_op_interpolate);
    no_mode.input(dnnl_f32, {1, 1, 4}).output(dnnl_f32)
            .s64s(dnnl_graph_op_attr_sizes, {8});
    EXPECT_EQ(no_mode.verify(), dnnl_invalid_graph_op);

    op_runner_t cubic(dnnl_graph_op_interpolate);
    cubic.input(dnnl_f32, {1, 1, 4}).output(dnnl_f32)
            .s64s(dnnl_graph_op_attr_sizes, {8});
    interp(cubic, "cubic");
    EXPECT_EQ(cubic.verify(), dnnl_invalid_graph_op);

    op_runner_t len(dnnl_graph_op_interpolate);
    len.input(dnnl_f32, {1, 1, 4}).output(dnnl_f32)
            .s64s(dnnl_graph_op_attr_sizes, {8, 8});
    interp(len, "linear");
    EXPECT_EQ(len.verify(), dnnl_invalid_graph_op);

    op_runner_t ctm(dnnl_graph_op_interpolate);
    ctm.input(dnnl_f32, {1, 1, 4}).output(dnnl_f32)
            .s64s(dnnl_graph_op_attr_sizes, {8});
    interp(ctm, "linear", "asymmetric");
    EXPECT_EQ(ctm.verify(), dnnl_invalid_graph_op);
}

TEST(InterpolateBackward, FiniteDifference) {
    struct {
        const char *mode, *ctm;
    } cases[] = {{"linear", "half_pixel"}, {"bilinear", "align_corners"},
            {"nearest", "half_pixel"}};
    const dims_t xd {2, 2, 3, 4}, yd {2, 2, 5, 3};
    for (const auto &c : cases) {
        std::vector<double> x(static_cast<size_t>(ir::product(xd)));
        for (size_t i = 0; i < x.size(); ++i)
            x[i] = static_cast<double>(i % 9) * 0.5 - 2;
        std::vector<double> dy(static_cast<size_t>(ir::product(yd)));
        for (size_t i = 0; i < dy.size(); ++i)
            dy[i] = static_cast<double>(i % 7) - 3;
        auto fwd = [&](const std::vector<double> &xx) {
            op_runner_t r(dnnl_graph_op_interpolate);
            r.input(dnnl_f32, xd, xx).output(dnnl_f32)
                    .s64s(dnnl_graph_op_attr_sizes, {5, 3});
            interp(r, c.mode, c.ctm);
            EXPECT_EQ(r.run(), dnnl_success);
            return r.out_values();
        };
        // L = sum(dy * f(x)) is linear in x, so central differences are exact
        // up to f32 rounding.
        std::vector<double> want(x.size());
        std::vector<double> xx = x;
        for (size_t i = 0; i < x.size(); ++i) {
            xx[i] = x[i] + 0.5;
            const auto yp = fwd(xx);
            xx[i] = x[i] - 0.5;
            const auto ym = fwd(xx);
            xx[i] = x[i];
            double g = 0;
            for (size_t j = 0; j < dy.size(); ++j)
                g += dy[j] * (yp[j] - ym[j]);
            want[i] = g / 1.0;
        }
        op_runner_t b(dnnl_graph_op_interpolate_backward);
        b.input(dnnl_f32, xd, x).input(dnnl_f32, yd, dy).output(dnnl_f32)
                .s64s(dnnl_graph_op_attr_sizes, {5, 3});
        interp(b, c.mode, c.ctm);
        ASSERT_EQ(b.run(), dnnl_success) << c.mode;
        EXPECT_EQ(b.out_dims(), xd);
        expect_near_all(b.out_values(), want, 1e-4, 1e-4);
    }
}

TEST(InterpolateBackward, ShapeAndSchema) {
    op_runner_t mismatch(dnnl_graph_op_interpolate_backward);
    mismatch.input(dnnl_f32, {1, 1, 4}).input(dnnl_f32, {1, 1, 7})
            .output(dnnl_f32)
            .s64s(dnnl_graph_op_attr_sizes, {8});
    interp(mismatch, "linear");
    EXPECT_EQ(mismatch.infer(), dnnl_invalid_shape);

    op_runner_t one(dnnl_graph_op_interpolate_backward);
    one.input(dnnl_f32, {1, 1, 4}).output(dnnl_f32)
            .s64s(dnnl_graph_op_attr_sizes, {8});
    interp(one, "linear");
    EXPECT_EQ(one.verify(), dnnl_invalid_graph_op);

    op_runner_t dt(dnnl_graph_op_interpolate_backward);
    dt.input(dnnl_f32, {1, 1, 4}).input(dnnl_f16, {1, 1, 8}).output(dnnl_f32)
            .s64s(dnnl_graph_op_attr_sizes, {8});
    interp(dt, "linear");
    EXPECT_EQ(dt.verify(), dnnl_invalid_graph_op);
    EXPECT_TRUE(ops::find_op_def(dnnl_graph_op_interpolate_backward)
                        ->traits.is_backward);
}

} // namespace test
} // namespace llga
