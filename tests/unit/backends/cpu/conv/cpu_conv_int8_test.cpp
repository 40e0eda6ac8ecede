// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/conv/cpu_conv_int8_test.cpp — quantized Convolution
// partitions (Dequantize(src u8/s8), Dequantize(weights s8) -> Convolution
// -> [bias] -> [ReLU/Clamp, or a post-op chain with scalar and
// per-channel operands] -> [Quantize u8/s8]) on the int8 GEMM
// (conv_int8.cpp), against the reference ops run one by one, at every ISA
// level the host has: dense 1x1 and im2col layouts (padding with a nonzero
// src zero point, strides, dilations, 1D/3D), channel and pixel tails, OC
// blocks, XIO and OIX weights, per-tensor and per-channel weight scales,
// both bias forms, f32/u8/s8 dst, NXC and NCX data (8-bit results, f32
// ones for K >= 256, and the dense 1x1 with an f32 result run as W x X), bf16 models (Dequantize -> TypeCast heads, bf16
// chains and results), constant weights prepacked through the constant
// cache, and what must be declined.
#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/cpu/isa.hpp"
#include "backends/cpu/kernels/conv/conv_int8.hpp"
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

std::vector<isa_t> levels() {
    return test_isa::host_levels({isa_t::avx2, isa_t::avx2_vnni,
            isa_t::avx512_core_vnni, isa_t::avx512_core_amx});
}

class CpuConvInt8 : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

struct qconv_t {
    int nsp = 2; // spatial rank
    int64_t N = 1, IC = 8, OC = 16, I = 6, K = 3, S = 1, P = 1, D = 1;
    bool src_s8 = false;
    bool oix = false;
    bool wei_pc = false; // per-channel weight scales
    int bias = 0;        // 0 none, 1 Convolution input, 2 BiasAdd
    data_type_t dst = dnnl_f32;
    int clamp = 0; // before a Quantize: 0 -, 1 ReLU, 2 Clamp, 3 both
    bool constant = false;
    bool ncx = false; // channel-first src and dst
    // A post-op chain after the bias: 0 none; 1 Add(f32 scalar), GELU,
    // Multiply(per-channel u8, dequantized); 2 Multiply(per-channel f32),
    // Add(s8 scalar, dequantized), Tanh; 3 Add(f32 residual, the dst's
    // shape), ReLU; 4 Add(s8 residual, dequantized), ReLU; 5 Multiply by
    // one f32 value per image and channel (an SE block's scales), Sigmoid.
    int chain = 0;
    // A bf16 model: src and weights Dequantize -> TypeCast to bf16, a bf16
    // bias (bias 1), every value after the Convolution bf16 (operands
    // bf16, or Dequantize -> TypeCast), a bf16 dst or TypeCast to f32 ->
    // Quantize. `cast_anchor`: the Convolution gives f32 and a TypeCast
    // rounds it (the same values; expectations are computed on this form).
    bool bf16 = false, cast_anchor = false;
    int64_t O() const { return (I + 2 * P - D * (K - 1) - 1) / S + 1; }
    std::string str() const {
        std::string r = std::string(src_s8 ? "s8" : "u8") + " sp"
                + std::to_string(nsp);
        for (int64_t v : {N, IC, OC, I, K, S, P, D})
            r += " " + std::to_string(v);
        return r + (oix ? " OIX" : " XIO") + (wei_pc ? " pc" : "") + " bias"
                + std::to_string(bias) + " " + ir::dtype_name(dst) + " clamp"
                + std::to_string(clamp) + (constant ? " const" : "")
                + (ncx ? " NCX" : "") + " chain" + std::to_string(chain)
                + (bf16 ? " bf16" : "") + (cast_anchor ? " cast" : "");
    }
};

struct built_t {
    compiler::plan_t plan;
    compiler::plan_t conv_only; // Convolution (+ BiasAdd) on f32 values
    size_t pre_q = 0;           // the f32 value before clamps/Quantize
    size_t pre_chain = 0;       // the conv's (or BiasAdd's) output
    float dst_scale = 1.f;
    int64_t dst_zp = 0;
    double lo = -INFINITY, hi = INFINITY;
};

