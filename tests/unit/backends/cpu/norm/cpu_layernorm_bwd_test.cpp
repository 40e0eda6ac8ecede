// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/norm/cpu_layernorm_bwd_test.cpp — LayerNormBackward
// on the cpu backend (backends/cpu/kernels/layernorm_bwd.cpp) against the
// reference op, bit for bit, every output: random shapes and begin_norm_axis,
// with and without gamma, with and without the diff_gamma / diff_beta outputs,
// and more columns than one block; in f32 (also row counts off the groups of
// rows whose sums run side by side), and in bf16 and f16 (statistics, gamma and
// weight gradients f32, or bf16 with bf16 data) on rows shorter and longer than
// one widened piece and row counts off the side-by-side groups of sums.
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/isa.hpp"
#include "backends/cpu/kernels/norm/layernorm_bwd.hpp"
#include "cpu_norm_test_util.hpp"
#include "cpu_plan_test_util.hpp"
#include "cpu_test_isa.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace {

using plan_test::bytes_t;

class CpuLayernormBwd : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

// A LayerNormBackward op on data of dims d (type dt), normalized from
// `axis`; statistics, gamma and beta and the weight gradients of type pdt.
ir::op_t ln_bwd_op(const dims_t &d, int64_t axis, bool gamma, bool wgrad,
        data_type_t dt, data_type_t pdt) {
    dims_t lead(d.begin(), d.begin() + axis), norm(d.begin() + axis, d.end());
    ir::op_t op;
    op.kind = dnnl_graph_op_layer_norm_backward;
    op.id = 1;
    op.inputs = {ir::make_lt(10, dt, d), ir::make_lt(11, dt, d),
            ir::make_lt(12, pdt, lead), ir::make_lt(13, pdt, lead)};
    if (gamma) {
        op.inputs.push_back(ir::make_lt(14, pdt, norm));
        op.inputs.push_back(ir::make_lt(15, pdt, norm));
    }
    op.outputs = {ir::make_lt(20, dt, d)};
    if (wgrad) {
        op.outputs.push_back(ir::make_lt(21, pdt, norm));
        op.outputs.push_back(ir::make_lt(22, pdt, norm));
    }
    op.set_attr(dnnl_graph_op_attr_begin_norm_axis,
            ir::attr_value_t::make_s64(axis));
    op.set_attr(dnnl_graph_op_attr_use_affine, ir::attr_value_t::make_bool(gamma));
    op.set_attr(dnnl_graph_op_attr_epsilon, ir::attr_value_t::make_f32(1e-5f));
    return op;
}

std::vector<bytes_t> random_inputs(const compiler::plan_t &p, std::mt19937 &gen) {
    std::vector<bytes_t> in;
    for (size_t k = 0; k < p.inputs.size(); ++k)
        in.push_back(plan_test::random_bytes(p.inputs[k], gen,
                k == 3 ? 0.1f : -2.f, 2.f)); // variance > 0
    return in;
}

TEST_F(CpuLayernormBwd, EveryOutputMatchesTheReferenceBitForBit) {
    std::mt19937 gen(17);
    for (int trial = 0; trial < 60; ++trial) {
        const int r = 2 + static_cast<int>(gen() % 3);
        dims_t d;
        for (int k = 0; k < r; ++k)
            d.push_back(1 + static_cast<int64_t>(gen() % 6));
        if (trial % 10 == 0) d.back() = 300; // > one 256-column block
        const int64_t axis = 1 + static_cast<int64_t>(gen() % (r - 1));
        const bool gamma = gen() % 3 != 0, wgrad = gen() % 2 == 0;
        const compiler::plan_t p = plan_test::plan_of(
                ln_bwd_op(d, axis, gamma, wgrad, dnnl_f32, dnnl_f32));
        plan_test::expect_all_f32_like(p, random_inputs(p, gen),
                "layernorm_backward_f32",
                ir::dims_to_string(d) + " axis " + std::to_string(axis)
                        + (gamma ? " gamma" : ""));
        if (HasFailure()) return;
    }
}

