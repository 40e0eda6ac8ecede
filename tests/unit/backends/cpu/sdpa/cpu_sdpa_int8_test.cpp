// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/sdpa/cpu_sdpa_int8_test.cpp — the SDPA kernel's
// integer path (backends/cpu/kernels/sdpa/sdpa_int8.cpp) on quantized
// attention blocks, at every int8 level the host has (AVX2 words, AVX-512,
// VNNI, AMX): u8 and s8 Q, K, V with zero points, probabilities quantized
// to u8 or s8, u8/s8/f32 outputs, row blocks with a tail. Expected values
// come from the integer semantics written out in double precision here
// (not from the reference ops, which round each dequantized value to bf16
// before multiplying: the integer path does not, see
// docs/compatibility.md); the f32 path's match with the reference ops is
// cpu_sdpa_test.cpp's QuantizedBlockMatchesTheReference.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/isa.hpp"
#include "cpu_plan_test_util.hpp"
#include "cpu_sdpa_test_util.hpp"
#include "cpu_test_isa.hpp"
#include "ir/dtype.hpp"
#include "ir/shape.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace {

using namespace sdpa_test;

class CpuSdpaInt8 : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

struct quant_t {
    data_type_t dt;
    float scale;
    int64_t zp;
};

// One quantized block: heads Dequantize(quant) -> TypeCast bf16; bf16
// scores / f32 divisor -> SoftMax (bf16) -> TypeCast f32 -> Quantize(p) ->
// Dequantize(p) -> TypeCast bf16 -> MatMul (bf16) -> TypeCast f32 ->
// Quantize(o) when o.dt is u8/s8 (else the f32 TypeCast is the output).
struct block_t {
    int64_t heads, sq, skv, d, dv;
    quant_t q, k, v, p, o;
    float div;
    bool p_round_trip = true; // false: no Quantize/Dequantize on P
};

// u8 Q, s8 K and u8 V, u8 probabilities at 1/16 (coarse, so a wrong zero
// point, scale or row moves outputs by many steps), a u8 output with a
// fine step, and a division by 4.
block_t u8_heads(int64_t heads, int64_t sq, int64_t skv, int64_t d,
        int64_t dv) {
    return {heads, sq, skv, d, dv, {dnnl_u8, 0.01f, 128},
            {dnnl_s8, 0.008f, 3}, {dnnl_u8, 0.03f, 120},
            {dnnl_u8, 1.f / 16, 0}, {dnnl_u8, 0.01f, 100}, 4.f};
}

float bf16(double x) { return ir::bf16_to_f32(ir::f32_to_bf16(static_cast<float>(x))); }

double quantize(double x, const quant_t &t) {
    const double lo = t.dt == dnnl_u8 ? 0 : -128, hi = t.dt == dnnl_u8 ? 255 : 127;
    return std::min(hi, std::max(lo, std::nearbyint(x / t.scale + t.zp)));
}

compiler::plan_t build(const block_t &b, size_t *ids) {
    plan_builder_t g;
    const auto qattrs = [](const quant_t &t) {
        return [t](ir::op_t &op) {
            op.set_attr(dnnl_graph_op_attr_scales, attr_value_t::make_f32s({t.scale}));
            op.set_attr(dnnl_graph_op_attr_zps, attr_value_t::make_s64s({t.zp}));
        };
    };
    const dims_t qd = {1, b.heads, b.sq, b.d}, kd = {1, b.heads, b.skv, b.d},
                 vd = {1, b.heads, b.skv, b.dv}, sd = {1, b.heads, b.sq, b.skv},
                 od = {1, b.heads, b.sq, b.dv};
    const auto head = [&](const dims_t &dims, const quant_t &t, size_t *id) {
        const logical_tensor_t x = g.in(dims, t.dt);
        *id = x.id;
        const logical_tensor_t f = g.add(dnnl_graph_op_dequantize, {x}, dims,
                dnnl_f32, qattrs(t));
        return g.add(dnnl_graph_op_type_cast, {f}, dims, dnnl_bf16);
    };
    const logical_tensor_t q = head(qd, b.q, &ids[0]);
    const logical_tensor_t k = head(kd, b.k, &ids[1]);
    logical_tensor_t s = g.add(dnnl_graph_op_matmul, {q, k}, sd, dnnl_bf16, transpose_b);
    const logical_tensor_t div = g.in({1});
    ids[3] = div.id;
    s = g.add(dnnl_graph_op_divide, {s, div}, sd, dnnl_bf16);
    s = g.add(dnnl_graph_op_softmax, {s}, sd, dnnl_bf16, inf_as_zero);
    s = g.add(dnnl_graph_op_type_cast, {s}, sd, dnnl_f32);
    if (b.p_round_trip) {
        s = g.add(dnnl_graph_op_quantize, {s}, sd, b.p.dt, qattrs(b.p));
        s = g.add(dnnl_graph_op_dequantize, {s}, sd, dnnl_f32, qattrs(b.p));
    }
    s = g.add(dnnl_graph_op_type_cast, {s}, sd, dnnl_bf16);
    const logical_tensor_t v = head(vd, b.v, &ids[2]);
    logical_tensor_t o = g.add(dnnl_graph_op_matmul, {s, v}, od, dnnl_bf16);
    o = g.add(dnnl_graph_op_type_cast, {o}, od, dnnl_f32);
    if (b.o.dt != dnnl_f32)
        g.add(dnnl_graph_op_quantize, {o}, od, b.o.dt, qattrs(b.o));
    return g.plan();
}

