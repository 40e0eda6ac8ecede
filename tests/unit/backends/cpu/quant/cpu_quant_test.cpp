// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/quant/cpu_quant_test.cpp — the quantization JIT
// family (Quantize, Dequantize, TypeCast among f32, bf16 and f16) against the
// reference ops at every JIT ISA level the host has, compared byte for byte:
// shapes with tails, per tensor and per channel on every axis, zero points,
// saturation, exact .5 ties, NaN/Inf, and the declines.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/cpu/isa.hpp"
#include "backends/cpu/kernels/quant/quant.hpp"
#include "base/status.hpp"
#include "cpu_plan_test_util.hpp"
#include "cpu_test_isa.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ir/shape.hpp"
#include "ops/registry.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace {

using ir::attr_value_t;
using test_isa::isa_guard_t;
using bytes_t = std::vector<uint8_t>;

std::vector<isa_t> jit_levels() {
    return test_isa::host_levels({isa_t::avx512_core, isa_t::avx2});
}

const char *isa_suffix(isa_t i) {
    return i == isa_t::avx512_core ? "_avx512" : "_avx2";
}

class CpuQuant : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

struct qparams_t {
    bool per_channel = false;
    int64_t axis = 1;
    std::vector<float> scales = {1.f};
    std::vector<int64_t> zps; // empty: no zps attribute
};

ir::op_t make_op(op_kind_t kind, data_type_t sdt, data_type_t ddt,
        const dims_t &dims, const qparams_t *q) {
    ir::op_t op;
    op.kind = kind;
    op.id = 1;
    op.name = "jit_test";
    op.inputs.push_back(ir::make_lt(10, sdt, dims));
    op.outputs.push_back(ir::make_lt(11, ddt, dims));
    if (q) {
        op.set_attr(dnnl_graph_op_attr_qtype, attr_value_t::make_str(
                q->per_channel ? "per_channel" : "per_tensor"));
        op.set_attr(dnnl_graph_op_attr_axis, attr_value_t::make_s64(q->axis));
        op.set_attr(dnnl_graph_op_attr_scales,
                attr_value_t::make_f32s(q->scales));
        if (!q->zps.empty())
            op.set_attr(
                    dnnl_graph_op_attr_zps, attr_value_t::make_s64s(q->zps));
    }
    return op;
}

using plan_test::plan_of;

size_t out_bytes(const ir::op_t &op) {
    return ir::dtype_storage_bytes(
            op.outputs[0].data_type, ir::nelems(op.outputs[0]));
}

bytes_t run_ref(const ir::op_t &op, const bytes_t &src) {
    bytes_t out(out_bytes(op), 0xcd);
    std::vector<const void *> in = {src.data()};
    std::vector<void *> o = {out.data()};
    EXPECT_EQ(ops::find_op_def(op.kind)->ref(op, in, o), dnnl_success)
            << last_error();
    return out;
}

// Runs through the cpu backend; the output buffer has a guard band that
// must stay untouched (tails write exactly n elements).
bytes_t run_jit(const ir::op_t &op, const bytes_t &src, std::string *kname) {
    const compiler::plan_t plan = plan_of(op);
    std::shared_ptr<const compiler::kernel_t> k;
    EXPECT_EQ(cpu_backend().compile(plan, k), dnnl_success) << last_error();
    if (!k) return {};
    *kname = k->name();
    const size_t n = out_bytes(op);
    bytes_t out(n + 64, 0xcd);
    compiler::exec_ctx_t ctx;
    ctx.inputs = {src.data()};
    ctx.outputs = {out.data()};
    EXPECT_EQ(k->execute(ctx), dnnl_success) << last_error();
    for (size_t i = n; i < out.size(); ++i)
        if (out[i] != 0xcd) {
            ADD_FAILURE() << "wrote past the end at byte " << i - n;
            break;
        }
    out.resize(n);
    return out;
}

template <typename T>
bytes_t as_bytes(const std::vector<T> &v) {
    bytes_t b(v.size() * sizeof(T));
    if (!v.empty()) std::memcpy(b.data(), v.data(), b.size());
    return b;
}

