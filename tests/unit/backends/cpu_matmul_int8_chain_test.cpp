// tests/unit/backends/cpu_matmul_int8_chain_test.cpp — quantized MatMul
// partitions with a post-op chain: Dequantize(src u8/s8), Dequantize(
// weights s8) -> MatMul -> [BiasAdd] -> unary and binary ops (every
// operand broadcast, batched operands) -> [Quantize u8/s8], which run as
// one matmul_int8 kernel (gemm_int8 tiles finished by the f32 chain
// kernels), at every ISA level the host has, against the reference ops run
// one by one. Binary operands are f32 inputs or s8/u8 inputs dequantized
// inside the partition (read as bytes by the chain).
//
// Tolerance: plan_test::int8_chain_expect.
#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cpu_plan_test_util.hpp"
#include "cpu_test_isa.hpp"
#include "backends/cpu/cpu_backend.hpp"
#include "backends/cpu/isa.hpp"
#include "backends/cpu/kernels/matmul_int8.hpp"
#include "base/status.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace {

using ir::attr_value_t;
using plan_test::bytes_t;
using plan_test::make_op;

std::vector<isa_t> levels() {
    return test_isa::host_levels({isa_t::avx2, isa_t::avx2_vnni,
            isa_t::avx512_core_vnni, isa_t::avx512_core_amx});
}

class CpuMatmulInt8Chain : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

// Chain steps: unary ops, and binary ops whose operand is broadcast as
// `shape` says.
enum class step_t { gelu, sigmoid, tanh, relu, clamp, elu, swish, add, mul,
    sub, div, max, min };
// Operand shapes: one value, one per column, one per row, the whole
// [M, N] (shared by every batch), and [B, M, N] (per batch; [M, N]
// without batch dims).
enum class oshape_t { scalar, col, row, full, batched };

struct ccase_t {
    bool src_s8 = false;
    bool bias = false;
    int batch = 0; // 0 none, 1 [B, M, K] x shared weights, 2 per-batch weights
    data_type_t dst = dnnl_f32;
    std::vector<step_t> steps;
    std::vector<oshape_t> shapes; // one per binary step
    // Per binary step: 0 an f32 operand, 1 / 2 an s8 / u8 input
    // dequantized inside the partition (a quantized residual).
    std::vector<int> quant;
    int64_t B = 2, M = 1, N = 1, K = 1;
    std::string str() const {
        std::string s = std::string(src_s8 ? "s8" : "u8")
                + (bias ? " bias" : "") + " batch" + std::to_string(batch)
                + " dst " + ir::dtype_name(dst) + " M" + std::to_string(M)
                + " N" + std::to_string(N) + " K" + std::to_string(K)
                + " steps";
        for (step_t t : steps)
            s += " " + std::to_string(static_cast<int>(t));
        s += " shapes";
        for (oshape_t o : shapes)
            s += " " + std::to_string(static_cast<int>(o));
        s += " quant";
        for (int q : quant)
            s += " " + std::to_string(q);
        return s;
    }
};

struct built_t {
    compiler::plan_t plan, mm_only;
    size_t pre_chain = 0; // the MatMul's (or BiasAdd's) output
    size_t pre_q = 0;     // the Quantize's input (or the output)
    float dst_scale = 1.f;
    int64_t dst_zp = 0;
};

void set_quant(ir::op_t &op, float scale, int64_t zp) {
    op.set_attr(dnnl_graph_op_attr_qtype, attr_value_t::make_str("per_tensor"));
    op.set_attr(dnnl_graph_op_attr_scales, attr_value_t::make_f32s({scale}));
    op.set_attr(dnnl_graph_op_attr_zps, attr_value_t::make_s64s({zp}));
    op.set_attr(dnnl_graph_op_attr_axis, attr_value_t::make_s64(1));
}

op_kind_t binary_kind(step_t t) {
    switch (t) {
        case step_t::add: return dnnl_graph_op_add;
        case step_t::mul: return dnnl_graph_op_multiply;
        case step_t::sub: return dnnl_graph_op_subtract;
        case step_t::div: return dnnl_graph_op_divide;
        case step_t::max: return dnnl_graph_op_maximum;
        default: return dnnl_graph_op_minimum;
    }
}

