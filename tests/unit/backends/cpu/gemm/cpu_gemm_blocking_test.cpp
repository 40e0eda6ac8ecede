// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/gemm/cpu_gemm_blocking_test.cpp — the packed
// (non-wide) GEMM paths across their cache blocks: every micro-kernel flavour
// the host runs (each at its own max ISA, AMX included), random shapes with
// several K blocks (f32 KC 256, bf16 512, AMX 1024) plus tails, M tails of the
// register tile and of the 4-row packing groups, N tails of the strips, padded
// (odd) strides, A transposed (generic packing), B row-major, transposed or
// prepacked (the next-block prefetch walks each of them), bias, f32 or bf16
// destination, 1 and 2 threads (different task splits); against a
// double-precision loop (cpu_gemm_test_util.hpp). Tolerance: 1e-5 * (sum |a*b|
// + 1), plus 2^-8 relative for a bf16 destination. Also the re-cut of short
// last row panels (row_panels_t), by hand.
#include <cstdio>
#include <random>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/kernels/gemm/gemm_blocking_p.hpp"
#include "cpu_gemm_test_util.hpp"

namespace llga {
namespace cpu {
namespace {

using namespace gemm;
using namespace gemm_test;

struct shape_t {
    int64_t M, N, K;
};

TEST(CpuGemmBlocking, KBlocksAndTailsAtEveryIsa) {
    std::mt19937 gen(41);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    std::uniform_int_distribution<int> upad(0, 5), utail(1, 31);
    int runs = 0;
    for (ukr_kind_t kind : {ukr_kind_t::f32_avx2, ukr_kind_t::f32_avx512,
                 ukr_kind_t::bf16_avx512, ukr_kind_t::bf16_amx}) {
        if (!host_supports(ukr_isa(kind))) continue;
        isa_guard_t guard(ukr_isa(kind));
        const bool bf = reads_bf16(kind);
        const int64_t kc = kind == ukr_kind_t::bf16_amx ? 1024
                : bf                                    ? 512
                                                        : 256;
        // Rows past the wide limit (16); K over 2-3 blocks with a tail.
        const shape_t shapes[] = {
                {17 + utail(gen), 33 + utail(gen), 2 * kc + utail(gen)},
                {64 + utail(gen) % 4, 64, kc + 32},
                {35, 96 + utail(gen), 3 * kc - 1},
                {100 + utail(gen), 40 + utail(gen), kc / 2 + utail(gen)},
        };
        static const char *const names[] = {"0", "1", "2", "3"};
        for (const shape_t &s : shapes)
            for (int layout = 0; layout < 4; ++layout) {
                // 0 row-major, 1 B^T, 2 prepacked B, 3 A^T
                plain_case_t c;
                c.kind = kind;
                c.M = s.M;
                c.N = s.N;
                c.K = s.K;
                c.bt = layout == 1;
                c.at = layout == 3;
                c.prepack = layout == 2;
                c.dst_bf16 = bf && layout == 2;
                c.nthr = 1 + (layout % 2);
                c.lda = (c.at ? c.M : c.K) + upad(gen);
                c.ldb = (c.bt ? c.K : c.N) + upad(gen);
                c.ldd = c.N + upad(gen);
                c.layout = names[layout];
                run_plain_case(c, false, gen, u);
                ++runs;
            }
        std::printf("[ blocking ] %s: %d runs so far\n", ukr_name(kind), runs);
    }
    EXPECT_GE(runs, 1);
}

// Row panels of an M block: mr-row panels, a short last panel (fewer
// than min_rows) re-cut with the one before into two near halves. The
// expected starts and heights are written out by hand.
TEST(CpuGemmBlocking, RowPanelsRecutShortTail) {
    struct expect_t {
        int64_t mc, mr, min_rows;
        std::vector<std::pair<int64_t, int>> panels; // (start, rows)
    };
    const expect_t cases[] = {
            {12, 6, 4, {{0, 6}, {6, 6}}},          // whole panels
            {10, 6, 4, {{0, 6}, {6, 4}}},          // tail of 4 stays
            {8, 6, 4, {{0, 4}, {4, 4}}},           // 6 + 2 -> 4 + 4
            {7, 6, 4, {{0, 4}, {4, 3}}},           // 6 + 1 -> 4 + 3
            {15, 6, 4, {{0, 6}, {6, 5}, {11, 4}}}, // 6 + 3 -> 5 + 4
            {2, 6, 4, {{0, 2}}},                   // one short panel
            {27, 12, 4, {{0, 12}, {12, 8}, {20, 7}}},
            {8, 6, 0, {{0, 6}, {6, 2}}}, // no minimum: plain cut
    };
    for (const expect_t &e : cases) {
        const row_panels_t p(e.mc, e.mr, e.min_rows);
        ASSERT_EQ(p.count(), static_cast<int64_t>(e.panels.size())) << e.mc;
        for (size_t i = 0; i < e.panels.size(); ++i) {
            EXPECT_EQ(p.start(i), e.panels[i].first) << e.mc << " panel " << i;
            EXPECT_EQ(p.rows(i), e.panels[i].second) << e.mc << " panel " << i;
        }
    }
}

} // namespace
} // namespace cpu
} // namespace llga
