// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/conv/bwd/cpu_conv_bwd_test.cpp —
// ConvolutionBackwardData, ConvTranspose, ConvolutionBackwardWeights and
// ConvTransposeBackwardWeights on the cpu backend
// (backends/cpu/kernels/conv_bwd*.cpp): small cases worked out by hand, then
// random 1D/2D/3D geometries (groups, strides, dilations, pads, output_padding,
// bias, NXC/NCX, both weight formats, padded layouts) against the reference op
// within the f32 summation bound (k + 4) u sum|a||b| of
// plan_test::reference_bounds, at every ISA level.
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/isa.hpp"
#include "compiler/pass_relabel_ops.hpp"
#include "cpu_plan_test_util.hpp"
#include "cpu_test_isa.hpp"
#include "ir/logical_tensor.hpp"
#include "ir/shape.hpp"
#include "ops/registry.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace {

using plan_test::bytes_t;
using plan_test::f32_bytes;
using av = ir::attr_value_t;

class CpuConvBwd : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

std::vector<float> as_f32(const bytes_t &b) {
    std::vector<float> v(b.size() / 4);
    std::memcpy(v.data(), b.data(), b.size());
    return v;
}

// The 1D geometry of the hand-worked cases: X has 4 pixels, k = 3,
// stride 2, pads 1/1, so Y has 2; one channel each, NCX, OIX/IOX.
ir::op_t hand_op(op_kind_t kind, std::vector<logical_tensor_t> in,
        logical_tensor_t out) {
    ir::op_t op;
    op.kind = kind;
    op.id = 1;
    op.inputs = std::move(in);
    op.outputs = {out};
    op.set_attr(dnnl_graph_op_attr_strides, av::make_s64s({2}));
    op.set_attr(dnnl_graph_op_attr_pads_begin, av::make_s64s({1}));
    op.set_attr(dnnl_graph_op_attr_pads_end, av::make_s64s({1}));
    op.set_attr(dnnl_graph_op_attr_dilations, av::make_s64s({1}));
    op.set_attr(dnnl_graph_op_attr_data_format, av::make_str("NCX"));
    const bool t = kind == dnnl_graph_op_conv_transpose;
    op.set_attr(dnnl_graph_op_attr_weights_format,
            av::make_str(t ? "IOX" : "OIX"));
    // ConvTranspose: 2 (Y - 1) + 3 - 1 - 1 = 3, plus 1 for X = 4.
    if (t) op.set_attr(dnnl_graph_op_attr_output_padding, av::make_s64s({1}));
    if (kind == dnnl_graph_op_convolution_backward_data)
        op.set_attr(dnnl_graph_op_attr_dst_shape, av::make_s64s({1, 1, 4}));
    if (kind == dnnl_graph_op_convolution_backward_weights)
        op.set_attr(dnnl_graph_op_attr_weights_shape,
                av::make_s64s({1, 1, 3}));
    return op;
}

std::vector<float> run_hand(const ir::op_t &op,
        const std::vector<std::vector<float>> &in, const char *kernel) {
    const compiler::plan_t p = plan_test::plan_of(op);
    std::vector<bytes_t> ib;
    for (const auto &v : in)
        ib.push_back(f32_bytes(v));
    bytes_t got;
    std::string kname;
    EXPECT_TRUE(plan_test::run_jit(p, ib, got, &kname));
    EXPECT_NE(kname.find(kernel), std::string::npos) << kname;
    return as_f32(got);
}

