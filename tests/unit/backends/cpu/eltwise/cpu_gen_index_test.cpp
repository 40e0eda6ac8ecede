// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/eltwise/cpu_gen_index_test.cpp — GenIndex on the cpu
// backend (backends/cpu/kernels/gen_index.cpp): a hand-worked case, every axis
// (negative too) of random shapes with the output in random dense orders, other
// splits of the parallel loop, and what the kernel declines — byte for byte
// against the reference.
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/kernels/eltwise/gen_index.hpp"
#include "cpu_bcast_test_util.hpp"
#include "cpu_plan_test_util.hpp"
#include "ops/registry.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace {

using plan_test::bytes_t;

class CpuGenIndex : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

ir::op_t make(const dims_t &d, int64_t axis, const logical_tensor_t *out = nullptr) {
    ir::op_t op;
    op.kind = dnnl_graph_op_gen_index;
    op.id = 1;
    op.inputs = {ir::make_lt(1, dnnl_f32, d)};
    op.outputs = {out ? *out : ir::make_lt(2, dnnl_s32, d)};
    op.set_attr(dnnl_graph_op_attr_axis, ir::attr_value_t::make_s64(axis));
    return op;
}

TEST_F(CpuGenIndex, HandWorkedValues) {
    for (int64_t axis : {0, -1}) {
        std::string kname;
        const auto out = bcast_test::through_cpu(plan_test::plan_of(make({2, 3}, axis)),
                {bytes_t(24)}, &kname);
        EXPECT_EQ(kname, "gen_index_s32");
        ASSERT_EQ(out.size(), 1u);
        int32_t v[6];
        std::memcpy(v, out[0].data(), 24);
        const std::vector<int32_t> want = axis == 0
                ? std::vector<int32_t> {0, 0, 0, 1, 1, 1}
                : std::vector<int32_t> {0, 1, 2, 0, 1, 2};
        EXPECT_EQ(std::vector<int32_t>(v, v + 6), want) << axis;
    }
}

TEST_F(CpuGenIndex, EveryAxisOfRandomShapesAndOrders) {
    std::mt19937 gen(31);
    const int64_t sizes[] = {1, 2, 3, 5, 8, 13, 64};
    for (int c = 0; c < 60; ++c) {
        dims_t d(1 + gen() % 5);
        int64_t n = 1;
        for (auto &x : d) {
            x = sizes[gen() % 7];
            if (n * x > 100000) x = 1;
            n *= x;
        }
        const int r = static_cast<int>(d.size());
        for (int64_t axis = -r; axis < r; ++axis) {
            const logical_tensor_t o = bcast_test::relaid(
                    ir::make_lt(2, dnnl_s32, d), static_cast<int>(gen() % 2), gen);
            ir::op_t op = make(d, axis, &o);
            op.inputs[0] = bcast_test::relaid(
                    op.inputs[0], static_cast<int>(gen() % 3), gen);
            ASSERT_EQ(ops::verify_op(op), dnnl_success) << last_error();
            const compiler::plan_t p = plan_test::plan_of(op);
            bcast_test::expect_reference(p, {bytes_t(ir::mem_size(op.inputs[0]))},
                    "gen_index_s32",
                    ir::dims_to_string(d) + " axis " + std::to_string(axis));
            if (HasFailure()) return;
        }
    }
}

TEST_F(CpuGenIndex, OtherLoopSplitsGiveTheSameValues) {
    std::mt19937 gen(32);
    const logical_tensor_t o
            = bcast_test::relaid(ir::make_lt(2, dnnl_s32, {3, 100, 300}), 1, gen);
    const compiler::plan_t p = plan_test::plan_of(make({3, 100, 300}, 1, &o));
    bcast_test::under_other_splits([&](const char *how) {
        bcast_test::expect_reference(
                p, {bytes_t(3 * 100 * 300 * 4)}, "gen_index_s32", how);
    });
}

TEST_F(CpuGenIndex, DeclinesWithAReason) {
    std::string why;
    logical_tensor_t o = ir::make_lt(2, dnnl_s32, {4, 3});
    o.layout.strides[0] = 5;
    EXPECT_FALSE(gen_index::accepts(
            plan_test::plan_of(make({4, 3}, 0, &o)), isa_t::avx2, &why));
    EXPECT_NE(why.find("not dense"), std::string::npos) << why;
    o = ir::make_lt(2, dnnl_f32, {4, 3});
    EXPECT_FALSE(gen_index::accepts(
            plan_test::plan_of(make({4, 3}, 0, &o)), isa_t::avx2, &why));
    EXPECT_NE(why.find("not s32"), std::string::npos) << why;
}

} // namespace
} // namespace cpu
} // namespace llga
