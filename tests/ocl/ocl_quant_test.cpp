// SPDX-License-Identifier: Apache-2.0
// tests/ocl/ocl_quant_test.cpp — the quant kernel family against the
// reference, bit for bit: f8_e4m3/f8_e5m2 stores and loads on special
// values (NaN, infinities, max finite, subnormals, rounding ties, every f16
// value, random f32 bit patterns), s4/u4 loads of every byte, Quantize /
// Dequantize on every quantized type, DynamicQuantize / DynamicDequantize
// over every dtype pair, per tensor / per channel / per group, with and
// without zero points of every type, tails and odd strides.
#include <cstring>

#include "backends/ocl/kernel_desc.hpp"
#include "ocl_test_util.hpp"

namespace llga {
namespace ocl_test {
namespace {

using ir::attr_value_t;
using bytes_t = std::vector<char>;

// Random contents over the whole buffer: every byte random for integer and
// f8 storage (any byte is a value), uniform [lo, hi] values for f32/bf16/f16.
bytes_t fill(const logical_tensor_t &lt, std::mt19937 &gen, float lo,
        float hi) {
    bytes_t b(std::max<size_t>(ir::mem_size(lt), 1));
    const data_type_t dt = lt.data_type;
    if (dt == dnnl_f32 || dt == dnnl_bf16 || dt == dnnl_f16) {
        std::uniform_real_distribution<float> u(lo, hi);
        const int64_t n = static_cast<int64_t>(b.size() * 8
                / static_cast<size_t>(ir::dtype_bits(dt)));
        for (int64_t i = 0; i < n; ++i)
            ir::store_value(dt, b.data(), i, u(gen));
    } else {
        std::uniform_int_distribution<int> u(0, 255);
        for (char &c : b)
            c = static_cast<char>(u(gen));
    }
    return b;
}

// Runs one op on the GPU with the given input bytes; `got` gets the
// output's bytes.
status_t run_gpu(
        const ir::op_t &op, const std::vector<bytes_t> &ins, bytes_t &got) {
    compiler::plan_t plan;
    plan.ops = {op};
    plan.inputs = op.inputs;
    plan.outputs = op.outputs;
    std::vector<const bytes_t *> in;
    for (const bytes_t &b : ins)
        in.push_back(&b);
    std::vector<bytes_t> outs;
    const status_t st = run_plan_on_gpu(plan, in, outs);
    if (st == dnnl_success) got = outs[0];
    return st;
}

// Element offsets of a tensor in logical order.
std::vector<int64_t> offsets(const logical_tensor_t &lt) {
    const dims_t dims = ir::dims_of(lt);
    const int64_t n = ir::nelems(lt);
    std::vector<int64_t> r;
    for (int64_t i = 0; i < n; ++i) {
        int64_t off = 0, q = i;
        for (int d = lt.ndims - 1; d >= 0; --d) {
            off += (q % dims[d]) * lt.layout.strides[d];
            q /= dims[d];
        }
        r.push_back(off);
    }
    return r;
}

// The bits of element `off` (f32 as its bit pattern, others as stored).
uint64_t raw_at(data_type_t dt, const bytes_t &b, int64_t off) {
    const int bits = ir::dtype_bits(dt);
    uint64_t v = 0;
    if (bits == 4) return (static_cast<uint8_t>(b[off / 2]) >> (off % 2 ? 4 : 0)) & 0xf;
    std::memcpy(&v, b.data() + off * (bits / 8), static_cast<size_t>(bits / 8));
    return v;
}

// Runs `op` on the GPU and through the reference with the same inputs and
// expects bit-identical outputs (any NaN matches any NaN for float outputs
// wider than 8 bits). Returns the number of mismatches.
int expect_exact(const ir::op_t &op, const std::vector<bytes_t> &ins) {
    const logical_tensor_t &o = op.outputs[0];
    bytes_t want(std::max<size_t>(ir::mem_size(o), 1), 0), got;
    std::vector<const void *> in_ptrs;
    for (const bytes_t &b : ins)
        in_ptrs.push_back(b.data());
    std::vector<void *> out_ptrs {want.data()};
    EXPECT_EQ(ops::find_op_def(op.kind)->ref(op, in_ptrs, out_ptrs),
            dnnl_success);
    const status_t st = run_gpu(op, ins, got);
    EXPECT_EQ(st, dnnl_success) << llga_last_error_message();
    if (st != dnnl_success) return 1;
    int bad = 0;
    const std::vector<int64_t> offs = offsets(o);
    for (size_t i = 0; i < offs.size() && bad < 8; ++i) {
        const uint64_t w = raw_at(o.data_type, want, offs[i]);
        const uint64_t h = raw_at(o.data_type, got, offs[i]);
        if (w == h) continue;
        const double wv = ir::load_value(o.data_type, want.data(), offs[i]);
        const double hv = ir::load_value(o.data_type, got.data(), offs[i]);
        if (ir::dtype_bits(o.data_type) > 8 && std::isnan(wv) && std::isnan(hv))
            continue;
        const int64_t in_off = offsets(op.inputs[0])[i];
        ADD_FAILURE() << ops::op_kind_name(op.kind) << " "
                      << ir::dtype_name(op.inputs[0].data_type) << " -> "
                      << ir::dtype_name(o.data_type) << " element " << i
                      << " (src "
                      << ir::load_value(op.inputs[0].data_type, ins[0].data(),
                                 in_off)
                      << "): want 0x" << std::hex << w << " (" << wv
                      << ") got 0x" << h << std::dec << " (" << hv << ")";
        ++bad;
    }
    return bad;
}

bytes_t f32_bytes(const std::vector<float> &v) {
    bytes_t b(v.size() * 4);
    std::memcpy(b.data(), v.data(), b.size());
    return b;
}

float bits_f32(uint32_t u) {
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

ir::op_t static_op(op_kind_t kind, const logical_tensor_t &src,
        data_type_t out, std::vector<float> scales, std::vector<int64_t> zps,
        int64_t axis = -2, bool odd_out = false) {
    std::vector<std::pair<attr_id_t, attr_value_t>> a {
            {dnnl_graph_op_attr_scales, attr_value_t::make_f32s(scales)}};
    if (!zps.empty())
        a.push_back({dnnl_graph_op_attr_zps, attr_value_t::make_s64s(zps)});
    if (axis != -2) {
        a.push_back({dnnl_graph_op_attr_qtype,
                attr_value_t::make_str("per_channel")});
        a.push_back({dnnl_graph_op_attr_axis, attr_value_t::make_s64(axis)});
    }
    return make_op(kind, {src}, a, out, 9, odd_out);
}

// f32 values where f8 conversions go wrong: signed zeros, NaNs, infinities,
// the largest finite values and what lies just beyond them, subnormals and
// their ties, ties between neighbours, f32 subnormals; then every f16 value
// (every tie of both f8 formats) and random f32 bit patterns (the double
// rounding through f16).
std::vector<float> f8_probe_values() {
    std::vector<float> v {0.f, -0.f, NAN, -NAN, INFINITY, -INFINITY, 448.f,
            -448.f, 456.f, 464.f, -464.f, std::nextafter(464.f, 1e9f), 480.f,
            57344.f, -57344.f, 61440.f, std::nextafter(61440.f, 0.f), 65504.f,
            65520.f, 3.4e38f, -3.4e38f, 0x1p-6f, 0x1p-9f, 0x1p-10f, 0x3p-10f,
            0x5p-11f, 0x1p-11f, 0x1p-14f, 0x1p-16f, 0x1p-17f, 0x3p-17f,
            0x1p-24f, 0x1p-25f, 0x3p-26f, 1e-40f, -1e-40f, 1.0625f, 1.1875f,
            -1.0625f, 1.125f, 1.0625001f, 1.0624999f, 0.0009765625f,
            bits_f32(0x7fa00000u), bits_f32(0xffb00001u),
            bits_f32(0x7fe00001u)};
    for (uint32_t h = 0; h < 0x10000u; ++h)
        v.push_back(ir::f16_to_f32(static_cast<uint16_t>(h)));
    std::mt19937 gen(3301);
    for (int i = 0; i < 20000; ++i)
        v.push_back(bits_f32(static_cast<uint32_t>(gen())));
    return v;
}

TEST(OclQuantConvert, F8StoreSpecialValues) {
    LLGA_NEED_GPU();
    const std::vector<float> v = f8_probe_values();
    const int64_t n = static_cast<int64_t>(v.size());
    for (data_type_t dt : {dnnl_f8_e4m3, dnnl_f8_e5m2}) {
        ir::op_t q = static_op(dnnl_graph_op_quantize,
                make_t(1, dnnl_f32, {n}), dt, {1.f}, {});
        EXPECT_EQ(expect_exact(q, {f32_bytes(v)}), 0) << ir::dtype_name(dt);
    }
}

TEST(OclQuantConvert, F8LoadEveryByte) {
    LLGA_NEED_GPU();
    bytes_t all(256);
    for (int i = 0; i < 256; ++i)
        all[i] = static_cast<char>(i);
    for (data_type_t dt : {dnnl_f8_e4m3, dnnl_f8_e5m2}) {
        ir::op_t dq = static_op(dnnl_graph_op_dequantize,
                make_t(1, dt, {256}), dnnl_f32, {1.f}, {});
        EXPECT_EQ(expect_exact(dq, {all}), 0) << ir::dtype_name(dt);
    }
}

// Every byte as two s4/u4 elements (low nibble first), dense and read
// through odd strides.
TEST(OclQuantConvert, Int4LoadEveryByte) {
    LLGA_NEED_GPU();
    for (data_type_t dt : {dnnl_s4, dnnl_u4})
        for (bool odd : {false, true}) {
            const logical_tensor_t src = make_t(1, dt, {16, 32}, odd);
            bytes_t b(ir::mem_size(src));
            for (size_t i = 0; i < b.size(); ++i)
                b[i] = static_cast<char>(i * 37 + 11);
            ir::op_t dq = make_op(dnnl_graph_op_dynamic_dequantize,
                    {src, make_t(2, dnnl_f32, {1})}, {}, dnnl_f32, 9);
            EXPECT_EQ(expect_exact(dq, {b, f32_bytes({1.f})}), 0)
                    << ir::dtype_name(dt) << (odd ? " odd" : "");
        }
}

// Integer stores: rounding ties go to even, saturation, NaN becomes 0.
TEST(OclQuantConvert, IntegerTiesSaturationNaN) {
    LLGA_NEED_GPU();
    const std::vector<float> v {-2.5f, -1.5f, -0.5f, 0.5f, 1.5f, 2.5f, 126.5f,
            127.5f, 128.5f, -128.5f, -127.5f, 254.5f, 255.5f, 256.f, 1e9f,
            -1e9f, NAN, INFINITY, -INFINITY, -0.f, 0.49999997f};
    const int64_t n = static_cast<int64_t>(v.size());
    for (data_type_t dt : {dnnl_s8, dnnl_u8}) {
        ir::op_t q = static_op(dnnl_graph_op_quantize,
                make_t(1, dnnl_f32, {n}), dt, {1.f}, {});
        EXPECT_EQ(expect_exact(q, {f32_bytes(v)}), 0) << ir::dtype_name(dt);
        ir::op_t dq = make_op(dnnl_graph_op_dynamic_quantize,
                {make_t(1, dnnl_f32, {n}), make_t(2, dnnl_f32, {1})}, {}, dt,
                9);
        EXPECT_EQ(expect_exact(dq, {f32_bytes(v), f32_bytes({1.f})}), 0)
                << ir::dtype_name(dt);
    }
}

// Static s8/u8 with zero points through run_and_compare's random data.
TEST(OclQuant, PerTensorAndPerChannel) {
    LLGA_NEED_GPU();
    ir::op_t q = make_op(dnnl_graph_op_quantize,
            {make_t(1, dnnl_f32, {4, 9}, true)},
            {{dnnl_graph_op_attr_scales, attr_value_t::make_f32s({0.05f})},
                    {dnnl_graph_op_attr_zps, attr_value_t::make_s64s({3})},
                    {dnnl_graph_op_attr_qtype,
                            attr_value_t::make_str("per_tensor")}},
            dnnl_s8, 2);
    EXPECT_EQ(run_and_compare({q}, 305, -8.f, 8.f), dnnl_success)
            << llga_last_error_message();
    ir::op_t dq = make_op(dnnl_graph_op_dequantize,
            {make_t(1, dnnl_u8, {3, 4, 5})},
            {{dnnl_graph_op_attr_scales,
                     attr_value_t::make_f32s({0.5f, 0.25f, 2.f, 1.5f})},
                    {dnnl_graph_op_attr_zps,
                            attr_value_t::make_s64s({1, 0, 7, 128})},
                    {dnnl_graph_op_attr_qtype,
                            attr_value_t::make_str("per_channel")},
                    {dnnl_graph_op_attr_axis, attr_value_t::make_s64(1)}},
            dnnl_f32, 2, true);
    EXPECT_EQ(run_and_compare({dq}, 306, 0.f, 255.f), dnnl_success)
            << llga_last_error_message();
}

// Static Quantize/Dequantize on every quantized type, per tensor and per
// channel, with zero points where the type takes them.
TEST(OclQuantStatic, EveryTypePerTensorAndPerChannel) {
    LLGA_NEED_GPU();
    std::mt19937 gen(3302);
    for (data_type_t qdt : {dnnl_s8, dnnl_u8, dnnl_f8_e4m3, dnnl_f8_e5m2}) {
        const bool f8 = qdt == dnnl_f8_e4m3 || qdt == dnnl_f8_e5m2;
        const std::vector<int64_t> zp1 = f8 ? std::vector<int64_t> {}
                                            : std::vector<int64_t> {3};
        const std::vector<int64_t> zp5 = f8
                ? std::vector<int64_t> {}
                : std::vector<int64_t> {0, -4, 9, 1, 2};
        const logical_tensor_t f = make_t(1, dnnl_f32, {3, 5, 7}, true);
        ir::op_t q = static_op(dnnl_graph_op_quantize, f, qdt, {0.07f}, zp1);
        EXPECT_EQ(expect_exact(q, {fill(f, gen, -300.f, 300.f)}), 0);
        ir::op_t qc = static_op(dnnl_graph_op_quantize, f, qdt,
                {0.5f, 0.03f, 2.f, 1e-3f, 3.f}, zp5, 1, true);
        EXPECT_EQ(expect_exact(qc, {fill(f, gen, -300.f, 300.f)}), 0);
        const logical_tensor_t s = make_t(1, qdt, {3, 5, 7}, true);
        ir::op_t dq = static_op(dnnl_graph_op_dequantize, s, dnnl_f32,
                {0.07f}, zp1, -2, true);
        EXPECT_EQ(expect_exact(dq, {fill(s, gen, 0, 0)}), 0);
        ir::op_t dqc = static_op(dnnl_graph_op_dequantize, s, dnnl_f32,
                {0.5f, 0.25f, 3.f, 7.f, 0.1f, -2.f, 1.f}, {}, -1);
        EXPECT_EQ(expect_exact(dqc, {fill(s, gen, 0, 0)}), 0);
    }
}

// One dynamic op: src dims, qtype (with axis or group_shape), the scales
// and zero point tensors (dims given; zp_dt undef for none).
struct dyn_case_t {
    op_kind_t kind;
    data_type_t src_dt, dst_dt, zp_dt;
    dims_t dims;
    std::string qtype;
    int64_t axis;
    dims_t group;
    dims_t sc_dims, zp_dims;
    bool odd;
};

int run_dynamic(const dyn_case_t &c, uint32_t seed) {
    std::mt19937 gen(seed);
    const data_type_t sc_dt = c.kind == dnnl_graph_op_dynamic_quantize
            ? dnnl_f32
            : c.dst_dt;
    std::vector<logical_tensor_t> ins {make_t(1, c.src_dt, c.dims, c.odd),
            make_t(2, sc_dt, c.sc_dims, c.odd)};
    if (c.zp_dt != dnnl_data_type_undef)
        ins.push_back(make_t(3, c.zp_dt, c.zp_dims, c.odd));
    std::vector<std::pair<attr_id_t, attr_value_t>> a {
            {dnnl_graph_op_attr_qtype, attr_value_t::make_str(c.qtype)}};
    if (c.qtype == "per_channel")
        a.push_back({dnnl_graph_op_attr_axis, attr_value_t::make_s64(c.axis)});
    if (c.qtype == "per_group")
        a.push_back({dnnl_graph_op_attr_group_shape,
                attr_value_t::make_s64s(c.group)});
    ir::op_t op = make_op(c.kind, ins, a, c.dst_dt, 9, !c.odd);
    std::vector<bytes_t> data {fill(ins[0], gen, -60.f, 60.f),
            fill(ins[1], gen, 0.01f, 0.6f)};
    if (ins.size() > 2) data.push_back(fill(ins[2], gen, 0, 0));
    const int bad = expect_exact(op, data);
    EXPECT_EQ(bad, 0) << ops::op_kind_name(c.kind) << " "
                      << ir::dtype_name(c.src_dt) << " -> "
                      << ir::dtype_name(c.dst_dt) << " zps "
                      << ir::dtype_name(c.zp_dt) << " " << c.qtype
                      << (c.odd ? " odd" : "");
    return bad;
}

TEST(OclQuantDynamic, QuantizeEveryTypeAndZeroPoint) {
    LLGA_NEED_GPU();
    uint32_t seed = 3400;
    const data_type_t zps[] = {dnnl_data_type_undef, dnnl_u8, dnnl_s8, dnnl_s32};
    for (data_type_t dst : {dnnl_u8, dnnl_s8})
        for (data_type_t zp : zps) {
            const bool odd = (seed % 2) != 0;
            run_dynamic({dnnl_graph_op_dynamic_quantize, dnnl_f32, dst, zp,
                                {3, 5, 7}, "per_tensor", 1, {}, {1}, {1}, odd},
                    seed++);
            run_dynamic({dnnl_graph_op_dynamic_quantize, dnnl_f32, dst, zp,
                                {4, 6, 9}, "per_channel", -1, {}, {9}, {9},
                                !odd},
                    seed++);
        }
    // per_channel scales with one zero point for every channel
    run_dynamic({dnnl_graph_op_dynamic_quantize, dnnl_f32, dnnl_u8, dnnl_s32,
                        {5, 3}, "per_channel", 0, {}, {5}, {1}, true},
            seed++);
    // rank 0
    run_dynamic({dnnl_graph_op_dynamic_quantize, dnnl_f32, dnnl_s8, dnnl_s8,
                        {}, "per_tensor", 1, {}, {1}, {1}, false},
            seed++);
}

TEST(OclQuantDynamic, DequantizeEveryTypePairAndZeroPoint) {
    LLGA_NEED_GPU();
    uint32_t seed = 3500;
    const data_type_t srcs[] = {dnnl_u8, dnnl_s8, dnnl_s4, dnnl_u4};
    const data_type_t dsts[] = {dnnl_f32, dnnl_bf16, dnnl_f16};
    const data_type_t zps[] = {dnnl_data_type_undef, dnnl_u4, dnnl_s4,
            dnnl_u8, dnnl_s8, dnnl_s32};
    int k = 0;
    for (data_type_t src : srcs)
        for (data_type_t zp : zps) {
            const data_type_t dst = dsts[k % 3];
            const bool odd = (k % 2) != 0;
            switch (k++ % 3) {
                case 0:
                    run_dynamic({dnnl_graph_op_dynamic_dequantize, src, dst, zp,
                                        {2, 3, 5}, "per_tensor", 1, {}, {1},
                                        {1}, odd},
                            seed++);
                    break;
                case 1:
                    run_dynamic({dnnl_graph_op_dynamic_dequantize, src, dst, zp,
                                        {4, 7, 3}, "per_channel", 1, {}, {7},
                                        {7}, odd},
                            seed++);
                    break;
                default:
                    run_dynamic({dnnl_graph_op_dynamic_dequantize, src, dst, zp,
                                        {2, 6, 64}, "per_group", 1,
                                        {1, 1, 32}, {2, 6, 2}, {2, 6, 2}, odd},
                            seed++);
            }
        }
}

TEST(OclQuantDynamic, DequantizeEveryDstAndQtype) {
    LLGA_NEED_GPU();
    uint32_t seed = 3600;
    for (data_type_t dst : {dnnl_f32, dnnl_bf16, dnnl_f16}) {
        // per_channel on the first and the last axis, tail sizes
        run_dynamic({dnnl_graph_op_dynamic_dequantize, dnnl_s4, dst, dnnl_u4,
                            {5, 3, 9}, "per_channel", -1, {}, {9}, {9}, true},
                seed++);
        run_dynamic({dnnl_graph_op_dynamic_dequantize, dnnl_u8, dst,
                            dnnl_data_type_undef, {5, 3, 9}, "per_channel", 0,
                            {}, {5}, {}, false},
                seed++);
        // groups along a middle dim, along two dims, group of the whole dim
        run_dynamic({dnnl_graph_op_dynamic_dequantize, dnnl_u4, dst, dnnl_s8,
                            {3, 8, 5}, "per_group", 0, {1, 4, 1}, {3, 2, 5},
                            {3, 2, 5}, true},
                seed++);
        run_dynamic({dnnl_graph_op_dynamic_dequantize, dnnl_s8, dst, dnnl_u8,
                            {4, 6, 10}, "per_group", 0, {2, 3, 5}, {2, 2, 2},
                            {2, 2, 2}, false},
                seed++);
        run_dynamic({dnnl_graph_op_dynamic_dequantize, dnnl_s4, dst,
                            dnnl_data_type_undef, {7, 33}, "per_group", 0,
                            {1, 33}, {7, 1}, {}, true},
                seed++);
    }
    // per_group with one scale for the whole tensor
    run_dynamic({dnnl_graph_op_dynamic_dequantize, dnnl_s4, dnnl_f32, dnnl_s4,
                        {4, 8}, "per_group", 0, {4, 8}, {1, 1}, {1, 1}, true},
            seed++);
}

// No kernel writes packed 4-bit data: compile refuses such an output with
// dnnl_unimplemented and a message naming the type and the op.
TEST(OclQuantDynamic, RefusesInt4Outputs) {
    ir::op_t op;
    op.kind = dnnl_graph_op_type_cast;
    op.inputs = {make_t(1, dnnl_f32, {4, 4})};
    op.outputs = {make_t(2, dnnl_u4, {4, 4})};
    std::vector<ocl::launch_desc_t> out;
    EXPECT_EQ(ocl::find_builder(op.kind)(op, out), dnnl_unimplemented);
    const std::string msg = llga_last_error_message();
    EXPECT_NE(msg.find("u4"), std::string::npos) << msg;
    EXPECT_NE(msg.find("TypeCast"), std::string::npos) << msg;
}

} // namespace
} // namespace ocl_test
} // namespace llga
