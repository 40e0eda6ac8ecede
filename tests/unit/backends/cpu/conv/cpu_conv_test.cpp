// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/conv/cpu_conv_test.cpp — the JIT Convolution kernels
// (1x1 GEMM, implicit GEMM, depthwise direct) through the public C++ API at
// every ISA level the host has, against a plain-loop convolution written
// here: randomized shapes with channel tails, kernels 1/3/5/7, strides,
// dilations, asymmetric pads, auto_pad, groups, depthwise, NXC/NCX,
// XIO/OIX, padded (odd) strides, bias, f32/bf16, constant weights
// (prepacked into the constant cache, which this suite enables, on the
// first run and served from it on the second), and that the JIT kernel was
// the one that ran (its name in the verbose exec line).
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cpu_conv_test_util.hpp"

namespace llga {
namespace cpu {
namespace conv_test {

TEST_F(CpuConv, F32RandomShapesAtEveryIsa) { run_random(false, 1234, 150); }

TEST_F(CpuConv, Bf16RandomShapesAtEveryIsa) { run_random(true, 777, 100); }

// The layers the kernels are built for: ResNet-style 1x1 (stride 1 and 2),
// 3x3, 7x7/2 stem and depthwise 3x3, both formats, with many output
// channel blocks and pixel blocks (N and M tails).
TEST_F(CpuConv, NetworkLayersAtEveryIsa) {
    const auto lv = levels();
    if (lv.empty()) GTEST_SKIP() << "no AVX2";
    std::vector<conv_case_t> cases;
    auto add = [&](int64_t ic, int64_t oc, int64_t hw, int64_t k, int64_t s,
                       int64_t pad, int64_t g, bool nxc, bool bf16) {
        conv_case_t c;
        c.g = g;
        c.icg = ic / g;
        c.ocg = oc / g;
        c.in[0] = c.in[1] = hw;
        c.k[0] = c.k[1] = k;
        c.s[0] = c.s[1] = s;
        c.pb[0] = c.pb[1] = c.pe[0] = c.pe[1] = pad;
        c.nxc = nxc;
        c.bias = true;
        c.constant = true;
        c.bf16 = bf16;
        cases.push_back(c);
    };
    for (bool bf16 : {false, true})
        for (bool nxc : {true, false}) {
            add(64, 520, 7, 1, 1, 0, 1, nxc, bf16);  // 2 channel blocks
            add(8, 520, 7, 3, 1, 1, 1, nxc, bf16);   // channel + row tails
            add(72, 40, 28, 1, 2, 0, 1, nxc, bf16);   // strided 1x1
            add(16, 24, 31, 3, 1, 1, 1, nxc, bf16);   // pixel tail
            add(3, 16, 23, 7, 2, 3, 1, nxc, bf16);    // stem
            add(40, 40, 15, 3, 2, 1, 40, nxc, bf16);  // depthwise
            add(24, 48, 10, 3, 1, 1, 4, nxc, bf16);   // grouped
        }
    run_cases_at_every_isa(cases, 99);
}

// The stacked-rows mode (2D, dense kernel columns wider than the stride,
// output rows of 24+ pixels; f32 on AVX2): stems with few channels,
// vertical dilation, stride in one direction only, asymmetric and large
// pads, a 1-row kernel (weights read in place), groups, NCX, channel
// blocks with a tail (one output row: the tasks split the channels), bias
// and constant or per-call weights. Above AVX2 the same cases run on the
// other kernels.
TEST_F(CpuConv, StackedRowsAtEveryIsa) {
    const auto lv = levels();
    if (lv.empty()) GTEST_SKIP() << "no AVX2";
    std::vector<conv_case_t> cases;
    auto add = [&](int64_t ic, int64_t oc, int64_t h, int64_t w, int64_t kh,
                       int64_t kw) {
        conv_case_t c;
        c.icg = ic;
        c.ocg = oc;
        c.in[0] = h;
        c.in[1] = w;
        c.k[0] = kh;
        c.k[1] = kw;
        cases.push_back(c);
        return &cases.back();
    };
    conv_case_t *c = add(3, 16, 20, 60, 7, 7); // stem, 3 channels
    c->s[0] = c->s[1] = 2;
    c->pb[0] = c->pb[1] = c->pe[0] = c->pe[1] = 3;
    c->bias = c->constant = true;
    c = add(5, 20, 6, 30, 3, 3); // 20-byte channel runs, tails
    c->pb[0] = c->pb[1] = c->pe[0] = c->pe[1] = 1;
    c->n = 2;
    c = add(8, 33, 9, 40, 5, 3); // vertical dilation, stride 2 down only
    c->d[0] = 2;
    c->s[0] = 2;
    c->pb[0] = 4;
    c->pe[0] = 1;
    c->pb[1] = 0;
    c->pe[1] = 2;
    c->nxc = false;
    c->xio = false;
    c->bias = true;
    c = add(16, 24, 4, 27, 1, 5); // one kernel row: weights in place
    c->pb[1] = 2;
    c->pe[1] = 2;
    c->constant = true;
    c = add(4, 100, 1, 40, 1, 3); // one output row: 2 channel blocks
    c->pe[1] = 5;                  // right pad past the last tap
    c->bias = true;
    c = add(6, 10, 8, 32, 3, 3); // groups
    c->g = 2;
    c->pb[0] = c->pb[1] = 1;
    c->pe[0] = c->pe[1] = 1;
    c->pad_strides = true;
    c->bias = c->constant = true;
    for (isa_t isa : lv) {
        isa_guard_t guard(isa);
        unsigned seed = 40;
        for (const conv_case_t &cc : cases) {
            const std::string k = run_case(cc, ++seed);
            expect_jit(cc, isa, k);
            if (isa == isa_t::avx2) {
                EXPECT_NE(k.find("stacked"), std::string::npos)
                        << cc.str() << " ran " << k;
            }
        }
    }
    print_counts();
}

// Strided 1x1 convolutions on NCX data without padding (ResNet's
// projection shortcuts in PyTorch's layout) gather the pixels they read
// into a dense [N][IC][pixels] copy and run the direct GEMM on it
// (`1x1s_ncx`): strides differing per dim, 1D and 3D, groups, padded
// (odd) src strides, a pads_end whose extra output still reads inside the
// input, bias, constant weights, bf16 (staged through f32 below
// avx512_core_bf16). A pads_end whose last tap reads padding, and a bias
// into a bf16 dst on the native bf16 kernels (which would round twice),
// take the implicit path.
TEST_F(CpuConv, StridedPointwiseNcxGathersItsPixels) {
    const auto lv = levels();
    if (lv.empty()) GTEST_SKIP() << "no AVX2";
    struct case_want_t {
        conv_case_t c;
        bool gather;
    };
    std::vector<case_want_t> cases;
    const auto add = [&](int nsp, int64_t n, int64_t g, int64_t icg,
                             int64_t ocg, std::vector<int64_t> in,
                             std::vector<int64_t> st, bool gather) {
        conv_case_t c;
        c.nsp = nsp;
        c.n = n;
        c.g = g;
        c.icg = icg;
        c.ocg = ocg;
        for (int i = 0; i < nsp; ++i) {
            c.in[i] = in[static_cast<size_t>(i)];
            c.s[i] = st[static_cast<size_t>(i)];
        }
        c.nxc = false;
        c.xio = false;
        cases.push_back({c, gather});
        return &cases.back().c;
    };
    add(2, 2, 1, 24, 40, {9, 11}, {2, 3}, true)->bias = true;
    add(3, 1, 1, 16, 20, {5, 6, 7}, {2, 1, 2}, true)->pad_strides = true;
    conv_case_t *c = add(1, 3, 2, 4, 16, {19}, {3}, true);
    c->bias = true;
    c->constant = true;
    c->xio = true;
    add(2, 1, 1, 8, 12, {7, 7}, {2, 2}, true)->pe[0] = 1; // out 4: row 6
    add(2, 1, 1, 8, 12, {8, 8}, {2, 2}, false)->pe[1] = 1; // out 5: col 8
    add(2, 2, 1, 32, 24, {10, 10}, {2, 2}, true)->bf16 = true;
    c = add(2, 2, 1, 32, 24, {10, 10}, {2, 2}, true);
    c->bf16 = c->bias = true;
    for (isa_t isa : lv) {
        isa_guard_t guard(isa);
        unsigned seed = 40;
        for (const case_want_t &cw : cases) {
            const std::string k = run_case(cw.c, ++seed);
            expect_jit(cw.c, isa, k);
            // bf16 runs staged on the f32 kernel below avx512_core_bf16.
            const bool bf16_dst = cw.c.bf16 && isa >= isa_t::avx512_core_bf16;
            EXPECT_EQ(k.find("1x1s_ncx") != std::string::npos,
                    cw.gather && !(bf16_dst && cw.c.bias))
                    << cw.c.str() << " @" << isa_name(isa) << " ran " << k;
        }
    }
    print_counts();
}

// A pixel block tail of 6 rows: the GEMM's few-row path would pack B
// differently from the full blocks although in as many bytes, so the conv
// GEMMs keep tails on the regular path and share the full blocks' packed
// weights (constant, from the cache; or per-call weights packed once for
// the execution's GEMM calls). Either way the tail must read weights
// packed in its own layout.
TEST_F(CpuConv, FewRowTailGemmPacksItsOwnWeights) {
    if (levels().empty()) GTEST_SKIP() << "no AVX2";
    std::vector<conv_case_t> cases;
    for (bool constant : {true, false}) {
        conv_case_t c;
        c.icg = 17;
        c.ocg = 64;
        c.in[0] = 9;
        c.in[1] = 15; // 10 x 15 = 150 pixels: 3 blocks of 48 and 6
        c.k[0] = 3;
        c.k[1] = 5;
        c.pb[0] = 2;
        c.pe[0] = 1;
        c.pb[1] = c.pe[1] = 2;
        c.bias = true;
        c.constant = constant;
        cases.push_back(c);
    }
    run_cases_at_every_isa(cases, 7);
}

// f32 under a graph fpmath mode that permits bf16: src and weights are
// rounded to bf16 first (fpmath_round.cpp), as the reference reads them.
// 1 + 2^-10 rounds to 1, so each of the 72 products is 0.25: 18 exactly
// (strict f32 math would give 18.0176).
TEST_F(CpuConv, NonStrictFpmathRoundsTheInputs) {
    if (levels().empty()) GTEST_SKIP() << "no AVX2";
    logical_tensor s(0, ldt::f32, ldims {1, 5, 5, 8}, logical_tensor::layout_type::strided);
    logical_tensor w(1, ldt::f32, ldims {3, 3, 8, 4}, logical_tensor::layout_type::strided);
    logical_tensor d(2, ldt::f32, ldims {1, 3, 3, 4}, logical_tensor::layout_type::strided);
    op conv(0, op::kind::Convolution, {s, w}, {d}, "conv");
    conv.set_attr<ldims>(op::attr::strides, {1, 1});
    conv.set_attr<ldims>(op::attr::dilations, {1, 1});
    conv.set_attr<ldims>(op::attr::pads_begin, {0, 0});
    conv.set_attr<ldims>(op::attr::pads_end, {0, 0});
    conv.set_attr<std::string>(op::attr::data_format, "NXC");
    graph gr(dnnl::engine::kind::cpu, dnnl::fpmath_mode::bf16);
    gr.add_op(conv);
    gr.finalize();
    auto parts = gr.get_partitions();
    ASSERT_EQ(parts.size(), 1u);
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    dnnl::stream strm(eng);
    compiled_partition cp = parts[0].compile({s, w}, {d}, eng);
    std::vector<float> sv(200, 1.f + 1.f / 1024), wv(288, 0.25f), dv(36, 0.f);
    tensor ts(s, eng, sv.data()), tw(w, eng, wv.data()), td(d, eng, dv.data());
    dnnl_set_verbose(1);
    ::testing::internal::CaptureStdout();
    cp.execute(strm, {ts, tw}, {td});
    strm.wait();
    const std::string out = ::testing::internal::GetCapturedStdout();
    dnnl_set_verbose(0);
    EXPECT_NE(out.find(",fpmath_bf16(conv_"), std::string::npos) << out;
    EXPECT_EQ(dv[0], 18.f);
    EXPECT_EQ(dv[35], 18.f);
}

} // namespace conv_test
} // namespace cpu
} // namespace llga
