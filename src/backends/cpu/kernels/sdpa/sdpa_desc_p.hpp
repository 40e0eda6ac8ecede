// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/sdpa/sdpa_desc_p.hpp — reading an SDPA partition (the
// fusion pass float_sdp_fusion) into what the fused kernel needs: the
// geometry of Q·Kᵀ and P·V over the batch dims, the score ops between the
// two MatMuls in order (scale, masks, soft-capping, explicit and implicit
// causal Select), the SoftMax mode, and where the output lands (through an
// optional transpose → reorder/reshape tail, which only changes strides).
// asmjit-free.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "backends/cpu/kernels/gemm/gemm_postops.hpp"
#include "compiler/plan.hpp"

namespace llga {
namespace cpu {
namespace sdpa {

// A partition input read elementwise against the scores
// [batch..., Sq, Skv]: element strides per score batch dim, per row and per
// column (0 where the input broadcasts).
struct operand_t {
    int port = -1;
    data_type_t dt = dnnl_f32;
    std::vector<int64_t> bs;
    int64_t rs = 0, cs = 0;
};

enum class step_kind_t {
    binary, // x = x op operand (operand on input 1; Add/Multiply may
            // have it on input 0, which is the same value)
    tanh,
    select, // x = cond ? a : b, the chained value in slot 1 or 2
};

// cond(i, j) of an implicit causal mask: lhs >= rhs, each side the row
// index i or the column index j plus the s32 scalars it was shifted by
// (Add: +, Subtract: -), read at execute time.
struct index_side_t {
    bool is_row = true;
    std::vector<std::pair<int, int>> shifts; // (input port, +1 / -1)
};

struct score_step_t {
    step_kind_t kind = step_kind_t::binary;
    data_type_t out_dt = dnnl_f32; // the reference rounds the result to it
    gemm::po_binary_t op = gemm::po_binary_t::add;
    operand_t operand; // binary operand; select: the other value
    // select
    int chained_slot = 1;
    bool causal = false;
    operand_t cond; // explicit mask (boolean), when !causal
    index_side_t lhs, rhs;
};

// An elementwise step on the f32 values between the blocks' stages, as
// the reference applies it: a TypeCast (rounding to bf16/f16; f32 is exact),
// a per-tensor Quantize (x / scale + zp, rounded half to even and
// saturated to u8/s8) or Dequantize ((x - zp) * scale).
struct value_op_t {
    enum class kind_t { round, quantize, dequantize };
    kind_t kind = kind_t::round;
    data_type_t dt = dnnl_f32; // round: target; (de)quantize: the int type
    float scale = 1.f, zp = 0.f;
};

// How Q, K or V reach their MatMul: a partition input of type `dt`, maybe
// through a per-tensor Dequantize (u8/s8) and a TypeCast to bf16/f16.
struct head_t {
    int port = -1;
    data_type_t dt = dnnl_f32;
    bool dq = false;
    float scale = 1.f, zp = 0.f;
    data_type_t round_dt = dnnl_f32;
    // DynamicDequantize (compressed K/V: u8/s8 values, scales and optional
    // zero points as tensors, one per group of the matrix dims): the
    // inputs, their per-batch strides, the group sizes along the source's
    // rows (dim -2) and columns (dim -1), and the parameter tensors'
    // strides per group there.
    bool ddq = false;
    int sc_port = -1, zp_port = -1;
    data_type_t sc_dt = dnnl_f32, zp_dt = dnnl_s32;
    std::vector<int64_t> sc_bs, zp_bs;
    int64_t g_r = 1, g_c = 1;
    int64_t sc_rs = 0, sc_cs = 0, zp_rs = 0, zp_cs = 0;
    // Whether B's k dim (the dim the GEMM sums over) is the source's last
    // dim (K and V only; set by the analysis).
    bool k_is_last = false;
    // Read as is by the f32 GEMMs (no staging copy needed).
    bool plain_f32() const {
        return dt == dnnl_f32 && !dq && !ddq && round_dt == dnnl_f32;
    }
};

struct desc_t {
    std::vector<int64_t> batch; // score batch dims, outermost first
    int64_t Sq = 0, Skv = 0, D = 0, Dv = 0;
    // Q, K, V: f32, bf16 or f16, or u8/s8 through a Dequantize; staged as
    // f32 for the GEMMs, and everything in between is computed in f32.
    head_t q, k, v;
    int out = -1;
    data_type_t o_dt = dnnl_f32; // the final output's storage type
    // After P·V: the MatMul's output type (rounded to), then the output
    // tail's TypeCast / Quantize steps.
    data_type_t m2_dt = dnnl_f32;
    std::vector<value_op_t> out_ops;
    // After SoftMax (its output type p_dt first): TypeCasts and Quantize →
    // Dequantize round trips on the way to P·V.
    std::vector<value_op_t> p_ops;
    // Types the reference stores the scores (Q·Kᵀ output) and the
    // probabilities (SoftMax output) in: bf16/f16 values are rounded to
    // them where the reference would round, so results match it.
    data_type_t s_dt = dnnl_f32, p_dt = dnnl_f32;
    // Element strides per score batch dim (0: broadcast), and within a
    // matrix: Q[i, d] = q_rs, q_cs; GEMM B of Q·Kᵀ, B[d, j] = k_ks, k_ns;
    // of P·V, B[j, e] = v_ks, v_ns; output row stride (columns
    // contiguous).
    std::vector<int64_t> q_bs, k_bs, v_bs, o_bs;
    // SoftMax statistics (training forward): output port (-1: none), f32
    // log-sum-exp per score row, strides per batch dim and per row.
    int out_stats = -1;
    std::vector<int64_t> st_bs;
    int64_t st_rs = 0;
    int64_t q_rs = 0, q_cs = 0, k_ks = 0, k_ns = 0, v_ks = 0, v_ns = 0;
    int64_t o_rs = 0;
    std::vector<score_step_t> steps;
    bool inf_as_zero = false;
    // Ops of the plan this kernel covers (all of them when accepted).
    size_t ops_used = 0;
};

// Fills `d` from an SDPA plan, or false with the reason in *why.
bool analyse(const compiler::plan_t &plan, desc_t &d, std::string *why);

} // namespace sdpa
} // namespace cpu
} // namespace llga
