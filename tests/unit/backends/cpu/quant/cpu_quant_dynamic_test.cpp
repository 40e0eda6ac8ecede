// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/quant/cpu_quant_dynamic_test.cpp — DynamicQuantize
// and DynamicDequantize on the cpu backend (backends/cpu/kernels/
// quant_dynamic.cpp): a hand-worked per-group s4 case, then random shapes for
// every storage type the opset allows, per tensor / channel / group, with and
// without zero points, and sources stored transposed (as the compressed-KV
// graphs send them), byte for byte against the reference.
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cpu_plan_test_util.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace {

using plan_test::bytes_t;
using av = ir::attr_value_t;

class CpuQuantDynamic : public ::testing::Test {
protected:
    static void SetUpTestSuite() { rt::start_threading(); }
};

// Element strides of `dims` stored with its last two dims swapped.
dims_t transposed_strides(const dims_t &d) {
    dims_t order(d.size());
    for (size_t k = 0; k < d.size(); ++k)
        order[k] = static_cast<int64_t>(k);
    std::swap(order[d.size() - 1], order[d.size() - 2]);
    dims_t st(d.size());
    int64_t acc = 1;
    for (size_t k = d.size(); k-- > 0;) {
        st[static_cast<size_t>(order[k])] = acc;
        acc *= d[static_cast<size_t>(order[k])];
    }
    return st;
}

struct dyn_case_t {
    bool quantize = false;
    data_type_t qdt = dnnl_s8, fdt = dnnl_f32, zdt = dnnl_data_type_undef;
    std::string qtype = "per_tensor";
    int64_t axis = 1;
    dims_t dims, group;
    bool transposed = false;
};

ir::op_t build(const dyn_case_t &c) {
    ir::op_t op;
    op.kind = c.quantize ? dnnl_graph_op_dynamic_quantize
                         : dnnl_graph_op_dynamic_dequantize;
    op.id = 1;
    logical_tensor_t src = ir::make_lt(10, c.quantize ? c.fdt : c.qdt, c.dims);
    if (c.transposed) {
        const dims_t st = transposed_strides(c.dims);
        for (size_t k = 0; k < st.size(); ++k)
            src.layout.strides[k] = st[k];
    }
    dims_t pd = {1};
    if (c.qtype == "per_channel") pd = {c.dims[static_cast<size_t>(c.axis)]};
    if (c.qtype == "per_group") {
        pd = c.dims;
        for (size_t k = 0; k < pd.size(); ++k)
            pd[k] /= c.group[k];
    }
    op.inputs = {src, ir::make_lt(11, c.fdt, pd)};
    if (c.zdt != dnnl_data_type_undef) op.inputs.push_back(ir::make_lt(12, c.zdt, pd));
    op.outputs = {ir::make_lt(13, c.quantize ? c.qdt : c.fdt, c.dims)};
    op.set_attr(dnnl_graph_op_attr_qtype, av::make_str(c.qtype));
    op.set_attr(dnnl_graph_op_attr_axis, av::make_s64(c.axis));
    if (c.qtype == "per_group")
        op.set_attr(dnnl_graph_op_attr_group_shape, av::make_s64s(c.group));
    return op;
}

// Inputs: random bytes for integer tensors (every nibble value), scales
// in [0.01, 2] and, for Quantize, values that cover saturation.
std::vector<bytes_t> inputs(const compiler::plan_t &p, std::mt19937 &gen) {
    std::vector<bytes_t> in;
    for (size_t k = 0; k < p.inputs.size(); ++k) {
        const logical_tensor_t &lt = p.inputs[k];
        if (ir::dtype_is_float(lt.data_type)) {
            const bool scales = k == 1;
            in.push_back(plan_test::random_bytes(lt, gen,
                    scales ? 0.01f : -300.f, scales ? 2.f : 300.f));
        } else {
            bytes_t b(ir::mem_size(lt));
            for (auto &x : b)
                x = static_cast<char>(gen());
            in.push_back(b);
        }
    }
    return in;
}

void check(const dyn_case_t &c, std::mt19937 &gen) {
    const ir::op_t op = build(c);
    ir::op_t verified = op;
    ASSERT_EQ(ops::verify_op(verified), dnnl_success) << last_error();
    const compiler::plan_t p = plan_test::plan_of(op);
    const std::vector<bytes_t> in = inputs(p, gen);
    const std::vector<bytes_t> want = plan_test::run_ref_all(p, in);
    std::vector<bytes_t> got;
    std::string kname;
    ASSERT_TRUE(plan_test::run_jit_all(p, in, got, &kname));
    ASSERT_EQ(kname.rfind("dynamic_", 0), 0u) << kname;
    EXPECT_EQ(got[0], want[0]) << kname;
}

// s4 two to a byte, low nibble first; groups of 2 along the last dim:
// x = (q - zp) * scale with q = 7, -8, 3, -1 and (scale, zp) = (0.5, 1),
// (2, -2): (7-1)/2 = 3, (-8-1)/2 = -4.5, (3+2)*2 = 10, (-1+2)*2 = 2.
TEST_F(CpuQuantDynamic, HandWorkedPerGroupS4) {
    dyn_case_t c;
    c.qdt = dnnl_s4;
    c.zdt = dnnl_s8;
    c.qtype = "per_group";
    c.dims = {1, 4};
    c.group = {1, 2};
    const compiler::plan_t p = plan_test::plan_of(build(c));
    const bytes_t q = {static_cast<char>(0x87), static_cast<char>(0xf3)};
    std::vector<float> sc = {0.5f, 2.f};
    bytes_t scb(8);
    std::memcpy(scb.data(), sc.data(), 8);
    const bytes_t zp = {1, static_cast<char>(-2)};
    std::vector<bytes_t> got;
    std::string kname;
    ASSERT_TRUE(plan_test::run_jit_all(p, {q, scb, zp}, got, &kname));
    std::vector<float> y(4);
    std::memcpy(y.data(), got[0].data(), 16);
    EXPECT_EQ(y, (std::vector<float> {3.f, -4.5f, 10.f, 2.f})) << kname;
}

TEST_F(CpuQuantDynamic, DequantizeMatchesTheReferenceByteForByte) {
    std::mt19937 gen(3);
    const data_type_t qdts[] = {dnnl_s8, dnnl_u8, dnnl_s4, dnnl_u4};
    const data_type_t fdts[] = {dnnl_f32, dnnl_bf16, dnnl_f16};
    const data_type_t zdts[] = {dnnl_data_type_undef, dnnl_s8, dnnl_u8, dnnl_s4,
            dnnl_u4, dnnl_s32};
    for (int t = 0; t < 150; ++t) {
        dyn_case_t c;
        c.qdt = qdts[gen() % 4];
        c.fdt = fdts[gen() % 3];
        c.zdt = zdts[gen() % 6];
        c.dims = {1 + static_cast<int64_t>(gen() % 2), 2 + static_cast<int64_t>(gen() % 3),
                8 * (1 + static_cast<int64_t>(gen() % 4)),
                8 * (1 + static_cast<int64_t>(gen() % 5))};
        const int mode = static_cast<int>(gen() % 3);
        c.qtype = mode == 0 ? "per_tensor" : mode == 1 ? "per_channel" : "per_group";
        c.axis = static_cast<int64_t>(gen() % 4);
        if (mode == 2) {
            c.group = {1, 1, 1, 1};
            c.group[2 + gen() % 2] = gen() % 2 ? 4 : 8;
        }
        c.transposed = gen() % 2;
        SCOPED_TRACE(std::to_string(t) + " " + c.qtype + " dims "
                + ir::dims_to_string(c.dims) + " group "
                + ir::dims_to_string(c.group) + " axis " + std::to_string(c.axis)
                + " zp " + ir::dtype_name(c.zdt)
                + (c.transposed ? " transposed" : ""));
        check(c, gen);
        if (HasFailure()) return;
    }
}

TEST_F(CpuQuantDynamic, QuantizeMatchesTheReferenceByteForByte) {
    std::mt19937 gen(4);
    const data_type_t zdts[] = {dnnl_data_type_undef, dnnl_s8, dnnl_u8, dnnl_s32};
    for (int t = 0; t < 80; ++t) {
        dyn_case_t c;
        c.quantize = true;
        c.qdt = gen() % 2 ? dnnl_s8 : dnnl_u8;
        c.zdt = zdts[gen() % 4];
        c.dims = {2, 3 + static_cast<int64_t>(gen() % 5), 1 + static_cast<int64_t>(gen() % 70)};
        c.qtype = gen() % 2 ? "per_tensor" : "per_channel";
        c.axis = static_cast<int64_t>(gen() % 3);
        SCOPED_TRACE(std::to_string(t) + " " + c.qtype);
        check(c, gen);
        if (HasFailure()) return;
    }
}

} // namespace
} // namespace cpu
} // namespace llga
