// SPDX-License-Identifier: Apache-2.0
// tests/api/capi_explain_test.cpp — llga_graph_explain() (llga.h): the fusion
// report through the C API as a framework calls it, its size protocol and
// its errors.
#include <cstring>

#include "capi_test_util.hpp"

using namespace capi_test;

namespace {

dnnl_graph_op_t op_of(size_t id, dnnl_graph_op_kind_t kind,
        std::vector<dnnl_graph_logical_tensor_t> ins,
        std::vector<dnnl_graph_logical_tensor_t> outs) {
    dnnl_graph_op_t op = nullptr;
    EXPECT_EQ(dnnl_graph_op_create(&op, id, kind, "op"), dnnl_success);
    for (auto &t : ins) EXPECT_EQ(dnnl_graph_op_add_input(op, &t), dnnl_success);
    for (auto &t : outs) EXPECT_EQ(dnnl_graph_op_add_output(op, &t), dnnl_success);
    return op;
}

// MatMul whose result is read by a ReLU and an Abs: three partitions, the
// ReLU and the Abs alone because tensor 3 has a second consumer.
struct two_readers_t {
    dnnl_graph_graph_t g = nullptr;
    two_readers_t() {
        EXPECT_EQ(dnnl_graph_graph_create(&g, dnnl_cpu), dnnl_success);
        auto a = lt(1, dnnl_f32, {4, 4}), b = lt(2, dnnl_f32, {4, 4});
        auto c = lt(3, dnnl_f32, {4, 4}), r = lt(4, dnnl_f32, {4, 4}),
             s = lt(5, dnnl_f32, {4, 4});
        for (dnnl_graph_op_t op : {op_of(10, dnnl_graph_op_matmul, {a, b}, {c}),
                     op_of(11, dnnl_graph_op_relu, {c}, {r}),
                     op_of(12, dnnl_graph_op_abs, {c}, {s})}) {
            EXPECT_EQ(dnnl_graph_add_op(g, op), dnnl_success);
            dnnl_graph_op_destroy(op);
        }
    }
    ~two_readers_t() { dnnl_graph_graph_destroy(g); }
};

std::string explain(dnnl_graph_graph_t g, llga_explain_format_t f) {
    size_t n = 0;
    EXPECT_EQ(llga_graph_explain(g, f, nullptr, 0, &n), dnnl_success);
    std::string s(n + 1, '\0');
    size_t n2 = 0;
    EXPECT_EQ(llga_graph_explain(g, f, &s[0], s.size(), &n2), dnnl_success);
    EXPECT_EQ(n, n2);
    EXPECT_EQ(s[n], '\0');
    s.resize(n);
    return s;
}

} // namespace

TEST(CapiExplain, ReportsWhyOpsStayAlone) {
    two_readers_t G;
    EXPECT_EQ(dnnl_graph_graph_finalize(G.g), dnnl_success);
    EXPECT_EQ(dnnl_graph_graph_filter(G.g, dnnl_graph_partition_policy_fusion),
            dnnl_success);
    const std::string text = explain(G.g, llga_explain_text);
    EXPECT_NE(text.find("op 11 ReLU \"op\": partition"), std::string::npos) << text;
    EXPECT_NE(text.find("fp_matmul_post_ops: second_consumer: tensor 3"),
            std::string::npos)
            << text;
    const std::string json = explain(G.g, llga_explain_json);
    EXPECT_NE(json.find("\"partitions\": 3"), std::string::npos) << json;
    EXPECT_NE(json.find("\"rule\": \"second_consumer\""), std::string::npos) << json;
    const std::string dot = explain(G.g, llga_explain_dot);
    EXPECT_EQ(dot.rfind("digraph", 0), 0u) << dot;
    // A short buffer gets a NUL-terminated prefix and the full length.
    char small[8];
    size_t n = 0;
    EXPECT_EQ(llga_graph_explain(G.g, llga_explain_text, small, sizeof(small), &n),
            dnnl_success);
    EXPECT_EQ(n, text.size());
    EXPECT_EQ(std::string(small), text.substr(0, 7));
}

TEST(CapiExplain, Errors) {
    two_readers_t G;
    size_t n = 0;
    // Not partitioned yet.
    EXPECT_EQ(llga_graph_explain(G.g, llga_explain_text, nullptr, 0, &n),
            dnnl_invalid_arguments);
    EXPECT_NE(last_error().find("dnnl_graph_graph_filter"), std::string::npos)
            << last_error();
    EXPECT_EQ(dnnl_graph_graph_finalize(G.g), dnnl_success);
    EXPECT_EQ(dnnl_graph_graph_filter(G.g, dnnl_graph_partition_policy_fusion),
            dnnl_success);
    EXPECT_EQ(llga_graph_explain(nullptr, llga_explain_text, nullptr, 0, &n),
            dnnl_invalid_arguments);
    EXPECT_EQ(llga_graph_explain(G.g, llga_explain_text, nullptr, 0, nullptr),
            dnnl_invalid_arguments);
    EXPECT_EQ(llga_graph_explain(G.g, static_cast<llga_explain_format_t>(7),
                      nullptr, 0, &n),
            dnnl_invalid_arguments);
    EXPECT_EQ(llga_graph_explain(G.g, llga_explain_text, nullptr, 4, &n),
            dnnl_invalid_arguments);
}
