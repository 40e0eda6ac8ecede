// SPDX-License-Identifier: Apache-2.0
// fusion/partition.hpp — a partition: a connected set of ops the library
// compiles and runs as one unit (or, if unsupported, hands back to the user),
// with its input and output ports as recorded in the user's graph.
#pragma once

#include <string>
#include <vector>

#include "ir/op.hpp"

namespace llga {
namespace fusion {

struct partition_t {
    size_t id = 0;
    engine_kind_t engine_kind = dnnl_cpu;
    fpmath_mode_t fpmath_mode = dnnl_fpmath_mode_strict;
    bool fpmath_apply_to_int = false;
    bool supported = false;
    std::string reason;           // why unsupported, or the pattern that matched
    std::string kind = "single_op"; // pattern family, e.g. "matmul_post_ops"
    std::vector<ir::op_t> ops;    // in dependency order
    std::vector<logical_tensor_t> inputs;
    std::vector<logical_tensor_t> outputs;

    // Canonical text of everything compilation depends on (ops, attributes,
    // ports, fpmath) — part of the compiled-partition cache key.
    std::string signature() const;
};

// Fills inputs/outputs from ops: inputs are tensors not produced inside the
// partition (deduplicated by id, first-use order); outputs are tensors
// produced inside that are consumed outside or by nobody (graph outputs).
// `consumed_outside(id)` tells whether any op outside uses the tensor.
template <typename F>
void compute_ports(partition_t &p, F consumed_outside);

size_t next_partition_id();

} // namespace fusion
} // namespace llga

#include "fusion/partition_ports.inl"
