// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/conv/conv_brg_cfg.cpp — the data side of the direct
// Convolution (see conv_brg_cfg.hpp): which layout a layer runs with
// (configure_brg), the weight packing of both flavours, and the input
// copies (zero-bordered, or the dense pixels of a strided 1x1).
#include "backends/cpu/kernels/conv/conv_brg_cfg_p.hpp"

#include <algorithm>
#include <cstring>
#include <string>

#include "backends/cpu/kernels/conv/conv_brg_p.hpp"
#include "base/parallel.hpp"

namespace llga {
namespace cpu {
namespace conv {

bool configure_brg(const compiler::plan_t &plan, isa_t isa, int nthreads,
        brg_cfg_t &c, std::string *why) {
    auto decline = [&](const std::string &m) {
        if (why) *why = m;
        return false;
    };
    conv_desc_t &d = c.d;
    if (!analyse(plan, d, why)) return false;
    if (isa == isa_t::avx512_core) {
        if (d.bf16()) return decline("bf16 direct conv needs avx512_core_bf16");
    } else if (isa == isa_t::avx512_core_amx) {
        if (!d.bf16()) return decline("f32 direct conv runs on avx512_core");
        c.amx = true;
    } else if (isa == isa_t::avx512_core_bf16) {
        if (!d.bf16()) return decline("f32 direct conv runs on avx512_core");
    } else {
        return decline(std::string("no direct conv generator for ")
                + isa_name(isa));
    }
    if (!d.nxc) return decline("direct conv: channel-first data");
    if (d.G != 1) return decline("direct conv: groups");
    if (d.KD != 1 || d.ID != 1 || d.OD != 1)
        return decline("direct conv: 3D spatial");
    if (d.ss[1] != 1 || d.ds[1] != 1)
        return decline("direct conv: channel stride != 1");
    // vdpbf16ps reads input channel pairs (AMX rows are plain k runs).
    if (d.bf16() && !c.amx && d.ICg % 2)
        return decline("direct conv: bf16 with odd input channels");
    c.IH = d.IH;
    c.IW = d.IW;
    c.PH = d.PH;
    c.PW = d.PW;
    c.sn = d.ss[0];
    c.OH = d.OH;
    c.OW = d.OW;
    c.sh = d.ss[3];
    c.sw = d.ss[4];
    c.dh = d.ds[3];
    c.dw = d.ds[4];
    if (c.amx && (d.DW == 1 ? d.KW : 1) * d.ICg % 32) {
        if (d.KH * d.KW * d.ICg > 1024)
            return decline("AMX direct conv: K per tap is not a multiple "
                           "of 32");
        c.patch = true;
    }
    if (!c.patch && d.is_1x1_dense() && d.ss[3] == d.IW * d.ss[4]
            && d.ds[3] == d.OW * d.ds[4]) {
        c.IW = c.OW = d.IH * d.IW;
        c.IH = c.OH = 1;
    }
    c.SH = d.SH;
    c.SW = d.SW;
    if (c.amx && !c.patch && d.KH == 1 && d.KW == 1 && d.PH == 0 && d.PW == 0
            && (d.SH > 1 || d.SW > 1)) {
        c.sub = true;
        c.IH = c.OH = 1;
        c.IW = c.OW = d.OH * d.OW;
        c.SH = c.SW = 1;
        c.sw = d.ICg;
        c.sh = c.sn = c.IW * d.ICg;
    }
    {
        const int64_t lastw = (c.OW - 1) * c.SW - d.PW + (d.KW - 1) * d.DW;
        const int64_t lasth = (c.OH - 1) * c.SH - d.PH + (d.KH - 1) * d.DH;
        // AMX reads whole 16-row tiles: several taps read through a copy
        // with slack at its end (one tap reads in place or via a bounce).
        const bool amx_copy = c.amx && (d.KH * d.KW > 1 || c.patch);
        if (d.PW > 0 || d.PH > 0 || lastw >= c.IW || lasth >= c.IH
                || amx_copy) {
            c.pad = true;
            c.PHt = d.PH;
            c.PWl = d.PW;
            c.IW = d.PW + std::max(lastw + 1, c.IW);
            c.IH = d.PH + std::max(lasth + 1, c.IH);
            c.PH = c.PW = 0;
            c.sw = d.ICg;
            c.sh = c.IW * d.ICg;
            c.sn = c.IH * c.sh;
        }
    }
    if (c.amx && !c.patch && c.pad && (c.SH > 1 || c.SW > 1) && c.OH > 1) {
        c.phase = true;
        c.IH = (c.IH + c.SH - 1) / c.SH; // phase image rows / columns
        c.IW = (c.IW + c.SW - 1) / c.SW;
        c.sh = c.IW * d.ICg;
        c.psz = c.IH * c.sh;
        c.sn = c.SH * c.SW * c.psz;
        c.SH = c.SW = 1; // inside a phase
    }
    c.merge_kw = d.DW == 1 && c.sw == d.ICg && !c.phase;
    c.runk = c.patch ? (d.KH * d.KW * d.ICg + 31) / 32 * 32
                     : (c.merge_kw ? d.KW : 1) * d.ICg;
    if (c.amx && c.runk % 32)
        return decline("AMX direct conv: K per tap is not a multiple of 32");
    c.src_bytes = (d.ss[0] * (d.N - 1) + d.ss[3] * (d.IH - 1)
                          + d.ss[4] * (d.IW - 1) + d.ICg)
            * (d.bf16() ? 2 : 4);
    const int64_t es = d.bf16() ? 2 : 4, esd = d.dst_dt == dnnl_bf16 ? 2 : 4;
    // Baked displacements must fit the 32-bit fields.
    const int64_t lim = int64_t(1) << 30;
    if (c.SW * c.sw * es * 28 >= lim || c.dw * esd * 28 >= lim)
        return decline("direct conv: pixel strides too large");
    const int64_t OC = d.OCg;
    // Two zmm of channels by 14 pixels: 28 accumulators, and 14 pixels
    // tile the ResNet rows (7, 14, 28, 56, 112 and 2 rows of 7) exactly.
    // One tap over a long row (dense 1x1): 4 zmm by 6 pixels, fewer loads
    // per FMA (10 per 24), measured faster there (and slower on 3x3); the
    // same for a small-IC stem (7x7x3: short k runs, long rows).
    const bool long_1tap = d.KH * d.KW == 1 && c.OW >= 48;
    const bool stem = d.ICg < 8 && c.OW >= 48;
    c.nv = c.amx ? 2
                 : static_cast<int>(std::min<int64_t>(
                         long_1tap || stem ? 4 : k_max_nv, (OC + 15) / 16));
    c.ocb = c.nv * 16;
    c.nocb = (OC + c.ocb - 1) / c.ocb;
    const int64_t last = OC - (c.nocb - 1) * c.ocb;
    c.last_nv = static_cast<int>((last + 15) / 16);
    c.last_tail = static_cast<int>(last % 16);
    c.ur = c.amx ? 32 : c.nv == 4 ? 6 : c.nv == 3 ? 9 : 14;
    if (c.amx && !c.patch && c.pad && c.SW == 1 && c.SH == 1 && c.OH > 1) {
        // (phase images count as stride 1 here)
        c.vflat = true;
        c.Qv = (c.OH - 1) * c.IW + c.OW;
    }
    if (!c.amx && 2 * c.OW <= c.ur && c.OH > 1) c.rh = c.ur / c.OW;
    c.ksteps = d.bf16() ? d.ICg / 2 : d.ICg;
    // Column chunks: whole ur blocks; split rows further when the tasks
    // would not feed the threads.
    const int64_t rows = c.vflat ? 1 : c.OH, row = c.vflat ? c.Qv : c.OW;
    c.cw = row;
    auto tasks = [&]() {
        return d.N * c.nocb * rows * ((row + c.cw - 1) / c.cw);
    };
    while (c.rh == 1 && tasks() < 8 * nthreads && c.cw > 2 * c.ur)
        c.cw = (c.cw / 2 + c.ur - 1) / c.ur * c.ur;
    c.nch = (row + c.cw - 1) / c.cw;
    return true;
}

size_t brg_weight_bytes(const brg_cfg_t &c) {
    const conv_desc_t &d = c.d;
    if (c.amx) // 32-value chunks of 2048 bytes per block
        return static_cast<size_t>(
                c.nocb * ((d.KH * d.KW * d.ICg + 31) / 32) * 2048);
    return static_cast<size_t>(c.nocb * d.KH * d.KW * c.ksteps * c.ocb * 4);
}

int64_t brg_woff(const brg_cfg_t &c, int64_t kh, int64_t kw) {
    const int64_t t = kh * c.d.KW + kw;
    return c.amx ? t * c.d.ICg / 32 * 2048 : t * c.ksteps * c.ocb * 4;
}

void brg_pack_weights(const brg_cfg_t &c_, const void *wei, char *out) {
    const conv_desc_t &d = c_.d;
    std::memset(out, 0, brg_weight_bytes(c_));
    const int64_t OC = d.OCg, IC = d.ICg, ocb = c_.ocb;
    parallel_for(c_.nocb * d.KH, 1, [&](int64_t lo, int64_t hi) {
        for (int64_t t = lo; t < hi; ++t) {
            const int64_t ob = t / d.KH, kh = t % d.KH;
            for (int64_t kw = 0; kw < d.KW; ++kw)
                for (int64_t ic = 0; ic < IC; ++ic) {
                    const int64_t tap = (ob * d.KH + kh) * d.KW + kw;
                    for (int64_t o = 0; o < ocb; ++o) {
                        const int64_t oc = ob * ocb + o;
                        if (oc >= OC) break;
                        const int64_t so = oc * d.ws[0] + ic * d.ws[1]
                                + kh * d.ws[3] + kw * d.ws[4];
                        if (c_.amx) {
                            // [k / 32][o / 16][k % 32 / 2][o % 16][k % 2]
                            const int64_t k = tap % (d.KH * d.KW) * IC + ic;
                            const int64_t e = ob * (brg_weight_bytes(c_) / c_.nocb / 2)
                                    + k / 32 * 1024 + o / 16 * 512
                                    + k % 32 / 2 * 32 + o % 16 * 2 + k % 2;
                            reinterpret_cast<uint16_t *>(out)[e]
                                    = static_cast<const uint16_t *>(wei)[so];
                        } else if (d.bf16()) {
                            const int64_t e = ((tap * c_.ksteps + ic / 2) * ocb
                                                      + o) * 2 + ic % 2;
                            reinterpret_cast<uint16_t *>(out)[e]
                                    = static_cast<const uint16_t *>(wei)[so];
                        } else {
                            const int64_t e = (tap * IC + ic) * ocb + o;
                            reinterpret_cast<float *>(out)[e]
                                    = static_cast<const float *>(wei)[so];
                        }
                    }
                }
        }
    });
}

void brg_pad_src(const brg_cfg_t &c_, const char *src, char *out) {
    const conv_desc_t &d = c_.d;
    const int64_t es = d.bf16() ? 2 : 4, IC = d.ICg;
    const size_t rowb = static_cast<size_t>(c_.sh * es);
    const size_t row = static_cast<size_t>(d.IW * IC * es);
    const size_t left = static_cast<size_t>(c_.PWl * IC * es);
    const size_t right = rowb - left - row;
    parallel_for(d.N * c_.IH, 4, [&](int64_t lo, int64_t hi) {
        for (int64_t t = lo; t < hi; ++t) {
            const int64_t n = t / c_.IH, ih = t % c_.IH - c_.PHt;
            char *o = out + t * rowb;
            if (ih < 0 || ih >= d.IH) {
                std::memset(o, 0, rowb);
                continue;
            }
            const char *s = src + (n * d.ss[0] + ih * d.ss[3]) * es;
            std::memset(o, 0, left);
            if (d.ss[4] == IC) {
                std::memcpy(o + left, s, row);
            } else {
                for (int64_t iw = 0; iw < d.IW; ++iw)
                    std::memcpy(o + left + iw * IC * es, s + iw * d.ss[4] * es,
                            static_cast<size_t>(IC * es));
            }
            std::memset(o + left + row, 0, right);
        }
    });
}

void brg_phase_src(const brg_cfg_t &c, const char *src, char *out) {
    const conv_desc_t &d = c.d;
    const int64_t SH = d.SH, SW = d.SW, px = d.ICg * 2;
    const int64_t rows = d.N * SH * SW * c.IH;
    parallel_for(rows, 4, [&](int64_t lo, int64_t hi) {
        for (int64_t t = lo; t < hi; ++t) {
            const int64_t i = t % c.IH, ph = t / c.IH % (SH * SW),
                          n = t / (c.IH * SH * SW);
            const int64_t ih = i * SH + ph / SW - c.PHt;
            char *o = out + t * c.sh * 2;
            for (int64_t j = 0; j < c.IW; ++j) {
                const int64_t iw = j * SW + ph % SW - c.PWl;
                if (ih < 0 || ih >= d.IH || iw < 0 || iw >= d.IW)
                    std::memset(o + j * px, 0, static_cast<size_t>(px));
                else
                    std::memcpy(o + j * px,
                            src + (n * d.ss[0] + ih * d.ss[3] + iw * d.ss[4])
                                    * 2,
                            static_cast<size_t>(px));
            }
        }
    });
}

void brg_sub_src(const brg_cfg_t &c_, const char *src, char *out) {
    const conv_desc_t &d = c_.d;
    const size_t px = static_cast<size_t>(d.ICg * 2); // bf16 (AMX only)
    parallel_for(d.N * d.OH, 4, [&](int64_t lo, int64_t hi) {
        for (int64_t t = lo; t < hi; ++t) {
            const int64_t n = t / d.OH, oh = t % d.OH;
            char *o = out + t * d.OW * px;
            const char *s = src + (n * d.ss[0] + oh * d.SH * d.ss[3]) * 2;
            for (int64_t ow = 0; ow < d.OW; ++ow)
                std::memcpy(o + ow * px, s + ow * d.SW * d.ss[4] * 2, px);
        }
    });
}

} // namespace conv
} // namespace cpu
} // namespace llga
