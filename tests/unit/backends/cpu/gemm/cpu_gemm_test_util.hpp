// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/gemm/cpu_gemm_test_util.hpp — what the GEMM suites
// share: the max-ISA guard, buffers that end at a guard page, random operands
// kept exactly representable in bf16 when the flavour reads bf16 (with their
// bf16 copies), and one plain-GEMM case (bias, f32 or bf16 dst, A/B transposed
// or B prepacked) run through gemm_t and checked against a double-precision
// loop written here. Tolerance: 1e-5 * (sum |a*b| + 1), plus 2^-8 relative for
// a bf16 destination.
#pragma once

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include "backends/cpu/isa.hpp"
#include "backends/cpu/kernels/gemm/gemm_driver.hpp"
#include "cpu_test_isa.hpp"
#include "ir/dtype.hpp"

namespace llga {
namespace cpu {
namespace gemm_test {

using test_isa::isa_guard_t;

inline bool reads_bf16(gemm::ukr_kind_t kind) {
    return kind == gemm::ukr_kind_t::bf16_avx512
            || kind == gemm::ukr_kind_t::bf16_amx;
}

// The micro-kernel flavours this host runs.
inline std::vector<gemm::ukr_kind_t> host_kinds() {
    std::vector<gemm::ukr_kind_t> r;
    for (gemm::ukr_kind_t k :
            {gemm::ukr_kind_t::f32_avx2, gemm::ukr_kind_t::f32_avx512,
                    gemm::ukr_kind_t::bf16_avx512, gemm::ukr_kind_t::bf16_amx})
        if (host_supports(gemm::ukr_isa(k))) r.push_back(k);
    return r;
}

// A and B as f32 values (bf16-exact when `bf`) and as bf16 bits.
// C[M, N] = A[M, K] x B[K, N], all row-major and dense.
inline gemm::gemm_desc_t dense_desc(
        gemm::ukr_kind_t kind, int64_t M, int64_t N, int64_t K) {
    gemm::gemm_desc_t d;
    d.kind = kind;
    d.M = M;
    d.N = N;
    d.K = K;
    d.sam = K;
    d.sak = 1;
    d.sbk = N;
    d.sbn = 1;
    d.sdm = N;
    return d;
}

struct operands_t {
    std::vector<float> af, bfv;
    std::vector<uint16_t> ah, bh;
    bool bf = false;
    const void *a() const {
        return bf ? static_cast<const void *>(ah.data()) : af.data();
    }
    const void *b() const {
        return bf ? static_cast<const void *>(bh.data()) : bfv.data();
    }
};

// Fills A (a_elems) then B (b_elems) from u(gen), in that order.
inline operands_t make_operands(bool bf, size_t a_elems, size_t b_elems,
        std::mt19937 &gen, std::uniform_real_distribution<float> &u) {
    operands_t o;
    o.bf = bf;
    o.af.resize(a_elems);
    o.bfv.resize(b_elems);
    auto rnd = [&] {
        const float v = u(gen);
        return bf ? ir::bf16_to_f32(ir::f32_to_bf16(v)) : v;
    };
    for (auto &v : o.af) v = rnd();
    for (auto &v : o.bfv) v = rnd();
    o.ah.resize(a_elems);
    o.bh.resize(b_elems);
    for (size_t i = 0; i < a_elems; ++i) o.ah[i] = ir::f32_to_bf16(o.af[i]);
    for (size_t i = 0; i < b_elems; ++i) o.bh[i] = ir::f32_to_bf16(o.bfv[i]);
    return o;
}

// One C = A x B + bias problem; lda/ldb/ldd are the (padded) row strides of
// A (K x M when `at`), B (N x K when `bt`) and dst.
struct plain_case_t {
    gemm::ukr_kind_t kind = gemm::ukr_kind_t::f32_avx2;
    int64_t M = 0, N = 0, K = 0, lda = 0, ldb = 0, ldd = 0;
    bool at = false, bt = false, prepack = false, dst_bf16 = false;
    // gemm_desc_t::b_prepacked (the hint; `prepack` is what the case does).
    bool b_prepacked = true;
    int nthr = 1;
    const char *layout = "";
};

// Draws A, B and bias from u(gen), runs the case and checks every element.
// `expect_wide` states whether the small-M ("wide") plan must be chosen.
inline void run_plain_case(const plain_case_t &c, bool expect_wide,
        std::mt19937 &gen, std::uniform_real_distribution<float> &u) {
    using namespace gemm;
    const int64_t M = c.M, N = c.N, K = c.K;
    const operands_t o = make_operands(reads_bf16(c.kind),
            static_cast<size_t>((c.at ? K : M) * c.lda),
            static_cast<size_t>((c.bt ? N : K) * c.ldb), gen, u);
    std::vector<float> bias(static_cast<size_t>(N));
    for (auto &v : bias) v = u(gen);
    gemm_desc_t d;
    d.kind = c.kind;
    d.dst_bf16 = c.dst_bf16;
    d.has_bias = true;
    d.M = M;
    d.N = N;
    d.K = K;
    d.sam = c.at ? 1 : c.lda;
    d.sak = c.at ? c.lda : 1;
    d.sbk = c.bt ? 1 : c.ldb;
    d.sbn = c.bt ? c.ldb : 1;
    d.sdm = c.ldd;
    d.b_prepacked = c.b_prepacked;
    gemm_t g;
    ASSERT_EQ(g.init(d, c.nthr), dnnl_success) << ukr_name(c.kind);
    ASSERT_EQ(g.blocking_str().find("wide") != std::string::npos, expect_wide)
            << g.blocking_str();
    std::vector<float> bp(static_cast<size_t>(g.bias_cols()), 0.f);
    std::copy(bias.begin(), bias.end(), bp.begin());
    std::vector<char> packed;
    if (c.prepack) {
        packed.resize(g.packed_b_bytes());
        g.prepack_b(o.b(), packed.data());
    }
    std::vector<float> cf(static_cast<size_t>(M * c.ldd), 0.f);
    std::vector<uint16_t> ch(static_cast<size_t>(M * c.ldd), 0);
    g.execute(o.a(), o.b(), bp.data(),
            c.dst_bf16 ? static_cast<void *>(ch.data()) : cf.data(),
            c.prepack ? packed.data() : nullptr);
    int bad = 0;
    for (int64_t m = 0; m < M; ++m)
        for (int64_t n = 0; n < N; ++n) {
            double w = bias[static_cast<size_t>(n)], mag = 1;
            for (int64_t k = 0; k < K; ++k) {
                const double p
                        = double(o.af[c.at ? k * c.lda + m : m * c.lda + k])
                        * o.bfv[c.bt ? n * c.ldb + k : k * c.ldb + n];
                w += p;
                mag += std::fabs(p);
            }
            const double got = c.dst_bf16
                    ? ir::bf16_to_f32(ch[m * c.ldd + n])
                    : cf[m * c.ldd + n];
            double tol = 1e-5 * mag;
            if (c.dst_bf16) tol += std::fabs(w) / 256;
            if (!(std::fabs(got - w) <= tol) && bad++ < 3)
                ADD_FAILURE() << ukr_name(c.kind) << " M=" << M << " N=" << N
                              << " K=" << K << " layout=" << c.layout << " ("
                              << m << "," << n << ") got " << got << " want "
                              << w << " " << g.blocking_str();
        }
}

// n elements (4 bytes, or `es`) ending right before a PROT_NONE page:
// reading one element past the end faults.
class guarded_floats_t {
public:
    // n elements of `es` bytes (bytes() for es = 1).
    explicit guarded_floats_t(size_t n, size_t es = 4) {
        const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
        span_ = (n * es + page - 1) / page * page;
        base_ = static_cast<char *>(mmap(nullptr, span_ + page,
                PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
        ok_ = base_ != MAP_FAILED
                && mprotect(base_ + span_, page, PROT_NONE) == 0;
        p_ = reinterpret_cast<float *>(base_ + span_ - n * es);
        page_ = page;
    }
    uint8_t *bytes() { return reinterpret_cast<uint8_t *>(p_); }
    uint16_t *words() { return reinterpret_cast<uint16_t *>(p_); }
    ~guarded_floats_t() {
        if (base_ != MAP_FAILED) munmap(base_, span_ + page_);
    }
    bool ok() const { return ok_; }
    float *data() { return p_; }

private:
    char *base_ = static_cast<char *>(MAP_FAILED);
    size_t span_ = 0, page_ = 0;
    bool ok_ = false;
    float *p_ = nullptr;
};

} // namespace gemm_test
} // namespace cpu
} // namespace llga
