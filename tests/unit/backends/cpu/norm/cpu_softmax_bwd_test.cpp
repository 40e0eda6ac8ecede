// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/norm/cpu_softmax_bwd_test.cpp — SoftMaxBackward and
// LogSoftmaxBackward on the cpu backend (backends/cpu/kernels/
// softmax_bwd.cpp) on random ranks, axes (negative too), lengths, and
// tensors stored in permuted or padded orders, which take each of its
// walks (a dense run after the axis, a slice contiguous along it, any
// strides, a unit-stride dim elsewhere as the inner run), in f32, bf16
// and f16 (diff_src of SoftMaxBackward also f32 from 16-bit inputs).
// SoftMaxBackward against the reference ops bit for
// bit; LogSoftmaxBackward against dy - e^y s computed here in double from
// the logical indices, within 2^-21 |e^y s| (the f32 exp's 1.14 ulp, with
// room) plus one rounding of the result into its type (f32: 2^-23
// relative; bf16, f16: one unit). And the type combinations the kernel
// declines.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/isa.hpp"
#include "backends/cpu/kernels/norm/softmax_bwd.hpp"
#include "cpu_layout_test_util.hpp"
#include "cpu_norm_test_util.hpp"
#include "cpu_plan_test_util.hpp"
#include "cpu_test_isa.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ir/shape.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace {

using layout_test::permuted;
using plan_test::bytes_t;

// dy - e^y s with s the sum of dy over the axis, in double, for every
// element of `got` (all three tensors in their own layouts and types).
void expect_log_softmax_bwd(const compiler::plan_t &p,
        const std::vector<bytes_t> &in, const bytes_t &got, int64_t axis,
        const std::string &what) {
    const logical_tensor_t &tg = p.inputs[0], &ty = p.inputs[1],
                           &to = p.outputs[0];
    const int r = tg.ndims;
    const dims_t d = ir::dims_of(tg);
    const auto at = [&](const logical_tensor_t &t, const void *b,
                            const int64_t *idx) {
        return ir::load_value(t.data_type, b, ir::offset_of(idx, t.layout.strides, r));
    };
    // One rounding of the result into its type, relative (and, for f16,
    // absolute below its normal range).
    const double rel = to.data_type == dnnl_f32 ? std::ldexp(1.0, -23)
            : to.data_type == dnnl_bf16     ? std::ldexp(1.0, -7)
                                            : std::ldexp(1.0, -10);
    const double abs = to.data_type == dnnl_f16 ? std::ldexp(1.0, -24) : 0.0;
    int bad = 0;
    for (int64_t i = 0; i < ir::product(d); ++i) {
        int64_t idx[DNNL_MAX_NDIMS];
        ir::unravel(i, d, idx);
        double s = 0;
        const int64_t a = idx[axis];
        for (int64_t k = 0; k < d[axis]; ++k) {
            idx[axis] = k;
            s += at(tg, in[0].data(), idx);
        }
        idx[axis] = a;
        const double e = std::exp(at(ty, in[1].data(), idx));
        const double want = at(tg, in[0].data(), idx) - e * s;
        const double v = at(to, got.data(), idx);
        const double tol = std::ldexp(std::fabs(e * s), -21)
                + rel * std::fabs(want) + abs;
        if (!(std::fabs(v - want) <= tol) && bad++ < 3)
            ADD_FAILURE() << what << " element " << i << " got " << v
                          << " want " << want << " tol " << tol;
    }
}

// `p` (input types possibly 16-bit) at every JIT level through kernel
// `kname`: SoftMaxBackward bit for bit against the reference,
// LogSoftmaxBackward within expect_log_softmax_bwd's bound (axis >= 0).
void expect_half_result(const compiler::plan_t &p,
        const std::vector<bytes_t> &in, bool log, const std::string &kname,
        int64_t axis, const std::string &what) {
    if (!log) {
        normtest::expect_same_bytes(p, in, kname, what);
        return;
    }
    for (isa_t isa : normtest::jit_levels()) {
        test_isa::isa_guard_t guard(isa);
        bytes_t got;
        std::string name;
        ASSERT_TRUE(plan_test::run_jit(p, in, got, &name)) << what;
        ASSERT_EQ(name, kname) << what;
        expect_log_softmax_bwd(p, in, got, axis, what + " at " + isa_name(isa));
    }
}

