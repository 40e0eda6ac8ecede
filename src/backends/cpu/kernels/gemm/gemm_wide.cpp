// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/gemm/gemm_wide.cpp — the small-M path of gemm_t: N-split
// tasks over whole rows of B with the wide micro-kernels (B streamed in
// place in short K blocks, or prepacked as contiguous wide strips), and the
// dot-product kernels for one row against transposed B. See the "Small M"
// section of docs/cpu-matmul.md.
#include <algorithm>
#include <cstring>

#include "backends/cpu/kernels/gemm/gemm_driver.hpp"
#include "backends/cpu/kernels/gemm/gemm_driver_impl_p.hpp"
#include "backends/cpu/kernels/gemm/gemm_pack.hpp"
#include "ir/dtype.hpp"

namespace llga {
namespace cpu {
namespace gemm {

using namespace detail;

void gemm_t::init_wide(int nthreads) {
    const gemm_desc_t &d = d_;
    wide_ = true;
    const int W = s_.width;
    wm_ = static_cast<int>(std::min<int64_t>(d.M, wide_max_rows(d.kind)));
    nvw_ = static_cast<int>(std::min<int64_t>(
            wide_vectors(d.kind, wm_), div_up(d.N, W)));
    const int64_t nrw = nvw_ * W;
    const bool inplace = s_.kpack == 1 && d.sbn == 1;
    // B streamed from the user's rows on every call takes the host's
    // stream parameters; weights that will arrive prepacked keep 32-k
    // blocks and k_tasks_per_thread on every host (8-k blocks made a
    // prepacked 16 x 4096 x 4096 three times slower on Zen 3).
    const wide_stream_t &ws = wide_stream_params();
    // A single row with constant weights: where reading B in place
    // streams faster than the prepacked strips, the weights stay where
    // they are (can_prepack_b() declines).
    b_stays_ = inplace && d.b_prepacked && d.M == 1 && ws.m1_in_place;
    const bool stream = inplace && (!d.b_prepacked || b_stays_);
    const int64_t wide_kc = stream ? ws.kc : k_wide_kc_prepacked;
    if (inplace) kc_ = wide_kc > 0 ? std::min(wide_kc, d.K) : d.K;
    // bf16 B with contiguous rows is read in place (widened to f32 in
    // registers) in short K blocks like f32; prepacked, it is 32-pair blocks.
    if (s_.kpack == 2 && d.sbn == 1) kc_ = std::min<int64_t>(64, d.K);
    const int64_t strips = div_up(d.N, nrw);
    // In place, each task reads a band of B's columns top to bottom; the
    // band's width is the run length the prefetchers see per row.
    const int64_t per_thread
            = stream ? ws.tasks_per_thread : k_tasks_per_thread;
    int64_t nb = nthreads > 1
            ? std::min<int64_t>(strips, nthreads * per_thread)
            : 1;
    if (!inplace) nb = std::max(nb, div_up(d.N, k_wide_nc_pack));
    while (nbatch_ * nb < nthreads && nb < strips)
        ++nb;
    mc_ = d.M;
    mblocks_ = 1;
    nc_ = round_up(div_up(d.N, nb), nrw);
    nblocks_ = div_up(d.N, nc_);
    // B packed per call from B^T or strided rows: strip-outer (AVX2 f32,
    // where it was measured; see run_task_wide_strips).
    static const bool strips_knob = env_int(knob_t::gemm_wide_strips, 1) != 0;
    strips_outer_ = strips_knob && !inplace && d.kind == ukr_kind_t::f32_avx2;
}

bool gemm_t::wide_task(int64_t task, const void *a, const void *b,
        void *dst, const extent_t &e, wide_task_t *t) const {
    const gemm_desc_t &d = d_;
    t->es_a = s_.kpack == 2 ? 2 : 4;
    // 16-bit B of the f32 kernels (d.b16) has 2-byte elements too.
    t->es_b = d.b16 != b16_t::none ? 2 : t->es_a;
    t->es_d = dst_es();
    int64_t m0, aoff, boff, doff;
    task_origin(task, &m0, &t->n0, &aoff, &boff, &doff);
    if (t->n0 >= e.n) return false;
    t->nc = std::min(nc_, e.n - t->n0);
    t->nrw = strip_cols();
    t->nstrips = div_up(t->nc, t->nrw);
    t->A = static_cast<const char *>(a) + aoff * t->es_a;
    t->B = static_cast<const char *>(b) + (boff + t->n0 * d.sbn) * t->es_b;
    t->D = static_cast<char *>(dst) + (doff + t->n0) * t->es_d;
    return true;
}

void gemm_t::run_task_wide(int64_t task, const void *a, const void *b,
        const float *bias, void *dst, const void *packed_b,
        const void *const *po_args, scratch_t &sc, const extent_t &e) const {
    if (dot_ && !packed_b) {
        run_task_dot(task, a, b, bias, dst, po_args, sc, e);
        return;
    }
    if (strips_outer_ && !packed_b) {
        run_task_wide_strips(task, a, b, bias, dst, po_args, sc, e);
        return;
    }
    const gemm_desc_t &d = d_;
    const int W = s_.width;
    const bool bf16 = s_.kpack == 2;
    wide_task_t t;
    if (!wide_task(task, a, b, dst, e, &t)) return;
    const int64_t es_in = t.es_a, es_d = t.es_d, es_b = t.es_b;
    const bool has_po_args = d.post.operand_count() > 0;
    postop_ptr_t pot[k_max_po_operands];
    const int64_t M = d.M, n0 = t.n0, nc = t.nc;
    const int64_t nrw = t.nrw, nstrips = t.nstrips;
    const char *A = t.A, *B = t.B;
    char *D = t.D;
    const bool inplace = !packed_b && d.sbn == 1;
    const bool cvt = inplace && bf16; // bf16 B widened in registers
    const bool multi_strip = inplace && d_.kind == ukr_kind_t::f32_avx2;
    // Partial sums of several rows kept in dst sit a row stride apart, as
    // do the B rows of a K block: with the usual power-of-two-ish strides
    // (4096 or 11008 floats) both fall into the same few L1 sets and evict
    // each other every strip. A scratch block with rows k_wide_acc_pad
    // bytes off the strip width spreads them (16 x 4096 x 4096 on Zen 3,
    // 1 thread, alternating: 22.7 -> 10-11 ms). Measured on the AVX2
    // kernels only.
    const bool pad_acc = multi_strip && M > 1 && e.k > kc_;
    char *acc = D;
    int64_t ldacc = d.sdm * 4;
    if (acc_in_scratch() || pad_acc) {
        ldacc = nstrips * nrw * 4 + (pad_acc ? k_wide_acc_pad : 0);
        acc = static_cast<char *>(sc.acc.get(M * ldacc));
    }
    // f32 A with one row and contiguous k is already the k-major layout.
    const bool a_direct = !bf16 && M == 1 && d.sak == 1;
    const int64_t panels = div_up(M, wm_);
    const int64_t ksteps_max = cvt ? kc_ : div_up(kc_, s_.kpack);
    const int64_t a_panel = ksteps_max * wm_ * 4;
    char *ap = a_direct ? nullptr
                        : static_cast<char *>(sc.a.get(panels * a_panel));
    char *bp = nullptr;
    if (!inplace && !packed_b)
        bp = static_cast<char *>(sc.b.get(nstrips * ksteps_max * nrw * 4));
    const int64_t pf_rows = wide_stream_params().pf_rows;
    static const int64_t pf_bytes
            = env_int(knob_t::gemm_pf_bytes, k_wide_pf_bytes);

    ukr_args_t args;
    std::memset(&args, 0, sizeof(args));
    args.po = pot;
    args.ldacc = ldacc;
    args.ldd = d.sdm * es_d;
    for (int64_t k0 = 0; k0 < e.k; k0 += kc_) {
        const int64_t kc = std::min(kc_, e.k - k0);
        const int64_t ksteps = cvt ? kc : div_up(kc, s_.kpack);
        // A prepacked block holds all its K rows, even past the extent.
        const int64_t b_strip = (packed_b
                        ? div_up(std::min(kc_, d.K - k0), s_.kpack)
                        : ksteps) * nrw * 4;
        const char *bpanel = bp;
        if (packed_b) {
            bpanel = packed_block(packed_b, n0, k0);
        } else if (!inplace) {
            const char *bsrc = B + k0 * d.sbk * es_b;
            if (d.b16 != b16_t::none)
                // 16-bit B^T (or other strides): widened, then packed.
                pack_b_16(reinterpret_cast<const uint16_t *>(bsrc), d.sbk,
                        d.sbn, static_cast<int>(nc), kc,
                        static_cast<int>(nrw), d.b16 == b16_t::f16,
                        reinterpret_cast<float *>(bp),
                        static_cast<float *>(sc.b16_rows.get(nc * kc * 4)));
            else if (bf16)
                pack_b_bf16(reinterpret_cast<const uint16_t *>(bsrc), d.sbk,
                        d.sbn, static_cast<int>(nc), kc, static_cast<int>(nrw),
                        reinterpret_cast<uint16_t *>(bp));
            else
                pack_b_f32(reinterpret_cast<const float *>(bsrc), d.sbk, d.sbn,
                        static_cast<int>(nc), kc, static_cast<int>(nrw),
                        reinterpret_cast<float *>(bp));
        }
        for (int64_t p = 0; p < panels && !a_direct; ++p) {
            const int rows = static_cast<int>(std::min<int64_t>(wm_, M - p * wm_));
            const char *asrc = A + (p * wm_ * d.sam + k0 * d.sak) * es_in;
            if (cvt)
                pack_a_bf16_to_f32(reinterpret_cast<const uint16_t *>(asrc),
                        d.sam, d.sak, rows, kc, rows,
                        reinterpret_cast<float *>(ap + p * a_panel));
            else if (bf16)
                pack_a_bf16(reinterpret_cast<const uint16_t *>(asrc), d.sam,
                        d.sak, rows, kc, rows,
                        reinterpret_cast<uint16_t *>(ap + p * a_panel));
            else
                pack_a_f32(reinterpret_cast<const float *>(asrc), d.sam, d.sak,
                        rows, kc, rows,
                        reinterpret_cast<float *>(ap + p * a_panel));
        }
        int64_t flags = 0;
        if (k0 > 0) flags |= k_ukr_accumulate;
        if (k0 + kc == e.k) flags |= k_ukr_last;
        if (k0 + kc == e.k && bias) flags |= k_ukr_bias;
        args.flags = flags;
        args.k = ksteps;
        if (inplace) {
            args.ldb = d.sbk * es_b;
            args.pf = pf_rows * args.ldb;
        } else {
            args.ldb = nrw * 4;
            args.pf = pf_bytes;
        }
        // AVX2 kernels walk all whole strips of a K block in one call per
        // panel, except on the last K block (per-strip epilogue).
        int64_t j0 = 0;
        if (multi_strip && !(flags & k_ukr_last) && nc >= 2 * nrw) {
            const int64_t whole = nc / nrw;
            args.b = B + k0 * d.sbk * es_b;
            args.ymask = k_ymask_table;
            args.strips = whole;
            for (int64_t p = 0; p < panels; ++p) {
                const int rows
                        = static_cast<int>(std::min<int64_t>(wm_, M - p * wm_));
                args.a = a_direct ? A + k0 * 4 : ap + p * a_panel;
                args.acc = reinterpret_cast<float *>(acc + p * wm_ * ldacc);
                wfns_[rows - 1][nvw_ - 1](&args);
            }
            args.strips = 0;
            j0 = whole;
        }
        for (int64_t j = j0; j < nstrips; ++j) {
            const int cols
                    = static_cast<int>(std::min<int64_t>(nrw, nc - j * nrw));
            const int nv = static_cast<int>(div_up(cols, W));
            const int tail = cols - (nv - 1) * W;
            args.b = inplace ? B + (k0 * d.sbk + j * nrw) * es_b
                             : bpanel + j * b_strip;
            // In place, the kernel loads whole vectors of each B row: a
            // partial last vector would read past the row, and on the last
            // row past B itself. That strip's rows are copied first into
            // zero-padded scratch rows of nv whole vectors.
            if (inplace && cols % W != 0) {
                const int64_t ld = nv * W * es_b;
                char *t = static_cast<char *>(sc.b.get(kc * ld));
                std::memset(t, 0, kc * ld);
                for (int64_t k = 0; k < kc; ++k)
                    std::memcpy(t + k * ld,
                            static_cast<const char *>(args.b)
                                    + k * d.sbk * es_b,
                            cols * es_b);
                args.b = t;
                args.ldb = ld;
                args.pf = 0;
            }
            set_tail_lanes(args, tail);
            args.bias = bias ? bias + n0 + j * nrw : nullptr;
            for (int64_t p = 0; p < panels; ++p) {
                const int rows
                        = static_cast<int>(std::min<int64_t>(wm_, M - p * wm_));
                args.a = a_direct ? A + k0 * 4 : ap + p * a_panel;
                args.acc = reinterpret_cast<float *>(
                        acc + p * wm_ * ldacc + j * nrw * 4);
                args.dst = D + (p * wm_ * d.sdm + j * nrw) * es_d;
                if (has_po_args && (flags & k_ukr_last))
                    po_table(task, po_args, p * wm_, n0 + j * nrw, pot);
                (cvt ? wcvt_ : wfns_)[rows - 1][nv - 1](&args);
            }
        }
    }
}

// B packed on every call from rows that are not B's (B^T, whose rows run
// along k, or strided B): strip by strip, each strip over all of K. A
// K-outer walk reads every B^T row in kc-long pieces, one per K block,
// each a page or more from the last: short runs the prefetchers restart
// on and a TLB miss per piece. Strip-outer, the strip's rows stream along
// k from start to end. A is packed once for all K blocks (up to
// k_wide_strips_max_m rows of K), each strip's sums stay in a small
// scratch tile, and each K block of the strip is packed (into L1) right
// before the kernels read it.
void gemm_t::run_task_wide_strips(int64_t task, const void *a, const void *b,
        const float *bias, void *dst, const void *const *po_args,
        scratch_t &sc, const extent_t &e) const {
    const gemm_desc_t &d = d_;
    const int W = s_.width;
    wide_task_t t;
    if (!wide_task(task, a, b, dst, e, &t)) return;
    const int64_t es_d = t.es_d, es_b = t.es_b; // A is f32
    const bool b16 = d.b16 != b16_t::none;
    const bool has_po_args = d.post.operand_count() > 0;
    postop_ptr_t pot[k_max_po_operands];
    const int64_t M = d.M, n0 = t.n0, nc = t.nc;
    const int64_t nrw = t.nrw, nstrips = t.nstrips;
    const char *A = t.A, *B = t.B;
    char *D = t.D;
    const int64_t panels = div_up(M, wm_), nk = div_up(e.k, kc_);
    // Every K block's A panels, K block major.
    const bool a_direct = M == 1 && d.sak == 1;
    const int64_t a_panel = kc_ * wm_ * 4, a_block = panels * a_panel;
    char *ap = a_direct ? nullptr
                        : static_cast<char *>(sc.a.get(nk * a_block));
    for (int64_t kb = 0; kb < nk && !a_direct; ++kb) {
        const int64_t k0 = kb * kc_, kc = std::min(kc_, e.k - k0);
        for (int64_t p = 0; p < panels; ++p) {
            const int rows = static_cast<int>(std::min<int64_t>(wm_, M - p * wm_));
            pack_a_f32(reinterpret_cast<const float *>(
                               A + (p * wm_ * d.sam + k0 * d.sak) * 4),
                    d.sam, d.sak, rows, kc, rows,
                    reinterpret_cast<float *>(ap + kb * a_block + p * a_panel));
        }
    }
    float *bp = static_cast<float *>(sc.b.get(kc_ * nrw * 4));
    float *tmp = b16 && d.sbn != 1
            ? static_cast<float *>(sc.b16_rows.get(nrw * kc_ * 4))
            : nullptr;
    // The strip's f32 sums, M rows of nrw.
    char *acc = static_cast<char *>(sc.acc.get(M * nrw * 4));
    static const int64_t pf_bytes
            = env_int(knob_t::gemm_pf_bytes, k_wide_pf_bytes);
    ukr_args_t args;
    std::memset(&args, 0, sizeof(args));
    args.po = pot;
    args.ldacc = nrw * 4;
    args.ldd = d.sdm * es_d;
    args.ldb = nrw * 4;
    args.pf = pf_bytes;
    for (int64_t j = 0; j < nstrips; ++j) {
        const int cols = static_cast<int>(std::min<int64_t>(nrw, nc - j * nrw));
        const int nv = static_cast<int>(div_up(cols, W));
        set_tail_lanes(args, cols - (nv - 1) * W);
        args.bias = bias ? bias + n0 + j * nrw : nullptr;
        const char *bstrip = B + j * nrw * d.sbn * es_b;
        for (int64_t kb = 0; kb < nk; ++kb) {
            const int64_t k0 = kb * kc_, kc = std::min(kc_, e.k - k0);
            const char *bsrc = bstrip + k0 * d.sbk * es_b;
            if (b16)
                pack_b_16(reinterpret_cast<const uint16_t *>(bsrc), d.sbk,
                        d.sbn, cols, kc, static_cast<int>(nrw),
                        d.b16 == b16_t::f16, bp, tmp);
            else
                pack_b_f32(reinterpret_cast<const float *>(bsrc), d.sbk,
                        d.sbn, cols, kc, static_cast<int>(nrw), bp);
            int64_t flags = 0;
            if (kb > 0) flags |= k_ukr_accumulate;
            if (kb + 1 == nk) flags |= k_ukr_last;
            if (kb + 1 == nk && bias) flags |= k_ukr_bias;
            args.flags = flags;
            args.k = kc;
            args.b = bp;
            for (int64_t p = 0; p < panels; ++p) {
                const int rows
                        = static_cast<int>(std::min<int64_t>(wm_, M - p * wm_));
                args.a = a_direct ? A + k0 * 4 : ap + kb * a_block + p * a_panel;
                args.acc = reinterpret_cast<float *>(acc + p * wm_ * nrw * 4);
                args.dst = D + (p * wm_ * d.sdm + j * nrw) * es_d;
                if (has_po_args && (flags & k_ukr_last))
                    po_table(task, po_args, p * wm_, n0 + j * nrw, pot);
                wfns_[rows - 1][nv - 1](&args);
            }
        }
    }
}

// A few rows of A against B^T: each dot kernel call reduces all of K for
// one row of A and up to 8 columns (8 rows of B^T, which the next rows of
// A then find in L1/L2) into f32 sums; once a strip is complete the wide
// kernels with k = 0 add bias, run the post-ops and store it, wm_ rows
// per call.
void gemm_t::run_task_dot(int64_t task, const void *a, const void *b,
        const float *bias, void *dst, const void *const *po_args,
        scratch_t &sc, const extent_t &e) const {
    const gemm_desc_t &d = d_;
    const int W = s_.width;
    const int64_t M = d.M;
    const bool b16 = d.b16 != b16_t::none;
    wide_task_t t;
    if (!wide_task(task, a, b, dst, e, &t)) return;
    const int64_t es_in = t.es_a, es_d = t.es_d, es_b = t.es_b;
    postop_ptr_t pot[k_max_po_operands];
    const int64_t n0 = t.n0, nc = t.nc;
    const int64_t nrw = t.nrw, nstrips = t.nstrips;
    const char *A = t.A, *B = t.B;
    char *D = t.D;
    // The sums of a strip: M rows of nrw.
    float *sums = static_cast<float *>(sc.acc.get(M * nrw * 4));
    // 16-bit B: the kernels take whole vectors of k, the last k % W
    // products of each column are added here.
    const int64_t kv = b16 ? e.k - e.k % W : e.k;
    const int ktail = static_cast<int>(e.k % W);

    ukr_args_t dot, ep;
    std::memset(&dot, 0, sizeof(dot));
    std::memset(&ep, 0, sizeof(ep));
    dot.ldb = d.sbn * es_b;
    dot.k = kv;
    set_tail_lanes(dot, ktail);
    ep.po = pot;
    ep.ldacc = nrw * 4;
    ep.ldd = d.sdm * es_d;
    ep.flags = k_ukr_accumulate | k_ukr_last;
    if (bias) ep.flags |= k_ukr_bias;
    for (int64_t j = 0; j < nstrips; ++j) {
        const int cols = static_cast<int>(std::min<int64_t>(nrw, nc - j * nrw));
        for (int c0 = 0; c0 < cols; c0 += k_dot_max_cols) {
            const int nn = std::min(k_dot_max_cols, cols - c0);
            const char *bg = B + (j * nrw + c0) * d.sbn * es_b;
            if (M == 1) {
                dot.b = bg;
                dot.a = A;
                dot.acc = sums + c0;
                dfns_[nn - 1](&dot);
                continue;
            }
            // Several rows: K chunks of dot_kc_, so the group's B^T rows
            // come from memory for row 0 and from L1 for the others.
            for (int64_t k0 = 0; k0 < kv || k0 == 0; k0 += dot_kc_) {
                const int64_t kc = std::min(dot_kc_, kv - k0);
                float part[k_dot_max_cols];
                dot.b = bg + k0 * es_b;
                dot.k = kc;
                const bool last = k0 + kc >= kv;
                set_tail_lanes(dot, last ? ktail : 0);
                for (int64_t m = 0; m < M; ++m) {
                    dot.a = A + (m * d.sam + k0) * es_in;
                    dot.acc = part;
                    (m == 0 ? dfns_ : dfns_hot_)[nn - 1](&dot);
                    float *s = sums + m * nrw + c0;
                    for (int c = 0; c < nn; ++c)
                        s[c] = k0 == 0 ? part[c] : s[c] + part[c];
                }
                if (kc <= 0) break;
            }
        }
        if (b16 && kv < e.k)
            for (int64_t m = 0; m < M; ++m) {
                const float *af
                        = reinterpret_cast<const float *>(A + m * d.sam * es_in);
                for (int c = 0; c < cols; ++c) {
                    const uint16_t *bt = reinterpret_cast<const uint16_t *>(
                            B + (j * nrw + c) * d.sbn * es_b);
                    float s = 0.f;
                    for (int64_t k = kv; k < e.k; ++k)
                        s += af[k]
                                * (d.b16 == b16_t::bf16
                                                ? ir::bf16_to_f32(bt[k])
                                                : ir::f16_to_f32(bt[k]));
                    sums[m * nrw + c] += s;
                }
            }
        const int nv = static_cast<int>(div_up(cols, W));
        const int tail = cols - (nv - 1) * W;
        set_tail_lanes(ep, tail);
        ep.bias = bias ? bias + n0 + j * nrw : nullptr;
        for (int64_t p = 0; p * wm_ < M; ++p) {
            const int rows = static_cast<int>(std::min<int64_t>(wm_, M - p * wm_));
            ep.acc = sums + p * wm_ * nrw;
            ep.dst = D + (p * wm_ * d.sdm + j * nrw) * es_d;
            if (d.post.operand_count() > 0)
                po_table(task, po_args, p * wm_, n0 + j * nrw, pot);
            wfns_[rows - 1][nv - 1](&ep);
        }
    }
}

} // namespace gemm
} // namespace cpu
} // namespace llga
