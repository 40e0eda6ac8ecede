// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/gemm/cpu_gemm_narrow_test.cpp — the narrow-N GEMM
// path (gemm_narrow.cpp, at most 4 columns): on every micro-kernel flavour the
// host runs (each at its own max ISA, AMX hosts through AVX512-BF16), rows past
// the few-row limit with tails of the 8-row dot groups and of the epilogue's
// tile rows, K with vector tails, padded strides, B row-major (columns
// gathered), transposed (read in place) and prepacked, with bias, an f32 or
// bf16 destination and 1 or 2 threads, against a double-precision loop
// (cpu_gemm_test_util.hpp). Tolerance: 1e-5 * (sum |a*b| + 1), plus 2^-8
// relative for a bf16 destination. Also the plan choice at the column limit,
// and the regular path's last strip of one column (dot products instead of a
// masked tile).
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cpu_gemm_test_util.hpp"

namespace llga {
namespace cpu {
namespace {

using namespace gemm;
using namespace gemm_test;

// One case: B row-major (layout 0), transposed (1) or prepacked (2);
// padded strides; a bf16 destination on odd M where the flavour has one.
plain_case_t make_case(ukr_kind_t kind, int64_t M, int64_t N, int64_t K,
        int layout, int nthr, std::mt19937 &gen) {
    static const char *const names[] = {"row-major", "B^T", "prepacked"};
    std::uniform_int_distribution<int> upad(0, 3);
    plain_case_t c;
    c.kind = kind;
    c.M = M;
    c.N = N;
    c.K = K;
    c.dst_bf16 = reads_bf16(kind) && M % 2 == 1;
    c.lda = K + upad(gen);
    c.ldd = N + upad(gen);
    c.bt = layout == 1;
    c.ldb = (c.bt ? K : N) + upad(gen);
    c.prepack = layout == 2;
    c.b_prepacked = c.prepack;
    c.nthr = nthr;
    c.layout = names[layout];
    return c;
}

TEST(CpuGemmNarrow, EveryColumnCountLayoutAndIsa) {
    std::mt19937 gen(29);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    int runs = 0;
    for (ukr_kind_t kind : host_kinds()) {
        isa_guard_t guard(ukr_isa(kind));
        for (int64_t N = 1; N <= 4; ++N)
            for (int64_t M : {17, 29, 67})
                for (int layout = 0; layout < 3; ++layout) {
                    // K: below one vector, vector tails, several hundred.
                    static const int64_t ks[] = {3, 37, 300};
                    const plain_case_t c = make_case(kind, M, N,
                            ks[(N + M + layout) % 3], layout,
                            1 + static_cast<int>(M % 2), gen);
                    run_plain_case(c, false, gen, u);
                    ++runs;
                    gemm_desc_t d = dense_desc(kind, M, N, c.K);
                    gemm_t g;
                    ASSERT_EQ(g.init(d, 2), dnnl_success);
                    EXPECT_NE(g.blocking_str().find(" narrow"),
                            std::string::npos)
                            << g.blocking_str();
                }
    }
    std::printf("[ narrow   ] %d runs\n", runs);
    EXPECT_GT(runs, 0);
}

// The regular path's last strip of a single column (N = 49 on AVX2) goes
// through dot products summed over the K blocks: whole strips before it,
// row panels with tails, 1-3 K blocks with a tail, every B layout.
TEST(CpuGemmNarrow, LastStripOfOneColumn) {
    std::mt19937 gen(31);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    int runs = 0;
    for (ukr_kind_t kind : host_kinds()) {
        if (kind == ukr_kind_t::bf16_amx) continue; // its own strips
        isa_guard_t guard(ukr_isa(kind));
        const bool bf = reads_bf16(kind);
        const int64_t nr = ukr_shape(kind).nr, kc = bf ? 512 : 256;
        for (int64_t N : {nr + 1, 3 * nr + 1})
            for (int64_t M : {17, 40})
                for (int layout = 0; layout < 3; ++layout) {
                    plain_case_t c = make_case(kind, M, N,
                            layout == 0 ? kc / 2 + 5 : 2 * kc + 37, layout,
                            1 + layout % 2, gen);
                    // B^T packed per call would go strip by strip (the
                    // wide path) up to k_wide_strips_max_m rows on AVX2;
                    // marked constant, it stays on the regular path.
                    c.b_prepacked = true;
                    run_plain_case(c, false, gen, u);
                    ++runs;
                }
    }
    std::printf("[ narrow   ] last strip: %d runs\n", runs);
    EXPECT_GT(runs, 0);
}

// Batches on the narrow path: each of 3 batches its own A, B and dst
// (B's batch stride 0: one B for all), with row blocks per batch on 2
// threads, against a double loop.
TEST(CpuGemmNarrow, BatchesWithOwnOrSharedB) {
    std::mt19937 gen(37);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    const int64_t NB = 3, M = 45, N = 3, K = 70;
    for (ukr_kind_t kind : host_kinds()) {
        if (reads_bf16(kind)) continue; // f32 operands here
        isa_guard_t guard(ukr_isa(kind));
        for (bool shared_b : {false, true}) {
            std::vector<float> a(NB * M * K), b((shared_b ? 1 : NB) * K * N),
                    c(NB * M * N, -7.f);
            for (float &v : a) v = u(gen);
            for (float &v : b) v = u(gen);
            gemm_desc_t d = dense_desc(kind, M, N, K);
            d.batch = {NB};
            d.a_bs = {M * K};
            d.b_bs = {shared_b ? 0 : K * N};
            d.d_bs = {M * N};
            gemm_t g;
            ASSERT_EQ(g.init(d, 2), dnnl_success);
            ASSERT_NE(g.blocking_str().find(" narrow"), std::string::npos)
                    << g.blocking_str();
            g.execute(a.data(), b.data(), nullptr, c.data());
            int bad = 0;
            for (int64_t t = 0; t < NB; ++t)
                for (int64_t m = 0; m < M; ++m)
                    for (int64_t n = 0; n < N; ++n) {
                        double w = 0, mag = 1;
                        for (int64_t k = 0; k < K; ++k) {
                            const double p = double(a[(t * M + m) * K + k])
                                    * b[(shared_b ? 0 : t * K * N) + k * N + n];
                            w += p;
                            mag += std::fabs(p);
                        }
                        const double got = c[(t * M + m) * N + n];
                        if (!(std::fabs(got - w) <= 1e-5 * mag) && bad++ < 3)
                            ADD_FAILURE() << ukr_name(kind) << " batch " << t
                                          << " (" << m << "," << n << ") got "
                                          << got << " want " << w
                                          << (shared_b ? " shared B" : "");
                    }
        }
    }
}

// Five columns and transposed A stay on the tile kernels; few rows stay
// on the wide ones.
TEST(CpuGemmNarrow, TakesOnlyNarrowRowMajorA) {
    for (ukr_kind_t kind : host_kinds()) {
        isa_guard_t guard(ukr_isa(kind));
        auto plan = [&](int64_t M, int64_t N, bool at) {
            gemm_desc_t d = dense_desc(kind, M, N, 64);
            if (at) {
                d.sam = 1;
                d.sak = M;
            }
            gemm_t g;
            EXPECT_EQ(g.init(d, 1), dnnl_success);
            return g.blocking_str();
        };
        EXPECT_NE(plan(40, 4, false).find(" narrow"), std::string::npos);
        EXPECT_EQ(plan(40, 5, false).find(" narrow"), std::string::npos);
        EXPECT_EQ(plan(40, 2, true).find(" narrow"), std::string::npos);
        EXPECT_EQ(plan(8, 2, false).find(" narrow"), std::string::npos);
    }
}

} // namespace
} // namespace cpu
} // namespace llga
