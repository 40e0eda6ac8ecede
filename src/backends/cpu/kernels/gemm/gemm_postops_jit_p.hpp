// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/gemm/gemm_postops_jit_p.hpp — emits the GEMM epilogue
// chain (gemm_postops.hpp) for one vector of C held in a register: runtime
// operand loads with broadcast and tails, the eltwise math (through
// eltwise_jit_math), sum with the previous dst, and the conversion/store to the
// destination type. Internal to the gemm generators (pulls in asmjit).
#pragma once

#include <asmjit/x86.h>

#include "backends/cpu/kernels/eltwise/eltwise_jit_math.hpp"
#include "backends/cpu/kernels/gemm/gemm_postops.hpp"

namespace llga {
namespace cpu {
namespace gemm {

// Registers the caller lends to the chain: `t[0..6]` are free vector
// temporaries (never the value itself). On AVX2 the tail mask must be in
// ymm14 and ymm15 is clobbered as the compare mask (vec_emitter_t's
// convention); on AVX-512 k1 holds the tail mask and k2 is clobbered.
// GP scratch: rsi (operand table), rdx, r8 (addresses).
struct po_regs_t {
    asmjit::x86::Vec t[7];
};

class po_emitter_t {
public:
    po_emitter_t(asmjit::x86::Assembler &a, eltwise::vec_emitter_t &e,
            const postops_t &po, bool dst_bf16)
        : a_(a), e_(e), po_(po), dst_bf16_(dst_bf16) {}

    // Before a row: rsi = the postop_ptr_t table (from args).
    void load_table(const asmjit::x86::Mem &table_field);
    // x = chain(x) for row `row` of the tile, vector `v` of it; `last`
    // means the vector is the masked tail. `dst` addresses that vector's
    // first element in the destination (for sum).
    void apply(const asmjit::x86::Vec &x, int row, int v, bool last,
            const asmjit::x86::Mem &dst, const po_regs_t &r);
    // AVX2 fast path: whether every op is a ReLU, a scale or an
    // add/sub/mul/div with an f32 operand, so the chain can run on the
    // accumulators themselves (no spill) with memory operands.
    bool in_place_ok() const;
    // The chain on the nv vectors xs of tile row `row`, in place; the
    // last vector is masked (ymm14) when `last_masked`. `zero` must hold
    // +0 when the chain has a ReLU; `t` is a temporary.
    void apply_row_in_place(const asmjit::x86::Vec *xs, int nv, int row,
            bool last_masked, const asmjit::x86::Vec &t,
            const asmjit::x86::Vec &zero);
    bool has_relu() const;
    // Converts x to the destination type and stores it (masked if `last`).
    // Only s8/u8 are handled here; f32/bf16 stores stay with the caller.
    void store_int8(const asmjit::x86::Vec &x, const asmjit::x86::Mem &dst,
            bool last, const po_regs_t &r);
    // Rounds x to bf16 (half to even, NaN quiet) and stores the words
    // (masked if `last`; AVX2 writes a tail's words one at a time). `cvt`:
    // the host has vcvtneps2bf16 (AVX512-BF16 kernels only); otherwise
    // the rounding is done on the bit pattern with r.t[0..1]. x is
    // clobbered.
    void store_bf16(const asmjit::x86::Vec &x, const asmjit::x86::Mem &dst,
            bool last, bool cvt, const po_regs_t &r);

private:
    // rdx = operand idx's address at tile row `row` (rsi = the table;
    // clobbers r8).
    void operand_row(const postop_t &op, int idx, int row);
    void load_operand(const postop_t &op, int idx, int row, int v, bool last,
            const asmjit::x86::Vec &dst);
    void load_int8_operand(const postop_t &op, int v, bool last,
            const asmjit::x86::Vec &dst);
    void load_bf16_operand(const postop_t &op, int v, bool last,
            const asmjit::x86::Vec &dst);
    // AVX2: ecx = the valid lanes of the tail mask in ymm14 (clobbers eax).
    void tail_lanes_to_ecx();
    // AVX2, a tail vector of 16-bit values at m: emit(word i's operand, i)
    // for each valid lane i (the ymm14 prefix; clobbers eax, ecx).
    template <typename F>
    void each_tail_word(const asmjit::x86::Mem &m, F emit);
    // x = x rounded to bf16 (t, u: temporaries).
    void round_bf16(const asmjit::x86::Vec &x, const asmjit::x86::Vec &t,
            const asmjit::x86::Vec &u);
    void load_dst(const asmjit::x86::Mem &m, bool last,
            const asmjit::x86::Vec &dst);
    void eltwise(const postop_t &op, const asmjit::x86::Vec &x,
            const po_regs_t &r);

    asmjit::x86::Assembler &a_;
    eltwise::vec_emitter_t &e_;
    const postops_t &po_;
    bool dst_bf16_; // gemm_desc_t::dst_bf16 (po_.dst_dt f32 defers to it)
};

// Whether `kind_avx512` code can run the chain: AVX2 takes f32, bf16, s8
// and u8 operands and destinations, but sums only into f32. Returns
// unimplemented with the reason.
status_t check_postops(const postops_t &po, bool avx512, bool dst_bf16);

} // namespace gemm
} // namespace cpu
} // namespace llga
