// tests/unit/backends/cpu_gemm_blocking_test.cpp — the packed (non-wide)
// GEMM paths across their cache blocks: every micro-kernel flavour the host
// runs (each at its own max ISA, AMX included), random shapes with several
// K blocks (f32 KC 256, bf16 512, AMX 1024) plus tails, M tails of the
// register tile and of the 4-row packing groups, N tails of the strips,
// padded (odd) strides, A transposed (generic packing), B row-major,
// transposed or prepacked (the next-block prefetch walks each of them),
// bias, f32 or bf16 destination, 1 and 2 threads (different task splits);
// against a double-precision loop written here. Tolerance: 1e-5 *
// (sum |a*b| + 1), plus 2^-8 relative for a bf16 destination.
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/isa.hpp"
#include "backends/cpu/kernels/gemm_driver.hpp"
#include "ir/dtype.hpp"

namespace llga {
namespace cpu {
namespace {

using namespace gemm;

struct isa_guard_t {
    explicit isa_guard_t(isa_t i) { set_max_isa_for_testing(i); }
    ~isa_guard_t() { reset_max_isa_for_testing(); }
};

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
        const bool bf = kind != ukr_kind_t::f32_avx2
                && kind != ukr_kind_t::f32_avx512;
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
        for (const shape_t &s : shapes)
            for (int layout = 0; layout < 4; ++layout) {
                // 0 row-major, 1 B^T, 2 prepacked B, 3 A^T
                const int64_t M = s.M, N = s.N, K = s.K;
                const bool bt = layout == 1, at = layout == 3;
                const bool dst_bf16 = bf && layout == 2;
                const int nthr = 1 + (layout % 2);
                const int64_t lda = (at ? M : K) + upad(gen);
                const int64_t ldb = (bt ? K : N) + upad(gen);
                const int64_t ldd = N + upad(gen);
                std::vector<float> af((at ? K : M) * lda), bfv((bt ? N : K) * ldb),
                        bias(N);
                auto rnd = [&] {
                    const float v = u(gen);
                    return bf ? ir::bf16_to_f32(ir::f32_to_bf16(v)) : v;
                };
                for (auto &v : af) v = rnd();
                for (auto &v : bfv) v = rnd();
                for (auto &v : bias) v = u(gen);
                std::vector<uint16_t> ah(af.size()), bh(bfv.size());
                for (size_t i = 0; i < af.size(); ++i)
                    ah[i] = ir::f32_to_bf16(af[i]);
                for (size_t i = 0; i < bfv.size(); ++i)
                    bh[i] = ir::f32_to_bf16(bfv[i]);
                gemm_desc_t d;
                d.kind = kind;
                d.dst_bf16 = dst_bf16;
                d.has_bias = true;
                d.M = M;
                d.N = N;
                d.K = K;
                d.sam = at ? 1 : lda;
                d.sak = at ? lda : 1;
                d.sbk = bt ? 1 : ldb;
                d.sbn = bt ? ldb : 1;
                d.sdm = ldd;
                gemm_t g;
                ASSERT_EQ(g.init(d, nthr), dnnl_success) << ukr_name(kind);
                ASSERT_EQ(g.blocking_str().find("wide"), std::string::npos)
                        << g.blocking_str();
                std::vector<float> bp(g.bias_cols(), 0.f);
                std::copy(bias.begin(), bias.end(), bp.begin());
                const void *a = bf ? static_cast<const void *>(ah.data())
                                   : af.data();
                const void *b = bf ? static_cast<const void *>(bh.data())
                                   : bfv.data();
                std::vector<char> packed;
                if (layout == 2) {
                    packed.resize(g.packed_b_bytes());
                    g.prepack_b(b, packed.data());
                }
                std::vector<float> cf(M * ldd, 0.f);
                std::vector<uint16_t> ch(M * ldd, 0);
                g.execute(a, b, bp.data(),
                        dst_bf16 ? static_cast<void *>(ch.data()) : cf.data(),
                        layout == 2 ? packed.data() : nullptr);
                int bad = 0;
                for (int64_t m = 0; m < M; ++m)
                    for (int64_t n = 0; n < N; ++n) {
                        double w = bias[n], mag = 1;
                        for (int64_t k = 0; k < K; ++k) {
                            const double p
                                    = double(af[at ? k * lda + m : m * lda + k])
                                    * bfv[bt ? n * ldb + k : k * ldb + n];
                            w += p;
                            mag += std::fabs(p);
                        }
                        const double got = dst_bf16
                                ? ir::bf16_to_f32(ch[m * ldd + n])
                                : cf[m * ldd + n];
                        double tol = 1e-5 * mag;
                        if (dst_bf16) tol += std::fabs(w) / 256;
                        if (!(std::fabs(got - w) <= tol) && bad++ < 3)
                            ADD_FAILURE() << ukr_name(kind) << " M=" << M
                                          << " N=" << N << " K=" << K
                                          << " layout=" << layout << " ("
                                          << m << "," << n << ") got " << got
                                          << " want " << w << " "
                                          << g.blocking_str();
                    }
                ++runs;
            }
        std::printf("[ blocking ] %s: %d runs so far\n", ukr_name(kind), runs);
    }
    EXPECT_GE(runs, 1);
}

} // namespace
} // namespace cpu
} // namespace llga
