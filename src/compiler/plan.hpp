// SPDX-License-Identifier: Apache-2.0
// compiler/plan.hpp — what a backend compiles: the partition's ops with every
// tensor's shape, dtype and physical strides resolved, and the partition's
// ports in the order the user passed them to compile (which is also the
// order of the tensors at execute time). Ports keep the layout the user sees
// (strided or an opaque id); op tensors always carry the equivalent strides.
// Ports with property `constant` may be prepared once and cached
// (compiler/constant_prep.hpp).
#pragma once

#include <string>
#include <vector>

#include "fusion/partition.hpp"

namespace llga {
namespace compiler {

struct inplace_pair_t {
    size_t input_id;
    size_t output_id;
};

struct plan_t {
    const fusion::partition_t *partition = nullptr;
    std::vector<ir::op_t> ops; // concrete: every tensor strided and known
    // Ports as the user sees them (layout strided or opaque).
    std::vector<logical_tensor_t> inputs;
    std::vector<logical_tensor_t> outputs;
    std::vector<inplace_pair_t> inplace;
};

// Index of the port with tensor id `id` in `ports` (plan inputs or
// outputs), or -1. Kernels use it to map an op's tensors to exec_ctx_t
// slots.
inline int find_port(const std::vector<logical_tensor_t> &ports, size_t id) {
    for (size_t k = 0; k < ports.size(); ++k)
        if (ports[k].id == id) return static_cast<int>(k);
    return -1;
}

// The partition's only op, or nullptr (with the reason in *why) when it has
// more than one: the single-op kernels' first check.
inline const ir::op_t *single_op(const plan_t &plan, std::string *why) {
    if (plan.ops.size() == 1) return &plan.ops[0];
    if (why)
        *why = "partition has " + std::to_string(plan.ops.size())
                + " ops; only single-op partitions are supported";
    return nullptr;
}

} // namespace compiler
} // namespace llga
