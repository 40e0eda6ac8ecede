// fusion/partitioner.cpp — single-op partitioning in topological order.
#include "fusion/partitioner.hpp"

#include "base/status.hpp"
#include "base/verbose.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace fusion {

namespace {
bool op_supported(const ir::op_t &op, engine_kind_t kind, std::string &why) {
    const ops::op_def_t *def = ops::find_op_def(op.kind);
    if (kind != dnnl_cpu) {
        why = "no engine of this kind";
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

// Verbose (level 2) line for a new partition, e.g.
// "graph,create:partition,12,cpu,supported,ops:Convolution#0+ReLU#1,in:0 1,
// out:2,single op" — fields are comma-separated as in oneDNN's verbose
// output, lists inside a field use '+' or spaces.
void report(const partition_t &p) {
    if (verbose_level() < 2) return;
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
    verbose_print(2, "graph,create:partition,%zu,%s,%s,ops:%s,in:%s,out:%s,%s",
            p.id, p.engine_kind == dnnl_gpu ? "gpu" : "cpu",
            p.supported ? "supported" : "unsupported", ops_text.c_str(),
            in_text.c_str(), out_text.c_str(), p.reason.c_str());
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
    for (size_t index : g.topo_order()) {
        const ir::op_t &op = g.ops()[index];
        if (op.kind == dnnl_graph_op_end) continue;
        auto p = make_single(op, g.engine_kind(), g.fpmath_mode(),
                g.fpmath_apply_to_int());
        compute_ports(*p, [&](size_t id) { return !g.consumers(id).empty(); });
        report(*p);
        out.push_back(p);
    }
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
