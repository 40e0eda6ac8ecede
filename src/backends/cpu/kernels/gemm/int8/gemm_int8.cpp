// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/gemm/int8/gemm_int8.cpp — blocking, task split and the
// per-task loop nest of the int8 GEMM (the structure of gemm_driver.cpp):
//
//   task = (batch, M block, N block), all of K
//   [weight zero point] row sums of the task's A rows
//   for each K block:
//     pack the B block as 4-k groups (or use the prepacked one), summing
//       columns when the s8 shift or the src zero point needs them
//     VNNI: for each MR-row panel: pack A (4-k groups, s8 shifted to u8),
//       then per NR strip the micro-kernel; on the last K block it runs
//       the epilogue
//     AMX (K is one block): A read in place (a_in_place) or packed once
//       per M block (rows padded to 64 k); one panel-kernel call runs
//       every panel's whole strips with the epilogue fused (two calls when
//       only a partial last panel is packed); a partial last strip goes
//       to the block kernel and a VNNI epilogue call
//
// Columns past N in a strip's last vector go to a per-thread tail tile and
// are copied out, so kernels only ever store whole vectors.
#include "backends/cpu/kernels/gemm/int8/gemm_int8.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "backends/cpu/kernels/gemm/gemm_blocking_p.hpp"
#include "backends/cpu/kernels/gemm/int8/gemm_int8_pack_p.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "base/knobs.hpp"
#include "base/parallel.hpp"

