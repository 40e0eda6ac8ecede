// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/matmul/cpu_matmul_int8_test.cpp — quantized MatMul
// partitions (Dequantize(src u8/s8), Dequantize(weights s8) -> MatMul ->
// [bias] -> [Quantize u8/s8]) on the int8 GEMM, against the reference ops
// of ops/ run one by one, at every ISA level the host has: per-tensor and
// per-channel weight scales (positive and negative axis, transpose_b),
// zero points, both bias forms, f32/u8/s8 dst, batches, constant weights
// prepacked through the constant cache, and what must be declined (post-op
// chains: cpu_matmul_int8_chain_test.cpp).
#include <algorithm>
#include <cmath>
#include <functional>
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
#include "ops/registry.hpp"
#include "runtime/constant_cache.hpp"
#include "runtime/engine.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace {

using ir::attr_value_t;
using plan_test::bytes_t;
using plan_test::random_quant_bytes;
using plan_test::run_ref;

// The int8 driver runs from avx2 up; each level exercises the flavour
// gemm_int8 picks under it.
std::vector<isa_t> levels() {
    return test_isa::host_levels({isa_t::avx2, isa_t::avx2_vnni, isa_t::avx512_core_vnni,
                 isa_t::avx512_core_amx});
}

using test_isa::isa_guard_t;

class CpuMatmulInt8 : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

struct qcase_t {
    bool src_s8 = false;
    int wei_q = 0;  // 0 per tensor, 1 per channel, 2 per channel with a
                    // negative axis, 3 per channel with equal scales
    bool zps = false;
    int bias = 0;   // 0 none, 1 MatMul's third input, 2 BiasAdd
    data_type_t dst = dnnl_f32; // f32, u8 or s8 (Quantize)
    bool tb = false;
    int batch = 0;  // 0 none, 1 [B, M, K] x shared weights, 2 per-batch weights
    bool constant = false;
    // Before a Quantize: 0 nothing, 1 ReLU, 2 Clamp(-0.3, 0.8), 3 ReLU then
    // Clamp(-1, 0.5).
    int clamp = 0;
    int64_t B = 2, M = 1, N = 1, K = 1;
    std::string str() const {
        return std::string(src_s8 ? "s8" : "u8") + " wq" + std::to_string(wei_q)
                + (zps ? " zp" : "") + " bias" + std::to_string(bias) + " dst "
                + ir::dtype_name(dst) + (tb ? " tb" : "") + " batch"
                + std::to_string(batch) + (constant ? " const" : "")
                + " clamp" + std::to_string(clamp) + " M"
                + std::to_string(M) + " N" + std::to_string(N) + " K"
                + std::to_string(K);
    }
};

struct built_t {
    compiler::plan_t plan;
    size_t pre_q = 0;        // id of the f32 value the Quantize reads (or dst)
    compiler::plan_t mm_only; // MatMul (+ BiasAdd) on the f32 values
    float dst_scale = 1.f;
    int64_t dst_zp = 0;
    double lo = -INFINITY, hi = INFINITY; // what the clamps keep of pre_q
};

logical_tensor_t lt(size_t &id, data_type_t dt, const dims_t &d) {
    return ir::make_lt(id++, dt, d);
}

using plan_test::make_op;

void set_quant(ir::op_t &op, const std::vector<float> &scales,
        const std::vector<int64_t> &zps, int64_t axis = 1) {
    op.set_attr(dnnl_graph_op_attr_qtype,
            attr_value_t::make_str(scales.size() > 1 || axis != 1
                            ? "per_channel"
                            : "per_tensor"));
    op.set_attr(dnnl_graph_op_attr_scales, attr_value_t::make_f32s(scales));
    if (!zps.empty())
        op.set_attr(dnnl_graph_op_attr_zps, attr_value_t::make_s64s(zps));
    op.set_attr(dnnl_graph_op_attr_axis, attr_value_t::make_s64(axis));
}

