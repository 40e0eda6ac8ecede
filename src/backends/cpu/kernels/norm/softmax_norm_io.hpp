// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/norm/softmax_norm_io.hpp — what the row-wise JIT
// families (softmax, layernorm/groupnorm) share when emitting: a dtype-aware
// vector load/store (f32, bf16, f16 to and from f32 registers) with masked
// tails on AVX-512 (k1) and AVX2 (vmaskmovps for f32, a small stack bounce
// buffer for 16-bit types, which have no masked AVX2 load), and the row
// loops. The call-argument block is in norm_args.hpp. Internal to
// backends/cpu.
#pragma once

#include <cstdint>
#include <functional>

#include <asmjit/x86.h>

#include "backends/cpu/kernels/eltwise/eltwise_jit_math.hpp"
#include "backends/cpu/kernels/norm/norm_args.hpp"

namespace llga {
namespace cpu {
namespace norm {

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
