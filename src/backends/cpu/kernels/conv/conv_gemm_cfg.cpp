// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/conv/conv_gemm_cfg.cpp — the layout decisions of the
// GEMM-based conv kernels (see conv_gemm_cfg.hpp): micro-kernel flavour per
// ISA, mode, weights as B, implicit blocking, and for fused partitions the
// epilogue in the orientation the mode reads the dst.
#include "backends/cpu/kernels/conv/conv_gemm_cfg_p.hpp"

#include <algorithm>

#include "backends/cpu/kernels/kernel_util.hpp"
#include "base/knobs.hpp"

namespace llga {
namespace cpu {
namespace conv {

namespace {

using gemm::ukr_kind_t;

bool pick_kind(const conv_desc_t &d, isa_t isa, ukr_kind_t &k,
        std::string *why) {
    if (!d.bf16()) {
        if (isa == isa_t::avx2)
            k = ukr_kind_t::f32_avx2;
        else if (isa == isa_t::avx512_core)
            k = ukr_kind_t::f32_avx512;
        else
            return decline(why, std::string("f32 is handled by the "
                                            "avx512_core/avx2 candidates, not ")
                            + isa_name(isa));
    } else {
        if (isa == isa_t::avx512_core_amx)
            k = ukr_kind_t::bf16_amx;
        else if (isa == isa_t::avx512_core_bf16)
            k = ukr_kind_t::bf16_avx512;
        else
            return decline(why, std::string("bf16 needs avx512_core_bf16 or "
                                            "avx512_core_amx, not ")
                            + isa_name(isa));
    }
    return true;
}

// The Convolution (and, fused, its chain and the value it ends in).
bool read_partition(const compiler::plan_t &plan, gemm_cfg_t &c,
        conv_chain_t &ch, std::string *why) {
    if (plan.ops.size() == 1) return analyse(plan, c.d, why);
    if (!find_conv_chain(plan, ch, why)) return false;
    if (!analyse_conv(plan, *ch.conv, *ch.dst, c.d, why)) return false;
    // A depthwise layer as GEMM is one N = 1 GEMM per channel: conv_dw plus
    // separate post-op kernels is far faster.
    if (c.d.depthwise())
        return decline(why, "fused depthwise Convolution: the direct "
                            "depthwise kernel runs it op by op");
    c.fused = true;
    return true;
}

// The epilogue of a fused partition in the orientation of c.mode.
bool map_epilogue(const compiler::plan_t &plan, const conv_chain_t &ch,
        gemm_cfg_t &c, std::string *why) {
    if (!c.fused) return true;
    conv_desc_t &d = c.d;
    const bool ncx_1x1 = c.mode == gemm_mode_t::direct_ncx;
    if (!map_conv_epilogue(plan, ch,
                ncx_1x1 ? gemm_view_t::channels_by_pixels
                        : gemm_view_t::pixels_by_channels,
                d, c.epi, why))
        return false;
    if (ncx_1x1 && d.has_bias) {
        // The bias varies along the rows here: an add of the kernel's f32
        // bias vector (operand -1), ahead of the chain.
        gemm::postop_t b = gemm::postop_t::make_binary(gemm::po_binary_t::add,
                gemm::po_bcast_t::row, gemm::po_dt_t::f32, 1);
        b.bs = {0};
        c.epi.post.ops.insert(c.epi.post.ops.begin(), b);
        po_operand_t o;
        o.port = -1;
        o.c_step = 1;
        c.epi.operands.insert(c.epi.operands.begin(), o);
    }
    if (c.epi.post.operand_count() > gemm::k_max_po_operands)
        return decline(why, "more post-op operands than the epilogue takes");
    return true;
}

// Minimum output row width for the stacked mode: each row is one GEMM of
// OW rows, and narrower ones leave the 6-row panels of the tile kernel
// short (and the GEMM's per-call costs unshared).
constexpr int64_t k_stacked_min_ow = 24;

// Whether the stacked mode runs the layer (see gemm_cfg_t::orows):
// 2D, dense kernel columns that overlap between neighbouring pixels
// (KW > SW), wide output rows; f32 on the AVX2 tile kernels, whose A can be
// read in place (LLGA_CONV_STACKED=0 turns it off, =1 drops the width
// rule).
bool stacked_wins(const conv_desc_t &d, ukr_kind_t kind) {
    static const long long knob = knob_int(knob_t::conv_stacked, -1);
    if (knob == 0 || kind != ukr_kind_t::f32_avx2) return false;
    if (d.KD != 1 || d.OD != 1 || d.DW != 1 || d.KW <= d.SW) return false;
    return knob == 1 || d.OW >= k_stacked_min_ow;
}

bool configure_stacked(const compiler::plan_t &plan, const conv_chain_t &ch,
        int nthreads, gemm_cfg_t &c, std::string *why) {
    const conv_desc_t &d = c.d;
    c.mode = gemm_mode_t::stacked;
    c.lda = d.SW * d.KH * d.ICg;
    c.iwp = (d.OW - 1) * d.SW + d.KW;
    // The weights in (kw, kh, ic) K order: read in place only when that is
    // one stride, which the im2col order check above saw only for KH = 1.
    if (d.KH != 1) {
        c.w_inplace = false;
        c.wsbk = d.OCg;
        c.wsbn = 1;
    }
    c.ncw = std::min<int64_t>(d.OCg, 512);
    c.orows = d.OH;
    auto tasks = [&]() {
        return d.N * div_up(d.OH, c.orows) * d.G * div_up(d.OCg, c.ncw);
    };
    while (tasks() < 4 * nthreads) {
        if (c.orows > 1)
            c.orows = div_up(c.orows, 2);
        else if (c.ncw > 64)
            c.ncw = round_up(c.ncw / 2, 32);
        else
            break;
    }
    c.nblk = div_up(d.OH, c.orows);
    c.nck = div_up(d.OCg, c.ncw);
    return map_epilogue(plan, ch, c, why);
}

} // namespace

bool configure_gemm(const compiler::plan_t &plan, isa_t isa, int nthreads,
        gemm_cfg_t &c, std::string *why) {
    conv_chain_t ch;
    if (!read_partition(plan, c, ch, why)) return false;
    conv_desc_t &d = c.d;
    if (!pick_kind(d, isa, c.kind, why)) return false;
    c.K = d.ksize() * d.ICg;
    {
        // (ic, kw, kh, kd) inner to outer, as in the GEMM's K index.
        const int64_t ext[4] = {d.ICg, d.KW, d.KH, d.KD};
        const int64_t str[4] = {d.ws[1], d.ws[4], d.ws[3], d.ws[2]};
        const int64_t q = collapse_stride(ext, str, 4);
        c.w_inplace = q > 0;
        c.wsbk = c.w_inplace ? q : d.OCg;
        c.wsbn = c.w_inplace ? d.ws[0] : 1;
    }
    c.qs = pixel_stride(d.ss, d.ID, d.IH, d.IW);
    c.qd = pixel_stride(d.ds, d.OD, d.OH, d.OW);
    const bool src_c1 = d.ss[1] == 1 || d.IC() == 1;
    const bool dst_c1 = d.ds[1] == 1 || d.OC() == 1;
    if (d.is_1x1_dense() && d.nxc && src_c1 && dst_c1 && c.qs > 0
            && c.qd > 0) {
        c.mode = gemm_mode_t::direct_nxc;
        return map_epilogue(plan, ch, c, why);
    }
    // A strided 1x1 whose taps all fall inside the input (no padding)
    // reads a subsampled grid: gathered once into a dense copy (a quarter
    // of the input at stride 2), it is a direct_ncx GEMM, instead of the
    // implicit path's dense NXC copies of all of src and dst.
    const bool taps_inside = d.ksize() == 1 && d.PD == 0 && d.PH == 0
            && d.PW == 0 && (d.OD - 1) * d.SD < d.ID
            && (d.OH - 1) * d.SH < d.IH && (d.OW - 1) * d.SW < d.IW;
    if (!d.nxc && c.qd == 1 && (!d.has_bias || d.dst_dt == dnnl_f32)
            && ((d.is_1x1_dense() && c.qs > 0) || taps_inside)) {
        c.mode = gemm_mode_t::direct_ncx;
        c.gather = !(d.is_1x1_dense() && c.qs > 0);
        return map_epilogue(plan, ch, c, why);
    }
    c.mode = gemm_mode_t::implicit;
    if (d.nxc && !(src_c1 && dst_c1 && c.qd > 0))
        return decline(why, "Convolution: channel-last src/dst without unit "
                            "channel stride or with uneven dst pixel strides");
    c.via_nxc = !d.nxc;
    if (c.via_nxc) c.qd = d.OC(); // the dense NXC dst scratch
    if (stacked_wins(d, c.kind))
        return configure_stacked(plan, ch, nthreads, c, why);
    // Panel rows: whole micro-kernel panels (12 rows; AMX 32), the panel
    // around 1 MiB so it stays near L2 while the GEMM reads it, and at most
    // one GEMM M block (the single-threaded GEMM then has one task).
    const int64_t es = d.bf16() ? 2 : 4;
    const int64_t P = d.opix();
    c.mb = std::clamp<int64_t>((int64_t(1) << 20) / (c.K * es) / 96 * 96, 96,
            384);
    c.mb = std::min(c.mb, round_up(P, 12));
    c.ncw = std::min<int64_t>(d.OCg, 512);
    // Enough tasks for the threads: smaller pixel blocks, then narrower
    // channel blocks.
    auto tasks = [&]() {
        return d.N * div_up(P, c.mb) * d.G * div_up(d.OCg, c.ncw);
    };
    while (tasks() < 4 * nthreads) {
        if (c.mb > 48)
            c.mb = round_up(c.mb / 2, 12);
        else if (c.ncw > 64)
            c.ncw = round_up(c.ncw / 2, 32);
        else
            break;
    }
    c.nblk = div_up(P, c.mb);
    c.nck = div_up(d.OCg, c.ncw);
    return map_epilogue(plan, ch, c, why);
}

} // namespace conv
} // namespace cpu
} // namespace llga
