// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/matmul/matmul_shape.hpp — how one MatMul op reads as a
// (batched, strided) GEMM: rank-1 promotion and transpose flags become
// strides (the same reading as the reference in ops/matmul.cpp), batch dims
// are broadcast into per-operand batch strides, and each dst axis is named
// (batch / M / N) so post-op operands and biases can be mapped onto it.
// Shared by the f32/bf16 kernels (matmul.cpp, matmul_chain.cpp) and the int8
// kernel (matmul_int8.cpp). asmjit-free.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/c_types.hpp"
#include "ir/op.hpp"

namespace llga {
namespace cpu {
namespace matmul {

// A MatMul as C[batch] = A[batch] x B[batch], strides in elements. Only
// batch dims of extent > 1 are kept (extent-1 dims contribute nothing);
// the batch is not yet folded into M (the caller does that after adding
// anything with per-batch strides, e.g. post-op operands).
struct mm_geometry_t {
    int64_t M = 0, N = 0, K = 0;
    int64_t sam = 0, sak = 0; // A[m, k]
    int64_t sbk = 0, sbn = 0; // B[k, n]
    int64_t sdm = 0;          // dst row stride (columns are contiguous)
    std::vector<int64_t> batch, a_bs, b_bs, d_bs;
    // dst axis of each kept batch dim, and of M / N (-1: promoted away,
    // i.e. rank-1 src or weights).
    std::vector<int> batch_axis;
    int m_axis = -1, n_axis = -1;
    // When the rows (columns) span several dst axes, e.g. the output
    // pixels (d, h, w) of a convolution read as a GEMM: those axes, outer
    // to inner (m_axis / n_axis is then the innermost). Empty: m_axis
    // (n_axis) alone, as for every MatMul. An operand must vary along all
    // or none of them, with one uniform stride.
    std::vector<int> m_axes, n_axes;
    dims_t dst_dims; // the MatMul's dst shape
};

// Reads MatMul `mm` as a GEMM. `a` and `b` are the tensors whose strides
// the kernel reads (mm's own inputs, or the int8 tensors in front of its
// Dequantize ops: same dims); `dst` is the tensor the kernel writes (mm's
// output, or the last op of a fused chain: its dims must be mm's dst dims).
// False with the reason in *why.
bool read_geometry(const ir::op_t &mm, const logical_tensor_t &a,
        const logical_tensor_t &b, const logical_tensor_t &dst,
        mm_geometry_t &g, std::string *why);

// Whether `bias` holds one value per output column ([N], [1, N], [1], ...:
// every dim 1 except a last one of N). *stride gets the element distance
// between columns (0: one value for all).
bool bias_per_column(const logical_tensor_t &bias, const mm_geometry_t &g,
        int64_t *stride, std::string *why);

// Tensor checks every MatMul kernel starts with: concrete strided layout,
// not empty, not a scalar.
bool tensor_usable(const logical_tensor_t &lt, std::string *why);

} // namespace matmul
} // namespace cpu
} // namespace llga
