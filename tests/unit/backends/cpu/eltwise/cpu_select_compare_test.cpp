// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/eltwise/cpu_select_compare_test.cpp — GreaterEqual
// and Select on the cpu backend (backends/cpu/kernels/select_compare.cpp):
// values worked out by hand, then random numpy broadcasts of every operand in
// random dense orders (inputs also padded), every type the reference takes,
// every 16-bit pattern and f32 NaN payloads through Select, other splits of the
// parallel loop, in place, the Select step of a MatMul → Select partition, and
// what the kernel declines — bit for bit against the reference.
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/kernels/eltwise/select_compare.hpp"
#include "backends/ref/ref_backend.hpp"
#include "compiler/op_sequence.hpp"
#include "cpu_bcast_test_util.hpp"
#include "cpu_plan_test_util.hpp"
#include "ir/shape.hpp"
#include "ops/registry.hpp"
#include "runtime/engine.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace {

using bcast_test::relaid;
using plan_test::bytes_t;

class CpuSelectCompare : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

// GreaterEqual (a, b) or Select (cond, a, b) on the given tensors.
ir::op_t make(op_kind_t kind, std::vector<logical_tensor_t> in,
        logical_tensor_t out, const char *broadcast = "numpy") {
    ir::op_t op;
    op.kind = kind;
    op.id = 1;
    op.inputs = std::move(in);
    op.outputs = {out};
    op.set_attr(dnnl_graph_op_attr_auto_broadcast, ir::attr_value_t::make_str(broadcast));
    return op;
}

TEST_F(CpuSelectCompare, HandWorkedValues) {
    const float a[4] = {1.f, 2.f, NAN, -0.f}, b[4] = {1.f, 3.f, NAN, 0.f};
    ir::op_t ge = make(dnnl_graph_op_greater_equal,
            {ir::make_lt(1, dnnl_f32, {4}), ir::make_lt(2, dnnl_f32, {4})},
            ir::make_lt(3, dnnl_boolean, {4}));
    std::string kname;
    auto out = bcast_test::through_cpu(plan_test::plan_of(ge),
            {bytes_t((const char *)a, (const char *)a + 16),
                    bytes_t((const char *)b, (const char *)b + 16)},
            &kname);
    EXPECT_EQ(kname, "greater_equal_f32");
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0], (bytes_t {1, 0, 0, 1})); // NaN compares false; -0 >= 0
    // Select with cond [2, 1] against values [2, 3] and a scalar.
    const char cond[2] = {1, 0};
    const float v[6] = {1, 2, 3, 4, 5, 6}, s = -7.f;
    ir::op_t sel = make(dnnl_graph_op_select,
            {ir::make_lt(1, dnnl_boolean, {2, 1}), ir::make_lt(2, dnnl_f32, {2, 3}),
                    ir::make_lt(3, dnnl_f32, {1})},
            ir::make_lt(4, dnnl_f32, {2, 3}));
    out = bcast_test::through_cpu(plan_test::plan_of(sel),
            {bytes_t(cond, cond + 2), bytes_t((const char *)v, (const char *)v + 24),
                    bytes_t((const char *)&s, (const char *)&s + 4)},
            &kname);
    EXPECT_EQ(kname, "select_f32");
    ASSERT_EQ(out.size(), 1u);
    float got[6];
    std::memcpy(got, out[0].data(), 24);
    const float want[6] = {1, 2, 3, -7, -7, -7};
    for (int i = 0; i < 6; ++i)
        EXPECT_EQ(got[i], want[i]) << i;
}

// `d` with some dims made 1 and maybe some leading dims dropped.
dims_t broadcast_form(const dims_t &d, std::mt19937 &gen) {
    dims_t r = d;
    for (auto &x : r)
        if (gen() % 3 == 0) x = 1;
    const size_t drop = gen() % 3 == 0 ? gen() % (r.size() + 1) : 0;
    r.erase(r.begin(), r.begin() + static_cast<long>(std::min(drop, r.size() - 1)));
    return r;
}

