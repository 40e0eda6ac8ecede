// SPDX-License-Identifier: Apache-2.0
// ops/registry.hpp — lookup of op definitions and kind names, and the entry
// points the rest of the library uses: verify an op, infer shapes, describe.
#pragma once

#include <string>
#include <vector>

#include "ops/op_def.hpp"

namespace llga {
namespace ops {

// nullptr for kinds outside [0, last_symbol).
const op_def_t *find_op_def(op_kind_t kind);
const char *op_kind_name(op_kind_t kind); // "Convolution"; nullptr if unknown
// The ops.def family of a kind ("eltwise_unary", "binary", ...); nullptr if
// unknown.
const char *op_family(op_kind_t kind);
bool op_kind_from_name(const std::string &name, op_kind_t *kind);
// Every op kind in ops.def order.
const std::vector<op_kind_t> &all_op_kinds();

// "op 3 (Convolution 'conv0')".
std::string describe(const ir::op_t &op);

// Schema check with default injection (the add_op path).
status_t verify_op(ir::op_t &op);
// Shape inference (compile path); unimplemented if the kind has none.
status_t infer_shapes(ir::op_t &op);
// True if the kind has reference semantics (can run on the CPU engine).
bool has_reference(op_kind_t kind);

} // namespace ops
} // namespace llga