// The integer semantics in double: S = bf16(sq sk Σ (q - zq)(k - zk)),
// bf16(S / div), SoftMax, bf16, quantized; O = sp sv Σ (p - zp)(v - zv),
// bf16, then quantized (or f32).
std::vector<double> expected(const block_t &b, const uint8_t *q,
        const uint8_t *k, const uint8_t *v) {
    const auto val = [](const uint8_t *x, const quant_t &t, int64_t i) {
        return t.dt == dnnl_u8 ? double(x[i]) : double(int8_t(x[i]));
    };
    std::vector<double> out(static_cast<size_t>(b.heads * b.sq * b.dv));
    std::vector<double> s(static_cast<size_t>(b.skv)), p8(s.size());
    for (int64_t h = 0; h < b.heads; ++h)
        for (int64_t i = 0; i < b.sq; ++i) {
            double mx = -INFINITY;
            for (int64_t j = 0; j < b.skv; ++j) {
                double r = 0;
                for (int64_t e = 0; e < b.d; ++e)
                    r += (val(q, b.q, (h * b.sq + i) * b.d + e) - double(b.q.zp))
                            * (val(k, b.k, (h * b.skv + j) * b.d + e) - double(b.k.zp));
                const float sc = bf16(static_cast<float>(r) * b.q.scale * b.k.scale);
                s[size_t(j)] = bf16(double(sc) / double(b.div));
                mx = std::max(mx, s[size_t(j)]);
            }
            double sum = 0;
            for (int64_t j = 0; j < b.skv; ++j)
                sum += std::exp(s[size_t(j)] - mx);
            for (int64_t j = 0; j < b.skv; ++j)
                p8[size_t(j)] = quantize(bf16(std::exp(s[size_t(j)] - mx) / sum), b.p);
            for (int64_t e = 0; e < b.dv; ++e) {
                double r = 0;
                for (int64_t j = 0; j < b.skv; ++j)
                    r += (p8[size_t(j)] - double(b.p.zp))
                            * (val(v, b.v, (h * b.skv + j) * b.dv + e) - double(b.v.zp));
                const double f = bf16(r * b.p.scale * b.v.scale);
                out[size_t((h * b.sq + i) * b.dv + e)]
                        = b.o.dt == dnnl_f32 ? f : quantize(f, b.o);
            }
        }
    return out;
}

void run_block(const block_t &b, const std::string &what) {
    size_t ids[4];
    const compiler::plan_t p = build(b, ids);
    std::vector<bytes_t> in = make_inputs(p, {{ids[3], 0, 0, true, b.div}}, 5);
    const auto at = [&](size_t id) {
        return reinterpret_cast<const uint8_t *>(
                in[static_cast<size_t>(compiler::find_port(p.inputs, id))].data());
    };
    const std::vector<double> want = expected(b, at(ids[0]), at(ids[1]), at(ids[2]));
    const data_type_t odt = p.outputs[0].data_type;
    // One output step: 1 for an int8 output; for f32, one bf16 step.
    for (isa_t isa : test_isa::host_levels({isa_t::avx2, isa_t::avx512_core,
                 isa_t::avx512_core_vnni, isa_t::avx512_core_amx})) {
        test_isa::isa_guard_t guard(isa);
        bytes_t got;
        std::string kname;
        ASSERT_TRUE(plan_test::run_jit(p, in, got, &kname)) << what;
        EXPECT_EQ(kname.rfind("sdpa_int8_", 0), 0u) << what << ": " << kname;
        int bad = 0;
        for (size_t i = 0; i < want.size(); ++i) {
            const double g = ir::load_value(odt, got.data(), static_cast<int64_t>(i));
            const double step = odt == dnnl_f32
                    ? std::max(std::fabs(want[i]) / 128, 1e-30)
                    : 1.0;
            if (std::fabs(g - want[i]) > step && bad++ < 5)
                ADD_FAILURE() << what << " at " << isa_name(isa) << " (" << kname
                              << "): element " << i << " got " << g << " want "
                              << want[i];
        }
        EXPECT_EQ(bad, 0) << what << " at " << isa_name(isa);
    }
}

