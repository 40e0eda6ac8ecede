// SPDX-License-Identifier: Apache-2.0
// ops/ref_util.cpp — the out-of-line parts of the reference memory view:
// strided runs of loads with the dtype dispatch done once per run.
#include "ops/ref_util.hpp"

#include <cstdint>

namespace llga {
namespace ops {

namespace {
template <typename T>
void load_plain(const void *base, int64_t off, int64_t stride, int64_t n,
        double *out) {
    const T *p = static_cast<const T *>(base) + off;
    for (int64_t i = 0; i < n; ++i)
        out[i] = static_cast<double>(p[i * stride]);
}
} // namespace

void view_t::load_run(
        int64_t off, int64_t stride, int64_t n, double *out) const {
    // f32 under a non-strict fpmath mode rounds every load: the generic path.
    const bool plain_f32 = dt == dnnl_f32 && fpmath == dnnl_fpmath_mode_strict;
    if (plain_f32) return load_plain<float>(cdata, off, stride, n, out);
    switch (dt) {
        case dnnl_s8: return load_plain<int8_t>(cdata, off, stride, n, out);
        case dnnl_u8: return load_plain<uint8_t>(cdata, off, stride, n, out);
        case dnnl_s32: return load_plain<int32_t>(cdata, off, stride, n, out);
        case dnnl_bf16: {
            const uint16_t *p = static_cast<const uint16_t *>(cdata) + off;
            for (int64_t i = 0; i < n; ++i)
                out[i] = ir::bf16_to_f32(p[i * stride]);
            return;
        }
        case dnnl_f16: {
            const uint16_t *p = static_cast<const uint16_t *>(cdata) + off;
            for (int64_t i = 0; i < n; ++i)
                out[i] = ir::f16_to_f32(p[i * stride]);
            return;
        }
        default:
            for (int64_t i = 0; i < n; ++i)
                out[i] = at_offset(off + i * stride);
    }
}

} // namespace ops
} // namespace llga