dims_t random_shape(std::mt19937 &gen) {
    const int64_t sizes[] = {1, 2, 3, 4, 5, 7, 8, 13, 17, 33};
    dims_t d(1 + gen() % 5);
    int64_t n = 1;
    for (auto &x : d) {
        x = sizes[gen() % 10];
        if (n * x > 40000) x = 1;
        n *= x;
    }
    return d;
}

// A random GreaterEqual or Select case: types, broadcasts and layouts.
compiler::plan_t random_case(bool select, data_type_t dt, std::mt19937 &gen,
        std::string &what) {
    const dims_t full = random_shape(gen);
    std::vector<dims_t> d;
    dims_t out;
    do {
        d = {broadcast_form(full, gen), broadcast_form(full, gen)};
    } while (!ir::broadcast_shapes(d[0], d[1], out));
    if (select) d.insert(d.begin(), broadcast_form(out, gen));
    std::vector<logical_tensor_t> in;
    for (size_t k = 0; k < d.size(); ++k) {
        const data_type_t t = select && k == 0 ? dnnl_boolean : dt;
        // Inputs: row-major, another dense order, or padded.
        in.push_back(relaid(ir::make_lt(10 + k, t, d[k]), gen() % 3, gen));
        what += ir::dims_to_string(d[k]) + " ";
    }
    const logical_tensor_t o = relaid(
            ir::make_lt(20, select ? dt : dnnl_boolean, out), gen() % 2, gen);
    what += "-> " + ir::dims_to_string(out);
    ir::op_t op = make(select ? dnnl_graph_op_select : dnnl_graph_op_greater_equal,
            in, o);
    EXPECT_EQ(ops::verify_op(op), dnnl_success) << last_error() << " " << what;
    return plan_test::plan_of(op);
}

std::vector<bytes_t> inputs_of(const compiler::plan_t &p, std::mt19937 &gen) {
    std::vector<bytes_t> in;
    for (const auto &lt : p.inputs)
        in.push_back(bcast_test::values(lt, gen));
    return in;
}

const char *type_name(data_type_t dt) {
    return dt == dnnl_f32 ? "f32"
            : dt == dnnl_bf16 ? "bf16"
            : dt == dnnl_f16  ? "f16"
                              : "s32";
}

TEST_F(CpuSelectCompare, RandomBroadcastsMatchTheReferenceBitForBit) {
    std::mt19937 gen(11);
    for (int select = 0; select < 2; ++select)
        for (data_type_t dt : {dnnl_f32, dnnl_bf16, dnnl_f16, dnnl_s32}) {
            if (select && dt == dnnl_s32) continue;
            for (int c = 0; c < 60; ++c) {
                std::string what = std::string(select ? "Select " : "GreaterEqual ")
                        + type_name(dt) + " ";
                const compiler::plan_t p = random_case(select, dt, gen, what);
                if (HasFailure()) return;
                bcast_test::expect_reference(p, inputs_of(p, gen),
                        std::string(select ? "select_" : "greater_equal_")
                                + type_name(dt),
                        what);
                if (HasFailure()) return;
            }
        }
}

