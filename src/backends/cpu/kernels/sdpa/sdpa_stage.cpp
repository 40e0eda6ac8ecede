// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/sdpa/sdpa_stage.cpp — staging of the SDPA kernel's heads
// into f32 and the value steps applied to its rows (see sdpa_stage.hpp).
#include "backends/cpu/kernels/sdpa/sdpa_stage_p.hpp"

#include <algorithm>

#include "backends/cpu/kernels/common/convert_rows.hpp"
#include "ir/dtype.hpp"

namespace llga {
namespace cpu {
namespace sdpa {

namespace {

// (q - zp) * scale with one scale (and zero point) per group: a row of the
// copy runs along the source's rows (dim -2) when `rows_are_r`, else along
// its columns, and the parameters change every group along it.
void dynamic_dequantize(const head_t &h, const dyn_params_t &p,
        const void *src, int64_t rows, int64_t cols, int64_t rs, int64_t cs,
        bool rows_are_r, float *dst) {
    const int64_t g_row = rows_are_r ? h.g_r : h.g_c;
    const int64_t g_col = rows_are_r ? h.g_c : h.g_r;
    const int64_t s_row = rows_are_r ? h.sc_rs : h.sc_cs;
    const int64_t s_col = rows_are_r ? h.sc_cs : h.sc_rs;
    const int64_t z_row = rows_are_r ? h.zp_rs : h.zp_cs;
    const int64_t z_col = rows_are_r ? h.zp_cs : h.zp_rs;
    for (int64_t r = 0; r < rows; ++r) {
        float *d = dst + r * cols;
        common::dequantize_matrix(static_cast<const char *>(src) + r * rs, h.dt, 1,
                cols, 0, cs, 1.f, 0.f, d);
        for (int64_t c0 = 0; c0 < cols; c0 += g_col) {
            const int64_t gi = r / g_row * s_row + c0 / g_col * s_col;
            const float scale
                    = static_cast<float>(ir::load_value(h.sc_dt, p.sc, gi));
            const float zp = p.zp
                    ? static_cast<float>(ir::load_value(h.zp_dt, p.zp,
                            r / g_row * z_row + c0 / g_col * z_col))
                    : 0.f;
            for (int64_t c = c0; c < std::min(cols, c0 + g_col); ++c)
                d[c] = (d[c] - zp) * scale;
        }
    }
}

} // namespace

void stage(const head_t &h, const void *src, int64_t rows, int64_t cols,
        int64_t rs, int64_t cs, float *dst, const dyn_params_t &p,
        bool rows_are_r) {
    if (h.ddq)
        dynamic_dequantize(h, p, src, rows, cols, rs, cs, rows_are_r, dst);
    else if (h.dq)
        common::dequantize_matrix(src, h.dt, rows, cols, rs, cs, h.scale, h.zp, dst);
    else
        common::widen_matrix(src, h.dt, rows, cols, rs, cs, dst);
    if (h.round_dt != dnnl_f32) common::round_row(dst, rows * cols, h.round_dt);
}

// The value steps of the probabilities or the output tail on n values.
void apply_value_ops(const std::vector<value_op_t> &ops, float *x, int64_t n) {
    for (const value_op_t &v : ops)
        switch (v.kind) {
            case value_op_t::kind_t::round: common::round_row(x, n, v.dt); break;
            case value_op_t::kind_t::quantize:
                common::quantize_row(x, n, v.dt, v.scale, v.zp);
                break;
            case value_op_t::kind_t::dequantize:
                for (int64_t j = 0; j < n; ++j)
                    x[j] = (x[j] - v.zp) * v.scale;
                break;
        }
}

void staging_t::plan(const head_t &head, int64_t K, int64_t N, int64_t ks, int64_t ns) {
    h = head;
    on = !head.plain_f32();
    if (ns == 1 && ks != 1) { // rows along k, columns n contiguous
        rows = K, cols = N, rs = ks, cs = 1;
        sbk = N, sbn = 1;
        rows_are_r = !head.k_is_last;
    } else { // rows along n, columns k
        rows = N, cols = K, rs = ns, cs = ks;
        sbk = 1, sbn = K;
        rows_are_r = head.k_is_last;
    }
}

} // namespace sdpa
} // namespace cpu
} // namespace llga