using plan_test::make_op;

using plan_test::set_quant;

built_t build(const qconv_t &c, std::mt19937 &gen) {
    size_t id = 100;
    built_t r;
    compiler::plan_t &p = r.plan;
    auto lt = [&](data_type_t dt, const dims_t &d) {
        return ir::make_lt(id++, dt, d);
    };
    const data_type_t sdt = c.src_s8 ? dnnl_s8 : dnnl_u8;
    dims_t xd = {c.N}, wd, yd = {c.N};
    for (int i = 0; i < c.nsp; ++i) {
        xd.push_back(c.I);
        yd.push_back(c.O());
    }
    // Channels last (NXC) or second (NCX).
    xd.insert(c.ncx ? xd.begin() + 1 : xd.end(), c.IC);
    yd.insert(c.ncx ? yd.begin() + 1 : yd.end(), c.OC);
    const char *fmt = c.ncx ? "NCX" : "NXC";
    if (c.oix) wd = {c.OC, c.IC};
    for (int i = 0; i < c.nsp; ++i)
        wd.push_back(c.K);
    if (!c.oix) {
        wd.push_back(c.IC);
        wd.push_back(c.OC);
    }
    const logical_tensor_t x = lt(sdt, xd), w = lt(dnnl_s8, wd);
    logical_tensor_t wp = w;
    if (c.constant) wp.property = dnnl_graph_tensor_property_constant;
    p.inputs = {x, wp};
    const logical_tensor_t xf = lt(dnnl_f32, xd), wf = lt(dnnl_f32, wd);
    ir::op_t dqx = make_op(dnnl_graph_op_dequantize, {x}, xf);
    // A nonzero src zero point, so padding is only right as that value.
    // bf16 models: powers of two, so the dequantized values are bf16
    // numbers and the TypeCasts the int8 GEMM skips change nothing.
    set_quant(dqx, {c.bf16 ? 0.015625f : 0.02f}, {c.src_s8 ? -3 : 120});
    ir::op_t dqw = make_op(dnnl_graph_op_dequantize, {w}, wf);
    if (c.wei_pc) {
        std::uniform_real_distribution<float> us(0.004f, 0.016f);
        std::vector<float> sc(static_cast<size_t>(c.OC));
        for (size_t i = 0; i < sc.size(); ++i)
            sc[i] = c.bf16 ? std::ldexp(1.f, -6 - static_cast<int>(i % 3))
                           : us(gen);
        set_quant(dqw, sc, std::vector<int64_t>(sc.size(), 0),
                c.oix ? 0 : static_cast<int64_t>(wd.size()) - 1, true);
    } else {
        set_quant(dqw, {c.bf16 ? 0.0078125f : 0.01f}, {0});
    }
    std::vector<logical_tensor_t> cin = {xf, wf};
    if (c.bias == 1) {
        cin.push_back(lt(c.bf16 ? dnnl_bf16 : dnnl_f32, {c.OC}));
        p.inputs.push_back(cin.back());
    }
    const data_type_t vdt = c.bf16 ? dnnl_bf16 : dnnl_f32; // chain values
    logical_tensor_t y = lt(c.bf16 && !c.cast_anchor ? dnnl_bf16 : dnnl_f32, yd);
    ir::op_t conv = make_op(dnnl_graph_op_convolution, cin, y);
    auto sp = [&](dnnl_graph_op_attr_t a, int64_t v) {
        conv.set_attr(a, attr_value_t::make_s64s(dims_t(c.nsp, v)));
    };
    sp(dnnl_graph_op_attr_strides, c.S);
    sp(dnnl_graph_op_attr_pads_begin, c.P);
    sp(dnnl_graph_op_attr_pads_end, c.P);
    sp(dnnl_graph_op_attr_dilations, c.D);
    conv.set_attr(dnnl_graph_op_attr_groups, attr_value_t::make_s64(1));
    conv.set_attr(dnnl_graph_op_attr_data_format, attr_value_t::make_str(fmt));
    conv.set_attr(dnnl_graph_op_attr_weights_format,
            attr_value_t::make_str(c.oix ? "OIX" : "XIO"));
    p.ops = {dqx, dqw};
    r.conv_only.ops = {conv}; // on the f32 dequantized values, f32 result
    r.conv_only.ops[0].outputs[0].data_type = dnnl_f32;
    r.conv_only.inputs = cin;
    if (c.bf16) {
        const logical_tensor_t xh = lt(dnnl_bf16, xd), wh = lt(dnnl_bf16, wd);
        p.ops.push_back(make_op(dnnl_graph_op_type_cast, {xf}, xh));
        p.ops.push_back(make_op(dnnl_graph_op_type_cast, {wf}, wh));
        conv.inputs[0] = xh;
        conv.inputs[1] = wh;
    }
    p.ops.push_back(conv);
    if (c.bias == 2) {
        const logical_tensor_t b = lt(dnnl_f32, {c.OC});
        p.inputs.push_back(b);
        r.conv_only.inputs.push_back(b);
        const logical_tensor_t z = lt(dnnl_f32, yd);
        ir::op_t ba = make_op(dnnl_graph_op_bias_add, {y, b}, z);
        ba.set_attr(dnnl_graph_op_attr_data_format, attr_value_t::make_str(fmt));
        p.ops.push_back(ba);
        r.conv_only.ops.push_back(ba);
        y = z;
    }
    r.pre_chain = y.id;
    if (c.bf16 && c.cast_anchor) {
        const logical_tensor_t z = lt(dnnl_bf16, yd);
        p.ops.push_back(make_op(dnnl_graph_op_type_cast, {y}, z));
        y = z;
    }
    if (c.chain) {
        // Per-channel operands: [1, OC, 1..] (NCX) or [OC] (NXC).
        dims_t pc(yd.size(), 1);
        pc[c.ncx ? 1 : yd.size() - 1] = c.OC;
        if (!c.ncx) pc = {c.OC};
        auto binary = [&](op_kind_t kind, data_type_t odt, const dims_t &od) {
            logical_tensor_t o = lt(vdt, od);
            if (odt == dnnl_f32) { // bf16 in bf16 models
                p.inputs.push_back(o);
            } else {
                const logical_tensor_t q = lt(odt, od), of = lt(dnnl_f32, od);
                p.inputs.push_back(q);
                p.ops.push_back(make_op(dnnl_graph_op_dequantize, {q}, of));
                set_quant(p.ops.back(), {0.01f}, {odt == dnnl_u8 ? 128 : 2});
                if (c.bf16) // rounds (q - zp) * 0.01
                    p.ops.push_back(make_op(dnnl_graph_op_type_cast, {of}, o));
                else
                    o = of;
            }
            const logical_tensor_t z = lt(vdt, yd);
            p.ops.push_back(make_op(kind, {y, o}, z));
            y = z;
        };
        auto unary = [&](op_kind_t kind) {
            const logical_tensor_t z = lt(vdt, yd);
            p.ops.push_back(make_op(kind, {y}, z));
            y = z;
        };
        if (c.chain == 1) {
            binary(dnnl_graph_op_add, dnnl_f32, {1});
            unary(dnnl_graph_op_gelu);
            binary(dnnl_graph_op_multiply, dnnl_u8, pc);
        } else if (c.chain == 2) {
            binary(dnnl_graph_op_multiply, dnnl_f32, pc);
            binary(dnnl_graph_op_add, dnnl_s8, {1});
            unary(dnnl_graph_op_tanh);
        } else if (c.chain <= 4) {
            binary(dnnl_graph_op_add, c.chain == 3 ? dnnl_f32 : dnnl_s8, yd);
            unary(dnnl_graph_op_relu);
        } else {
            dims_t se(yd.size(), 1);
            se[0] = c.N;
            se[c.ncx ? 1 : yd.size() - 1] = c.OC;
            binary(dnnl_graph_op_multiply, dnnl_f32, se);
            unary(dnnl_graph_op_sigmoid);
        }
    }
    if (c.bf16 && c.dst != dnnl_bf16) { // the Quantize reads f32
        const logical_tensor_t z = lt(dnnl_f32, yd);
        p.ops.push_back(make_op(dnnl_graph_op_type_cast, {y}, z));
        y = z;
    }
    r.pre_q = y.id;
    if (c.dst != dnnl_f32 && c.dst != dnnl_bf16) {
        const int64_t kdim = c.IC * static_cast<int64_t>(std::pow(c.K, c.nsp));
        r.dst_scale = 0.1f * std::sqrt(static_cast<float>(kdim));
        r.dst_zp = c.dst == dnnl_u8 ? 120 : -4;
        const auto new_lt = [&](data_type_t t) { return lt(t, yd); };
        y = plan_test::append_int8_tail(p, y, c.clamp, c.dst, r.dst_scale,
                r.dst_zp, r.lo, r.hi, new_lt);
    }
    p.outputs = {y};
    return r;
}