// Runs ref and JIT, expects identical bytes and the kernel name.
void check(const ir::op_t &op, const bytes_t &src, isa_t isa,
        const std::string &name_prefix, const std::string &what) {
    std::string kname;
    const bytes_t got = run_jit(op, src, &kname);
    const bytes_t want = run_ref(op, src);
    EXPECT_EQ(kname, name_prefix + isa_suffix(isa)) << what;
    ASSERT_EQ(got.size(), want.size()) << what;
    int bad = 0;
    for (size_t i = 0; i < got.size(); ++i)
        if (got[i] != want[i] && bad++ < 5)
            ADD_FAILURE() << what << ": byte " << i << " got "
                          << int(got[i]) << " want " << int(want[i]);
}

// Shapes with tails for every vector width, including n < 8.
const std::vector<dims_t> k_shapes = {{1}, {5}, {17}, {3, 5, 7}, {2, 40, 33},
        {4, 3, 2, 50}, {2, 3, 20000}, {3, 1, 40000}, {64, 16401}};

// Per-channel settings for `d`: every axis (the last one also spelled
// negative), zps absent, equal or differing per channel.
std::vector<qparams_t> params_for(const dims_t &d, std::mt19937 &gen) {
    std::uniform_real_distribution<float> us(0.01f, 2.f);
    std::uniform_int_distribution<int> uz(-20, 20);
    std::vector<qparams_t> v;
    qparams_t t;
    t.scales = {us(gen)};
    v.push_back(t);
    t.zps = {uz(gen)};
    v.push_back(t);
    const int r = static_cast<int>(d.size());
    for (int axis = 0; axis < r; ++axis) {
        qparams_t c;
        c.per_channel = true;
        c.axis = axis == r - 1 ? -1 : axis;
        const int64_t ch = d[static_cast<size_t>(axis)];
        c.scales.clear();
        for (int64_t k = 0; k < ch; ++k)
            c.scales.push_back(us(gen));
        const int zp_mode = axis % 3;     // 0: none, 1: differing, 2: same
        for (int64_t k = 0; zp_mode && k < ch; ++k)
            c.zps.push_back(zp_mode == 1 ? uz(gen) : 7);
        v.push_back(c);
    }
    return v;
}

std::string describe(const dims_t &d, const qparams_t &q, data_type_t qdt,
        isa_t isa) {
    const std::string mode = q.per_channel
            ? " per_channel axis " + std::to_string(q.axis)
            : std::string(" per_tensor");
    return ir::dims_to_string(d) + mode
            + (q.zps.empty() ? " no zps " : " zps ") + ir::dtype_name(qdt)
            + " " + isa_name(isa);
}

TEST_F(CpuQuant, QuantizeMatchesReference) {
    const auto levels = jit_levels();
    if (levels.empty()) GTEST_SKIP() << "host has neither AVX2 nor AVX-512";
    std::mt19937 gen(7);
    for (isa_t isa : levels) {
        isa_guard_t g(isa);
        for (data_type_t qdt : {dnnl_u8, dnnl_s8})
            for (const dims_t &d : k_shapes)
                for (const qparams_t &q : params_for(d, gen)) {
                    const ir::op_t op = make_op(
                            dnnl_graph_op_quantize, dnnl_f32, qdt, d, &q);
                    const int64_t n = ir::product(d);
                    // Wide enough to saturate both ends for any scale used.
                    std::uniform_real_distribution<float> ux(-400.f, 400.f);
                    std::vector<float> x(static_cast<size_t>(n));
                    for (auto &v : x)
                        v = ux(gen);
                    if (n > 4) {
                        x[1] = std::numeric_limits<float>::quiet_NaN();
                        x[2] = std::numeric_limits<float>::infinity();
                        x[3] = -std::numeric_limits<float>::infinity();
                    }
                    check(op, as_bytes(x), isa,
                            std::string("quantize_f32_") + ir::dtype_name(qdt)
                                    + (q.per_channel ? "_per_channel"
                                                     : "_per_tensor"),
                            "quantize " + describe(d, q, qdt, isa));
                    if (HasFailure()) return;
                }
    }
}

TEST_F(CpuQuant, DequantizeMatchesReference) {
    const auto levels = jit_levels();
    if (levels.empty()) GTEST_SKIP() << "host has neither AVX2 nor AVX-512";
    std::mt19937 gen(11);
    for (isa_t isa : levels) {
        isa_guard_t g(isa);
        for (data_type_t qdt : {dnnl_u8, dnnl_s8})
            for (const dims_t &d : k_shapes)
                for (const qparams_t &q : params_for(d, gen)) {
                    const ir::op_t op = make_op(
                            dnnl_graph_op_dequantize, qdt, dnnl_f32, d, &q);
                    bytes_t src(static_cast<size_t>(ir::product(d)));
                    for (auto &b : src)
                        b = static_cast<uint8_t>(gen());
                    check(op, src, isa,
                            std::string("dequantize_") + ir::dtype_name(qdt)
                                    + "_f32"
                                    + (q.per_channel ? "_per_channel"
                                                     : "_per_tensor"),
                            "dequantize " + describe(d, q, qdt, isa));
                    if (HasFailure()) return;
                }
    }
}