built_t build(const ccase_t &c) {
    size_t id = 100;
    auto lt = [&](data_type_t dt, const dims_t &d) {
        return ir::make_lt(id++, dt, d);
    };
    built_t r;
    compiler::plan_t &p = r.plan;
    dims_t ad = {c.M, c.K}, bd = {c.K, c.N}, dd = {c.M, c.N};
    if (c.batch >= 1) {
        ad.insert(ad.begin(), c.B);
        dd.insert(dd.begin(), c.B);
    }
    if (c.batch == 2) bd.insert(bd.begin(), c.B);
    const logical_tensor_t a = lt(c.src_s8 ? dnnl_s8 : dnnl_u8, ad),
                           b = lt(dnnl_s8, bd);
    p.inputs = {a, b};
    const logical_tensor_t af = lt(dnnl_f32, ad), bf = lt(dnnl_f32, bd);
    ir::op_t dqa = make_op(dnnl_graph_op_dequantize, {a}, af);
    set_quant(dqa, 0.02f, c.src_s8 ? -3 : 110);
    ir::op_t dqb = make_op(dnnl_graph_op_dequantize, {b}, bf);
    set_quant(dqb, 0.01f, 0);
    logical_tensor_t y = lt(dnnl_f32, dd);
    ir::op_t mm = make_op(dnnl_graph_op_matmul, {af, bf}, y);
    p.ops = {dqa, dqb, mm};
    r.mm_only.ops = {mm};
    r.mm_only.inputs = {af, bf};
    if (c.bias) {
        const logical_tensor_t bias = lt(dnnl_f32, {c.N});
        p.inputs.push_back(bias);
        r.mm_only.inputs.push_back(bias);
        const logical_tensor_t z = lt(dnnl_f32, dd);
        p.ops.push_back(make_op(dnnl_graph_op_bias_add, {y, bias}, z));
        r.mm_only.ops.push_back(p.ops.back());
        y = z;
    }
    r.pre_chain = y.id;
    size_t k = 0;
    for (step_t t : c.steps) {
        const logical_tensor_t z = lt(dnnl_f32, dd);
        switch (t) {
            case step_t::gelu:
                p.ops.push_back(make_op(dnnl_graph_op_gelu, {y}, z));
                break;
            case step_t::sigmoid:
                p.ops.push_back(make_op(dnnl_graph_op_sigmoid, {y}, z));
                break;
            case step_t::tanh:
                p.ops.push_back(make_op(dnnl_graph_op_tanh, {y}, z));
                break;
            case step_t::relu:
                p.ops.push_back(make_op(dnnl_graph_op_relu, {y}, z));
                break;
            case step_t::clamp:
                p.ops.push_back(make_op(dnnl_graph_op_clamp, {y}, z));
                p.ops.back().set_attr(
                        dnnl_graph_op_attr_min, attr_value_t::make_f32(-0.4f));
                p.ops.back().set_attr(
                        dnnl_graph_op_attr_max, attr_value_t::make_f32(0.9f));
                break;
            case step_t::elu:
                p.ops.push_back(make_op(dnnl_graph_op_elu, {y}, z));
                p.ops.back().set_attr(
                        dnnl_graph_op_attr_alpha, attr_value_t::make_f32(0.5f));
                break;
            case step_t::swish: { // x * sigmoid(x), the pair walk_chain reads
                const logical_tensor_t s = lt(dnnl_f32, dd);
                p.ops.push_back(make_op(dnnl_graph_op_sigmoid, {y}, s));
                p.ops.push_back(make_op(dnnl_graph_op_multiply, {y, s}, z));
                break;
            }
            default: {
                dims_t od;
                const int quant = k < c.quant.size() ? c.quant[k] : 0;
                switch (c.shapes[k++]) {
                    case oshape_t::scalar: od = {1}; break;
                    case oshape_t::col: od = {1, c.N}; break;
                    case oshape_t::row: od = {c.M, 1}; break;
                    case oshape_t::full: od = {c.M, c.N}; break;
                    case oshape_t::batched: // [M, N] without batch dims
                        od = {c.M, c.N};
                        if (c.batch >= 1) od.insert(od.begin(), c.B);
                        break;
                }
                logical_tensor_t o = lt(dnnl_f32, od);
                if (quant == 0) {
                    p.inputs.push_back(o);
                } else {
                    const logical_tensor_t q
                            = lt(quant == 1 ? dnnl_s8 : dnnl_u8, od);
                    p.inputs.push_back(q);
                    p.ops.push_back(make_op(dnnl_graph_op_dequantize, {q}, o));
                    set_quant(p.ops.back(), 0.015f, quant == 1 ? 5 : 128);
                }
                p.ops.push_back(make_op(binary_kind(t), {y, o}, z));
                break;
            }
        }
        y = z;
    }
    r.pre_q = y.id;
    if (c.dst != dnnl_f32) {
        // Spread the outputs over much of the int8 range (some saturate).
        r.dst_scale = 0.004f;
        r.dst_zp = c.dst == dnnl_u8 ? 100 : -6;
        const logical_tensor_t q = lt(c.dst, dd);
        p.ops.push_back(make_op(dnnl_graph_op_quantize, {y}, q));
        set_quant(p.ops.back(), r.dst_scale, r.dst_zp);
        y = q;
    }
    p.outputs = {y};
    return r;
}

