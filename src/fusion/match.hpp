// SPDX-License-Identifier: Apache-2.0
// fusion/match.hpp — the vocabulary the pattern families are written in: a
// view of the graph that knows which ops earlier passes claimed, the post-op
// alphabets, and the chain grower every "anchor → [BiasAdd] → post(a..b)"
// family shares. A matcher only reads; the partitioner claims what it
// returns.
#pragma once

#include <cstddef>
#include <vector>

#include "ir/graph.hpp"

namespace llga {
namespace fusion {

// What one successful match claims: op indices into graph_t::ops() (any
// order; the partitioner sorts them topologically).
struct match_t {
    std::vector<size_t> ops;
    bool has(size_t index) const;
};

class match_ctx_t {
public:
    match_ctx_t(const ir::graph_t &g, const std::vector<bool> &claimed)
        : g_(g), claimed_(claimed) {}

    const ir::graph_t &graph() const { return g_; }
    const ir::op_t &op(size_t index) const { return g_.ops()[index]; }
    bool free(size_t index) const { return !claimed_[index]; }

    // Index of the op producing tensor `id`, or -1 for a graph input.
    long producer(size_t id) const;
    // Distinct ops consuming tensor `id` (an op reading it twice counts once).
    std::vector<size_t> consumer_ops(size_t id) const;
    // The single unclaimed op consuming `id`, or -1 when there are none,
    // several, or it is claimed. An intermediate with another consumer
    // would escape the partition, so chains only grow through these.
    long sole_consumer(size_t id) const;
    // The unclaimed producer of input `port` of op `index` when that op is
    // its only consumer and its kind is `kind`; -1 otherwise.
    long sole_producer(size_t index, size_t port, op_kind_t kind) const;

private:
    const ir::graph_t &g_;
    const std::vector<bool> &claimed_;
};

// Post-op alphabets shared by every "... → post(a..b)" family: U (unary
// eltwise) and B (binary). Round is U only on f32.
bool is_unary_post_op(const ir::op_t &op);
bool is_binary_post_op(op_kind_t kind);
bool is_commutative(op_kind_t kind);
bool is_float(data_type_t dt);
bool is_int8(data_type_t dt);

// How a chain may grow.
struct chain_rules_t {
    int min_ops = 0, max_ops = 4;
    bool unary = true;  // U allowed (else B only)
    bool binary = true; // B allowed
    // Quantized families: a binary operand coming from a Dequantize (or
    // Dequantize → TypeCast) used only here is absorbed (the dequantized
    // residual "sum").
    bool absorb_dequantized_operand = false;
};

// Grows a post-op chain from tensor `value` (the current tail of `m`),
// appending the ops to `m` and moving `value` to the chain's new tail. Takes
// unary ops, binary ops with the chained value on an allowed input (either
// input for commutative kinds, input 0 otherwise) and the swish shape
// `x → Sigmoid → Multiply(x, sigmoid(x))` (two ops of the budget). Returns
// false, leaving `m` and `value` untouched, when fewer than min_ops fit.
bool grow_post_ops(const match_ctx_t &ctx, const chain_rules_t &rules,
        match_t &m, size_t &value);

// Absorbs what dequantizes input `port` of op `index`: a Dequantize, or a
// Dequantize followed by a TypeCast f32 → bf16 (the int8-in, bf16-compute
// spelling), each used only on that path. Appends the ops to `m`; false
// (and `m` untouched) when the input does not come from such a head.
bool take_dequantized_input(const match_ctx_t &ctx, size_t index, size_t port,
        match_t &m);

// Appends the sole consumer of `value` if it has kind `kind` (and takes
// `value` on input 0), moving `value` to its output. For optional tails
// such as BiasAdd, TypeCast or Quantize.
bool take_tail(const match_ctx_t &ctx, op_kind_t kind, match_t &m,
        size_t &value);

} // namespace fusion
} // namespace llga
