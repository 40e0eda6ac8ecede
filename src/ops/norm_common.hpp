// SPDX-License-Identifier: Apache-2.0
// ops/norm_common.hpp — checks shared by norm.cpp (forward ops) and
// norm_backward.cpp (BatchNormTrainingBackward, LayerNormBackward).
#pragma once

#include "ops/op_def.hpp"

namespace llga {
namespace ops {

// Statistics/affine tensors may be bf16 only when the data tensors are bf16.
// Inspects inputs from `first_stat_input` on and every output but 0.
[[nodiscard]] status_t norm_check_dtypes(const ir::op_t &op, size_t first_stat_input);
// Input k must be the 1-D per-channel vector [c] (invalid_shape otherwise).
[[nodiscard]] status_t norm_require_vec(const ir::op_t &op, size_t k, dim_t c);
// Channel axis of a BN/GN data tensor per data_format (NXC = last).
int norm_channel_axis(const ir::op_t &op, int rank);
// Normalized begin_norm_axis of input 0 (0 if its rank is unknown); `st` is
// the status reported when out of range.
[[nodiscard]] status_t norm_begin_axis(const ir::op_t &op, status_t st, int64_t &a);
// LayerNorm gamma/beta-like input k: shaped like `norm` or flattened 1-D.
[[nodiscard]] status_t norm_check_affine(const ir::op_t &op, size_t k, const dims_t &norm);

void define_norm_backward(op_kind_t kind, op_def_t &def);

} // namespace ops
} // namespace llga