// Select copies bits but for NaN, which the reference quiets on its way
// through double (f16: to the canonical NaN).
TEST_F(CpuSelectCompare, SelectKeepsEveryBitPatternAsTheReferenceDoes) {
    for (data_type_t dt : {dnnl_bf16, dnnl_f16, dnnl_f32}) {
        const int64_t n = dt == dnnl_f32 ? 4096 : 65536;
        ir::op_t op = make(dnnl_graph_op_select,
                {ir::make_lt(1, dnnl_boolean, {n}), ir::make_lt(2, dt, {n}),
                        ir::make_lt(3, dt, {n})},
                ir::make_lt(4, dt, {n}));
        const compiler::plan_t p = plan_test::plan_of(op);
        std::vector<bytes_t> in = {bytes_t(n, 0), bytes_t(ir::mem_size(op.inputs[1])),
                bytes_t(ir::mem_size(op.inputs[2]))};
        std::mt19937 gen(3);
        for (int64_t i = 0; i < n; ++i) {
            in[0][i] = static_cast<char>(i % 2);
            if (dt == dnnl_f32) {
                // Both NaN kinds with payloads, infinities and neighbours.
                const uint32_t base[] = {0x7f800000u, 0xff800000u, 0x7fc00000u,
                        0x00000000u};
                const uint32_t u = base[i % 4] + static_cast<uint32_t>(gen() % 0x800000u);
                std::memcpy(&in[1][i * 4], &u, 4);
                std::memcpy(&in[2][i * 4], &u, 4);
            } else {
                const uint16_t h = static_cast<uint16_t>(i);
                std::memcpy(&in[1][i * 2], &h, 2);
                std::memcpy(&in[2][i * 2], &h, 2);
            }
        }
        bcast_test::expect_reference(p, in, std::string("select_") + type_name(dt),
                type_name(dt));
    }
}

TEST_F(CpuSelectCompare, NoBroadcastModeAndOtherLoopSplits) {
    std::mt19937 gen(5);
    const dims_t d = {3, 70, 129};
    for (int select = 0; select < 2; ++select) {
        std::vector<logical_tensor_t> in = {ir::make_lt(1, dnnl_f32, d),
                relaid(ir::make_lt(2, dnnl_f32, d), 1, gen)};
        if (select) in.insert(in.begin(), ir::make_lt(3, dnnl_boolean, d));
        ir::op_t op = make(select ? dnnl_graph_op_select : dnnl_graph_op_greater_equal,
                in, relaid(ir::make_lt(4, select ? dnnl_f32 : dnnl_boolean, d), 1, gen),
                "none");
        ASSERT_EQ(ops::verify_op(op), dnnl_success) << last_error();
        const compiler::plan_t p = plan_test::plan_of(op);
        const std::vector<bytes_t> in_b = inputs_of(p, gen);
        const std::string name = select ? "select_f32" : "greater_equal_f32";
        bcast_test::expect_reference(p, in_b, name, "threaded");
        bcast_test::under_other_splits([&](const char *how) {
            bcast_test::expect_reference(p, in_b, name, how);
        });
    }
}

TEST_F(CpuSelectCompare, SelectInPlaceOnSrc0) {
    std::mt19937 gen(7);
    ir::op_t op = make(dnnl_graph_op_select,
            {ir::make_lt(1, dnnl_boolean, {5, 1, 9}),
                    ir::make_lt(2, dnnl_f32, {5, 40, 9}),
                    ir::make_lt(3, dnnl_f32, {40, 1})},
            ir::make_lt(4, dnnl_f32, {5, 40, 9}));
    const compiler::plan_t p = plan_test::plan_of(op);
    const std::vector<bytes_t> in = inputs_of(p, gen);
    const std::vector<bytes_t> want = bcast_test::reference(p, in);
    std::string kname;
    const auto got = bcast_test::through_cpu(p, in, &kname, 1);
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(bcast_test::first_difference(p.outputs[0], got[0], want[0]), -1);
}

