// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/gemm/cpu_gemm_postops_bf16_test.cpp — the bf16 parts
// of the GEMM epilogue, checked bit for bit on every flavour the host runs: the
// round_bf16 post-op (a bf16 value between two ops of a fused chain) and the
// bf16 store, including ties, NaN payloads, overflow to infinity and
// subnormals; bf16 operands and s8 operands rounded to bf16 after their
// dequantization (q_bf16), each ending at a guard page so a tail read one
// element too far faults; and dst padding that must stay untouched. The GEMM
// itself is exact here (small integers and multiples of 1/64), so every
// expected value is the plain f32 arithmetic of the chain in C++ followed by
// ir::f32_to_bf16 (the reference's rounding).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/kernels/gemm/gemm_driver.hpp"
#include "cpu_gemm_test_util.hpp"
#include "ir/dtype.hpp"

namespace llga {
namespace cpu {
namespace {

using namespace gemm;
using gemm_test::guarded_floats_t;
using test_isa::isa_guard_t;

float from_bits(uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

uint32_t bits_of(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

float bf16_round(float x) { return ir::bf16_to_f32(ir::f32_to_bf16(x)); }

using gemm_test::host_kinds;

// A [M, K] and B [K, N] of small integers (exact in bf16 too), so the
// GEMM plus bias (multiples of 1/64) is exact in f32 whatever the order.
struct exact_gemm_t {
    int64_t M, N, K;
    std::vector<float> a, b, bias;
    std::vector<uint16_t> ah, bh;
    exact_gemm_t(int64_t m, int64_t n, int64_t k) : M(m), N(n), K(k) {
        a.resize(static_cast<size_t>(M * K));
        b.resize(static_cast<size_t>(K * N));
        for (size_t i = 0; i < a.size(); ++i)
            a[i] = static_cast<float>(static_cast<int>(i * 7 % 17) - 8);
        for (size_t i = 0; i < b.size(); ++i)
            b[i] = static_cast<float>(static_cast<int>(i * 5 % 17) - 8);
        bias.assign(static_cast<size_t>(N + 64), 0.f);
        for (int64_t n = 0; n < N; ++n)
            bias[n] = static_cast<float>(n % 13 - 6) / 64.f;
        for (float v : a) ah.push_back(ir::f32_to_bf16(v));
        for (float v : b) bh.push_back(ir::f32_to_bf16(v));
    }
    float at(int64_t m, int64_t n) const {
        double x = bias[n];
        for (int64_t k = 0; k < K; ++k)
            x += double(a[m * K + k]) * b[k * N + n];
        return static_cast<float>(x); // exact: at most 15 significant bits
    }
    // Runs `po` with dst rows `ldd` elements apart; false if init failed.
    bool run(ukr_kind_t kind, const postops_t &po, const void *const *args,
            void *dst, int64_t ldd) const {
        gemm_desc_t d = gemm_test::dense_desc(kind, M, N, K);
        d.has_bias = true;
        d.sdm = ldd;
        d.post = po;
        gemm_t g;
        if (g.init(d, 1) != dnnl_success) return false;
        std::vector<float> biasp(g.bias_cols(), 0.f);
        std::copy(bias.begin(), bias.begin() + N, biasp.begin());
        const bool bf = gemm_test::reads_bf16(kind);
        g.execute(bf ? static_cast<const void *>(ah.data()) : a.data(),
                bf ? static_cast<const void *>(bh.data()) : b.data(),
                biasp.data(), dst, nullptr, args);
        return true;
    }
};

// Column multipliers that exercise the rounding: ties (odd integers above
// 256 times 1), values that round up into the next binade or to infinity,
// signalling and quiet NaN payloads (x86 quiets them in the multiply;
// bf16 keeps the top bits), subnormal products and -0.
std::vector<float> special_columns(int64_t N) {
    const float big = std::numeric_limits<float>::max() / 300.f;
    const std::vector<float> cyc = {1.f, -1.f, 3.f, 0.1f, big,
            from_bits(0x7f800001u), from_bits(0xffbfffffu),
            from_bits(0x7fffffffu), 1e-42f, -0.f, 255.f / 256.f};
    std::vector<float> y(static_cast<size_t>(N));
    for (int64_t n = 0; n < N; ++n) y[n] = cyc[n % cyc.size()];
    return y;
}

// x * y[n] rounded to bf16 inside the chain (then stored as f32), and the
// same product stored as bf16: both bit for bit, padding untouched.
TEST(CpuGemmPostopsBf16, RoundingIsHalfToEvenWithNaNInfAndSubnormals) {
    for (ukr_kind_t kind : host_kinds()) {
        isa_guard_t guard(ukr_isa(kind));
        for (int64_t M : {3, 37}) {
            const int64_t N = 21, ldd = N + 3;
            const exact_gemm_t g(M, N, 7);
            const std::vector<float> y = special_columns(N);
            const void *args[1] = {y.data()};
            postop_t mul = postop_t::make_binary(
                    po_binary_t::mul, po_bcast_t::col, po_dt_t::f32, 0);
            postops_t round_f32;
            round_f32.ops = {mul, postop_t::make_eltwise(po_eltwise_t::round_bf16)};
            postops_t store_bf16;
            store_bf16.ops = {mul};
            store_bf16.dst_dt = po_dt_t::bf16;

            std::vector<float> df(static_cast<size_t>(M * ldd), -7.f);
            ASSERT_TRUE(g.run(kind, round_f32, args, df.data(), ldd));
            std::vector<uint16_t> dh(static_cast<size_t>(M * ldd), 0xabcd);
            ASSERT_TRUE(g.run(kind, store_bf16, args, dh.data(), ldd));
            int bad = 0;
            for (int64_t m = 0; m < M; ++m)
                for (int64_t n = 0; n < ldd; ++n) {
                    const size_t i = static_cast<size_t>(m * ldd + n);
                    uint32_t want_f = bits_of(-7.f);
                    uint16_t want_h = 0xabcd;
                    if (n < N) {
                        const float p = g.at(m, n) * y[n];
                        want_h = ir::f32_to_bf16(p);
                        want_f = static_cast<uint32_t>(want_h) << 16;
                    }
                    if ((bits_of(df[i]) != want_f || dh[i] != want_h)
                            && bad++ < 5)
                        ADD_FAILURE() << ukr_name(kind) << " M=" << M << " ("
                                      << m << "," << n << "): x*y = "
                                      << (n < N ? g.at(m, n) * y[n] : 0.f)
                                      << " f32 bits " << std::hex
                                      << bits_of(df[i]) << " want " << want_f
                                      << ", bf16 " << dh[i] << " want "
                                      << want_h << std::dec;
                }
        }
    }
}

// A full and a per-column bf16 operand and a full s8 operand rounded to
// bf16 after its dequantization, each ending at a guard page (N = 21: a
// tail of 5), into f32 and bf16 destinations.
TEST(CpuGemmPostopsBf16, OperandsStayInsideAndRoundAsTypeCast) {
    const float q_scale = 0.0150352f; // not a power of two: rounding bites
    const int32_t q_zp = 19;
    for (ukr_kind_t kind : host_kinds()) {
        isa_guard_t guard(ukr_isa(kind));
        for (int64_t M : {3, 37}) {
            const int64_t N = 21, ldd = N + 2;
            const exact_gemm_t g(M, N, 11);
            guarded_floats_t full(static_cast<size_t>(M * N), 2),
                    col(static_cast<size_t>(N), 2),
                    q(static_cast<size_t>(M * N), 1);
            ASSERT_TRUE(full.ok() && col.ok() && q.ok());
            for (int64_t i = 0; i < M * N; ++i) {
                full.words()[i] = ir::f32_to_bf16(
                        static_cast<float>(i % 23 - 11) / 8.f);
                q.bytes()[i] = static_cast<uint8_t>(
                        static_cast<int8_t>(i * 37 % 256 - 128));
            }
            for (int64_t n = 0; n < N; ++n)
                col.words()[n] = ir::f32_to_bf16(0.75f + n / 4.f);
            postop_t add = postop_t::make_binary(
                    po_binary_t::add, po_bcast_t::full, po_dt_t::bf16, N);
            postop_t mul = postop_t::make_binary(
                    po_binary_t::mul, po_bcast_t::col, po_dt_t::bf16, 0);
            postop_t res = postop_t::make_binary(
                    po_binary_t::add, po_bcast_t::full, po_dt_t::s8, N);
            res.q_scale = q_scale;
            res.q_zp = q_zp;
            res.q_bf16 = true;
            const void *args[3] = {full.words(), col.words(), q.bytes()};
            for (po_dt_t dt : {po_dt_t::f32, po_dt_t::bf16}) {
                postops_t po;
                po.ops = {add, mul, res};
                po.dst_dt = dt;
                const size_t es = po_dt_size(dt);
                std::vector<uint8_t> dst(static_cast<size_t>(M * ldd) * es, 0x5a);
                ASSERT_TRUE(g.run(kind, po, args, dst.data(), ldd));
                int bad = 0;
                for (int64_t m = 0; m < M; ++m)
                    for (int64_t n = 0; n < N; ++n) {
                        const int64_t i = m * N + n;
                        const float yq = bf16_round(
                                static_cast<float>(
                                        static_cast<int8_t>(q.bytes()[i]) - q_zp)
                                * q_scale);
                        const float x = (g.at(m, n)
                                                + ir::bf16_to_f32(full.words()[i]))
                                        * ir::bf16_to_f32(col.words()[n])
                                + yq;
                        const uint8_t *p = dst.data() + (m * ldd + n) * es;
                        uint32_t got = 0, want = bits_of(x);
                        if (dt == po_dt_t::bf16) {
                            uint16_t h;
                            std::memcpy(&h, p, 2);
                            got = h;
                            want = ir::f32_to_bf16(x);
                        } else {
                            std::memcpy(&got, p, 4);
                        }
                        if (got != want && bad++ < 5)
                            ADD_FAILURE() << ukr_name(kind) << " M=" << M
                                          << " dst " << es << "B (" << m << ","
                                          << n << "): got " << std::hex << got
                                          << " want " << want << std::dec;
                    }
                for (int64_t m = 0; m < M; ++m)
                    for (size_t b = N * es; b < static_cast<size_t>(ldd) * es; ++b)
                        ASSERT_EQ(dst[m * ldd * es + b], 0x5a)
                                << ukr_name(kind) << " M=" << M << ": row " << m
                                << " written past column N (byte " << b << ")";
            }
        }
    }
}

} // namespace
} // namespace cpu
} // namespace llga
