// SPDX-License-Identifier: Apache-2.0
// base/parallel.hpp — the parallel-loop interface used by reference kernels.
// ops/ must not know about threads, yet its reference kernels should use all
// cores. So base/ owns only this interface (with a serial default) and
// runtime/threading installs the oneTBB implementation when the runtime starts.
// That keeps oneTBB inside runtime/threading and the dependency rule intact.
#pragma once

#include <cstdint>
#include <functional>

namespace llga {

// Body receives a half-open range [begin, end) of iteration indices.
using range_body_t = std::function<void(int64_t begin, int64_t end)>;
using parallel_impl_t = void (*)(int64_t n, int64_t grain, const range_body_t &);

// Runs body over [0, n) split into chunks of at least `grain` iterations.
// Exceptions must not escape body (kernels report errors by status).
void parallel_for(int64_t n, int64_t grain, const range_body_t &body);

// Installed by runtime/threading; nullptr restores the serial loop.
void set_parallel_impl(parallel_impl_t impl);
// The one installed (nullptr: serial), so a test can swap in another
// split of the work and put it back.
parallel_impl_t parallel_impl();

} // namespace llga