// X[p] = sum over (o, k) with 2o + k - 1 = p of Y[o] W[k]:
//   X0 = Y0 W1, X1 = Y0 W2 + Y1 W0, X2 = Y1 W1, X3 = Y1 W2.
TEST_F(CpuConvBwd, HandWorkedBackwardDataAndConvTranspose) {
    for (isa_t isa : test_isa::host_levels({isa_t::avx2, isa_t::avx512_core})) {
        test_isa::isa_guard_t guard(isa);
        const logical_tensor_t y = ir::make_lt(1, dnnl_f32, {1, 1, 2});
        const logical_tensor_t w = ir::make_lt(2, dnnl_f32, {1, 1, 3});
        const logical_tensor_t x = ir::make_lt(3, dnnl_f32, {1, 1, 4});
        const std::vector<float> yv = {1, 2}, wv = {1, 10, 100};
        EXPECT_EQ(run_hand(hand_op(dnnl_graph_op_convolution_backward_data,
                                   {y, w}, x),
                          {yv, wv}, "conv_bwd_data"),
                (std::vector<float> {10, 102, 20, 200}))
                << isa_name(isa);
        const logical_tensor_t b = ir::make_lt(4, dnnl_f32, {1});
        EXPECT_EQ(run_hand(hand_op(dnnl_graph_op_conv_transpose, {y, w, b}, x),
                          {yv, wv, {0.5f}}, "conv_bwd_data"),
                (std::vector<float> {10.5f, 102.5f, 20.5f, 200.5f}))
                << isa_name(isa);
    }
}

// W[k] = sum_o Y[o] X[2o + k - 1] with X = 1..4, Y = (1, 10):
//   W0 = 10 X1 = 20, W1 = X0 + 10 X2 = 31, W2 = X1 + 10 X3 = 42.
TEST_F(CpuConvBwd, HandWorkedBackwardWeights) {
    for (isa_t isa : test_isa::host_levels({isa_t::avx2, isa_t::avx512_core})) {
        test_isa::isa_guard_t guard(isa);
        const logical_tensor_t x = ir::make_lt(1, dnnl_f32, {1, 1, 4});
        const logical_tensor_t y = ir::make_lt(2, dnnl_f32, {1, 1, 2});
        const logical_tensor_t w = ir::make_lt(3, dnnl_f32, {1, 1, 3});
        EXPECT_EQ(run_hand(hand_op(dnnl_graph_op_convolution_backward_weights,
                                   {x, y}, w),
                          {{1, 2, 3, 4}, {1, 10}}, "conv_bwd_weights"),
                (std::vector<float> {20, 31, 42}))
                << isa_name(isa);
    }
}

struct bwd_case_t {
    op_kind_t kind = dnnl_graph_op_convolution_backward_data;
    int nsp = 2;
    int64_t n = 1, g = 1, xcg = 1, ycg = 1;
    int64_t x[3] = {1, 1, 1}, k[3] = {1, 1, 1}, s[3] = {1, 1, 1},
            d[3] = {1, 1, 1}, pb[3] = {}, pe[3] = {};
    bool nxc = true, spatial_first = false, bias = false;
    int pad_axis = 0; // 0: dense; 1: innermost axis padded; 2: the next

    bool transposed() const {
        return kind == dnnl_graph_op_conv_transpose
                || kind == dnnl_graph_op_conv_transpose_backward_data
                || kind == dnnl_graph_op_conv_transpose_backward_weights;
    }
    bool computes_w() const {
        return kind == dnnl_graph_op_convolution_backward_weights
                || kind == dnnl_graph_op_conv_transpose_backward_weights;
    }
    int64_t y(int i) const {
        return (x[i] + pb[i] + pe[i] - (k[i] - 1) * d[i] - 1) / s[i] + 1;
    }
    std::string str() const {
        std::string r = std::string(ops::op_kind_name(kind)) + " mb"
                + std::to_string(n) + " g" + std::to_string(g) + " xcg"
                + std::to_string(xcg) + " ycg" + std::to_string(ycg);
        const char *names[] = {" x", " k", " s", " d", " pb", " pe"};
        const int64_t *vals[] = {x, k, s, d, pb, pe};
        for (int a = 0; a < 6; ++a) {
            r += names[a];
            for (int i = 0; i < nsp; ++i)
                r += (i ? "x" : "") + std::to_string(vals[a][i]);
        }
        return r + (nxc ? " NXC" : " NCX") + (spatial_first ? " X.." : " ..X")
                + (bias ? " bias" : "") + " pad_axis"
                + std::to_string(pad_axis);
    }
};

