// SPDX-License-Identifier: Apache-2.0
// fusion/report.cpp — the fusion report (see report.hpp): which pattern
// claimed each op, and for ops left alone the first rule that stopped each
// candidate pattern, found by re-running the matchers on relaxed copies of
// the graph. Output as text, JSON and Graphviz dot is in report_format.cpp.
#include "fusion/report.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "base/status.hpp"
#include "base/verbose.hpp"
#include "fusion/patterns.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace fusion {

namespace {

using op_list_t = std::vector<ir::op_t>;
using edit_fn_t = std::function<void(op_list_t &)>;

std::string kind_of(const ir::op_t &op) {
    const char *k = ops::op_kind_name(op.kind);
    return k ? k : "Unknown";
}

std::string op_text(const ir::op_t &op) {
    return "op " + std::to_string(op.id) + " (" + kind_of(op) + ")";
}

// A finalized copy of `g` with `edit` applied to its ops; false if the
// edited ops do not form a valid graph.
bool rebuild(const ir::graph_t &g, const edit_fn_t &edit, ir::graph_t &out) {
    op_list_t ops = g.ops();
    edit(ops);
    // An experiment's failure is nobody's error: the thread's last error
    // message stays what it was.
    const std::string saved = last_error();
    out = ir::graph_t(g.engine_kind(), g.fpmath_mode());
    bool ok = true;
    for (const auto &op : ops)
        if (ok && out.add_op(op) != dnnl_success) ok = false;
    ok = ok && out.finalize() == dnnl_success;
    set_last_error(saved);
    return ok;
}

// Every occurrence of tensor `id` in `ops` rewritten by `f`.
void edit_tensor(op_list_t &ops, size_t id,
        const std::function<void(logical_tensor_t &)> &f) {
    for (auto &op : ops) {
        for (auto &lt : op.inputs)
            if (lt.id == id) f(lt);
        for (auto &lt : op.outputs)
            if (lt.id == id) f(lt);
    }
}

size_t max_tensor_id(const ir::graph_t &g) {
    size_t m = 0;
    for (const auto &op : g.ops()) {
        for (const auto &lt : op.inputs) m = std::max(m, lt.id);
        for (const auto &lt : op.outputs) m = std::max(m, lt.id);
    }
    return m;
}

long index_of(const ir::graph_t &g, size_t op_id) {
    for (size_t i = 0; i < g.ops().size(); ++i)
        if (g.ops()[i].id == op_id) return static_cast<long>(i);
    return -1;
}

// Op ids within `radius` steps of op `x` (through tensors, both ways).
std::set<size_t> neighbourhood(const ir::graph_t &g, size_t x, int radius) {
    std::set<size_t> seen {x};
    std::vector<size_t> frontier {x};
    for (int r = 0; r < radius; ++r) {
        std::vector<size_t> next;
        for (size_t i : frontier) {
            const ir::op_t &op = g.ops()[i];
            auto visit = [&](size_t j) {
                if (seen.insert(j).second) next.push_back(j);
            };
            for (const auto &lt : op.inputs)
                if (const ir::tensor_use_t *p = g.producer(lt.id)) visit(p->op_index);
            for (const auto &lt : op.outputs)
                for (const auto &u : g.consumers(lt.id)) visit(u.op_index);
        }
        frontier = next;
    }
    std::set<size_t> ids;
    for (size_t i : seen) ids.insert(g.ops()[i].id);
    return ids;
}

// The first match of `pat` (anchored at an op of `anchors`) that takes op
// `x_id`, with only End ops and the ops of `claimed_ids` claimed.
bool match_taking(const ir::graph_t &g, const pattern_t &pat, size_t x_id,
        const std::set<size_t> &anchors, const std::set<size_t> &claimed_ids,
        match_t &out) {
    std::vector<bool> claimed(g.ops().size(), false);
    for (size_t i = 0; i < g.ops().size(); ++i)
        claimed[i] = g.ops()[i].kind == dnnl_graph_op_end
                || claimed_ids.count(g.ops()[i].id);
    const match_ctx_t ctx(g, claimed);
    const long x = index_of(g, x_id);
    if (x < 0 || claimed[x]) return false;
    for (size_t index : g.topo_order()) {
        if (claimed[index] || !anchors.count(g.ops()[index].id)) continue;
        match_t m;
        if (pat.match(ctx, index, m) && m.ops.size() >= 2
                && m.has(static_cast<size_t>(x))) {
            out = m;
            return true;
        }
    }
    return false;
}

struct explainer_t {
    const ir::graph_t &g;
    const std::vector<pattern_t> &table;
    bool fusion_on;
    std::set<size_t> in_groups;               // op ids in multi-op partitions
    std::map<size_t, std::string> pattern_of; // op id -> claiming pattern

