// SPDX-License-Identifier: Apache-2.0
// tests/unit/ops/misc_test.cpp — End, Wildcard, GenIndex, and the ops.def
// family lookup.
#include "ops/op_test_util.hpp"

namespace llga {
namespace test {

TEST(GenIndex, IndexAlongEachAxis) {
    // For a 2x3 tensor, axis 1 gives column numbers, axis -2 row numbers.
    op_runner_t cols(dnnl_graph_op_gen_index);
    cols.input(dnnl_f32, {2, 3}).output(dnnl_s32).s64(dnnl_graph_op_attr_axis, 1);
    ASSERT_EQ(cols.run(), dnnl_success);
    EXPECT_EQ(cols.out_dims(), (dims_t {2, 3}));
    expect_near_all(cols.out_values(), {0, 1, 2, 0, 1, 2});

    op_runner_t rows(dnnl_graph_op_gen_index);
    rows.input(dnnl_f32, {2, 3}).output(dnnl_s32).s64(dnnl_graph_op_attr_axis, -2);
    ASSERT_EQ(rows.run(), dnnl_success);
    expect_near_all(rows.out_values(), {0, 0, 0, 1, 1, 1});
}

TEST(GenIndex, SchemaViolations) {
    op_runner_t no_axis(dnnl_graph_op_gen_index);
    no_axis.input(dnnl_f32, {2, 3}).output(dnnl_s32);
    EXPECT_EQ(no_axis.verify(), dnnl_invalid_graph_op);

    op_runner_t bad_out(dnnl_graph_op_gen_index);
    bad_out.input(dnnl_f32, {2, 3}).output(dnnl_f32).s64(dnnl_graph_op_attr_axis, 0);
    EXPECT_EQ(bad_out.verify(), dnnl_invalid_graph_op);

    op_runner_t bad_axis(dnnl_graph_op_gen_index);
    bad_axis.input(dnnl_f32, {2, 3}).output(dnnl_s32).s64(dnnl_graph_op_attr_axis, 2);
    EXPECT_EQ(bad_axis.verify(), dnnl_invalid_graph_op);
}

TEST(End, AcceptsOneInputNoOutputs) {
    op_runner_t end(dnnl_graph_op_end);
    end.input(dnnl_f32, {4});
    EXPECT_EQ(end.verify(), dnnl_success);
    op_runner_t two(dnnl_graph_op_end);
    two.input(dnnl_f32, {4}).input(dnnl_f32, {4});
    EXPECT_EQ(two.verify(), dnnl_invalid_graph_op);
}

TEST(Wildcard, AnythingGoesButAttributes) {
    op_runner_t w(dnnl_graph_op_wildcard);
    w.input(dnnl_f32, {4}).input(dnnl_s8, {2}).output(dnnl_u8, {3});
    EXPECT_EQ(w.verify(), dnnl_success);
    EXPECT_FALSE(ops::has_reference(dnnl_graph_op_wildcard));
    w.s64(dnnl_graph_op_attr_axis, 0);
    EXPECT_EQ(w.verify(), dnnl_invalid_graph_op);
}

} // namespace test
} // namespace llga

// The ops.def family of a kind, as the backends read it (the quantized
// pooling kernel's elementwise test): forward unary ops, binary ops, and
// nothing for an unknown kind.
TEST(OpFamily, FromTheCatalogue) {
    using llga::ops::op_family;
    EXPECT_STREQ(op_family(dnnl_graph_op_relu), "eltwise_unary");
    EXPECT_STREQ(op_family(dnnl_graph_op_gelu), "eltwise_unary");
    EXPECT_STREQ(op_family(dnnl_graph_op_relu_backward), "eltwise_backward");
    EXPECT_STREQ(op_family(dnnl_graph_op_add), "binary");
    EXPECT_STREQ(op_family(dnnl_graph_op_max_pool), "pool");
    EXPECT_EQ(op_family(dnnl_graph_op_last_symbol), nullptr);
    EXPECT_EQ(op_family(static_cast<llga::op_kind_t>(-1)), nullptr);
}