// The Select after a MatMul in one partition (corpus matmul_select) runs
// as a step of the op sequence on this kernel, not on the reference.
TEST_F(CpuSelectCompare, SelectStepOfAMatMulPartition) {
    plan_test::plan_builder_t b;
    const logical_tensor_t x = b.in({1, 4, 8, 16}), w = b.in({1, 4, 16, 8});
    const logical_tensor_t mm = b.add(dnnl_graph_op_matmul, {x, w}, {1, 4, 8, 8});
    const logical_tensor_t cond = b.in({1, 1, 8, 8}, dnnl_boolean);
    const logical_tensor_t fill = b.in({1});
    b.add(dnnl_graph_op_select, {cond, fill, mm}, {1, 4, 8, 8}, dnnl_f32,
            [](ir::op_t &o) {
                o.set_attr(dnnl_graph_op_attr_auto_broadcast,
                        ir::attr_value_t::make_str("numpy"));
            });
    const compiler::plan_t p = b.plan();
    std::shared_ptr<const compiler::kernel_t> k;
    ASSERT_EQ(compiler::compile_op_sequence(p, {&cpu_backend(), &ref::ref_backend()}, k),
            dnnl_success) << last_error();
    const std::string name = k->name();
    EXPECT_NE(name.find("+select_f32)"), std::string::npos) << name;
    EXPECT_EQ(name.find("ref"), std::string::npos) << name;
    std::mt19937 gen(9);
    std::vector<bytes_t> in;
    for (const auto &lt : p.inputs)
        in.push_back(lt.data_type == dnnl_boolean
                        ? bcast_test::values(lt, gen)
                        : plan_test::random_bytes(lt, gen, -1, 1));
    const auto want = plan_test::run_ref(p, in).at(p.outputs[0].id);
    rt::engine_t eng(dnnl_cpu, 0, rt::allocator_t());
    compiler::exec_ctx_t ctx;
    ctx.engine = &eng;
    ctx.allocator = &eng.allocator();
    for (const auto &v : in)
        ctx.inputs.push_back(v.data());
    bytes_t got(want.size(), static_cast<char>(0xff));
    ctx.outputs = {got.data()};
    ASSERT_EQ(k->execute(ctx), dnnl_success) << last_error();
    // The masked elements are the fill value exactly; the others the
    // MatMul's (summation order may differ from the reference's).
    for (size_t i = 0; i < got.size() / 4; ++i) {
        float g, r;
        std::memcpy(&g, &got[i * 4], 4);
        std::memcpy(&r, &want[i * 4], 4);
        EXPECT_NEAR(g, r, 1e-5f) << i;
    }
}

TEST_F(CpuSelectCompare, DeclinesWithAReason) {
    std::string why;
    auto plan = [](ir::op_t op) { return plan_test::plan_of(op); };
    // GreaterEqual of s8, Select of s32 values: not types the reference has.
    EXPECT_FALSE(select_compare::accepts(plan(make(dnnl_graph_op_greater_equal,
                    {ir::make_lt(1, dnnl_s8, {4}), ir::make_lt(2, dnnl_s8, {4})},
                    ir::make_lt(3, dnnl_boolean, {4}))), isa_t::avx2, &why));
    EXPECT_NE(why.find("unsupported data types"), std::string::npos) << why;
    EXPECT_FALSE(select_compare::accepts(plan(make(dnnl_graph_op_select,
                    {ir::make_lt(1, dnnl_boolean, {4}), ir::make_lt(2, dnnl_s32, {4}),
                            ir::make_lt(3, dnnl_s32, {4})},
                    ir::make_lt(4, dnnl_s32, {4}))), isa_t::avx2, &why));
    EXPECT_NE(why.find("unsupported data types"), std::string::npos) << why;
    // A padded output.
    logical_tensor_t o = ir::make_lt(3, dnnl_boolean, {4, 3});
    o.layout.strides[0] = 4;
    EXPECT_FALSE(select_compare::accepts(plan(make(dnnl_graph_op_greater_equal,
                    {ir::make_lt(1, dnnl_f32, {4, 3}), ir::make_lt(2, dnnl_f32, {3})},
                    o)),
            isa_t::avx2, &why));
    EXPECT_NE(why.find("not dense"), std::string::npos) << why;
    // Other ops.
    EXPECT_FALSE(select_compare::accepts(plan(make(dnnl_graph_op_add,
                    {ir::make_lt(1, dnnl_f32, {4}), ir::make_lt(2, dnnl_f32, {4})},
                    ir::make_lt(3, dnnl_f32, {4}))), isa_t::avx2, &why));
    EXPECT_NE(why.find("not GreaterEqual or Select"), std::string::npos) << why;
}

} // namespace
} // namespace cpu
} // namespace llga