built_t build(const qcase_t &c, std::mt19937 &gen) {
    size_t id = 100;
    built_t r;
    compiler::plan_t &p = r.plan;
    const data_type_t sdt = c.src_s8 ? dnnl_s8 : dnnl_u8;
    dims_t ad = {c.M, c.K}, bd = c.tb ? dims_t {c.N, c.K} : dims_t {c.K, c.N};
    if (c.batch >= 1) ad.insert(ad.begin(), c.B);
    if (c.batch == 2) bd.insert(bd.begin(), c.B);
    dims_t dd = {c.M, c.N};
    if (c.batch >= 1) dd.insert(dd.begin(), c.B);
    const logical_tensor_t a = lt(id, sdt, ad), b = lt(id, dnnl_s8, bd);
    logical_tensor_t bw = b;
    if (c.constant) bw.property = dnnl_graph_tensor_property_constant;
    p.inputs = {a, bw};
    const logical_tensor_t af = lt(id, dnnl_f32, ad), bf = lt(id, dnnl_f32, bd);
    ir::op_t dqa = make_op(dnnl_graph_op_dequantize, {a}, af);
    set_quant(dqa, {0.02f}, c.zps ? std::vector<int64_t> {c.src_s8 ? -3 : 120}
                                  : std::vector<int64_t> {});
    ir::op_t dqb = make_op(dnnl_graph_op_dequantize, {b}, bf);
    const int64_t zb = c.zps ? 2 : 0;
    if (c.wei_q == 0) {
        set_quant(dqb, {0.01f}, {zb});
    } else {
        const int r = static_cast<int>(bd.size());
        int64_t axis = c.tb ? r - 2 : r - 1;
        if (c.wei_q == 2) axis -= r;
        std::uniform_real_distribution<float> us(0.004f, 0.016f);
        std::vector<float> sc(static_cast<size_t>(c.N));
        for (float &s : sc)
            s = c.wei_q == 3 ? 0.01f : us(gen);
        set_quant(dqb, sc, std::vector<int64_t>(sc.size(), zb), axis);
    }
    std::vector<logical_tensor_t> mm_in = {af, bf};
    if (c.bias == 1) {
        mm_in.push_back(lt(id, dnnl_f32, {c.N}));
        p.inputs.push_back(mm_in.back());
    }
    logical_tensor_t y = lt(id, dnnl_f32, dd);
    ir::op_t mm = make_op(dnnl_graph_op_matmul, mm_in, y);
    mm.set_attr(dnnl_graph_op_attr_transpose_b, attr_value_t::make_bool(c.tb));
    p.ops = {dqa, dqb, mm};
    r.mm_only.ops = {mm};
    r.mm_only.inputs = mm_in;
    if (c.bias == 2) {
        const logical_tensor_t bias = lt(id, dnnl_f32, {c.N});
        p.inputs.push_back(bias);
        r.mm_only.inputs.push_back(bias);
        const logical_tensor_t z = lt(id, dnnl_f32, dd);
        p.ops.push_back(make_op(dnnl_graph_op_bias_add, {y, bias}, z));
        r.mm_only.ops.push_back(p.ops.back());
        y = z;
    }
    r.pre_q = y.id;
    if (c.dst != dnnl_f32) {
        // Spread the outputs over most of the int8 range (some saturate).
        r.dst_scale = 0.1f * std::sqrt(static_cast<float>(c.K));
        r.dst_zp = c.dst == dnnl_u8 ? 120 : -4;
        const auto new_lt = [&](data_type_t t) { return lt(id, t, dd); };
        y = plan_test::append_int8_tail(p, y, c.clamp, c.dst, r.dst_scale,
                r.dst_zp, r.lo, r.hi, new_lt);
    }
    p.outputs = {y};
    return r;
}

// Runs the case at every level (with `eng` for constant weights) and
// checks the result; the reference runs op by op.
//
// Tolerance. The reference dequantizes each operand to f32 (one rounding
// each), sums in double and rounds f to f32; the kernel sums the integers
// exactly and applies src_scale * wei_scale[j] and the bias in f32 (about
// three roundings). Both stay within 8u (sum |a_f||b_f| + |bias|) of the
// exact value (u = 2^-24), so f32 dst may differ by that much. For u8/s8
// dst the reference computes q = f * (1/scale) + zp in f32 and rounds half
// to even after saturating; the kernel does one FMA before rounding. An
// output may thus be off by one only where q is within that error (divided
// by the dst scale, plus two roundings of q) of a .5 tie: every output is
// checked against rne(q -+ delta), and fewer than 1% may differ from the
// reference at all.
void check(const qcase_t &c, unsigned seed, const rt::engine_t *eng = nullptr) {
    std::mt19937 gen(seed);
    const built_t bt = build(c, gen);
    const compiler::plan_t &p = bt.plan;
    std::vector<bytes_t> in;
    for (const auto &t : p.inputs)
        in.push_back(random_quant_bytes(t, gen));
    const auto want = run_ref(p, in);
    const bytes_t sabs = plan_test::abs_sums(bt.mm_only, want, bt.pre_q);
    const logical_tensor_t &out = p.outputs[0];
    const int64_t n = ir::nelems(out);
    for (isa_t isa : levels()) {
        isa_guard_t guard(isa);
        const compiler::backend_t &be = cpu_backend();
        ASSERT_TRUE(be.supports(p)) << c.str() << " declined @" << isa_name(isa);
        std::shared_ptr<const compiler::kernel_t> k;
        ASSERT_EQ(be.compile(p, k), dnnl_success) << last_error();
        EXPECT_EQ(std::string(k->name()).rfind("matmul_int8_", 0), 0u)
                << k->name();
        const plan_test::int8_expect_t e
                = plan_test::int8_expect_of(bt, want, sabs);
        plan_test::run_twice_int8(*k, in, out, e, eng, c.constant, n / 100,
                c.str() + " @" + isa_name(isa));
    }
}

const int64_t k_ms[] = {1, 3, 13, 17, 40};
const int64_t k_ns[] = {1, 5, 16, 17, 35};
const int64_t k_ks[] = {1, 4, 19, 64, 131};

