// SPDX-License-Identifier: Apache-2.0
// runtime/threading/threading.hpp — the oneTBB thread layer. This folder is
// the only place that includes oneTBB; it plugs the parallel loop into
// base/parallel.hpp so reference and JIT kernels share one thread pool.
#pragma once

namespace llga {
namespace rt {

// Idempotent and thread-safe; called when the first engine is created.
void start_threading();
int max_threads();

} // namespace rt
} // namespace llga
