// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/matmul/matmul_chain.hpp — reading fused MatMul
// partitions: the walk from the MatMul's output to the partition's output (one
// op consuming the value at each step), and the mapping of an f32 chain
// (BiasAdd, unary and binary ops) onto the GEMM epilogue (gemm_postops.hpp).
// The int8 kernel (matmul_int8.cpp) uses the walk too. asmjit-free.
#pragma once

#include <string>
#include <vector>

#include "backends/cpu/kernels/gemm/gemm_postops.hpp"
#include "backends/cpu/kernels/matmul/matmul_shape.hpp"
#include "compiler/plan.hpp"

namespace llga {
namespace cpu {
namespace matmul {

// One op of the chain after the MatMul: `op` reads the chained value on
// input `slot`. A `sigmoid` step is the pair Sigmoid(x) -> Multiply(x,
// sigmoid(x)) (swish): `op` is the Multiply, `sigmoid` the Sigmoid.
struct chain_step_t {
    const ir::op_t *op = nullptr;
    int slot = 0;
    const ir::op_t *sigmoid = nullptr;
};

// The chain starting at op `head` of plan.ops (its output 0). Each value
// on the chain is read by exactly one op (or by the swish pair), is not a
// partition output except at the end, and the end is the partition's only
// output. `*used` marks the plan.ops visited (head included): ops not on
// the chain are the caller's business. False with the reason in *why.
bool walk_chain(const compiler::plan_t &plan, size_t head,
        std::vector<chain_step_t> &steps, std::vector<bool> *used,
        std::string *why);

// BiasAdd adds along its channel axis: the last dim for NXC (and for any
// rank-2 input), dim 1 for NCX. True when that axis is the MatMul's N, i.e.
// the BiasAdd is a per-column bias of the GEMM.
bool bias_add_on_columns(const ir::op_t &bias_add, const mm_geometry_t &g);

// Index in plan.ops of the op producing tensor `id`, or -1.
int producer_of(const compiler::plan_t &plan, size_t id);

// Index in plan.ops of the partition's one op of kind `kind` (the anchor
// of a fused chain), or -1 with "partition has no <Kind>" / "partition has
// two <Kind>s" in *why.
int single_op_of_kind(const compiler::plan_t &plan, op_kind_t kind,
        std::string *why);

// The f32 epilogue of a chain: `post` for gemm_desc_t, and per operand the
// partition input port it reads. A BiasAdd that can be the GEMM's own bias
// (first in the chain, the MatMul has none) is returned in bias_* instead.
struct fp_epilogue_t {
    gemm::postops_t post;
    std::vector<int> operand_ports;
    // With dequant_operands: the plan.ops indices of the Dequantize ops
    // (and TypeCasts after them) folded into s8/u8 operands (the caller
    // marks them as used).
    std::vector<int> dequant_ops;
    int bias_port = -1;
    const logical_tensor_t *bias = nullptr;
};

// The partition input port an operand value `id` is read from: `id`
// itself, or (`dequant`) the s8/u8 port of the Dequantize producing it,
// directly or through a TypeCast f32 -> bf16; *dq / *tc are then those
// ops' indices in plan.ops (-1 if absent). -1 if none.
int operand_port(const compiler::plan_t &plan, size_t id, bool dequant,
        int *dq, int *tc);

// Maps `steps` onto the GEMM epilogue relative to the MatMul dst `g`.
// `mm_has_bias`: the MatMul has its third input. Values on the chain are
// f32 or bf16: where the reference stores a bf16 value between two ops
// (the anchor's own result included) the epilogue rounds it
// (round_bf16); TypeCasts between f32 and bf16 are those roundings. The
// last value's type is the caller's to check. Operands are f32 or bf16
// ports; with `dequant_operands` also a per-tensor Dequantize (inside the
// partition) of an s8/u8 port, perhaps cast to bf16, read as such (the
// int8 GEMM's chain).
bool map_fp_epilogue(const compiler::plan_t &plan,
        const std::vector<chain_step_t> &steps, const mm_geometry_t &g,
        bool mm_has_bias, fp_epilogue_t &e, std::string *why,
        bool dequant_operands = false);

} // namespace matmul
} // namespace cpu
} // namespace llga