namespace llga {
namespace cpu {
namespace gemm_int8 {

namespace {

// K block in bytes of k: a VNNI A panel (12 x 1024) stays in L1 and a
// packed B block (512 x 1024) in L2; AMX A panels (32 x 1024) fit L1 too.
constexpr int64_t k_kc = 1024;
// AMX: bytes of the packed B block of one task (nc x K, kept in L2).
constexpr int64_t k_amx_b_bytes = int64_t(1) << 20;
constexpr int64_t k_amx_min_m = 12;
constexpr int64_t k_mc_max = 384;
constexpr int64_t k_nc_max = 512;
constexpr int64_t k_tasks_per_thread = 4;


} // namespace

struct gemm_int8_t::scratch_t {
    aligned_buf_t a, b, acc, cols, rows, tail, ftile;
    // AMX: which A block `a` holds (execute serial, M block, batch offset),
    // so consecutive tasks of a thread on the same M block skip packing it.
    uint64_t a_serial = 0;
    int64_t a_m0 = -1, a_off = 0;
};

struct gemm_int8_t::call_t {
    const char *a, *b;
    char *dst;
    const char *packed_b;
    const gemm_int8_params_t *p;
    uint64_t serial; // distinct per execute (keys the packed A cache)
    i8_args_t proto; // scalar epilogue fields
};

void fold_batch_into_m(gemm_int8_desc_t &d) {
    gemm::fold_batch({d.M, d.sam, d.sdm, d.batch, d.a_bs, d.b_bs, d.d_bs, d.post});
}

status_t gemm_int8_t::init(const gemm_int8_desc_t &d, int nthreads) {
    if (d.M <= 0 || d.N <= 0 || d.K <= 0)
        return fail(dnnl_invalid_arguments, "cpu gemm_int8: empty problem");
    if (d.dst == i8_dst_t::s32 && d.has_bias)
        return fail(dnnl_unimplemented, "cpu gemm_int8: s32 dst takes no bias");
    if (d.batch.size() != d.a_bs.size() || d.batch.size() != d.b_bs.size()
            || d.batch.size() != d.d_bs.size())
        return fail(dnnl_invalid_arguments, "cpu gemm_int8: batch strides");
    if (d.has_chain() && d.dst != i8_dst_t::f32)
        return fail(dnnl_invalid_arguments,
                "cpu gemm_int8: a post-op chain needs the f32 tile type");
    d_ = d;
    // AMX computes 32 rows per tile pair: below one VNNI tile of rows most
    // of that is padding and the vpdpbusd kernels are faster (measured with
    // llga-bench-int8 on M = 1..16, K = N = 4096).
    if (isa_available(isa_t::avx512_core_amx)
            && (d.M >= k_amx_min_m || !isa_available(isa_t::avx512_core_vnni)))
        kind_ = i8_kind_t::amx;
    else if (isa_available(isa_t::avx512_core_vnni))
        kind_ = i8_kind_t::vnni512;
    else if (isa_available(isa_t::avx2_vnni))
        kind_ = i8_kind_t::vnni256;
    else if (isa_available(isa_t::avx2))
        kind_ = i8_kind_t::avx2;
    else
        return fail(dnnl_unimplemented,
                "cpu gemm_int8: needs avx2 or better (max %s)",
                isa_name(max_isa()));
    s_ = i8_shape(kind_);
    const int64_t mr = s_.mr, nr = s_.nr;
    nbatch_ = 1;
    for (int64_t b : d.batch)
        nbatch_ *= b;
    // AMX: all of K in one block, so the four C tiles stay in tile
    // registers for the whole K loop and go to memory once, into a 4 KB
    // per-thread block that the epilogue reads from L1. The 32-row A panel
    // (32 x K) and the task's B block (nc x K) then live in L2; nc is capped
    // so that B block stays around 1 MB. VNNI keeps its L1-sized K blocks
    // (the s32 tile is in vector registers, its partial sums are cheap).
    const bool amx = kind_ == i8_kind_t::amx;
    kc_ = amx ? round_up(d.K, s_.kalign) : std::min(k_kc, round_up(d.K, s_.kalign));
    const int64_t nc_max = amx
            ? std::max<int64_t>(nr, std::min(k_nc_max, k_amx_b_bytes / kc_ / nr * nr))
            : k_nc_max;
    // As in gemm_driver: largest blocks first, then split N (cheap: only A
    // is repacked) before M until every thread has a few tasks.
    const int64_t mc_max = kind_ == i8_kind_t::amx ? 2 * k_mc_max : k_mc_max;
    const int64_t want = nthreads > 1 ? nthreads * k_tasks_per_thread : 1;
    gemm::split_rule_t rule;
    rule.min_nc = 4 * nr;
    rule.min_mc = 4 * mr;
    const gemm::block_grid_t g = gemm::split_blocks(
            d.M, d.N, nbatch_, mr, nr, mc_max, nc_max, want, rule);
    mc_ = g.mc;
    nc_ = g.nc;
    mblocks_ = g.mblocks;
    nblocks_ = g.nblocks;

    const i8_kind_t ek = kind_ == i8_kind_t::amx ? i8_kind_t::vnni512 : kind_;
    if (kind_ == i8_kind_t::amx) {
        LLGA_RETURN_IF_ERROR(get_i8_amx_kernel(d.src_s8, &amx_));
        // The panel kernel has the epilogue built in: not with a chain.
        for (int rt = 0; rt < 2 && !d.has_chain(); ++rt)
            LLGA_RETURN_IF_ERROR(get_i8_amx_panel_kernel(
                    d.src_s8, d.dst, rt != 0, &amx_panel_[rt]));
    }
    const i8_shape_t es = i8_shape(ek);
    // u8 A on AVX2: panels whose bytes are all below 128 run the 7-bit
    // kernels (s8 A is stored shifted, so its bytes span the whole range).
    // LLGA_GEMM_I8_A7=0 keeps every panel on the 16-bit kernels.
    static const long long a7_knob = knob_int(knob_t::gemm_i8_a7, 1);
    a7_ = kind_ == i8_kind_t::avx2 && !d.src_s8 && a7_knob != 0;
    for (int m = 1; m <= es.mr; ++m)
        for (int v = 1; v <= es.nr / es.width; ++v) {
            LLGA_RETURN_IF_ERROR(
                    get_i8_ukernel(ek, m, v, d.dst, &fns_[m - 1][v - 1]));
            if (a7_)
                LLGA_RETURN_IF_ERROR(get_i8_ukernel(ek, m, v, d.dst,
                        &fns7_[m - 1][v - 1], true));
            // The chain's f32 kernels: same vector width and tile columns,
            // at least as many rows (6 x 16 on AVX2, 12 x 32 on AVX-512).
            if (d.has_chain())
                LLGA_RETURN_IF_ERROR(gemm::get_ukernel(es.width == 16
                                ? gemm::ukr_kind_t::f32_avx512
                                : gemm::ukr_kind_t::f32_avx2,
                        m, v, false, d.post, &chain_[m - 1][v - 1]));
        }
    return dnnl_success;
}

bool gemm_int8_t::a_in_place(const char *a) const {
    // A tile load takes 16 rows of 64 bytes of k: A's own rows serve when
    // K is contiguous in whole 64-byte chunks and the rows suit tile loads
    // (else A is packed with rows one line more than K apart).
    return d_.sak == 1 && d_.K % 64 == 0 && tile_rows_in_place(a, d_.sam);
}

int64_t gemm_int8_t::kpad(int64_t kc) const {
    return round_up(kc, s_.kalign);
}

std::string gemm_int8_t::blocking_str() const {
    return std::string("isa=") + i8_kind_name(kind_) + " mc="
            + std::to_string(mc_) + " nc=" + std::to_string(nc_)
            + " kc=" + std::to_string(kc_)
            + " tasks=" + std::to_string(nbatch_ * mblocks_ * nblocks_);
}

void gemm_int8_t::task_origin(int64_t task, int64_t *m0, int64_t *n0,
        int64_t *aoff, int64_t *boff, int64_t *doff) const {
    gemm::task_origin(task, {mc_, nc_, mblocks_, nblocks_},
            {d_.batch, d_.a_bs, d_.b_bs, d_.d_bs}, m0, n0, aoff, boff, doff);
}

void gemm_int8_t::run_task(int64_t task, const call_t &c, scratch_t &sc) const {
    const gemm_int8_desc_t &d = d_;
    const gemm_int8_params_t &p = *c.p;
    const bool amx = kind_ == i8_kind_t::amx;
    // The epilogue tile shape (AMX blocks are finished by vnni512 kernels).
    const int mr = amx ? 32 : s_.mr, nr = s_.nr, W = s_.width;
    const int emr = amx ? 12 : s_.mr;
    const bool chain = d.has_chain();
    const int es = chain ? static_cast<int>(gemm::po_dt_size(d.post.dst_dt))
                         : i8_dst_bytes(d.dst);
    int64_t m0, n0, aoff, boff, doff;
    task_origin(task, &m0, &n0, &aoff, &boff, &doff);
    const int64_t mc = std::min(mc_, d.M - m0), nc = std::min(nc_, d.N - n0);
    const int64_t ncp = round_up(nc, nr), nstrips = ncp / nr;
    const int64_t mpanels = div_up(mc, mr);
    const char *A = c.a + aoff + m0 * d.sam;
    const char *B = c.b + boff + n0 * d.sbn;
    char *D = c.dst + (doff + m0 * d.sdm + n0) * es;
    const bool shift = d.src_s8 && !amx;
    const bool need_colsum = shift || p.src_zp != 0;

    // Per-column values: compensation (s32), scale and bias (f32), padded.
    int32_t *colsum = static_cast<int32_t *>(sc.cols.get(ncp * 16));
    int32_t *comp = colsum + ncp;
    float *scale = reinterpret_cast<float *>(comp + ncp);
    float *bias = scale + ncp;
    std::memset(colsum, 0, ncp * 16);
    for (int64_t j = 0; j < nc; ++j) {
        const float ws = p.wei_scales
                ? p.wei_scales[d.wei_scale_per_col ? n0 + j : 0]
                : 1.f;
        scale[j] = p.src_scale * ws;
        if (p.bias) bias[j] = p.bias[n0 + j];
    }
    if (need_colsum && c.packed_b)
        std::memcpy(colsum,
                c.packed_b + nblocks_ * kblocks() * packed_block_bytes()
                        + n0 * 4,
                nc * 4);
    // Row term of the weight zero point: -zp_b * sum_k A[i, k].
    int32_t *rowterm = nullptr;
    if (p.wei_zp != 0) {
        rowterm = static_cast<int32_t *>(
                sc.rows.get(round_up(mc, 32) * 4));
        std::memset(rowterm, 0, round_up(mc, 32) * 4);
        rowsum_a(A, d.src_s8, d.sam, d.sak, static_cast<int>(mc), d.K,
                rowterm);
        for (int64_t i = 0; i < mc; ++i)
            rowterm[i] *= -p.wei_zp;
    }

    const bool multi_k = kblocks() > 1;
    // AMX: 32 x 32 blocks (K is never blocked), rows 128 bytes apart.
    const int64_t ldacc = amx ? nr * 4 : ncp * 4;
    // AMX: the panel kernel's ring of two blocks; the block kernel uses
    // the first.
    int32_t *acc = amx ? static_cast<int32_t *>(sc.acc.get(2 * mr * ldacc))
            : multi_k ? static_cast<int32_t *>(sc.acc.get(round_up(mc, mr) * ldacc))
                      : nullptr;
    const int64_t kp_max = kpad(kc_);
    // AMX A rows are one line more than K apart: a power-of-two K would put
    // all 32 rows of a tile load in one L1 set.
    const int64_t lda = amx ? kp_max + 64 : 0;
    // The AVX2 kernels without VNNI read A widened to 16 bits.
    const bool a_words = kind_ == i8_kind_t::avx2;
    uint8_t *ap = static_cast<uint8_t *>(sc.a.get(amx ? mpanels * mr * lda
                    : a_words                     ? 2 * mr * kp_max
                                                  : mr * kp_max));
    // AMX: the first `nin` panels are read in place (a_in_place).
    const int64_t nin = amx && a_in_place(A) ? mc / mr : 0;
    if (amx && nin < mpanels
            && (sc.a_serial != c.serial || sc.a_m0 != m0 || sc.a_off != aoff)) {
        // The rest of the M block of A (all of K), packed once per thread
        // and M block: the task order makes a thread's tasks share M blocks.
        for (int64_t i = nin; i < mpanels; ++i)
            pack_a_amx(reinterpret_cast<const uint8_t *>(A + i * mr * d.sam),
                    d.sam, d.sak,
                    static_cast<int>(std::min<int64_t>(mr, mc - i * mr)), d.K,
                    kp_max, lda, ap + i * mr * lda);
        sc.a_serial = c.serial;
        sc.a_m0 = m0;
        sc.a_off = aoff;
    }
    auto a_panel = [&](int64_t i) {
        return i < nin ? reinterpret_cast<const uint8_t *>(A + i * mr * d.sam)
                       : ap + i * mr * lda;
    };
    int8_t *bp = static_cast<int8_t *>(sc.b.get(ncp * kp_max));
    char *tail = static_cast<char *>(sc.tail.get(32 * nr * 4));
    // With a chain: the tile's f32 values (whole vectors, rows nr apart),
    // the f32 kernel's arguments and the tile's operand table.
    float *ftile = chain ? static_cast<float *>(sc.ftile.get(emr * nr * 4))
                         : nullptr;
    gemm::ukr_args_t fa;
    std::memset(&fa, 0, sizeof(fa));
    fa.acc = ftile;
    fa.ldacc = nr * 4;
    fa.flags = gemm::k_ukr_accumulate | gemm::k_ukr_last;
    gemm::postop_ptr_t pot[gemm::k_max_po_operands];
    fa.po = pot;
    // The operands at the task's first element; a tile's are then its row
    // times each operand's row stride plus its column times the element
    // size of those that vary by column.
    gemm::postop_ptr_t po0[gemm::k_max_po_operands];
    int64_t po_col[gemm::k_max_po_operands];
    int npo = 0;
    if (chain) {
        gemm::po_operand_table(d.post, d.batch, task / (nblocks_ * mblocks_),
                p.po_args, m0, n0, po0);
        for (const gemm::postop_t &op : d.post.ops)
            if (op.has_operand())
                po_col[npo++] = op.bcast == gemm::po_bcast_t::col
                                || op.bcast == gemm::po_bcast_t::full
                        ? static_cast<int64_t>(gemm::po_dt_size(op.src_dt))
                        : 0;
    }

    i8_args_t args = c.proto;
    args.ldacc = ldacc;
    args.comp = comp;
    args.scale = scale;
    args.bias = bias;
    i8_args_t ep = args; // AMX epilogue calls
    for (int64_t k0 = 0; k0 < d.K; k0 += kc_) {
        const int64_t kc = std::min(kc_, d.K - k0), kp = kpad(kc);
        const int64_t b_strip = kp * nr;
        const bool last = k0 + kc == d.K;
        const int8_t *bpanel = bp;
        if (c.packed_b)
            bpanel = reinterpret_cast<const int8_t *>(c.packed_b
                    + ((n0 / nc_) * kblocks() + k0 / kc_)
                            * packed_block_bytes());
        else
            pack_b_int8(reinterpret_cast<const int8_t *>(B + k0 * d.sbk),
                    d.sbk, d.sbn, static_cast<int>(nc), kc, nr, kp, bp,
                    need_colsum ? colsum : nullptr, b_flip());
        if (last) {
            const int64_t kk = static_cast<int64_t>(d.K) * p.src_zp * p.wei_zp;
            const int64_t f = (shift ? 128 : 0) + p.src_zp;
            for (int64_t j = 0; j < ncp; ++j)
                comp[j] = static_cast<int32_t>(kk - f * colsum[j]);
        }
        int64_t flags = 0;
        if (k0 > 0) flags |= k_i8_accumulate;
        if (last) flags |= k_i8_last;
        if (p.bias) flags |= k_i8_bias;
        if (rowterm) flags |= k_i8_rowterm;
        args.k = amx ? kp / 64 : kp / 4;
        args.flags = amx ? (flags & k_i8_accumulate) : flags;
        ep.k = 0;
        ep.flags = (flags & ~k_i8_accumulate) | k_i8_accumulate;
        // AMX: the whole strips of every panel go to one panel-kernel call
        // (epilogue fused); a partial last strip to the block kernel and
        // the VNNI epilogue, panel by panel.
        const int64_t whole = amx && !chain ? nc / nr : 0;
        if (whole > 0) {
            // One call for the in-place panels, one for the packed ones.
            for (int part = 0; part < 2; ++part) {
                const int64_t i0 = part == 0 ? 0 : nin,
                              i1 = part == 0 ? nin : mpanels;
                if (i0 == i1) continue;
                i8_args_t pk = c.proto;
                pk.a = a_panel(i0);
                pk.lda = i0 < nin ? d.sam : lda;
                pk.b = bpanel;
                pk.k = args.k;
                pk.acc = acc;
                pk.dst = D + i0 * mr * d.sdm * es;
                pk.ldd = d.sdm * es;
                pk.comp = comp;
                pk.scale = scale;
                pk.bias = bias;
                pk.rowterm = rowterm ? rowterm + i0 * mr : nullptr;
                pk.rows = std::min(mc, i1 * mr) - i0 * mr;
                pk.nstrips = whole;
                pk.flags = 0;
                if (i0 == 0) pk.flags |= k_i8_amx_config;
                if (p.bias) pk.flags |= k_i8_bias;
                if (i1 == mpanels && whole == nstrips)
                    pk.flags |= k_i8_amx_release;
                amx_panel_[rowterm ? 1 : 0](&pk);
            }
        }
        for (int64_t i = 0; i < mpanels && whole < nstrips; ++i) {
            const int rows = static_cast<int>(std::min<int64_t>(mr, mc - i * mr));
            bool panel_a7 = false;
            if (amx) {
                args.a = a_panel(i);
                args.lda = i < nin ? d.sam : lda;
            } else {
                const uint8_t *asrc = reinterpret_cast<const uint8_t *>(
                        A + i * mr * d.sam + k0 * d.sak);
                panel_a7 = a7_ && bytes_below_128(asrc, d.sam, d.sak, rows, kc);
                if (a_words && !panel_a7)
                    pack_a_words(asrc, d.sam, d.sak, rows, kc, mr, shift,
                            reinterpret_cast<uint16_t *>(ap));
                else
                    pack_a_vnni(asrc, d.sam, d.sak, rows, kc, mr, shift, ap);
                args.a = ap;
            }
            const auto &fns = panel_a7 ? fns7_ : fns_;
            for (int64_t j = whole; j < nstrips; ++j) {
                const int cols = static_cast<int>(std::min<int64_t>(nr, nc - j * nr));
                const int nv = static_cast<int>(div_up(cols, W));
                const bool partial = cols % W != 0;
                args.b = bpanel + j * b_strip;
                int32_t *cblk = amx ? acc
                        : acc ? reinterpret_cast<int32_t *>(reinterpret_cast<char *>(acc)
                                + i * mr * ldacc + j * nr * 4)
                              : nullptr;
                args.acc = cblk;
                char *dtile = D + (i * mr * d.sdm + j * nr) * es;
                const int64_t ldd = d.sdm * es;
                // The epilogue for rows [r0, r0 + er) of this tile.
                auto finish = [&](i8_args_t &x, int r0, int er,
                                      i8_fn_t fn) {
                    x.comp = comp + j * nr;
                    x.scale = scale + j * nr;
                    x.bias = bias + j * nr;
                    x.rowterm = rowterm ? rowterm + i * mr + r0 : nullptr;
                    if (chain) {
                        // f32 values to the block, then the chain from it
                        // to dst (masked, so no tail copy).
                        x.dst = ftile;
                        x.ldd = nr * 4;
                        fn(&x);
                        const int lanes = cols - (nv - 1) * W;
                        fa.kmask = (int64_t(1) << lanes) - 1;
                        fa.ymask = gemm::k_ymask_table + 8
                                - std::min(lanes, 8);
                        fa.dst = dtile + r0 * ldd;
                        fa.ldd = ldd;
                        for (int k = 0; k < npo; ++k) {
                            pot[k].p = static_cast<const char *>(po0[k].p)
                                    + (i * mr + r0) * po0[k].ld
                                    + j * nr * po_col[k];
                            pot[k].ld = po0[k].ld;
                        }
                        chain_[er - 1][nv - 1](&fa);
                        return;
                    }
                    x.dst = partial ? tail : dtile + r0 * ldd;
                    x.ldd = partial ? nr * es : ldd;
                    fn(&x);
                    if (partial)
                        for (int r = 0; r < er; ++r)
                            std::memcpy(dtile + (r0 + r) * ldd, tail + r * nr * es,
                                    static_cast<size_t>(cols) * es);
                };
                if (amx) {
                    // Tile configuration once per task (see get_i8_amx_kernel);
                    // j == 0 only when no panel kernel ran before.
                    const int64_t f = args.flags;
                    if (k0 == 0 && i == 0 && j == 0) args.flags |= k_i8_amx_config;
                    if (last && i == mpanels - 1 && j == nstrips - 1)
                        args.flags |= k_i8_amx_release;
                    amx_(&args);
                    args.flags = f;
                    if (!last) continue;
                    for (int r0 = 0; r0 < rows; r0 += emr) {
                        const int er = std::min(emr, rows - r0);
                        ep.acc = reinterpret_cast<int32_t *>(
                                reinterpret_cast<char *>(cblk) + r0 * ldacc);
                        finish(ep, r0, er, fns_[er - 1][nv - 1]);
                    }
                } else if (last) {
                    finish(args, 0, rows, fns[rows - 1][nv - 1]);
                } else {
                    fns[rows - 1][nv - 1](&args);
                }
            }
        }
    }
}

void gemm_int8_t::execute(const void *a, const void *b, void *dst,
        const gemm_int8_params_t &p, const void *packed_b) const {
    call_t c;
    c.a = static_cast<const char *>(a);
    c.b = static_cast<const char *>(b);
    c.dst = static_cast<char *>(dst);
    c.packed_b = static_cast<const char *>(packed_b);
    // u8 B is packed as s8 values b - 128: its zero point moves with it.
    gemm_int8_params_t q = p;
    if (d_.wei_u8) q.wei_zp -= 128;
    c.p = &q;
    static std::atomic<uint64_t> serial {0};
    c.serial = ++serial;
    std::memset(&c.proto, 0, sizeof(c.proto));
    c.proto.dst_mul = 1.f / p.dst_scale;
    c.proto.dst_zp = static_cast<float>(p.dst_zp);
    c.proto.lo = std::max(p.q_lo, d_.dst == i8_dst_t::u8 ? 0.f : -128.f);
    c.proto.hi = std::min(p.q_hi, d_.dst == i8_dst_t::u8 ? 255.f : 127.f);
    c.proto.one = 1;
    c.proto.round_bias = 0x7fff;
    const int64_t tasks = nbatch_ * mblocks_ * nblocks_;
    parallel_for(tasks, 1, [&](int64_t lo, int64_t hi) {
        thread_local scratch_t sc;
        for (int64_t t = lo; t < hi; ++t)
            run_task(t, c, sc);
    });
}

bool gemm_int8_t::can_prepack_b() const {
    for (int64_t s : d_.b_bs)
        if (s != 0) return false;
    return true;
}

size_t gemm_int8_t::packed_block_bytes() const {
    return static_cast<size_t>(round_up(nc_, s_.nr) * kpad(kc_));
}

size_t gemm_int8_t::packed_b_bytes() const {
    return static_cast<size_t>(nblocks_ * kblocks()) * packed_block_bytes()
            + static_cast<size_t>(nblocks_ * nc_) * 4;
}

void gemm_int8_t::prepack_b(const void *b, void *packed) const {
    const gemm_int8_desc_t &d = d_;
    const int64_t nk = kblocks();
    char *out = static_cast<char *>(packed);
    int32_t *colsum = reinterpret_cast<int32_t *>(
            out + nblocks_ * nk * packed_block_bytes());
    // One task per N block: it owns its column sums across the K blocks.
    parallel_for(nblocks_, 1, [&](int64_t lo, int64_t hi) {
        for (int64_t nbk = lo; nbk < hi; ++nbk) {
            const int64_t n0 = nbk * nc_, nc = std::min(nc_, d.N - n0);
            std::memset(colsum + n0, 0, nc_ * 4);
            for (int64_t kb = 0; kb < nk; ++kb) {
                const int64_t k0 = kb * kc_, kc = std::min(kc_, d.K - k0);
                const int8_t *src = static_cast<const int8_t *>(b) + n0 * d.sbn
                        + k0 * d.sbk;
                pack_b_int8(src, d.sbk, d.sbn, static_cast<int>(nc), kc, s_.nr,
                        kpad(kc),
                        reinterpret_cast<int8_t *>(
                                out + (nbk * nk + kb) * packed_block_bytes()),
                        colsum + n0, b_flip());
            }
        }
    });
}

} // namespace gemm_int8
} // namespace cpu
} // namespace llga
