// SPDX-License-Identifier: Apache-2.0
// fusion/partitioner.cpp — runs the pattern passes of patterns.def, puts
// every op no pass claimed into a partition of its own, and orders the
// partitions so that each comes after the partitions it reads from.
#include "fusion/partitioner.hpp"

#include <algorithm>
#include <string>

#include "base/status.hpp"
#include "fusion/patterns.hpp"
#include "base/verbose.hpp"
#include "fusion/report.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace fusion {

namespace {
bool op_supported(const ir::op_t &op, engine_kind_t kind, std::string &why) {
    const ops::op_def_t *def = ops::find_op_def(op.kind);
    // GPU graphs partition like CPU graphs; an op the OpenCL engine has no
    // kernel for fails at compile with a message naming it.
    if (kind != dnnl_cpu && kind != dnnl_gpu) {
        why = "no engine of this kind";
        return false;
    }
    if (op.kind == dnnl_graph_op_end) {
        why = "End only marks a graph output; it computes nothing";
        return false;
    }
    if (!def || !def->ref || !def->infer) {
        why = op.kind == dnnl_graph_op_wildcard
                ? "Wildcard stands for a framework op"
                : "no implementation for this op kind yet";
        return false;
    }
    why = "single op";
    return true;
}

std::shared_ptr<partition_t> make_single(const ir::op_t &op,
        engine_kind_t kind, fpmath_mode_t mode, bool apply_to_int) {
    auto p = std::make_shared<partition_t>();
    p->id = next_partition_id();
    p->engine_kind = kind;
    p->fpmath_mode = mode;
    p->fpmath_apply_to_int = apply_to_int;
    p->ops.push_back(op);
    p->supported = op_supported(op, kind, p->reason);
    return p;
}

// llga's info line (profile_create) for a new partition, e.g.
// "graph,info,llga,partition,12,cpu,supported,ops:Convolution#0+ReLU#1,
// in:0 1,out:2,single op" — an info line, which oneDNN-format parsers skip;
// lists inside a field use '+' or spaces.
void report(const partition_t &p) {
    if (!verbose_on(vflag_profile_create)) return;
    std::string ops_text, in_text, out_text;
    for (const auto &op : p.ops) {
        const char *k = ops::op_kind_name(op.kind);
        ops_text += (ops_text.empty() ? "" : "+") + std::string(k ? k : "?")
                + "#" + std::to_string(op.id);
    }
    for (const auto &lt : p.inputs)
        in_text += (in_text.empty() ? "" : " ") + std::to_string(lt.id);
    for (const auto &lt : p.outputs)
        out_text += (out_text.empty() ? "" : " ") + std::to_string(lt.id);
    verbose_printf(vflag_profile_create, wall_ms(),
            "graph,info,llga,partition,%zu,%s,%s,ops:%s,in:%s,out:%s,%s",
            p.id, p.engine_kind == dnnl_gpu ? "gpu" : "cpu",
            p.supported ? "supported" : "unsupported", ops_text.c_str(),
            in_text.c_str(), out_text.c_str(),
            verbose_field(p.reason).c_str());
}
} // namespace

const std::vector<pattern_t> &pattern_table() {
    static const std::vector<pattern_t> table = {
#define LLGA_PATTERN(name, prio, kind, matcher) {#name, prio, #kind, matcher},
#include "fusion/patterns.def"
#undef LLGA_PATTERN
    };
    return table;
}

namespace {

// Ops of one future partition, as indices into graph_t::ops().
struct group_t {
    std::vector<size_t> ops;
    const pattern_t *pattern = nullptr; // nullptr: a single op
};

} // namespace

// Whether a path leaves the match and comes back into it (op A outside
// reads a match output and feeds, maybe through others, a match input):
// the partition would then have to run both before and after A. Chain
// patterns cannot do this (every intermediate stays inside), but blocks
// with several outputs (SoftMax statistics, the three SDPA gradients)
// could, so every match is checked.
bool leaves_and_reenters(const ir::graph_t &g, const match_t &m) {
    std::vector<char> seen(g.ops().size(), 0);
    std::vector<size_t> stack;
    const auto push_consumers = [&](size_t op) {
        for (const auto &lt : g.ops()[op].outputs)
            for (const auto &use : g.consumers(lt.id))
                if (!seen[use.op_index]) {
                    seen[use.op_index] = 1;
                    stack.push_back(use.op_index);
                }
    };
    for (size_t i : m.ops)
        seen[i] = 2; // inside
    for (size_t i : m.ops)
        push_consumers(i);
    while (!stack.empty()) {
        const size_t op = stack.back();
        stack.pop_back();
        for (const auto &lt : g.ops()[op].outputs)
            for (const auto &use : g.consumers(lt.id))
                if (seen[use.op_index] == 2) return true;
        push_consumers(op);
    }
    return false;
}

