// SPDX-License-Identifier: Apache-2.0
// capi/explain.cpp — llga_graph_explain(): the fusion report of a partitioned
// graph (fusion/report.hpp) for frameworks, as text, JSON or Graphviz dot.
#include <cstring>

#include "capi/barrier.hpp"
#include "capi/handles.hpp"
#include "fusion/report.hpp"
#include "oneapi/dnnl/llga.h"

using namespace llga;

extern "C" {

dnnl_status_t llga_graph_explain(struct dnnl_graph_graph *graph,
        llga_explain_format_t format, char *buffer, size_t size,
        size_t *length) {
    return LLGA_API_BODY("llga_graph_explain", {
        LLGA_CHECK_ARG(graph);
        LLGA_CHECK_ARG(length);
        // The enum's bytes are read first: loading an out-of-range value
        // of the enum type itself is undefined.
        const int fmt = capi::raw_enum(format);
        if (fmt != llga_explain_text && fmt != llga_explain_json
                && fmt != llga_explain_dot)
            return fail(dnnl_invalid_arguments, "unknown explain format %d",
                    fmt);
        if (size > 0 && !buffer)
            return fail(dnnl_invalid_arguments,
                    "buffer is NULL but size is %zu", size);
        if (!graph->graph.finalized() || graph->partitions.empty())
            return fail(dnnl_invalid_arguments,
                    "the graph has not been partitioned yet; call "
                    "dnnl_graph_graph_filter first");
        fusion::fusion_report_t r;
        LLGA_RETURN_IF_ERROR(
                fusion::explain_partitions(graph->graph, graph->partitions, r));
        const std::string text = fmt == llga_explain_text
                ? fusion::report_text(r)
                : fmt == llga_explain_json
                ? fusion::report_json(r)
                : fusion::report_dot(graph->graph, r);
        *length = text.size();
        if (size > 0) {
            const size_t n = std::min(size - 1, text.size());
            std::memcpy(buffer, text.data(), n);
            buffer[n] = '\0';
        }
        return dnnl_success;
    });
}

} // extern "C"
