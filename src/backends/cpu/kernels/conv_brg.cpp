// backends/cpu/kernels/conv_brg.cpp — direct ("batch-reduce") Convolution
// for channel-last data, groups 1, 1D/2D: no im2col. The driver: decides
// the layout (configure_brg), packs the weights once per OC block, makes
// the input copies, builds the tap tables and threads the calls of the
// generators in conv_brg.hpp. One call computes a tile of output pixels x
// one OC block (AVX-512: 14 pixels x 32 channels in zmm; AMX: 32 x 32 in
// tiles) with the sums kept in registers:
//
//   acc = 0 (or bias)
//   for each tap (src offset, weight offset):   (the table built here)
//     for each k step of the tap's run (IC, or KW*IC when merged):
//       acc[p][oc] += src[p * stride + k] * w[k][oc]
//   (+ bias), store f32 / bf16 (the OC tail masked)
//
// Padding never reaches the kernels: the input is copied with zero
// borders (dense pixels) when a pixel would see the padding, so every
// pixel uses every tap; the KW taps of a kernel row then merge into one
// contiguous run. Dense 1x1 stride-1 layers are one long row per image,
// short rows are tiled several at a time (AVX-512) or flattened into
// virtual pixels over the padded width (AMX). Threads take (image, OC
// block, row tile, column chunk), OC blocks outermost.
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <functional>
#include <vector>

#include "backends/cpu/kernels/conv.hpp"
#include "backends/cpu/kernels/conv_brg.hpp"
#include "backends/cpu/kernels/conv_analysis.hpp"
#include "backends/cpu/kernels/conv_copy.hpp"
#include "base/parallel.hpp"
#include "base/status.hpp"
#include "compiler/constant_prep.hpp"
#include "ir/dtype.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace conv {

