// SPDX-License-Identifier: Apache-2.0
// tests/unit/fusion/partitioner_test.cpp — partition order, ports, End and
// Wildcard handling, and signatures.
#include <gtest/gtest.h>

#include <string>

#include "fusion/partitioner.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace fusion {
namespace {

ir::op_t op(size_t id, op_kind_t kind, std::vector<size_t> ins,
        std::vector<size_t> outs) {
    ir::op_t o;
    o.id = id;
    o.kind = kind;
    for (size_t t : ins)
        o.inputs.push_back(ir::make_lt(t, dnnl_f32, {2, 2}));
    for (size_t t : outs)
        o.outputs.push_back(ir::make_lt(t, dnnl_f32, {2, 2}));
    EXPECT_EQ(ops::verify_op(o), dnnl_success) << ops::describe(o);
    return o;
}

TEST(Partitioner, OneOpEachInOrderWithPorts) {
    ir::graph_t g;
    // x(1) -> ReLU -> 2 -> Add(2, 2) -> 3 -> Wildcard -> 4 -> End
    ASSERT_EQ(g.add_op(op(1, dnnl_graph_op_relu, {1}, {2})), dnnl_success);
    ASSERT_EQ(g.add_op(op(2, dnnl_graph_op_add, {2, 2}, {3})), dnnl_success);
    ASSERT_EQ(g.add_op(op(3, dnnl_graph_op_wildcard, {3}, {4})), dnnl_success);
    ASSERT_EQ(g.add_op(op(4, dnnl_graph_op_end, {4}, {})), dnnl_success);
    partition_list_t parts;
    EXPECT_EQ(partition_graph(g, dnnl_graph_partition_policy_fusion, parts),
            dnnl_invalid_graph); // not finalized
    ASSERT_EQ(g.finalize(), dnnl_success);
    // Debug policy: one op each (fusion would join ReLU and Add).
    ASSERT_EQ(partition_graph(g, dnnl_graph_partition_policy_debug, parts),
            dnnl_success);
    ASSERT_EQ(parts.size(), 4u); // the End gets its own (as in oneDNN)
    EXPECT_TRUE(parts[0]->supported);
    EXPECT_TRUE(parts[1]->supported);
    EXPECT_FALSE(parts[2]->supported);
    EXPECT_FALSE(parts[3]->supported);
    ASSERT_EQ(parts[3]->ops.size(), 1u);
    EXPECT_EQ(parts[3]->ops[0].kind, dnnl_graph_op_end);
    EXPECT_EQ(parts[3]->inputs.size(), 1u);
    EXPECT_TRUE(parts[3]->outputs.empty());
    // Add uses tensor 2 twice: one input port.
    ASSERT_EQ(parts[1]->inputs.size(), 1u);
    EXPECT_EQ(parts[1]->inputs[0].id, 2u);
    ASSERT_EQ(parts[1]->outputs.size(), 1u);
    EXPECT_EQ(parts[1]->outputs[0].id, 3u);
    EXPECT_NE(parts[0]->id, parts[1]->id);
    EXPECT_NE(parts[0]->signature(), parts[1]->signature());
}

TEST(Partitioner, SignatureSeesTypesInsideThePartition) {
    // Add → ReLU fuse; the tensor between them is f32 in one graph and f16
    // in the other. No port shows it, yet the compiled code differs, so the
    // signatures (the compiled-partition cache key) must too.
    std::string sig[2];
    for (int k = 0; k < 2; ++k) {
        ir::op_t add = op(1, dnnl_graph_op_add, {1, 2}, {3});
        ir::op_t relu = op(2, dnnl_graph_op_relu, {3}, {4});
        if (k == 1) add.outputs[0].data_type = relu.inputs[0].data_type
                = dnnl_f16;
        ir::graph_t g;
        ASSERT_EQ(g.add_op(add), dnnl_success);
        ASSERT_EQ(g.add_op(relu), dnnl_success);
        ASSERT_EQ(g.finalize(), dnnl_success);
        partition_list_t parts;
        ASSERT_EQ(partition_graph(g, dnnl_graph_partition_policy_fusion, parts),
                dnnl_success);
        ASSERT_EQ(parts.size(), 1u);
        ASSERT_EQ(parts[0]->ops.size(), 2u);
        sig[k] = parts[0]->signature();
    }
    EXPECT_NE(sig[0], sig[1]);
}

TEST(Partitioner, SingleOpOutsideGraph) {
    std::shared_ptr<const partition_t> p;
    ASSERT_EQ(partition_single_op(op(9, dnnl_graph_op_relu, {1}, {2}), dnnl_cpu, p),
            dnnl_success);
    EXPECT_TRUE(p->supported);
    ASSERT_EQ(partition_single_op(op(9, dnnl_graph_op_relu, {1}, {2}), dnnl_gpu, p),
            dnnl_success);
    // GPU graphs partition like CPU graphs (a missing OpenCL kernel is
    // reported at compile).
    EXPECT_TRUE(p->supported);
}

} // namespace
} // namespace fusion
} // namespace llga
