// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/gemm/cpu_gemm_extent_test.cpp — gemm_t::execute with
// an extent (the leading columns and K values of a planned problem): every plan
// path (regular tiles, the few-row "wide" kernels, the one-row dot kernels
// against Bᵀ, the narrow-N path), B packed per call or ahead, K extents inside
// the first K block, on a block edge and inside a later one. A and B hold NaN
// past the extent, so reading there shows up in the result; the columns inside
// the extent must match a double-precision product over k < extent computed
// here.
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/isa.hpp"
#include "backends/cpu/kernels/gemm/gemm_driver.hpp"
#include "cpu_gemm_test_util.hpp"
#include "ir/dtype.hpp"

namespace llga {
namespace cpu {
namespace {

using gemm::ukr_kind_t;

struct extent_case_t {
    int64_t M, N, K;
    bool bt;      // B stored [N, K] (k contiguous)
    bool prepack; // B packed ahead (prepack_b)
};

void run_extent_case(ukr_kind_t kind, const extent_case_t &c, int64_t n_ext,
        int64_t k_ext) {
    const bool bf = gemm_test::reads_bf16(kind);
    const int64_t M = c.M, N = c.N, K = c.K;
    // What the GEMM promises not to read: k at or past the extent, which
    // the bf16 kinds round up to even.
    const int64_t k_read = k_ext == 0 ? K
            : bf                       ? std::min(K, (k_ext + 1) / 2 * 2)
                                       : k_ext;
    std::mt19937 gen(static_cast<unsigned>(M * 131 + n_ext * 7 + k_ext));
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    gemm_test::operands_t o = gemm_test::make_operands(bf,
            static_cast<size_t>(M * K), static_cast<size_t>(K * N), gen, u);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const uint16_t nan_bf = ir::f32_to_bf16(nan);
    for (int64_t m = 0; m < M; ++m)
        for (int64_t k = k_read; k < K; ++k) {
            o.af[m * K + k] = nan;
            o.ah[m * K + k] = nan_bf;
        }
    for (int64_t k = k_read; k < K; ++k)
        for (int64_t n = 0; n < N; ++n) {
            const size_t i = static_cast<size_t>(c.bt ? n * K + k : k * N + n);
            o.bfv[i] = nan;
            o.bh[i] = nan_bf;
        }
    gemm::gemm_desc_t d = gemm_test::dense_desc(kind, M, N, K);
    if (c.bt) {
        d.sbk = 1;
        d.sbn = K;
    }
    d.b_prepacked = c.prepack;
    gemm::gemm_t g;
    ASSERT_EQ(g.init(d, 2), dnnl_success) << gemm::ukr_name(kind);
    std::vector<char> packed;
    if (c.prepack) {
        ASSERT_TRUE(g.can_prepack_b() || M == 1) << g.blocking_str();
        if (!g.can_prepack_b()) return; // one row on AMD keeps B in place
        // A packed block holds all its K rows, the NaN ones past the
        // extent included; they must not be read.
        packed.resize(g.packed_b_bytes());
        g.prepack_b(o.b(), packed.data());
    }
    std::vector<float> cf(static_cast<size_t>(M * N), -7.f);
    gemm::extent_t e;
    e.n = n_ext;
    e.k = k_ext;
    g.execute(o.a(), o.b(), nullptr, cf.data(),
            c.prepack ? packed.data() : nullptr, nullptr, e);
    const int64_t n_end = n_ext > 0 ? n_ext : N;
    int bad = 0;
    for (int64_t m = 0; m < M; ++m)
        for (int64_t n = 0; n < n_end; ++n) {
            double w = 0, mag = 1;
            for (int64_t k = 0; k < k_read; ++k) {
                const double p = double(o.af[m * K + k])
                        * o.bfv[c.bt ? n * K + k : k * N + n];
                w += p;
                mag += std::fabs(p);
            }
            const double got = cf[m * N + n];
            if (!(std::fabs(got - w) <= 1e-5 * mag) && bad++ < 3)
                ADD_FAILURE() << gemm::ukr_name(kind) << " M=" << M
                              << " N=" << N << " K=" << K << " bt=" << c.bt
                              << " prepack=" << c.prepack << " extent n="
                              << n_ext << " k=" << k_ext << " (" << m << ","
                              << n << ") got " << got << " want " << w << " "
                              << g.blocking_str();
        }
}

TEST(CpuGemmExtent, LeadingColumnsAndKValuesOnEveryPath) {
    const extent_case_t cases[] = {
            {37, 300, 600, false, false}, // regular tiles, B packed per call
            {37, 300, 600, false, true},  // regular tiles, B packed ahead
            {50, 300, 600, true, false},  // Bᵀ packed per call
            {13, 300, 600, false, false}, // wide, B read in place
            {13, 300, 600, false, true},  // wide, B packed ahead
            {5, 300, 600, true, false},   // wide, Bᵀ packed per call
            {1, 300, 600, true, false},   // one row against Bᵀ: dot kernels
            {1, 300, 600, false, true},   // one row, B packed ahead
    };
    // (n, k): all, columns only, K inside the first block, on a K-block
    // edge (256 for f32) and inside a later one; odd values for the bf16
    // rounding.
    const int64_t extents[][2] = {
            {0, 0}, {17, 0}, {0, 77}, {45, 256}, {290, 301}, {1, 1}};
    int runs = 0;
    for (ukr_kind_t kind : {ukr_kind_t::f32_avx2, ukr_kind_t::f32_avx512,
                 ukr_kind_t::bf16_avx512}) {
        if (!host_supports(gemm::ukr_isa(kind))) continue;
        for (const extent_case_t &c : cases)
            for (const auto &e : extents) {
                run_extent_case(kind, c, e[0], e[1]);
                ++runs;
            }
    }
    EXPECT_GT(runs, 0);
}

// The narrow path (at most 4 columns): B gathered, read in place (Bᵀ) or
// packed ahead.
TEST(CpuGemmExtent, NarrowColumnsTakeExtents) {
    const extent_case_t cases[] = {
            {37, 3, 600, false, false},
            {37, 3, 600, true, false},
            {37, 3, 600, false, true},
    };
    const int64_t extents[][2] = {{0, 0}, {2, 0}, {0, 77}, {1, 256}, {3, 301}};
    for (ukr_kind_t kind : {ukr_kind_t::f32_avx2, ukr_kind_t::f32_avx512,
                 ukr_kind_t::bf16_avx512}) {
        if (!host_supports(gemm::ukr_isa(kind))) continue;
        for (const extent_case_t &c : cases)
            for (const auto &e : extents)
                run_extent_case(kind, c, e[0], e[1]);
    }
}

// AMX takes a column extent only (its K blocks are whole 32-k chunks).
TEST(CpuGemmExtent, AmxTakesLeadingColumns) {
    if (!host_supports(gemm::ukr_isa(ukr_kind_t::bf16_amx)))
        GTEST_SKIP() << "no AMX on this host";
    for (bool prepack : {false, true})
        for (int64_t n : {int64_t(0), int64_t(33), int64_t(250)})
            run_extent_case(ukr_kind_t::bf16_amx, {64, 300, 600, false, prepack},
                    n, 0);
}

} // namespace
} // namespace cpu
} // namespace llga
