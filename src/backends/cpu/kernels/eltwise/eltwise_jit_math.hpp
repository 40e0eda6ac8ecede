// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/eltwise/eltwise_jit_math.hpp — a small helper over the
// asmjit assembler that writes the same vector code for zmm (AVX-512) and ymm
// (AVX2): a per-kernel constant pool, compare-and-select that hides k-masks
// versus blend masks, and the vector math (exp, expm1, tanh, sigmoid, erfc,
// log) the elementwise kernels are built from. Internal to backends/cpu.
#pragma once

#include <cstdint>
#include <vector>

#include <asmjit/x86.h>

namespace llga {
namespace cpu {
namespace eltwise {

class vec_emitter_t {
public:
    vec_emitter_t(asmjit::x86::Assembler &a, bool avx512);

    bool avx512() const { return avx512_; }
    int width() const { return avx512_ ? 16 : 8; } // floats per vector
    int vlen() const { return width() * 4; }       // bytes per vector

    // Vector register i (zmm or ymm). Code uses only 0..13: on AVX2 v(14)
    // holds the tail mask and v(15) the compare mask.
    asmjit::x86::Vec v(int i) const;
    asmjit::x86::Vec tail_mask() const { return v(14); }

    // A constant broadcast to a whole vector in the pool (deduplicated).
    asmjit::x86::Mem c(float value);
    asmjit::x86::Mem ci(uint32_t bits);
    // Loads a constant into a register (for instructions whose first source
    // must be a register).
    void load(const asmjit::x86::Vec &dst, float value);

    // dst = (a <pred> b) ? src : dst, with an AVX compare predicate.
    void select(const asmjit::x86::Vec &dst, const asmjit::x86::Vec &a,
            const asmjit::Operand &b, uint32_t pred,
            const asmjit::x86::Vec &src);

    // Masked tail load/store of the lanes [0, rem): AVX-512 uses k1 (set by
    // the caller's loop code), AVX2 uses tail_mask().
    void load_tail(const asmjit::x86::Vec &dst, const asmjit::x86::Mem &m);
    void store_tail(const asmjit::x86::Mem &m, const asmjit::x86::Vec &src);

    // r = the bf16 bit pattern of each f32 lane of x, in the low half of
    // the lane (high half 0): round half to even on the 16 dropped bits; a
    // NaN keeps its top bits and is made quiet (ir::f32_to_bf16). x is
    // unchanged; r, x and t are distinct. Clobbers k2 (AVX-512) or v(15).
    void bf16_bits(const asmjit::x86::Vec &r, const asmjit::x86::Vec &x,
            const asmjit::x86::Vec &t);

    // ---- 16-bit storage (bf16, or f16 when `f16`), computed in f32 --------
    // dst = the whole vector of 16-bit values at m, widened exactly (bf16
    // by a shift, f16 by F16C).
    void load_16(const asmjit::x86::Vec &dst, const asmjit::x86::Mem &m,
            bool f16);
    // dst = the one 16-bit value at m (two bytes read), widened, in every
    // lane.
    void bcast_16(const asmjit::x86::Vec &dst, const asmjit::x86::Mem &m,
            bool f16);
    // The whole vector x rounded to the 16-bit type (nearest even; a NaN
    // made quiet, as ir::f32_to_bf16 / ir::f32_to_f16) and stored at m;
    // `masked` (AVX-512 only) stores the k1 lanes. r and t are scratch,
    // distinct from x; clobbers k2 (AVX-512) or v(15) for bf16.
    void store_16(const asmjit::x86::Mem &m, const asmjit::x86::Vec &x,
            bool f16, const asmjit::x86::Vec &r, const asmjit::x86::Vec &t,
            bool masked = false);

