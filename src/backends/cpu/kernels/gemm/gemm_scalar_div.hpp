// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/gemm/gemm_scalar_div.hpp — a post-op chain's
// divisions by a scalar operand, run as multiplications by the reciprocal
// on the calls whose divisor allows that exactly. asmjit-free.
#pragma once

#include <cstdint>

#include "backends/cpu/kernels/gemm/gemm_postops.hpp"

namespace llga {
namespace cpu {
namespace gemm {

// vdivps is slow next to the tile's FMAs (about one ymm per 3.5 cycles on
// Zen 3 and one zmm per 16 on Sapphire Rapids, against two FMA vectors per
// cycle), and the divisor of an attention block, the square root of the
// head size, is often a power of two (8 for 64). For c = ±2^e whose
// reciprocal is a normal number, x / c and x * (1 / c) are the same
// correctly rounded value for every x, infinities, NaN and signed zeros
// included. So a caller builds a twin GEMM whose chain multiplies where
// this one divides and, per call, runs the twin when take() finds every
// divisor such a power: bit for bit the same result, without the divides.
class scalar_div_twin_t {
public:
    scalar_div_twin_t() = default;
    // Finds the divisions by a scalar f32 or bf16 operand in `post`.
    explicit scalar_div_twin_t(const postops_t &post);
    bool any() const { return n_ > 0; }
    // `post` with those divisions made multiplications.
    postops_t twin(const postops_t &post) const;
    // A GEMM descriptor (f32 or int8) with its chain made the twin.
    template <typename desc_type>
    desc_type twin_of(desc_type d) const {
        d.post = twin(d.post);
        return d;
    }

    // The reciprocals of one call, in their operands' types.
    struct recips_t {
        uint32_t v[k_max_po_operands];
    };
    // po: one call's operand pointers in chain order (as gemm_t::execute
    // takes them; each divisor one value for the whole call). When every
    // divisor is ±2^e with a normal reciprocal, stores the reciprocals in
    // r, points po at them and returns true; otherwise leaves po alone.
    bool take(const void **po, recips_t &r) const;

private:
    int n_ = 0;
    int operand_[k_max_po_operands] = {}; // among the operand-taking ops
    int op_[k_max_po_operands] = {};      // index in postops_t::ops
    po_dt_t dt_[k_max_po_operands] = {};
};

// 1 / c when c = ±2^e and 1 / c is a normal f32 (then exact), else 0.
float exact_reciprocal(float c);

} // namespace gemm
} // namespace cpu
} // namespace llga
