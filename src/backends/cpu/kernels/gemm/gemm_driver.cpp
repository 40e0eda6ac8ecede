// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/gemm/gemm_driver.cpp — blocking, task split and the
// per-task loop nest of the GEMM:
//
//   task = (batch, M block of MC rows, N block of NC columns), all of K
//   for each K block of KC:
//     pack the B block (KC x NC as NR-column strips; stays in L2), reading
//       B rows sequentially
//     for each MR-row panel of the M block:
//       pack the A panel (KC x MR; stays in L1)
//       for each NR-column strip: micro-kernel (C tile in registers),
//         streaming the strip from L2
//
// Tasks are independent (each packs what it reads), so the only
// synchronisation is the end of parallel_for.
#include "backends/cpu/kernels/gemm/gemm_driver.hpp"

#include <algorithm>
#include <cassert>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "backends/cpu/kernels/gemm/gemm_blocking_p.hpp"
#include "backends/cpu/kernels/gemm/gemm_driver_impl_p.hpp"
#include "backends/cpu/kernels/gemm/gemm_pack.hpp"
#include "base/parallel.hpp"

#include <xmmintrin.h> // _mm_prefetch

namespace llga {
namespace cpu {
namespace gemm {

using namespace detail;

void fold_batch_into_m(gemm_desc_t &d) {
    fold_batch({d.M, d.sam, d.sdm, d.batch, d.a_bs, d.b_bs, d.d_bs, d.post});
}

bool b16_plan_fits(const gemm_desc_t &d) {
    return d.kind == ukr_kind_t::f32_avx2 && d.M >= 1 && d.K >= 1 && d.N >= 1;
}

namespace {
// Whether the AVX2 tile kernels read A from the user's rows instead of a
// packed panel (k contiguous). Packing costs a read and a write of A per
// N block, as much as the products themselves when N is small (1x1
// convolutions: N = 64..256). Rows a multiple of 4 KiB apart share L1
// sets, and a panel re-read by many strips then loses more than packing
// costs (2048^3: -3..5%), so those stay packed unless N is at most 512
// (6272x256x1024, rows 4 KiB apart: 70 -> 80 GFLOP/s on one thread).
bool a_rows_wins(const gemm_desc_t &d) {
    static const int64_t knob = env_int(knob_t::gemm_a_in_place, -1);
    if (d.kind != ukr_kind_t::f32_avx2 || d.sak != 1) return false;
    if (knob >= 0) return knob != 0;
    return (d.sam * 4) % 4096 != 0 || d.N <= 512;
}
} // namespace

status_t gemm_t::init(const gemm_desc_t &d, int nthreads) {
    d_ = d;
    s_ = ukr_shape(d.kind);
    const int64_t mr = s_.mr, nr = s_.nr;
    nbatch_ = 1;
    for (int64_t b : d.batch)
        nbatch_ *= b;
    kc_ = d.kind == ukr_kind_t::bf16_amx ? k_kc_amx
            : s_.kpack == 2                ? k_kc_bf16
                                           : k_kc_f32;
    static const int64_t kc_env = env_int(knob_t::gemm_kc, 0);
    if (kc_env > 0 && s_.kpack == 1) kc_ = kc_env;
    static const int64_t kcx = env_int(knob_t::gemm_kc_amx, 0);
    if (kcx > 0 && d.kind == ukr_kind_t::bf16_amx) kc_ = round_up(kcx, 32);
    wide_ = false;
    strips_outer_ = false;
    narrow_ = false;
    tail_dot_ = false;
    b_stays_ = false;
    static const int64_t wide_max_m_env
            = env_int(knob_t::gemm_wide_max_m, k_wide_max_m);
    const int64_t wide_max_m = d.few_row_paths ? wide_max_m_env : 0;
    // AMX works on 16-row tiles: for a few rows the AVX512-BF16 wide
    // kernels (which every AMX host has) waste nothing. Up to 16 rows
    // they also win when B is packed on every call and they can read it
    // in place (M = 12..16 x 4096 x 4096 and 11008 x 4096, row-major B,
    // not constant: 1 thread +7-60%, 2 threads +18-100%, alternating runs).
    static const int64_t amx_min_m = env_int(knob_t::gemm_amx_min_m, k_amx_min_m);
    const bool b_in_place_wins = !d.b_prepacked && d.sbn == 1;
    if (d.kind == ukr_kind_t::bf16_amx
            && (d.M < amx_min_m || b_in_place_wins) && d.M <= wide_max_m
            && isa_available(ukr_isa(ukr_kind_t::bf16_avx512))) {
        d_.kind = ukr_kind_t::bf16_avx512;
        s_ = ukr_shape(d_.kind);
        kc_ = k_kc_bf16;
    }
    const bool b16 = d.b16 != b16_t::none;
    if (b16 && !b16_plan_fits(d))
        return fail(dnnl_unimplemented,
                "cpu gemm: 16-bit B is widened by the f32_avx2 kernels only");
    // B^T (or strided B) packed on every call: the wide path walks it
    // strip-outer (run_task_wide_strips), which beats the regular path's
    // K-outer packing up to k_wide_strips_max_m rows.
    static const int64_t strips_max_m_env
            = env_int(knob_t::gemm_wide_strips_max_m, k_wide_strips_max_m);
    // (Narrow N keeps its own path; 16-bit B never takes it.)
    const bool narrow = !b16 && narrow_fits(d);
    const bool strips_case = d.few_row_paths && d.kind == ukr_kind_t::f32_avx2
            && d.sbn != 1 && !d.b_prepacked && d.M <= strips_max_m_env
            && !narrow;
    if (d_.kind != ukr_kind_t::bf16_amx && (d.M <= wide_max_m || strips_case)) {
        // The few-row paths read 16-bit B in place or widen it per block;
        // they never take it prepacked (can_prepack_b()).
        if (b16) d_.b_prepacked = false;
        init_wide(nthreads);
        for (int m = 1; m <= wm_; ++m)
            for (int v = 1; v <= nvw_; ++v)
            {
                // 16-bit B rows are read in place by widening kernels;
                // 16-bit B^T blocks are widened and packed as f32.
                LLGA_RETURN_IF_ERROR(get_wide_ukernel(d_.kind, m, v, d.dst_bf16,
                        d.post, &wfns_[m - 1][v - 1],
                        d.sbn == 1 ? d.b16 : b16_t::none));
                if (s_.kpack == 2 && d.sbn == 1)
                    LLGA_RETURN_IF_ERROR(get_wide_ukernel(d_.kind, m, v,
                            d.dst_bf16, d.post, &wcvt_[m - 1][v - 1],
                            b16_t::bf16));
            }
        // A few rows against B^T rows (the [N, K] weights of transpose_b):
        // dot products over whole rows, each group of B^T rows read from
        // memory once for all rows of A (see dot_max_m()).
        dot_ = d.M <= dot_max_m(d.b16 != b16_t::none) && d.sak == 1 && d.sbk == 1 && d.sbn != 1
                && d.K > 0;
        const int64_t b_es
                = d.b16 != b16_t::none ? 2 : ukr_in_bytes(d_.kind);
        const dot_order_t order = dot_order_for(d.K * b_es);
        for (int nn = 1; dot_ && nn <= k_dot_max_cols; ++nn)
            LLGA_RETURN_IF_ERROR(get_dot_kernel(
                    d_.kind, nn, order, &dfns_[nn - 1], d.b16));
        // Several rows: K in chunks whose 8 B^T rows fit L1 (16 KiB).
        static const int64_t kc_env = env_int(knob_t::gemm_dot_kc_bytes, 2048);
        dot_kc_ = d.M > 1 && kc_env > 0 ? std::max<int64_t>(kc_env / b_es / 8 * 8, 8)
                                        : d.K;
        for (int nn = 1; dot_ && d.M > 1 && nn <= k_dot_max_cols; ++nn)
            LLGA_RETURN_IF_ERROR(get_dot_kernel(d_.kind, nn,
                    dot_order_t::interleaved, &dfns_hot_[nn - 1], d.b16));
        return dnnl_success;
    }
    // The narrow path gathers B's columns as stored; 16-bit ones take the
    // regular path, whose packing widens them.
    if (narrow) return init_narrow(nthreads);

    // Start from the largest blocks, then split until there are enough
    // tasks. Splitting N repacks A once more per block, splitting M repacks
    // B; either costs about 4% at 512 columns / 512 rows and twice that at
    // half, so both are kept at least that large before either goes below.
    // AMX packing costs more relative to its compute, so it repacks B less.
    static const int64_t mc_env = env_int(knob_t::gemm_mc, 0);
    const int64_t mc_max = mc_env > 0          ? mc_env
            : d.kind == ukr_kind_t::bf16_amx ? k_mc_max_amx
                                             : k_mc_max;
    static const int64_t nc_env = env_int(knob_t::gemm_nc, nc_max_for_host());
    const int64_t want
            = nthreads > 1 ? nthreads * k_packed_tasks_per_thread : 1;
    // N blocks below 8 strips repack A too often (A packing costs about
    // a quarter of a strip's compute per panel).
    split_rule_t rule;
    rule.m_first_rows = k_mc_split;
    rule.min_nc = 8 * nr;
    rule.min_mc = 4 * mr;
    const block_grid_t g = split_blocks(
            d.M, d.N, nbatch_, mr, nr, mc_max, nc_env, want, rule);
    mc_ = g.mc;
    nc_ = g.nc;
    mblocks_ = g.mblocks;
    nblocks_ = g.nblocks;

    // Every tile variant (full tiles and all M/N tails): they are cached
    // process-wide, so only the first GEMM of a flavour generates them.
    // AMX computes f32 sums only; the AVX512-BF16 kernels (k = 0) do its
    // epilogue.
    const ukr_kind_t ek = d.kind == ukr_kind_t::bf16_amx
            ? ukr_kind_t::bf16_avx512
            : d.kind;
    if (d.kind == ukr_kind_t::bf16_amx) {
        amx_rows_ = d.M <= 16 ? 16 : 32;
        LLGA_RETURN_IF_ERROR(get_amx_kernel(&amx_, amx_rows_));
    }
    const ukr_shape_t es = ukr_shape(ek);
    a_rows_ = a_rows_wins(d);
    for (int m = 1; m <= es.mr; ++m)
        for (int v = 1; v <= es.nr / es.width; ++v)
            LLGA_RETURN_IF_ERROR(get_ukernel(ek, m, v, d.dst_bf16, d.post,
                    &fns_[m - 1][v - 1], a_rows_));
    static const bool tail_knob = env_int(knob_t::gemm_tail_dot, 1) != 0;
    tail_dot_ = tail_knob && d.kind != ukr_kind_t::bf16_amx && d.sak == 1;
    // The tail's A rows were just read by the tile kernels: in cache, where
    // the interleaved order needs fewer loads.
    for (int nn = 1; tail_dot_ && nn <= k_dot_max_cols; ++nn)
        LLGA_RETURN_IF_ERROR(get_dot_kernel(d.kind, nn,
                dot_order_t::interleaved, &dfns_[nn - 1]));
    return dnnl_success;
}

bool gemm_t::acc_in_scratch() const {
    return d_.dst_bf16 || d_.post.dst_dt != po_dt_t::f32 || d_.post.has_sum();
}

int64_t gemm_t::dst_es() const {
    if (d_.dst_bf16) return 2;
    return static_cast<int64_t>(po_dt_size(d_.post.dst_dt));
}

void gemm_t::po_table(int64_t task, const void *const *po_args, int64_t m0,
        int64_t n0, postop_ptr_t *out) const {
    po_operand_table(d_.post, d_.batch, task / (nblocks_ * mblocks_), po_args,
            m0, n0, out);
}

int64_t gemm_t::bias_cols() const {
    return round_up(d_.N, std::max<int64_t>(s_.nr, strip_cols()));
}

std::string gemm_t::blocking_str() const {
    return "mc=" + std::to_string(mc_) + " nc=" + std::to_string(nc_) + " kc="
            + std::to_string(kc_)
            + " tasks=" + std::to_string(nbatch_ * mblocks_ * nblocks_)
            + (wide_ ? " wide=" + std::to_string(wm_) + "x"
                               + std::to_string(strip_cols())
                     : std::string())
            + (dot_ ? " dot" : "") + (strips_outer_ ? " strips" : "")
            + (narrow_ ? " narrow" : "");
}

void gemm_t::task_origin(int64_t task, int64_t *m0, int64_t *n0,
        int64_t *aoff, int64_t *boff, int64_t *doff) const {
    gemm::task_origin(task, {mc_, nc_, mblocks_, nblocks_},
            {d_.batch, d_.a_bs, d_.b_bs, d_.d_bs}, m0, n0, aoff, boff, doff);
}

namespace {
// Requests the rows of the next A panel into L2, a few lines per
// micro-kernel call of the current panel, so packing it reads L2 instead
// of memory: its rows are short runs a whole row stride apart, which the
// hardware prefetcher does not follow (2048^3 f32, 1 thread: packing A
// went from 7.2% to 2.4% of the time).
class a_prefetch_t {
public:
    // `next`: first row of the next panel (nullptr: none), `rows` rows
    // `ld` bytes apart of `bytes` each, spread over `calls` calls.
    a_prefetch_t(const char *next, int rows, int64_t ld, int64_t bytes,
            int64_t calls)
        : next_(next), ld_(ld), lines_(div_up(bytes, 64)),
          total_(next ? rows * lines_ : 0),
          per_(calls > 0 ? div_up(total_, calls) : 0) {}
    void before_call(int64_t j) const {
        const int64_t end = std::min(total_, (j + 1) * per_);
        for (int64_t l = j * per_; l < end; ++l)
            _mm_prefetch(next_ + l / lines_ * ld_ + l % lines_ * 64,
                    _MM_HINT_T1);
    }

private:
    const char *next_;
    int64_t ld_, lines_, total_, per_;
};
} // namespace

void gemm_t::run_task(int64_t task, const void *a, const void *b,
        const float *bias, void *dst, const void *packed_b,
        const void *const *po_args, scratch_t &sc, const extent_t &e) const {
    const gemm_desc_t &d = d_;
    const int mr = s_.mr, nr = s_.nr, W = s_.width;
    const bool bf16 = s_.kpack == 2;
    const int64_t es_in = bf16 ? 2 : 4, es_d = dst_es();
    // Bytes of a B element: 16-bit B of the f32 kernels (d.b16) too.
    const int64_t es_b = d.b16 != b16_t::none ? 2 : es_in;
    const bool has_po_args = d.post.operand_count() > 0;
    postop_ptr_t pot[k_max_po_operands];
    int64_t m0, n0, aoff, boff, doff;
    task_origin(task, &m0, &n0, &aoff, &boff, &doff);
    if (n0 >= e.n) return;
    const int64_t mc = std::min(mc_, d.M - m0), nc = std::min(nc_, e.n - n0);
    const char *A = static_cast<const char *>(a) + (aoff + m0 * d.sam) * es_in;
    const char *B = static_cast<const char *>(b) + (boff + n0 * d.sbn) * es_b;
    char *D = static_cast<char *>(dst) + (doff + m0 * d.sdm + n0) * es_d;
    const row_panels_t panels(mc, mr, div_up(k_fmas_in_flight, nr / W));
    const int64_t mpanels = panels.count(), nstrips = div_up(nc, nr);

    // f32 dst accumulates in place; bf16 dst keeps f32 partial sums in a
    // scratch tile until the last K block converts them.
    char *acc = D;
    int64_t ldacc = d.sdm * 4;
    if (acc_in_scratch()) {
        ldacc = nstrips * nr * 4;
        acc = static_cast<char *>(sc.acc.get(mc * ldacc));
    }
    const int64_t ksteps_max = div_up(kc_, s_.kpack);
    const int64_t a_panel = ksteps_max * mr * 4; // bytes of a packed panel
    char *ap = static_cast<char *>(sc.a.get(a_panel));
    char *bp = static_cast<char *>(sc.b.get(nstrips * ksteps_max * nr * 4));
    // A last strip of a few columns goes through dot products.
    tail_dot_t td;
    if (tail_dot_ && nc % nr > 0 && nc % nr <= k_tail_dot_max_cols) {
        td.cols = nc % nr;
        td.xt = static_cast<char *>(sc.tail_cols.get(td.cols * kc_ * es_in));
        td.sums = static_cast<float *>(
                sc.tail_sums.get(mpanels * mr * sizeof(float) * 16));
    }
    const int64_t tile_strips = td.cols > 0 ? nstrips - 1 : nstrips;

    ukr_args_t args;
    std::memset(&args, 0, sizeof(args));
    args.po = pot;
    args.ldacc = ldacc;
    args.ldd = d.sdm * es_d;
    args.ldb = nr * 4;
    args.a = ap;
    args.lda = d.sam * es_in;
    for (int64_t k0 = 0; k0 < e.k; k0 += kc_) {
        const int64_t kc = std::min(kc_, e.k - k0);
        const int64_t ksteps = div_up(kc, s_.kpack);
        // Bytes per packed strip: a prepacked block holds all its K rows
        // even when the extent stops short of them.
        const int64_t b_strip = div_up(packed_b ? std::min(kc_, d.K - k0) : kc,
                                        s_.kpack) * nr * 4;
        const char *bsrc = B + k0 * d.sbk * es_b;
        const char *bpanel = bp;
        if (packed_b) {
            bpanel = packed_block(packed_b, n0, k0);
        } else if (d.b16 != b16_t::none)
            pack_b_16(reinterpret_cast<const uint16_t *>(bsrc), d.sbk, d.sbn,
                    static_cast<int>(nc), kc, nr, d.b16 == b16_t::f16,
                    reinterpret_cast<float *>(bp),
                    d.sbn == 1 ? nullptr
                               : static_cast<float *>(
                                       sc.b16_rows.get(nc * kc * 4)));
        else if (bf16)
            pack_b_bf16(reinterpret_cast<const uint16_t *>(bsrc), d.sbk, d.sbn,
                    static_cast<int>(nc), kc, nr,
                    reinterpret_cast<uint16_t *>(bp));
        else
            pack_b_f32(reinterpret_cast<const float *>(bsrc), d.sbk, d.sbn,
                    static_cast<int>(nc), kc, nr,
                    reinterpret_cast<float *>(bp));
        if (td.cols > 0) {
            td.kc = kc;
            gather_tail(bpanel + tile_strips * b_strip, kc, td.cols, td.xt);
        }
        int64_t flags = 0;
        if (k0 > 0) flags |= k_ukr_accumulate;
        if (k0 + kc == e.k) flags |= k_ukr_last;
        if (k0 + kc == e.k && bias) flags |= k_ukr_bias;
        args.flags = flags;
        args.k = ksteps;
        for (int64_t i = 0; i < mpanels; ++i) {
            const int64_t r0 = panels.start(i);
            const int rows = panels.rows(i);
            const char *asrc = A + (r0 * d.sam + k0 * d.sak) * es_in;
            if (a_rows_)
                args.a = asrc;
            else if (bf16)
                pack_a_bf16(reinterpret_cast<const uint16_t *>(asrc), d.sam,
                        d.sak, rows, kc, mr, reinterpret_cast<uint16_t *>(ap));
            else
                pack_a_f32(reinterpret_cast<const float *>(asrc), d.sam, d.sak,
                        rows, kc, mr, reinterpret_cast<float *>(ap));
            // The next panel: the following rows, or this task's first rows
            // in the next K block. Row-major A only (transposed A panels
            // are contiguous runs the hardware prefetcher follows).
            const bool last_panel = i + 1 == mpanels;
            const int64_t nk0 = last_panel ? k0 + kc : k0;
            const int64_t ni = last_panel ? 0 : i + 1;
            const bool pf = d.sak == 1 && nk0 < e.k;
            const a_prefetch_t apf(pf ? A + (panels.start(ni) * d.sam + nk0) * es_in
                                      : nullptr,
                    panels.rows(ni),
                    d.sam * es_in, std::min(kc_, e.k - nk0) * es_in, nstrips);
            if (td.cols > 0)
                tail_dots(td, task, i, asrc, rows, k0 == 0, k0 + kc == e.k,
                        bias ? bias + n0 + tile_strips * nr : nullptr,
                        D + (r0 * d.sdm + tile_strips * nr) * es_d, po_args,
                        m0 + r0, n0 + tile_strips * nr);
            for (int64_t j = 0; j < tile_strips; ++j) {
                apf.before_call(j);
                const int cols
                        = static_cast<int>(std::min<int64_t>(nr, nc - j * nr));
                const int nv = static_cast<int>(div_up(cols, W));
                const int tail = cols - (nv - 1) * W;
                args.b = bpanel + j * b_strip;
                set_tail_lanes(args, tail);
                args.bias = bias ? bias + n0 + j * nr : nullptr;
                args.acc = reinterpret_cast<float *>(
                        acc + r0 * ldacc + j * nr * 4);
                args.dst = D + (r0 * d.sdm + j * nr) * es_d;
                if (has_po_args && (flags & k_ukr_last))
                    po_table(task, po_args, m0 + r0, n0 + j * nr, pot);
                fns_[rows - 1][nv - 1](&args);
            }
        }
    }
}

void gemm_t::run_task_amx(int64_t task, const void *a, const void *b,
        const float *bias, void *dst, const void *packed_b,
        const void *const *po_args, scratch_t &sc, const extent_t &e) const {
    const gemm_desc_t &d = d_;
    constexpr int T = 32; // columns of the AMX C block
    const int P = amx_rows_; // its rows
    const int64_t es_d = dst_es();
    const bool has_po_args = d.post.operand_count() > 0;
    postop_ptr_t pot[k_max_po_operands];
    int64_t m0, n0, aoff, boff, doff;
    task_origin(task, &m0, &n0, &aoff, &boff, &doff);
    if (n0 >= e.n) return;
    const int64_t mc = std::min(mc_, d.M - m0), nc = std::min(nc_, e.n - n0);
    const uint16_t *A = static_cast<const uint16_t *>(a) + aoff + m0 * d.sam;
    const uint16_t *B = static_cast<const uint16_t *>(b) + boff + n0 * d.sbn;
    char *D = static_cast<char *>(dst) + (doff + m0 * d.sdm + n0) * es_d;
    const int64_t mpanels = div_up(mc, P), nstrips = div_up(nc, T);
    // f32 sums of the whole task block, padded to whole P x 32 tiles so
    // tile loads and stores never leave the buffer.
    // Only earlier K blocks use it: the last one stores each tile block
    // to `blk` (L1), from which the epilogue reads it right away.
    const int64_t ldacc = nstrips * T * 4;
    char *acc = kc_ < d.K
            ? static_cast<char *>(sc.acc.get(mpanels * P * ldacc))
            : nullptr;
    alignas(64) float blk[32 * T];
    const int64_t chunks_max = div_up(kc_, 32);
    char *ap = static_cast<char *>(sc.a.get(chunks_max * P * 64)); // P x kpad
    // A single panel uses each B strip once: with B stored k-contiguous
    // (transposed) a strip is 32 runs of kc values, packed right before its
    // kernel call into one strip of scratch (L1/L2) instead of the whole
    // block going out to L3 and back. Row-major B is packed as a block:
    // a strip would read 64 bytes per row, a page apart.
    const bool strip_pack = !packed_b && mpanels == 1 && d.sbk == 1;
    char *bp = static_cast<char *>(
            sc.b.get((strip_pack ? 1 : nstrips) * chunks_max * 2048));

    ukr_args_t args, ep;
    std::memset(&args, 0, sizeof(args));
    std::memset(&ep, 0, sizeof(ep));
    args.ldacc = ldacc;
    args.dst = blk;
    args.ldd = T * 4;
    ep.ldacc = T * 4;
    ep.ldd = d.sdm * es_d;
    ep.po = pot;
    ep.k = 0;
    ep.flags = k_ukr_accumulate | k_ukr_last;
    if (bias) ep.flags |= k_ukr_bias;
    bool configured = false;
    // Every K block is whole 32-k chunks of contiguous k (a partial chunk
    // would read past K: B's zero rows times whatever is there, NaN too).
    const bool a_whole_chunks = d.sak == 1 && d.K % 32 == 0 && kc_ % 32 == 0;
    for (int64_t k0 = 0; k0 < d.K; k0 += kc_) {
        const int64_t kc = std::min(kc_, d.K - k0);
        const int64_t chunks = div_up(kc, 32);
        const int64_t b_strip = chunks * 2048;
        const bool last = k0 + kc == d.K;
        const char *bpanel = bp;
        if (packed_b)
            bpanel = packed_block(packed_b, n0, k0);
        else if (!strip_pack)
            pack_b_bf16(B + k0 * d.sbk, d.sbk, d.sbn, static_cast<int>(nc), kc,
                    T, reinterpret_cast<uint16_t *>(bp), chunks * 32);
        args.k = chunks;
        int64_t kflags = 0;
        if (k0 > 0) kflags |= k_ukr_accumulate;
        for (int64_t i = 0; i < mpanels; ++i) {
            const int rows = static_cast<int>(std::min<int64_t>(P, mc - i * P));
            const uint16_t *asrc = A + i * P * d.sam + k0 * d.sak;
            // The panel is reused by every strip, so it must stay in L1:
            // A's own rows serve when they suit tile loads (whole 32-k
            // chunks, line-aligned, spread over the L1 sets; all P rows
            // there); otherwise (often a power-of-two stride, whose rows
            // would share a few L1 sets) the chunk-major copy, contiguous,
            // at 1/nstrips of the panel's loads.
            if (a_whole_chunks && rows == P
                    && tile_rows_in_place(asrc, d.sam * 2)) {
                args.a = asrc;
                args.lda = d.sam * 2;
                args.a_kstep = 64;
            } else {
                pack_a_amx(asrc, d.sam, d.sak, rows, kc,
                        reinterpret_cast<uint16_t *>(ap), P);
                args.a = ap;
                args.lda = 64;
                args.a_kstep = P * 64;
            }
            for (int64_t j = 0; j < nstrips; ++j) {
                char *cblk = acc ? acc + i * P * ldacc + j * T * 4 : nullptr;
                const int cols
                        = static_cast<int>(std::min<int64_t>(T, nc - j * T));
                if (strip_pack)
                    pack_b_bf16(B + k0 * d.sbk + j * T * d.sbn, d.sbk, d.sbn,
                            cols, kc, T, reinterpret_cast<uint16_t *>(bp),
                            chunks * 32);
                args.b = strip_pack ? bp : bpanel + j * b_strip;
                args.acc = reinterpret_cast<float *>(cblk);
                // The tile configuration is loaded by the task's first call
                // and released by its last.
                const bool task_end
                        = last && i + 1 == mpanels && j + 1 == nstrips;
                args.flags = kflags;
                if (configured) args.flags |= k_ukr_amx_configured;
                if (!task_end) args.flags |= k_ukr_amx_keep;
                if (last) args.flags |= k_ukr_amx_to_dst;
                configured = true;
                amx_(&args);
                if (!last) continue;
                // Epilogue in 12-row pieces by the AVX-512 kernels.
                const int nv = (cols + 15) / 16;
                const int tail = cols - (nv - 1) * 16;
                ep.kmask = (int64_t(1) << tail) - 1;
                ep.bias = bias ? bias + n0 + j * T : nullptr;
                for (int r0 = 0; r0 < rows; r0 += 12) {
                    const int er = std::min(12, rows - r0);
                    ep.acc = blk + r0 * T;
                    ep.dst = D + ((i * P + r0) * d.sdm + j * T) * es_d;
                    if (has_po_args)
                        po_table(task, po_args, m0 + i * P + r0, n0 + j * T,
                                pot);
                    fns_[er - 1][nv - 1](&ep);
                }
            }
        }
    }
}

void gemm_t::execute(const void *a, const void *b, const float *bias,
        void *dst, const void *packed_b, const void *const *po_args,
        const extent_t &ext) const {
    const int64_t tasks = nbatch_ * mblocks_ * nblocks_;
    const bool amx = d_.kind == ukr_kind_t::bf16_amx;
    extent_t e;
    e.n = ext.n > 0 ? std::min(ext.n, d_.N) : d_.N;
    e.k = ext.k > 0 ? std::min(ext.k, d_.K) : d_.K;
    if (s_.kpack == 2) e.k = std::min(d_.K, round_up(e.k, 2));
    assert(!amx || e.k == d_.K); // AMX K blocks are whole 32-k chunks
    parallel_for(tasks, 1, [&](int64_t lo, int64_t hi) {
        thread_local scratch_t sc;
        for (int64_t t = lo; t < hi; ++t) {
            if (narrow_)
                run_task_narrow(t, a, b, bias, dst, packed_b, po_args, sc, e);
            else if (wide_)
                run_task_wide(t, a, b, bias, dst, packed_b, po_args, sc, e);
            else if (amx)
                run_task_amx(t, a, b, bias, dst, packed_b, po_args, sc, e);
            else
                run_task(t, a, b, bias, dst, packed_b, po_args, sc, e);
        }
    });
}

bool gemm_t::can_prepack_b() const {
    // 16-bit B is prepacked (widened) for the regular path only.
    if (b_stays_ || (d_.b16 != b16_t::none && (wide_ || narrow_)))
        return false;
    for (int64_t s : d_.b_bs)
        if (s != 0) return false;
    return d_.K > 0 && d_.N > 0;
}

size_t gemm_t::packed_block_bytes() const {
    if (d_.kind == ukr_kind_t::bf16_amx) {
        const int64_t nstrips = div_up(nc_, 32), chunks = div_up(kc_, 32);
        return static_cast<size_t>(nstrips * chunks * 2048);
    }
    const int64_t nr = strip_cols();
    const int64_t nstrips = div_up(nc_, nr), ksteps = div_up(kc_, s_.kpack);
    return static_cast<size_t>(nstrips * ksteps * nr * 4);
}

bool gemm_t::same_b_packing(const gemm_t &o) const {
    return d_.kind == o.d_.kind && d_.N == o.d_.N && d_.K == o.d_.K
            && nc_ == o.nc_ && kc_ == o.kc_ && nblocks_ == o.nblocks_
            && wide_ == o.wide_ && narrow_ == o.narrow_
            && strip_cols() == o.strip_cols()
            && packed_block_bytes() == o.packed_block_bytes();
}

size_t gemm_t::packed_b_bytes() const {
    if (narrow_) return narrow_packed_bytes();
    return static_cast<size_t>(nblocks_ * kblocks()) * packed_block_bytes();
}

void gemm_t::prepack_b(const void *b, void *packed) const {
    if (narrow_) {
        gather_columns(b, d_.K, packed);
        return;
    }
    const gemm_desc_t &d = d_;
    const bool amx = d.kind == ukr_kind_t::bf16_amx;
    const bool bf16 = s_.kpack == 2 || amx;
    const bool b16 = d.b16 != b16_t::none;
    const int64_t es_b = bf16 || b16 ? 2 : 4;
    const int64_t nk = kblocks();
    // The same calls run_task makes, one (N block, K block) panel per task.
    parallel_for(nblocks_ * nk, 1, [&](int64_t lo, int64_t hi) {
        std::vector<float> tmp(b16 && d.sbn != 1 ? nc_ * kc_ : 0);
        for (int64_t t = lo; t < hi; ++t) {
            const int64_t n0 = t / nk * nc_, k0 = t % nk * kc_;
            const int64_t nc = std::min(nc_, d.N - n0), kc = std::min(kc_, d.K - k0);
            const char *src = static_cast<const char *>(b)
                    + (n0 * d.sbn + k0 * d.sbk) * es_b;
            char *dst = const_cast<char *>(packed_block(packed, n0, k0));
            if (b16)
                pack_b_16(reinterpret_cast<const uint16_t *>(src), d.sbk,
                        d.sbn, static_cast<int>(nc), kc,
                        static_cast<int>(strip_cols()), d.b16 == b16_t::f16,
                        reinterpret_cast<float *>(dst), tmp.data());
            else if (amx)
                pack_b_bf16(reinterpret_cast<const uint16_t *>(src), d.sbk,
                        d.sbn, static_cast<int>(nc), kc, 32,
                        reinterpret_cast<uint16_t *>(dst), div_up(kc, 32) * 32);
            else if (bf16)
                pack_b_bf16(reinterpret_cast<const uint16_t *>(src), d.sbk,
                        d.sbn, static_cast<int>(nc), kc,
                        static_cast<int>(strip_cols()),
                        reinterpret_cast<uint16_t *>(dst));
            else
                pack_b_f32(reinterpret_cast<const float *>(src), d.sbk, d.sbn,
                        static_cast<int>(nc), kc,
                        static_cast<int>(strip_cols()),
                        reinterpret_cast<float *>(dst));
        }
    });
}

} // namespace gemm
} // namespace cpu
} // namespace llga