// A data tensor (n, c, sp...) in NXC/NCX order, optionally padded.
logical_tensor_t data_lt(const bwd_case_t &c, size_t id, int64_t ch,
        const int64_t *sp, bool padded) {
    dims_t dims = {c.n};
    if (!c.nxc) dims.push_back(ch);
    for (int i = 0; i < c.nsp; ++i)
        dims.push_back(sp[i]);
    if (c.nxc) dims.push_back(ch);
    logical_tensor_t lt = ir::make_lt(id, dnnl_f32, dims);
    if (!padded || c.pad_axis == 0) return lt;
    const int r = static_cast<int>(dims.size());
    int64_t st = 1;
    for (int i = r - 1; i >= 0; --i) {
        lt.layout.strides[i] = st;
        st *= dims[static_cast<size_t>(i)] + (r - i == c.pad_axis ? 2 : 0);
    }
    return lt;
}

ir::op_t build(const bwd_case_t &c) {
    int64_t ysp[3];
    for (int i = 0; i < c.nsp; ++i)
        ysp[i] = c.y(i);
    const int64_t cx = c.g * c.xcg, cy = c.g * c.ycg;
    const logical_tensor_t x = data_lt(c, 1, cx, c.x, true);
    const logical_tensor_t y = data_lt(c, 2, cy, ysp, true);
    dims_t wd;
    if (c.spatial_first) {
        wd.assign(c.k, c.k + c.nsp);
        wd.push_back(c.xcg);
        wd.push_back(cy);
    } else {
        wd = {cy, c.xcg};
        wd.insert(wd.end(), c.k, c.k + c.nsp);
    }
    logical_tensor_t w = ir::make_lt(3, dnnl_f32, wd);
    ir::op_t op;
    op.kind = c.kind;
    op.id = 1;
    const std::vector<int64_t> xdims(x.dims, x.dims + x.ndims);
    switch (c.kind) {
        case dnnl_graph_op_convolution_backward_data:
            op.inputs = {y, w};
            op.outputs = {x};
            op.set_attr(dnnl_graph_op_attr_dst_shape, av::make_s64s(xdims));
            break;
        case dnnl_graph_op_conv_transpose:
            op.inputs = {y, w};
            if (c.bias) op.inputs.push_back(ir::make_lt(4, dnnl_f32, {cx}));
            op.outputs = {x};
            break;
        case dnnl_graph_op_conv_transpose_backward_data: // diff_dst is X
            op.inputs = {x, w};
            op.outputs = {y};
            break;
        case dnnl_graph_op_convolution_backward_weights:
            op.inputs = {x, y};
            op.outputs = {w};
            op.set_attr(dnnl_graph_op_attr_weights_shape, av::make_s64s(wd));
            break;
        default: // conv_transpose_backward_weights: src is Y, diff_dst X
            op.inputs = {y, x};
            op.outputs = {w};
            op.set_attr(dnnl_graph_op_attr_weights_shape, av::make_s64s(wd));
            break;
    }
    auto vec = [&](const int64_t *a) {
        return std::vector<int64_t>(a, a + c.nsp);
    };
    op.set_attr(dnnl_graph_op_attr_strides, av::make_s64s(vec(c.s)));
    op.set_attr(dnnl_graph_op_attr_dilations, av::make_s64s(vec(c.d)));
    op.set_attr(dnnl_graph_op_attr_pads_begin, av::make_s64s(vec(c.pb)));
    op.set_attr(dnnl_graph_op_attr_pads_end, av::make_s64s(vec(c.pe)));
    op.set_attr(dnnl_graph_op_attr_groups, av::make_s64(c.g));
    op.set_attr(dnnl_graph_op_attr_data_format,
            av::make_str(c.nxc ? "NXC" : "NCX"));
    const char *wf = c.transposed() ? (c.spatial_first ? "XOI" : "IOX")
                                    : (c.spatial_first ? "XIO" : "OIX");
    op.set_attr(dnnl_graph_op_attr_weights_format, av::make_str(wf));
    if (c.kind == dnnl_graph_op_conv_transpose) {
        // The output_padding that makes X exactly c.x.
        std::vector<int64_t> op_pad;
        for (int i = 0; i < c.nsp; ++i)
            op_pad.push_back((c.x[i] + c.pb[i] + c.pe[i] - (c.k[i] - 1) * c.d[i] - 1)
                    % c.s[i]);
        op.set_attr(dnnl_graph_op_attr_output_padding, av::make_s64s(op_pad));
    }
    return op;
}

