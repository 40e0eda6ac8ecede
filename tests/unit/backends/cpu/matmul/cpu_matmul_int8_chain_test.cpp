// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/matmul/cpu_matmul_int8_chain_test.cpp — quantized
// MatMul partitions with a post-op chain: Dequantize(src u8/s8), Dequantize(
// weights s8) -> MatMul -> [BiasAdd] -> unary and binary ops (every operand
// broadcast, batched operands) -> [Quantize u8/s8], which run as one
// matmul_int8 kernel (gemm_int8 tiles finished by the f32 chain kernels), at
// every ISA level the host has, against the reference ops run one by one.
// Binary operands are f32 inputs or s8/u8 inputs dequantized inside the
// partition (read as bytes by the chain).
//
// Tolerance: plan_test::int8_chain_expect.
#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/cpu/isa.hpp"
#include "backends/cpu/kernels/matmul/matmul_int8.hpp"
#include "base/status.hpp"
#include "cpu_plan_test_util.hpp"
#include "cpu_test_isa.hpp"
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
    // A bf16 model: src and weights Dequantize -> TypeCast to bf16, every
    // value after the MatMul bf16 (operands too: bf16 inputs, or
    // Dequantize -> TypeCast), then TypeCast to f32 before a Quantize (dst
    // u8/s8) or a bf16 dst. `cast_anchor`: the MatMul gives f32 and a
    // TypeCast rounds it (the same values; the expectations are computed
    // on this form, whose MatMul result the bounds can move).
    bool bf16 = false, cast_anchor = false;
    int64_t B = 2, M = 1, N = 1, K = 1;
    std::string str() const {
        std::string s = std::string(bf16 ? "bf16 model " : "")
                + (cast_anchor ? "cast anchor " : "") + (src_s8 ? "s8" : "u8")
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

using plan_test::set_quant;

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
    ir::op_t dqb = make_op(dnnl_graph_op_dequantize, {b}, bf);
    // bf16 models: powers of two, so the dequantized values are bf16
    // numbers and the TypeCasts the int8 GEMM skips change nothing.
    set_quant(dqa, c.bf16 ? 0.015625f : 0.02f, c.src_s8 ? -3 : 110);
    set_quant(dqb, c.bf16 ? 0.0078125f : 0.01f, 0);
    const data_type_t vdt = c.bf16 ? dnnl_bf16 : dnnl_f32; // chain values
    logical_tensor_t y = lt(c.bf16 && !c.cast_anchor ? dnnl_bf16 : dnnl_f32, dd);
    ir::op_t mm = make_op(dnnl_graph_op_matmul, {af, bf}, y);
    p.ops = {dqa, dqb};
    if (c.bf16) {
        const logical_tensor_t ah = lt(dnnl_bf16, ad), bh = lt(dnnl_bf16, bd);
        p.ops.push_back(make_op(dnnl_graph_op_type_cast, {af}, ah));
        p.ops.push_back(make_op(dnnl_graph_op_type_cast, {bf}, bh));
        mm.inputs = {ah, bh};
    }
    p.ops.push_back(mm);
    // The anchor on the dequantized f32 values, for the bounds' sums.
    ir::op_t mm_f32 = make_op(dnnl_graph_op_matmul, {af, bf}, y);
    mm_f32.outputs[0].data_type = dnnl_f32;
    r.mm_only.ops = {mm_f32};
    r.mm_only.inputs = {af, bf};
    if (c.bias && c.bf16) { // the MatMul's own bf16 bias
        const logical_tensor_t bias = lt(dnnl_bf16, {c.N});
        p.inputs.push_back(bias);
        r.mm_only.inputs.push_back(bias);
        p.ops.back().inputs.push_back(bias);
        r.mm_only.ops.back().inputs.push_back(bias);
    } else if (c.bias) {
        const logical_tensor_t bias = lt(dnnl_f32, {c.N});
        p.inputs.push_back(bias);
        r.mm_only.inputs.push_back(bias);
        const logical_tensor_t z = lt(dnnl_f32, dd);
        p.ops.push_back(make_op(dnnl_graph_op_bias_add, {y, bias}, z));
        r.mm_only.ops.push_back(p.ops.back());
        y = z;
    }
    r.pre_chain = y.id;
    if (c.bf16 && c.cast_anchor) {
        const logical_tensor_t z = lt(dnnl_bf16, dd);
        p.ops.push_back(make_op(dnnl_graph_op_type_cast, {y}, z));
        y = z;
    }
    size_t k = 0;
    for (step_t t : c.steps) {
        const logical_tensor_t z = lt(vdt, dd);
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
                logical_tensor_t o = lt(vdt, od);
                if (quant == 0) {
                    p.inputs.push_back(o);
                } else {
                    const logical_tensor_t q
                            = lt(quant == 1 ? dnnl_s8 : dnnl_u8, od);
                    p.inputs.push_back(q);
                    const logical_tensor_t of = lt(dnnl_f32, od);
                    p.ops.push_back(make_op(dnnl_graph_op_dequantize, {q}, of));
                    set_quant(p.ops.back(), 0.015f, quant == 1 ? 5 : 128);
                    // bf16: the cast rounds (q - zp) * 0.015 (not exact).
                    if (c.bf16)
                        p.ops.push_back(make_op(
                                dnnl_graph_op_type_cast, {of}, o));
                    else
                        o = of;
                }
                p.ops.push_back(make_op(binary_kind(t), {y, o}, z));
                break;
            }
        }
        y = z;
    }
    if (c.bf16 && c.dst != dnnl_bf16) { // the Quantize reads f32
        const logical_tensor_t z = lt(dnnl_f32, dd);
        p.ops.push_back(make_op(dnnl_graph_op_type_cast, {y}, z));
        y = z;
    }
    r.pre_q = y.id;
    if (c.dst != dnnl_f32 && c.dst != dnnl_bf16) {
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
        if (i < 2 || t.ndims == 1
                || (t.data_type != dnnl_f32 && t.data_type != dnnl_bf16)) {
            in.push_back(plan_test::random_quant_bytes(t, gen));
            continue;
        }
        bytes_t b(ir::mem_size(t));
        for (int64_t j = 0; j < ir::nelems(t); ++j)
            ir::store_value(t.data_type, b.data(), j,
                    mag(gen) * (gen() % 2 ? 1.f : -1.f));
        in.push_back(b);
    }
    return in;
}

