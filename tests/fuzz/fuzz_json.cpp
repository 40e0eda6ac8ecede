// SPDX-License-Identifier: Apache-2.0
// tests/fuzz/fuzz_json.cpp — libFuzzer target for the graph-dump JSON reader:
// any input either loads (and then writes back, re-reads and writes the same
// text, and goes through kind lookup, schema verification, shape inference,
// add_op, finalize and partitioning) or fails with a status and a message.
// Seeds: ../shared/corpus/graphs. Nothing may crash or trip a sanitizer.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "base/status.hpp"
#include "fusion/partitioner.hpp"
#include "ir/graph.hpp"
#include "ir/json_graph.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"

using namespace llga;

namespace {
void build_graph(const ir::graph_desc_t &g) {
    ir::graph_t graph(g.engine_kind, g.fpmath);
    for (const ir::json_op_t &jop : g.ops) {
        ir::op_t op;
        op.id = jop.id;
        op.name = jop.name;
        if (!ops::op_kind_from_name(jop.kind, &op.kind)) continue;
        for (const auto &a : jop.attrs)
            if (a.id != dnnl_graph_op_attr_undef) op.set_attr(a.id, a.value);
        op.inputs = jop.inputs;
        op.outputs = jop.outputs;
        if (ops::verify_op(op) != dnnl_success) continue;
        ir::op_t inferred = op;
        bool shaped = true;
        for (const auto &lt : inferred.inputs)
            shaped = shaped && ir::shape_known(lt);
        if (shaped) (void)ops::infer_shapes(inferred);
        (void)graph.add_op(op);
    }
    if (graph.finalize() != dnnl_success) return;
    fusion::partition_list_t parts;
    (void)fusion::partition_graph(
            graph, dnnl_graph_partition_policy_fusion, parts);
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const std::string text(reinterpret_cast<const char *>(data), size);
    ir::graph_desc_t g;
    if (ir::parse_graph_json(text, "fuzz.json", g) != dnnl_success) {
        if (last_error().empty()) std::abort(); // a failure must say why
        return 0;
    }
    const std::string once = ir::write_graph_json(g);
    ir::graph_desc_t again;
    if (ir::parse_graph_json(once, "again.json", again) != dnnl_success)
        std::abort(); // what the writer writes, the reader reads
    if (ir::write_graph_json(again) != once) std::abort();
    build_graph(g);
    return 0;
}
