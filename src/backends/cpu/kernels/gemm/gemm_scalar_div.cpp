// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/gemm/gemm_scalar_div.cpp — finding a chain's
// divisions by a scalar, its multiplying twin, and the per-call test of
// the divisors (see gemm_scalar_div.hpp).
#include "backends/cpu/kernels/gemm/gemm_scalar_div.hpp"

#include <cmath>
#include <cstring>

namespace llga {
namespace cpu {
namespace gemm {

scalar_div_twin_t::scalar_div_twin_t(const postops_t &post) {
    int operand = 0;
    for (size_t i = 0; i < post.ops.size(); ++i) {
        const postop_t &op = post.ops[i];
        if (!op.has_operand()) continue;
        if (op.kind == postop_kind_t::binary && op.op == po_binary_t::div
                && op.bcast == po_bcast_t::scalar
                && (op.src_dt == po_dt_t::f32 || op.src_dt == po_dt_t::bf16)) {
            op_[n_] = static_cast<int>(i);
            operand_[n_] = operand;
            dt_[n_] = op.src_dt;
            ++n_;
        }
        ++operand;
    }
}

postops_t scalar_div_twin_t::twin(const postops_t &post) const {
    postops_t t = post;
    for (int k = 0; k < n_; ++k)
        t.ops[static_cast<size_t>(op_[k])].op = po_binary_t::mul;
    return t;
}

float exact_reciprocal(float c) {
    if (!std::isfinite(c) || c == 0.f) return 0.f;
    int e = 0;
    const float m = std::frexp(c, &e); // c = m 2^e, 0.5 <= |m| < 1
    if (m != 0.5f && m != -0.5f) return 0.f;
    const float r = std::ldexp(m > 0.f ? 2.f : -2.f, -e); // ±2^(1 - e)
    return std::isnormal(r) ? r : 0.f;
}

bool scalar_div_twin_t::take(const void **po, recips_t &r) const {
    for (int k = 0; k < n_; ++k) {
        const void *p = po[operand_[k]];
        uint32_t bits = 0;
        if (dt_[k] == po_dt_t::f32) {
            std::memcpy(&bits, p, 4);
        } else {
            uint16_t h;
            std::memcpy(&h, p, 2);
            bits = uint32_t(h) << 16; // bf16 widens exactly
        }
        float c;
        std::memcpy(&c, &bits, 4);
        const float rc = exact_reciprocal(c);
        if (rc == 0.f) return false;
        std::memcpy(&bits, &rc, 4);
        // A power of two has no significand bits: its bf16 is its top
        // half (the low half of the word, which is what a 2-byte read of
        // it sees on x86).
        r.v[k] = dt_[k] == po_dt_t::f32 ? bits : bits >> 16;
    }
    for (int k = 0; k < n_; ++k)
        po[operand_[k]] = &r.v[k];
    return true;
}

} // namespace gemm
} // namespace cpu
} // namespace llga