void check(const ccase_t &c, unsigned seed) {
    std::mt19937 gen(seed);
    const built_t bt = build(c);
    const compiler::plan_t &p = bt.plan;
    const std::vector<bytes_t> in = inputs(p, gen);
    // Expectations from the form whose MatMul gives f32 (the same values).
    ccase_t cf = c;
    cf.cast_anchor = true;
    const built_t be = c.bf16 ? build(cf) : bt;
    plan_test::int8_chain_expect_t e = plan_test::int8_chain_expect(be.plan,
            in, be.mm_only, be.pre_chain, be.pre_q, be.dst_scale, be.dst_zp);
    if (c.bf16) {
        e.pre_q_dt = c.dst == dnnl_bf16 ? dnnl_bf16 : dnnl_f32;
        // Only approximated math can tip a bf16 rounding of the chain the
        // GEMM bounds do not cover; exact chains keep the tight bounds.
        bool approx = false;
        for (step_t t : c.steps)
            approx = approx || t == step_t::gelu || t == step_t::sigmoid
                    || t == step_t::tanh || t == step_t::elu;
        e.rel_slack = approx ? std::ldexp(1.0, -7) : 0;
    }
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
        // In bf16 models the casts are a chain (the MatMul's result is
        // rounded), unless nothing follows the bf16 result.
        bool clamps_only = c.dst != dnnl_f32 && !c.bf16;
        for (step_t t : c.steps)
            clamps_only = clamps_only
                    && (t == step_t::relu || t == step_t::clamp);
        const bool plain = clamps_only
                || (c.bf16 && c.steps.empty() && c.dst == dnnl_bf16);
        EXPECT_EQ(std::string(k->name()).find("_po:") != std::string::npos,
                !plain)
                << k->name();
        plan_test::expect_int8_chain(*k, in, be.plan.outputs[0], e, what);
    }
}

const int64_t k_ms[] = {1, 4, 7, 13, 30};
const int64_t k_ns[] = {1, 7, 16, 19, 40};
const int64_t k_ks[] = {3, 16, 64, 150};
const step_t k_unary[] = {step_t::gelu, step_t::sigmoid, step_t::tanh,
        step_t::relu, step_t::clamp, step_t::elu, step_t::swish};
const step_t k_binary[] = {step_t::add, step_t::mul, step_t::sub, step_t::div,
        step_t::max, step_t::min};

// `len` random steps: unary (swish too if `swish`) or binary with a random
// operand shape, f32 or dequantized s8/u8 (Divide keeps an f32 operand: a
// dequantized one may be 0).
void random_steps(ccase_t &c, int len, bool swish, std::mt19937 &gen) {
    for (int s = 0; s < len; ++s) {
        if (gen() % 2) {
            c.steps.push_back(k_unary[gen() % (swish ? 7 : 6)]);
            continue;
        }
        c.steps.push_back(k_binary[gen() % 6]);
        c.shapes.push_back(static_cast<oshape_t>(gen() % 5));
        c.quant.push_back(
                c.steps.back() == step_t::div ? 0 : static_cast<int>(gen() % 3));
    }
}

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
        random_steps(c, 1 + static_cast<int>(gen() % 3), true, gen);
        check(c, seed++);
    }
}

// bf16 models (see ccase_t::bf16): random chains of bf16 values, each
// rounded as the reference stores it, with bf16 and cast-dequantized
// operands and a bf16 bias, into u8, s8 and bf16 outputs; the MatMul
// giving bf16 directly and through a TypeCast.
TEST_F(CpuMatmulInt8Chain, Bf16ModelChains) {
    std::mt19937 gen(23);
    unsigned seed = 300;
    const data_type_t dsts[] = {dnnl_bf16, dnnl_u8, dnnl_s8};
    for (int rep = 0; rep < 18; ++rep) {
        ccase_t c;
        c.bf16 = true;
        c.cast_anchor = rep % 2;
        c.src_s8 = gen() % 2;
        c.bias = gen() % 2;
        c.batch = static_cast<int>(gen() % 3);
        c.dst = dsts[rep / 2 % 3];
        c.M = k_ms[gen() % 5];
        c.N = k_ns[gen() % 5];
        c.K = k_ks[gen() % 4];
        // 0 steps: casts only; no swish (its Sigmoid would be bf16).
        random_steps(c, static_cast<int>(gen() % 4), false, gen);
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
