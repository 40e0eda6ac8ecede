// SPDX-License-Identifier: Apache-2.0
// fusion/report.hpp — the fusion report: for every op of a partitioned graph,
// the partition and pattern that claimed it, or, for an op left alone, each
// pattern that could have taken it and the first rule that stopped it
// (docs/fusion-report.md). The rules are found by experiment, not guessed:
// the report re-runs the pattern matchers on copies of the graph with one
// obstacle removed (another consumer of a tensor, a data type, an
// attribute, a broadcast, a chain op, the claims of earlier patterns), and
// the first relaxation under which the pattern takes the op names the rule.
// So the reasons stay right for whatever patterns.def contains.
#pragma once

#include <string>
#include <vector>

#include "fusion/match.hpp"
#include "fusion/patterns.hpp"
#include "fusion/partitioner.hpp"

namespace llga {
namespace fusion {

// Why a candidate pattern did not take an op.
struct rejection_t {
    std::string pattern; // pattern name (patterns.def)
    // One of: second_consumer, dtype, attribute, rank, broadcast, wildcard,
    // cycle, chain_length, priority.
    std::string rule;
    std::string detail; // e.g. "tensor 5 is also read by op 7 (ReLU)"
};

struct op_report_t {
    size_t op_id = 0;
    std::string kind, name;
    size_t partition_id = 0;
    bool supported = true;
    std::string pattern; // the claiming pattern, "" when alone
    // For an op alone: why (the candidates' first rules); when no pattern
    // could take it under any relaxation, `alone_reason` says so.
    std::vector<rejection_t> rejections;
    std::string alone_reason;
};

struct fusion_report_t {
    std::vector<op_report_t> ops; // in the graph's dependency order
    size_t partitions = 0;
};

// `parts` must be the partitions of `g` (partition_graph's output).
status_t explain_partitions(const ir::graph_t &g, const partition_list_t &parts,
        fusion_report_t &out);
// The same against another pattern table (tests).
status_t explain_partitions(const ir::graph_t &g, const partition_list_t &parts,
        const std::vector<pattern_t> &table, fusion_report_t &out);

std::string report_text(const fusion_report_t &r);
std::string report_json(const fusion_report_t &r);
// Graphviz dot: ops as boxes filled with one colour per partition (grey for
// ops alone), tensors as edges labelled with their ids.
std::string report_dot(const ir::graph_t &g, const fusion_report_t &r);

// ONEDNN_VERBOSE=dispatch: one line per op left alone with its first reason.
void verbose_unfused_ops(const ir::graph_t &g, const partition_list_t &parts);

// From partitioner.cpp: whether a match would have to run both before and
// after an op outside it (fusing it would create a cycle).
bool leaves_and_reenters(const ir::graph_t &g, const match_t &m);

} // namespace fusion
} // namespace llga
