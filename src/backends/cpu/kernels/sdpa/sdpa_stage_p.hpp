// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/sdpa/sdpa_stage_p.hpp — how the SDPA kernel's tensors
// enter and leave its f32 compute: a head (Q, K or V: plain, bf16/f16,
// Dequantize [→ TypeCast], DynamicDequantize) staged as the f32 values its
// MatMul reads, the plan of that copy for a GEMM operand, and the value
// steps (TypeCast, Quantize, Dequantize) on the probabilities and the
// output. asmjit-free.
#pragma once

#include <cstdint>
#include <vector>

#include "backends/cpu/kernels/sdpa/sdpa_desc_p.hpp"

namespace llga {
namespace cpu {
namespace sdpa {

// A DynamicDequantize head's parameters for one batch: scales and zero
// points (nullptr: none) at the batch's first group.
struct dyn_params_t {
    const void *sc = nullptr, *zp = nullptr;
};

// The f32 values a head's MatMul reads, for a rows x cols block of its
// input (element strides rs, cs): dequantized, widened, then rounded to the
// head's TypeCast type. For a DynamicDequantize head, `rows_are_r` says
// whether the block's rows run along the source's dim -2.
void stage(const head_t &h, const void *src, int64_t rows, int64_t cols,
        int64_t rs, int64_t cs, float *dst, const dyn_params_t &p = {},
        bool rows_are_r = true);

// The value steps of the probabilities or the output tail on n values.
void apply_value_ops(const std::vector<value_op_t> &ops, float *x, int64_t n);

// How a staged GEMM operand B[k, n] (element strides ks, ns) is copied
// into a dense f32 matrix: its rows run along the operand's contiguous dim
// when it has one, and the GEMM then reads the copy with strides sbk, sbn.
struct staging_t {
    bool on = false;
    head_t h;
    int64_t rows = 0, cols = 0, rs = 0, cs = 0; // of the source
    int64_t sbk = 0, sbn = 0;                    // of the copy
    bool rows_are_r = true; // copy rows run along the source's dim -2
    void plan(const head_t &head, int64_t K, int64_t N, int64_t ks, int64_t ns);
    int64_t floats() const { return on ? rows * cols : 0; }
    void widen(const void *src, const dyn_params_t &p, float *dst) const {
        stage(h, src, rows, cols, rs, cs, dst, p, rows_are_r);
    }
};

} // namespace sdpa
} // namespace cpu
} // namespace llga
