// SPDX-License-Identifier: Apache-2.0
// capi/graph.cpp — dnnl_graph_graph_* and dnnl_graph_add_op.
#include "capi/barrier.hpp"
#include "capi/dump.hpp"
#include "capi/handles.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"
#include "runtime/layout_registry.hpp"

using namespace llga;

namespace {
// A strided and an opaque description of one tensor id agree when the
// opaque layout, written out as strides, is the strided one.
bool same_physical_layout(const logical_tensor_t &a, const logical_tensor_t &b) {
    logical_tensor_t pa = a, pb = b;
    if (a.layout_type == dnnl_graph_layout_type_opaque
            && rt::layout_registry_t::to_strided(a, pa) != dnnl_success)
        return false;
    if (b.layout_type == dnnl_graph_layout_type_opaque
            && rt::layout_registry_t::to_strided(b, pb) != dnnl_success)
        return false;
    return ir::lt_equal(pa, pb);
}

status_t check_kind(const dnnl_engine_kind_t &k) {
    const int raw = capi::raw_enum(k);
    if (raw != dnnl_cpu && raw != dnnl_gpu)
        return fail(dnnl_invalid_arguments,
                "graph engine kind must be cpu or gpu, got %d", raw);
    return dnnl_success;
}

// Both create entry points; each reports failures under its own name. The
// enums are taken by reference: loading an out-of-range enum value by value
// is undefined, so their bytes are checked first (check_kind,
// LLGA_CHECK_ENUM).
dnnl_status_t create_graph(const char *entry, dnnl_graph_graph_t *graph,
        const dnnl_engine_kind_t &engine_kind, const dnnl_fpmath_mode_t &mode) {
    return LLGA_API_BODY(entry, {
        LLGA_CHECK_ARG(graph);
        *graph = nullptr;
        LLGA_RETURN_IF_ERROR(check_kind(engine_kind));
        LLGA_CHECK_ENUM(mode, dnnl_fpmath_mode_strict, dnnl_fpmath_mode_tf32,
                "fpmath mode");
        ir::graph_t g(engine_kind);
        LLGA_RETURN_IF_ERROR(g.set_fpmath_mode(mode, false));
        *graph = new dnnl_graph_graph(std::move(g));
        return dnnl_success;
    });
}
} // namespace