    // Does `pat` take op `x_id` in the graph edited by `edit`?
    bool takes(const pattern_t &pat, size_t x_id, const std::set<size_t> &near,
            const edit_fn_t &edit) const {
        ir::graph_t h;
        if (!rebuild(g, edit, h)) return false;
        match_t m;
        return match_taking(h, pat, x_id, near, {}, m);
    }

    // Relaxations, in the order their rules are reported.
    bool second_consumer(const pattern_t &pat, const ir::op_t &x,
            const std::set<size_t> &near, rejection_t &r) const {
        size_t fresh = max_tensor_id(g);
        for (size_t i : g.topo_order()) {
            const ir::op_t &op = g.ops()[i];
            if (!near.count(op.id)) continue;
            for (const auto &t : op.outputs) {
                std::vector<size_t> users;
                for (const auto &u : g.consumers(t.id))
                    if (std::find(users.begin(), users.end(), u.op_index)
                            == users.end())
                        users.push_back(u.op_index);
                if (users.size() < 2) continue;
                // Keep one reader at a time; the others read a copy.
                for (size_t keep : users) {
                    const size_t copy = ++fresh;
                    auto edit = [&](op_list_t &ops) {
                        for (size_t u : users)
                            if (u != keep)
                                for (auto &lt : ops[u].inputs)
                                    if (lt.id == t.id) lt.id = copy;
                    };
                    if (!takes(pat, x.id, near, edit)) continue;
                    const size_t other = users[users[0] == keep ? 1 : 0];
                    const ir::op_t &o = g.ops()[other];
                    r.rule = "second_consumer";
                    r.detail = "tensor " + std::to_string(t.id) + " (output of "
                            + op_text(op) + ") is also "
                            + (o.kind == dnnl_graph_op_end
                                            ? std::string("a graph output")
                                            : "read by " + op_text(o));
                    return true;
                }
            }
        }
        return false;
    }

    bool dtype(const pattern_t &pat, const ir::op_t &x,
            const std::set<size_t> &near, rejection_t &r) const {
        std::set<size_t> tried;
        for (const auto &op : g.ops()) {
            if (!near.count(op.id)) continue;
            std::vector<logical_tensor_t> lts = op.inputs;
            lts.insert(lts.end(), op.outputs.begin(), op.outputs.end());
            for (const auto &lt : lts) {
                if (lt.data_type == dnnl_f32 || !tried.insert(lt.id).second)
                    continue;
                const data_type_t want = ir::dtype_storage_bytes(lt.data_type, 1) == 2
                        ? dnnl_f32
                        : lt.data_type == dnnl_s8 ? dnnl_u8
                        : lt.data_type == dnnl_u8 ? dnnl_s8 : dnnl_f32;
                auto edit = [&](op_list_t &ops) {
                    edit_tensor(ops, lt.id,
                            [&](logical_tensor_t &t) { t.data_type = want; });
                };
                if (!takes(pat, x.id, near, edit)) continue;
                r.rule = "dtype";
                r.detail = "tensor " + std::to_string(lt.id) + " of "
                        + op_text(op) + " is "
                        + ir::dtype_name(lt.data_type) + " (taken as "
                        + ir::dtype_name(want) + ")";
                return true;
            }
        }
        return false;
    }

    bool attribute(const pattern_t &pat, const ir::op_t &x,
            const std::set<size_t> &near, rejection_t &r) const {
        for (size_t i = 0; i < g.ops().size(); ++i) {
            const ir::op_t &op = g.ops()[i];
            if (!near.count(op.id)) continue;
            for (const auto &a : op.attrs) {
                auto edit = [&](op_list_t &ops) { ops[i].attrs.erase(a.first); };
                if (!takes(pat, x.id, near, edit)) continue;
                const char *name = ir::attr_name(a.first);
                r.rule = "attribute";
                r.detail = std::string("attribute ") + (name ? name : "?") + "="
                        + a.second.to_string() + " of " + op_text(op);
                return true;
            }
        }
        return false;
    }

