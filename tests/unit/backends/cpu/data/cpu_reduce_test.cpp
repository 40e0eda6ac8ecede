// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/data/cpu_reduce_test.cpp — the Reduce* family on the
// cpu backend (backends/cpu/kernels/reduce.cpp) against the reference ops, bit
// for bit: every kind, random ranks and axis sets (some or all), keep_dims both
// ways, permuted (strided) sources, and NaNs that max/min must not drop; the
// same in bf16 and f16 through the native 16-bit loops, plus reduced runs and
// output blocks longer than one widened tile.
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/isa.hpp"
#include "backends/cpu/kernels/data/reduce.hpp"
#include "cpu_plan_test_util.hpp"
#include "cpu_test_isa.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace {

using plan_test::bytes_t;

class CpuReduce : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

const op_kind_t k_kinds[] = {dnnl_graph_op_reduce_sum,
        dnnl_graph_op_reduce_mean, dnnl_graph_op_reduce_max,
        dnnl_graph_op_reduce_min, dnnl_graph_op_reduce_prod,
        dnnl_graph_op_reduce_l1, dnnl_graph_op_reduce_l2};

TEST_F(CpuReduce, EveryKindMatchesTheReferenceBitForBit) {
    std::mt19937 gen(21);
    int ran = 0;
    for (int trial = 0; trial < 300; ++trial) {
        const op_kind_t kind = k_kinds[trial % 7];
        const int r = 1 + static_cast<int>(gen() % 4);
        dims_t x;
        for (int d = 0; d < r; ++d)
            x.push_back(1 + static_cast<int64_t>(gen() % (trial % 5 == 0 ? 40 : 7)));
        std::vector<int64_t> axes;
        for (int d = 0; d < r; ++d)
            if (gen() % 2) axes.push_back(gen() % 2 ? d : d - r);
        if (axes.empty()) // the opset has no identity reduction
            axes.push_back(static_cast<int64_t>(gen() % r));
        ir::op_t op;
        op.kind = kind;
        op.id = 1;
        logical_tensor_t in = ir::make_lt(10, dnnl_f32, x);
        if (gen() % 3 == 0) { // stored in a permuted order
            std::vector<int> perm(static_cast<size_t>(r));
            std::iota(perm.begin(), perm.end(), 0);
            std::shuffle(perm.begin(), perm.end(), gen);
            int64_t acc = 1;
            for (size_t k = perm.size(); k-- > 0;) {
                in.layout.strides[perm[k]] = acc;
                acc *= x[static_cast<size_t>(perm[k])];
            }
        }
        op.inputs = {in};
        op.outputs = {ir::make_lt_unknown(11, dnnl_f32)};
        op.set_attr(dnnl_graph_op_attr_axes, ir::attr_value_t::make_s64s(axes));
        op.set_attr(dnnl_graph_op_attr_keep_dims,
                ir::attr_value_t::make_bool(gen() % 2 == 0));
        ASSERT_EQ(ops::verify_op(op), dnnl_success) << last_error();
        if (ops::infer_shapes(op) != dnnl_success) {
            ADD_FAILURE() << last_error();
            return;
        }
        op.outputs[0] = ir::make_lt(11, dnnl_f32, ir::dims_of(op.outputs[0]));
        const compiler::plan_t p = plan_test::plan_of(op);
        // Products stay finite: values near 1 for ReduceProd.
        const bool prod = kind == dnnl_graph_op_reduce_prod;
        bytes_t src = plan_test::random_bytes(
                in, gen, prod ? 0.8f : -3.f, prod ? 1.25f : 3.f);
        if (gen() % 4 == 0) {
            const float nan = std::numeric_limits<float>::quiet_NaN();
            std::memcpy(&src[gen() % (src.size() / 4) * 4], &nan, 4);
        }
        const auto want = plan_test::run_ref(p, {src});
        plan_test::expect_f32_like(p, {src}, want.at(11), "reduce_",
                std::string(ops::op_kind_name(kind)) + " "
                        + ir::dims_to_string(x) + " trial "
                        + std::to_string(trial));
        ++ran;
        if (HasFailure()) return;
    }
    EXPECT_EQ(ran, 300);
}

