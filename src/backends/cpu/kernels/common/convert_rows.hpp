// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/common/convert_rows.hpp — rows of bf16/f16 (and u8/s8)
// values converted to and from f32, vectorised with AVX2/F16C (which every
// host that runs the avx2 kernels has): the staging of the SDPA kernel's
// operands, the widened copies of the staged and MatMul kernels, and the
// per-chunk conversions of the C++ kernels that take 16-bit tensors (a row
// widened into an L1 buffer, computed in f32, the result narrowed with
// round to nearest even). asmjit-free. Types are dnnl_f32, dnnl_bf16 or
// dnnl_f16 unless noted.
#pragma once

#include <cstdint>

#include "base/parallel.hpp"
#include "ir/dtype.hpp"

namespace llga {
namespace cpu {
namespace common {

// Elements per conversion task: widening or narrowing one costs well under
// a nanosecond, and a whole activation on one thread cost as much as a 1x1
// convolution on it (bf16 res2_1x1_64_256 at mb 1: 800K outputs).
constexpr int64_t k_convert_chunk = 32768;

// f(first, count) over [0, n) in pieces of at least k_convert_chunk,
// threaded: the conversions of whole tensors around f32 kernels.
template <typename F>
void in_chunks(int64_t n, F &&f) {
    parallel_for(n, k_convert_chunk,
            [&](int64_t lo, int64_t hi) { f(lo, hi - lo); });
}

// dst[r * cols + c] = f32(src[r * rs + c * cs]) for r < rows, c < cols
// (element strides).
void widen_matrix(const void *src, data_type_t dt, int64_t rows, int64_t cols,
        int64_t rs, int64_t cs, float *dst);

// dst[c] = f32(src[c]) for c < n, contiguous (a row of widen_matrix).
inline void widen_row(const void *src, data_type_t dt, int64_t n, float *dst) {
    widen_matrix(src, dt, 1, n, 0, 1, dst);
}

// dst[r * cols + c] = (src[r * rs + c * cs] - zp) * scale, src u8 or s8:
// a per-tensor Dequantize.
void dequantize_matrix(const void *src, data_type_t dt, int64_t rows,
        int64_t cols, int64_t rs, int64_t cs, float scale, float zp,
        float *dst);

// x[c] = saturate(rne(x[c] * (1 / scale) + zp)) to the u8/s8 range: a
// per-tensor Quantize, the result kept as f32.
void quantize_row(float *x, int64_t n, data_type_t dt, float scale, float zp);

// x[c] = f32(dt(x[c])) for c < n: the value a bf16/f16 tensor would hold.
void round_row(float *x, int64_t n, data_type_t dt);

// dst[c] = dt(src[c]) for c < n, contiguous, rounded to nearest even
// (u8/s8: src already holds quantized values).
void narrow_row(const float *src, int64_t n, void *dst, data_type_t dt);

} // namespace common
} // namespace cpu
} // namespace llga
