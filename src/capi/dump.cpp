// SPDX-License-Identifier: Apache-2.0
// capi/dump.cpp — graph and partition dumps (see dump.hpp). The environment is
// read once; files go to ONEDNN_GRAPH_DUMP_DIR (default: the current
// directory). A dump that cannot be written is reported on stderr and never
// fails the API call that triggered it.
#include "capi/dump.hpp"

#include <atomic>
#include <map>
#include <cstdio>
#include <mutex>
#include <set>
#include <string>

#include "base/env.hpp"
#include "base/status.hpp"
#include "base/verbose.hpp"
#include "fusion/patterns.hpp"
#include "ir/json_graph.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace capi {

namespace {

struct dump_config_t {
    bool graph = false, subgraph = false, pattern = false;
    std::string dir;
};

const dump_config_t &config() {
    static const dump_config_t cfg = [] {
        dump_config_t c;
        std::string v = getenv_string("ONEDNN_GRAPH_DUMP");
        size_t start = 0;
        while (start <= v.size()) {
            size_t comma = v.find(',', start);
            std::string item = v.substr(start, comma - start);
            if (item == "graph") c.graph = true;
            if (item == "subgraph") c.subgraph = true;
            if (item == "pattern") c.pattern = true;
            if (comma == std::string::npos) break;
            start = comma + 1;
        }
        c.dir = getenv_string("ONEDNN_GRAPH_DUMP_DIR");
        if (c.dir.empty()) c.dir = ".";
        return c;
    }();
    return cfg;
}

ir::json_op_t to_json_op(const ir::op_t &op) {
    ir::json_op_t j;
    j.id = op.id;
    j.name = op.name;
    const char *kind = ops::op_kind_name(op.kind);
    j.kind = kind ? kind : "Wildcard";
    for (const auto &a : op.attrs) {
        const char *name = ir::attr_name(a.first);
        if (!name) continue;
        j.attrs.push_back({name, a.first, a.second});
    }
    j.inputs = op.inputs;
    j.outputs = op.outputs;
    return j;
}

// Graph inputs are consumed and never produced; outputs produced and never
// consumed; both in first-seen order.
void ports_of(const std::vector<ir::op_t> &ops, std::vector<size_t> &ins,
        std::vector<size_t> &outs) {
    std::set<size_t> produced, consumed, seen_in, seen_out;
    for (const auto &op : ops) {
        for (const auto &lt : op.inputs) consumed.insert(lt.id);
        for (const auto &lt : op.outputs) produced.insert(lt.id);
    }
    for (const auto &op : ops) {
        for (const auto &lt : op.inputs)
            if (!produced.count(lt.id) && seen_in.insert(lt.id).second)
                ins.push_back(lt.id);
        for (const auto &lt : op.outputs)
            if (!consumed.count(lt.id) && seen_out.insert(lt.id).second)
                outs.push_back(lt.id);
    }
}

void write_file(const std::string &name, const ir::graph_desc_t &d) {
    const std::string path = config().dir + "/" + name;
    const std::string text = ir::write_graph_json(d);
    std::FILE *f = std::fopen(path.c_str(), "w");
    if (!f || std::fwrite(text.data(), 1, text.size(), f) != text.size()) {
        std::fprintf(stderr, "onednn_verbose,graph,dump,error,cannot write %s\n",
                path.c_str());
    }
    if (f) std::fclose(f);
}

ir::graph_desc_t make_desc(engine_kind_t ek, fpmath_mode_t mode, bool to_int) {
    ir::graph_desc_t d;
    d.version = "3.9.0";
    d.engine_kind = ek;
    d.fpmath = mode;
    d.apply_to_int = to_int;
    d.has_apply_to_int = d.has_input_ports = d.has_output_ports = true;
    return d;
}

} // namespace

