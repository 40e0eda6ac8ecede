// SPDX-License-Identifier: Apache-2.0
// backends/ref/ref_backend.hpp — runs any partition op by op through the
// reference semantics of ops/. It is the oracle every optimised backend is
// tested against, and the fallback for partitions nobody else accepts.
// Constant inputs are prepared (copied into dense row-major) once through
// the constant tensor cache when it is enabled, so the cache is exercised by
// every backend including this one.
#pragma once

#include "compiler/kernel.hpp"

namespace llga {
namespace ref {

const compiler::backend_t &ref_backend();

// Layout the ref backend asks for on `any` outputs. plain (default): none,
// outputs are dense row-major. permuted: rank >= 2 outputs get the last two
// dims swapped in memory, an opaque layout — a stress mode that exercises
// opaque layouts end to end (query, chaining into another partition,
// reorder to strided). Initial value from LLGA_REF_ANY_LAYOUT=plain|permuted.
enum class any_layout_mode_t { plain, permuted };
void set_any_layout_mode(any_layout_mode_t mode);
any_layout_mode_t any_layout_mode();

} // namespace ref
} // namespace llga
