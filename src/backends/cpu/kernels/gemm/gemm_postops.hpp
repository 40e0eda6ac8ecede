// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/gemm/gemm_postops.hpp — the fused GEMM epilogue as plain
// data (asmjit-free): a chain of post-ops applied in list order to the f32
// C tile while it is still in registers (after bias), and the destination
// type conversion. Referenced from gemm_desc_t; an empty chain with an f32
// or bf16 destination is the plain GEMM. The generator side lives in
// gemm_postops.cpp (internal header gemm_postops_jit.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/status.hpp"

namespace llga {
namespace cpu {
namespace gemm {

enum class postop_kind_t : int32_t {
    // x *= scale; the scale values (f32) are a runtime operand, one value
    // (bcast scalar) or one per output column (bcast col).
    scale,
    eltwise, // x = f(x; alpha, beta)
    binary,  // x = x op y, y a runtime operand (f32, bf16, or s8/u8
             // dequantized), broadcast
    sum,     // x += sum_scale * (previous dst - sum_zp)
};

enum class po_eltwise_t : int32_t {
    relu,       // alpha = 0: max(x, 0); else LeakyReLU
    leaky_relu, // x >= 0 ? x : alpha * x
    gelu_erf,
    gelu_tanh,
    sigmoid,
    tanh,
    swish, // x * sigmoid(alpha * x)
    clamp, // min(max(x, alpha), beta)
    elu,   // x > 0 ? x : alpha * (e^x - 1)
    exp,
    log,
    square,
    abs,
    sqrt,
    hardsigmoid, // max(0, min(1, alpha * x + beta))
    hardswish,   // x * hardsigmoid(x)
    linear,      // alpha * x + beta
    // x rounded to the nearest bf16 (half to even; NaN made quiet): a
    // bf16 value between two ops of the chain, as the reference stores it.
    round_bf16,
};

enum class po_binary_t : int32_t { add, sub, mul, div, max, min };

// How a runtime operand of shape [.., M or 1, N or 1] maps onto C.
enum class po_bcast_t : int32_t {
    scalar, // one value
    col,    // [1, N]: one per column, contiguous
    row,    // [M, 1]: one per row, `ld` elements apart
    full,   // [M, N]: rows `ld` elements apart, columns contiguous
};

// Storage type of a runtime operand or of the destination.
enum class po_dt_t : int32_t { f32, bf16, s8, u8 };

struct postop_t {
    postop_kind_t kind = postop_kind_t::eltwise;
    po_eltwise_t alg = po_eltwise_t::relu;
    po_binary_t op = po_binary_t::add;
    float alpha = 0.f, beta = 0.f;
    // Runtime operand (scale, binary): type, broadcast, row stride and
    // per-batch strides in elements (one per gemm_desc_t::batch entry;
    // empty means 0 for every batch dim, i.e. shared across batches).
    po_dt_t src_dt = po_dt_t::f32;
    po_bcast_t bcast = po_bcast_t::scalar;
    int64_t ld = 0;
    std::vector<int64_t> bs;
    // sum: x += sum_scale * (dst - sum_zp), dst read in the dst type.
    float sum_scale = 1.f;
    int32_t sum_zp = 0;
    // binary with an s8/u8 operand (a Dequantize folded into the chain):
    // y = (q - q_zp) * q_scale in f32 before the op, as Dequantize does;
    // with q_bf16 then rounded to bf16 (a TypeCast after the Dequantize).
    float q_scale = 1.f;
    int32_t q_zp = 0;
    bool q_bf16 = false;

    static postop_t make_eltwise(po_eltwise_t a, float alpha = 0.f,
            float beta = 0.f);
    static postop_t make_binary(po_binary_t op, po_bcast_t b,
            po_dt_t dt = po_dt_t::f32, int64_t ld = 0);
    static postop_t make_scale(bool per_column);
    static postop_t make_sum(float scale = 1.f, int32_t zp = 0);

    bool has_operand() const {
        return kind == postop_kind_t::binary || kind == postop_kind_t::scale;
    }
};

// The whole epilogue after bias: the chain, then the conversion to dst.
struct postops_t {
    std::vector<postop_t> ops;
    // Destination type. f32 here defers to gemm_desc_t::dst_bf16 (the
    // original switch), so old descriptors keep their meaning.
    po_dt_t dst_dt = po_dt_t::f32;
    // int8 destinations: q = saturate(rne(x / dst_scale + dst_zp)).
    float dst_scale = 1.f;
    int32_t dst_zp = 0;

    bool empty() const { return ops.empty() && dst_dt == po_dt_t::f32; }
    // Operands execute() expects, in chain order (scale and binary ops).
    int operand_count() const;
    bool has_sum() const;
    // Stable bytes describing everything the generated code depends on
    // (not the strides, which are runtime): part of the kernel cache key.
    std::string key() const;
    std::string str() const; // for verbose/test output
};

// Runtime operand of one scale/binary post-op, as the micro-kernel reads
// it: `p` already points at the tile's first element (row 0, column 0 of
// the tile for col/row/full) and `ld` is the row stride in bytes (0 when
// the operand does not vary by row).
struct postop_ptr_t {
    const void *p;
    int64_t ld;
};

// Most operand-taking post-ops one chain may have.
constexpr int k_max_po_operands = 8;

size_t po_dt_size(po_dt_t dt);
const char *po_eltwise_name(po_eltwise_t a);

} // namespace gemm
} // namespace cpu
} // namespace llga
