// SPDX-License-Identifier: Apache-2.0
// tests/unit/fusion/report_test.cpp — the fusion report (fusion/report.hpp):
// graphs built so that one rule stops a pattern, and the report must name
// that rule (and the tensor/op/attribute behind it). Rules the shipped
// patterns never apply (broadcast, rank, cycle) are checked with small
// patterns defined here.
#include <gtest/gtest.h>

#include "fusion/report.hpp"
#include "fusion_test_builder.hpp"

namespace llga {
namespace fusion {
namespace test {
namespace {

const op_report_t &op_of(const fusion_report_t &r, size_t id) {
    for (const auto &o : r.ops)
        if (o.op_id == id) return o;
    static op_report_t none;
    ADD_FAILURE() << "op " << id << " not in the report";
    return none;
}

// The rejection of `pattern` for op `id`, or nullptr.
const rejection_t *rejection(
        const fusion_report_t &r, size_t id, const std::string &pattern) {
    for (const auto &x : op_of(r, id).rejections)
        if (x.pattern == pattern) return &x;
    return nullptr;
}

fusion_report_t explain(builder_t &b) {
    fusion_report_t r;
    EXPECT_EQ(explain_partitions(b.g, b.parts, r), dnnl_success);
    return r;
}

TEST(FusionReport, FusedOpsNameTheirPattern) {
    builder_t b;
    b.add(dnnl_graph_op_matmul, {1, 2}, 3);
    b.add(dnnl_graph_op_relu, {3}, 4);
    ASSERT_EQ(b.partition(), (groups_t {{1, 2}}));
    const fusion_report_t r = explain(b);
    EXPECT_EQ(op_of(r, 1).pattern, "fp_matmul_post_ops");
    EXPECT_EQ(op_of(r, 2).pattern, "fp_matmul_post_ops");
    EXPECT_TRUE(op_of(r, 2).rejections.empty());
}

// The case: an intermediate with two readers stops the chain.
TEST(FusionReport, SecondConsumer) {
    builder_t b;
    b.add(dnnl_graph_op_matmul, {1, 2}, 3);
    b.add(dnnl_graph_op_relu, {3}, 4);
    b.add(dnnl_graph_op_abs, {3}, 5);
    ASSERT_EQ(b.partition().size(), 3u);
    const fusion_report_t r = explain(b);
    const rejection_t *x = rejection(r, 2, "fp_matmul_post_ops");
    ASSERT_NE(x, nullptr) << report_text(r);
    EXPECT_EQ(x->rule, "second_consumer");
    EXPECT_NE(x->detail.find("tensor 3"), std::string::npos) << x->detail;
    EXPECT_NE(x->detail.find("op 3 (Abs)"), std::string::npos) << x->detail;
}

TEST(FusionReport, ChainLength) {
    builder_t b;
    b.add(dnnl_graph_op_matmul, {1, 2}, 3);
    b.add(dnnl_graph_op_relu, {3}, 4);
    b.add(dnnl_graph_op_abs, {4}, 5);
    b.add(dnnl_graph_op_tanh, {5}, 6);
    b.add(dnnl_graph_op_sigmoid, {6}, 7);
    b.add(dnnl_graph_op_exp, {7}, 8); // the fifth post-op
    ASSERT_EQ(b.partition(), (groups_t {{1, 2, 3, 4, 5}, {6}}));
    const fusion_report_t r = explain(b);
    const rejection_t *x = rejection(r, 6, "fp_matmul_post_ops");
    ASSERT_NE(x, nullptr) << report_text(r);
    EXPECT_EQ(x->rule, "chain_length");
}

TEST(FusionReport, Dtype) {
    // Round is a post-op only on f32.
    builder_t b;
    b.add(dnnl_graph_op_matmul, {1, 2}, 3, dnnl_bf16, dnnl_bf16);
    b.add(dnnl_graph_op_round, {3}, 4, dnnl_bf16, dnnl_bf16);
    ASSERT_EQ(b.partition().size(), 2u);
    const fusion_report_t r = explain(b);
    const rejection_t *x = rejection(r, 2, "fp_matmul_post_ops");
    ASSERT_NE(x, nullptr) << report_text(r);
    EXPECT_EQ(x->rule, "dtype");
    EXPECT_NE(x->detail.find("tensor 3"), std::string::npos) << x->detail;
    EXPECT_NE(x->detail.find("bf16"), std::string::npos) << x->detail;
}

TEST(FusionReport, Attribute) {
    // LayerNorm fuses only over the last axis.
    builder_t b;
    ir::op_t &ln = b.add(dnnl_graph_op_layer_norm, {1}, 2);
    ln.set_attr(dnnl_graph_op_attr_keep_stats, attr_value_t::make_bool(false));
    ln.set_attr(dnnl_graph_op_attr_use_affine, attr_value_t::make_bool(false));
    ln.set_attr(dnnl_graph_op_attr_begin_norm_axis, attr_value_t::make_s64(0));
    b.add(dnnl_graph_op_relu, {2}, 3);
    ASSERT_EQ(b.partition().size(), 2u);
    const fusion_report_t r = explain(b);
    const rejection_t *x = rejection(r, 2, "layernorm_post_ops");
    ASSERT_NE(x, nullptr) << report_text(r);
    EXPECT_EQ(x->rule, "attribute");
    EXPECT_NE(x->detail.find("begin_norm_axis"), std::string::npos) << x->detail;
}

TEST(FusionReport, PriorityLostToAnEarlierMatch) {
    // Both MatMuls would take the Add; the first in dependency order does.
    builder_t b;
    b.add(dnnl_graph_op_matmul, {1, 2}, 3);
    b.add(dnnl_graph_op_matmul, {4, 5}, 6);
    b.add(dnnl_graph_op_add, {3, 6}, 7);
    ASSERT_EQ(b.partition(), (groups_t {{2}, {1, 3}}));
    const fusion_report_t r = explain(b);
    const rejection_t *x = rejection(r, 2, "fp_matmul_post_ops");
    ASSERT_NE(x, nullptr) << report_text(r);
    EXPECT_EQ(x->rule, "priority");
    EXPECT_NE(x->detail.find("op 3 (Add)"), std::string::npos) << x->detail;
}

TEST(FusionReport, Wildcard) {
    builder_t b;
    b.add(dnnl_graph_op_matmul, {1, 2}, 3);
    b.add(dnnl_graph_op_wildcard, {3}, 4);
    b.partition();
    const fusion_report_t r = explain(b);
    ASSERT_FALSE(op_of(r, 2).rejections.empty());
    EXPECT_EQ(op_of(r, 2).rejections[0].rule, "wildcard");
    EXPECT_FALSE(op_of(r, 2).supported);
}

TEST(FusionReport, NoCandidate) {
    builder_t b;
    b.add(dnnl_graph_op_abs, {1}, 2);
    b.partition();
    const fusion_report_t r = explain(b);
    EXPECT_TRUE(op_of(r, 1).rejections.empty());
    EXPECT_NE(op_of(r, 1).alone_reason.find("no fusion pattern"),
            std::string::npos);
}

// Patterns made for the rules the shipped table does not apply.
// Abs -> Add(abs, other) when both Add inputs have the same shape.
bool match_same_shape_add(const match_ctx_t &ctx, size_t anchor, match_t &m) {
    const ir::op_t &a = ctx.op(anchor);
    if (a.kind != dnnl_graph_op_abs) return false;
    const long c = ctx.sole_consumer(a.outputs[0].id);
    if (c < 0 || ctx.op(c).kind != dnnl_graph_op_add) return false;
    const ir::op_t &add = ctx.op(c);
    if (ir::dims_of(add.inputs[0]) != ir::dims_of(add.inputs[1])) return false;
    m.ops = {anchor, static_cast<size_t>(c)};
    return true;
}
// Abs and the op reading both Abs's output and something after it: the
// block  Abs -> Tanh -> Add(abs, tanh)  without the Tanh.
bool match_skip_middle(const match_ctx_t &ctx, size_t anchor, match_t &m) {
    const ir::op_t &a = ctx.op(anchor);
    if (a.kind != dnnl_graph_op_abs) return false;
    for (size_t c : ctx.consumer_ops(a.outputs[0].id))
        if (ctx.op(c).kind == dnnl_graph_op_add) {
            m.ops = {anchor, c};
            return true;
        }
    return false;
}

const std::vector<pattern_t> &test_table() {
    static const std::vector<pattern_t> t = {
            {"same_shape_add", 1.f, "binary_post_ops", match_same_shape_add},
            {"skip_middle", 1.f, "misc_post_ops", match_skip_middle}};
    return t;
}

TEST(FusionReport, BroadcastAndRank) {
    for (const bool rank : {false, true}) {
        builder_t b;
        b.add(dnnl_graph_op_abs, {1}, 2);
        ir::op_t &add = b.add(dnnl_graph_op_add, {2, 3}, 4);
        add.inputs[1] = rank ? ir::make_lt(3, dnnl_f32, {4})
                             : ir::make_lt(3, dnnl_f32, {1, 4});
        b.partition(dnnl_graph_partition_policy_debug);
        fusion_report_t r;
        ASSERT_EQ(explain_partitions(b.g, b.parts, test_table(), r), dnnl_success);
        const rejection_t *x = rejection(r, 2, "same_shape_add");
        ASSERT_NE(x, nullptr) << report_text(r);
        EXPECT_EQ(x->rule, rank ? "rank" : "broadcast");
        EXPECT_NE(x->detail.find("tensor 3"), std::string::npos) << x->detail;
    }
}

TEST(FusionReport, Cycle) {
    builder_t b;
    b.add(dnnl_graph_op_abs, {1}, 2);
    b.add(dnnl_graph_op_tanh, {2}, 3);
    b.add(dnnl_graph_op_add, {2, 3}, 4);
    b.partition(dnnl_graph_partition_policy_debug);
    fusion_report_t r;
    ASSERT_EQ(explain_partitions(b.g, b.parts, test_table(), r), dnnl_success);
    const rejection_t *x = rejection(r, 3, "skip_middle");
    ASSERT_NE(x, nullptr) << report_text(r);
    EXPECT_EQ(x->rule, "cycle");
}

TEST(FusionReport, FormatsCarryTheReasons) {
    builder_t b;
    b.add(dnnl_graph_op_matmul, {1, 2}, 3);
    b.add(dnnl_graph_op_relu, {3}, 4);
    b.add(dnnl_graph_op_abs, {3}, 5);
    b.partition();
    const fusion_report_t r = explain(b);
    const std::string text = report_text(r), json = report_json(r),
                      dot = report_dot(b.g, r);
    EXPECT_NE(text.find("second_consumer"), std::string::npos) << text;
    EXPECT_NE(json.find("\"rule\": \"second_consumer\""), std::string::npos)
            << json;
    EXPECT_NE(dot.find("digraph"), std::string::npos);
    EXPECT_NE(dot.find("op2 [label=\"ReLU #2"), std::string::npos) << dot;
    EXPECT_NE(dot.find("op1 -> op2"), std::string::npos) << dot;
}

} // namespace
} // namespace test
} // namespace fusion
} // namespace llga
