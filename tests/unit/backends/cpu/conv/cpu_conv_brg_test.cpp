// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/conv/cpu_conv_brg_test.cpp — the direct batch-reduce
// Convolution kernels (conv_brg: AVX-512 f32 / bf16 register tiles, AMX
// tiles) through the public C++ API at every ISA level the host has,
// against the plain-loop convolution of cpu_conv_test_util.hpp.
#include <exception>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cpu_conv_test_util.hpp"

namespace llga {
namespace cpu {
namespace conv_test {

// The direct batch-reduce kernel (conv_brg): channel-last, groups 1. Its
// edges: zero-padded borders (asymmetric, SAME_UPPER, right overhang), OC
// tails of the channel block (1..100 channels), pixel-block tails and
// multi-row tiles of short rows, stride 2, dilation (KW taps not merged),
// padded (odd) strides, 1D, dense and strided 1x1, bf16 (odd IC declines).
TEST_F(CpuConv, DirectKernelEdgesAtEveryIsa) {
    const auto lv = levels();
    if (lv.empty()) GTEST_SKIP() << "no AVX2";
    std::mt19937 gen(4242);
    auto pick = [&](std::initializer_list<int64_t> l) {
        return *(l.begin() + gen() % l.size());
    };
    std::vector<conv_case_t> cases;
    // The last 30 are bf16 with IC a multiple of 32: the AMX flavour
    // (virtual pixels for stride 1, the dense copy of strided 1x1, rows).
    for (int i = 0; i < 90; ++i) {
        conv_case_t c;
        const bool amx = i >= 60;
        c.bf16 = amx || i % 3 == 2;
        c.nsp = i % 10 == 9 ? 1 : 2;
        c.n = pick({1, 2});
        c.icg = amx ? pick({32, 64, 96})
                : c.bf16 ? pick({2, 8, 16, 34}) : pick({1, 3, 8, 17, 32});
        c.ocg = pick({1, 7, 16, 17, 33, 64, 100});
        for (int k = 0; k < c.nsp; ++k) {
            c.k[k] = pick({1, 3, 3, 5});
            c.s[k] = pick({1, 1, 2});
            c.d[k] = pick({1, 1, 2});
            c.pb[k] = std::min<int64_t>(pick({0, 1, 2}), c.k[k] - 1);
            c.pe[k] = std::min<int64_t>(pick({0, 1, 2}), c.k[k] - 1);
            c.in[k] = pick({3, 5, 7, 9, 15, 16, 29, 31});
        }
        c.bias = gen() % 2 == 0;
        c.constant = gen() % 2 == 0;
        c.pad_strides = gen() % 4 == 0;
        c.same_upper = gen() % 8 == 0;
        bool ok = true;
        for (int k = 0; k < c.nsp; ++k)
            ok = ok && c.in[k] + c.pb[k] + c.pe[k] - (c.k[k] - 1) * c.d[k] >= 1;
        if (ok) cases.push_back(c);
    }
    // A 2D bf16 case: icg -> ocg channels, h x w input, k x k kernel with
    // stride st and symmetric padding pad.
    auto bf16_case = [](int64_t icg, int64_t ocg, int64_t h, int64_t w,
                             int64_t k, int64_t st, int64_t pad) {
        conv_case_t c;
        c.bf16 = true;
        c.icg = icg;
        c.ocg = ocg;
        c.in[0] = h;
        c.in[1] = w;
        c.k[0] = c.k[1] = k;
        c.s[0] = c.s[1] = st;
        c.pb[0] = c.pb[1] = c.pe[0] = c.pe[1] = pad;
        return c;
    };
    // bf16 with odd IC: not avx512_bf16's, AMX patch rows
    cases.push_back(bf16_case(3, 16, 9, 9, 3, 1, 0));
    // AMX bf16 dst, padded 3x3: a last OC block of two vectors with a
    // wide tail (61: 32 + 16 + 13 channels) and of one whole vector (48).
    for (int64_t oc : {61, 48}) {
        conv_case_t c = bf16_case(64, oc, 9, 11, 3, 1, 1);
        c.bias = oc == 61;
        cases.push_back(c);
    }
    // A 7x7 stride-2 stem with 3 channels (AMX: patch rows of 7 runs of
    // 21 values), and 1x1 layers with OC >= 128, dense and strided, which
    // AMX hands to the GEMM path.
    conv_case_t stem = bf16_case(3, 40, 17, 15, 7, 2, 3);
    stem.bias = true;
    cases.push_back(stem);
    for (int64_t st : {1, 2}) {
        conv_case_t c = bf16_case(64, 160, 7, 9, 1, st, 0);
        c.bias = st == 1;
        c.constant = true;
        cases.push_back(c);
    }
    for (isa_t isa : lv) {
        isa_guard_t g(isa);
        unsigned s = 4242;
        for (const conv_case_t &c : cases) {
            if (c.bf16 && isa < isa_t::avx512_core_bf16) continue;
            std::string k;
            try {
                k = run_case(c, ++s);
            } catch (const std::exception &e) {
                ADD_FAILURE() << c.str() << ": " << e.what();
            }
            if (k.empty()) continue;
            expect_jit(c, isa, k);
            // f32 from avx512_core up, bf16 (even IC) on avx512_core_bf16;
            // on AMX the direct kernel takes bf16 when K per tap run is a
            // multiple of 32 (expect_jit checks it is an AMX kernel).
            if (c.bf16 && isa == isa_t::avx512_core_amx) {
                const bool one_by_one = c.k[0] == 1 && (c.nsp == 1 || c.k[1] == 1);
                if (one_by_one && c.ocg >= 128) {
                    EXPECT_EQ(k.rfind("conv_gemm_", 0), 0u)
                            << c.str() << " ran " << k;
                } else if (c.icg % 32 == 0) {
                    EXPECT_EQ(k.rfind("conv_brg_", 0), 0u)
                            << c.str() << " ran " << k;
                }
                continue;
            }
            const bool want = c.bf16
                    ? isa == isa_t::avx512_core_bf16 && c.icg % 2 == 0
                    : isa >= isa_t::avx512_core;
            EXPECT_EQ(k.rfind("conv_brg_", 0) == 0, want)
                    << c.str() << " @" << isa_name(isa) << " ran " << k;
        }
    }
    print_counts();
}

} // namespace conv_test
} // namespace cpu
} // namespace llga
