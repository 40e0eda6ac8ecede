// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/norm/softmax_norm_io.hpp — what the row-wise JIT
// families (softmax, layernorm/groupnorm) share: the call-argument block of
// their generated functions, and a dtype-aware vector load/store (f32, bf16,
// f16 to and from f32 registers) with masked tails on AVX-512 (k1) and AVX2
// (vmaskmovps for f32, a small stack bounce buffer for 16-bit types, which have
// no masked AVX2 load). Internal to backends/cpu.
#pragma once

#include <cstdint>
#include <functional>

#include <asmjit/x86.h>

#include "backends/cpu/kernels/eltwise/eltwise_jit_math.hpp"
#include "base/c_types.hpp"
#include "ir/dtype.hpp"

namespace llga {
namespace cpu {
namespace norm {

enum class dt_t : int32_t { f32 = 0, bf16 = 1, f16 = 2 };

// false for any type the row families do not load or store.
bool dt_of(data_type_t t, dt_t *out);
inline int dt_shift(dt_t t) { return t == dt_t::f32 ? 2 : 1; } // log2 size
const char *dt_name(dt_t t);

// The single argument of every generated row function (pointer in rdi).
// Field meaning depends on the function; see softmax.cpp / layernorm.cpp.
struct args_t {
    const void *src;
    void *dst;
    int64_t len;   // elements along the reduced (or normalized) axis
    int64_t inner; // element stride between rows of a column block
    int64_t lanes; // columns of a column block (<= vector width)
    float *stats;
    const float *params;
    const void *gamma; // f32, or the norm family's parameter type
    const void *beta;
    float *tmp; // softmax: f32 e^(x-m) kept between reduce and apply
};

// Element i of a host array of type t, as f32 / stored as t (rounded to
// nearest even) — for the per-slice scalars C++ reads and writes.
inline float read_f32(const void *p, dt_t t, int64_t i) {
    if (t == dt_t::f32) return static_cast<const float *>(p)[i];
    const uint16_t h = static_cast<const uint16_t *>(p)[i];
    return t == dt_t::bf16 ? ir::bf16_to_f32(h) : ir::f16_to_f32(h);
}
inline void write_f32(void *p, dt_t t, int64_t i, float v) {
    if (t == dt_t::f32) {
        static_cast<float *>(p)[i] = v;
        return;
    }
    static_cast<uint16_t *>(p)[i]
            = t == dt_t::bf16 ? ir::f32_to_bf16(v) : ir::f32_to_f16(v);
}

// Byte offsets of args_t fields for the generated code.
constexpr int k_arg_src = 0, k_arg_dst = 8, k_arg_len = 16, k_arg_inner = 24,
              k_arg_lanes = 32, k_arg_stats = 40, k_arg_params = 48,
              k_arg_gamma = 56, k_arg_beta = 64, k_arg_tmp = 72;

using fn_t = void (*)(const args_t *);

// Emits loads/stores through an eltwise::vec_emitter_t. Scratch registers:
// rax, rcx, r11 (by set_tail and by AVX2 16-bit tails) and r10 (holds the
// tail length). The function must start with prologue() and end with
// epilogue() (which returns), then emit_data().
class io_t {
public:
    io_t(asmjit::x86::Assembler &a, eltwise::vec_emitter_t &e);

    // Saves rbx, r12, r13 (free for the caller's code), reserves the bounce
    // buffer.
    void prologue();
    void epilogue(); // undoes prologue, vzeroupper, ret
    void emit_data();

    // Tail length (0..W-1 lanes) for later tail loads/stores.
    void set_tail(const asmjit::x86::Gp &rem);

    // dst = f32 values at m; with `tail` only lanes [0, rem) are read and
    // the others are 0.
    void load(const asmjit::x86::Vec &dst, const asmjit::x86::Mem &m,
            dt_t dt, bool tail);
    // Stores src converted to dt, rounding to nearest even (NaN stays NaN).
    // t1, t2 are temporaries; bf16 also clobbers the compare mask (v(15)
    // or k2).
    void store(const asmjit::x86::Mem &m, const asmjit::x86::Vec &src,
            dt_t dt, bool tail, const asmjit::x86::Vec &t1,
            const asmjit::x86::Vec &t2);

    // Lanes >= rem of v := the same lanes of fill / := 0.
    void fill_tail(const asmjit::x86::Vec &v, const asmjit::x86::Vec &fill);
    void zero_tail(const asmjit::x86::Vec &v);

    // Horizontal reduction: lane 0 of v.xmm = max or sum of all lanes of v.
    // tmp is clobbered.
    void hmax(const asmjit::x86::Vec &v, const asmjit::x86::Vec &tmp);
    void hsum(const asmjit::x86::Vec &v, const asmjit::x86::Vec &tmp);

private:
    void copy_words(const asmjit::x86::Mem &from, bool to_stack);
    void hreduce(const asmjit::x86::Vec &v, const asmjit::x86::Vec &tmp,
            bool max);

    asmjit::x86::Assembler &a_;
    eltwise::vec_emitter_t &e_;
    asmjit::Label masks_;
};

// Walks element index i over [0, n): blocks of U vectors (body(u, false),
// whose data starts u*W elements after i), then single vectors (body(0,
// false)), then one masked tail (body(0, true)) when n % W != 0 (set_tail
// must have been given n % W). U is 1, 2 or 4. i and lim are clobbered.
void emit_row_loop(asmjit::x86::Assembler &a, int W,
        const asmjit::x86::Gp &n, const asmjit::x86::Gp &i,
        const asmjit::x86::Gp &lim, int U,
        const std::function<void(int u, bool tail)> &body);
// The same walk with the block of U vectors emitted by one call, group(),
// so a body whose vectors are long dependency chains can interleave them
// step by step; single vectors and the tail are one(tail).
void emit_row_loop_grouped(asmjit::x86::Assembler &a, int W,
        const asmjit::x86::Gp &n, const asmjit::x86::Gp &i,
        const asmjit::x86::Gp &lim, int U, const std::function<void()> &group,
        const std::function<void(bool tail)> &one);

} // namespace norm
} // namespace cpu
} // namespace llga
