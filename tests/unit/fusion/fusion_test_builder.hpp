// SPDX-License-Identifier: Apache-2.0
// tests/unit/fusion/fusion_test_builder.hpp — a small graph builder for the
// fusion tests: ops on f32 [4, 4] tensors unless told otherwise, and the
// partitions they form as lists of op ids.
#pragma once

#include <gtest/gtest.h>

#include <deque>
#include <utility>
#include <vector>

#include "fusion/partitioner.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace fusion {
namespace test {

using ir::attr_value_t;

// Builds a graph of f32 [4, 4] tensors unless told otherwise.
struct builder_t {
    ir::graph_t g;
    size_t next_op = 1;

    ir::op_t &add(op_kind_t kind, std::vector<size_t> ins, size_t out,
            data_type_t in_dt = dnnl_f32, data_type_t out_dt = dnnl_f32) {
        ops.emplace_back();
        ir::op_t &o = ops.back();
        o.id = next_op++;
        o.kind = kind;
        for (size_t t : ins)
            o.inputs.push_back(ir::make_lt(t, dtype_of(t, in_dt), {4, 4}));
        if (out) {
            o.outputs.push_back(ir::make_lt(out, out_dt, {4, 4}));
            dtypes.push_back({out, out_dt});
        }
        return o;
    }
    // The dtype an earlier op gave tensor t, else `fallback`.
    data_type_t dtype_of(size_t t, data_type_t fallback) const {
        for (const auto &d : dtypes)
            if (d.first == t) return d.second;
        return fallback;
    }
    ir::op_t &quant(op_kind_t kind, size_t in, size_t out, data_type_t in_dt,
            data_type_t out_dt) {
        ir::op_t &o = add(kind, {in}, out, in_dt, out_dt);
        o.set_attr(dnnl_graph_op_attr_scales, attr_value_t::make_f32s({0.5f}));
        o.set_attr(dnnl_graph_op_attr_zps, attr_value_t::make_s64s({0}));
        return o;
    }
    // Partitions (fusion policy unless told) as lists of op ids.
    std::vector<std::vector<size_t>> partition(
            dnnl_graph_partition_policy_t policy
            = dnnl_graph_partition_policy_fusion) {
        for (auto &o : ops) {
            EXPECT_EQ(ops::verify_op(o), dnnl_success) << ops::describe(o);
            EXPECT_EQ(g.add_op(o), dnnl_success);
        }
        EXPECT_EQ(g.finalize(), dnnl_success);
        EXPECT_EQ(partition_graph(g, policy, parts), dnnl_success);
        std::vector<std::vector<size_t>> r;
        for (const auto &p : parts) {
            r.emplace_back();
            for (const auto &o : p->ops)
                r.back().push_back(o.id);
        }
        return r;
    }
    std::deque<ir::op_t> ops; // references from add() stay valid
    std::vector<std::pair<size_t, data_type_t>> dtypes;
    partition_list_t parts;
};

using groups_t = std::vector<std::vector<size_t>>;

} // namespace test
} // namespace fusion
} // namespace llga