// f32 diff_src rows run eight (then four, then one) side by side, in
// blocks of up to 64 of a task's rows: row counts off those groups (5, 9,
// 13, 67, 133) and rows whose lengths are off the vector widths (1, 3,
// 28, 37, 300, 1100), with and without gamma and the weight gradients;
// rows whose sums show their order.
TEST_F(CpuLayernormBwd, F32RowsSideBySideMatchTheReferenceBitForBit) {
    std::mt19937 gen(37);
    const int64_t rows[] = {1, 5, 9, 13, 67, 133};
    const int64_t lens[] = {1, 3, 28, 37, 300, 1100};
    int variant = 0;
    for (int64_t nr : rows)
        for (int64_t n : lens) {
            if (nr * n > 40000) continue;
            const bool gamma = variant % 3 != 0, wgrad = variant++ % 2 == 0;
            const compiler::plan_t p = plan_test::plan_of(ln_bwd_op(
                    {nr, n}, 1, gamma, wgrad, dnnl_f32, dnnl_f32));
            std::vector<bytes_t> in = random_inputs(p, gen);
            // Each row's diff_dst with a cancelling pair at equal sources:
            // both sums show their order (see plant_cancelling_pair).
            for (int64_t r = 0; r < nr; ++r) {
                const auto pq = normtest::plant_cancelling_pair(in[1], n,
                        [&](int64_t j) { return r * n + j; }, gen);
                if (!pq.first) continue;
                const double x = ir::load_value(
                        dnnl_f32, in[0].data(), r * n + pq.first);
                ir::store_value(dnnl_f32, in[0].data(), r * n + pq.second, x);
            }
            plan_test::expect_all_f32_like(p, in, "layernorm_backward_f32",
                    std::to_string(nr) + " rows of " + std::to_string(n)
                            + (gamma ? " gamma" : "")
                            + (wgrad ? " wgrad" : ""));
            if (HasFailure()) return;
        }
}

// bf16 and f16 data run natively (the kernel name says the type): rows
// of up to 1024 elements in blocks of whole rows (row counts off the
// groups of 8 and 4 rows whose sums run side by side), longer rows
// (1500, 2100: pieces of 1024 and a tail) piece by piece; weight
// gradients over one or more column blocks; statistics and gamma f32, or
// bf16 with bf16 data.
TEST_F(CpuLayernormBwd, HalfTypesMatchTheReferenceBitForBit) {
    std::mt19937 gen(23);
    const int64_t lens[] = {1, 3, 28, 37, 255, 300, 1023, 1500, 2100};
    for (int trial = 0; trial < 72; ++trial) {
        const data_type_t dt = trial % 2 ? dnnl_f16 : dnnl_bf16;
        const data_type_t pdt
                = dt == dnnl_bf16 && trial % 4 == 0 ? dnnl_bf16 : dnnl_f32;
        const int64_t n = lens[trial / 2 % 9];
        dims_t d = {1 + static_cast<int64_t>(gen() % 5),
                1 + static_cast<int64_t>(gen() % (n > 1000 ? 3 : 13))};
        int64_t axis = 2;
        if (gen() % 2) { // n split over two dims, normalized from dim 1
            if (n % 3 == 0) {
                d.push_back(3);
                d.push_back(n / 3);
                axis = 2;
            } else {
                d.push_back(n);
            }
        } else {
            d.push_back(n);
        }
        const bool gamma = gen() % 3 != 0, wgrad = gen() % 2 == 0;
        const compiler::plan_t p
                = plan_test::plan_of(ln_bwd_op(d, axis, gamma, wgrad, dt, pdt));
        normtest::expect_same_bytes(p, random_inputs(p, gen),
                std::string("layernorm_backward_") + ir::dtype_name(dt),
                ir::dims_to_string(d) + " axis " + std::to_string(axis)
                        + " stats " + ir::dtype_name(pdt)
                        + (gamma ? " gamma" : "") + (wgrad ? " wgrad" : ""));
        if (HasFailure()) return;
    }
}

// Types outside the spec's run elsewhere: bf16 statistics with f16 or f32
// data, statistics of two types, diff_src of another type than src.
TEST_F(CpuLayernormBwd, DeclinesTypesTheSpecDoesNot) {
    const dims_t d = {3, 5, 7};
    std::string why;
    const auto declines = [&](const ir::op_t &op, const char *reason) {
        EXPECT_FALSE(layernorm_bwd::accepts(plan_test::plan_of(op), isa_t::avx2, &why));
        EXPECT_NE(why.find(reason), std::string::npos) << why;
    };
    EXPECT_TRUE(layernorm_bwd::accepts(plan_test::plan_of(ln_bwd_op(d, 2, true,
                                               true, dnnl_bf16, dnnl_bf16)),
            isa_t::avx2, &why))
            << why;
    declines(ln_bwd_op(d, 2, true, true, dnnl_f16, dnnl_bf16), "statistics");
    declines(ln_bwd_op(d, 2, true, true, dnnl_f32, dnnl_bf16), "statistics");
    ir::op_t op = ln_bwd_op(d, 2, true, true, dnnl_bf16, dnnl_bf16);
    op.inputs[4].data_type = dnnl_f32;
    declines(op, "types differ");
    op = ln_bwd_op(d, 2, true, true, dnnl_bf16, dnnl_f32);
    op.outputs[0].data_type = dnnl_f32;
    declines(op, "diff_src");
}

} // namespace
} // namespace cpu
} // namespace llga
