// SPDX-License-Identifier: Apache-2.0
// ir/graph.hpp — a user graph: ops connected by logical tensor ids.
// Adding ops checks only structure (op ids, one producer per tensor); schema
// checks are done by ops/ before an op reaches here. finalize() checks that
// every occurrence of a tensor id describes the same tensor (oneDNN's rule),
// freezes the graph, links producers to consumers and computes a
// topological order (rejecting cycles).
#pragma once

#include <unordered_map>
#include <vector>

#include "base/c_types.hpp"
#include "ir/op.hpp"

namespace llga {
namespace ir {

struct tensor_use_t {
    size_t op_index;
    size_t port;
};

class graph_t {
public:
    explicit graph_t(engine_kind_t ekind = dnnl_cpu,
            fpmath_mode_t mode = dnnl_fpmath_mode_strict)
        : engine_kind_(ekind), fpmath_mode_(mode) {}

    // Adds a copy of `op`. An op whose id is already present is ignored
    // (success), as programs rely on. Fails if finalized, or if an output
    // id already has a producer.
    status_t add_op(const op_t &op);
    // Answers whether a strided and an opaque description of the same id
    // are one memory layout (the runtime's layout registry knows); without
    // it they count as different.
    using layout_equiv_fn = bool (*)(
            const logical_tensor_t &, const logical_tensor_t &);
    // Fails with invalid_graph when two occurrences of one tensor id differ
    // in data type, rank, dims, property or layout (undef/any only equal
    // the same layout type; strided compares strides, opaque the layout
    // id), or when the graph has a cycle.
    status_t finalize(layout_equiv_fn equiv = nullptr);
    bool finalized() const { return finalized_; }

    engine_kind_t engine_kind() const { return engine_kind_; }
    fpmath_mode_t fpmath_mode() const { return fpmath_mode_; }
    bool fpmath_apply_to_int() const { return apply_to_int_; }
    status_t set_fpmath_mode(fpmath_mode_t mode, bool apply_to_int);

    const std::vector<op_t> &ops() const { return ops_; }
    // Valid after finalize(): op indices in dependency order (ties by the
    // order ops were added).
    const std::vector<size_t> &topo_order() const { return topo_; }
    // Producer of a tensor id (nullptr if it is a graph input).
    const tensor_use_t *producer(size_t tensor_id) const;
    const std::vector<tensor_use_t> &consumers(size_t tensor_id) const;

private:
    status_t check_tensors(layout_equiv_fn equiv) const;

    engine_kind_t engine_kind_;
    fpmath_mode_t fpmath_mode_;
    bool apply_to_int_ = false;
    bool finalized_ = false;
    std::vector<op_t> ops_;
    std::unordered_map<size_t, size_t> op_index_; // op id -> index
    std::unordered_map<size_t, tensor_use_t> producers_;
    std::unordered_map<size_t, std::vector<tensor_use_t>> consumers_;
    std::vector<size_t> topo_;
};

} // namespace ir
} // namespace llga