TEST_F(CpuSdpaInt8, QuantizedBlocksRunOnTheIntegers) {
    // Coarse probability levels (1/16) and a fine output step make a wrong
    // zero point, scale or row move outputs by many steps. 70 query rows:
    // several row blocks sharing packed K and V, and a shorter last one;
    // 27 keys and D = 20: K tails for every kernel's k grouping.
    const block_t u8 = u8_heads(4, 70, 27, 20, 24);
    run_block(u8, "u8 Q, s8 K, u8 V, u8 output");
    const block_t s8_heads {3, 33, 40, 32, 16, {dnnl_s8, 0.012f, -5},
            {dnnl_u8, 0.01f, 130}, {dnnl_s8, 0.02f, 0},
            {dnnl_s8, 1.f / 32, -100}, {dnnl_s8, 0.02f, -3}, 2.f};
    run_block(s8_heads, "s8 Q, u8 K, s8 V, s8 probabilities and output");
    // D and Skv multiples of 64: AMX tile loads read Q's and P's rows in
    // place (gemm_int8_t::a_in_place).
    block_t whole_tiles = u8;
    whole_tiles.heads = 2;
    whole_tiles.skv = 128;
    whole_tiles.d = 64;
    run_block(whole_tiles, "D and Skv multiples of 64");
    block_t f32_out = u8;
    f32_out.o = {dnnl_f32, 1.f, 0};
    f32_out.sq = 9;
    run_block(f32_out, "f32 output, one row block");
}

TEST_F(CpuSdpaInt8, PowerOfTwoDivisorsMultiplyWithTheSameBits) {
    // The Q·Kᵀ chain's division by 4 runs as a multiplication by 1/4
    // (gemm_scalar_div.hpp): the same output bytes as with the division,
    // at every int8 level the host has.
    size_t ids[4];
    const compiler::plan_t p = build(u8_heads(3, 40, 27, 20, 24), ids);
    const std::vector<bytes_t> in
            = make_inputs(p, {{ids[3], 0, 0, true, 4.f}}, 6);
    expect_div_twin_exact(p, in, "u8/s8 heads / 4",
            {isa_t::avx2, isa_t::avx512_core, isa_t::avx512_core_vnni,
                    isa_t::avx512_core_amx});
}

TEST_F(CpuSdpaInt8, ComputesInF32WhenAskedOrWhenTheBlockIsNotQuantizedThrough) {
    // LLGA_SDPA_INT8=0 keeps quantized blocks on the f32 path (exact to
    // the reference's roundings), as do blocks whose probabilities do not
    // go through a Quantize round trip.
    const block_t b = u8_heads(2, 8, 16, 16, 16);
    size_t ids[4];
    const compiler::plan_t p = build(b, ids);
    const std::vector<bytes_t> in = make_inputs(p, {{ids[3], 0, 0, true, 4.f}}, 3);
    bytes_t got;
    std::string kname;
    {
        env_guard_t f32_path("LLGA_SDPA_INT8", "0");
        ASSERT_TRUE(plan_test::run_jit(p, in, got, &kname));
        EXPECT_EQ(kname.rfind("sdpa_u8_", 0), 0u) << kname;
    }
    ASSERT_TRUE(plan_test::run_jit(p, in, got, &kname));
    EXPECT_EQ(kname.rfind("sdpa_int8_", 0), 0u) << kname;

    block_t plain = b;
    plain.p_round_trip = false;
    const compiler::plan_t p2 = build(plain, ids);
    ASSERT_TRUE(plan_test::run_jit(p2, make_inputs(p2, {{ids[3], 0, 0, true, 4.f}}, 3),
            got, &kname));
    EXPECT_EQ(kname.rfind("sdpa_u8_", 0), 0u) << kname;
}

} // namespace
} // namespace cpu
} // namespace llga