// Runs the case at every level and checks it against the reference run op
// by op. Tolerance as in cpu_matmul_int8_test: the reference rounds each
// dequantized operand and f, the kernel sums the integers exactly and
// applies the scales and bias in f32, so f may differ by 8u (sum |x_f||w_f|
// + |bias|); a u8/s8 output may be off by one only where q is that close
// to a .5 tie, and fewer than 1% may differ at all. `kind` is the kernel
// name's expected prefix.
void check(const qconv_t &c, unsigned seed, const std::string &kind,
        const rt::engine_t *eng = nullptr) {
    std::mt19937 gen(seed);
    std::mt19937 gen_cast = gen;
    const built_t bt = build(c, gen);
    const compiler::plan_t &p = bt.plan;
    std::vector<bytes_t> in;
    for (const auto &t : p.inputs)
        in.push_back(random_quant_bytes(t, gen));
    // bf16 models: expectations from the form whose Convolution gives f32.
    qconv_t cf = c;
    cf.cast_anchor = true;
    const built_t bx = c.bf16 ? build(cf, gen_cast) : bt;
    const auto want = run_ref(p, in);
    const bytes_t sabs = plan_test::abs_sums(bt.conv_only, want, bt.pre_chain);
    const logical_tensor_t &out = p.outputs[0];
    const int64_t n = ir::nelems(out);
    for (isa_t isa : levels()) {
        test_isa::isa_guard_t guard(isa);
        const compiler::backend_t &be = cpu_backend();
        std::string why;
        ASSERT_TRUE(conv::accepts_int8(p, isa, &why))
                << c.str() << " declined @" << isa_name(isa) << ": " << why;
        std::shared_ptr<const compiler::kernel_t> k;
        ASSERT_EQ(be.compile(p, k), dnnl_success) << last_error();
        EXPECT_EQ(std::string(k->name()).rfind(kind, 0), 0u)
                << c.str() << ": " << k->name();
        if (c.chain || c.bf16) {
            EXPECT_EQ(std::string(k->name()).find("_po:") != std::string::npos,
                    c.chain || c.dst != dnnl_bf16)
                    << k->name();
            plan_test::int8_chain_expect_t e = plan_test::int8_chain_expect(
                    bx.plan, in, bx.conv_only, bx.pre_chain, bx.pre_q,
                    bx.dst_scale, static_cast<double>(bx.dst_zp));
            if (c.bf16) {
                e.pre_q_dt = c.dst == dnnl_bf16 ? dnnl_bf16 : dnnl_f32;
                // GELU, Tanh, Sigmoid (chains 1, 2, 5) may tip a rounding.
                const bool approx = c.chain == 1 || c.chain == 2 || c.chain == 5;
                e.rel_slack = approx ? std::ldexp(1.0, -7) : 0;
            }
            plan_test::expect_int8_chain(*k, in, bx.plan.outputs[0], e,
                    c.str() + " @" + isa_name(isa));
            continue;
        }
        const plan_test::int8_expect_t e
                = plan_test::int8_expect_of(bt, want, sabs);
        plan_test::run_twice_int8(*k, in, out, e, eng, c.constant,
                std::max<int64_t>(1, n / 100), c.str() + " @" + isa_name(isa));
    }
}