class CpuSoftmaxBwd : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

TEST_F(CpuSoftmaxBwd, BothKindsOnEveryWalk) {
    std::mt19937 gen(13);
    for (int trial = 0; trial < 120; ++trial) {
        const bool log = trial % 2;
        const int r = 1 + static_cast<int>(gen() % 4);
        dims_t d;
        for (int k = 0; k < r; ++k)
            d.push_back(1 + static_cast<int64_t>(gen() % (k == r - 1 ? 70 : 6)));
        ir::op_t op;
        op.kind = log ? dnnl_graph_op_log_softmax_backward
                      : dnnl_graph_op_softmax_backward;
        op.id = 1;
        const bool strided = gen() % 3 == 0;
        op.inputs = {strided ? permuted(10, d, gen) : ir::make_lt(10, dnnl_f32, d),
                strided ? permuted(11, d, gen) : ir::make_lt(11, dnnl_f32, d)};
        op.outputs = {strided ? permuted(12, d, gen) : ir::make_lt(12, dnnl_f32, d)};
        const int64_t axis = static_cast<int64_t>(gen() % r) - (gen() % 2 ? r : 0);
        op.set_attr(dnnl_graph_op_attr_axis, ir::attr_value_t::make_s64(axis));
        const compiler::plan_t p = plan_test::plan_of(op);
        // dst of a forward softmax lies in (0, 1); of a log-softmax below 0.
        const std::vector<bytes_t> in = {
                plan_test::random_bytes(p.inputs[0], gen, -1.f, 1.f),
                plan_test::random_bytes(p.inputs[1], gen, log ? -6.f : 0.f,
                        log ? 0.f : 1.f)};
        const std::string what
                = ir::dims_to_string(d) + " axis " + std::to_string(axis);
        if (!log) {
            const auto want = plan_test::run_ref(p, in);
            plan_test::expect_f32_like(p, in, want.at(12), "softmax_backward",
                    what);
        } else {
            for (isa_t isa :
                    test_isa::host_levels({isa_t::avx2, isa_t::avx512_core})) {
                test_isa::isa_guard_t guard(isa);
                bytes_t got;
                std::string kname;
                ASSERT_TRUE(plan_test::run_jit(p, in, got, &kname)) << what;
                ASSERT_NE(kname.find("logsoftmax_backward"), std::string::npos);
                expect_log_softmax_bwd(p, in, got, axis < 0 ? axis + r : axis,
                        what + " at " + isa_name(isa));
            }
        }
        if (HasFailure()) return;
    }
}

// A dense run after the axis longer than one task's chunk (2048
// positions): 2 x 5 x 45 x 50 over the channels, 2250 positions per
// image in two chunks.
TEST_F(CpuSoftmaxBwd, LongInnerRunsInChunks) {
    std::mt19937 gen(17);
    const dims_t d = {2, 5, 45, 50};
    for (bool log : {false, true}) {
        ir::op_t op;
        op.kind = log ? dnnl_graph_op_log_softmax_backward
                      : dnnl_graph_op_softmax_backward;
        op.id = 1;
        op.inputs = {ir::make_lt(10, dnnl_f32, d), ir::make_lt(11, dnnl_f32, d)};
        op.outputs = {ir::make_lt(12, dnnl_f32, d)};
        op.set_attr(dnnl_graph_op_attr_axis, ir::attr_value_t::make_s64(1));
        const compiler::plan_t p = plan_test::plan_of(op);
        const std::vector<bytes_t> in = {
                plan_test::random_bytes(p.inputs[0], gen, -1.f, 1.f),
                plan_test::random_bytes(p.inputs[1], gen, log ? -6.f : 0.f,
                        log ? 0.f : 1.f)};
        if (!log) {
            plan_test::expect_f32_like(p, in, plan_test::run_ref(p, in).at(12),
                    "softmax_backward", "long run");
            continue;
        }
        bytes_t got;
        std::string kname;
        ASSERT_TRUE(plan_test::run_jit(p, in, got, &kname));
        expect_log_softmax_bwd(p, in, got, 1, "long run");
    }
}