TEST_F(CpuMatmulInt8, RandomCasesAgainstReference) {
    std::mt19937 gen(3);
    unsigned seed = 1;
    const data_type_t dsts[] = {dnnl_f32, dnnl_u8, dnnl_s8};
    for (int src_s8 = 0; src_s8 < 2; ++src_s8)
        for (int wei_q = 0; wei_q < 4; ++wei_q)
            for (data_type_t dst : dsts)
                for (int rep = 0; rep < 2; ++rep) {
                    qcase_t c;
                    c.src_s8 = src_s8;
                    c.wei_q = wei_q;
                    c.dst = dst;
                    c.zps = (gen() % 3) != 0;
                    c.bias = static_cast<int>(gen() % 3);
                    c.tb = gen() % 2;
                    c.batch = static_cast<int>(gen() % 3);
                    c.clamp = dst == dnnl_f32 ? 0 : static_cast<int>(gen() % 4);
                    c.M = k_ms[gen() % 5];
                    c.N = k_ns[gen() % 5];
                    c.K = k_ks[gen() % 5];
                    if (wei_q == 1 || wei_q == 2) c.N = std::max<int64_t>(c.N, 2);
                    check(c, seed++);
                }
}

TEST_F(CpuMatmulInt8, ConstantWeightsArePrepacked) {
    rt::engine_t eng(dnnl_cpu, 9, rt::allocator_t()); // its own cache
    rt::constant_cache_t &cc = rt::constant_cache_t::get(dnnl_cpu, 9);
    cc.set_capacity(size_t(64) << 20);
    unsigned seed = 900;
    for (int64_t M : {1, 20})
        for (bool tb : {false, true}) {
            qcase_t c;
            c.constant = true;
            c.tb = tb;
            c.M = M;
            c.N = 37;
            c.K = 70;
            c.wei_q = 1;
            c.zps = true;
            c.bias = 1;
            c.dst = M == 1 ? dnnl_f32 : dnnl_u8;
            c.batch = 1;
            check(c, seed++, &eng);
        }
    cc.set_capacity(0);
}

std::string decline_reason(const compiler::plan_t &p) {
    std::string why;
    EXPECT_FALSE(matmul::accepts_int8(p, isa_t::avx2, &why));
    EXPECT_FALSE(cpu_backend().supports(p));
    return why;
}

TEST_F(CpuMatmulInt8, DeclinesWhatTheInt8EpilogueCannotDo) {
    std::mt19937 gen(5);
    qcase_t c;
    c.M = 8;
    c.N = 16;
    c.K = 32;
    c.dst = dnnl_u8;
    auto find = [](const std::string &s, const char *what) {
        return s.find(what) != std::string::npos;
    };
    { // u8 weights.
        built_t b = build(c, gen);
        b.plan.inputs[1].data_type = dnnl_u8;
        b.plan.ops[1].inputs[0].data_type = dnnl_u8;
        EXPECT_TRUE(find(decline_reason(b.plan), "s8 weights"));
    }
    { // Per-channel weight scales along K, and differing weight zps.
        built_t b = build(c, gen);
        std::vector<float> sc(32);
        for (size_t i = 0; i < sc.size(); ++i)
            sc[i] = 0.01f + 0.001f * i;
        set_quant(b.plan.ops[1], sc, {}, 0);
        EXPECT_TRUE(find(decline_reason(b.plan), "output columns"));
        std::vector<float> sn(16, 0.01f);
        std::vector<int64_t> zn(16, 0);
        zn[3] = 1;
        set_quant(b.plan.ops[1], sn, zn, 1);
        EXPECT_TRUE(find(decline_reason(b.plan), "zero points differ"));
    }
    { // Per-channel src scales.
        built_t b = build(c, gen);
        std::vector<float> sc(32);
        for (size_t i = 0; i < sc.size(); ++i)
            sc[i] = 0.01f + 0.001f * i;
        set_quant(b.plan.ops[0], sc, {}, 1);
        EXPECT_TRUE(find(decline_reason(b.plan), "per-channel"));
    }
    { // f32 weights quantized inside the partition.
        built_t b = build(c, gen);
        const logical_tensor_t w = ir::make_lt(501, dnnl_f32, {32, 16});
        ir::op_t q = make_op(dnnl_graph_op_quantize, {w}, b.plan.ops[1].inputs[0]);
        set_quant(q, {0.01f}, {});
        b.plan.ops.insert(b.plan.ops.begin(), q);
        b.plan.inputs[1] = w;
        EXPECT_TRUE(find(decline_reason(b.plan), "quantized f32 weights"));
    }
    { // A MatMul whose fpmath mode would round the dequantized values.
        built_t b = build(c, gen);
        b.plan.ops[2].fpmath = dnnl_fpmath_mode_bf16;
        EXPECT_TRUE(find(decline_reason(b.plan), "fpmath"));
    }
}

} // namespace
} // namespace cpu
} // namespace llga