// Kernel output against the reference's, within the bound of a sum of
// `terms` products per element, at avx2 and avx512_core; the kernel name
// must contain `kernel` when given.
void check(const bwd_case_t &c, std::mt19937 &gen, const char *kernel = nullptr) {
    ir::op_t op = build(c);
    ASSERT_EQ(ops::verify_op(op), dnnl_success) << c.str() << ": " << last_error();
    const compiler::plan_t p = plan_test::plan_of(op);
    // ConvTransposeBackwardData runs as the Convolution the compiler
    // renames it to; the expectation stays the original op's.
    compiler::plan_t run = p;
    compiler::pass_relabel_ops(run);
    std::vector<bytes_t> in;
    for (const auto &lt : p.inputs)
        in.push_back(plan_test::random_bytes(lt, gen, -2.f, 2.f));
    int64_t ysz = 1, ksz = 1;
    for (int i = 0; i < c.nsp; ++i) {
        ysz *= c.y(i);
        ksz *= c.k[i];
    }
    const bool y_out = c.kind == dnnl_graph_op_conv_transpose_backward_data;
    const int64_t terms = c.computes_w() ? c.n * ysz
            : y_out                      ? ksz * c.xcg
                                         : ksz * c.ycg + 1;
    const size_t out_id = op.outputs[0].id;
    const plan_test::anchor_bounds_t bounds
            = plan_test::reference_bounds(p, in, 0, out_id, terms);
    const char *want_kernel = c.computes_w() ? "conv_bwd_weights"
            : y_out                          ? "conv_"
                                             : "conv_bwd_data";
    for (isa_t isa : test_isa::host_levels({isa_t::avx2, isa_t::avx512_core})) {
        test_isa::isa_guard_t guard(isa);
        // The output starts as NaNs: the kernel must write every element.
        ASSERT_TRUE(cpu_backend().supports(run)) << c.str();
        std::shared_ptr<const compiler::kernel_t> k;
        ASSERT_EQ(cpu_backend().compile(run, k), dnnl_success) << last_error();
        const std::string kname = k->name();
        bytes_t got(ir::mem_size(run.outputs[0]), char(0xff));
        compiler::exec_ctx_t ctx;
        for (const auto &b : in)
            ctx.inputs.push_back(b.data());
        ctx.outputs.push_back(got.data());
        ASSERT_EQ(k->execute(ctx), dnnl_success) << last_error();
        ASSERT_NE(kname.find(want_kernel), std::string::npos) << kname;
        if (kernel) {
            ASSERT_NE(kname.find(kernel), std::string::npos) << kname;
        }
        const dims_t od = ir::dims_of(op.outputs[0]);
        const dims_t os = ir::strides_of(op.outputs[0]);
        int bad = 0;
        int64_t idx[DNNL_MAX_NDIMS];
        for (int64_t i = 0; i < ir::product(od); ++i) {
            ir::unravel(i, od, idx);
            int64_t o = 0;
            for (size_t a = 0; a < od.size(); ++a)
                o += idx[a] * os[a];
            const plan_test::bound_check_t e
                    = plan_test::check_element(bounds, out_id, got, o);
            if (!e.ok && bad++ < 3)
                ADD_FAILURE() << c.str() << " at " << isa_name(isa) << " ["
                              << o << "] got " << e.got << " want " << e.want
                              << " in [" << e.min << ", " << e.max << "]";
        }
        if (bad) return;
    }
}

