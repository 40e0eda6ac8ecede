// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/gemm/gemm_narrow.cpp — the narrow-N path of gemm_t:
// GEMMs of at most k_narrow_max_n columns (a matrix times one or a few
// vectors: scoring heads, squeeze-excitation 1x1 convolutions on one
// pixel) as dot products along k. The tile kernels would spend a whole
// register tile (16 or 32 columns) on each row panel for one or two
// useful columns, with a masked store per row. Here each A row is read
// once, k contiguous, by the dot-product kernel (up to 8 rows against one
// column of B per call), and the sums of up to 8 rows go through the
// regular tile kernels with k = 0 for bias, post-ops and the store.
// The regular path's last strip of one column uses the same dot products
// per row panel and K block (tail_dots). See the "Narrow N" section of
// docs/cpu-matmul.md.
#include <algorithm>
#include <cstring>

#include "backends/cpu/kernels/gemm/gemm_driver.hpp"
#include "backends/cpu/kernels/gemm/gemm_driver_impl_p.hpp"

namespace llga {
namespace cpu {
namespace gemm {

using namespace detail;

bool gemm_t::narrow_fits(const gemm_desc_t &d) {
    static const int64_t max_n = std::min<int64_t>(k_dot_max_cols,
            env_int(knob_t::gemm_narrow_max_n, k_narrow_max_n));
    return d.M > 0 && d.N >= 1 && d.N <= max_n && d.K > 0 && d.sak == 1;
}

status_t gemm_t::init_narrow(int nthreads) {
    narrow_ = true;
    // AMX has no narrow tiles: its hosts run the AVX512-BF16 kernels.
    if (d_.kind == ukr_kind_t::bf16_amx) {
        d_.kind = ukr_kind_t::bf16_avx512;
        s_ = ukr_shape(d_.kind);
    }
    const int64_t want = nthreads > 1 ? nthreads * k_tasks_per_thread : 1;
    // Row blocks of whole 8-row groups, enough of them for the threads
    // (batches count as blocks too).
    const int64_t blocks = std::max<int64_t>(1, div_up(want, nbatch_));
    mc_ = round_up(div_up(d_.M, blocks), k_dot_max_cols);
    mblocks_ = div_up(d_.M, mc_);
    nc_ = d_.N;
    nblocks_ = 1;
    kc_ = d_.K;
    const dot_order_t order = dot_order_for(d_.K * ukr_in_bytes(d_.kind));
    for (int nn = 1; nn <= k_dot_max_cols; ++nn)
        LLGA_RETURN_IF_ERROR(
                get_dot_kernel(d_.kind, nn, order, &dfns_[nn - 1]));
    for (int m = 1; m <= s_.mr; ++m)
        LLGA_RETURN_IF_ERROR(get_ukernel(d_.kind, m, 1, d_.dst_bf16, d_.post,
                &fns_[m - 1][0]));
    return dnnl_success;
}

void gemm_t::gather_tail(const char *strip, int64_t kc, int64_t cols,
        char *out) const {
    const int nr = s_.nr;
    if (s_.kpack == 2) { // pair-rows: (k, c) at [(k / 2) * nr + c] * 2 + k % 2
        const uint16_t *p = reinterpret_cast<const uint16_t *>(strip);
        uint16_t *o = reinterpret_cast<uint16_t *>(out);
        for (int64_t c = 0; c < cols; ++c)
            for (int64_t k = 0; k < kc; ++k)
                o[c * kc + k] = p[((k / 2) * nr + c) * 2 + k % 2];
        return;
    }
    const float *p = reinterpret_cast<const float *>(strip);
    float *o = reinterpret_cast<float *>(out);
    for (int64_t c = 0; c < cols; ++c)
        for (int64_t k = 0; k < kc; ++k)
            o[c * kc + k] = p[k * nr + c];
}

void gemm_t::add_dots(const char *arows, int rows, const char *xcol,
        int64_t col_step, int64_t cols, int64_t k, float (*sums)[16]) const {
    const int W = s_.width;
    const int64_t es_in = s_.kpack == 2 ? 2 : 4;
    alignas(64) float col_sums[k_dot_max_cols];
    const int ktail = static_cast<int>(k % W);
    ukr_args_t dot;
    std::memset(&dot, 0, sizeof(dot));
    dot.ldb = d_.sam * es_in;
    dot.k = k;
    set_tail_lanes(dot, ktail);
    dot.acc = col_sums;
    for (int r0 = 0; r0 < rows; r0 += k_dot_max_cols) {
        const int nn = std::min(k_dot_max_cols, rows - r0);
        dot.b = arows + r0 * d_.sam * es_in;
        for (int64_t c = 0; c < cols; ++c) {
            dot.a = xcol + c * col_step;
            dfns_[nn - 1](&dot);
            for (int r = 0; r < nn; ++r)
                sums[r0 + r][c] += col_sums[r];
        }
    }
}

void gemm_t::finish_sums(float (*sums)[16], int rows, int64_t cols,
        const float *bias, char *dst, int64_t task,
        const void *const *po_args, int64_t row, int64_t col) const {
    const int64_t es_d = dst_es();
    postop_ptr_t pot[k_max_po_operands];
    ukr_args_t ep;
    std::memset(&ep, 0, sizeof(ep));
    ep.po = pot;
    ep.ldacc = sizeof(sums[0]);
    ep.ldd = d_.sdm * es_d;
    ep.flags = k_ukr_accumulate | k_ukr_last;
    ep.bias = bias;
    if (bias) ep.flags |= k_ukr_bias;
    set_tail_lanes(ep, cols);
    for (int r0 = 0; r0 < rows; r0 += s_.mr) {
        const int er = std::min(s_.mr, rows - r0);
        ep.acc = sums[r0];
        ep.dst = dst + r0 * d_.sdm * es_d;
        if (d_.post.operand_count() > 0)
            po_table(task, po_args, row + r0, col, pot);
        fns_[er - 1][0](&ep);
    }
}

void gemm_t::tail_dots(const tail_dot_t &t, int64_t task, int64_t panel,
        const char *arows, int rows, bool first, bool last, const float *bias,
        char *dst, const void *const *po_args, int64_t row, int64_t col) const {
    const int64_t es_in = s_.kpack == 2 ? 2 : 4;
    float(*sums)[16] = reinterpret_cast<float(*)[16]>(t.sums + panel * s_.mr * 16);
    if (first) std::memset(sums, 0, sizeof(float) * 16 * s_.mr);
    add_dots(arows, rows, t.xt, t.kc * es_in, t.cols, t.kc, sums);
    if (last)
        finish_sums(sums, rows, t.cols, bias, dst, task, po_args, row, col);
}

size_t gemm_t::narrow_packed_bytes() const {
    const int64_t es = s_.kpack == 2 ? 2 : 4;
    return static_cast<size_t>(round_up(d_.N * d_.K * es, 64));
}

void gemm_t::gather_columns(const void *b, int64_t k, void *out) const {
    const int64_t es = s_.kpack == 2 ? 2 : 4;
    const char *src = static_cast<const char *>(b);
    char *o = static_cast<char *>(out);
    for (int64_t c = 0; c < d_.N; ++c)
        for (int64_t i = 0; i < k; ++i)
            std::memcpy(o + (c * d_.K + i) * es,
                    src + (i * d_.sbk + c * d_.sbn) * es, es);
}

void gemm_t::run_task_narrow(int64_t task, const void *a, const void *b,
        const float *bias, void *dst, const void *packed_b,
        const void *const *po_args, scratch_t &sc, const extent_t &e) const {
    const gemm_desc_t &d = d_;
    const int64_t es_in = s_.kpack == 2 ? 2 : 4, es_d = dst_es();
    int64_t m0, n0, aoff, boff, doff;
    task_origin(task, &m0, &n0, &aoff, &boff, &doff);
    const int64_t rows = std::min(mc_, d.M - m0), cols = e.n;
    const char *A = static_cast<const char *>(a) + (aoff + m0 * d.sam) * es_in;
    const char *B = static_cast<const char *>(b) + boff * es_in;
    char *D = static_cast<char *>(dst) + (doff + m0 * d.sdm) * es_d;

    // The columns of B as contiguous k runs: prepacked, in place when k
    // is contiguous, else gathered by each task (a few K-value columns,
    // little beside its rows of A).
    const char *cols_base = static_cast<const char *>(packed_b);
    int64_t col_step = d.K * es_in;
    if (!packed_b && d.sbk == 1) {
        cols_base = B;
        col_step = d.sbn * es_in;
    } else if (!packed_b) {
        char *xs = static_cast<char *>(sc.b.get(narrow_packed_bytes()));
        gather_columns(B, e.k, xs);
        cols_base = xs;
    }
    // Sums of one 8-row group, one vector per row (the columns past `cols`
    // zero), which the epilogue reads as earlier partial sums.
    alignas(64) float sums[k_dot_max_cols][16];
    for (int64_t g0 = 0; g0 < rows; g0 += k_dot_max_cols) {
        const int nn = static_cast<int>(
                std::min<int64_t>(k_dot_max_cols, rows - g0));
        std::memset(sums, 0, sizeof(sums));
        add_dots(A + g0 * d.sam * es_in, nn, cols_base, col_step, cols, e.k,
                sums);
        finish_sums(sums, nn, cols, bias, D + g0 * d.sdm * es_d, task,
                po_args, m0 + g0, 0);
    }
}

} // namespace gemm
} // namespace cpu
} // namespace llga
