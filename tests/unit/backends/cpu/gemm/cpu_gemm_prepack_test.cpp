// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/gemm/cpu_gemm_prepack_test.cpp — constant weights
// packed ahead of time (gemm_t::prepack_b) must give bit-identical results to
// packing inside every task, for every micro-kernel the host runs, on a shape
// with several N and K blocks and tails; and both must match a naive product
// computed here.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/isa.hpp"
#include "backends/cpu/kernels/gemm/gemm_driver.hpp"
#include "cpu_gemm_test_util.hpp"
#include "ir/dtype.hpp"

namespace llga {
namespace cpu {
namespace {

TEST(CpuGemmPrepack, PrepackedWeightsGiveIdenticalResults) {
    const int64_t M = 37, K = 600, N = 1100;
    std::vector<float> af(M * K), bf(K * N);
    for (int64_t i = 0; i < M * K; ++i)
        af[i] = static_cast<float>((i * 7 % 23) - 11) / 16.f;
    for (int64_t i = 0; i < K * N; ++i)
        bf[i] = static_cast<float>((i * 5 % 19) - 9) / 8.f;
    std::vector<uint16_t> ab(af.size()), bb(bf.size());
    for (size_t i = 0; i < af.size(); ++i)
        ab[i] = ir::f32_to_bf16(af[i]); // values are exact in bf16
    for (size_t i = 0; i < bf.size(); ++i)
        bb[i] = ir::f32_to_bf16(bf[i]);
    std::vector<double> want(M * N, 0.0);
    for (int64_t m = 0; m < M; ++m)
        for (int64_t k = 0; k < K; ++k)
            for (int64_t n = 0; n < N; ++n)
                want[m * N + n] += double(af[m * K + k]) * bf[k * N + n];

    int checked = 0;
    for (gemm::ukr_kind_t kind : {gemm::ukr_kind_t::f32_avx2,
                 gemm::ukr_kind_t::f32_avx512, gemm::ukr_kind_t::bf16_avx512,
                 gemm::ukr_kind_t::bf16_amx}) {
        if (!host_supports(gemm::ukr_isa(kind))) continue;
        const bool bf16 = kind == gemm::ukr_kind_t::bf16_avx512
                || kind == gemm::ukr_kind_t::bf16_amx;
        const gemm::gemm_desc_t d = gemm_test::dense_desc(kind, M, N, K);
        gemm::gemm_t g;
        ASSERT_EQ(g.init(d, 2), dnnl_success) << gemm::ukr_name(kind);
        ASSERT_TRUE(g.can_prepack_b());
        const void *a = bf16 ? static_cast<const void *>(ab.data()) : af.data();
        const void *b = bf16 ? static_cast<const void *>(bb.data()) : bf.data();
        std::vector<float> c1(M * N, -1.f), c2(M * N, -2.f);
        g.execute(a, b, nullptr, c1.data());
        std::vector<char> packed(g.packed_b_bytes());
        g.prepack_b(b, packed.data());
        g.execute(a, b, nullptr, c2.data(), packed.data());
        EXPECT_EQ(std::memcmp(c1.data(), c2.data(), c1.size() * sizeof(float)), 0)
                << gemm::ukr_name(kind) << " " << g.blocking_str();
        for (int64_t i = 0; i < M * N; ++i)
            ASSERT_NEAR(c2[i], want[i], 1e-3 * (1 + std::fabs(want[i])))
                    << gemm::ukr_name(kind) << " at " << i;
        std::printf("[ prepack  ] %s %s: identical\n", gemm::ukr_name(kind),
                g.blocking_str().c_str());
        ++checked;
    }
    EXPECT_GE(checked, 1);
}

} // namespace
} // namespace cpu
} // namespace llga
