// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/gemm/cpu_gemm_b16_test.cpp — f32 GEMMs whose B is
// stored as bf16 or f16 (gemm_desc_t::b16) on AVX2. The few-row path widens B
// in registers as it reads it in place: every M up to the wide limit, random N
// (strip tails) and K (several in-place K blocks), padded strides, bias,
// batches with their own B, 1 and 2 threads, B ending at a guard page; one row
// against B^T rows (the dot kernels, both orders, every k tail) and a few rows
// against B^T (blocks widened and packed). The regular path widens B as it
// packs it (pack_b_16), per call or once ahead (prepack_b): rows, B^T and B
// with neither direction contiguous, tails of M, N and K blocks. All against a
// double-precision loop over the widened values, tolerance 1e-5 * (sum |a*b| +
// 1). Also what init() declines.
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "cpu_gemm_test_util.hpp"

namespace llga {
namespace cpu {
namespace {

using namespace gemm;
using namespace gemm_test;

uint16_t to_b16(b16_t t, float v) {
    return t == b16_t::bf16 ? ir::f32_to_bf16(v) : ir::f32_to_f16(v);
}
float from_b16(b16_t t, uint16_t h) {
    return t == b16_t::bf16 ? ir::bf16_to_f32(h) : ir::f16_to_f32(h);
}

// How B is stored: rows (n contiguous), B^T rows (k contiguous), or
// every other element of B^T rows (neither direction contiguous).
enum class blay_t { rows, bt, strided };

// Which plan runs: the few-row paths where M allows, the regular path
// (few_row_paths off), or the regular path with B prepacked ahead.
enum class plan_t { any, regular, prepacked };

// Runs one case; returns the number of bad elements (at most 3 reported).
int run_case(b16_t t, int64_t M, int64_t N, int64_t K, int64_t batch,
        int nthr, std::mt19937 &gen, blay_t lay = blay_t::rows,
        plan_t plan = plan_t::any) {
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    std::uniform_int_distribution<int> upad(0, 3);
    const bool bt = lay != blay_t::rows;
    const int64_t kstep = lay == blay_t::strided ? 2 : 1;
    const int64_t lda = K + upad(gen), ldd = N + upad(gen);
    const int64_t ldb = (bt ? K * kstep : N) + upad(gen);
    const int64_t a_bs = M * lda, b_bs = (bt ? N : K) * ldb, d_bs = M * ldd;
    // Element (k, n) of B.
    auto b_at = [&](int64_t k, int64_t n) {
        return bt ? n * ldb + k * kstep : k * ldb + n;
    };
    std::vector<float> a(static_cast<size_t>(batch * a_bs));
    for (float &v : a) v = u(gen);
    // B's last element is the last one before the guard page.
    const size_t b_elems = static_cast<size_t>((batch - 1) * b_bs
            + b_at(K - 1, N - 1) + 1);
    guarded_floats_t b(b_elems, 2);
    if (!b.ok()) {
        ADD_FAILURE() << "guard page";
        return 1;
    }
    for (size_t i = 0; i < b_elems; ++i)
        b.words()[i] = to_b16(t, u(gen));
    std::vector<float> bias(static_cast<size_t>(N));
    for (float &v : bias) v = u(gen);
    gemm_desc_t d = dense_desc(ukr_kind_t::f32_avx2, M, N, K);
    d.b16 = t;
    d.has_bias = true;
    d.sam = lda;
    d.sbk = bt ? kstep : ldb;
    d.sbn = bt ? ldb : 1;
    d.sdm = ldd;
    d.b_prepacked = plan == plan_t::prepacked;
    d.few_row_paths = plan == plan_t::any;
    if (batch > 1) {
        d.batch = {batch};
        d.a_bs = {a_bs};
        d.b_bs = {b_bs};
        d.d_bs = {d_bs};
    }
    gemm_t g;
    EXPECT_EQ(g.init(d, nthr), dnnl_success);
    // 16-bit B is prepacked on the regular path only (the few-row and
    // strip-outer paths off), and then only one B for every batch.
    const bool regular = g.blocking_str().find("wide") == std::string::npos;
    if (plan != plan_t::any) {
        EXPECT_TRUE(regular) << g.blocking_str();
    }
    EXPECT_EQ(g.can_prepack_b(), regular && batch == 1) << g.blocking_str();
    std::vector<char> packed;
    if (plan == plan_t::prepacked) {
        packed.assign(g.packed_b_bytes(), 0);
        g.prepack_b(b.words(), packed.data());
    }
    std::vector<float> bp(static_cast<size_t>(g.bias_cols()), 0.f);
    std::copy(bias.begin(), bias.end(), bp.begin());
    std::vector<float> c(static_cast<size_t>(batch * d_bs), -7.f);
    g.execute(a.data(), b.words(), bp.data(), c.data(),
            packed.empty() ? nullptr : packed.data());
    int bad = 0;
    for (int64_t bi = 0; bi < batch; ++bi)
        for (int64_t m = 0; m < M; ++m)
            for (int64_t n = 0; n < ldd; ++n) {
                const float got = c[static_cast<size_t>(bi * d_bs + m * ldd + n)];
                if (n >= N) { // row padding stays untouched
                    if (got != -7.f && bad++ < 3)
                        ADD_FAILURE() << "padding written at " << n;
                    continue;
                }
                double w = bias[static_cast<size_t>(n)], mag = 1;
                for (int64_t k = 0; k < K; ++k) {
                    const double p = double(a[static_cast<size_t>(bi * a_bs + m * lda + k)])
                            * from_b16(t, b.words()[bi * b_bs + b_at(k, n)]);
                    w += p;
                    mag += std::fabs(p);
                }
                if (!(std::fabs(got - w) <= 1e-5 * mag) && bad++ < 3)
                    ADD_FAILURE() << (t == b16_t::bf16 ? "bf16" : "f16")
                                  << " M=" << M << " N=" << N << " K=" << K
                                  << " batch=" << batch
                                  << " layout=" << static_cast<int>(lay)
                                  << " plan=" << static_cast<int>(plan)
                                  << " (" << m << ","
                                  << n << ") got " << got << " want " << w
                                  << " " << g.blocking_str();
            }
    return bad;
}

TEST(CpuGemmB16, FewRowKernelsWidenBInPlace) {
    if (!host_supports(isa_t::avx2)) GTEST_SKIP() << "no avx2";
    isa_guard_t guard(isa_t::avx2);
    std::mt19937 gen(53);
    std::uniform_int_distribution<int> un(1, 300), uk(1, 100);
    int runs = 0;
    for (b16_t t : {b16_t::bf16, b16_t::f16})
        for (int64_t M : {1, 2, 3, 4, 5, 6, 7, 11, 16})
            for (int nthr : {1, 2}) {
                run_case(t, M, un(gen), uk(gen), 1, nthr, gen);
                ++runs;
            }
    // Long rows (many strips in one call), batches with their own B.
    for (b16_t t : {b16_t::bf16, b16_t::f16}) {
        run_case(t, 1, 1000, 37, 1, 2, gen);
        run_case(t, 3, 517, 64, 2, 2, gen);
        run_case(t, 1, 8, 1, 3, 1, gen);
        runs += 3;
    }
    // One row against B^T rows (the dot kernels, both orders: rows of up
    // to 2 KiB are summed whole), K with every tail of a vector.
    for (b16_t t : {b16_t::bf16, b16_t::f16})
        for (int64_t K : {1, 7, 8, 9, 63, 64, 200, 1024, 1031, 1500})
            for (int nthr : {1, 2}) {
                run_case(t, 1, un(gen), K, 1, nthr, gen, blay_t::bt);
                ++runs;
            }
    run_case(b16_t::bf16, 1, 40, 100, 3, 2, gen, blay_t::bt);
    // Several rows: K in chunks of 1024 16-bit values, the last with a
    // scalar tail.
    for (b16_t t : {b16_t::bf16, b16_t::f16}) {
        run_case(t, 3, 29, 2500, 1, 2, gen, blay_t::bt);
        run_case(t, 7, 29, 1029, 1, 1, gen, blay_t::bt);
        runs += 2;
    }
    // A few rows against B^T: dot products for up to 2 * k_dot_max_m rows
    // (7 and 8: two epilogue panels of the 6-row kernels), past that
    // blocks widened and packed as f32 (K past one packed K block).
    for (b16_t t : {b16_t::bf16, b16_t::f16})
        for (int64_t M : {2, 5, 7, 8, 9, 16}) {
            run_case(t, M, un(gen), 300, 1, 2, gen, blay_t::bt);
            run_case(t, M, un(gen), uk(gen), 2, 1, gen, blay_t::bt);
            runs += 2;
        }
    std::printf("[ b16      ] %d runs\n", runs);
}

// The regular path: B widened as each block is packed (per call), or
// once ahead into the prepacked layout; rows, B^T and strided B; M, N and
// K past one block (K = 600: three K blocks of 256, the last partial).
TEST(CpuGemmB16, RegularPathWidensBWhilePacking) {
    if (!host_supports(isa_t::avx2)) GTEST_SKIP() << "no avx2";
    isa_guard_t guard(isa_t::avx2);
    std::mt19937 gen(71);
    std::uniform_int_distribution<int> un(1, 300), uk(1, 100);
    int runs = 0;
    for (b16_t t : {b16_t::bf16, b16_t::f16})
        for (blay_t lay : {blay_t::rows, blay_t::bt, blay_t::strided})
            for (plan_t plan : {plan_t::regular, plan_t::prepacked}) {
                for (int64_t M : {1, 5, 17, 40})
                    run_case(t, M, un(gen), uk(gen), 1, 2, gen, lay, plan);
                run_case(t, 23, 13, 600, 1, 1, gen, lay, plan);
                run_case(t, 70, 1100, 37, 1, 2, gen, lay, plan);
                runs += 6;
            }
    // Past the few-row limit with the few-row paths allowed, batches with
    // their own B (packed per call; B^T and strided B strip by strip up
    // to 64 rows, then the regular path); strided B on the few-row paths.
    for (b16_t t : {b16_t::bf16, b16_t::f16}) {
        run_case(t, 17, un(gen), uk(gen), 3, 2, gen, blay_t::rows);
        run_case(t, 30, un(gen), 300, 2, 1, gen, blay_t::bt);
        run_case(t, 64, un(gen), uk(gen), 1, 2, gen, blay_t::strided);
        run_case(t, 65, un(gen), uk(gen), 1, 2, gen, blay_t::bt);
        run_case(t, 1, un(gen), 300, 1, 2, gen, blay_t::strided);
        run_case(t, 9, un(gen), uk(gen), 1, 1, gen, blay_t::strided);
        runs += 6;
    }
    std::printf("[ b16      ] %d runs\n", runs);
}

TEST(CpuGemmB16, OtherKernelsAreDeclined) {
    if (!host_supports(isa_t::avx2)) GTEST_SKIP() << "no avx2";
    isa_guard_t guard(isa_t::avx2);
    gemm_desc_t d = dense_desc(ukr_kind_t::f32_avx512, 2, 32, 32);
    d.b16 = b16_t::f16;
    gemm_t g;
    EXPECT_EQ(g.init(d, 1), dnnl_unimplemented); // the AVX2 kernels only
    d = dense_desc(ukr_kind_t::f32_avx2, 2, 32, 0);
    d.b16 = b16_t::bf16;
    EXPECT_EQ(g.init(d, 1), dnnl_unimplemented); // empty
}

} // namespace
} // namespace cpu
} // namespace llga