// A SoftMaxBackward or LogSoftmaxBackward op: diff_dst and dst of type
// dt, diff_src of type out, all three of dims d in layout `lay` (0 dense
// row-major, 1 a random dense order, 2 padded strides in a random order).
ir::op_t softmax_bwd_op(bool log, const dims_t &d, data_type_t dt,
        data_type_t out, int64_t axis, int lay, std::mt19937 &gen) {
    const auto make = [&](size_t id, data_type_t t) {
        logical_tensor_t lt = ir::make_lt(id, t, d);
        if (lay == 1) lt = layout_test::permuted(id, d, gen);
        if (lay == 2) {
            std::vector<int> order(d.size());
            std::iota(order.begin(), order.end(), 0);
            std::shuffle(order.begin(), order.end(), gen);
            const dims_t st = layout_test::padded_strides(d, order, gen);
            for (size_t k = 0; k < st.size(); ++k)
                lt.layout.strides[k] = st[k];
        }
        lt.data_type = t;
        return lt;
    };
    ir::op_t op;
    op.kind = log ? dnnl_graph_op_log_softmax_backward
                  : dnnl_graph_op_softmax_backward;
    op.id = 1;
    op.inputs = {make(10, dt), make(11, dt)};
    op.outputs = {make(12, out)};
    op.set_attr(dnnl_graph_op_attr_axis, ir::attr_value_t::make_s64(axis));
    return op;
}

// bf16 and f16 tensors run natively (the kernel name says the type), on
// every walk: random ranks, axes and odd lengths in dense, permuted and
// padded layouts; slices longer than one 2048-element piece along a
// contiguous axis and inner runs longer than one chunk; more slices than
// one side-by-side group of sums (8), with a remainder; SoftMaxBackward
// also with an f32 diff_src.
TEST_F(CpuSoftmaxBwd, HalfTypesOnEveryWalk) {
    std::mt19937 gen(29);
    for (int trial = 0; trial < 200; ++trial) {
        const bool log = trial % 2;
        const data_type_t dt = trial / 2 % 2 ? dnnl_f16 : dnnl_bf16;
        const data_type_t out = !log && trial % 3 == 0 ? dnnl_f32 : dt;
        dims_t d;
        int64_t axis;
        int lay = static_cast<int>(gen() % 3);
        if (trial % 25 == 3) { // contiguous slices of two pieces and a tail
            d = {3, 2500};
            axis = 1;
            lay = 0;
        } else if (trial % 25 == 8) { // inner runs of two chunks
            d = {2, 3, 2100};
            axis = 1;
            lay = 0;
        } else {
            const int r = 1 + static_cast<int>(gen() % 4);
            for (int k = 0; k < r; ++k)
                d.push_back(1 + static_cast<int64_t>(gen() % (k == r - 1 ? 70 : 6)));
            axis = static_cast<int64_t>(gen() % r) - (gen() % 2 ? r : 0);
        }
        const int r = static_cast<int>(d.size());
        const compiler::plan_t p = plan_test::plan_of(
                softmax_bwd_op(log, d, dt, out, axis, lay, gen));
        const std::vector<bytes_t> in = {
                plan_test::random_bytes(p.inputs[0], gen, -1.f, 1.f),
                plan_test::random_bytes(p.inputs[1], gen, log ? -6.f : 0.f,
                        log ? 0.f : 1.f)};
        const std::string kname = std::string(log ? "logsoftmax" : "softmax")
                + "_backward_" + ir::dtype_name(dt);
        const std::string what = kname + " -> " + ir::dtype_name(out) + " "
                + ir::dims_to_string(d) + " axis " + std::to_string(axis)
                + " layout " + std::to_string(lay);
        expect_half_result(p, in, log, kname, axis < 0 ? axis + r : axis, what);
        if (HasFailure()) return;
    }
}

