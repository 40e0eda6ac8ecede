// SPDX-License-Identifier: Apache-2.0
// tests/unit/ir/graph_test.cpp — graph structure rules, topological order,
// logical tensor helpers and broadcasting.
#include <cmath>

#include <gtest/gtest.h>

#include "base/status.hpp"
#include "ir/graph.hpp"
#include "ir/logical_tensor.hpp"
#include "ir/shape.hpp"

namespace llga {
namespace ir {
namespace {

op_t make(size_t id, std::vector<size_t> ins, std::vector<size_t> outs,
        data_type_t dt = dnnl_f32) {
    op_t op;
    op.id = id;
    op.kind = dnnl_graph_op_relu;
    for (size_t t : ins)
        op.inputs.push_back(make_lt(t, dt, {2, 2}));
    for (size_t t : outs)
        op.outputs.push_back(make_lt(t, dt, {2, 2}));
    return op;
}

TEST(Graph, TopologicalOrderFollowsDataNotInsertion) {
    graph_t g;
    // Added consumer-first: c(3->4), b(2->3), a(1->2).
    ASSERT_EQ(g.add_op(make(30, {3}, {4})), dnnl_success);
    ASSERT_EQ(g.add_op(make(20, {2}, {3})), dnnl_success);
    ASSERT_EQ(g.add_op(make(10, {1}, {2})), dnnl_success);
    ASSERT_EQ(g.finalize(), dnnl_success);
    std::vector<size_t> ids;
    for (size_t i : g.topo_order())
        ids.push_back(g.ops()[i].id);
    EXPECT_EQ(ids, (std::vector<size_t> {10, 20, 30}));
    ASSERT_NE(g.producer(3), nullptr);
    EXPECT_EQ(g.ops()[g.producer(3)->op_index].id, 20u);
    EXPECT_EQ(g.producer(1), nullptr); // graph input
    EXPECT_EQ(g.consumers(2).size(), 1u);
    EXPECT_TRUE(g.consumers(4).empty()); // graph output
}

TEST(Graph, DuplicateOpIdIsIgnored) {
    graph_t g;
    ASSERT_EQ(g.add_op(make(1, {1}, {2})), dnnl_success);
    EXPECT_EQ(g.add_op(make(1, {5}, {6})), dnnl_success);
    EXPECT_EQ(g.ops().size(), 1u);
}

TEST(Graph, StructuralErrors) {
    graph_t g;
    ASSERT_EQ(g.add_op(make(1, {1}, {2})), dnnl_success);
    EXPECT_EQ(g.add_op(make(2, {3}, {2})), dnnl_invalid_graph); // 2 producers
    EXPECT_NE(last_error().find("already produced"), std::string::npos);
    EXPECT_EQ(g.add_op(make(4, {2}, {6, 6})), dnnl_invalid_graph);

    // Tensor 2 as bf16 where it was f32: accepted by add_op, refused by
    // finalize (oneDNN's rule), naming the tensor.
    graph_t two;
    ASSERT_EQ(two.add_op(make(1, {1}, {2})), dnnl_success);
    EXPECT_EQ(two.add_op(make(3, {2}, {5}, dnnl_bf16)), dnnl_success);
    EXPECT_EQ(two.finalize(), dnnl_invalid_graph);
    EXPECT_NE(last_error().find("tensor 2"), std::string::npos) << last_error();
    EXPECT_FALSE(two.finalized());

    graph_t cyc;
    ASSERT_EQ(cyc.add_op(make(1, {1}, {2})), dnnl_success);
    ASSERT_EQ(cyc.add_op(make(2, {2}, {1})), dnnl_success);
    EXPECT_EQ(cyc.finalize(), dnnl_invalid_graph);
    EXPECT_NE(last_error().find("cycle"), std::string::npos);

    graph_t fin;
    ASSERT_EQ(fin.finalize(), dnnl_success);
    EXPECT_EQ(fin.add_op(make(1, {1}, {2})), dnnl_invalid_graph);
    EXPECT_EQ(fin.set_fpmath_mode(dnnl_fpmath_mode_bf16, false), dnnl_invalid_graph);
}

TEST(LogicalTensor, CompatibilityAllowsUnknowns) {
    logical_tensor_t a = make_lt(1, dnnl_f32, {2, unknown_dim});
    logical_tensor_t b = make_lt(1, dnnl_f32, {2, 5});
    logical_tensor_t c = make_lt(1, dnnl_f32, {3, 5});
    EXPECT_TRUE(lt_compatible(a, b));
    EXPECT_FALSE(lt_compatible(b, c));
    EXPECT_TRUE(lt_compatible(make_lt_unknown(1, dnnl_f32), c));
    EXPECT_FALSE(lt_compatible(make_lt_unknown(1, dnnl_s8), c));
}

TEST(LogicalTensor, DenseStridesAndMemSize) {
    EXPECT_EQ(dense_strides({2, 3, 4}), (dims_t {12, 4, 1}));
    EXPECT_EQ(dense_strides({2, 0, 4}), (dims_t {4, 4, 1}));
    logical_tensor_t t = make_lt(1, dnnl_bf16, {3, 5});
    EXPECT_TRUE(is_dense(t));
    EXPECT_EQ(mem_size(t), 30u);
    t.layout.strides[0] = 8; // padded rows
    EXPECT_FALSE(is_dense(t));
    EXPECT_EQ(mem_size(t), 48u); // 3 rows * 8 elements * 2 bytes
    EXPECT_EQ(lt_to_string(t), "id:1 bf16 3x5 strided");
}

TEST(Shape, NumpyBroadcast) {
    dims_t out;
    ASSERT_TRUE(broadcast_shapes({2, 1, 4}, {3, 1}, out));
    EXPECT_EQ(out, (dims_t {2, 3, 4}));
    ASSERT_TRUE(broadcast_shapes({}, {5}, out));
    EXPECT_EQ(out, (dims_t {5}));
    EXPECT_FALSE(broadcast_shapes({2, 3}, {4, 3}, out));
    EXPECT_TRUE(broadcastable_to({3, 1}, {2, 3, 4}));
    EXPECT_FALSE(broadcastable_to({3, 5}, {2, 3, 4}));
    int64_t axis;
    EXPECT_TRUE(normalize_axis(-1, 3, axis));
    EXPECT_EQ(axis, 2);
    EXPECT_FALSE(normalize_axis(3, 3, axis));
    int64_t idx[3];
    unravel(23, {2, 3, 4}, idx);
    EXPECT_EQ(idx[0], 1);
    EXPECT_EQ(idx[1], 2);
    EXPECT_EQ(idx[2], 3);
    // Element (1,2,3) of a [2,3,4] output reads (2,0) of a [3,1] operand.
    EXPECT_EQ(broadcast_offset(idx, 3, {3, 1}, {1, 1}), 2);
}

TEST(Attr, NamesKindsAndEquality) {
    attr_id_t a;
    ASSERT_TRUE(attr_from_name("weights_format", &a));
    EXPECT_EQ(a, dnnl_graph_op_attr_weights_format);
    EXPECT_EQ(attr_kind(dnnl_graph_op_attr_scales), attr_kind_t::f32s);
    EXPECT_EQ(all_attrs().size(), 42u);
    EXPECT_EQ(attr_value_t::make_s64s({1, 2}), attr_value_t::make_s64s({1, 2}));
    EXPECT_NE(attr_value_t::make_s64s({1, 2}), attr_value_t::make_s64(1));
    EXPECT_EQ(attr_value_t::make_f32(NAN), attr_value_t::make_f32(NAN));
}

} // namespace
} // namespace ir
} // namespace llga