const char *k_1x1 = "conv_int8_1x1_", *k_im2col = "conv_int8_im2col_";

// A layer (square spatial dims) with options: s8 (src), oix, pc (per-channel
// weight scales), b1/b2 (bias input / BiasAdd), u8/s8q (Quantize dst),
// c1..c3 (clamps), 1d/3d, const, ncx (channel-first data), ch1..ch5 (the
// post-op chains of qconv_t::chain).
qconv_t layer(int64_t N, int64_t IC, int64_t OC, int64_t I, int64_t K,
        int64_t S, int64_t P, int64_t D = 1, const std::string &opts = "") {
    qconv_t c;
    c.N = N, c.IC = IC, c.OC = OC, c.I = I, c.K = K, c.S = S, c.P = P, c.D = D;
    size_t at = 0;
    while (at < opts.size()) {
        size_t end = opts.find(' ', at);
        if (end == std::string::npos) end = opts.size();
        const std::string o = opts.substr(at, end - at);
        at = end + 1;
        if (o == "s8") c.src_s8 = true;
        if (o == "oix") c.oix = true;
        if (o == "pc") c.wei_pc = true;
        if (o == "b1" || o == "b2") c.bias = o[1] - '0';
        if (o == "u8") c.dst = dnnl_u8;
        if (o == "s8q") c.dst = dnnl_s8;
        if (o.size() == 2 && o[0] == 'c') c.clamp = o[1] - '0';
        if (o == "1d" || o == "3d") c.nsp = o[0] - '0';
        if (o == "const") c.constant = true;
        if (o == "ncx") c.ncx = true;
        if (o.size() == 3 && o[0] == 'c' && o[1] == 'h') c.chain = o[2] - '0';
        if (o == "bf16") {
            c.bf16 = true;
            if (c.dst == dnnl_f32) c.dst = dnnl_bf16;
        }
    }
    return c;
}

