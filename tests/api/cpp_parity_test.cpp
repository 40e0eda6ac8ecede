// SPDX-License-Identifier: Apache-2.0
// tests/api/cpp_parity_test.cpp — the oneDNN v3.9 C API parity rules
// (docs/compatibility.md) seen through the C++ wrapper: what a C++ program
// built for oneDNN observes for string and scalar attributes, one tensor id
// with two descriptions, compile by id, the constant cache capacity, and
// End's own partition.
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "oneapi/dnnl/dnnl_graph.hpp"

using namespace dnnl::graph;
using dt = logical_tensor::data_type;
using lt_layout = logical_tensor::layout_type;

namespace {

logical_tensor plain(size_t id, logical_tensor::dims d, dt t = dt::f32) {
    return logical_tensor(id, t, d, lt_layout::strided);
}

TEST(CppParity, StringAttributeIsTheWholeString) {
    // set_attr passes the string's size; the raw handle may also be used
    // the way C programs do, with a size of 1.
    op conv(1, op::kind::Convolution, "conv");
    conv.add_inputs({plain(1, {1, 4, 4, 3}), plain(2, {2, 3, 1, 1})});
    conv.add_output(logical_tensor(3, dt::f32, -1, lt_layout::any));
    conv.set_attr<std::vector<int64_t>>(op::attr::strides, {1, 1});
    conv.set_attr<std::vector<int64_t>>(op::attr::dilations, {1, 1});
    conv.set_attr<std::vector<int64_t>>(op::attr::pads_begin, {0, 0});
    conv.set_attr<std::vector<int64_t>>(op::attr::pads_end, {0, 0});
    conv.set_attr<std::string>(op::attr::weights_format, "OIX");
    ASSERT_EQ(dnnl_graph_op_set_attr_str(
                      conv.get(), dnnl_graph_op_attr_data_format, "NXC", 1),
            dnnl_success);
    graph g(dnnl::engine::kind::cpu);
    g.add_op(conv);
    g.finalize();
    auto parts = g.get_partitions();
    ASSERT_EQ(parts.size(), 1u);
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    auto cp = parts[0].compile(parts[0].get_input_ports(),
            parts[0].get_output_ports(), eng);
    auto out = cp.query_logical_tensor(3);
    EXPECT_EQ(out.get_dims(), (logical_tensor::dims {1, 4, 4, 2}));
    // An empty string is a size of 0: refused.
    op bad(2, op::kind::Convolution, "bad");
    EXPECT_THROW(bad.set_attr<std::string>(op::attr::data_format, ""), dnnl::error);
}

TEST(CppParity, ScalarAttributeWithCountZero) {
    op lrelu(1, op::kind::LeakyReLU, "lrelu");
    auto x = plain(1, {3}), y = plain(2, {3});
    lrelu.add_input(x);
    lrelu.add_output(y);
    const float alpha = 0.5f;
    ASSERT_EQ(dnnl_graph_op_set_attr_f32(lrelu.get(), dnnl_graph_op_attr_alpha, &alpha,
                      0),
            dnnl_success);
    graph g(dnnl::engine::kind::cpu);
    g.add_op(lrelu);
    g.finalize();
    auto parts = g.get_partitions();
    ASSERT_EQ(parts.size(), 1u);
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    dnnl::stream strm(eng);
    auto cp = parts[0].compile({x}, {y}, eng);
    std::vector<float> xv {-2.f, 0.f, 3.f}, yv(3, 9.f);
    tensor tx(x, eng, xv.data()), ty(y, eng, yv.data());
    cp.execute(strm, {tx}, {ty});
    EXPECT_EQ(yv, (std::vector<float> {-1.f, 0.f, 3.f}));
}

TEST(CppParity, OneIdTwoDescriptionsThrowsAtFinalize) {
    graph g(dnnl::engine::kind::cpu);
    op r1(1, op::kind::ReLU, "r1"), r2(2, op::kind::ReLU, "r2");
    r1.add_input(plain(1, {2, 3}));
    r1.add_output(plain(2, {2, 3}));
    r2.add_input(logical_tensor(2, dt::f32, {2, 3}, lt_layout::undef));
    r2.add_output(plain(3, {2, 3}));
    g.add_op(r1);
    g.add_op(r2); // accepted here
    try {
        g.finalize();
        FAIL() << "finalize accepted two descriptions of tensor 2";
    } catch (const dnnl::error &e) {
        EXPECT_EQ(e.status, dnnl_invalid_graph);
    }
}

TEST(CppParity, CompileWithExtraLogicalTensors) {
    graph g(dnnl::engine::kind::cpu);
    auto a = plain(1, {3}), b = plain(2, {3}), s = plain(3, {3});
    op add(1, op::kind::Add, "add");
    add.add_inputs({a, b});
    add.add_output(s);
    g.add_op(add);
    g.finalize();
    auto parts = g.get_partitions();
    ASSERT_EQ(parts.size(), 1u);
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    dnnl::stream strm(eng);
    // A framework passing every tensor it knows: the partition takes its own.
    auto cp = parts[0].compile({a, plain(50, {9}), b}, {s, plain(51, {1})}, eng);
    std::vector<float> av {1, 2, 3}, bv {4, 5, 6}, sv(3, 0.f);
    tensor ta(a, eng, av.data()), tb(b, eng, bv.data()), ts(s, eng, sv.data());
    cp.execute(strm, {ta, tb}, {ts});
    EXPECT_EQ(sv, (std::vector<float> {5, 7, 9}));
    EXPECT_THROW(parts[0].compile({a}, {s}, eng), dnnl::error);
}

TEST(CppParity, ConstantCacheCapacityInMegabytes) {
    const size_t saved = get_constant_tensor_cache_capacity(dnnl::engine::kind::cpu);
    set_constant_tensor_cache_capacity(dnnl::engine::kind::cpu, SIZE_MAX);
    EXPECT_EQ(get_constant_tensor_cache_capacity(dnnl::engine::kind::cpu),
            SIZE_MAX / (1024 * 1024));
    set_constant_tensor_cache_capacity(dnnl::engine::kind::cpu, 256);
    EXPECT_EQ(get_constant_tensor_cache_capacity(dnnl::engine::kind::cpu), 256u);
    set_constant_tensor_cache_capacity(dnnl::engine::kind::cpu, saved);
}

TEST(CppParity, WildcardThenEndIsTwoPartitions) {
    graph g(dnnl::engine::kind::cpu);
    op w(1, op::kind::Wildcard, "w"), e(2, op::kind::End, "e");
    w.add_input(plain(1, {2}));
    w.add_output(plain(2, {2}));
    e.add_input(plain(2, {2}));
    g.add_op(w);
    g.add_op(e);
    g.finalize();
    auto parts = g.get_partitions();
    ASSERT_EQ(parts.size(), 2u);
    EXPECT_FALSE(parts[0].is_supported());
    EXPECT_FALSE(parts[1].is_supported());
    EXPECT_EQ(parts[1].get_ops(), (std::vector<size_t> {2}));
    EXPECT_TRUE(parts[1].get_output_ports().empty());
}

} // namespace
