// SPDX-License-Identifier: Apache-2.0
// ir/json_graph.hpp — reads and writes oneDNN's graph-dump JSON (the format of
// benchdnn --graph case files, see docs/json-format.md) as a plain description
// of the file. ir knows no op kinds, so an op's kind stays the string of the
// file; ops/ (or the runner) resolves it and builds ir::op_t / ir::graph_t.
// Reading then writing reproduces every field the format defines.
#pragma once

#include <string>
#include <vector>

#include "base/c_types.hpp"
#include "ir/attr.hpp"
#include "ir/json_value.hpp"

namespace llga {
namespace ir {

struct json_attr_t {
    std::string name; // as written in the file
    // dnnl_graph_op_attr_undef for a name outside attrs.def (such as the
    // partition_id/backend strings of partitioning dumps): kept, typed by the
    // file's "type", and written back unchanged.
    attr_id_t id = dnnl_graph_op_attr_undef;
    attr_value_t value;
};

struct json_op_t {
    size_t id = 0;
    std::string name;
    std::string kind; // e.g. "MatMul"; not checked against the opset here
    bool has_attrs = true; // false if the file had no "attrs" key at all
    std::vector<json_attr_t> attrs; // in file order
    std::vector<logical_tensor_t> inputs, outputs;
};

struct graph_desc_t {
    std::string version;
    engine_kind_t engine_kind = dnnl_cpu;
    fpmath_mode_t fpmath = dnnl_fpmath_mode_strict;
    bool apply_to_int = false;
    bool has_apply_to_int = false; // older dumps omit the key
    // Older dumps also omit the port lists; absent stays absent on writing.
    bool has_input_ports = false, has_output_ports = false;
    std::vector<size_t> input_ports, output_ports;
    std::vector<json_op_t> ops;
};

// Parses a graph file. `source_name` (usually the file name) prefixes every
// error: "conv_2d.json:12:9: op 3: attribute 'strides': expected s64[], got
// string". Returns dnnl_invalid_arguments on any malformed input; `out` is
// left empty then.
status_t parse_graph_json(const std::string &text,
        const std::string &source_name, graph_desc_t &out,
        const json::limits_t &limits = json::limits_t());
// The same from an already parsed document.
status_t graph_from_json(const json::value_t &doc,
        const std::string &source_name, graph_desc_t &out);

// The document in oneDNN's key order (version, engine_kind, fpmath_mode,
// fpmath_mode_apply_to_int, input_ports, output_ports, graph; op: id, name,
// kind, attrs, inputs, outputs; tensor: id, dtype, shape, stride,
// layout_type, property_type; attribute: type, value), bools as 0/1.
json::value_t graph_to_json(const graph_desc_t &g);
// graph_to_json serialized with the dump's 2-space layout and a final newline.
std::string write_graph_json(const graph_desc_t &g);

// Spellings of the graph-level enums in the format ("cpu", "strict", ...);
// nullptr / false for values outside the format.
const char *engine_kind_json_name(engine_kind_t k);
bool engine_kind_from_json_name(const std::string &s, engine_kind_t *k);
const char *fpmath_mode_json_name(fpmath_mode_t m);
bool fpmath_mode_from_json_name(const std::string &s, fpmath_mode_t *m);
const char *layout_type_json_name(layout_type_t l);
const char *property_json_name(property_t p);

} // namespace ir
} // namespace llga
