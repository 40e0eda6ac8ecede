// tests/unit/backends/cpu_gemm_small_m_test.cpp — the small-M ("wide")
// GEMM path: every M up to the wide limit on every micro-kernel flavour the
// host runs (each at its own max ISA), random N and K with tails, padded
// strides, B read in place, transposed (packed per task) and prepacked,
// with bias and an f32 or bf16 destination, against a double-precision
// loop written here. Tolerance: 1e-5 * (sum |a*b| + 1) for f32 dst, plus
// 2^-8 relative for bf16 dst.
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

TEST(CpuGemmSmallM, EveryRowCountLayoutAndIsa) {
    std::mt19937 gen(23);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    std::uniform_int_distribution<int> un(1, 300), uk(1, 200), upad(0, 3);
    int runs = 0;
    for (ukr_kind_t kind : {ukr_kind_t::f32_avx2, ukr_kind_t::f32_avx512,
                 ukr_kind_t::bf16_avx512}) {
        if (!host_supports(ukr_isa(kind))) continue;
        isa_guard_t guard(ukr_isa(kind));
        const bool bf = kind == ukr_kind_t::bf16_avx512;
        for (int64_t M : {1, 2, 3, 4, 5, 7, 8, 9, 13, 16})
            for (int layout = 0; layout < 3; ++layout) { // 0 in place, 1 B^T, 2 prepacked
                const int64_t N = un(gen), K = layout == 0 ? 3 * uk(gen) : uk(gen);
                const bool dst_bf16 = bf && (M % 2 == 1);
                const int64_t lda = K + upad(gen), ldd = N + upad(gen);
                const bool bt = layout == 1;
                const int64_t ldb = (bt ? K : N) + upad(gen);
                std::vector<float> af(M * lda), bfv((bt ? N : K) * ldb),
                        bias(N);
                auto rnd = [&] {
                    const float v = u(gen);
                    return bf ? ir::bf16_to_f32(ir::f32_to_bf16(v)) : v;
                };
                for (auto &v : af) v = rnd();
                for (auto &v : bfv) v = rnd();
                for (auto &v : bias) v = u(gen);
                std::vector<uint16_t> ah(af.size()), bh(bfv.size());
                for (size_t i = 0; i < af.size(); ++i) ah[i] = ir::f32_to_bf16(af[i]);
                for (size_t i = 0; i < bfv.size(); ++i) bh[i] = ir::f32_to_bf16(bfv[i]);
                gemm_desc_t d;
                d.kind = kind;
                d.dst_bf16 = dst_bf16;
                d.has_bias = true;
                d.M = M;
                d.N = N;
                d.K = K;
                d.sam = lda;
                d.sak = 1;
                d.sbk = bt ? 1 : ldb;
                d.sbn = bt ? ldb : 1;
                d.sdm = ldd;
                gemm_t g;
                ASSERT_EQ(g.init(d, 2), dnnl_success);
                ASSERT_NE(g.blocking_str().find("wide"), std::string::npos)
                        << g.blocking_str();
                std::vector<float> bp(g.bias_cols(), 0.f);
                std::copy(bias.begin(), bias.end(), bp.begin());
                const void *a = bf ? static_cast<const void *>(ah.data()) : af.data();
                const void *b = bf ? static_cast<const void *>(bh.data()) : bfv.data();
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
                            const double p = double(af[m * lda + k])
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
    }
    std::printf("[ small-M  ] %d runs\n", runs);
}

} // namespace
} // namespace cpu
} // namespace llga