// Inputs: u8/s8 over their whole range, the bias in [-2, 2), binary
// operands in +-[0.5, 1.5) (away from 0 for Divide).
std::vector<bytes_t> inputs(const compiler::plan_t &p, std::mt19937 &gen) {
    std::vector<bytes_t> in;
    std::uniform_real_distribution<float> mag(0.5f, 1.5f);
    for (size_t i = 0; i < p.inputs.size(); ++i) {
        const logical_tensor_t &t = p.inputs[i];
        if (i < 2 || t.ndims == 1 || t.data_type != dnnl_f32) {
            in.push_back(plan_test::random_quant_bytes(t, gen));
            continue;
        }
        std::vector<float> v(static_cast<size_t>(ir::nelems(t)));
        for (float &x : v)
            x = mag(gen) * (gen() % 2 ? 1.f : -1.f);
        in.push_back(plan_test::f32_bytes(v));
    }
    return in;
}

void check(const ccase_t &c, unsigned seed) {
    std::mt19937 gen(seed);
    const built_t bt = build(c);
    const compiler::plan_t &p = bt.plan;
    const std::vector<bytes_t> in = inputs(p, gen);
    const plan_test::int8_chain_expect_t e = plan_test::int8_chain_expect(
            p, in, bt.mm_only, bt.pre_chain, bt.pre_q, bt.dst_scale, bt.dst_zp);
    for (isa_t isa : levels()) {
        test_isa::isa_guard_t guard(isa);
        const std::string what = c.str() + " @" + isa_name(isa);
        std::string why;
        ASSERT_TRUE(matmul::accepts_int8(p, isa, &why))
                << what << " declined: " << why;
        std::shared_ptr<const compiler::kernel_t> k;
        ASSERT_EQ(cpu_backend().compile(p, k), dnnl_success) << last_error();
        ASSERT_EQ(std::string(k->name()).find("matmul_int8_"), 0u) << k->name();
        // ReLU/Clamp alone before a Quantize fold into its bounds.
        bool clamps_only = c.dst != dnnl_f32;
        for (step_t t : c.steps)
            clamps_only = clamps_only
                    && (t == step_t::relu || t == step_t::clamp);
        EXPECT_EQ(std::string(k->name()).find("_po:") != std::string::npos,
                !clamps_only)
                << k->name();
        plan_test::expect_int8_chain(*k, in, p.outputs[0], e, what);
    }
}

const int64_t k_ms[] = {1, 4, 7, 13, 30};
const int64_t k_ns[] = {1, 7, 16, 19, 40};
const int64_t k_ks[] = {3, 16, 64, 150};
const step_t k_unary[] = {step_t::gelu, step_t::sigmoid, step_t::tanh,
        step_t::relu, step_t::clamp, step_t::elu, step_t::swish};
const step_t k_binary[] = {step_t::add, step_t::mul, step_t::sub, step_t::div,
        step_t::max, step_t::min};

