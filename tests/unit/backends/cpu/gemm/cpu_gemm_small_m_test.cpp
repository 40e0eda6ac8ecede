// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/gemm/cpu_gemm_small_m_test.cpp — the small-M ("wide")
// GEMM path: every M up to the wide limit on every micro-kernel flavour the
// host runs (each at its own max ISA; on AMX, rows from k_amx_min_m on take
// the 16-row AMX kernel instead unless B is packed per call and readable
// in place), random N and K with tails, padded
// strides, B read in place, transposed (packed per task) and prepacked,
// with bias and an f32 or bf16 destination, against a double-precision
// loop (cpu_gemm_test_util.hpp). Tolerance: 1e-5 * (sum |a*b| + 1) for f32 dst, plus
// 2^-8 relative for bf16 dst. Also which one-row GEMMs keep constant
// weights in place.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "backends/cpu/kernels/gemm/gemm_driver_impl_p.hpp"
#include "cpu_gemm_test_util.hpp"

namespace llga {
namespace cpu {
namespace {

using namespace gemm;
using namespace gemm_test;

TEST(CpuGemmSmallM, EveryRowCountLayoutAndIsa) {
    std::mt19937 gen(23);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    std::uniform_int_distribution<int> un(1, 300), uk(1, 200), upad(0, 3);
    int runs = 0;
    for (ukr_kind_t kind : {ukr_kind_t::f32_avx2, ukr_kind_t::f32_avx512,
                 ukr_kind_t::bf16_avx512, ukr_kind_t::bf16_amx}) {
        if (!host_supports(ukr_isa(kind))) continue;
        isa_guard_t guard(ukr_isa(kind));
        const bool amx = kind == ukr_kind_t::bf16_amx;
        const bool bf = kind == ukr_kind_t::bf16_avx512 || amx;
        static const char *const names[] = {"0", "1", "2"};
        for (int64_t M : {1, 2, 3, 4, 5, 7, 8, 9, 13, 16})
            for (int layout = 0; layout < 3; ++layout) { // 0 in place, 1 B^T, 2 prepacked
                plain_case_t c;
                c.kind = kind;
                c.M = M;
                c.N = un(gen);
                c.K = layout == 0 ? 3 * uk(gen) : uk(gen);
                c.dst_bf16 = bf && (M % 2 == 1);
                c.lda = c.K + upad(gen);
                c.ldd = c.N + upad(gen);
                c.bt = layout == 1;
                c.ldb = (c.bt ? c.K : c.N) + upad(gen);
                c.prepack = layout == 2;
                // As the MatMul kernel: weights that are prepacked say so.
                c.b_prepacked = c.prepack;
                c.nthr = 2;
                c.layout = names[layout];
                // On AMX, from k_amx_min_m rows on the 16-row AMX kernel
                // runs, except with B packed per call and readable in
                // place (layout 0), where the wide kernels keep it.
                const bool wide = !amx || M < detail::k_amx_min_m
                        || (!c.b_prepacked && !c.bt);
                run_plain_case(c, wide, gen, u);
                ++runs;
            }
    }
    std::printf("[ small-M  ] %d runs\n", runs);
}

// A few rows against B^T run as dot products with K in chunks (512 f32 per
// row by default): K of several chunks with a vector tail in the last,
// rows past the 6-row epilogue kernels, at every flavour the host runs.
TEST(CpuGemmSmallM, FewRowsAgainstBtInKChunks) {
    std::mt19937 gen(31);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    int runs = 0;
    for (ukr_kind_t kind : host_kinds()) {
        if (kind == ukr_kind_t::bf16_amx) continue;
        isa_guard_t guard(ukr_isa(kind));
        for (int64_t M : {2, 5, 8})
            for (int64_t K : {513, 1031, 2055}) {
                plain_case_t c;
                c.kind = kind;
                c.M = M;
                c.N = 37;
                c.K = K;
                c.lda = K + 1;
                c.ldd = c.N + 2;
                c.bt = true;
                c.ldb = K + 3;
                c.b_prepacked = false;
                c.nthr = 2;
                c.layout = "B^T";
                run_plain_case(c, true, gen, u);
                ++runs;
            }
    }
    std::printf("[ dot rows ] %d runs\n", runs);
}

// B^T packed on every call past the dot products and up to
// k_wide_strips_max_m rows (AVX2 f32) goes through the wide kernels strip
// by strip, each strip over all K blocks (gemm_t::run_task_wide_strips):
// rows around the few-row limit and the strips limit, K over several
// blocks with a tail, strip tails, bias, 1 and 2 threads. Past the limit,
// with the weights marked constant, or with the few-row paths off, the
// regular path packs B.
TEST(CpuGemmSmallM, BtPackedPerCallStripByStrip) {
    if (!host_supports(isa_t::avx2)) GTEST_SKIP();
    isa_guard_t guard(isa_t::avx2);
    std::mt19937 gen(41);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    std::uniform_int_distribution<int> un(1, 300), upad(0, 3);
    int runs = 0;
    for (int64_t M : {9, 16, 17, 40, 64, 65})
        for (int nthr : {1, 2}) {
            plain_case_t c;
            c.M = M;
            c.N = un(gen);
            c.K = 2 * 256 + 37;
            c.lda = c.K + upad(gen);
            c.ldd = c.N + upad(gen);
            c.bt = true;
            c.ldb = c.K + upad(gen);
            c.b_prepacked = false;
            c.nthr = nthr;
            c.layout = "B^T";
            run_plain_case(c, M <= detail::k_wide_strips_max_m, gen, u);
            {
                gemm_desc_t d = dense_desc(c.kind, M, c.N, c.K);
                d.sbk = 1;
                d.sbn = c.K;
                d.b_prepacked = false;
                gemm_t g;
                ASSERT_EQ(g.init(d, nthr), dnnl_success);
                // Past 8 rows (the dot products' limit) strip by strip.
                EXPECT_EQ(g.blocking_str().find(" strips") != std::string::npos,
                        M <= detail::k_wide_strips_max_m)
                        << g.blocking_str();
            }
            c.b_prepacked = true; // constant weights: packed once instead
            run_plain_case(c, M <= detail::k_wide_max_m, gen, u);
            runs += 2;
        }
    std::printf("[ bt strips] %d runs\n", runs);
}

// Constant weights of a one-row GEMM stay in place on AMD hosts (the
// in-place walk streams faster there, wide_stream_t::m1_in_place) and are
// prepacked elsewhere; two rows, or B^T, are prepacked everywhere.
TEST(CpuGemmSmallM, OneRowConstantWeightsStayInPlaceOnAmd) {
    if (!host_supports(isa_t::avx2)) GTEST_SKIP();
    if (std::getenv("LLGA_GEMM_M1_IN_PLACE")) GTEST_SKIP() << "policy overridden";
    isa_guard_t guard(isa_t::avx2);
    for (int64_t M : {1, 2})
        for (bool bt : {false, true}) {
            gemm_desc_t d;
            d.kind = ukr_kind_t::f32_avx2;
            d.M = M;
            d.N = d.K = 256;
            d.sam = d.K;
            d.sak = 1;
            d.sbk = bt ? 1 : d.N;
            d.sbn = bt ? d.K : 1;
            d.sdm = d.N;
            d.b_prepacked = true;
            gemm_t g;
            ASSERT_EQ(g.init(d, 2), dnnl_success);
            const bool stays = M == 1 && !bt && host_features().amd;
            EXPECT_EQ(g.can_prepack_b(), !stays)
                    << "M " << M << (bt ? " B^T " : " ") << g.blocking_str();
        }
}

// B read in place whose last row ends right before an unreadable page: the
// partial last vector of a row must not be loaded whole (it once was, 28
// bytes past B on AVX2). N = 20 leaves 4 columns in the last vector.
TEST(CpuGemmSmallM, InPlaceTailStripStaysInsideB) {
    for (ukr_kind_t kind : {ukr_kind_t::f32_avx2, ukr_kind_t::f32_avx512}) {
        if (!host_supports(ukr_isa(kind))) continue;
        isa_guard_t guard(ukr_isa(kind));
        for (int64_t M : {1, 3, 16}) {
            const int64_t N = 20, K = 37;
            const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
            const size_t bytes = static_cast<size_t>(K * N) * 4;
            const size_t span = (bytes + page - 1) / page * page;
            char *base = static_cast<char *>(mmap(nullptr, span + page,
                    PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
            ASSERT_NE(base, MAP_FAILED);
            ASSERT_EQ(mprotect(base + span, page, PROT_NONE), 0);
            float *b = reinterpret_cast<float *>(base + span - bytes);
            std::vector<float> a(static_cast<size_t>(M * K)), dst(
                    static_cast<size_t>(M * N));
            for (int64_t i = 0; i < K * N; ++i)
                b[i] = static_cast<float>(i % 7) - 3.f;
            for (size_t i = 0; i < a.size(); ++i)
                a[i] = static_cast<float>(i % 5) - 2.f;
            gemm_desc_t d = dense_desc(kind, M, N, K);
            d.b_prepacked = false;
            gemm_t g;
            ASSERT_EQ(g.init(d, 1), dnnl_success);
            g.execute(a.data(), b, nullptr, dst.data());
            for (int64_t i = 0; i < M; ++i)
                for (int64_t j = 0; j < N; ++j) {
                    double want = 0;
                    for (int64_t k = 0; k < K; ++k)
                        want += double(a[size_t(i * K + k)]) * b[k * N + j];
                    EXPECT_EQ(dst[size_t(i * N + j)], static_cast<float>(want))
                            << "M " << M << " (" << i << ", " << j << ")";
                }
            munmap(base, span + page);
        }
    }
}

} // namespace
} // namespace cpu
} // namespace llga
