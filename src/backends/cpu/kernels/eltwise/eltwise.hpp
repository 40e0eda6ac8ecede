// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/eltwise/eltwise.hpp — the elementwise JIT family: f32
// unary ops (ReLU ... GELU) and binary ops (Add ... Minimum) on dense tensors,
// with AVX-512 (zmm, k-mask tails) and AVX2 (ymm, vmaskmovps tails) variants.
// This header is asmjit-free so tests can drive the raw vector functions too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "backends/cpu/isa.hpp"
#include "compiler/kernel.hpp"

namespace llga {
namespace cpu {
namespace eltwise {

enum class alg_t : int {
    // unary
    relu,
    leaky_relu,
    clamp,
    abs,
    square,
    sqrt,
    exp,
    sigmoid,
    tanh,
    gelu_tanh,
    gelu_erf,
    elu,
    hard_sigmoid, // clamp(alpha x + beta, 0, 1)
    hard_swish,   // x clamp(x / 6 + 1/2, 0, 1)
    round,        // to nearest, ties to even
    erf, // no op of its own: exposed so tests can measure the erf core
    // binary
    add,
    sub,
    mul,
    div,
    max,
    min,
};

bool is_binary(alg_t alg);
const char *alg_name(alg_t alg);

// The algorithm of an elementwise op and its parameters (LeakyReLU/Elu
// alpha; Clamp min/max and HardSigmoid alpha/beta in alpha/beta, else 0);
// false if the op is not one
// this family computes.
bool params_of(const ir::op_t &op, alg_t *alg, float *alpha, float *beta);

// Which operand of a binary kernel is a single broadcast value.
enum class scalar_t : int { none, src0, src1 };

// y[i] = f(x[i]) for i < n; dst may equal src.
using unary_fn_t = void (*)(const float *src, float *dst, size_t n);
// dst[i] = a[i] op b[i] (a[0] or b[0] when that side is scalar); dst may
// equal a non-scalar operand.
using binary_fn_t = void (*)(const float *a, const float *b, float *dst,
        size_t n);

// Raw generated functions (cached by descriptor). `isa` must be avx2 or
// avx512_core and available. alpha/beta: LeakyReLU/Elu alpha; Clamp min/max.
status_t get_unary(alg_t alg, float alpha, float beta, isa_t isa,
        unary_fn_t *fn);
status_t get_binary(alg_t alg, scalar_t scalar, isa_t isa, binary_fn_t *fn);

// Outputs of at least this many bytes are written with non-temporal
// stores (vmovntps) by the unary, chain and dense binary kernels: they
// cannot stay in the caches for the next op anyway, and a plain store
// first reads every line it writes. LLGA_STREAM_MIN_MB overrides (read
// once).
int64_t stream_min_bytes();
// Tests: kernels created from now on use `bytes` instead (< 0: back to
// the default).
void set_stream_min_bytes_for_testing(int64_t bytes);
// Runs f(off, len, nt) over [0, n) in pieces of at most `chunk` elements
// (a multiple of 16), in parallel. With `stream`, the elements before
// dst's first 64-byte boundary form one piece with nt = false and every
// later piece starts on a boundary with nt = true (vmovntps needs
// aligned vectors).
void for_each_chunk(int64_t n, int64_t chunk, const float *dst, bool stream,
        const std::function<void(int64_t off, int64_t len, bool nt)> &f);
// The kernel-table hooks: can this family run `plan` with `isa`? (If not,
// *why says so.) And build the executable kernel.
bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why);
status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out);

} // namespace eltwise
} // namespace cpu
} // namespace llga
