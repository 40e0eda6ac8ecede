// SPDX-License-Identifier: Apache-2.0
// fusion/report_format.cpp — the fusion report as text, JSON and Graphviz dot
// (see report.hpp; the formats are described in docs/fusion-report.md).
#include <cstdio>
#include <map>

#include "fusion/report.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace fusion {

namespace {

std::string json_str(const std::string &s) {
    std::string r = "\"";
    for (char c : s) {
        if (c == '"' || c == '\\') {
            r += '\\';
            r += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            char b[8];
            std::snprintf(b, sizeof(b), "\\u%04x", c);
            r += b;
        } else {
            r += c;
        }
    }
    return r + "\"";
}

std::string dot_str(const std::string &s) {
    std::string r;
    for (char c : s) {
        if (c == '"' || c == '\\') r += '\\';
        r += c;
    }
    return r;
}

} // namespace

std::string report_text(const fusion_report_t &r) {
    std::string s = "fusion report: " + std::to_string(r.ops.size()) + " ops, "
            + std::to_string(r.partitions) + " partitions\n";
    for (const auto &op : r.ops) {
        s += "op " + std::to_string(op.op_id) + " " + op.kind;
        if (!op.name.empty()) s += " \"" + op.name + "\"";
        s += ": partition " + std::to_string(op.partition_id);
        if (!op.supported) s += " (unsupported)";
        if (!op.pattern.empty()) {
            s += ", fused by pattern " + op.pattern + "\n";
            continue;
        }
        s += ", alone\n";
        for (const auto &x : op.rejections)
            s += "    " + (x.pattern.empty() ? std::string() : x.pattern + ": ")
                    + x.rule + ": " + x.detail + "\n";
        if (!op.alone_reason.empty()) s += "    " + op.alone_reason + "\n";
    }
    return s;
}

std::string report_json(const fusion_report_t &r) {
    std::string s = "{\n  \"partitions\": " + std::to_string(r.partitions)
            + ",\n  \"ops\": [";
    for (size_t i = 0; i < r.ops.size(); ++i) {
        const op_report_t &op = r.ops[i];
        s += i ? ",\n    {" : "\n    {";
        s += "\"id\": " + std::to_string(op.op_id) + ", \"kind\": "
                + json_str(op.kind) + ", \"name\": " + json_str(op.name)
                + ", \"partition\": " + std::to_string(op.partition_id)
                + ", \"supported\": " + (op.supported ? "true" : "false")
                + ", \"fused\": " + (op.pattern.empty() ? "false" : "true")
                + ", \"pattern\": " + json_str(op.pattern)
                + ", \"rejections\": [";
        for (size_t k = 0; k < op.rejections.size(); ++k) {
            const rejection_t &x = op.rejections[k];
            s += std::string(k ? ", " : "") + "{\"pattern\": "
                    + json_str(x.pattern) + ", \"rule\": " + json_str(x.rule)
                    + ", \"detail\": " + json_str(x.detail) + "}";
        }
        s += "], \"reason\": " + json_str(op.alone_reason) + "}";
    }
    return s + "\n  ]\n}\n";
}

std::string report_dot(const ir::graph_t &g, const fusion_report_t &r) {
    // Fill colours for fused partitions, in turn; ops alone are grey.
    static const char *palette[] = {"#8dd3c7", "#ffffb3", "#bebada",
            "#fb8072", "#80b1d3", "#fdb462", "#b3de69", "#fccde5", "#bc80bd",
            "#ccebc5", "#ffed6f"};
    std::map<size_t, const op_report_t *> by_id;
    for (const auto &op : r.ops) by_id[op.op_id] = &op;
    std::map<size_t, std::string> colour; // partition id -> colour
    size_t next = 0;
    std::string s = "digraph llga {\n  rankdir=TB;\n"
                    "  node [shape=box, style=\"rounded,filled\", "
                    "fontname=\"Helvetica\"];\n";
    for (const auto &op : g.ops()) {
        auto it = by_id.find(op.id);
        if (it == by_id.end()) continue; // End
        const op_report_t &o = *it->second;
        std::string fill = "#dddddd";
        if (!o.pattern.empty()) {
            auto c = colour.find(o.partition_id);
            if (c == colour.end())
                c = colour.emplace(o.partition_id,
                                  palette[next++ % (sizeof(palette)
                                                 / sizeof(palette[0]))])
                            .first;
            fill = c->second;
        }
        std::string label = o.kind + " #" + std::to_string(o.op_id) + "\\npartition "
                + std::to_string(o.partition_id);
        if (!o.pattern.empty()) label += "\\n" + dot_str(o.pattern);
        s += "  op" + std::to_string(op.id) + " [label=\"" + label
                + "\", fillcolor=\"" + fill + "\""
                + (o.supported ? "" : ", color=red, penwidth=2") + "];\n";
    }
    // Edges: producer -> consumer per tensor; graph inputs as small points.
    for (const auto &op : g.ops()) {
        if (!by_id.count(op.id)) continue;
        for (const auto &lt : op.inputs) {
            const ir::tensor_use_t *p = g.producer(lt.id);
            std::string from;
            if (p) {
                from = "op" + std::to_string(g.ops()[p->op_index].id);
            } else {
                from = "t" + std::to_string(lt.id);
                s += "  " + from + " [shape=point, label=\"\"];\n";
            }
            s += "  " + from + " -> op" + std::to_string(op.id) + " [label=\""
                    + std::to_string(lt.id) + "\"];\n";
        }
    }
    return s + "}\n";
}

} // namespace fusion
} // namespace llga