// Slices strided along the axis with no dense run after it, where a
// dim of unit stride in all three tensors (before the axis, or after it
// in a permuted order) becomes the inner run: run lengths off the 8-wide
// conversions (37, 5, 13) and longer than one 2048-position chunk
// (2100), padded strides; and diff_src of another order, which leaves
// no such dim (the strided walk). f32, bf16 and f16, both kinds.
TEST_F(CpuSoftmaxBwd, UnitStrideDimAsTheInnerRun) {
    std::mt19937 gen(31);
    struct shape_t {
        dims_t d, st, out_st;
        int64_t axis;
    };
    const std::vector<shape_t> shapes = {
            {{37, 5}, {1, 37}, {}, 1},
            {{5, 7}, {1, 8}, {}, 1},               // padded
            {{2100, 3}, {1, 2100}, {}, 1},         // two chunks
            {{3, 9, 11}, {99, 1, 9}, {}, 2},       // unit dim before the axis
            {{2, 13, 4, 6}, {312, 1, 78, 13}, {}, 3},
            {{4, 6, 5}, {5, 20, 1}, {}, 0},        // unit dim after the axis
            {{3, 9, 11}, {99, 1, 9}, {99, 11, 1}, 2}, // diff_src row-major
    };
    for (const shape_t &sh : shapes)
        for (data_type_t dt : {dnnl_f32, dnnl_bf16, dnnl_f16})
            for (bool log : {false, true}) {
                ir::op_t op
                        = softmax_bwd_op(log, sh.d, dt, dt, sh.axis, 0, gen);
                for (logical_tensor_t *t :
                        {&op.inputs[0], &op.inputs[1], &op.outputs[0]}) {
                    const dims_t &st = t == &op.outputs[0] && !sh.out_st.empty()
                            ? sh.out_st
                            : sh.st;
                    for (size_t k = 0; k < st.size(); ++k)
                        t->layout.strides[k] = st[k];
                }
                const compiler::plan_t p = plan_test::plan_of(op);
                const std::vector<bytes_t> in = {
                        plan_test::random_bytes(p.inputs[0], gen, -1.f, 1.f),
                        plan_test::random_bytes(p.inputs[1], gen,
                                log ? -6.f : 0.f, log ? 0.f : 1.f)};
                const std::string kname
                        = std::string(log ? "logsoftmax" : "softmax")
                        + "_backward_" + ir::dtype_name(dt);
                const std::string what = kname + " "
                        + ir::dims_to_string(sh.d) + " strides "
                        + ir::dims_to_string(sh.st) + " axis "
                        + std::to_string(sh.axis);
                expect_half_result(p, in, log, kname, sh.axis, what);
                if (HasFailure()) return;
            }
}

// Types outside the spec's: diff_dst and dst of two types, a 16-bit
// diff_src of the other 16-bit type, an f32 diff_src of
// LogSoftmaxBackward (its three tensors share one type).
TEST_F(CpuSoftmaxBwd, DeclinesTypesTheSpecDoesNot) {
    std::mt19937 gen(3);
    const dims_t d = {2, 5, 7};
    std::string why;
    ir::op_t op = softmax_bwd_op(false, d, dnnl_bf16, dnnl_bf16, 1, 0, gen);
    EXPECT_TRUE(softmax_bwd::accepts(plan_test::plan_of(op), isa_t::avx2, &why))
            << why;
    op.inputs[1].data_type = dnnl_f16;
    EXPECT_FALSE(softmax_bwd::accepts(plan_test::plan_of(op), isa_t::avx2, &why));
    EXPECT_NE(why.find("diff_dst and dst"), std::string::npos) << why;
    op = softmax_bwd_op(false, d, dnnl_bf16, dnnl_f16, 1, 0, gen);
    EXPECT_FALSE(softmax_bwd::accepts(plan_test::plan_of(op), isa_t::avx2, &why));
    EXPECT_NE(why.find("diff_src"), std::string::npos) << why;
    op = softmax_bwd_op(true, d, dnnl_f16, dnnl_f32, 1, 0, gen);
    EXPECT_FALSE(softmax_bwd::accepts(plan_test::plan_of(op), isa_t::avx2, &why));
    EXPECT_NE(why.find("diff_src"), std::string::npos) << why;
}

} // namespace
} // namespace cpu
} // namespace llga