// f8_e4m3 / f8_e5m2 (table-driven C++, quant_scalar.cpp): every f8 code
// dequantized, and quantization of values across the whole range and its
// edges (subnormals, the largest finite values and the first ones that
// overflow, f16's own overflow at 65520, NaN, infinities, signed zeros),
// per tensor and per channel, byte for byte against the reference. The
// opset allows no zero points with f8.
TEST_F(CpuQuant, F8MatchesReferenceByteForByte) {
    const auto levels = jit_levels();
    if (levels.empty()) GTEST_SKIP() << "host has neither AVX2 nor AVX-512";
    std::mt19937 gen(23);
    const float inf = std::numeric_limits<float>::infinity();
    const std::vector<float> edges = {0.f, -0.f, inf, -inf,
            std::numeric_limits<float>::quiet_NaN(), 448.f, 464.f, 464.5f,
            480.f, 57344.f, 61439.f, 61440.f, 65519.f, 65520.f, 1e30f,
            std::ldexp(1.f, -9), std::ldexp(1.5f, -10), std::ldexp(1.f, -10),
            std::ldexp(1.f, -16), std::ldexp(1.5f, -17), std::ldexp(1.f, -17),
            std::ldexp(1.f, -25), 1e-30f, 0.0625f, 0.1f, 1.f / 3.f};
    const std::vector<dims_t> shapes = {{256}, {5}, {3, 5, 7}, {2, 3, 20000}};
    for (isa_t isa : levels) {
        isa_guard_t g(isa);
        for (data_type_t qdt : {dnnl_f8_e4m3, dnnl_f8_e5m2})
            for (const dims_t &d : shapes) {
                std::vector<qparams_t> ps = params_for(d, gen);
                for (qparams_t &q : ps)
                    q.zps.clear();
                for (const qparams_t &q : ps) {
                    const int64_t n = ir::product(d);
                    const std::string mode = q.per_channel ? "_per_channel"
                                                           : "_per_tensor";
                    // Dequantize: the codes in order, then random bytes.
                    bytes_t codes(static_cast<size_t>(n));
                    for (size_t i = 0; i < codes.size(); ++i)
                        codes[i] = static_cast<uint8_t>(
                                i < 256 ? i : static_cast<size_t>(gen()));
                    const ir::op_t dq = make_op(
                            dnnl_graph_op_dequantize, qdt, dnnl_f32, d, &q);
                    std::string kname;
                    const bytes_t got_dq = run_jit(dq, codes, &kname);
                    EXPECT_EQ(kname, std::string("dequantize_")
                                    + ir::dtype_name(qdt) + "_f32" + mode
                                    + "_tables");
                    EXPECT_EQ(got_dq, run_ref(dq, codes))
                            << "dequantize " << describe(d, q, qdt, isa);
                    // Quantize: edges with both signs, then values spread
                    // over 2^-30 .. 2^20 in magnitude.
                    std::vector<float> x(static_cast<size_t>(n));
                    std::uniform_real_distribution<float> ue(-30.f, 20.f);
                    for (size_t i = 0; i < x.size(); ++i) {
                        const size_t e = i / 2;
                        const float m = e < edges.size()
                                ? edges[e]
                                : std::exp2(ue(gen));
                        x[i] = i % 2 ? -m : m;
                    }
                    const ir::op_t qop = make_op(
                            dnnl_graph_op_quantize, dnnl_f32, qdt, d, &q);
                    const bytes_t got_q = run_jit(qop, as_bytes(x), &kname);
                    EXPECT_EQ(kname, std::string("quantize_f32_")
                                    + ir::dtype_name(qdt) + mode + "_tables");
                    EXPECT_EQ(got_q, run_ref(qop, as_bytes(x)))
                            << "quantize " << describe(d, q, qdt, isa);
                    if (HasFailure()) return;
                }
            }
    }
}

