// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/pool/cpu_pool_int8_test.cpp — quantized max pooling
// (backends/cpu/kernels/pool_int8.cpp): Dequantize (u8/s8) -> MaxPool ->
// elementwise ops with one operand value per plane (f32, or an s8/u8 input
// dequantized) -> [Quantize, TypeCast] against the reference ops run one
// by one, bit for bit: 1D/2D/3D windows with strides 1, 2 and 3, dilation,
// padding, ceil rounding, odd widths (the stride-2 split's tail), u8 and
// s8 sources with zero points, f32, bf16, u8 and s8 outputs, GELU in the
// chain; and what it must decline.
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/cpu/isa.hpp"
#include "backends/cpu/kernels/pool/pool_int8.hpp"
#include "base/status.hpp"
#include "cpu_plan_test_util.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace {

using ir::attr_value_t;
using plan_test::bytes_t;
using plan_test::make_op;

class CpuPoolInt8 : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

struct qpool_t {
    dims_t x; // N, C, spatial (NCX)
    std::vector<int64_t> k, s, d, pb, pe;
    bool ceil_mode = false;
    bool s8 = false;
    // After the pool: 0 nothing; 1 Add(per-channel u8, dequantized),
    // Multiply(per image and channel f32), ReLU; 2 GELU, Subtract(one
    // f32 value); 3 Maximum(per-channel s8, dequantized). Residuals (an
    // operand per element: the per-element tail): 4 Multiply(f32 with
    // NaNs), Add(per-channel u8, dequantized), Clamp; 5 Add(per-channel
    // f32), Maximum(f32 residual with NaNs, as the first operand),
    // Subtract(s8 residual, dequantized, as the first operand), ReLU.
    int chain = 0;
    data_type_t out = dnnl_u8; // u8/s8 (Quantize), f32, bf16 (TypeCast)
    std::string str() const {
        std::string r = s8 ? "s8" : "u8";
        for (int64_t v : x)
            r += " " + std::to_string(v);
        r += " k";
        for (int64_t v : k)
            r += std::to_string(v);
        r += " s";
        for (int64_t v : s)
            r += std::to_string(v);
        return r + (ceil_mode ? " ceil" : "") + " chain" + std::to_string(chain)
                + " -> " + ir::dtype_name(out);
    }
};

using plan_test::set_quant;

