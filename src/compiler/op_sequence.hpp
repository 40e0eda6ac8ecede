// SPDX-License-Identifier: Apache-2.0
// compiler/op_sequence.hpp — the fallback for a multi-op partition that no
// backend's kernel takes whole: the ops (in dependency order) are cut into
// steps, each the longest run from its first op that a specialised kernel
// accepts (e.g. Dequantize, Dequantize, MatMul on the int8 GEMM), else that
// one op on the first backend that runs it (so a Convolution still gets its
// JIT kernel when the op after it has none). The steps run in order with
// the partition's intermediates in per-execution scratch buffers.
#pragma once

#include <memory>

#include "compiler/kernel.hpp"

namespace llga {
namespace compiler {

// Builds the step kernels for `plan` (shapes and layouts already final).
// Returns dnnl_unimplemented, without recording an error, when some op has
// no backend or when every step would go to a catch-all backend (which
// then runs the partition whole instead).
status_t compile_op_sequence(const plan_t &plan, const backend_list_t &backends,
        std::shared_ptr<const kernel_t> &out);

} // namespace compiler
} // namespace llga
