// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/gemm/cpu_gemm_scalar_div_test.cpp — a chain's
// divisions by a scalar run as multiplications (gemm_scalar_div.hpp): which
// divisors qualify (powers of two and the edges of the range, derived by
// hand), which ops the twin changes and where take() points the operands,
// and, on every kernel flavour the host runs, that the twin's results are
// the dividing chain's bit for bit, overflow, underflow to subnormals and
// NaN included.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/kernels/gemm/gemm_driver.hpp"
#include "backends/cpu/kernels/gemm/gemm_scalar_div.hpp"
#include "cpu_gemm_test_util.hpp"
#include "ir/dtype.hpp"

namespace llga {
namespace cpu {
namespace {

using namespace gemm;

uint32_t bits(float x) {
    uint32_t u;
    std::memcpy(&u, &x, 4);
    return u;
}

TEST(CpuGemmScalarDiv, PowersOfTwoWithNormalReciprocalsQualify) {
    const float inf = std::numeric_limits<float>::infinity();
    struct {
        float c, r; // r = 0: not taken
    } cases[] = {
            {8.f, 0.125f},
            {-0.5f, -2.f},
            {1.f, 1.f},
            {-1.f, -1.f},
            {0.25f, 4.f},
            {std::ldexp(1.f, 100), std::ldexp(1.f, -100)},
            {std::ldexp(1.f, -126), std::ldexp(1.f, 126)},
            // A subnormal divisor whose reciprocal is normal.
            {std::ldexp(1.f, -127), std::ldexp(1.f, 127)},
            // Reciprocals past the normal range: 2^-127, 2^149.
            {std::ldexp(1.f, 127), 0.f},
            {std::ldexp(1.f, -149), 0.f},
            {3.f, 0.f},
            {1.5f, 0.f},
            {std::nextafter(8.f, 9.f), 0.f},
            {0.f, 0.f},
            {-0.f, 0.f},
            {inf, 0.f},
            {-inf, 0.f},
            {std::numeric_limits<float>::quiet_NaN(), 0.f},
    };
    for (const auto &c : cases)
        EXPECT_EQ(bits(exact_reciprocal(c.c)), bits(c.r)) << c.c;
}

postop_t binary(po_binary_t op, po_bcast_t b, po_dt_t dt = po_dt_t::f32) {
    return postop_t::make_binary(op, b, dt, 0);
}

TEST(CpuGemmScalarDiv, TwinChangesTheScalarDivisionsOnly) {
    postops_t po;
    po.ops = {binary(po_binary_t::add, po_bcast_t::col),       // operand 0
            binary(po_binary_t::div, po_bcast_t::scalar),      // 1
            postop_t::make_eltwise(po_eltwise_t::round_bf16),
            binary(po_binary_t::div, po_bcast_t::scalar, po_dt_t::bf16), // 2
            binary(po_binary_t::div, po_bcast_t::col),         // 3
            binary(po_binary_t::mul, po_bcast_t::scalar)};     // 4
    const scalar_div_twin_t t(po);
    ASSERT_TRUE(t.any());
    const postops_t tw = t.twin(po);
    ASSERT_EQ(tw.ops.size(), po.ops.size());
    const po_binary_t want[] = {po_binary_t::add, po_binary_t::mul,
            po_binary_t::add, po_binary_t::mul, po_binary_t::div,
            po_binary_t::mul};
    for (size_t i = 0; i < po.ops.size(); ++i) {
        EXPECT_EQ(tw.ops[i].kind, po.ops[i].kind) << i;
        if (po.ops[i].kind == postop_kind_t::binary) {
            EXPECT_EQ(tw.ops[i].op, want[i]) << i;
        }
    }
    EXPECT_NE(tw.key(), po.key());

    float col[4] = {}, dcol[4] = {}, m = 3.f;
    const float d1 = 8.f;
    const uint16_t d2 = ir::f32_to_bf16(-0.25f);
    const void *p[5] = {col, &d1, &d2, dcol, &m};
    scalar_div_twin_t::recips_t r;
    ASSERT_TRUE(t.take(p, r));
    EXPECT_EQ(p[0], static_cast<const void *>(col));
    EXPECT_EQ(p[3], static_cast<const void *>(dcol));
    EXPECT_EQ(p[4], static_cast<const void *>(&m));
    EXPECT_EQ(*static_cast<const float *>(p[1]), 0.125f);
    EXPECT_EQ(*static_cast<const uint16_t *>(p[2]), ir::f32_to_bf16(-4.f));

    // One divisor that is not a power of two: the call keeps the division.
    const float d3 = 6.f;
    const void *q[5] = {col, &d3, &d2, dcol, &m};
    const void *q0[5];
    std::memcpy(q0, q, sizeof(q));
    EXPECT_FALSE(t.take(q, r));
    EXPECT_EQ(std::memcmp(q, q0, sizeof(q)), 0);

    postops_t cols;
    cols.ops = {binary(po_binary_t::div, po_bcast_t::col),
            binary(po_binary_t::div, po_bcast_t::row)};
    EXPECT_FALSE(scalar_div_twin_t(cols).any());
}

// C = (A x B) / c + col, once with the division and once with the twin,
// on every flavour: M, N and K with tails, A rows scaled so that products
// overflow, reach the subnormals after the division, or are NaN.
TEST(CpuGemmScalarDiv, TwinGivesTheDividingChainsBitsOnEveryKernel) {
    std::mt19937 gen(29);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    const int64_t M = 23, N = 37, K = 19;
    int runs = 0;
    for (ukr_kind_t kind : gemm_test::host_kinds()) {
        gemm_test::isa_guard_t guard(ukr_isa(kind));
        const bool bf = gemm_test::reads_bf16(kind);
        for (float c : {8.f, -0.5f, std::ldexp(1.f, 100),
                     std::ldexp(1.f, -126), std::ldexp(1.f, -127)}) {
            gemm_test::operands_t o = gemm_test::make_operands(
                    bf, size_t(M * K), size_t(K * N), gen, u);
            // Row 1 huge (overflows once divided by a small c), row 2
            // tiny (subnormal after a division by 8), row 3 NaN.
            for (int64_t k = 0; k < K; ++k) {
                o.af[size_t(K + k)] *= 1e30f;
                o.af[size_t(2 * K + k)] *= 1e-36f;
            }
            o.af[size_t(3 * K)] = std::numeric_limits<float>::quiet_NaN();
            for (size_t i = 0; i < o.af.size(); ++i) {
                o.ah[i] = ir::f32_to_bf16(o.af[i]);
                if (bf) o.af[i] = ir::bf16_to_f32(o.ah[i]);
            }
            std::vector<float> col(static_cast<size_t>(N));
            for (float &v : col) v = u(gen);
            gemm_desc_t d = gemm_test::dense_desc(kind, M, N, K);
            d.post.ops = {binary(po_binary_t::div, po_bcast_t::scalar),
                    binary(po_binary_t::add, po_bcast_t::col)};
            const scalar_div_twin_t t(d.post);
            ASSERT_TRUE(t.any());
            gemm_desc_t dm = d;
            dm.post = t.twin(d.post);
            gemm_t g, gm;
            ASSERT_EQ(g.init(d, 1), dnnl_success);
            ASSERT_EQ(gm.init(dm, 1), dnnl_success);
            std::vector<float> want(size_t(M * N)), got(size_t(M * N));
            const void *po[2] = {&c, col.data()};
            g.execute(o.a(), o.b(), nullptr, want.data(), nullptr, po);
            scalar_div_twin_t::recips_t r;
            ASSERT_TRUE(t.take(po, r)) << c;
            gm.execute(o.a(), o.b(), nullptr, got.data(), nullptr, po);
            int bad = 0, special = 0;
            for (size_t i = 0; i < want.size(); ++i) {
                const bool nan = std::isnan(want[i]) && std::isnan(got[i]);
                special += std::isinf(want[i]) || std::isnan(want[i])
                        || (want[i] != 0.f && std::fabs(want[i])
                                        < std::numeric_limits<float>::min());
                if (!nan && bits(want[i]) != bits(got[i]) && bad++ < 3)
                    ADD_FAILURE() << gemm::ukr_name(kind) << " c=" << c
                                  << " at " << i << ": " << got[i]
                                  << " vs " << want[i];
            }
            EXPECT_GT(special, 0) << "no special value reached";
            ++runs;
        }
    }
    std::printf("[ div-twin ] %d runs\n", runs);
}

} // namespace
} // namespace cpu
} // namespace llga
