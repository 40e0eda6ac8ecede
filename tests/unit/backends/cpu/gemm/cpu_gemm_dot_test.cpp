// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/gemm/cpu_gemm_dot_test.cpp — the dot-product kernels
// (gemm_dot.cpp) called directly, in both orders (interleaved rows and
// whole rows), for every row count 1..8 on every flavour the host runs
// that has them (each at its own max ISA): k from 1 to past several
// unrolled steps with every vector tail, rows padded apart, the last row
// ending at a guard page (a tail read past k faults), against a
// double-precision dot product. Tolerance 1e-5 * (sum |a*b| + 1). Also the
// order picked by row length.
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

// nn rows of k values, `ld` elements apart, the last row's end at a guard
// page; A one row of k values, also guarded. Returns the failures.
int run_dot(ukr_kind_t kind, dot_order_t order, int nn, int64_t k,
        int64_t ld, std::mt19937 &gen) {
    const bool bf = reads_bf16(kind);
    const size_t es = bf ? 2 : 4;
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    const size_t b_elems = static_cast<size_t>((nn - 1) * ld + k);
    guarded_floats_t a(static_cast<size_t>(k), es), b(b_elems, es);
    if (!a.ok() || !b.ok()) {
        ADD_FAILURE() << "guard page";
        return 1;
    }
    // The values as the kernel sees them (bf16-exact for bf16).
    std::vector<float> av(static_cast<size_t>(k)), bv(b_elems);
    auto fill = [&](std::vector<float> &v, guarded_floats_t &g) {
        for (size_t i = 0; i < v.size(); ++i) {
            const float x = u(gen);
            if (bf) {
                g.words()[i] = ir::f32_to_bf16(x);
                v[i] = ir::bf16_to_f32(g.words()[i]);
            } else {
                g.data()[i] = v[i] = x;
            }
        }
    };
    fill(av, a);
    fill(bv, b);
    ukr_fn_t fn = nullptr;
    EXPECT_EQ(get_dot_kernel(kind, nn, order, &fn), dnnl_success);
    if (!fn) return 1;
    const int W = ukr_shape(kind).width;
    const int tail = static_cast<int>(k % W);
    std::vector<float> sums(static_cast<size_t>(nn) + 1, -7.f);
    ukr_args_t args {};
    args.a = a.data();
    args.b = b.data();
    args.ldb = ld * static_cast<int64_t>(es);
    args.k = k;
    args.acc = sums.data();
    args.kmask = (int64_t(1) << tail) - 1;
    args.ymask = k_ymask_table + 8 - std::min(tail, 8);
    fn(&args);
    int bad = 0;
    for (int j = 0; j < nn; ++j) {
        double want = 0, mag = 0;
        for (int64_t i = 0; i < k; ++i) {
            const double p = double(av[size_t(i)]) * bv[size_t(j * ld + i)];
            want += p;
            mag += std::fabs(p);
        }
        const double got = sums[size_t(j)];
        if (!(std::fabs(got - want) <= 1e-5 * (mag + 1)) && bad++ < 3)
            ADD_FAILURE() << ukr_name(kind) << " order "
                          << (order == dot_order_t::rows ? "rows" : "interleaved")
                          << " nn=" << nn << " k=" << k << " ld=" << ld
                          << " row " << j << ": got " << got << " want "
                          << want;
    }
    EXPECT_EQ(sums[size_t(nn)], -7.f) << "wrote past nn sums";
    return bad;
}

TEST(CpuGemmDot, BothOrdersEveryRowCountAndTail) {
    std::mt19937 gen(41);
    std::uniform_int_distribution<int> upad(0, 5);
    int runs = 0;
    for (ukr_kind_t kind : host_kinds()) {
        if (kind == ukr_kind_t::bf16_amx) continue; // no dot kernel
        isa_guard_t guard(ukr_isa(kind));
        const int W = ukr_shape(kind).width;
        // Every tail of the vector, of the 4-vector step (rows order) and
        // of the line step, plus longer rows.
        std::vector<int64_t> ks;
        for (int64_t k = 1; k <= 5 * W + 1; ++k)
            ks.push_back(k);
        for (int64_t k : {int64_t(127), int64_t(128), int64_t(300),
                     int64_t(1031)})
            ks.push_back(k);
        for (dot_order_t order : {dot_order_t::interleaved, dot_order_t::rows})
            for (int nn = 1; nn <= k_dot_max_cols; ++nn)
                for (int64_t k : ks) {
                    run_dot(kind, order, nn, k, k + upad(gen), gen);
                    ++runs;
                }
    }
    std::printf("[ dot      ] %d runs\n", runs);
}

TEST(CpuGemmDot, ShortRowsAreSummedWhole) {
    // The default limit (no LLGA_GEMM_DOT_ROWS_MAX in the test
    // environment): rows of up to 2 KiB in address order.
    EXPECT_EQ(dot_order_for(512), dot_order_t::rows);
    EXPECT_EQ(dot_order_for(k_dot_rows_max_bytes), dot_order_t::rows);
    EXPECT_EQ(dot_order_for(k_dot_rows_max_bytes + 4),
            dot_order_t::interleaved);
    EXPECT_EQ(dot_order_for(16384), dot_order_t::interleaved);
}

} // namespace
} // namespace cpu
} // namespace llga
