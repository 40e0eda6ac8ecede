// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/quant/cpu_concat_quant_test.cpp — the quantized
// Concat kernel (Dequantize on every input -> Concat -> Quantize, per tensor):
// bit for bit against the reference ops run one by one, for a plain copy (one
// scale and zero point throughout), requantizing tables with saturation, mixed
// u8/s8/f8 inputs, concatenation along the first, a middle and the last axis,
// strided inputs and a padded output; and what it declines.
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/cpu_backend.hpp"
#include "backends/cpu/kernels/quant/concat_quant.hpp"
#include "cpu_plan_test_util.hpp"
#include "ir/dtype.hpp"
#include "ir/shape.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace {

using ir::attr_value_t;
using plan_test::bytes_t;
using plan_test::plan_builder_t;

class CpuConcatQuant : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

std::function<void(ir::op_t &)> qparams(float scale, int64_t zp,
        const char *qtype = "per_tensor") {
    return [=](ir::op_t &op) {
        op.set_attr(dnnl_graph_op_attr_scales, attr_value_t::make_f32s({scale}));
        op.set_attr(dnnl_graph_op_attr_zps, attr_value_t::make_s64s({zp}));
        op.set_attr(dnnl_graph_op_attr_qtype, attr_value_t::make_str(qtype));
        op.set_attr(dnnl_graph_op_attr_axis, attr_value_t::make_s64(0));
    };
}

// An input: its dims, 8-bit type, (de)quantization parameters, and
// optional strides.
struct input_t {
    dims_t dims;
    data_type_t dt;
    float scale;
    int64_t zp;
    dims_t strides = {};
};

// Builds DQ(inputs) -> Concat(axis) -> Q(out_dt, scale, zp), runs it
// through the backend and the reference on random bytes, and compares
// every output byte. Returns the kernel name ("" if declined).
std::string run(const std::vector<input_t> &ins, int64_t axis,
        data_type_t out_dt, float scale, int64_t zp, unsigned seed,
        const dims_t &out_strides = {}) {
    plan_builder_t g;
    std::vector<logical_tensor_t> deq;
    dims_t od = ins[0].dims;
    od[static_cast<size_t>(axis)] = 0;
    for (const input_t &x : ins) {
        const logical_tensor_t t = g.in(x.dims, x.dt, x.strides);
        deq.push_back(g.add(dnnl_graph_op_dequantize, {t}, x.dims, dnnl_f32,
                qparams(x.scale, x.zp)));
        od[static_cast<size_t>(axis)] += x.dims[static_cast<size_t>(axis)];
    }
    const logical_tensor_t c = g.add(dnnl_graph_op_concat, deq, od, dnnl_f32,
            [axis](ir::op_t &op) {
                op.set_attr(dnnl_graph_op_attr_axis, attr_value_t::make_s64(axis));
            });
    g.add(dnnl_graph_op_quantize, {c}, od, out_dt, qparams(scale, zp));
    const compiler::plan_t p = g.plan(out_strides);
    std::mt19937 gen(seed);
    std::vector<bytes_t> in;
    for (const logical_tensor_t &t : p.inputs) {
        bytes_t b(ir::mem_size(t));
        for (auto &e : b)
            e = static_cast<uint8_t>(gen());
        in.push_back(b);
    }
    bytes_t got;
    std::string kname;
    if (!plan_test::run_jit(p, in, got, &kname)) return "";
    const auto ref = plan_test::run_ref(p, in);
    const bytes_t &want = ref.at(p.outputs[0].id);
    // Every element the output's layout addresses (padding excluded).
    const dims_t d = ir::dims_of(p.outputs[0]), st = ir::strides_of(p.outputs[0]);
    int64_t idx[DNNL_MAX_NDIMS] = {};
    int bad = 0;
    for (int64_t i = 0; i < ir::nelems(p.outputs[0]); ++i, ir::next_index(idx, d)) {
        const int64_t o = ir::offset_of(idx, st.data(), p.outputs[0].ndims);
        if (got[static_cast<size_t>(o)] != want[static_cast<size_t>(o)] && bad++ < 5)
            ADD_FAILURE() << kname << ": element " << i << " got "
                          << int(got[static_cast<size_t>(o)]) << " want "
                          << int(want[static_cast<size_t>(o)]);
    }
    EXPECT_EQ(bad, 0) << kname;
    return kname;
}

