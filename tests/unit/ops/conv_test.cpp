// SPDX-License-Identifier: Apache-2.0
// tests/unit/ops/conv_test.cpp — the six convolution ops: schemas, shape
// inference (auto_pad, groups, formats, output_padding), forward values
// against hand results and naive loops written here, and finite-difference
// gradient checks of the four backward ops against their forward ops.
#include <functional>
#include <string>

#include "ops/op_test_util.hpp"

namespace llga {
namespace test {

namespace {

// Exactly representable test values (multiples of 1/4 in [-1.25, 1.25]).
std::vector<double> vals(size_t n, int seed = 0) {
    std::vector<double> v(n);
    for (size_t i = 0; i < n; ++i)
        v[i] = static_cast<double>(
                       static_cast<int>((i * 7 + seed * 3) % 11) - 5)
                * 0.25;
    return v;
}

struct cparams_t {
    dims_t s {1, 1}, d {1, 1}, pb {0, 0}, pe {0, 0};
    int64_t groups = 1;
    std::string df = "NCX", wf = "OIX";
};

op_runner_t &with(op_runner_t &r, const cparams_t &p) {
    return r.s64s(dnnl_graph_op_attr_strides, p.s)
            .s64s(dnnl_graph_op_attr_dilations, p.d)
            .s64s(dnnl_graph_op_attr_pads_begin, p.pb)
            .s64s(dnnl_graph_op_attr_pads_end, p.pe)
            .s64(dnnl_graph_op_attr_groups, p.groups)
            .str(dnnl_graph_op_attr_data_format, p.df)
            .str(dnnl_graph_op_attr_weights_format, p.wf);
}

// Naive grouped 2-D convolution, NCHW x OIHW -> NCHW.
std::vector<double> naive_conv(const std::vector<double> &x, int N, int C,
        int H, int W, const std::vector<double> &w, int OC, int KH, int KW,
        const cparams_t &p, int OH, int OW) {
    const int G = static_cast<int>(p.groups), icg = C / G, ocg = OC / G;
    std::vector<double> y(static_cast<size_t>(N * OC * OH * OW), 0.0);
    for (int n = 0; n < N; ++n)
        for (int oc = 0; oc < OC; ++oc)
            for (int oh = 0; oh < OH; ++oh)
                for (int ow = 0; ow < OW; ++ow) {
                    double acc = 0;
                    const int g = oc / ocg;
                    for (int i = 0; i < icg; ++i)
                        for (int kh = 0; kh < KH; ++kh)
                            for (int kw = 0; kw < KW; ++kw) {
                                const int ih = static_cast<int>(
                                        oh * p.s[0] + kh * p.d[0] - p.pb[0]);
                                const int iw = static_cast<int>(
                                        ow * p.s[1] + kw * p.d[1] - p.pb[1]);
                                if (ih < 0 || ih >= H || iw < 0 || iw >= W)
                                    continue;
                                acc += x[((n * C + g * icg + i) * H + ih) * W
                                               + iw]
                                        * w[((oc * icg + i) * KH + kh) * KW
                                                + kw];
                            }
                    y[((n * OC + oc) * OH + oh) * OW + ow] = acc;
                }
    return y;
}

// Naive grouped 2-D transposed convolution by scattering, NCHW x IOHW.
std::vector<double> naive_deconv(const std::vector<double> &x, int N, int C,
        int H, int W, const std::vector<double> &w, int ocg, int KH, int KW,
        const cparams_t &p, int OH, int OW) {
    const int G = static_cast<int>(p.groups), icg = C / G, OC = ocg * G;
    std::vector<double> y(static_cast<size_t>(N * OC * OH * OW), 0.0);
    for (int n = 0; n < N; ++n)
        for (int c = 0; c < C; ++c)
            for (int ih = 0; ih < H; ++ih)
                for (int iw = 0; iw < W; ++iw)
                    for (int o = 0; o < ocg; ++o)
                        for (int kh = 0; kh < KH; ++kh)
                            for (int kw = 0; kw < KW; ++kw) {
                                const int oh = static_cast<int>(
                                        ih * p.s[0] + kh * p.d[0] - p.pb[0]);
                                const int ow = static_cast<int>(
                                        iw * p.s[1] + kw * p.d[1] - p.pb[1]);
                                if (oh < 0 || oh >= OH || ow < 0 || ow >= OW)
                                    continue;
                                const int oc = (c / icg) * ocg + o;
                                y[((n * OC + oc) * OH + oh) * OW + ow]
                                        += x[((n * C + c) * H + ih) * W + iw]
                                        * w[((c * ocg + o) * KH + kh) * KW
                                                + kw];
                            }
    return y;
}

// Permutes a row-major tensor: out dims = in dims[perm[i]].
std::vector<double> permute(const std::vector<double> &v, const dims_t &dims,
        const std::vector<int> &perm) {
    const int r = static_cast<int>(dims.size());
    dims_t od(r);
    for (int i = 0; i < r; ++i)
        od[i] = dims[perm[i]];
    std::vector<double> out(v.size());
    std::vector<int64_t> idx(r), oidx(r);
    for (size_t lin = 0; lin < v.size(); ++lin) {
        int64_t t = static_cast<int64_t>(lin);
        for (int i = r - 1; i >= 0; --i) {
            idx[i] = t % dims[i];
            t /= dims[i];
        }
        int64_t o = 0;
        for (int i = 0; i < r; ++i)
            o = o * od[i] + idx[perm[i]];
        out[static_cast<size_t>(o)] = v[lin];
    }
    return out;
}

// Central-difference gradient of L(x) = sum(dy * f(x)).
std::vector<double> fd_grad(
        const std::function<std::vector<double>(const std::vector<double> &)> &f,
        std::vector<double> x, const std::vector<double> &dy, double h = 0.5) {
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

} // namespace

TEST(Convolution, HandComputed3x3) {
    // src 1..9 (3x3), 2x2 ones kernel, bias 1: window sums + 1.
    op_runner_t r(dnnl_graph_op_convolution);
    r.input(dnnl_f32, {1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9})
            .input(dnnl_f32, {1, 1, 2, 2}, {1, 1, 1, 1})
            .input(dnnl_f32, {1}, {1})
            .output(dnnl_f32);
    with(r, cparams_t {});
    ASSERT_EQ(r.run(), dnnl_success);
    EXPECT_EQ(r.out_dims(), (dims_t {1, 1, 2, 2}));
    expect_near_all(r.out_values(), {13, 17, 25, 29});

    // Padding 1 with a centre-only kernel reproduces the input.
    cparams_t p;
    p.pb = p.pe = {1, 1};
    op_runner_t id(dnnl_graph_op_convolution);
    id.input(dnnl_f32, {1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9})
            .input(dnnl_f32, {1, 1, 3, 3}, {0, 0, 0, 0, 1, 0, 0, 0, 0})
            .output(dnnl_f32);
    with(id, p);
    ASSERT_EQ(id.run(), dnnl_success);
    expect_near_all(id.out_values(), {1, 2, 3, 4, 5, 6, 7, 8, 9});
}

TEST(Convolution, GroupedStridedDilatedMatchesNaive) {
    cparams_t p;
    p.s = {2, 1};
    p.d = {1, 2};
    p.pb = {1, 2};
    p.pe = {0, 1};
    p.groups = 2;
    const int N = 2, C = 4, H = 5, W = 6, OC = 6, KH = 3, KW = 2;
    const int OH = (H + 1 + 0 - 3) / 2 + 1, OW = (W + 2 + 1 - 3) / 1 + 1;
    const auto x = vals(N * C * H * W, 1), w = vals(OC * 2 * KH * KW, 2);
    const auto want = naive_conv(x, N, C, H, W, w, OC, KH, KW, p, OH, OW);

    op_runner_t r(dnnl_graph_op_convolution);
    r.input(dnnl_f32, {N, C, H, W}, x).input(dnnl_f32, {OC, 2, KH, KW}, w)
            .output(dnnl_f32);
    with(r, p);
    ASSERT_EQ(r.run(), dnnl_success);
    EXPECT_EQ(r.out_dims(), (dims_t {N, OC, OH, OW}));
    expect_near_all(r.out_values(), want);

    // Same problem in NXC / XIO.
    p.df = "NXC";
    p.wf = "XIO";
    op_runner_t c(dnnl_graph_op_convolution);
    c.input(dnnl_f32, {N, H, W, C}, permute(x, {N, C, H, W}, {0, 2, 3, 1}))
            .input(dnnl_f32, {KH, KW, 2, OC},
                    permute(w, {OC, 2, KH, KW}, {2, 3, 1, 0}))
            .output(dnnl_f32);
    with(c, p);
    ASSERT_EQ(c.run(), dnnl_success);
    EXPECT_EQ(c.out_dims(), (dims_t {N, OH, OW, OC}));
    expect_near_all(c.out_values(), permute(want, {N, OC, OH, OW}, {0, 2, 3, 1}));
}

TEST(Convolution, StridedSourceAndBf16) {
    // src [1,2,3,3] stored with channels innermost (NHWC memory, NCX view).
    cparams_t p;
    const auto x = vals(18, 4), w = vals(2 * 2 * 2 * 2, 5);
    const auto want = naive_conv(x, 1, 2, 3, 3, w, 2, 2, 2, p, 2, 2);
    op_runner_t r(dnnl_graph_op_convolution);
    r.input_strided(dnnl_f32, {1, 2, 3, 3}, {18, 1, 6, 2}, x)
            .input(dnnl_f32, {2, 2, 2, 2}, w)
            .output(dnnl_f32);
    with(r, p);
    ASSERT_EQ(r.run(), dnnl_success);
    expect_near_all(r.out_values(), want);

    op_runner_t b(dnnl_graph_op_convolution);
    b.input(dnnl_bf16, {1, 2, 3, 3}, x).input(dnnl_bf16, {2, 2, 2, 2}, w)
            .output(dnnl_bf16);
    with(b, p);
    ASSERT_EQ(b.run(), dnnl_success);
    expect_near_all(b.out_values(), want, 1e-2, 1e-2);
}

TEST(Convolution, AutoPadSameUpperLower) {
    // K=4, S=1, in=6: SAME_UPPER pads (1,2), SAME_LOWER (2,1); all-ones data
    // and kernel give the count of in-bounds taps per output.
    struct {
        const char *mode;
        dim_t pb, pe;
        std::vector<double> want;
    } cases[] = {{"SAME_UPPER", 1, 2, {3, 4, 4, 4, 3, 2}},
            {"SAME_LOWER", 2, 1, {2, 3, 4, 4, 4, 3}},
            {"same_upper", 1, 2, {3, 4, 4, 4, 3, 2}}};
    for (const auto &c : cases) {
        op_runner_t r(dnnl_graph_op_convolution);
        r.input(dnnl_f32, {1, 1, 6}, {1}).input(dnnl_f32, {1, 1, 4}, {1})
                .output(dnnl_f32)
                .s64s(dnnl_graph_op_attr_strides, {1})
                .s64s(dnnl_graph_op_attr_dilations, {1})
                .s64s(dnnl_graph_op_attr_pads_begin, {0})
                .s64s(dnnl_graph_op_attr_pads_end, {0})
                .str(dnnl_graph_op_attr_data_format, "NCX")
                .str(dnnl_graph_op_attr_weights_format, "OIX")
                .str(dnnl_graph_op_attr_auto_pad, c.mode);
        ASSERT_EQ(r.run(), dnnl_success) << c.mode;
        EXPECT_EQ(r.out_dims(), (dims_t {1, 1, 6}));
        EXPECT_EQ(r.op().get_s64s(dnnl_graph_op_attr_pads_begin),
                std::vector<int64_t> {c.pb});
        EXPECT_EQ(r.op().get_s64s(dnnl_graph_op_attr_pads_end),
                std::vector<int64_t> {c.pe});
        expect_near_all(r.out_values(), c.want);
    }
    // VALID ignores the given pads; stride 2 SAME gives ceil(in / S).
    op_runner_t v(dnnl_graph_op_convolution);
    v.input(dnnl_f32, {1, 7, 7, 1}).input(dnnl_f32, {3, 3, 1, 1})
            .output(dnnl_f32)
            .s64s(dnnl_graph_op_attr_strides, {2, 2})
            .s64s(dnnl_graph_op_attr_dilations, {1, 1})
            .s64s(dnnl_graph_op_attr_pads_begin, {5, 5})
            .s64s(dnnl_graph_op_attr_pads_end, {5, 5})
            .str(dnnl_graph_op_attr_auto_pad, "VALID");
    ASSERT_EQ(v.infer(), dnnl_success);
    EXPECT_EQ(v.out_dims(), (dims_t {1, 3, 3, 1}));
    op_runner_t s(dnnl_graph_op_convolution);
    s.input(dnnl_f32, {1, 7, 7, 1}).input(dnnl_f32, {3, 3, 1, 1})
            .output(dnnl_f32)
            .s64s(dnnl_graph_op_attr_strides, {2, 2})
            .s64s(dnnl_graph_op_attr_dilations, {1, 1})
            .s64s(dnnl_graph_op_attr_pads_begin, {})
            .s64s(dnnl_graph_op_attr_pads_end, {})
            .str(dnnl_graph_op_attr_auto_pad, "SAME_UPPER");
    ASSERT_EQ(s.infer(), dnnl_success);
    EXPECT_EQ(s.out_dims(), (dims_t {1, 4, 4, 1}));
}

TEST(Convolution, ShapeInferenceFormatsAndGroups) {
    // Default formats NXC / XIO, depthwise (groups = C).
    op_runner_t dw(dnnl_graph_op_convolution);
    dw.input(dnnl_f32, {2, 5, 5, 3}).input(dnnl_f32, {3, 3, 1, 3})
            .output(dnnl_f32)
            .s64s(dnnl_graph_op_attr_strides, {1, 1})
            .s64s(dnnl_graph_op_attr_dilations, {1, 1})
            .s64s(dnnl_graph_op_attr_pads_begin, {0, 0})
            .s64s(dnnl_graph_op_attr_pads_end, {0, 0})
            .s64(dnnl_graph_op_attr_groups, 3);
    ASSERT_EQ(dw.infer(), dnnl_success);
    EXPECT_EQ(dw.out_dims(), (dims_t {2, 3, 3, 3}));

    // NCX / OIX with dilation 2: effective kernel 5.
    cparams_t p;
    p.d = {2, 2};
    op_runner_t nc(dnnl_graph_op_convolution);
    nc.input(dnnl_f32, {1, 4, 9, 8}).input(dnnl_f32, {8, 4, 3, 3})
            .output(dnnl_f32);
    with(nc, p);
    ASSERT_EQ(nc.infer(), dnnl_success);
    EXPECT_EQ(nc.out_dims(), (dims_t {1, 8, 5, 4}));

    // Declared output that disagrees.
    op_runner_t bad(dnnl_graph_op_convolution);
    bad.input(dnnl_f32, {1, 4, 9, 8}).input(dnnl_f32, {8, 4, 3, 3})
            .output(dnnl_f32, {1, 8, 5, 5});
    with(bad, p);
    EXPECT_EQ(bad.infer(), dnnl_invalid_shape);
}

TEST(Convolution, SchemaViolations) {
    auto base = [](op_runner_t &r) -> op_runner_t & {
        return r.s64s(dnnl_graph_op_attr_strides, {1, 1})
                .s64s(dnnl_graph_op_attr_dilations, {1, 1})
                .s64s(dnnl_graph_op_attr_pads_begin, {0, 0})
                .s64s(dnnl_graph_op_attr_pads_end, {0, 0});
    };
    op_runner_t no_strides(dnnl_graph_op_convolution);
    no_strides.input(dnnl_f32, {1, 4, 4, 2}).input(dnnl_f32, {3, 3, 2, 2})
            .output(dnnl_f32)
            .s64s(dnnl_graph_op_attr_dilations, {1, 1})
            .s64s(dnnl_graph_op_attr_pads_begin, {0, 0})
            .s64s(dnnl_graph_op_attr_pads_end, {0, 0});
    EXPECT_EQ(no_strides.verify(), dnnl_invalid_graph_op);

    op_runner_t neg_pad(dnnl_graph_op_convolution);
    neg_pad.input(dnnl_f32, {1, 4, 4, 2}).input(dnnl_f32, {3, 3, 2, 2})
            .output(dnnl_f32);
    base(neg_pad).s64s(dnnl_graph_op_attr_pads_begin, {0, -1});
    EXPECT_EQ(neg_pad.verify(), dnnl_invalid_graph_op);

    op_runner_t lengths(dnnl_graph_op_convolution);
    lengths.input(dnnl_f32, {1, 4, 4, 2}).input(dnnl_f32, {3, 3, 2, 2})
            .output(dnnl_f32);
    base(lengths).s64s(dnnl_graph_op_attr_strides, {1, 1, 1});
    EXPECT_EQ(lengths.verify(), dnnl_invalid_graph_op);

    op_runner_t groups(dnnl_graph_op_convolution);
    groups.input(dnnl_f32, {1, 4, 4, 4}).input(dnnl_f32, {3, 3, 4, 2})
            .output(dnnl_f32)
            .s64(dnnl_graph_op_attr_groups, 2); // C/G = 2 != W.I = 4
    base(groups);
    EXPECT_EQ(groups.verify(), dnnl_invalid_graph_op);

    op_runner_t wf(dnnl_graph_op_convolution);
    wf.input(dnnl_f32, {1, 4, 4, 2}).input(dnnl_f32, {3, 3, 2, 2})
            .output(dnnl_f32)
            .str(dnnl_graph_op_attr_weights_format, "IOX");
    base(wf);
    EXPECT_EQ(wf.verify(), dnnl_invalid_graph_op);

    op_runner_t dt(dnnl_graph_op_convolution);
    dt.input(dnnl_f32, {1, 4, 4, 2}).input(dnnl_f16, {3, 3, 2, 2})
            .output(dnnl_f32);
    base(dt);
    EXPECT_EQ(dt.verify(), dnnl_invalid_graph_op);

    op_runner_t ok(dnnl_graph_op_convolution);
    ok.input(dnnl_f32, {1, 4, 4, 2}).input(dnnl_f32, {3, 3, 2, 2})
            .output(dnnl_f32);
    base(ok);
    EXPECT_EQ(ok.verify(), dnnl_success);
    EXPECT_EQ(ok.op().get_str(dnnl_graph_op_attr_weights_format), "XIO");
    EXPECT_EQ(ok.op().get_s64(dnnl_graph_op_attr_groups), 1);
}

TEST(ConvTranspose, HandComputedAndNaive) {
    // [[1 2] [3 4]] with a 2x2 ones kernel, stride 1: every input value is
    // spread over a 2x2 block.
    op_runner_t r(dnnl_graph_op_conv_transpose);
    r.input(dnnl_f32, {1, 1, 2, 2}, {1, 2, 3, 4})
            .input(dnnl_f32, {1, 1, 2, 2}, {1, 1, 1, 1})
            .output(dnnl_f32);
    cparams_t p;
    p.wf = "IOX";
    with(r, p);
    ASSERT_EQ(r.run(), dnnl_success);
    EXPECT_EQ(r.out_dims(), (dims_t {1, 1, 3, 3}));
    expect_near_all(r.out_values(), {1, 3, 2, 4, 10, 6, 3, 7, 4});

    // Grouped, strided, dilated, padded, with output_padding and bias.
    cparams_t q;
    q.s = {2, 2};
    q.d = {1, 2};
    q.pb = {1, 0};
    q.pe = {0, 1};
    q.groups = 2;
    q.wf = "IOX";
    const int N = 1, C = 4, H = 3, W = 2, ocg = 3, KH = 3, KW = 2;
    const int OH = 2 * (H - 1) + 3 - 1 - 0 + 1; // output_padding 1
    const int OW = 2 * (W - 1) + 3 - 0 - 1 + 0;
    const auto x = vals(N * C * H * W, 6), w = vals(C * ocg * KH * KW, 7);
    auto want = naive_deconv(x, N, C, H, W, w, ocg, KH, KW, q, OH, OW);
    const std::vector<double> bias {1, 2, 3, 4, 5, 6};
    for (size_t i = 0; i < want.size(); ++i)
        want[i] += bias[(i / (OH * OW)) % 6];
    op_runner_t t(dnnl_graph_op_conv_transpose);
    t.input(dnnl_f32, {N, C, H, W}, x).input(dnnl_f32, {C, ocg, KH, KW}, w)
            .input(dnnl_f32, {6}, bias)
            .output(dnnl_f32)
            .s64s(dnnl_graph_op_attr_output_padding, {1, 0});
    with(t, q);
    ASSERT_EQ(t.run(), dnnl_success);
    EXPECT_EQ(t.out_dims(), (dims_t {N, 6, OH, OW}));
    expect_near_all(t.out_values(), want);

    // Same in NXC / XOI.
    q.df = "NXC";
    q.wf = "XOI";
    op_runner_t c(dnnl_graph_op_conv_transpose);
    c.input(dnnl_f32, {N, H, W, C}, permute(x, {N, C, H, W}, {0, 2, 3, 1}))
            .input(dnnl_f32, {KH, KW, ocg, C},
                    permute(w, {C, ocg, KH, KW}, {2, 3, 1, 0}))
            .input(dnnl_f32, {6}, bias)
            .output(dnnl_f32)
            .s64s(dnnl_graph_op_attr_output_padding, {1, 0});
    with(c, q);
    ASSERT_EQ(c.run(), dnnl_success);
    expect_near_all(c.out_values(), permute(want, {N, 6, OH, OW}, {0, 2, 3, 1}));
}

TEST(ConvTranspose, ShapeInferenceAndErrors) {
    // SAME_UPPER deconvolution: output = in * S.
    op_runner_t s(dnnl_graph_op_conv_transpose);
    s.input(dnnl_f32, {1, 5, 5, 4}).input(dnnl_f32, {3, 3, 2, 4})
            .output(dnnl_f32)
            .s64s(dnnl_graph_op_attr_strides, {2, 2})
            .s64s(dnnl_graph_op_attr_dilations, {1, 1})
            .s64s(dnnl_graph_op_attr_pads_begin, {0, 0})
            .s64s(dnnl_graph_op_attr_pads_end, {0, 0})
            .s64(dnnl_graph_op_attr_groups, 2)
            .str(dnnl_graph_op_attr_auto_pad, "SAME_UPPER");
    ASSERT_EQ(s.infer(), dnnl_success);
    EXPECT_EQ(s.out_dims(), (dims_t {1, 10, 10, 4})); // OC = 2 * groups
    EXPECT_EQ(s.op().get_s64s(dnnl_graph_op_attr_pads_begin),
            (std::vector<int64_t> {0, 0}));
    EXPECT_EQ(s.op().get_s64s(dnnl_graph_op_attr_pads_end),
            (std::vector<int64_t> {1, 1}));

    op_runner_t bad(dnnl_graph_op_conv_transpose);
    bad.input(dnnl_f32, {1, 5, 5, 4}).input(dnnl_f32, {3, 3, 2, 4})
            .output(dnnl_f32, {1, 9, 9, 2})
            .s64s(dnnl_graph_op_attr_strides, {2, 2})
            .s64s(dnnl_graph_op_attr_dilations, {1, 1})
            .s64s(dnnl_graph_op_attr_pads_begin, {0, 0})
            .s64s(dnnl_graph_op_attr_pads_end, {0, 0});
    EXPECT_EQ(bad.infer(), dnnl_invalid_shape);

    op_runner_t wf(dnnl_graph_op_conv_transpose);
    wf.input(dnnl_f32, {1, 5, 5, 4}).input(dnnl_f32, {3, 3, 2, 4})
            .output(dnnl_f32)
            .s64s(dnnl_graph_op_attr_strides, {2, 2})
            .s64s(dnnl_graph_op_attr_dilations, {1, 1})
            .s64s(dnnl_graph_op_attr_pads_begin, {0, 0})
            .s64s(dnnl_graph_op_attr_pads_end, {0, 0})
            .str(dnnl_graph_op_attr_weights_format, "OIX");
    EXPECT_EQ(wf.verify(), dnnl_invalid_graph_op);
}

// ---- backward ops: finite differences against the forward ops -------------

namespace {
// Shared problem: N=2, C=4, 5x4 spatial, groups 2, stride (2,1), dilation
// (1,2), pads (1,0)/(0,1). Conv: OC=6 -> out 3x3 (see naive_conv).
const int kN = 2, kC = 4, kH = 5, kW = 4, kOC = 6, kKH = 3, kKW = 2;
cparams_t bwd_params() {
    cparams_t p;
    p.s = {2, 1};
    p.d = {1, 2};
    p.pb = {1, 0};
    p.pe = {0, 1};
    p.groups = 2;
    return p;
}
const int kOH = (kH + 1 - 3) / 2 + 1, kOW = (kW + 1 - 3) / 1 + 1;

std::vector<double> run_conv(const std::vector<double> &x,
        const std::vector<double> &w, const cparams_t &p) {
    op_runner_t r(dnnl_graph_op_convolution);
    r.input(dnnl_f32, {kN, kC, kH, kW}, x)
            .input(dnnl_f32, {kOC, kC / 2, kKH, kKW}, w)
            .output(dnnl_f32);
    with(r, p);
    EXPECT_EQ(r.run(), dnnl_success);
    return r.out_values();
}
} // namespace

TEST(ConvolutionBackwardData, FiniteDifference) {
    const cparams_t p = bwd_params();
    const auto x = vals(kN * kC * kH * kW, 1), w = vals(kOC * 2 * kKH * kKW, 2);
    const auto dy = vals(kN * kOC * kOH * kOW, 3);
    const auto want = fd_grad(
            [&](const std::vector<double> &xx) { return run_conv(xx, w, p); },
            x, dy);
    op_runner_t r(dnnl_graph_op_convolution_backward_data);
    r.input(dnnl_f32, {kN, kOC, kOH, kOW}, dy)
            .input(dnnl_f32, {kOC, 2, kKH, kKW}, w)
            .output(dnnl_f32)
            .s64s(dnnl_graph_op_attr_dst_shape, {kN, kC, kH, kW});
    with(r, p);
    ASSERT_EQ(r.run(), dnnl_success);
    EXPECT_EQ(r.out_dims(), (dims_t {kN, kC, kH, kW}));
    expect_near_all(r.out_values(), want, 1e-4, 1e-4);
    EXPECT_TRUE(ops::find_op_def(dnnl_graph_op_convolution_backward_data)
                        ->traits.is_backward);
}

TEST(ConvolutionBackwardData, ShapeAndSchema) {
    // No dst_shape and no declared output: nothing to infer from.
    op_runner_t none(dnnl_graph_op_convolution_backward_data);
    none.input(dnnl_f32, {1, 2, 3, 3}).input(dnnl_f32, {2, 2, 3, 3})
            .output(dnnl_f32);
    with(none, cparams_t {});
    EXPECT_EQ(none.infer(), dnnl_invalid_shape);
    // Declared output is enough; SAME_LOWER uses diff_src size (K=4, in=6).
    op_runner_t decl(dnnl_graph_op_convolution_backward_data);
    decl.input(dnnl_f32, {1, 1, 6}).input(dnnl_f32, {1, 1, 4})
            .output(dnnl_f32, {1, 1, 6})
            .s64s(dnnl_graph_op_attr_strides, {1})
            .s64s(dnnl_graph_op_attr_dilations, {1})
            .s64s(dnnl_graph_op_attr_pads_begin, {0})
            .s64s(dnnl_graph_op_attr_pads_end, {0})
            .str(dnnl_graph_op_attr_data_format, "NCX")
            .str(dnnl_graph_op_attr_weights_format, "OIX")
            .str(dnnl_graph_op_attr_auto_pad, "SAME_LOWER");
    ASSERT_EQ(decl.infer(), dnnl_success);
    EXPECT_EQ(decl.op().get_s64s(dnnl_graph_op_attr_pads_begin),
            std::vector<int64_t> {2});
    // diff_dst inconsistent with dst_shape.
    op_runner_t bad(dnnl_graph_op_convolution_backward_data);
    bad.input(dnnl_f32, {1, 2, 4, 4}).input(dnnl_f32, {2, 2, 3, 3})
            .output(dnnl_f32)
            .s64s(dnnl_graph_op_attr_dst_shape, {1, 2, 5, 5});
    with(bad, cparams_t {});
    EXPECT_EQ(bad.verify(), dnnl_invalid_graph_op);
    // Shape input must be s32.
    op_runner_t dt(dnnl_graph_op_convolution_backward_data);
    dt.input(dnnl_f32, {1, 2, 3, 3}).input(dnnl_f32, {2, 2, 3, 3})
            .input(dnnl_f32, {4})
            .output(dnnl_f32);
    with(dt, cparams_t {});
    EXPECT_EQ(dt.verify(), dnnl_invalid_graph_op);
}

TEST(ConvolutionBackwardWeights, FiniteDifferenceNxcXio) {
    cparams_t p = bwd_params();
    const auto x = vals(kN * kC * kH * kW, 4), w = vals(kOC * 2 * kKH * kKW, 5);
    const auto dy = vals(kN * kOC * kOH * kOW, 6);
    const auto want = fd_grad(
            [&](const std::vector<double> &ww) { return run_conv(x, ww, p); },
            w, dy);
    p.df = "NXC";
    p.wf = "XIO";
    op_runner_t r(dnnl_graph_op_convolution_backward_weights);
    r.input(dnnl_f32, {kN, kH, kW, kC},
             permute(x, {kN, kC, kH, kW}, {0, 2, 3, 1}))
            .input(dnnl_f32, {kN, kOH, kOW, kOC},
                    permute(dy, {kN, kOC, kOH, kOW}, {0, 2, 3, 1}))
            .output(dnnl_f32)
            .s64s(dnnl_graph_op_attr_weights_shape, {kKH, kKW, 2, kOC});
    with(r, p);
    ASSERT_EQ(r.run(), dnnl_success);
    EXPECT_EQ(r.out_dims(), (dims_t {kKH, kKW, 2, kOC}));
    expect_near_all(r.out_values(),
            permute(want, {kOC, 2, kKH, kKW}, {2, 3, 1, 0}), 1e-4, 1e-4);
}

TEST(ConvolutionBackwardWeights, SchemaViolations) {
    op_runner_t out_padding(dnnl_graph_op_convolution_backward_weights);
    out_padding.input(dnnl_f32, {1, 2, 3, 3}).input(dnnl_f32, {1, 2, 1, 1})
            .output(dnnl_f32)
            .s64s(dnnl_graph_op_attr_output_padding, {0, 0});
    with(out_padding, cparams_t {});
    EXPECT_EQ(out_padding.verify(), dnnl_invalid_graph_op);

    op_runner_t three_out(dnnl_graph_op_convolution_backward_weights);
    three_out.input(dnnl_f32, {1, 2, 3, 3}).input(dnnl_f32, {1, 2, 1, 1})
            .output(dnnl_f32)
            .output(dnnl_f32);
    with(three_out, cparams_t {});
    EXPECT_EQ(three_out.verify(), dnnl_invalid_graph_op);
}

namespace {
// Transposed problem: src C=4 (groups 2), ocg=3 -> OC=6, 3x3 input,
// stride 2, pads (1,0)/(0,1), dilation (1,2): out (2*2+3-1-0, 2*2+3-0-1).
const int tN = 2, tC = 4, tH = 3, tW = 3, tOCG = 3, tKH = 3, tKW = 2;
const int tOH = 2 * (tH - 1) + 3 - 1, tOW = 2 * (tW - 1) + 3 - 1;
cparams_t t_params() {
    cparams_t p = bwd_params();
    p.s = {2, 2};
    p.wf = "IOX";
    return p;
}
std::vector<double> run_deconv(
        const std::vector<double> &x, const std::vector<double> &w) {
    op_runner_t r(dnnl_graph_op_conv_transpose);
    r.input(dnnl_f32, {tN, tC, tH, tW}, x)
            .input(dnnl_f32, {tC, tOCG, tKH, tKW}, w)
            .output(dnnl_f32);
    with(r, t_params());
    EXPECT_EQ(r.run(), dnnl_success);
    EXPECT_EQ(r.out_dims(), (dims_t {tN, 2 * tOCG, tOH, tOW}));
    return r.out_values();
}
} // namespace

TEST(ConvTransposeBackwardData, FiniteDifference) {
    const auto x = vals(tN * tC * tH * tW, 1), w = vals(tC * tOCG * tKH * tKW, 2);
    const auto dy = vals(tN * 2 * tOCG * tOH * tOW, 3);
    const auto want = fd_grad(
            [&](const std::vector<double> &xx) { return run_deconv(xx, w); }, x,
            dy);
    op_runner_t r(dnnl_graph_op_conv_transpose_backward_data);
    r.input(dnnl_f32, {tN, 2 * tOCG, tOH, tOW}, dy)
            .input(dnnl_f32, {tC, tOCG, tKH, tKW}, w)
            .output(dnnl_f32);
    with(r, t_params());
    ASSERT_EQ(r.run(), dnnl_success);
    EXPECT_EQ(r.out_dims(), (dims_t {tN, tC, tH, tW}));
    expect_near_all(r.out_values(), want, 1e-4, 1e-4);
}

TEST(ConvTransposeBackwardData, SchemaViolations) {
    // output_padding is not part of this op's schema; 3 inputs neither.
    op_runner_t op_pad(dnnl_graph_op_conv_transpose_backward_data);
    op_pad.input(dnnl_f32, {1, 2, 3, 3}).input(dnnl_f32, {2, 2, 1, 1})
            .output(dnnl_f32)
            .s64s(dnnl_graph_op_attr_output_padding, {0, 0});
    cparams_t p;
    p.wf = "IOX";
    with(op_pad, p);
    EXPECT_EQ(op_pad.verify(), dnnl_invalid_graph_op);
    op_runner_t three(dnnl_graph_op_conv_transpose_backward_data);
    three.input(dnnl_f32, {1, 2, 3, 3}).input(dnnl_f32, {2, 2, 1, 1})
            .input(dnnl_s32, {4})
            .output(dnnl_f32);
    with(three, p);
    EXPECT_EQ(three.verify(), dnnl_invalid_graph_op);
}

TEST(ConvTransposeBackwardWeights, FiniteDifference) {
    const auto x = vals(tN * tC * tH * tW, 4), w = vals(tC * tOCG * tKH * tKW, 5);
    const auto dy = vals(tN * 2 * tOCG * tOH * tOW, 6);
    const auto want = fd_grad(
            [&](const std::vector<double> &ww) { return run_deconv(x, ww); }, w,
            dy);
    op_runner_t r(dnnl_graph_op_conv_transpose_backward_weights);
    r.input(dnnl_f32, {tN, tC, tH, tW}, x)
            .input(dnnl_f32, {tN, 2 * tOCG, tOH, tOW}, dy)
            .output(dnnl_f32, {tC, tOCG, tKH, tKW});
    with(r, t_params());
    ASSERT_EQ(r.run(), dnnl_success);
    expect_near_all(r.out_values(), want, 1e-4, 1e-4);

    // With neither weights_shape nor a declared shape but a shape input,
    // inference is unimplemented (the shape is a runtime value).
    op_runner_t rt(dnnl_graph_op_conv_transpose_backward_weights);
    rt.input(dnnl_f32, {tN, tC, tH, tW}).input(dnnl_f32, {tN, 6, tOH, tOW})
            .input(dnnl_s32, {4})
            .output(dnnl_f32);
    with(rt, t_params());
    EXPECT_EQ(rt.infer(), dnnl_unimplemented);
}

TEST(ConvTransposeBackwardWeights, SchemaViolations) {
    op_runner_t wf(dnnl_graph_op_conv_transpose_backward_weights);
    wf.input(dnnl_f32, {1, 2, 3, 3}).input(dnnl_f32, {1, 2, 3, 3})
            .output(dnnl_f32);
    with(wf, cparams_t {}); // OIX is a Convolution weights format
    EXPECT_EQ(wf.verify(), dnnl_invalid_graph_op);
    op_runner_t dt(dnnl_graph_op_conv_transpose_backward_weights);
    dt.input(dnnl_f32, {1, 2, 3, 3}).input(dnnl_bf16, {1, 2, 3, 3})
            .output(dnnl_f32);
    cparams_t p;
    p.wf = "IOX";
    with(dt, p);
    EXPECT_EQ(dt.verify(), dnnl_invalid_graph_op);
}

} // namespace test
} // namespace llga
