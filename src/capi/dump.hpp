// SPDX-License-Identifier: Apache-2.0
// capi/dump.hpp — ONEDNN_GRAPH_DUMP: writes the JSON (oneDNN graph-dump
// format, ir/json_graph) of every graph a program finalizes ("graph") and of
// every partition it gets ("subgraph"), so users can hand us reproducers that
// llga-run replays. Off by default; when off each hook costs one load of a
// cached flag. See docs/diagnostics.md.
#pragma once

#include "fusion/partitioner.hpp"
#include "ir/graph.hpp"

namespace llga {
namespace capi {

// After a successful finalize: writes graph_<n>.json (n counts dumped graphs
// in this process, from 0) if ONEDNN_GRAPH_DUMP contains "graph".
void dump_graph(const ir::graph_t &g);
// After partitioning: writes subgraph_<partition id>.json per partition if
// ONEDNN_GRAPH_DUMP contains "subgraph", with shapes propagated from the
// graph inputs so that each file replays on its own.
void dump_partitions(const fusion::partition_list_t &parts);

} // namespace capi
} // namespace llga
