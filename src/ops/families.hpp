// SPDX-License-Identifier: Apache-2.0
// ops/families.hpp — declarations of every define_<family>() named in ops.def.
// Redeclaring a function once per op line is legal and keeps ops.def the only
// list of families.
#pragma once

#include "ops/op_def.hpp"

namespace llga {
namespace ops {

#define LLGA_OP(sym, name, family) void define_##family(op_kind_t, op_def_t &);
#include "ops/ops.def"
#undef LLGA_OP

} // namespace ops
} // namespace llga