namespace {

// Runs every pass of patterns.def over the unclaimed ops. A match of one
// op is left to the single-op partitions (it fused nothing).
void run_patterns(const ir::graph_t &g, std::vector<bool> &claimed,
        std::vector<group_t> &groups) {
    const match_ctx_t ctx(g, claimed);
    for (const pattern_t &pat : pattern_table())
        for (size_t index : g.topo_order()) {
            if (claimed[index]) continue;
            match_t m;
            if (!pat.match(ctx, index, m) || m.ops.size() < 2) continue;
            if (leaves_and_reenters(g, m)) continue;
            for (size_t k : m.ops)
                claimed[k] = true;
            groups.push_back({m.ops, &pat});
        }
}

} // namespace

status_t partition_graph(const ir::graph_t &g,
        dnnl_graph_partition_policy_t policy, partition_list_t &out) {
    if (!g.finalized())
        return fail(dnnl_invalid_graph, "the graph must be finalized first");
    if (policy != dnnl_graph_partition_policy_fusion
            && policy != dnnl_graph_partition_policy_debug)
        return fail(dnnl_invalid_arguments, "unknown partition policy %d",
                static_cast<int>(policy));
    out.clear();
    const std::vector<ir::op_t> &all = g.ops();
    std::vector<size_t> position(all.size());
    for (size_t k = 0; k < g.topo_order().size(); ++k)
        position[g.topo_order()[k]] = k;

    // No pattern takes an End: claiming them up front makes every tensor
    // they mark count as used outside any match. Like every op no pattern
    // takes, each End then gets a partition of its own (unsupported, as in
    // oneDNN, whose fake backend takes them one by one).
    std::vector<bool> claimed(all.size(), false);
    for (size_t i = 0; i < all.size(); ++i)
        claimed[i] = all[i].kind == dnnl_graph_op_end;
    std::vector<group_t> groups;
    // Fusion needs a backend that runs multi-op partitions: the CPU
    // backends and the OpenCL partition executor both do.
    if (policy == dnnl_graph_partition_policy_fusion
            && (g.engine_kind() == dnnl_cpu || g.engine_kind() == dnnl_gpu))
        run_patterns(g, claimed, groups);
    for (size_t index : g.topo_order())
        if (!claimed[index] || all[index].kind == dnnl_graph_op_end)
            groups.push_back({{index}, nullptr});

    // Ops in dependency order inside a partition; partitions in the order
    // of their last op (so a partition comes after everything it reads).
    auto by_position = [&](size_t a, size_t b) {
        return position[a] < position[b];
    };
    for (auto &grp : groups)
        std::sort(grp.ops.begin(), grp.ops.end(), by_position);
    std::stable_sort(groups.begin(), groups.end(),
            [&](const group_t &a, const group_t &b) {
                return position[a.ops.back()] < position[b.ops.back()];
            });

    for (const auto &grp : groups) {
        std::shared_ptr<partition_t> p;
        if (!grp.pattern) {
            p = make_single(all[grp.ops[0]], g.engine_kind(), g.fpmath_mode(),
                    g.fpmath_apply_to_int());
        } else {
            p = std::make_shared<partition_t>();
            p->id = next_partition_id();
            p->engine_kind = g.engine_kind();
            p->fpmath_mode = g.fpmath_mode();
            p->fpmath_apply_to_int = g.fpmath_apply_to_int();
            p->supported = true;
            p->kind = grp.pattern->kind;
            p->reason = std::string("pattern ") + grp.pattern->name;
            for (size_t index : grp.ops) {
                p->ops.push_back(all[index]);
                std::string why;
                if (!op_supported(all[index], g.engine_kind(), why)) {
                    p->supported = false;
                    p->reason = why;
                }
            }
        }
        // A tensor leaves the partition when an op outside it (End
        // included) reads it.
        const std::vector<size_t> &members = grp.ops;
        compute_ports(*p, [&](size_t id) {
            for (const auto &use : g.consumers(id))
                if (std::find(members.begin(), members.end(), use.op_index)
                        == members.end())
                    return true;
            return false;
        });
        report(*p);
        out.push_back(p);
    }
    // ONEDNN_VERBOSE=dispatch: why each op left alone was not fused.
    if (verbose_on(vflag_dispatch)) verbose_unfused_ops(g, out);
    return dnnl_success;
}

status_t partition_single_op(const ir::op_t &op, engine_kind_t kind,
        std::shared_ptr<const partition_t> &out) {
    auto p = make_single(op, kind, dnnl_fpmath_mode_strict, false);
    compute_ports(*p, [](size_t) { return false; });
    report(*p);
    out = p;
    return dnnl_success;
}

} // namespace fusion
} // namespace llga