bwd_case_t random_case(std::mt19937 &gen, op_kind_t kind) {
    auto pick = [&](int64_t lo, int64_t hi) {
        return lo + static_cast<int64_t>(gen() % static_cast<unsigned>(hi - lo + 1));
    };
    for (;;) {
        bwd_case_t c;
        c.kind = kind;
        c.nsp = static_cast<int>(pick(1, 3));
        c.n = pick(1, 3);
        c.g = pick(1, 3);
        c.xcg = pick(1, 9);
        c.ycg = pick(1, 9);
        if (c.g > 1 && c.xcg == 1 && c.ycg == 1) c.ycg = 2; // not depthwise
        const int64_t xmax = c.nsp == 3 ? 6 : c.nsp == 2 ? 9 : 17;
        bool ok = true;
        // A quarter are 1x1 without stride or padding (the GEMM-only path).
        const bool one_to_one = gen() % 4 == 0;
        for (int i = 0; i < c.nsp; ++i) {
            c.x[i] = pick(1, xmax);
            c.k[i] = one_to_one ? 1 : pick(1, 3);
            c.s[i] = one_to_one ? 1 : pick(1, 3);
            c.d[i] = pick(1, 2);
            c.pb[i] = one_to_one ? 0 : pick(0, 2);
            c.pe[i] = one_to_one ? 0 : pick(0, 2);
            ok = ok && c.y(i) >= 1
                    && c.x[i] + c.pb[i] + c.pe[i] >= (c.k[i] - 1) * c.d[i] + 1;
        }
        if (!ok) continue;
        c.nxc = gen() % 2;
        c.spatial_first = gen() % 2;
        c.bias = kind == dnnl_graph_op_conv_transpose && gen() % 2;
        // The forward conv kernels take channel-last data with uniform
        // pixel strides only (a padded W axis goes to the reference).
        const bool fwd = kind == dnnl_graph_op_conv_transpose_backward_data;
        c.pad_axis = static_cast<int>(gen() % (fwd ? 2 : 3));
        return c;
    }
}

void run_random(op_kind_t kind, unsigned seed, int trials) {
    std::mt19937 gen(seed);
    for (int t = 0; t < trials; ++t) {
        const bwd_case_t c = random_case(gen, kind);
        SCOPED_TRACE(c.str());
        check(c, gen);
        if (::testing::Test::HasFailure()) return;
    }
}

TEST_F(CpuConvBwd, BackwardDataRandomGeometries) {
    run_random(dnnl_graph_op_convolution_backward_data, 11, 120);
}
TEST_F(CpuConvBwd, ConvTransposeRandomGeometries) {
    run_random(dnnl_graph_op_conv_transpose, 12, 120);
}
// Unit strides, kernels larger than 1x1, pads within the kernel's span and
// enough pixels: the flipped forward convolution (conv_bwd_flip.cpp).
TEST_F(CpuConvBwd, UnitStrideDataGradientsRunFlipped) {
    std::mt19937 gen(16);
    auto pick = [&](int64_t lo, int64_t hi) {
        return lo + static_cast<int64_t>(gen() % static_cast<unsigned>(hi - lo + 1));
    };
    for (int t = 0; t < 40; ++t) {
        bwd_case_t c;
        c.kind = t % 2 ? dnnl_graph_op_conv_transpose
                       : dnnl_graph_op_convolution_backward_data;
        c.nsp = static_cast<int>(pick(1, 3));
        c.n = pick(2, 3);
        c.g = pick(1, 2);
        c.xcg = pick(1, 12);
        c.ycg = pick(2, 12);
        const int64_t xmin[] = {0, 130, 12, 6}, xmax[] = {0, 160, 16, 7};
        for (int i = 0; i < c.nsp; ++i) {
            c.x[i] = pick(xmin[c.nsp], xmax[c.nsp]);
            c.k[i] = pick(2, 3);
            c.d[i] = pick(1, 2);
            const int64_t span = (c.k[i] - 1) * c.d[i];
            c.pb[i] = pick(0, span);
            c.pe[i] = pick(0, span);
        }
        c.nxc = gen() % 2;
        c.spatial_first = gen() % 2;
        c.bias = c.kind == dnnl_graph_op_conv_transpose && gen() % 2;
        c.pad_axis = static_cast<int>(gen() % 2);
        SCOPED_TRACE(c.str());
        check(c, gen, "flipped");
        if (::testing::Test::HasFailure()) return;
    }
}