    // ---- vector math; `x` is left unchanged unless it is also `y` -------
    // y = e^x. If rq is valid it receives r*Q(r), which equals e^x - 1
    // without cancellation when |x| < ~0.3465 (then n = 0 and r = x).
    void exp(const asmjit::x86::Vec &y, const asmjit::x86::Vec &x,
            const asmjit::x86::Vec &t1, const asmjit::x86::Vec &t2,
            const asmjit::x86::Vec *rq = nullptr);
    // y = erfc(z) for az = |z| >= 0, where z = s*sqrt(k) (k = 1 or 0.5):
    // the exponent -k*s^2 is formed exactly from s (FMA split) because
    // e^(-z^2) would amplify its rounding by z^2. az is clobbered.
    void erfc_pos(const asmjit::x86::Vec &y, const asmjit::x86::Vec &az,
            const asmjit::x86::Vec &s, float k, const asmjit::x86::Vec &t1,
            const asmjit::x86::Vec &t2, const asmjit::x86::Vec &t3,
            const asmjit::x86::Vec &t4);
    // y = tanh(x); needs four temporaries.
    void tanh(const asmjit::x86::Vec &y, const asmjit::x86::Vec &x,
            const asmjit::x86::Vec &t1, const asmjit::x86::Vec &t2,
            const asmjit::x86::Vec &t3, const asmjit::x86::Vec &t4);

    // y = ln(x) for normal x >= 0 (plus 0 -> -inf, +inf, NaN and x < 0 ->
    // NaN); subnormal x are not handled. Needs three temporaries.
    void log(const asmjit::x86::Vec &y, const asmjit::x86::Vec &x,
            const asmjit::x86::Vec &t1, const asmjit::x86::Vec &t2,
            const asmjit::x86::Vec &t3);

    // ---- composite activations, shared by the elementwise kernels and the
    // GEMM epilogue; `x` is left unchanged, the result is in `y` -------
    // y = 1 / (1 + e^-x); three temporaries.
    void sigmoid(const asmjit::x86::Vec &y, const asmjit::x86::Vec &x,
            const asmjit::x86::Vec &t1, const asmjit::x86::Vec &t2,
            const asmjit::x86::Vec &t3);
    // y = 0.5x(1 + tanh g), g = sqrt(2/pi)(x + 0.044715x^3), computed as
    // x / (1 + e^-2g) (no cancellation in the negative tail); three
    // temporaries.
    void gelu_tanh(const asmjit::x86::Vec &y, const asmjit::x86::Vec &x,
            const asmjit::x86::Vec &t1, const asmjit::x86::Vec &t2,
            const asmjit::x86::Vec &t3);
    // y = 0.5x(1 + erf(x / sqrt 2)), through erfc of |x| / sqrt 2; five
    // temporaries.
    void gelu_erf(const asmjit::x86::Vec &y, const asmjit::x86::Vec &x,
            const asmjit::x86::Vec &t1, const asmjit::x86::Vec &t2,
            const asmjit::x86::Vec &t3, const asmjit::x86::Vec &t4,
            const asmjit::x86::Vec &t5);
    // y = x > 0 ? x : alpha (e^x - 1), with expm1 near 0; three
    // temporaries.
    void elu(const asmjit::x86::Vec &y, const asmjit::x86::Vec &x,
            float alpha, const asmjit::x86::Vec &t1,
            const asmjit::x86::Vec &t2, const asmjit::x86::Vec &t3);

    // Appends the constant pool; call once after the function's ret.
    void emit_pool();

private:
    asmjit::x86::Assembler &a_;
    bool avx512_;
    asmjit::Label pool_;
    std::vector<uint32_t> consts_;
};

// Predicates of vcmpps that keep NaN semantics explicit.
constexpr uint32_t k_cmp_eq = 0x00;    // EQ_OQ: false for NaN
constexpr uint32_t k_cmp_lt = 0x01;    // LT_OS: false for NaN
constexpr uint32_t k_cmp_unord = 0x03; // UNORD_Q: true if either is NaN
constexpr uint32_t k_cmp_ord = 0x07;   // ORD_Q: true unless either is NaN
constexpr uint32_t k_cmp_ge = 0x0d;    // GE_OS: false for NaN
constexpr uint32_t k_cmp_gt = 0x0e;    // GT_OS: false for NaN

} // namespace eltwise
} // namespace cpu
} // namespace llga
