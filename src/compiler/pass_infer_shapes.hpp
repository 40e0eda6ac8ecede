// SPDX-License-Identifier: Apache-2.0
// compiler/pass_infer_shapes.hpp — pass 1: propagate the concrete input
// shapes through the partition's ops in order, merging each output with what
// the user declared for it at compile time.
#pragma once

#include <unordered_map>

#include "compiler/plan.hpp"

namespace llga {
namespace compiler {

using lt_map_t = std::unordered_map<size_t, logical_tensor_t>;

// `known` holds the concrete partition inputs and the user's declared
// outputs (by id); on success every op tensor in plan.ops is concrete in
// shape and `known` holds every tensor of the partition.
status_t pass_infer_shapes(plan_t &plan, lt_map_t &known);

} // namespace compiler
} // namespace llga
