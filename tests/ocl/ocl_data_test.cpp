// SPDX-License-Identifier: Apache-2.0
// tests/ocl/ocl_data_test.cpp — the copy kernel family against the
// reference: TypeCast between every stored type, Reorder between layouts,
// StaticTranspose, StaticReshape and Concat.
#include "ocl_test_util.hpp"

namespace llga {
namespace ocl_test {
namespace {

using ir::attr_value_t;

TEST(OclCopy, TypeCastEveryPair) {
    LLGA_NEED_GPU();
    const data_type_t fl[] = {dnnl_f32, dnnl_bf16, dnnl_f16};
    uint32_t seed = 300;
    for (data_type_t a : fl)
        for (data_type_t b : fl) {
            if (a == b || (a != dnnl_f32 && b != dnnl_f32)) continue;
            ir::op_t op = make_op(dnnl_graph_op_type_cast,
                    {make_t(1, a, {5, 11}, true)}, {}, b, 2);
            EXPECT_EQ(run_and_compare({op}, seed++, -100.f, 100.f),
                    dnnl_success)
                    << llga_last_error_message();
        }
}

TEST(OclCopy, ReorderToOddStrides) {
    LLGA_NEED_GPU();
    for (data_type_t dt : {dnnl_f32, dnnl_bf16, dnnl_f16}) {
        ir::op_t op = make_op(dnnl_graph_op_reorder,
                {make_t(1, dt, {3, 4, 7})}, {}, dt, 2, true);
        EXPECT_EQ(run_and_compare({op}, 301, 0.f, 100.f), dnnl_success)
                << llga_last_error_message();
    }
}

TEST(OclCopy, TransposeAndReshape) {
    LLGA_NEED_GPU();
    ir::op_t t = make_op(dnnl_graph_op_static_transpose,
            {make_t(1, dnnl_f32, {2, 3, 5, 7}, true)},
            {{dnnl_graph_op_attr_order,
                    attr_value_t::make_s64s({0, 2, -1, 1})}},
            dnnl_f32, 2);
    EXPECT_EQ(run_and_compare({t}, 302), dnnl_success)
            << llga_last_error_message();
    ir::op_t r = make_op(dnnl_graph_op_static_reshape,
            {make_t(1, dnnl_f32, {6, 35})},
            {{dnnl_graph_op_attr_shape, attr_value_t::make_s64s({3, -1, 7})},
                    {dnnl_graph_op_attr_special_zero,
                            attr_value_t::make_bool(false)}},
            dnnl_f32, 2, true);
    EXPECT_EQ(run_and_compare({r}, 303), dnnl_success)
            << llga_last_error_message();
}

TEST(OclCopy, ConcatThreeInputsMiddleAxis) {
    LLGA_NEED_GPU();
    ir::op_t op = make_op(dnnl_graph_op_concat,
            {make_t(1, dnnl_f32, {2, 3, 5}), make_t(2, dnnl_f32, {2, 1, 5}, true),
                    make_t(3, dnnl_f32, {2, 4, 5})},
            {{dnnl_graph_op_attr_axis, attr_value_t::make_s64(1)}}, dnnl_f32,
            4, true);
    EXPECT_EQ(run_and_compare({op}, 304), dnnl_success)
            << llga_last_error_message();
}

} // namespace
} // namespace ocl_test
} // namespace llga
