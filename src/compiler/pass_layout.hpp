// SPDX-License-Identifier: Apache-2.0
// compiler/pass_layout.hpp — pass 2: choose memory layouts.
//   * Output ports the user left as `any` (or undef, or strided without
//     strides) get the layout a backend asks for (backend_t::choose_layout)
//     — opaque when it is not row-major — or dense row-major.
//   * Opaque ports (from an earlier partition's query) are looked up in the
//     layout registry; user-given strides are kept.
//   * Intermediates are dense row-major, except that an elementwise op's
//     output takes the layout of a same-shape input that is dense in
//     another order (channel-last chains stay channel-last).
// Port tensors (plan.inputs/outputs) keep what the user sees (opaque ids);
// op tensors (plan.ops) get the equivalent physical strides, which is all
// kernels consume.
#pragma once

#include <functional>
#include <vector>

#include "compiler/pass_infer_shapes.hpp"

namespace llga {
namespace compiler {

// Returns true and the dims order (outermost first) for an `any` output.
using layout_chooser_t
        = std::function<bool(const logical_tensor_t &out, std::vector<int> &order)>;

status_t pass_layout(
        plan_t &plan, lt_map_t &known, const layout_chooser_t &choose = nullptr);

} // namespace compiler
} // namespace llga