TEST_F(CpuConvInt8, FixedLayers) {
    const struct {
        qconv_t c;
        const char *kind;
    } cases[] = {
            // 1x1 dense: one GEMM over 2 images, channel tails.
            {layer(2, 19, 37, 7, 1, 1, 0, 1, "b1"), k_1x1},
            {layer(2, 19, 37, 7, 1, 1, 0, 1, "s8 pc b2 u8 c1"), k_1x1},
            // 3x3 pad 1: padding must be the (nonzero) src zero point.
            {layer(2, 16, 24, 9, 3, 1, 1, 1, "pc b1 s8q c2"), k_im2col},
            {layer(2, 16, 24, 9, 3, 1, 1, 1, "s8 pc b2"), k_im2col},
            // Stride 2, dilation 2, strided 1x1, a k5 stem with IC 3, OIX.
            {layer(1, 8, 20, 11, 3, 2, 1, 1, "u8 c3"), k_im2col},
            {layer(2, 5, 17, 12, 3, 1, 2, 2, "oix pc"), k_im2col},
            {layer(1, 24, 40, 9, 1, 2, 0, 1, "oix b2"), k_im2col},
            {layer(1, 3, 30, 10, 5, 2, 2, 1, "oix s8 s8q"), k_im2col},
            // Pixel blocks with a tail (529 pixels); OC > 512 in blocks;
            // then 1D and 3D.
            {layer(1, 8, 33, 23, 3, 1, 1, 1, "u8 b1"), k_im2col},
            {layer(1, 16, 600, 6, 3, 1, 1, 1, "pc b1"), k_im2col},
            {layer(1, 32, 600, 5, 1, 1, 0, 1, "pc"), k_1x1},
            {layer(2, 6, 10, 13, 3, 1, 1, 1, "1d b1"), k_im2col},
            {layer(1, 4, 12, 5, 3, 1, 1, 1, "3d oix u8"), k_im2col},
            {layer(2, 9, 7, 4, 1, 1, 0, 1, "3d"), k_1x1},
            // Channel-first data with 8-bit results, through dense
            // channel-last copies: 1x1 with a BiasAdd, 3x3 padded, a
            // strided 1x1, a 3D layer.
            {layer(2, 19, 37, 7, 1, 1, 0, 1, "ncx b2 u8 c1"), k_1x1},
            {layer(2, 16, 24, 9, 3, 1, 1, 1, "ncx s8 pc b1 s8q"), k_im2col},
            {layer(1, 24, 40, 9, 1, 2, 0, 1, "ncx oix b2 u8 c2"), k_im2col},
            {layer(1, 4, 12, 5, 3, 1, 1, 1, "ncx 3d u8"), k_im2col},
            // Rows and channels long enough for the 16 x 16 byte tiles of
            // the moves, with tails of both.
            {layer(1, 40, 33, 35, 1, 1, 0, 1, "ncx u8"), k_1x1},
            {layer(2, 32, 48, 20, 3, 1, 1, 1, "ncx s8 s8q"), k_im2col},
            // Post-op chains (scalar and per-channel operands, f32 and
            // dequantized): 1x1, im2col, OC blocks (per-channel operands
            // offset per block), an f32 result, channel-first data.
            {layer(2, 19, 37, 7, 1, 1, 0, 1, "b1 u8 ch1"), k_1x1},
            {layer(2, 16, 24, 9, 3, 1, 1, 1, "pc b2 s8q ch2"), k_im2col},
            {layer(1, 16, 600, 6, 3, 1, 1, 1, "pc b1 ch1"), k_im2col},
            {layer(1, 32, 600, 5, 1, 1, 0, 1, "pc s8q ch2"), k_1x1},
            {layer(2, 19, 37, 7, 1, 1, 0, 1, "ncx b2 u8 ch2"), k_1x1},
            {layer(2, 16, 24, 9, 3, 1, 1, 1, "ncx s8 s8q ch1"), k_im2col},
            // Residual Adds (f32 and dequantized s8) on NXC data: 1x1 over
            // two images (folded), 3x3 with pixel blocks and a pixel
            // tail, OC blocks.
            {layer(2, 19, 37, 7, 1, 1, 0, 1, "b1 u8 ch3"), k_1x1},
            {layer(2, 19, 37, 7, 1, 1, 0, 1, "pc s8q ch4"), k_1x1},
            {layer(2, 8, 33, 23, 3, 1, 1, 1, "b2 u8 ch4"), k_im2col},
            {layer(1, 16, 600, 6, 3, 1, 1, 1, "pc b1 ch3"), k_im2col},
            // Residuals on NCX data, through channel-last copies of the
            // operand (f32, and s8 before its Dequantize).
            {layer(2, 19, 37, 7, 1, 1, 0, 1, "ncx b2 u8 ch3"), k_1x1},
            {layer(2, 16, 24, 9, 3, 1, 1, 1, "ncx s8 s8q ch4"), k_im2col},
            // Per image and channel (SE scales), NCX and NXC, 1x1 over
            // three images and im2col.
            {layer(3, 19, 37, 7, 1, 1, 0, 1, "ncx b2 u8 ch5"), k_1x1},
            {layer(3, 19, 37, 7, 1, 1, 0, 1, "s8q ch5"), k_1x1},
            {layer(2, 16, 24, 9, 3, 1, 1, 1, "ncx s8 s8q ch5"), k_im2col},
            // An f32 result on NCX data with K >= 256 (288).
            {layer(1, 32, 24, 9, 3, 1, 1, 1, "ncx b1"), k_im2col},
            // f32 results on NCX data, dense 1x1: W x X per image straight
            // into the NCX dst (u8 src flipped to s8, s8 src in place),
            // per-channel scales and bias as per-row post-ops, chains with
            // scalar, per-channel, residual (per pixel) and per image and
            // channel operands; pixel counts with tails of the 16-column
            // strips.
            {layer(2, 19, 37, 7, 1, 1, 0, 1, "ncx pc b1"), k_1x1},
            {layer(3, 40, 33, 5, 1, 1, 0, 1, "ncx s8 b2"), k_1x1},
            {layer(2, 19, 37, 7, 1, 1, 0, 1, "ncx oix pc ch1"), k_1x1},
            {layer(2, 16, 24, 9, 1, 1, 0, 1, "ncx s8 b1 ch2"), k_1x1},
            {layer(2, 19, 37, 7, 1, 1, 0, 1, "ncx pc b2 ch3"), k_1x1},
            {layer(1, 8, 20, 6, 1, 1, 0, 1, "ncx s8 ch4"), k_1x1},
            {layer(3, 19, 37, 7, 1, 1, 0, 1, "ncx pc b1 ch5"), k_1x1},
            {layer(2, 9, 7, 4, 1, 1, 0, 1, "ncx 3d pc"), k_1x1},
            // bf16 models (qconv_t::bf16): a bf16 result with a bf16 bias
            // and nothing after it, residuals (bf16, and s8 cast to bf16
            // after its Dequantize), GELU, SE scales, NXC and NCX.
            {layer(2, 19, 37, 7, 1, 1, 0, 1, "bf16 b1"), k_1x1},
            {layer(2, 16, 24, 9, 3, 1, 1, 1, "bf16 ncx pc b1 ch3"), k_im2col},
            {layer(2, 19, 37, 7, 1, 1, 0, 1, "bf16 s8 u8 ch4"), k_1x1},
            {layer(1, 16, 40, 6, 3, 1, 1, 1, "bf16 ncx s8q ch1"), k_im2col},
            {layer(3, 19, 37, 7, 1, 1, 0, 1, "bf16 ncx b1 ch5"), k_1x1},
            {layer(1, 8, 33, 11, 3, 2, 1, 1, "bf16 oix u8"), k_im2col},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i)
        check(cases[i].c, 10 + static_cast<unsigned>(i), cases[i].kind);
}