// Reduce `kind` over `axes` of a `dt` tensor of dims x (stored in the
// order `perm`, outermost first; empty: row-major) through the native
// kernel (reduce_<kind>_<dt>, not staged_f32) against the reference,
// value for value (NaN matching NaN). A NaN is planted with `nan`.
void check_half(op_kind_t kind, data_type_t dt, const dims_t &x,
        const std::vector<int64_t> &axes, bool keep, std::vector<int> perm,
        bool nan, std::mt19937 &gen) {
    ir::op_t op;
    op.kind = kind;
    op.id = 1;
    logical_tensor_t in = ir::make_lt(10, dt, x);
    if (!perm.empty()) {
        int64_t acc = 1;
        for (size_t k = perm.size(); k-- > 0;) {
            in.layout.strides[perm[k]] = acc;
            acc *= x[static_cast<size_t>(perm[k])];
        }
    }
    op.inputs = {in};
    op.outputs = {ir::make_lt_unknown(11, dt)};
    op.set_attr(dnnl_graph_op_attr_axes, ir::attr_value_t::make_s64s(axes));
    op.set_attr(dnnl_graph_op_attr_keep_dims, ir::attr_value_t::make_bool(keep));
    ASSERT_EQ(ops::verify_op(op), dnnl_success) << last_error();
    ASSERT_EQ(ops::infer_shapes(op), dnnl_success) << last_error();
    op.outputs[0] = ir::make_lt(11, dt, ir::dims_of(op.outputs[0]));
    const compiler::plan_t p = plan_test::plan_of(op);
    const bool prod = kind == dnnl_graph_op_reduce_prod;
    bytes_t src = plan_test::random_bytes(
            in, gen, prod ? 0.8f : -3.f, prod ? 1.25f : 3.f);
    if (nan)
        ir::store_value(dt, src.data(),
                static_cast<int64_t>(gen() % (src.size() / 2)),
                std::numeric_limits<double>::quiet_NaN());
    const bytes_t want = plan_test::run_ref_all(p, {src})[0];
    const char *short_name = kind == dnnl_graph_op_reduce_sum ? "sum"
            : kind == dnnl_graph_op_reduce_mean               ? "mean"
            : kind == dnnl_graph_op_reduce_max                ? "max"
            : kind == dnnl_graph_op_reduce_min                ? "min"
            : kind == dnnl_graph_op_reduce_prod               ? "prod"
            : kind == dnnl_graph_op_reduce_l1                 ? "l1"
                                                              : "l2";
    const std::string kernel = std::string("reduce_") + short_name + "_"
            + ir::dtype_name(dt);
    const std::string what = std::string(ops::op_kind_name(kind)) + " "
            + ir::dtype_name(dt) + " " + ir::dims_to_string(x);
    for (isa_t isa : test_isa::host_levels({isa_t::avx2, isa_t::avx512_core})) {
        test_isa::isa_guard_t guard(isa);
        bytes_t got;
        std::string kname;
        ASSERT_TRUE(plan_test::run_jit(p, {src}, got, &kname)) << what;
        ASSERT_EQ(kname, kernel);
        ASSERT_EQ(got.size(), want.size());
        EXPECT_EQ(plan_test::value_mismatches(got, want, dt,
                          what + " at " + isa_name(isa) + " (" + kname + ")"),
                0);
    }
}

TEST_F(CpuReduce, HalfTypesEveryKindMatchesTheReferenceBitForBit) {
    std::mt19937 gen(27);
    for (data_type_t dt : {dnnl_bf16, dnnl_f16})
        for (int trial = 0; trial < 210; ++trial) {
            const op_kind_t kind = k_kinds[trial % 7];
            const int r = 1 + static_cast<int>(gen() % 4);
            dims_t x;
            for (int d = 0; d < r; ++d)
                x.push_back(1 + static_cast<int64_t>(gen() % (trial % 5 == 0 ? 40 : 13)));
            std::vector<int64_t> axes;
            for (int d = 0; d < r; ++d)
                if (gen() % 2) axes.push_back(gen() % 2 ? d : d - r);
            if (axes.empty()) axes.push_back(static_cast<int64_t>(gen() % r));
            std::vector<int> perm;
            if (gen() % 3 == 0) { // stored in a permuted order
                perm.resize(static_cast<size_t>(r));
                std::iota(perm.begin(), perm.end(), 0);
                std::shuffle(perm.begin(), perm.end(), gen);
            }
            const bool keep = gen() % 2 == 0;
            check_half(kind, dt, x, axes, keep, perm, gen() % 4 == 0, gen);
            if (HasFailure()) return;
        }
}

// Shapes past one 16-bit tile (4096 values) and one output step (1024):
// a long reduced run that is contiguous (per output, tile [j][i]) or
// strided (tile [i][j]), a whole-tensor reduction, a long kept block, and
// the layouts of the corpus (channel-first and channel-last spatial sums).
TEST_F(CpuReduce, HalfTypesLongRunsAndWideBlocks) {
    std::mt19937 gen(29);
    struct shape_t {
        dims_t x;
        std::vector<int64_t> axes;
        std::vector<int> perm;
    };
    const shape_t shapes[] = {
            {{3, 5000}, {1}, {}},        // contiguous reduced run
            {{5000, 3}, {0}, {}},        // strided run, 3 outputs side by side
            {{9000}, {0}, {}},           // one output
            {{70, 71}, {0, 1}, {}},      // everything
            {{2, 3, 2100}, {1}, {}},     // kept block of 2100
            {{4, 9, 7, 7}, {2, 3}, {0, 2, 3, 1}}, // NHWC, spatial
            {{2, 33, 5, 11}, {1}, {}},   // channel sum of NCHW
    };
    for (data_type_t dt : {dnnl_bf16, dnnl_f16})
        for (const shape_t &sh : shapes)
            for (op_kind_t kind : {dnnl_graph_op_reduce_sum,
                         dnnl_graph_op_reduce_mean, dnnl_graph_op_reduce_max,
                         dnnl_graph_op_reduce_l2}) {
                check_half(kind, dt, sh.x, sh.axes, true, sh.perm,
                        kind == dnnl_graph_op_reduce_max, gen);
                if (HasFailure()) return;
            }
}

// bf16 and f16 are taken; src and dst of different types (outside the
// op's one type variable) are not.
TEST_F(CpuReduce, AcceptsOneHalfTypeOnly) {
    ir::op_t op;
    op.kind = dnnl_graph_op_reduce_sum;
    op.id = 1;
    op.inputs = {ir::make_lt(10, dnnl_bf16, {4, 6})};
    op.outputs = {ir::make_lt(11, dnnl_bf16, {4})};
    op.set_attr(dnnl_graph_op_attr_axes, ir::attr_value_t::make_s64s({1}));
    std::string why;
    EXPECT_TRUE(reduce::accepts(plan_test::plan_of(op), isa_t::avx2, &why)) << why;
    op.outputs[0].data_type = dnnl_f32;
    EXPECT_FALSE(reduce::accepts(plan_test::plan_of(op), isa_t::avx2, &why));
    EXPECT_NE(why.find("types differ"), std::string::npos) << why;
}

} // namespace
} // namespace cpu
} // namespace llga
