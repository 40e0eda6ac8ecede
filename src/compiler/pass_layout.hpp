// compiler/pass_layout.hpp — pass 2: choose memory layouts. Tensors the user
// left as `any` (or undef, or strided without strides) become dense row-major
// strided; user-given strides are kept. Every tensor of the plan ends up
// strided with known strides, which is what kernels consume.
#pragma once

#include "compiler/pass_infer_shapes.hpp"

namespace llga {
namespace compiler {

status_t pass_layout(plan_t &plan, lt_map_t &known);

} // namespace compiler
} // namespace llga
