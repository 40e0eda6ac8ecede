// SPDX-License-Identifier: Apache-2.0
// tools/run/prepare_detail.hpp — what the stages of prepare.cpp and the --mb
// rules of prepare_mb.cpp share: the op being rewritten and layout helpers.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "ir/json_graph.hpp"
#include "ir/op.hpp"

namespace llga_run {

// One op of the file while the case options rewrite it.
struct work_op_t {
    const llga::ir::json_op_t *src;
    llga::op_kind_t kind;
    std::map<llga::attr_id_t, llga::ir::attr_value_t> attrs;
};

void set_strided(llga::logical_tensor_t &lt, const llga::dims_t &dims,
        const llga::dims_t &strides);
// Dense strides for `dims` in the memory order of `like` (prepare.cpp).
llga::dims_t strides_in_order_of(
        const llga::logical_tensor_t &like, const llga::dims_t &dims);

// --mb (prepare_mb.cpp): every tensor's shape before the rewrite, and the
// tensors that carry the batch (docs/runner.md, --mb).
std::map<size_t, llga::logical_tensor_t> shapes_before_mb(
        const std::vector<work_op_t> &ops, const std::vector<size_t> &order,
        const std::map<size_t, llga::logical_tensor_t> &tensors);
std::set<size_t> batch_tensors(const std::vector<work_op_t> &ops,
        const std::vector<size_t> &order,
        const std::map<size_t, size_t> &producer,
        const std::map<size_t, std::vector<std::pair<size_t, size_t>>> &uses,
        const std::vector<size_t> &inputs,
        const std::map<size_t, llga::logical_tensor_t> &shape);

} // namespace llga_run
