// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/quant/quant_scalar.cpp — the quantization family's
// conversions in plain C++, with the same convert_fn_t signature as the
// generated ones (quant.hpp): TypeCast with an f16 side through F16C
// (the reference's bits, see cast() below), and Quantize / Dequantize
// between f32
// and the two 8-bit floats (f8_e4m3, f8_e5m2). Exact against the reference
// by construction:
// - dequantize: the 256 values of the f8 type are tabulated with the
//   reference's own decoder, then (v - zp) * scale in f32;
// - quantize: x * (1/scale) + zp in f32, then the reference's encoder,
//   which rounds to f16 first and looks at nothing but that f16, so it is
//   tabulated over all 65536 f16 values and indexed by ir::f32_to_f16.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "backends/cpu/kernels/common/convert_rows.hpp"
#include "backends/cpu/kernels/quant/quant.hpp"
#include "base/status.hpp"
#include "ir/dtype.hpp"

namespace llga {
namespace cpu {
namespace quant {

namespace {

struct f8_tables_t {
    std::array<float, 256> decode;
    std::vector<uint8_t> encode; // by f16 bit pattern
};

const f8_tables_t &tables(data_type_t dt) {
    auto build = [](bool e4m3) {
        f8_tables_t t;
        for (int v = 0; v < 256; ++v)
            t.decode[static_cast<size_t>(v)] = e4m3
                    ? ir::f8_e4m3_to_f32(static_cast<uint8_t>(v))
                    : ir::f8_e5m2_to_f32(static_cast<uint8_t>(v));
        t.encode.resize(65536);
        for (uint32_t h = 0; h < 65536; ++h) {
            const float x = ir::f16_to_f32(static_cast<uint16_t>(h));
            t.encode[h] = e4m3 ? ir::f32_to_f8_e4m3(x) : ir::f32_to_f8_e5m2(x);
        }
        return t;
    };
    static const f8_tables_t e4m3 = build(true), e5m2 = build(false);
    return dt == dnnl_f8_e4m3 ? e4m3 : e5m2;
}

// `Vec`: one mul/zp per element (params_t::vector), else one for all.
template <data_type_t Dt, bool Vec>
void quantize_f8(const void *src, void *dst, size_t n, const float *mul,
        const float *zp) {
    const uint8_t *enc = tables(Dt).encode.data();
    const float *x = static_cast<const float *>(src);
    uint8_t *q = static_cast<uint8_t *>(dst);
    // In blocks: the scaled values, rounded to f16 by F16C (the bits of
    // ir::f32_to_f16, NaNs included, see cast() below; one at a time in
    // software it was two thirds of a quantized f8 convolution), then
    // encoded through the table.
    constexpr size_t k_block = 256;
    float y[k_block];
    uint16_t h[k_block];
    for (size_t i0 = 0; i0 < n; i0 += k_block) {
        const size_t m = std::min(k_block, n - i0);
        for (size_t j = 0; j < m; ++j)
            y[j] = x[i0 + j] * mul[Vec ? i0 + j : 0] + zp[Vec ? i0 + j : 0];
        common::narrow_row(y, static_cast<int64_t>(m), h, dnnl_f16);
        for (size_t j = 0; j < m; ++j)
            q[i0 + j] = enc[h[j]];
    }
}

// TypeCast as the reference does it: the source value widened to f32 (exact
// for bf16 and f16), then rounded to the destination type, with the
// vectorised AVX2/F16C conversions of sdpa_convert (same bits: F16C's
// f16 -> f32 quiets a signalling NaN (bit 22) as the reference's widening
// through double does, and its rounding gives ir::f32_to_f16's bits, NaNs
// included; CpuQuant.TypeCastF16MatchesReference checks every f16 pattern).
// f16 -> f32 one element at a time took 4x as long as bf16 -> f32.
template <conv_t C>
void cast(const void *src, void *dst, size_t n, const float *, const float *) {
    const int64_t len = static_cast<int64_t>(n);
    if (C == conv_t::f32_to_f16) {
        common::narrow_row(static_cast<const float *>(src), len, dst, dnnl_f16);
    } else if (C == conv_t::f16_to_f32) {
        common::widen_matrix(src, dnnl_f16, 1, len, 0, 1, static_cast<float *>(dst));
    } else {
        // bf16 <-> f16 through f32 blocks on the stack.
        const data_type_t from = C == conv_t::bf16_to_f16 ? dnnl_bf16 : dnnl_f16;
        const data_type_t to = C == conv_t::bf16_to_f16 ? dnnl_f16 : dnnl_bf16;
        const uint16_t *h = static_cast<const uint16_t *>(src);
        uint16_t *o = static_cast<uint16_t *>(dst);
        float blk[256];
        for (int64_t i = 0; i < len; i += 256) {
            const int64_t m = std::min<int64_t>(256, len - i);
            common::widen_matrix(h + i, from, 1, m, 0, 1, blk);
            common::narrow_row(blk, m, o + i, to);
        }
    }
}

template <data_type_t Dt, bool Vec>
void dequantize_f8(const void *src, void *dst, size_t n, const float *mul,
        const float *zp) {
    const float *dec = tables(Dt).decode.data();
    const uint8_t *q = static_cast<const uint8_t *>(src);
    float *y = static_cast<float *>(dst);
    for (size_t i = 0; i < n; ++i)
        y[i] = (dec[q[i]] - zp[Vec ? i : 0]) * mul[Vec ? i : 0];
}

} // namespace

status_t get_convert_scalar(conv_t conv, data_type_t qdt, params_t params,
        convert_fn_t *fn) {
    switch (conv) {
        case conv_t::f32_to_f16: *fn = cast<conv_t::f32_to_f16>; return dnnl_success;
        case conv_t::f16_to_f32: *fn = cast<conv_t::f16_to_f32>; return dnnl_success;
        case conv_t::bf16_to_f16: *fn = cast<conv_t::bf16_to_f16>; return dnnl_success;
        case conv_t::f16_to_bf16: *fn = cast<conv_t::f16_to_bf16>; return dnnl_success;
        case conv_t::quantize:
        case conv_t::dequantize: break;
        default:
            return fail(dnnl_unimplemented,
                    "cpu quant: f32 <-> bf16 casts are generated code");
    }
    const bool vec = params == params_t::vector;
    const bool e4 = qdt == dnnl_f8_e4m3;
    if (qdt != dnnl_f8_e4m3 && qdt != dnnl_f8_e5m2)
        return fail(dnnl_unimplemented, "cpu quant: %s is not an f8 type",
                ir::dtype_name(qdt));
    (void)tables(qdt); // built here, not inside a timed execution
    if (conv == conv_t::quantize)
        *fn = e4 ? (vec ? quantize_f8<dnnl_f8_e4m3, true>
                        : quantize_f8<dnnl_f8_e4m3, false>)
                 : (vec ? quantize_f8<dnnl_f8_e5m2, true>
                        : quantize_f8<dnnl_f8_e5m2, false>);
    else
        *fn = e4 ? (vec ? dequantize_f8<dnnl_f8_e4m3, true>
                        : dequantize_f8<dnnl_f8_e4m3, false>)
                 : (vec ? dequantize_f8<dnnl_f8_e5m2, true>
                        : dequantize_f8<dnnl_f8_e5m2, false>);
    return dnnl_success;
}

} // namespace quant
} // namespace cpu
} // namespace llga
