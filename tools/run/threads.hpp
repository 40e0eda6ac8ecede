// SPDX-License-Identifier: Apache-2.0
// tools/run/threads.hpp — thread pool for the runner's reference path.
#pragma once

namespace llga_run {
// Idempotent: installs oneTBB as the parallel loop of the runner's copy of
// the op reference kernels.
void start_reference_threads();
} // namespace llga_run