TEST_F(CpuMatmulInt8Chain, RandomChainsAgainstReference) {
    std::mt19937 gen(11);
    unsigned seed = 1;
    const data_type_t dsts[] = {dnnl_f32, dnnl_u8, dnnl_s8};
    for (int rep = 0; rep < 24; ++rep) {
        ccase_t c;
        c.src_s8 = gen() % 2;
        c.bias = gen() % 2;
        c.batch = static_cast<int>(gen() % 3);
        c.dst = dsts[rep % 3];
        c.M = k_ms[gen() % 5];
        c.N = k_ns[gen() % 5];
        c.K = k_ks[gen() % 4];
        const int len = 1 + static_cast<int>(gen() % 3);
        for (int s = 0; s < len; ++s) {
            if (gen() % 2) {
                c.steps.push_back(k_unary[gen() % 7]);
                continue;
            }
            c.steps.push_back(k_binary[gen() % 6]);
            c.shapes.push_back(static_cast<oshape_t>(gen() % 5));
            // Divide keeps an f32 operand (a dequantized one may be 0).
            c.quant.push_back(c.steps.back() == step_t::div
                            ? 0
                            : static_cast<int>(gen() % 3));
        }
        check(c, seed++);
    }
}

// Each operand shape behind an Add before a Quantize, with shared weights
// over a batch (the batch folds into M unless an operand varies by batch)
// and per-batch weights; M and N with tails at every vector width.
TEST_F(CpuMatmulInt8Chain, EveryOperandShapeAndBatch) {
    unsigned seed = 100;
    for (int batch = 0; batch < 3; ++batch)
        for (int s = 0; s < 5; ++s) {
            ccase_t c;
            c.batch = batch;
            c.B = 3;
            c.M = 9;
            c.N = 21;
            c.K = 40;
            c.bias = true;
            c.dst = s % 2 ? dnnl_s8 : dnnl_u8;
            c.steps = {step_t::add, step_t::relu};
            c.shapes = {static_cast<oshape_t>(s)};
            check(c, seed++);
            c.quant = {s % 2 ? 1 : 2}; // the same through a Dequantize
            check(c, seed++);
        }
}

// A dequantized operand is folded only from a per-tensor Dequantize of an
// s8/u8 input: per-channel scales, or another op computing the operand,
// decline the partition (it runs as an op sequence).
TEST_F(CpuMatmulInt8Chain, DeclinesOperandsItCannotRead) {
    ccase_t c;
    c.M = 8;
    c.N = 16;
    c.K = 32;
    c.dst = dnnl_s8;
    c.steps = {step_t::add};
    c.shapes = {oshape_t::full};
    c.quant = {1};
    {
        built_t b = build(c);
        ir::op_t &dq = b.plan.ops[3];
        ASSERT_EQ(dq.kind, dnnl_graph_op_dequantize);
        std::vector<float> sc(16);
        for (size_t i = 0; i < sc.size(); ++i)
            sc[i] = 0.01f * static_cast<float>(i + 1);
        dq.set_attr(dnnl_graph_op_attr_qtype,
                attr_value_t::make_str("per_channel"));
        dq.set_attr(dnnl_graph_op_attr_scales, attr_value_t::make_f32s(sc));
        dq.set_attr(dnnl_graph_op_attr_zps,
                attr_value_t::make_s64s(std::vector<int64_t>(16, 0)));
        std::string why;
        EXPECT_FALSE(matmul::accepts_int8(b.plan, isa_t::avx2, &why));
        EXPECT_NE(why.find("per-tensor s8/u8"), std::string::npos) << why;
    }
    {
        built_t b = build(c);
        ir::op_t &dq = b.plan.ops[3]; // an Abs in its place
        dq.kind = dnnl_graph_op_abs;
        dq.attrs.clear();
        dq.inputs[0].data_type = dnnl_f32;
        b.plan.inputs.back().data_type = dnnl_f32;
        std::string why;
        EXPECT_FALSE(matmul::accepts_int8(b.plan, isa_t::avx2, &why));
        EXPECT_NE(why.find("computed inside the partition"), std::string::npos)
                << why;
    }
}

} // namespace
} // namespace cpu
} // namespace llga
