// SPDX-License-Identifier: Apache-2.0
// ops/op_def.hpp — everything the library knows about one op kind: its schema,
// shape inference, traits and reference semantics. Each family file fills the
// op_defs of its kinds in define_<family>(); registry.cpp expands ops.def.
#pragma once

#include <vector>

#include "ir/op.hpp"
#include "ops/schema.hpp"

namespace llga {
namespace ops {

// Shape inference. On entry op.inputs have known shapes; op.outputs carry what
// the user declared (possibly unknown rank/dims, layout any). The function
// writes output shapes with set_output() (ops/infer_util.hpp), which checks
// them against what was declared. It may rewrite attributes (auto_pad pads).
using infer_fn_t = status_t (*)(ir::op_t &op);

// Reference semantics: plain, obviously-correct code that is the test oracle
// for every optimised kernel. op.inputs/op.outputs have known shapes and
// strides (strided layout); in[k]/out[k] point at their data. Kernels must be
// correct for any strides, and for in-place execution when the op declares
// an in-place input (traits.inplace_input).
using ref_fn_t = status_t (*)(const ir::op_t &op,
        const std::vector<const void *> &in, const std::vector<void *> &out);

struct op_traits_t {
    // Input whose buffer output 0 may share (same shape, dtype, layout), or -1.
    int inplace_input = -1;
    bool is_backward = false;
    // Computes nothing (End) or stands for an unknown framework op (Wildcard).
    bool is_marker = false;
};

struct op_def_t {
    op_schema_t schema;
    infer_fn_t infer = nullptr;
    ref_fn_t ref = nullptr;
    op_traits_t traits;
};

} // namespace ops
} // namespace llga