TEST_F(CpuConcatQuant, OneScaleThroughoutIsAPlainCopy) {
    // NCX channel concat (the corpus graph's shape, small).
    EXPECT_EQ(run({{{2, 16, 7, 9}, dnnl_s8, 1.f, 0},
                          {{2, 24, 7, 9}, dnnl_s8, 1.f, 0}},
                      1, dnnl_s8, 1.f, 0, 1),
            "concat_quant_s8");
    EXPECT_EQ(run({{{3, 5, 33}, dnnl_u8, 0.05f, 128},
                          {{3, 5, 31}, dnnl_u8, 0.05f, 128}},
                      2, dnnl_u8, 0.05f, 128, 2),
            "concat_quant_u8");
}

// Differing parameters: each input through its own table, saturating
// where its range exceeds the output's (s8 at scale 1 into s8 at scale
// 0.5 doubles and clips), u8 into s8, an f8 input, and an identity piece
// next to requantized ones; along the first and the last axis.
TEST_F(CpuConcatQuant, RequantizedInputsMatchTheReference) {
    EXPECT_EQ(run({{{4, 6, 10}, dnnl_s8, 1.f, 0},
                          {{4, 6, 3}, dnnl_u8, 0.25f, 100},
                          {{4, 6, 7}, dnnl_s8, 0.5f, -3}},
                      2, dnnl_s8, 0.5f, -3, 3),
            "concat_quant_s8");
    EXPECT_EQ(run({{{2, 8, 4}, dnnl_u8, 0.1f, 10},
                          {{5, 8, 4}, dnnl_f8_e4m3, 0.5f, 0}},
                      0, dnnl_u8, 0.3f, 7, 4),
            "concat_quant_u8");
}

// Strided inputs (a padded row; a transposed layout) and a padded output.
TEST_F(CpuConcatQuant, StridedInputsAndPaddedOutput) {
    EXPECT_EQ(run({{{3, 4, 5}, dnnl_s8, 0.2f, 1, {40, 10, 1}},
                          {{3, 2, 5}, dnnl_s8, 0.2f, 1, {1, 15, 3}}},
                      1, dnnl_s8, 0.4f, 0, 5, {64, 8, 1}),
            "concat_quant_s8");
}

// Per-channel parameters and an f32 result are left to the other kernels.
TEST_F(CpuConcatQuant, DeclinesWhatItDoesNotCover) {
    plan_builder_t g;
    const logical_tensor_t a = g.in({2, 3}, dnnl_s8), b = g.in({2, 3}, dnnl_s8);
    const logical_tensor_t da = g.add(dnnl_graph_op_dequantize, {a}, {2, 3},
            dnnl_f32, qparams(1.f, 0));
    const logical_tensor_t db = g.add(dnnl_graph_op_dequantize, {b}, {2, 3},
            dnnl_f32, qparams(1.f, 0));
    g.add(dnnl_graph_op_concat, {da, db}, {4, 3}, dnnl_f32, [](ir::op_t &op) {
        op.set_attr(dnnl_graph_op_attr_axis, attr_value_t::make_s64(0));
    });
    std::string why;
    compiler::plan_t f32_out = g.plan();
    EXPECT_FALSE(concat_quant::accepts(f32_out, isa_t::avx2, &why));
    EXPECT_NE(why.find("quantized Concat"), std::string::npos) << why;
    g.add(dnnl_graph_op_quantize, {g.ops.back().outputs[0]}, {4, 3}, dnnl_s8,
            [](ir::op_t &op) {
                op.set_attr(dnnl_graph_op_attr_scales,
                        attr_value_t::make_f32s({1.f, 2.f, 3.f}));
                op.set_attr(dnnl_graph_op_attr_zps,
                        attr_value_t::make_s64s({0, 0, 0}));
                op.set_attr(dnnl_graph_op_attr_qtype,
                        attr_value_t::make_str("per_channel"));
                op.set_attr(dnnl_graph_op_attr_axis, attr_value_t::make_s64(1));
            });
    EXPECT_FALSE(concat_quant::accepts(g.plan(), isa_t::avx2, &why));
    EXPECT_NE(why.find("per-channel"), std::string::npos) << why;
}

} // namespace
} // namespace cpu
} // namespace llga