compiler::plan_t build(const qpool_t &c) {
    size_t id = 100;
    auto lt = [&](data_type_t dt, const dims_t &d) {
        return ir::make_lt(id++, dt, d);
    };
    compiler::plan_t p;
    const logical_tensor_t x = lt(c.s8 ? dnnl_s8 : dnnl_u8, c.x),
                           xf = lt(dnnl_f32, c.x);
    p.inputs = {x};
    ir::op_t dq = make_op(dnnl_graph_op_dequantize, {x}, xf);
    set_quant(dq, 0.0371f, c.s8 ? -5 : 17);
    ir::op_t pool = make_op(dnnl_graph_op_max_pool, {xf},
            ir::make_lt_unknown(id++, dnnl_f32));
    using av = attr_value_t;
    pool.set_attr(dnnl_graph_op_attr_kernel, av::make_s64s(c.k));
    pool.set_attr(dnnl_graph_op_attr_strides, av::make_s64s(c.s));
    pool.set_attr(dnnl_graph_op_attr_dilations, av::make_s64s(c.d));
    pool.set_attr(dnnl_graph_op_attr_pads_begin, av::make_s64s(c.pb));
    pool.set_attr(dnnl_graph_op_attr_pads_end, av::make_s64s(c.pe));
    pool.set_attr(dnnl_graph_op_attr_data_format, av::make_str("NCX"));
    pool.set_attr(dnnl_graph_op_attr_rounding_type,
            av::make_str(c.ceil_mode ? "ceil" : "floor"));
    EXPECT_EQ(ops::verify_op(pool), dnnl_success) << c.str();
    EXPECT_EQ(ops::infer_shapes(pool), dnnl_success) << c.str();
    const dims_t yd = ir::dims_of(pool.outputs[0]);
    pool.outputs[0] = lt(dnnl_f32, yd);
    p.ops = {dq, pool};
    logical_tensor_t y = pool.outputs[0];
    dims_t pc(yd.size(), 1), pnc(yd.size(), 1);
    pc[1] = yd[1];
    pnc[0] = yd[0];
    pnc[1] = yd[1];
    auto binary = [&](op_kind_t k, data_type_t odt, const dims_t &od) {
        logical_tensor_t o = lt(dnnl_f32, od);
        if (odt == dnnl_f32) {
            p.inputs.push_back(o);
        } else {
            const logical_tensor_t q = lt(odt, od);
            p.inputs.push_back(q);
            p.ops.push_back(make_op(dnnl_graph_op_dequantize, {q}, o));
            set_quant(p.ops.back(), 0.05f, odt == dnnl_u8 ? 120 : 3);
        }
        const logical_tensor_t z = lt(dnnl_f32, yd);
        p.ops.push_back(make_op(k, {y, o}, z));
        y = z;
    };
    auto unary = [&](op_kind_t k) {
        const logical_tensor_t z = lt(dnnl_f32, yd);
        p.ops.push_back(make_op(k, {y}, z));
        y = z;
    };
    if (c.chain == 1) {
        binary(dnnl_graph_op_add, dnnl_u8, pc);
        binary(dnnl_graph_op_multiply, dnnl_f32, pnc);
        unary(dnnl_graph_op_relu);
    } else if (c.chain == 2) {
        unary(dnnl_graph_op_gelu);
        binary(dnnl_graph_op_subtract, dnnl_f32, {1});
    } else if (c.chain == 3) {
        binary(dnnl_graph_op_maximum, dnnl_s8, pc);
    } else if (c.chain == 4) {
        binary(dnnl_graph_op_multiply, dnnl_f32, yd);
        binary(dnnl_graph_op_add, dnnl_u8, pc);
        unary(dnnl_graph_op_clamp);
        p.ops.back().set_attr(dnnl_graph_op_attr_min, attr_value_t::make_f32(-1.5f));
        p.ops.back().set_attr(dnnl_graph_op_attr_max, attr_value_t::make_f32(2.25f));
    } else if (c.chain == 5) {
        binary(dnnl_graph_op_add, dnnl_f32, pc);
        binary(dnnl_graph_op_maximum, dnnl_f32, yd);
        std::swap(p.ops.back().inputs[0], p.ops.back().inputs[1]); // NaN first
        binary(dnnl_graph_op_subtract, dnnl_s8, yd);
        std::swap(p.ops.back().inputs[0], p.ops.back().inputs[1]); // r - x
        unary(dnnl_graph_op_relu);
    }
    for (ir::op_t &op : p.ops)
        EXPECT_EQ(ops::verify_op(op), dnnl_success) << c.str();
    if (c.out == dnnl_u8 || c.out == dnnl_s8) {
        const logical_tensor_t q = lt(c.out, yd);
        p.ops.push_back(make_op(dnnl_graph_op_quantize, {y}, q));
        set_quant(p.ops.back(), 0.02f, c.out == dnnl_u8 ? 90 : -7);
        y = q;
    } else if (c.out == dnnl_bf16) {
        const logical_tensor_t h = lt(dnnl_bf16, yd);
        p.ops.push_back(make_op(dnnl_graph_op_type_cast, {y}, h));
        y = h;
    }
    p.outputs = {y};
    return p;
}

void check(const qpool_t &c, unsigned seed) {
    std::mt19937 gen(seed);
    const compiler::plan_t p = build(c);
    std::vector<bytes_t> in;
    for (const logical_tensor_t &t : p.inputs) {
        in.push_back(plan_test::random_quant_bytes(t, gen));
        // Full-size f32 residuals carry some NaNs (Maximum and the
        // arithmetic must propagate them as the reference does).
        if (t.data_type == dnnl_f32 && ir::nelems(t) > 1000)
            for (int64_t i = 0; i < ir::nelems(t); i += 97)
                ir::store_value(dnnl_f32, in.back().data(), i, NAN);
    }
    const auto want = plan_test::run_ref(p, in);
    std::string why;
    ASSERT_TRUE(pool_int8::accepts(p, isa_t::avx2, &why)) << c.str() << ": " << why;
    std::shared_ptr<const compiler::kernel_t> k;
    ASSERT_EQ(cpu_backend().compile(p, k), dnnl_success) << last_error();
    EXPECT_EQ(std::string(k->name()).rfind("pool_int8_max_", 0), 0u) << k->name();
    bytes_t got(ir::mem_size(p.outputs[0]), 0x33);
    compiler::exec_ctx_t ctx;
    for (const bytes_t &b : in)
        ctx.inputs.push_back(b.data());
    ctx.outputs = {got.data()};
    ASSERT_EQ(k->execute(ctx), dnnl_success) << last_error();
    EXPECT_TRUE(got == want.at(p.outputs[0].id)) << c.str() << " " << k->name();
}

