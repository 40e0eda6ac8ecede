// SPDX-License-Identifier: Apache-2.0
// tools/run/explain.cpp — --explain / --draw (see explain.hpp), through the
// public llga_graph_explain() as a framework would call it.
#include "explain.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

#include "oneapi/dnnl/llga.h"

namespace llga_run {

namespace {

bool explain_text(dnnl_graph_graph_t graph, llga_explain_format_t format,
        std::string &out) {
    size_t n = 0;
    if (llga_graph_explain(graph, format, nullptr, 0, &n) != dnnl_success)
        return false;
    std::string buf(n + 1, '\0');
    if (llga_graph_explain(graph, format, &buf[0], buf.size(), &n) != dnnl_success)
        return false;
    buf.resize(n);
    out = buf;
    return true;
}

bool ends_with(const std::string &s, const char *tail) {
    const std::string t = tail;
    return s.size() >= t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0;
}

// FILE.svg -> FILE.dot next to it, then Graphviz's dot renders the SVG.
void draw(dnnl_graph_graph_t graph, const std::string &file, int idx) {
    std::string path = file;
    if (idx > 0) { // one drawing per case: name.svg, name.1.svg, ...
        const size_t dot = path.rfind('.');
        path = dot == std::string::npos
                ? path + "." + std::to_string(idx)
                : path.substr(0, dot) + "." + std::to_string(idx) + path.substr(dot);
    }
    std::string text;
    if (!explain_text(graph, llga_explain_dot, text)) {
        std::printf("llga-run: --draw: %s\n", llga_last_error_message());
        return;
    }
    const bool svg = ends_with(path, ".svg");
    const std::string dot_path = svg ? path.substr(0, path.size() - 4) + ".dot" : path;
    std::FILE *f = std::fopen(dot_path.c_str(), "w");
    if (!f || std::fwrite(text.data(), 1, text.size(), f) != text.size()) {
        if (f) std::fclose(f);
        std::printf("llga-run: --draw: cannot write %s\n", dot_path.c_str());
        return;
    }
    std::fclose(f);
    if (!svg) return;
    const std::string cmd = "dot -Tsvg -o '" + path + "' '" + dot_path + "'";
    if (std::system(cmd.c_str()) != 0)
        std::printf("llga-run: --draw: Graphviz 'dot' failed on %s (is "
                    "graphviz installed?)\n",
                dot_path.c_str());
}

} // namespace

void explain_case(const api_session_t &s, const prepared_t &,
        const global_opts_t &opts, int idx) {
    if (!opts.explain.empty()) {
        std::string text;
        const llga_explain_format_t f = opts.explain == "json"
                ? llga_explain_json
                : llga_explain_text;
        if (explain_text(s.graph(), f, text))
            std::printf("%s", text.c_str());
        else
            std::printf("llga-run: --explain: %s\n", llga_last_error_message());
    }
    if (!opts.draw.empty()) draw(s.graph(), opts.draw, idx);
    std::fflush(stdout);
}

} // namespace llga_run
