// backends/ref/ref_backend.hpp — runs any partition op by op through the
// reference semantics of ops/. It is the oracle every optimised backend is
// tested against, and the fallback for partitions nobody else accepts.
#pragma once

#include "compiler/kernel.hpp"

namespace llga {
namespace ref {

const compiler::backend_t &ref_backend();

} // namespace ref
} // namespace llga
