// SPDX-License-Identifier: Apache-2.0
// tools/run/prepare.hpp — turns a graph file plus case options into the
// graph llga-run executes: loads the JSON (ir/json_graph), resolves op kinds,
// applies the case rewrites in benchdnn's order (input shapes, mb, op
// attributes, op kinds, fpmath, data types), rounds quantization scales to
// powers of two, and re-infers every non-input tensor with the library's own
// shape inference (ops::infer_shapes), so intermediate metadata in the file is
// only a hint, as in benchdnn.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "ir/op.hpp"
#include "options.hpp"

namespace llga_run {

struct prepared_t {
    llga::engine_kind_t engine_kind = dnnl_cpu;
    llga::fpmath_mode_t fpmath = dnnl_fpmath_mode_strict;
    bool apply_to_int = false;
    // Every op of the file (End and Wildcard included) in dependency order;
    // attributes completed with defaults; tensors carry final metadata.
    std::vector<llga::ir::op_t> ops;
    std::vector<size_t> inputs;  // graph inputs, in first-use order
    std::vector<size_t> outputs; // graph outputs (produced, not consumed)
    std::map<size_t, llga::logical_tensor_t> tensors; // final metadata by id
    // Ops that have no reference semantics or no shape inference (the graph
    // cannot be checked); empty if all are implemented.
    std::vector<std::string> unimplemented;
    // Things the options asked for that were ignored, as benchdnn ignores
    // them (shown at -v2).
    std::vector<std::string> notes;
    std::string fill; // the case's --fill specs (fill_spec.hpp)
};

enum class prep_status_t {
    ok,
    bad_file,      // unreadable / malformed JSON / unknown op kind
    bad_option,    // a case option does not apply to this graph
    unimplemented, // an op has no shape inference or reference yet
};

// `path` is an existing file. On failure `error` says why.
prep_status_t prepare_case(const std::string &path, const case_opts_t &opts,
        prepared_t &out, std::string &error);

// Every tensor's dims, strides and span pass the library's checked size
// arithmetic, and no graph output has overlapping strides (the library
// refuses those); false with `error` naming the tensor otherwise.
bool check_case_layouts(const prepared_t &p, std::string &error);

// Op kind spelling for reports ("MatMul"), "?" if unknown.
const char *kind_name(llga::op_kind_t k);

} // namespace llga_run