    bool shape(const pattern_t &pat, const ir::op_t &x,
            const std::set<size_t> &near, rejection_t &r) const {
        for (const auto &op : g.ops()) {
            if (!near.count(op.id) || op.outputs.empty() || op.inputs.size() < 2)
                continue;
            const logical_tensor_t &out = op.outputs[0];
            if (!ir::shape_known(out)) continue;
            for (const auto &in : op.inputs) {
                if (!ir::shape_known(in)
                        || ir::dims_of(in) == ir::dims_of(out))
                    continue;
                if (in.data_type != out.data_type) continue; // not an operand
                auto edit = [&](op_list_t &ops) {
                    edit_tensor(ops, in.id, [&](logical_tensor_t &t) {
                        const auto d = ir::dims_of(out);
                        t = ir::make_lt(t.id, t.data_type, d,
                                dnnl_graph_layout_type_strided, t.property);
                    });
                };
                if (!takes(pat, x.id, near, edit)) continue;
                const bool rank = in.ndims != out.ndims;
                r.rule = rank ? "rank" : "broadcast";
                r.detail = "input tensor " + std::to_string(in.id) + " of "
                        + op_text(op) + " has shape "
                        + ir::dims_to_string(ir::dims_of(in)) + ", output "
                        + ir::dims_to_string(ir::dims_of(out))
                        + (rank ? " (different rank)" : " (broadcast)");
                return true;
            }
        }
        return false;
    }

    // The pattern matches without `x` at some anchor, and takes `x` once one
    // op of that match is bypassed: the chain was already at its length.
    bool chain_length(const pattern_t &pat, const ir::op_t &x,
            const std::set<size_t> &near, rejection_t &r) const {
        std::vector<bool> none(g.ops().size(), false);
        for (size_t i = 0; i < g.ops().size(); ++i)
            none[i] = g.ops()[i].kind == dnnl_graph_op_end;
        const match_ctx_t ctx(g, none);
        for (size_t a : g.topo_order()) {
            if (!near.count(g.ops()[a].id) || none[a]) continue;
            match_t m;
            if (!pat.match(ctx, a, m) || m.ops.size() < 2) continue;
            for (size_t b : m.ops) {
                const ir::op_t &bo = g.ops()[b];
                if (b == a || bo.inputs.empty() || bo.outputs.size() != 1)
                    continue;
                const size_t from = bo.outputs[0].id, to = bo.inputs[0].id;
                auto edit = [&](op_list_t &ops) {
                    for (auto &op : ops)
                        for (auto &lt : op.inputs)
                            if (lt.id == from) lt = bo.inputs[0];
                    ops.erase(ops.begin() + static_cast<long>(b));
                };
                (void)to;
                if (!takes(pat, x.id, near, edit)) continue;
                r.rule = "chain_length";
                r.detail = "the match from " + op_text(g.ops()[a]) + " already has "
                        + std::to_string(m.ops.size())
                        + " ops; the pattern takes no more";
                return true;
            }
        }
        return false;
    }

    // The pattern takes `x` in the graph as it is once nothing is claimed:
    // earlier patterns took a neighbour, or fusing would make a cycle.
    bool priority_or_cycle(const pattern_t &pat, const ir::op_t &x,
            const std::set<size_t> &near, rejection_t &r) const {
        match_t m;
        if (!match_taking(g, pat, x.id, near, {}, m)) return false;
        if (leaves_and_reenters(g, m)) {
            r.rule = "cycle";
            r.detail = "an op outside the match reads one of its results and "
                       "feeds another of its ops";
            return true;
        }
        for (size_t i : m.ops) {
            auto it = pattern_of.find(g.ops()[i].id);
            if (it == pattern_of.end()) continue;
            r.rule = "priority";
            r.detail = it->second == pat.name
                    ? "another match of this pattern claimed "
                            + op_text(g.ops()[i]) + " first"
                    : "lost to pattern " + it->second + ", which claimed "
                            + op_text(g.ops()[i]);
            return true;
        }
        r.rule = "policy";
        r.detail = fusion_on ? "the pattern matches here, but an earlier "
                               "match took part of its chain"
                             : "fusion is off (debug partition policy or a "
                               "non-CPU engine)";
        return true;
    }