extern "C" {

dnnl_status_t dnnl_graph_graph_create(
        dnnl_graph_graph_t *graph, dnnl_engine_kind_t engine_kind) {
    const dnnl_fpmath_mode_t strict = dnnl_fpmath_mode_strict;
    return create_graph("dnnl_graph_graph_create", graph, engine_kind, strict);
}

dnnl_status_t dnnl_graph_graph_create_with_fpmath_mode(dnnl_graph_graph_t *graph,
        dnnl_engine_kind_t engine_kind, dnnl_fpmath_mode_t mode) {
    return create_graph("dnnl_graph_graph_create_with_fpmath_mode", graph,
            engine_kind, mode);
}

dnnl_status_t dnnl_graph_graph_destroy(dnnl_graph_graph_t graph) {
    return LLGA_API_BODY("dnnl_graph_graph_destroy", {
        LLGA_CHECK_ARG(graph);
        delete graph;
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_graph_set_fpmath_mode(
        dnnl_graph_graph_t graph, dnnl_fpmath_mode_t mode, int apply_to_int) {
    return LLGA_API_BODY("dnnl_graph_graph_set_fpmath_mode", {
        LLGA_CHECK_ARG(graph);
        LLGA_CHECK_ENUM(mode, dnnl_fpmath_mode_strict, dnnl_fpmath_mode_tf32,
                "fpmath mode");
        return graph->graph.set_fpmath_mode(mode, apply_to_int != 0);
    });
}

dnnl_status_t dnnl_graph_graph_get_fpmath_mode(
        dnnl_graph_graph_t graph, dnnl_fpmath_mode_t *mode, int *apply_to_int) {
    return LLGA_API_BODY("dnnl_graph_graph_get_fpmath_mode", {
        LLGA_CHECK_ARG(graph);
        // Unlike oneDNN 3.9 this also works after finalize: reading the mode
        // never invalidates anything.
        if (mode) *mode = graph->graph.fpmath_mode();
        if (apply_to_int) *apply_to_int = graph->graph.fpmath_apply_to_int();
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_add_op(dnnl_graph_graph_t graph, dnnl_graph_op_t op) {
    return LLGA_API_BODY("dnnl_graph_add_op", {
        LLGA_CHECK_ARG(graph);
        LLGA_CHECK_ARG(op);
        if (graph->graph.finalized())
            return fail(dnnl_invalid_graph,
                    "the graph is finalized; %s cannot be added",
                    ops::describe(*op).c_str());
        ir::op_t copy = *op;
        LLGA_RETURN_IF_ERROR(ops::verify_op(copy));
        return graph->graph.add_op(copy);
    });
}

dnnl_status_t dnnl_graph_graph_finalize(dnnl_graph_graph_t graph) {
    return LLGA_API_BODY("dnnl_graph_graph_finalize", {
        LLGA_CHECK_ARG(graph);
        const bool was_finalized = graph->graph.finalized();
        LLGA_RETURN_IF_ERROR(graph->graph.finalize(same_physical_layout));
        // ONEDNN_GRAPH_DUMP=graph: once per graph, at its first finalize.
        if (!was_finalized) capi::dump_graph(graph->graph);
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_graph_is_finalized(
        dnnl_graph_graph_t graph, uint8_t *finalized) {
    return LLGA_API_BODY("dnnl_graph_graph_is_finalized", {
        LLGA_CHECK_ARG(graph);
        LLGA_CHECK_ARG(finalized);
        *finalized = graph->graph.finalized() ? 1 : 0;
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_graph_filter(
        dnnl_graph_graph_t graph, dnnl_graph_partition_policy_t policy) {
    return LLGA_API_BODY("dnnl_graph_graph_filter", {
        LLGA_CHECK_ARG(graph);
        LLGA_CHECK_ENUM(policy, dnnl_graph_partition_policy_fusion,
                dnnl_graph_partition_policy_debug, "partition policy");
        fusion::partition_list_t parts;
        LLGA_RETURN_IF_ERROR(fusion::partition_graph(graph->graph, policy, parts));
        capi::dump_partitions(parts); // ONEDNN_GRAPH_DUMP=subgraph
        graph->partitions = std::move(parts);
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_graph_get_partition_num(
        const_dnnl_graph_graph_t graph, size_t *num) {
    return LLGA_API_BODY("dnnl_graph_graph_get_partition_num", {
        LLGA_CHECK_ARG(graph);
        LLGA_CHECK_ARG(num);
        *num = graph->partitions.size();
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_graph_get_partitions(
        dnnl_graph_graph_t graph, size_t num, dnnl_graph_partition_t *partitions) {
    return LLGA_API_BODY("dnnl_graph_graph_get_partitions", {
        LLGA_CHECK_ARG(graph);
        if (!partitions || num == 0)
            return fail(dnnl_invalid_graph,
                    "partitions array is null or num is 0");
        if (num != graph->partitions.size())
            return fail(dnnl_invalid_arguments,
                    "asked for %zu partitions, the graph has %zu", num,
                    graph->partitions.size());
        // Reserved first: a failing allocation leaves no handle unowned.
        std::vector<std::unique_ptr<dnnl_graph_partition>> made;
        made.reserve(num);
        for (const auto &p : graph->partitions) {
            made.emplace_back(new dnnl_graph_partition());
            made.back()->p = p;
        }
        for (size_t k = 0; k < num; ++k)
            partitions[k] = made[k].release();
        return dnnl_success;
    });
}

} // extern "C"
