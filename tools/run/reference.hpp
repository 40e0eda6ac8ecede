// SPDX-License-Identifier: Apache-2.0
// tools/run/reference.hpp — the reference path: the prepared graph executed
// op by op with each op kind's reference semantics (ops::find_op_def()->ref),
// linked from the internal modules, on dense intermediates. It shares no code
// with the compile/execute path of libllga beyond those kernels' definitions
// (see docs/runner.md, "Two execution paths").
#pragma once

#include <string>

#include "fill.hpp"
#include "prepare.hpp"

namespace llga_run {

// `bufs` holds the filled graph inputs; every produced tensor is added.
// Returns false with `error` set if an op fails.
bool run_reference(const prepared_t &g, buffers_t &bufs, std::string &error);

} // namespace llga_run