TEST_F(CpuConvBwd, ConvTransposeBackwardDataRunsAsConvolution) {
    run_random(dnnl_graph_op_conv_transpose_backward_data, 15, 60);
}
TEST_F(CpuConvBwd, BackwardWeightsRandomGeometries) {
    run_random(dnnl_graph_op_convolution_backward_weights, 13, 120);
}
TEST_F(CpuConvBwd, ConvTransposeBackwardWeightsRandomGeometries) {
    run_random(dnnl_graph_op_conv_transpose_backward_weights, 14, 120);
}

// Layers of ResNet-50 shape (mb 2): 3x3 stride 1 and 2, 1x1 stride 2,
// channel-last and channel-first, large enough for several GEMM blocks,
// X bands and slices.
TEST_F(CpuConvBwd, NetworkLayers) {
    std::mt19937 gen(21);
    const op_kind_t kinds[] = {dnnl_graph_op_convolution_backward_data,
            dnnl_graph_op_convolution_backward_weights};
    for (op_kind_t kind : kinds)
        for (int layer = 0; layer < 3; ++layer)
            for (bool nxc : {true, false}) {
                bwd_case_t c;
                c.kind = kind;
                c.nsp = 2;
                c.n = layer == 0 ? 1 : 2;
                c.xcg = layer == 2 ? 64 : 32;
                c.ycg = layer == 2 ? 128 : 48;
                const int64_t k = layer == 2 ? 1 : 3, s = layer == 0 ? 1 : 2;
                for (int i = 0; i < 2; ++i) {
                    c.x[i] = 28;
                    c.k[i] = k;
                    c.s[i] = s;
                    c.pb[i] = c.pe[i] = k / 2;
                }
                c.nxc = nxc;
                SCOPED_TRACE(c.str());
                check(c, gen);
            }
}

// Enough (image, pixel block) items that the weight gradient's reduction
// is cut into one slice per thread (when the host runs several).
TEST_F(CpuConvBwd, BackwardWeightsSlicedReduction) {
    std::mt19937 gen(31);
    for (bool xio : {false, true}) {
        bwd_case_t c;
        c.kind = dnnl_graph_op_convolution_backward_weights;
        c.n = 6;
        c.g = 2;
        c.xcg = 8;
        c.ycg = 16;
        c.x[0] = c.x[1] = 32;
        c.k[0] = c.k[1] = 3;
        c.pb[0] = c.pb[1] = c.pe[0] = c.pe[1] = 1;
        c.spatial_first = xio;
        SCOPED_TRACE(c.str());
        check(c, gen);
    }
}

// Depthwise groups: with unit strides the gradient of the data is a
// depthwise forward convolution (the flipped path); strided, or for the
// weights, they would be one-column GEMMs and stay on the reference.
TEST_F(CpuConvBwd, DepthwiseRunsFlippedOrStaysOnTheReference) {
    std::mt19937 gen(41);
    bwd_case_t c;
    c.kind = dnnl_graph_op_convolution_backward_data;
    c.n = 2;
    c.g = 24;
    c.x[0] = c.x[1] = 9;
    c.k[0] = c.k[1] = 3;
    c.pb[0] = c.pb[1] = c.pe[0] = c.pe[1] = 1;
    for (bool nxc : {true, false}) {
        c.nxc = nxc;
        SCOPED_TRACE(c.str());
        check(c, gen);
    }
    c.nxc = true;
    c.s[0] = 2;
    EXPECT_FALSE(cpu_backend().supports(plan_test::plan_of(build(c))));
    c.s[0] = 1;
    c.kind = dnnl_graph_op_convolution_backward_weights;
    EXPECT_FALSE(cpu_backend().supports(plan_test::plan_of(build(c))));
}

} // namespace
} // namespace cpu
} // namespace llga
