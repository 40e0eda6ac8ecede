// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/pool/pool_int8_tail.cpp — the per-element tail of the
// quantized max pooling (see pool_int8_tail.hpp).
#include "backends/cpu/kernels/pool/pool_int8_tail_p.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <immintrin.h>

#include "backends/cpu/kernels/common/int8_quant_params.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "ops/registry.hpp"

namespace llga {
namespace cpu {
namespace pool_int8 {

namespace {

// A byte operand row dequantized as the reference's Dequantize computes
// it, (q - zp) * scale in f32.
template <typename Q>
void dequantize_into(const Q *q, int64_t W, int64_t ys, float zp, float scale,
        float *v) {
    for (int64_t w = 0; w < W; ++w)
        v[w] = (static_cast<float>(q[w * ys]) - zp) * scale;
}

// x = a op b over a row (a, b: the op's inputs in its order, so a NaN's
// payload comes from the same side as in the reference).
template <typename F>
void binary_row(float *x, const float *a, const float *b, int64_t W, F op) {
    for (int64_t w = 0; w < W; ++w)
        x[w] = op(a[w], b[w]);
}

} // namespace

bool read_tail_op(const ir::op_t &op, int slot,
        const logical_tensor_t *operand, const ir::op_t *dq, tail_op_t &t,
        std::string *why) {
    t.slot = slot;
    t.binary = operand != nullptr;
    switch (op.kind) {
        case dnnl_graph_op_add: t.kind = tail_kind_t::add; break;
        case dnnl_graph_op_subtract: t.kind = tail_kind_t::sub; break;
        case dnnl_graph_op_multiply: t.kind = tail_kind_t::mul; break;
        case dnnl_graph_op_divide: t.kind = tail_kind_t::div; break;
        case dnnl_graph_op_maximum: t.kind = tail_kind_t::max; break;
        case dnnl_graph_op_minimum: t.kind = tail_kind_t::min; break;
        case dnnl_graph_op_relu: t.kind = tail_kind_t::relu; break;
        case dnnl_graph_op_clamp:
            t.kind = tail_kind_t::clamp;
            t.lo = op.get_f32(dnnl_graph_op_attr_min, 0.f);
            t.hi = op.get_f32(dnnl_graph_op_attr_max, 0.f);
            break;
        case dnnl_graph_op_quantize: {
            common::qparams_t q;
            if (!common::read_qparams(op, q, why)) return false;
            if (q.axis >= 0 || (op.outputs[0].data_type != dnnl_u8
                                       && op.outputs[0].data_type != dnnl_s8))
                return decline(why, "quantized pool: the Quantize after a "
                                    "residual is not per-tensor u8/s8");
            t.kind = tail_kind_t::quantize;
            t.q_scale = 1.f / q.scales[0]; // the reference's multiplier
            t.q_zp = static_cast<float>(q.zp);
            return true;
        }
        default:
            return decline(why, std::string("quantized pool: ")
                            + ops::op_kind_name(op.kind)
                            + " after a residual operand");
    }
    if (operand) {
        const data_type_t odt = operand->data_type;
        t.operand_dt = odt;
        if (dq) {
            common::qparams_t q;
            if (!common::read_qparams(*dq, q, why)) return false;
            t.q_scale = q.scales[0];
            t.q_zp = static_cast<float>(q.zp);
            if (odt != dnnl_u8 && odt != dnnl_s8)
                return decline(why, "quantized pool: a residual is not u8/s8");
        } else if (odt != dnnl_f32) {
            return decline(why, "quantized pool: a residual is not f32");
        }
    }
    if (op.outputs[0].data_type != dnnl_f32)
        return decline(why, "quantized pool: a value after a residual is "
                            "not f32");
    return true;
}


void operand_row(const tail_op_t &t, const char *y, int64_t W, int64_t ys,
        float *v) {
    switch (t.operand_dt) {
        case dnnl_u8:
            dequantize_into(reinterpret_cast<const uint8_t *>(y), W, ys,
                    t.q_zp, t.q_scale, v);
            break;
        case dnnl_s8:
            dequantize_into(reinterpret_cast<const int8_t *>(y), W, ys,
                    t.q_zp, t.q_scale, v);
            break;
        default: {
            const float *p = reinterpret_cast<const float *>(y);
            for (int64_t w = 0; w < W; ++w)
                v[w] = p[w * ys];
        }
    }
}

// f = op(f) for one row of W values; a binary op's operand values in v.
void tail_step(const tail_op_t &t, float *f, const float *v, int64_t W) {
    const float *a = t.slot == 0 ? f : v, *b = t.slot == 0 ? v : f;
    const float nan = std::numeric_limits<float>::quiet_NaN();
    switch (t.kind) {
        case tail_kind_t::add:
            binary_row(f, a, b, W, [](float p, float q) { return p + q; });
            break;
        case tail_kind_t::sub:
            binary_row(f, a, b, W, [](float p, float q) { return p - q; });
            break;
        case tail_kind_t::mul:
            binary_row(f, a, b, W, [](float p, float q) { return p * q; });
            break;
        case tail_kind_t::div:
            binary_row(f, a, b, W, [](float p, float q) { return p / q; });
            break;
        case tail_kind_t::max:
            binary_row(f, a, b, W, [nan](float p, float q) {
                return p != p || q != q ? nan : (p > q ? p : q);
            });
            break;
        case tail_kind_t::min:
            binary_row(f, a, b, W, [nan](float p, float q) {
                return p != p || q != q ? nan : (p < q ? p : q);
            });
            break;
        case tail_kind_t::relu:
            for (int64_t w = 0; w < W; ++w)
                f[w] = f[w] < 0.f ? 0.f : f[w];
            break;
        case tail_kind_t::clamp:
            for (int64_t w = 0; w < W; ++w) {
                const float u = f[w] < t.lo ? t.lo : f[w];
                f[w] = u > t.hi ? t.hi : u;
            }
            break;
        case tail_kind_t::quantize: break; // quantize_row
    }
}

// The Quantize: q = x * (1/scale) + zp in f32 (two roundings, as the
// reference), NaN -> 0, saturated, rounded half to even; `ys` bytes apart.
__attribute__((target("avx2"))) void quantize_row(const tail_op_t &t,
        const float *f, int64_t W, bool s8, uint8_t *y, int64_t ys) {
    const float lo = s8 ? -128.f : 0.f, hi = s8 ? 127.f : 255.f;
    int64_t w = 0;
    if (ys == 1) {
        const __m256 mul = _mm256_set1_ps(t.q_scale), zp = _mm256_set1_ps(t.q_zp),
                     vlo = _mm256_set1_ps(lo), vhi = _mm256_set1_ps(hi);
        for (; w + 8 <= W; w += 8) {
            __m256 v = _mm256_add_ps(_mm256_mul_ps(_mm256_loadu_ps(f + w), mul), zp);
            v = _mm256_andnot_ps(_mm256_cmp_ps(v, v, _CMP_UNORD_Q), v); // NaN -> 0
            v = _mm256_min_ps(_mm256_max_ps(v, vlo), vhi);
            const __m256i q = _mm256_cvtps_epi32(v); // nearest even (MXCSR)
            const __m128i w16 = _mm_packs_epi32(_mm256_castsi256_si128(q),
                    _mm256_extracti128_si256(q, 1));
            const __m128i b = s8 ? _mm_packs_epi16(w16, w16)
                                 : _mm_packus_epi16(w16, w16);
            _mm_storel_epi64(reinterpret_cast<__m128i *>(y + w), b);
        }
    }
    for (; w < W; ++w) {
        float v = f[w] * t.q_scale + t.q_zp;
        v = v != v ? 0.f : std::min(hi, std::max(lo, v));
        const int q = static_cast<int>(std::nearbyint(v));
        y[w * ys] = static_cast<uint8_t>(q);
    }
}

} // namespace pool_int8
} // namespace cpu
} // namespace llga