TEST_F(CpuConvInt8, RandomCasesAgainstReference) {
    std::mt19937 gen(7);
    unsigned seed = 100;
    const data_type_t dsts[] = {dnnl_f32, dnnl_u8, dnnl_s8};
    for (int i = 0; i < 36; ++i) {
        qconv_t c = layer(1 + gen() % 2, 1 + gen() % 40, 1 + gen() % 50,
                3 + gen() % 9, 1 + 2 * (gen() % 3), 1 + gen() % 2,
                gen() % 3, 1 + gen() % 2);
        if (c.I + 2 * c.P < c.D * (c.K - 1) + 1) c.P = c.D * (c.K - 1);
        c.src_s8 = gen() % 2;
        c.oix = gen() % 2;
        c.wei_pc = gen() % 2;
        c.bias = static_cast<int>(gen() % 3);
        c.dst = dsts[gen() % 3];
        c.clamp = c.dst == dnnl_f32 ? 0 : static_cast<int>(gen() % 4);
        const bool dense = c.K == 1 && c.S == 1 && c.P == 0;
        // NCX f32 results: the dense 1x1 only (see FixedLayers).
        c.ncx = i % 3 == 2 && (c.dst != dnnl_f32 || dense);
        check(c, seed++, dense ? k_1x1 : k_im2col);
    }
}