namespace {

struct brg_cfg_t {
    conv_desc_t d;
    // Geometry as the kernel sees it (dense 1x1 stride 1: one row).
    int64_t IH = 1, IW = 1, OH = 1, OW = 1;
    int64_t sh = 0, sw = 0, dh = 0, dw = 0; // src/dst row and pixel strides
    int nv = 4;           // zmm per full OC block
    int64_t ocb = 64;     // channels per OC block
    int64_t nocb = 1;
    int last_nv = 4, last_tail = 0;
    int ur = 7;
    int64_t ksteps = 0;   // per input pixel (IC, bf16: IC / 2)
    // Border pixels (padding): the input is copied with zero borders
    // (dense pixels) so every output pixel sees every tap; IH/IW/sh/sw then
    // describe the copy, PH/PW are 0 and sn its image stride.
    bool pad = false;
    int64_t PH = 0, PW = 0, PHt = 0, PWl = 0, sn = 0;
    // Short rows: tiles of rh whole rows (rh * OW <= ur pixels).
    int64_t rh = 1;
    // Dense pixels and no column dilation: the KW taps of a kernel row are
    // one contiguous run of KW * ksteps k steps (one tap per kernel row).
    bool merge_kw = false;
    int64_t cw = 0;       // output columns per task chunk
    int64_t nch = 1;      // chunks per row
    // AMX flavour: 32-channel blocks, up to 32 pixels of a row per call;
    // K per tap run (runk values) a multiple of 32.
    bool amx = false;
    int64_t runk = 0;
    int64_t src_bytes = 0; // readable bytes of the in-place src
    // AMX, strides 1, padded copy: output rows flattened over the padded
    // width ("virtual" pixels q = oh * IW + ow, those with ow >= OW are
    // computed but not stored), so 32-pixel tiles span short rows.
    bool vflat = false;
    int64_t Qv = 0; // virtual pixels per image
    // Strides as the kernel sees them; AMX strided 1x1 reads a dense copy
    // of the pixels it uses (sub) as one stride-1 row per image.
    int64_t SH = 1, SW = 1;
    bool sub = false;
    // AMX with small IC (K per tap run not a multiple of 32, e.g. the 7x7
    // stem): per call, patch rows of all KH*KW*IC values (zero-padded to
    // runk) are built from the padded copy and run as one tap.
    bool patch = false;
};

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
    c.merge_kw = d.DW == 1 && c.sw == d.ICg;
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
    // tile the ResNet rows (7, 14, 28, 56, 112 and 2 rows of 7) exactly;
    // the weights are read from L2 at 128 bytes per 28 FMAs.
    c.nv = c.amx ? 2
                 : static_cast<int>(std::min<int64_t>(k_max_nv, (OC + 15) / 16));
    c.ocb = c.nv * 16;
    c.nocb = (OC + c.ocb - 1) / c.ocb;
    const int64_t last = OC - (c.nocb - 1) * c.ocb;
    c.last_nv = static_cast<int>((last + 15) / 16);
    c.last_tail = static_cast<int>(last % 16);
    c.ur = c.amx ? 32 : c.nv == 4 ? 6 : c.nv == 3 ? 9 : 14;
    if (c.amx && !c.patch && c.pad && c.SW == 1 && c.SH == 1 && c.OH > 1) {
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

class conv_brg_kernel_t : public compiler::kernel_t {
public:
    conv_brg_kernel_t(std::string name, const brg_cfg_t &c)
        : name_(std::move(name)), c_(c) {}
    const char *name() const override { return name_.c_str(); }
    status_t init();
    status_t execute(const compiler::exec_ctx_t &ctx) const override;

private:
    size_t wbytes() const {
        const conv_desc_t &d = c_.d;
        if (c_.amx) // 32-value chunks of 2048 bytes per block
            return static_cast<size_t>(c_.nocb
                    * ((d.KH * d.KW * d.ICg + 31) / 32) * 2048);
        return static_cast<size_t>(c_.nocb * d.KH * d.KW * c_.ksteps
                * c_.ocb * 4);
    }
    // Byte offset of tap (kh, kw)'s weights within an OC block.
    int64_t woff(int64_t kh, int64_t kw) const {
        const int64_t t = kh * c_.d.KW + kw;
        return c_.amx ? t * c_.d.ICg / 32 * 2048 : t * c_.ksteps * c_.ocb * 4;
    }
    void prep_weights(const void *wei, char *out) const;
    // src: image stride c_.sn elements, rows c_.sh, pixels c_.sw.
    void run(const char *src, const char *w, const float *bias,
            char *dst) const;
    // The input with zero borders (c_.pad) into `out`.
    void pad_src(const char *src, char *out) const;
    // The pixels a strided 1x1 reads, dense (c_.sub), into `out`.
    void sub_src(const char *src, char *out) const;

    std::string name_;
    brg_cfg_t c_;
    // [last OC block?][pixels 1..ur] (AMX: [A tiles 1..2])
    brg_fn_t fn_[2][15] = {};
    brg_void_fn_t cfg_load_ = nullptr, cfg_release_ = nullptr;
};

status_t conv_brg_kernel_t::init() {
    const conv_desc_t &d = c_.d;
    if (c_.amx) {
        LLGA_RETURN_IF_ERROR(get_brg_amx_cfg(&cfg_load_, &cfg_release_));
        for (int last = 0; last < 2; ++last)
            for (int tiles = 1; tiles <= 2; ++tiles) {
                const bool is_last = last || c_.nocb == 1;
                brg_desc_t k;
                std::memset(&k, 0, sizeof(k));
                std::memcpy(k.family, "conv_bga", 8);
                k.ur = tiles;
                k.nv = is_last ? c_.last_nv : 2;
                k.tail = is_last ? c_.last_tail : 0;
                k.bf16 = 1;
                k.dst_bf16 = d.dst_dt == dnnl_bf16;
                k.bias = d.has_bias;
                k.ksteps = c_.runk / 2;
                k.sstep = c_.patch ? c_.runk * 2 : c_.SW * c_.sw * 2;
                k.dstep = c_.dw * (k.dst_bf16 ? 2 : 4);
                k.rowtab = c_.vflat;
                LLGA_RETURN_IF_ERROR(get_brg_amx_kernel(k, &fn_[last][tiles]));
            }
        return dnnl_success;
    }
    for (int last = 0; last < 2; ++last) {
        if (last && c_.nocb == 1 && c_.last_nv == c_.nv && !c_.last_tail) {
            for (int u = 1; u <= c_.ur; ++u)
                fn_[1][u] = fn_[0][u];
            continue;
        }
        for (int u = 1; u <= c_.ur; ++u) {
            brg_desc_t k;
            std::memset(&k, 0, sizeof(k));
            std::memcpy(k.family, "conv_brg", 8);
            k.ur = u;
            const bool is_last = last || c_.nocb == 1;
            k.nv = is_last ? c_.last_nv : c_.nv;
            k.tail = is_last ? c_.last_tail : 0;
            k.bf16 = d.bf16();
            k.dst_bf16 = d.dst_dt == dnnl_bf16;
            k.bias = d.has_bias;
            k.ksteps = c_.merge_kw ? d.KW * c_.ksteps : c_.ksteps;
            k.sstep = c_.SW * c_.sw * (d.bf16() ? 2 : 4);
            k.dstep = c_.dw * (k.dst_bf16 ? 2 : 4);
            k.rw = c_.rh > 1 ? c_.OW : u;
            k.srow = c_.rh > 1 ? c_.SH * c_.sh * (d.bf16() ? 2 : 4) : 0;
            k.drow = c_.rh > 1 ? c_.dh * (k.dst_bf16 ? 2 : 4) : 0;
            // Row tiles use only whole rows.
            if (c_.rh > 1 && u % c_.OW) continue;
            k.wstride = c_.ocb * 4;
            LLGA_RETURN_IF_ERROR(get_brg_kernel(k, &fn_[last][u]));
        }
    }
    return dnnl_success;
}

void conv_brg_kernel_t::prep_weights(const void *wei, char *out) const {
    const conv_desc_t &d = c_.d;
    std::memset(out, 0, wbytes());
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
                            const int64_t e = ob * (wbytes() / c_.nocb / 2)
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

void conv_brg_kernel_t::pad_src(const char *src, char *out) const {
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

void conv_brg_kernel_t::sub_src(const char *src, char *out) const {
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

void conv_brg_kernel_t::run(const char *src, const char *w,
        const float *bias, char *dst) const {
    const conv_desc_t &d = c_.d;
    const int64_t es = d.bf16() ? 2 : 4, esd = d.dst_dt == dnnl_bf16 ? 2 : 4;
    const int64_t OW = c_.OW, IW = c_.IW, IH = c_.IH;
    const int64_t PW = c_.PW, PH = c_.PH, sn = c_.sn;
    const int64_t nrt
            = c_.vflat ? 1 : (c_.OH + c_.rh - 1) / c_.rh; // row tiles
    // Output columns whose kernel columns all land inside the input.
    int64_t lo = 0;
    while (lo < OW && lo * c_.SW - PW < 0)
        ++lo;
    int64_t hi = lo;
    while (hi < OW && hi * c_.SW - PW + (d.KW - 1) * d.DW < IW)
        ++hi;
    const size_t wblk = wbytes() / static_cast<size_t>(c_.nocb);
    // Patch rows are built once and serve every OC block of the call.
    const int64_t nob = c_.patch ? 1 : c_.nocb;
    const int64_t tasks = d.N * nob * nrt * c_.nch;
    parallel_for(tasks, 1, [&](int64_t b, int64_t e) {
        std::vector<int64_t> taps;
        taps.reserve(static_cast<size_t>(2 * d.KH * d.KW));
        alignas(64) float acc[32 * 32];
        int64_t rowtab[32];
        std::vector<char> bounce;
        // In-place AMX reads 16 rows per A tile: a block at the end of the
        // tensor reads its m rows from a copy (one tap: see configure).
        auto bounce_if_needed = [&](brg_args_t &a, std::vector<int64_t> &tp,
                                        int64_t m) {
            const int64_t sstep = c_.SW * c_.sw * 2;
            const int64_t first = a.src - src + tp[0];
            const int64_t rows = m > 16 ? 32 : 16;
            if (first + (rows - 1) * sstep + c_.runk * 2 <= c_.src_bytes)
                return;
            bounce.resize(static_cast<size_t>(32 * sstep + 64));
            for (int64_t i = 0; i < m; ++i)
                std::memcpy(bounce.data() + i * sstep,
                        a.src + tp[0] + i * sstep,
                        static_cast<size_t>(c_.runk * 2));
            a.src = bounce.data();
            tp[0] = 0;
        };
        // Patch rows (c_.patch): KH*KW runs per pixel; a run of up to 64
        // bytes is copied as 64 (the spill is overwritten by the next run
        // or lands in the slack), then the row's tail is zeroed.
        std::vector<char> patchbuf;
        auto build_patch = [&](brg_args_t &a, std::vector<int64_t> &tp,
                                   int64_t oh, int64_t o0, int64_t m) {
            const int64_t rowb = c_.runk * 2, ic2 = d.ICg * 2;
            const int64_t seg = (c_.merge_kw ? d.KW : 1) * ic2;
            const int64_t nk = c_.merge_kw ? 1 : d.KW;
            patchbuf.resize(static_cast<size_t>(32 * rowb + 64));
            char *pb = patchbuf.data();
            for (int64_t i = 0; i < m; ++i) {
                char *row = pb + i * rowb;
                int64_t at = 0;
                for (int64_t kh = 0; kh < d.KH; ++kh)
                    for (int64_t kw = 0; kw < nk; ++kw, at += seg) {
                        const int64_t ih = oh * c_.SH + kh * d.DH;
                        const int64_t iw = (o0 + i) * c_.SW + kw * d.DW;
                        const char *sp = a.src + (ih * c_.sh + iw * c_.sw) * 2;
                        if (seg <= 64)
                            std::memcpy(row + at, sp, 64);
                        else
                            std::memcpy(row + at, sp,
                                    static_cast<size_t>(seg));
                    }
                std::memset(row + at, 0, static_cast<size_t>(rowb - at));
            }
            a.src = pb;
            tp.assign({0, 0});
            a.taps = tp.data();
            a.ntaps = 1;
        };
        if (c_.amx) cfg_load_();
        for (int64_t t = b; t < e; ++t) {
            const int64_t ch = t % c_.nch;
            const int64_t oh = t / c_.nch % nrt * c_.rh;
            const int64_t ob = t / (c_.nch * nrt) % nob;
            const int64_t n = t / (c_.nch * nrt * nob);
            const bool last = ob + 1 == c_.nocb;
            brg_args_t args;
            args.src = src + n * sn * es;
            args.wei = w + ob * wblk;
            args.bias = bias + ob * c_.ocb;
            char *drow = dst + (n * d.ds[0] + oh * c_.dh + ob * c_.ocb) * esd;
            // Pixels [o0, o0 + np) with kernel columns [kw0, kw1).
            auto call = [&](int64_t o0, int np, int64_t kw0, int64_t kw1) {
                taps.clear();
                for (int64_t kh = 0; kh < d.KH; ++kh) {
                    const int64_t ih = oh * c_.SH - PH + kh * d.DH;
                    if (ih < 0 || ih >= IH) continue;
                    if (c_.merge_kw && kw0 == 0 && kw1 == d.KW) {
                        taps.push_back((ih * c_.sh + (o0 * c_.SW - PW) * c_.sw)
                                * es);
                        taps.push_back(woff(kh, 0));
                        continue;
                    }
                    for (int64_t kw = kw0; kw < kw1; ++kw) {
                        const int64_t iw = o0 * c_.SW - PW + kw * d.DW;
                        taps.push_back((ih * c_.sh + iw * c_.sw) * es);
                        taps.push_back(woff(kh, kw));
                    }
                }
                args.taps = taps.data();
                args.ntaps = static_cast<int64_t>(taps.size() / 2);
                args.dst = drow + o0 * c_.dw * esd;
                if (c_.amx) {
                    // Patch and bounce redirect src for this call only.
                    brg_args_t a = args;
                    a.m = np;
                    a.acc = acc;
                    if (c_.patch) {
                        build_patch(a, taps, oh, o0, np);
                        for (int64_t j = 0; j < c_.nocb; ++j) {
                            a.wei = w + j * wblk;
                            a.bias = bias + j * c_.ocb;
                            a.dst = args.dst + j * c_.ocb * esd;
                            fn_[j + 1 == c_.nocb][np > 16 ? 2 : 1](&a);
                        }
                        return;
                    }
                    if (!c_.pad && !c_.sub) bounce_if_needed(a, taps, np);
                    fn_[last][np > 16 ? 2 : 1](&a);
                    return;
                }
                fn_[last][np](&args);
            };
            auto border = [&](int64_t ow) {
                int64_t kw0 = 0, kw1 = d.KW;
                while (kw0 < d.KW && ow * c_.SW - PW + kw0 * d.DW < 0)
                    ++kw0;
                while (kw1 > kw0 && ow * c_.SW - PW + (kw1 - 1) * d.DW >= IW)
                    --kw1;
                call(ow, 1, kw0, kw1);
            };
            if (c_.vflat) { // virtual pixels over the padded width
                const int64_t q0 = ch * c_.cw,
                              q1 = std::min(c_.Qv, q0 + c_.cw);
                args.dst = dst + (n * d.ds[0] + ob * c_.ocb) * esd;
                args.acc = acc;
                args.rows = rowtab;
                for (int64_t q = q0; q < q1; q += 32) {
                    const int64_t m = std::min<int64_t>(32, q1 - q);
                    for (int64_t r = 0; r < m; ++r) {
                        const int64_t oh = (q + r) / IW, ow = (q + r) % IW;
                        rowtab[r] = ow < OW ? (oh * c_.dh + ow * c_.dw) * esd
                                            : -1;
                    }
                    taps.clear();
                    for (int64_t kh = 0; kh < d.KH; ++kh)
                        for (int64_t kw = 0; kw < (c_.merge_kw ? 1 : d.KW);
                                ++kw) {
                            taps.push_back((q + kh * d.DH * IW + kw * d.DW)
                                    * c_.sw * es);
                            taps.push_back(woff(kh, kw));
                        }
                    args.taps = taps.data();
                    args.ntaps = static_cast<int64_t>(taps.size() / 2);
                    args.m = m;
                    fn_[last][m > 16 ? 2 : 1](&args);
                }
                continue;
            }
            if (c_.rh > 1) { // whole rows, no borders (padded input)
                const int64_t r = std::min(c_.rh, c_.OH - oh);
                call(0, static_cast<int>(r * OW), 0, d.KW);
                continue;
            }
            const int64_t c0 = ch * c_.cw, c1 = std::min(OW, c0 + c_.cw);
            const int64_t i0 = std::clamp(lo, c0, c1),
                          i1 = std::clamp(hi, i0, c1);
            for (int64_t ow = c0; ow < i0; ++ow)
                border(ow);
            for (int64_t ow = i0; ow < i1; ow += c_.ur)
                call(ow, static_cast<int>(std::min<int64_t>(c_.ur, i1 - ow)),
                        0, d.KW);
            for (int64_t ow = i1; ow < c1; ++ow)
                border(ow);
        }
        if (c_.amx) cfg_release_();
    });
}

status_t conv_brg_kernel_t::execute(const compiler::exec_ctx_t &ctx) const {
    const conv_desc_t &d = c_.d;
    const void *wei = ctx.inputs[d.in_wei];
    rt::constant_ptr_t cached;
    std::vector<char> wtmp;
    const char *w = nullptr;
    if (d.wei_constant && compiler::constant_cache_enabled(ctx)) {
        compiler::constant_request_t req;
        req.backend = compiler::backend_id::cpu;
        req.slot = static_cast<size_t>(d.in_wei);
        req.src = wei;
        req.bytes = wbytes();
        req.detail = std::hash<std::string>()(name_ + d.str());
        LLGA_RETURN_IF_ERROR(compiler::get_prepared_constant(ctx, *this, req,
                [&](void *out) {
                    prep_weights(wei, static_cast<char *>(out));
                    return dnnl_success;
                },
                cached));
        w = static_cast<const char *>(cached->data());
    } else {
        wtmp.resize(wbytes());
        prep_weights(wei, wtmp.data());
        w = wtmp.data();
    }
    const std::vector<float> bias = bias_f32(d,
            d.has_bias ? ctx.inputs[d.in_bias] : nullptr, 64);
    const char *src = static_cast<const char *>(ctx.inputs[d.in_src]);
    char *dst = static_cast<char *>(ctx.outputs[d.out]);
    if (!c_.pad && !c_.sub) {
        run(src, w, bias.data(), dst);
        return dnnl_success;
    }
    // Reused per calling thread: no page faults per execution.
    thread_local std::vector<char> padded;
    // AMX: slack for the 16-row tiles read past the last pixel.
    const size_t bytes = static_cast<size_t>(d.N * c_.sn * (d.bf16() ? 2 : 4)
            + (c_.amx ? 32 * c_.SW * c_.sw * 2 + 64 : 0));
    if (padded.size() < bytes) padded.resize(bytes);
    if (c_.sub)
        sub_src(src, padded.data());
    else
        pad_src(src, padded.data());
    run(padded.data(), w, bias.data(), dst);
    return dnnl_success;
}

} // namespace

bool accepts_brg(const compiler::plan_t &plan, isa_t isa, std::string *why) {
    brg_cfg_t c;
    return configure_brg(plan, isa, rt::max_threads(), c, why);
}

status_t create_brg(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    brg_cfg_t c;
    std::string why;
    if (!configure_brg(plan, isa, rt::max_threads(), c, &why))
        return fail(dnnl_unimplemented, "cpu conv: %s", why.c_str());
    const std::string name = std::string("conv_brg_avx512")
            + (c.amx ? "_amx" : "") + (c.d.bf16() ? "_bf16" : "_f32")
            + (c.d.dst_dt == dnnl_bf16 ? "_bf16dst" : "");
    auto k = std::make_shared<conv_brg_kernel_t>(name, c);
    LLGA_RETURN_IF_ERROR(k->init());
    out = k;
    return dnnl_success;
}

} // namespace conv
} // namespace cpu
} // namespace llga