TEST_F(CpuPoolInt8, MatchesTheReferenceBitForBit) {
    using V = std::vector<int64_t>;
    const qpool_t cases[] = {
            // ResNet's 3x3 / 2 stem pool with begin padding, even and odd
            // widths (the stride-2 split and its tail).
            {{2, 5, 40, 40}, V {3, 3}, V {2, 2}, V {1, 1}, V {1, 1}, V {0, 0}},
            {{1, 3, 37, 71}, V {3, 3}, V {2, 2}, V {1, 1}, V {1, 1}, V {1, 1},
                    false, true, 0, dnnl_s8},
            {{1, 4, 20, 33}, V {2, 2}, V {2, 2}, V {1, 1}, V {0, 0}, V {0, 0},
                    false, true, 0, dnnl_f32},
            // Stride 1 (contiguous taps), stride 3, dilation.
            {{2, 3, 19, 45}, V {3, 3}, V {1, 1}, V {1, 1}, V {1, 1}, V {1, 1},
                    false, false, 1, dnnl_s8},
            {{1, 2, 25, 50}, V {3, 2}, V {3, 3}, V {2, 2}, V {2, 1}, V {0, 1},
                    false, false, 2, dnnl_f32},
            // Ceil rounding: last windows hang over the end.
            {{1, 6, 41, 47}, V {3, 3}, V {2, 2}, V {1, 1}, V {0, 0}, V {0, 0},
                    true, true, 3, dnnl_u8},
            // 1D and 3D.
            {{2, 4, 1201}, V {5}, V {3}, V {2}, V {2}, V {2}, false, false, 1,
                    dnnl_u8},
            {{1, 3, 6, 9, 34}, V {2, 2, 2}, V {2, 2, 2}, V {1, 1, 1},
                    V {0, 0, 0}, V {0, 0, 0}, false, true, 0, dnnl_bf16},
            // A width of 600 (the 32-byte vector loops) with the chain.
            {{1, 2, 5, 600}, V {3, 3}, V {2, 2}, V {1, 1}, V {1, 1},
                    V {0, 0}, false, false, 1, dnnl_u8},
            // Residuals: the per-element tail into u8, s8 and f32.
            {{2, 5, 40, 40}, V {3, 3}, V {2, 2}, V {1, 1}, V {1, 1}, V {0, 0},
                    false, false, 4, dnnl_u8},
            {{1, 3, 37, 71}, V {3, 3}, V {2, 2}, V {1, 1}, V {1, 1}, V {1, 1},
                    false, true, 4, dnnl_s8},
            {{2, 4, 21, 35}, V {2, 2}, V {1, 1}, V {1, 1}, V {0, 0}, V {0, 0},
                    false, true, 5, dnnl_f32},
            {{1, 3, 6, 20, 34}, V {2, 2, 2}, V {2, 2, 2}, V {1, 1, 1},
                    V {0, 0, 0}, V {0, 0, 0}, false, false, 5, dnnl_u8},
    };
    unsigned seed = 1;
    for (const qpool_t &c : cases)
        check(c, seed++);
}

std::string decline_reason(const compiler::plan_t &p) {
    std::string why;
    EXPECT_FALSE(pool_int8::accepts(p, isa_t::avx2, &why));
    return why;
}

TEST_F(CpuPoolInt8, DeclinesWhatTablesCannotStandFor) {
    using V = std::vector<int64_t>;
    const qpool_t base {{1, 4, 12, 12}, V {3, 3}, V {2, 2}, V {1, 1},
            V {1, 1}, V {0, 0}, false, false, 1, dnnl_u8};
    auto has = [](const std::string &s, const char *what) {
        return s.find(what) != std::string::npos;
    };
    { // After a residual, an op the per-element tail does not compute.
        qpool_t c = base;
        c.chain = 4;
        compiler::plan_t p = build(c);
        for (ir::op_t &op : p.ops)
            if (op.kind == dnnl_graph_op_clamp) {
                op.kind = dnnl_graph_op_gelu;
                op.attrs.clear();
            }
        EXPECT_TRUE(has(decline_reason(p), "after a residual"));
    }
    { // A negative src scale: the maximum does not commute with it.
        compiler::plan_t p = build(base);
        set_quant(p.ops[0], -0.5f, 0);
        EXPECT_TRUE(has(decline_reason(p), "positive scale"));
    }
    { // AvgPool.
        compiler::plan_t p = build(base);
        p.ops[1].kind = dnnl_graph_op_avg_pool;
        EXPECT_TRUE(has(decline_reason(p), "no MaxPool"));
    }
    { // Tables per image and channel for a few outputs per plane.
        qpool_t c = base;
        c.x = {2, 4, 6, 6};
        EXPECT_TRUE(has(decline_reason(build(c)), "more table entries"));
    }
    { // Channel-last data.
        qpool_t c = base;
        compiler::plan_t p = build(c);
        p.ops[1].set_attr(dnnl_graph_op_attr_data_format,
                attr_value_t::make_str("NXC"));
        EXPECT_FALSE(pool_int8::accepts(p, isa_t::avx2, nullptr));
    }
}

} // namespace
} // namespace cpu
} // namespace llga