TEST_F(CpuConvInt8, ConstantWeightsArePrepacked) {
    rt::engine_t eng(dnnl_cpu, 11, rt::allocator_t()); // its own cache
    rt::constant_cache_t &cc = rt::constant_cache_t::get(dnnl_cpu, 11);
    cc.set_capacity(size_t(64) << 20);
    unsigned seed = 900;
    for (const std::string o : {"const", "const oix"}) {
        check(layer(2, 12, 37, 8, 3, 1, 1, 1, o + " pc b1 u8 c1"), seed++,
                k_im2col, &eng);
        check(layer(1, 16, 560, 5, 3, 1, 1, 1, o), seed++, k_im2col, &eng);
        check(layer(2, 20, 35, 6, 1, 1, 0, 1, o + " b2"), seed++, k_1x1, &eng);
    }
    cc.set_capacity(0);
}

std::string decline_reason(const compiler::plan_t &p) {
    std::string why;
    EXPECT_FALSE(conv::accepts_int8(p, isa_t::avx2, &why));
    return why;
}

TEST_F(CpuConvInt8, DeclinesWhatItCannotRun) {
    std::mt19937 gen(5);
    const qconv_t c = layer(1, 8, 16, 6, 3, 1, 1);
    auto has = [](const std::string &s, const char *what) {
        return s.find(what) != std::string::npos;
    };
    auto conv_op = [](built_t &b) -> ir::op_t & { return b.plan.ops[2]; };
    { // NCX data with an f32 result.
        built_t b = build(layer(1, 8, 8, 8, 3, 1, 1, 1, "ncx"), gen);
        EXPECT_TRUE(has(decline_reason(b.plan), "NCX"));
    }
    { // An NCX BiasAdd after NXC data: its channel axis is not OC.
        built_t b = build(layer(1, 8, 8, 8, 3, 1, 1, 1, "b2"), gen);
        b.plan.ops[3].set_attr(dnnl_graph_op_attr_data_format,
                attr_value_t::make_str("NCX"));
        EXPECT_TRUE(has(decline_reason(b.plan), "BiasAdd"));
    }
    { // Groups.
        qconv_t g = c;
        g.IC = 4; // weights [3, 3, 4, 16] for groups = 2 over 8 channels
        built_t b = build(g, gen);
        // src (and its Dequantize) get 8 channels.
        for (auto *t : {&b.plan.inputs[0], &b.plan.ops[0].inputs[0],
                     &b.plan.ops[0].outputs[0], &conv_op(b).inputs[0]})
            *t = ir::make_lt(t->id, t->data_type, {1, 6, 6, 8});
        conv_op(b).set_attr(dnnl_graph_op_attr_groups, attr_value_t::make_s64(2));
        EXPECT_TRUE(has(decline_reason(b.plan), "groups"));
    }
    { // A residual operand whose channels are two elements apart.
        built_t b = build(layer(1, 8, 16, 6, 3, 1, 1, 1, "u8 ch3"), gen);
        logical_tensor_t &res = b.plan.inputs.back();
        ASSERT_EQ(res.ndims, 4);
        const int64_t st[4] = {6 * 6 * 32, 6 * 32, 32, 2};
        for (int i = 0; i < 4; ++i)
            res.layout.strides[i] = st[i];
        for (ir::op_t &op : b.plan.ops)
            for (logical_tensor_t &t : op.inputs)
                if (t.id == res.id) t = res;
        const std::string why = decline_reason(b.plan);
        EXPECT_TRUE(has(why, "non-contiguous columns")) << why;
    }
    { // Per-channel src scales; per-channel dst scales.
        built_t b = build(c, gen);
        set_quant(b.plan.ops[0],
                {0.1f, 0.2f, 0.3f, 0.4f, 0.5f, 0.6f, 0.7f, 0.8f}, {}, 3, true);
        EXPECT_TRUE(has(decline_reason(b.plan), "src: per-channel"));
        qconv_t q = c;
        q.dst = dnnl_s8;
        built_t d = build(q, gen);
        std::vector<float> sc(16);
        for (size_t i = 0; i < sc.size(); ++i)
            sc[i] = 0.1f + 0.01f * i;
        set_quant(d.plan.ops.back(), sc, {}, 3, true);
        EXPECT_TRUE(has(decline_reason(d.plan), "Quantize: per-channel"));
    }
    { // u8 weights.
        built_t b = build(c, gen);
        b.plan.inputs[1].data_type = dnnl_u8;
        b.plan.ops[1].inputs[0].data_type = dnnl_u8;
        EXPECT_TRUE(has(decline_reason(b.plan), "s8 weights"));
    }
    { // A BiasAdd after a bf16 result (the reference rounds in between).
        qconv_t q = layer(1, 8, 16, 6, 3, 1, 1, 1, "bf16");
        q.bias = 2;
        built_t b = build(q, gen);
        for (ir::op_t &op : b.plan.ops)
            if (op.kind == dnnl_graph_op_bias_add) {
                op.inputs[0].data_type = dnnl_bf16;
                op.outputs[0].data_type = dnnl_bf16;
                op.inputs[1].data_type = dnnl_bf16;
            }
        EXPECT_TRUE(has(decline_reason(b.plan), "BiasAdd after a bf16"));
    }
    { // A TypeCast of the src that is not f32 -> bf16.
        built_t b = build(layer(1, 8, 16, 6, 3, 1, 1, 1, "bf16"), gen);
        ir::op_t &cast = b.plan.ops[2];
        ASSERT_EQ(cast.kind, dnnl_graph_op_type_cast);
        cast.outputs[0].data_type = dnnl_f16;
        EXPECT_TRUE(has(decline_reason(b.plan), "TypeCast of src"));
    }
}

} // namespace
} // namespace cpu
} // namespace llga
