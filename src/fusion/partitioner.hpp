// SPDX-License-Identifier: Apache-2.0
// fusion/partitioner.hpp — splits a finalized graph into partitions.
// The fusion policy first runs the pattern passes of patterns.def (CPU
// engine only); the debug policy and every op no pass claimed get one op
// per partition. An op is supported when its kind has
// reference semantics for the graph's engine; Wildcard and kinds without an
// implementation become unsupported partitions the framework runs itself.
// No pattern takes an End (it marks its tensor as used outside any match);
// each End gets an unsupported partition of its own, as in oneDNN.
#pragma once

#include <memory>
#include <vector>

#include "fusion/partition.hpp"
#include "ir/graph.hpp"

namespace llga {
namespace fusion {

using partition_list_t = std::vector<std::shared_ptr<const partition_t>>;

status_t partition_graph(const ir::graph_t &g,
        dnnl_graph_partition_policy_t policy, partition_list_t &out);

// Partition holding one op, outside any graph (create_with_op path).
status_t partition_single_op(const ir::op_t &op, engine_kind_t kind,
        std::shared_ptr<const partition_t> &out);

} // namespace fusion
} // namespace llga