// x * (1/scale) + zp landing exactly on k + 0.5 must round to even, and
// NaN must give 0 (not zp), +-Inf the range ends — checked against literal
// values as well as the reference.
TEST_F(CpuQuant, TiesNanAndInf) {
    const auto levels = jit_levels();
    if (levels.empty()) GTEST_SKIP() << "host has neither AVX2 nor AVX-512";
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    for (isa_t isa : levels) {
        isa_guard_t g(isa);
        // scale 1, zp 3: 0.5 + 3 = 3.5 -> 4; 1.5 + 3 -> 4; -2.5 + 3 -> 0 ...
        // scale 0.5 (x * 2): 0.25 -> 0.5 -> 0; 0.75 -> 1.5 -> 2.
        struct case_t {
            float scale;
            int64_t zp;
            data_type_t qdt;
            std::vector<float> x;
            std::vector<int> want;
        };
        const case_t cases[] = {
                {1.f, 3, dnnl_u8, {0.5f, 1.5f, -2.5f, -3.5f, 2.5f, 251.5f,
                                          252.5f, nan, inf, -inf, 0.f},
                        {4, 4, 0, 0, 6, 254, 255, 0, 255, 0, 3}},
                {0.5f, 0, dnnl_s8, {0.25f, 0.75f, -0.25f, -0.75f, 1.25f,
                                           63.25f, -64.25f, nan, inf, -inf,
                                           63.75f},
                        {0, 2, 0, -2, 2, 126, -128, 0, 127, -128, 127}},
                {1.f, -5, dnnl_s8, {5.5f, 6.5f, 4.5f, -122.5f, -123.5f, nan},
                        {0, 2, 0, -128, -128, 0}},
        };
        for (const auto &c : cases)
            for (size_t rep : {size_t(1), size_t(3)}) { // tail, then vectors
                qparams_t q;
                q.scales = {c.scale};
                q.zps = {c.zp};
                std::vector<float> x;
                for (size_t r = 0; r < rep; ++r)
                    x.insert(x.end(), c.x.begin(), c.x.end());
                const dims_t d = {static_cast<int64_t>(x.size())};
                const ir::op_t op = make_op(
                        dnnl_graph_op_quantize, dnnl_f32, c.qdt, d, &q);
                const std::string what = std::string("ties ")
                        + ir::dtype_name(c.qdt) + " " + isa_name(isa);
                check(op, as_bytes(x), isa,
                        std::string("quantize_f32_") + ir::dtype_name(c.qdt)
                                + "_per_tensor",
                        what);
                std::string kname;
                const bytes_t got = run_jit(op, as_bytes(x), &kname);
                for (size_t i = 0; i < x.size(); ++i) {
                    const int v = c.qdt == dnnl_s8
                            ? static_cast<int8_t>(got[i])
                            : got[i];
                    EXPECT_EQ(v, c.want[i % c.want.size()])
                            << what << " x=" << x[i];
                }
            }
    }
}