void dump_graph(const ir::graph_t &g) {
    if (!config().graph) return;
    static std::atomic<size_t> counter {0};
    ir::graph_desc_t d = make_desc(g.engine_kind(), g.fpmath_mode(),
            g.fpmath_apply_to_int());
    std::vector<ir::op_t> ops;
    for (size_t index : g.topo_order()) ops.push_back(g.ops()[index]);
    ports_of(ops, d.input_ports, d.output_ports);
    for (const auto &op : ops) d.ops.push_back(to_json_op(op));
    write_file("graph_" + std::to_string(counter++) + ".json", d);
}

// ONEDNN_GRAPH_DUMP=pattern: the pattern table as oneDNN's pass list file
// (dnnl_graph_passes.json: name, type, backend, priority, enable; llga adds
// the partition kind), once per process, announced by an info line.
void dump_patterns() {
    static std::once_flag once;
    std::call_once(once, [] {
        const std::string path = config().dir + "/dnnl_graph_passes.json";
        std::string text = "{\n  \"version\": \"3.9\",\n  \"hash\": \"llga\",\n"
                           "  \"passes\": [\n";
        const auto &table = fusion::pattern_table();
        for (size_t i = 0; i < table.size(); ++i) {
            char line[512];
            std::snprintf(line, sizeof(line),
                    "    {\"pass_name\": \"%s\", \"pass_type\": "
                    "\"Transformation\", \"pass_backend\": \"llga\", "
                    "\"priority\": %g, \"enable\": true, \"kind\": \"%s\"}%s\n",
                    table[i].name, table[i].priority, table[i].kind,
                    i + 1 < table.size() ? "," : "");
            text += line;
        }
        text += "  ]\n}\n";
        std::FILE *f = std::fopen(path.c_str(), "w");
        const bool ok = f && std::fwrite(text.data(), 1, text.size(), f) == text.size();
        if (f) std::fclose(f);
        if (!ok)
            std::fprintf(stderr,
                    "onednn_verbose,graph,dump,error,cannot write %s\n",
                    path.c_str());
        else
            verbose_printf(~0u, wall_ms(), "graph,info,pattern,dump,%s",
                    path.c_str());
    });
}

void dump_partitions(const fusion::partition_list_t &parts) {
    if (config().pattern) dump_patterns();
    if (!config().subgraph) return;
    // A partition's inputs are often intermediates the user left without a
    // shape; a subgraph file is only replayable with input shapes, so shapes
    // are propagated through the partitions (in order) with the ops' own
    // inference, on copies. Tensors whose shape cannot be inferred keep the
    // user's metadata.
    std::map<size_t, logical_tensor_t> known;
    auto refresh = [&known](logical_tensor_t &lt) {
        auto it = known.find(lt.id);
        if (it != known.end() && ir::shape_known(it->second)) lt = it->second;
    };
    for (const auto &p : parts)
        for (const auto &op : p->ops) {
            ir::op_t copy = op;
            for (auto &lt : copy.inputs) refresh(lt);
            for (auto &lt : copy.outputs) {
                refresh(lt);
                if (!ir::shape_known(lt)) lt = ir::make_lt_unknown(lt.id, lt.data_type);
            }
            const ops::op_def_t *def = ops::find_op_def(copy.kind);
            if (def && def->infer && ops::infer_shapes(copy) == dnnl_success)
                for (const auto &lt : copy.outputs) known[lt.id] = lt;
            clear_last_error(); // a failed inference is not the caller's error
        }
    for (const auto &p : parts) {
        ir::graph_desc_t d = make_desc(p->engine_kind, p->fpmath_mode,
                p->fpmath_apply_to_int);
        for (const auto &lt : p->inputs) d.input_ports.push_back(lt.id);
        for (const auto &lt : p->outputs) d.output_ports.push_back(lt.id);
        for (const auto &op : p->ops) {
            ir::json_op_t j = to_json_op(op);
            for (auto &lt : j.inputs) refresh(lt);
            for (auto &lt : j.outputs) refresh(lt);
            d.ops.push_back(std::move(j));
        }
        write_file("subgraph_" + std::to_string(p->id) + ".json", d);
    }
}

} // namespace capi
} // namespace llga