    void explain_alone(const ir::op_t &x, size_t x_index, op_report_t &rep) const {
        if (x.kind == dnnl_graph_op_wildcard) {
            rep.rejections.push_back({"", "wildcard",
                    "a Wildcard stands for a framework op; no pattern takes it"});
            return;
        }
        const std::set<size_t> near = neighbourhood(g, x_index, 6);
        for (const pattern_t &pat : table) {
            rejection_t r;
            r.pattern = pat.name;
            const bool found = priority_or_cycle(pat, x, near, r)
                    || second_consumer(pat, x, near, r) || dtype(pat, x, near, r)
                    || attribute(pat, x, near, r) || shape(pat, x, near, r)
                    || chain_length(pat, x, near, r);
            if (found) rep.rejections.push_back(r);
        }
        if (!rep.rejections.empty()) return;
        // A Wildcard next to it blocks every chain through it.
        for (size_t id : neighbourhood(g, x_index, 1)) {
            const long i = index_of(g, id);
            if (i >= 0 && g.ops()[i].kind == dnnl_graph_op_wildcard) {
                rep.rejections.push_back({"", "wildcard",
                        "its neighbour " + op_text(g.ops()[i])
                                + " is a framework op no pattern takes"});
                return;
            }
        }
        rep.alone_reason = "no fusion pattern takes this " + kind_of(x)
                + " (none matches it under any relaxation)";
    }
};

} // namespace

status_t explain_partitions(const ir::graph_t &g, const partition_list_t &parts,
        fusion_report_t &out) {
    return explain_partitions(g, parts, pattern_table(), out);
}

status_t explain_partitions(const ir::graph_t &g, const partition_list_t &parts,
        const std::vector<pattern_t> &table, fusion_report_t &out) {
    out = fusion_report_t();
    out.partitions = parts.size();
    explainer_t ex {g, table, g.engine_kind() == dnnl_cpu, {}, {}};
    std::map<size_t, const partition_t *> part_of;
    bool any_group = false;
    for (const auto &p : parts) {
        for (const auto &op : p->ops) part_of[op.id] = p.get();
        if (p->ops.size() < 2) continue;
        any_group = true;
        const std::string name = p->reason.rfind("pattern ", 0) == 0
                ? p->reason.substr(8)
                : p->kind;
        for (const auto &op : p->ops) {
            ex.in_groups.insert(op.id);
            ex.pattern_of[op.id] = name;
        }
    }
    // A pattern that takes an op in the graph as it stands (nothing claimed,
    // no cycle) would have fused it had the patterns run: without any fused
    // partition that means fusion was off (debug policy, non-CPU engine).
    ex.fusion_on = any_group;
    for (size_t i : g.topo_order()) {
        const ir::op_t &op = g.ops()[i];
        if (op.kind == dnnl_graph_op_end) continue;
        op_report_t rep;
        rep.op_id = op.id;
        rep.kind = kind_of(op);
        rep.name = op.name;
        auto it = part_of.find(op.id);
        if (it != part_of.end()) {
            rep.partition_id = it->second->id;
            rep.supported = it->second->supported;
        }
        auto pit = ex.pattern_of.find(op.id);
        if (pit != ex.pattern_of.end())
            rep.pattern = pit->second;
        else
            ex.explain_alone(op, i, rep);
        out.ops.push_back(std::move(rep));
    }
    return dnnl_success;
}

void verbose_unfused_ops(const ir::graph_t &g, const partition_list_t &parts) {
    fusion_report_t r;
    if (explain_partitions(g, parts, r) != dnnl_success) return;
    for (const auto &op : r.ops) {
        if (!op.pattern.empty()) continue;
        std::string why = op.alone_reason;
        if (!op.rejections.empty()) {
            const rejection_t &x = op.rejections.front();
            why = (x.pattern.empty() ? "" : "pattern " + x.pattern + ": ")
                    + x.rule + ": " + x.detail;
            if (op.rejections.size() > 1)
                why += " (and " + std::to_string(op.rejections.size() - 1)
                        + " more candidate patterns; see the fusion report)";
        }
        LLGA_VDISPATCH("partitioner", "op %zu (%s) not fused: %s", op.op_id,
                op.kind.c_str(), why.c_str());
    }
}

} // namespace fusion
} // namespace llga