float float_of(uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

TEST_F(CpuQuant, TypeCastBf16MatchesReference) {
    const auto levels = jit_levels();
    if (levels.empty()) GTEST_SKIP() << "host has neither AVX2 nor AVX-512";
    std::mt19937 gen(5);
    for (isa_t isa : levels) {
        isa_guard_t g(isa);
        for (int64_t n : {1, 7, 8, 15, 16, 17, 33, 1000, 40001}) {
            // f32 -> bf16: random bit patterns (all classes: NaN with any
            // payload and sign, Inf, subnormals) plus exact ties.
            std::vector<float> x(static_cast<size_t>(n));
            for (auto &v : x)
                v = float_of(static_cast<uint32_t>(gen()));
            const uint32_t special[] = {0x3f808000u /* tie, even below */,
                    0x3f818000u /* tie, odd below */, 0x7f7fffffu /* max */,
                    0x7f800001u /* sNaN */, 0xffc00001u, 0x7f800000u,
                    0x80000000u, 0x00008000u};
            for (size_t k = 0; k < 8 && k < x.size(); ++k)
                x[k] = float_of(special[k]);
            const dims_t d = {n};
            check(make_op(dnnl_graph_op_type_cast, dnnl_f32, dnnl_bf16, d,
                          nullptr),
                    as_bytes(x), isa, "typecast_f32_bf16",
                    "f32->bf16 n=" + std::to_string(n));
            // bf16 -> f32: every 16-bit pattern appears for large n.
            std::vector<uint16_t> h(static_cast<size_t>(n));
            for (size_t k = 0; k < h.size(); ++k)
                h[k] = static_cast<uint16_t>(n > 1000 ? k : gen());
            check(make_op(dnnl_graph_op_type_cast, dnnl_bf16, dnnl_f32, d,
                          nullptr),
                    as_bytes(h), isa, "typecast_bf16_f32",
                    "bf16->f32 n=" + std::to_string(n));
            if (HasFailure()) return;
        }
    }
}

// TypeCast with an f16 side (C++ through F16C intrinsics):
// every 16-bit pattern as a source, and f32 bit patterns of every class
// plus the f16 rounding edges, byte for byte.
TEST_F(CpuQuant, TypeCastF16MatchesReference) {
    const auto levels = jit_levels();
    if (levels.empty()) GTEST_SKIP() << "host has neither AVX2 nor AVX-512";
    std::mt19937 gen(9);
    const int64_t n = 65536 + 40;
    std::vector<uint16_t> h(static_cast<size_t>(n));
    for (size_t k = 0; k < h.size(); ++k)
        h[k] = static_cast<uint16_t>(k);
    std::vector<float> x(static_cast<size_t>(n));
    for (auto &v : x)
        v = float_of(static_cast<uint32_t>(gen()));
    const uint32_t special[] = {0x477ff000u /* 65520: to inf */,
            0x477fefffu /* just below */, 0x33000000u /* 2^-25: tie to 0 */,
            0x33000001u, 0x387fe000u /* f16 subnormal edge */, 0x7f800001u,
            0xff800000u, 0x80000000u, 0x3f801000u /* tie, even */,
            0x3f803000u /* tie, odd */};
    for (size_t k = 0; k < 10; ++k)
        x[k] = float_of(special[k]);
    const dims_t d = {n};
    const struct {
        data_type_t s, d;
        const char *name;
    } casts[] = {{dnnl_f16, dnnl_f32, "typecast_f16_f32_f16c"},
            {dnnl_f32, dnnl_f16, "typecast_f32_f16_f16c"},
            {dnnl_bf16, dnnl_f16, "typecast_bf16_f16_f16c"},
            {dnnl_f16, dnnl_bf16, "typecast_f16_bf16_f16c"}};
    for (isa_t isa : levels) {
        isa_guard_t g(isa);
        for (const auto &c : casts) {
            const ir::op_t op
                    = make_op(dnnl_graph_op_type_cast, c.s, c.d, d, nullptr);
            const bytes_t src = c.s == dnnl_f32 ? as_bytes(x) : as_bytes(h);
            std::string kname;
            const bytes_t got = run_jit(op, src, &kname);
            EXPECT_EQ(kname, c.name);
            EXPECT_EQ(got, run_ref(op, src))
                    << ir::dtype_name(c.s) << " -> " << ir::dtype_name(c.d);
        }
    }
}

// An input in another layout than the output (column-major into
// row-major, per channel; channel-last into row-major, per tensor) is
// copied into the output's layout first, then converted: the reference's
// bytes.
TEST_F(CpuQuant, InputInAnotherLayoutIsCopiedFirst) {
    const auto levels = jit_levels();
    if (levels.empty()) GTEST_SKIP() << "host has neither AVX2 nor AVX-512";
    std::mt19937 gen(12);
    qparams_t pc;
    pc.per_channel = true;
    pc.axis = 1;
    pc.scales = {0.5f, 0.25f, 2.f, 1.f, 0.125f, 4.f, 0.75f, 3.f};
    pc.zps = {1, 2, 3, 4, 5, 6, 7, 8};
    qparams_t pt;
    pt.scales = {0.25f};
    for (isa_t isa : levels) {
        isa_guard_t g(isa);
        ir::op_t cm = make_op(dnnl_graph_op_quantize, dnnl_f32, dnnl_u8, {5, 8}, &pc);
        cm.inputs[0].layout.strides[0] = 1;
        cm.inputs[0].layout.strides[1] = 5;
        ir::op_t cl = make_op(dnnl_graph_op_dequantize, dnnl_s8, dnnl_f32,
                {2, 3, 4, 5}, &pt);
        const int64_t st[4] = {60, 1, 15, 3};
        for (int k = 0; k < 4; ++k)
            cl.inputs[0].layout.strides[k] = st[k];
        std::vector<float> x(40);
        std::uniform_real_distribution<float> u(-300.f, 300.f);
        for (auto &v : x)
            v = u(gen);
        bytes_t q(120);
        for (auto &b : q)
            b = static_cast<uint8_t>(gen());
        for (const auto &c : {std::make_pair(&cm, as_bytes(x)), std::make_pair(&cl, q)}) {
            std::string kname;
            const bytes_t got = run_jit(*c.first, c.second, &kname);
            EXPECT_EQ(got, run_ref(*c.first, c.second)) << kname;
            EXPECT_NE(kname.find(isa_suffix(isa)), std::string::npos) << kname;
        }
    }
}

// What the family leaves to other kernels, and why.
// A per-tensor Quantize and Dequantize with channel-last input and output
// walk memory flat and match the reference exactly.
TEST_F(CpuQuant, ChannelLastPerTensorRunsFlat) {
    const dims_t d = {2, 3, 4, 5}, cl = {60, 1, 15, 3};
    qparams_t q;
    q.scales = {0.25f};
    q.zps = {3};
    std::mt19937 gen(2);
    for (bool quantize : {true, false}) {
        ir::op_t op = quantize
                ? make_op(dnnl_graph_op_quantize, dnnl_f32, dnnl_u8, d, &q)
                : make_op(dnnl_graph_op_dequantize, dnnl_u8, dnnl_f32, d, &q);
        for (int k = 0; k < 4; ++k)
            op.inputs[0].layout.strides[k] = op.outputs[0].layout.strides[k]
                    = cl[k];
        const compiler::plan_t p = plan_of(op);
        const plan_test::bytes_t in
                = plan_test::random_quant_bytes(p.inputs[0], gen);
        const auto want = plan_test::run_ref(p, {in});
        for (isa_t isa : test_isa::host_levels({isa_t::avx2, isa_t::avx512_core})) {
            test_isa::isa_guard_t guard(isa);
            plan_test::bytes_t got;
            std::string kname;
            ASSERT_TRUE(plan_test::run_jit(p, {in}, got, &kname));
            EXPECT_NE(kname.find("quantize"), std::string::npos) << kname;
            EXPECT_TRUE(got == want.at(11)) << kname;
        }
    }
}

TEST_F(CpuQuant, Declines) {
    qparams_t q;
    const dims_t d = {4, 8};
    auto why_of = [](const ir::op_t &op) {
        std::string why;
        EXPECT_FALSE(quant::accepts(plan_of(op), isa_t::avx2, &why))
                << ops::describe(op);
        return why;
    };
    EXPECT_NE(why_of(make_op(dnnl_graph_op_dequantize, dnnl_f8_e5m2,
                             dnnl_bf16, d, &q))
                      .find("only u8/s8/f8 -> f32"),
            std::string::npos);
    EXPECT_NE(why_of(make_op(dnnl_graph_op_dequantize, dnnl_u8, dnnl_bf16, d,
                             &q))
                      .find("only u8/s8/f8 -> f32"),
            std::string::npos);
    EXPECT_NE(why_of(make_op(dnnl_graph_op_type_cast, dnnl_f32, dnnl_s8, d,
                             nullptr))
                      .find("only casts among f32, bf16 and f16"),
            std::string::npos);
    ir::op_t strided
            = make_op(dnnl_graph_op_quantize, dnnl_f32, dnnl_u8, d, &q);
    strided.outputs[0].layout.strides[0] = 16; // padded rows
    EXPECT_NE(why_of(strided).find("neither dense"), std::string::npos);
    // Both sides channel-last: per-tensor runs flat (below), per-channel
    // parameters need row-major tensors.
    const dims_t d4 = {2, 3, 4, 5}, cl = {60, 1, 15, 3};
    qparams_t qc;
    qc.per_channel = true;
    qc.axis = 1;
    qc.scales = {0.5f, 0.25f, 2.f};
    ir::op_t pc = make_op(dnnl_graph_op_quantize, dnnl_f32, dnnl_u8, d4, &qc);
    for (int k = 0; k < 4; ++k)
        pc.inputs[0].layout.strides[k] = pc.outputs[0].layout.strides[k] = cl[k];
    EXPECT_NE(why_of(pc).find("row-major"), std::string::npos);
    ir::op_t relu = make_op(dnnl_graph_op_relu, dnnl_f32, dnnl_f32, d, nullptr);
    EXPECT_NE(why_of(relu).find("is not Quantize"), std::string::npos);
    std::string why;
    EXPECT_FALSE(quant::accepts(plan_of(make_op(dnnl_graph_op_quantize,
                                        dnnl_f32, dnnl_u8, d, &q)),
            isa_t::avx512_core_amx, &why));
}

} // namespace
} // namespace cpu
} // namespace llga
