// backends/cpu/kernels/conv_brg.cpp — direct ("batch-reduce") Convolution
// for channel-last data, groups 1, 1D/2D: no im2col. One JIT call computes
// a run of `ur` consecutive output pixels of one output row times one block
// of up to 4 zmm output channels, the sums kept in registers:
//
//   acc[ur][nv] = bias
//   for each valid tap (kh, kw):          (list built by the C++ side)
//     for each input channel (bf16: pair):
//       load the nv weight vectors once
//       acc[p][v] += broadcast(src[p * stride][ic]) * w[v]   (p < ur)
//   store (the last channel vector masked on the OC tail)
//
// Inputs are read in place with the stride baked into the code (embedded
// broadcasts); weights are prepacked once (constant cache) into
// [OC block][KH][KW][IC][64 channels] (bf16: [IC/2][64][2], vdpbf16ps).
// The C++ side drops kernel rows that fall into the padding, runs the
// interior of a row in ur-pixel blocks and border pixels one at a time
// with their own valid kernel columns. Dense 1x1 stride-1 layers are one
// long row per image. Threads take (image, OC block, row, column chunk).
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <functional>
#include <vector>

#include "backends/cpu/jit_runtime.hpp"
#include "backends/cpu/kernels/conv.hpp"
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

using namespace asmjit;

// The kernel's single argument; the generator reads it by offsetof.
struct brg_args_t {
    const char *src;     // input of pixel 0 at tap offset 0
    const char *wei;     // this OC block's packed weights
    const int64_t *taps; // (src byte offset, weight byte offset) pairs
    int64_t ntaps;
    char *dst;           // output pixel 0, channel 0 of the block
    const float *bias;   // the block's bias (padded), or unused
};
using brg_fn_t = void (*)(const brg_args_t *);

// zmm per OC block (32 channels); the generator handles up to 4 (ur 6).
constexpr int k_max_nv = 2;

struct brg_desc_t {
    char family[8];
    int32_t ur, nv, tail, bf16, dst_bf16, bias;
    int64_t ksteps;   // input channels (bf16: pairs) per tap
    int64_t sstep;    // bytes between the inputs of consecutive pixels
    int64_t dstep;    // bytes between consecutive output pixels
    int64_t wstride;  // bytes of weights per k step (nv_full * 64)
    // The ur pixels are rows of rw pixels (rw >= ur: one row); srow / drow
    // are the bytes between those rows in src / dst.
    int64_t rw, srow, drow;
};

class brg_gen_t {
public:
    brg_gen_t(x86::Assembler &a, const brg_desc_t &d) : a_(a), d_(d) {}

    void emit() {
        const int ur = d_.ur, nv = d_.nv;
        for (const x86::Gp &r : {x86::rbx, x86::rbp, x86::r12, x86::r13})
            a_.push(r);
        a_.mov(x86::rsi, field(offsetof(brg_args_t, src)));
        a_.mov(x86::r8, field(offsetof(brg_args_t, wei)));
        a_.mov(x86::r10, field(offsetof(brg_args_t, taps)));
        a_.mov(x86::r11, field(offsetof(brg_args_t, ntaps)));
        a_.mov(x86::rdx, field(offsetof(brg_args_t, dst)));
        a_.mov(x86::r9, field(offsetof(brg_args_t, bias)));
        if (d_.tail) {
            a_.mov(x86::eax, (1u << d_.tail) - 1);
            a_.kmovw(x86::k1, x86::eax);
        }
        // Start from the bias (or zero).
        for (int v = 0; v < nv; ++v) {
            if (d_.bias)
                a_.vmovups(acc(0, v), x86::ptr(x86::r9, v * 64));
            else
                a_.vpxord(acc(0, v), acc(0, v), acc(0, v));
            for (int p = 1; p < ur; ++p)
                a_.vmovaps(acc(p, v), acc(0, v));
        }
        Label tap = a_.newLabel(), tdone = a_.newLabel();
        a_.test(x86::r11, x86::r11);
        a_.jz(tdone);
        a_.bind(tap);
        a_.mov(x86::rax, x86::qword_ptr(x86::r10));
        a_.mov(x86::r12, x86::qword_ptr(x86::r10, 8));
        a_.add(x86::rax, x86::rsi);
        a_.add(x86::r12, x86::r8);
        // k steps: unrolled by k_unroll inside a counted loop, then the rest.
        const int64_t full = d_.ksteps / k_unroll;
        const int rest = static_cast<int>(d_.ksteps % k_unroll);
        if (full > 0) {
            Label kl = a_.newLabel();
            a_.mov(x86::rcx, full);
            a_.bind(kl);
            for (int u = 0; u < k_unroll; ++u)
                kstep(u);
            a_.add(x86::rax, k_unroll * kbytes());
            a_.add(x86::r12, k_unroll * d_.wstride);
            a_.dec(x86::rcx);
            a_.jnz(kl);
        }
        for (int u = 0; u < rest; ++u)
            kstep(u);
        a_.add(x86::r10, 16);
        a_.dec(x86::r11);
        a_.jnz(tap);
        a_.bind(tdone);
        store();
        for (const x86::Gp &r : {x86::r13, x86::r12, x86::rbp, x86::rbx})
            a_.pop(r);
        a_.vzeroupper();
        a_.ret();
    }

private:
    static constexpr int k_unroll = 4;

    x86::Mem field(size_t off) const {
        return x86::qword_ptr(x86::rdi, static_cast<int32_t>(off));
    }
    x86::Zmm acc(int p, int v) const { return x86::zmm(p * d_.nv + v); }
    // Registers: accumulators from zmm0, then nv weight vectors, then two
    // alternating broadcast registers (ur * nv + nv + 2 <= 32).
    x86::Zmm wvec(int v) const { return x86::zmm(d_.ur * d_.nv + v); }
    x86::Zmm bvec(int p) const {
        return x86::zmm(d_.ur * d_.nv + d_.nv + (p & 1));
    }
    // Bytes of input per k step: one f32 or one bf16 pair.
    int kbytes() const { return 4; }

    // One k step u of the unrolled group: rax/r12 point at the group start.
    void kstep(int u) {
        const int nv = d_.nv;
        for (int v = 0; v < nv; ++v)
            a_.vmovups(wvec(v),
                    x86::ptr(x86::r12,
                            static_cast<int32_t>(u * d_.wstride + v * 64)));
        // One broadcast load per pixel into a register (an embedded
        // broadcast would repeat the load for every channel vector).
        for (int p = 0; p < d_.ur; ++p) {
            const x86::Mem m = x86::dword_ptr(x86::rax,
                    static_cast<int32_t>(p / d_.rw * d_.srow
                            + p % d_.rw * d_.sstep + u * kbytes()));
            const x86::Zmm b = bvec(p);
            a_.vpbroadcastd(b, m);
            for (int v = 0; v < nv; ++v) {
                if (d_.bf16)
                    a_.vdpbf16ps(acc(p, v), wvec(v), b);
                else
                    a_.vfmadd231ps(acc(p, v), wvec(v), b);
            }
        }
    }

    void store() {
        const int nv = d_.nv;
        for (int p = 0; p < d_.ur; ++p)
            for (int v = 0; v < nv; ++v) {
                const bool masked = d_.tail && v == nv - 1;
                const int32_t off = static_cast<int32_t>(
                        p / d_.rw * d_.drow + p % d_.rw * d_.dstep
                        + v * (d_.dst_bf16 ? 32 : 64));
                const x86::Mem m = x86::ptr(x86::rdx, off);
                if (d_.dst_bf16) {
                    const x86::Ymm h = x86::ymm(31);
                    a_.vcvtneps2bf16(h, acc(p, v));
                    if (masked)
                        a_.k(x86::k1).vmovdqu16(m, h);
                    else
                        a_.vmovdqu16(m, h);
                } else if (masked) {
                    a_.k(x86::k1).vmovups(m, acc(p, v));
                } else {
                    a_.vmovups(m, acc(p, v));
                }
            }
    }

    x86::Assembler &a_;
    const brg_desc_t &d_;
};

status_t get_brg_kernel(const brg_desc_t &d, brg_fn_t *fn) {
    const std::string name = std::string("conv_brg_avx512")
            + (d.bf16 ? "_bf16" : "_f32") + "_ur" + std::to_string(d.ur)
            + "_nv" + std::to_string(d.nv);
    const void *entry = nullptr;
    LLGA_RETURN_IF_ERROR(jit_get_or_generate(
            std::string(reinterpret_cast<const char *>(&d), sizeof(d)),
            name.c_str(),
            [&](x86::Assembler &a) {
                brg_gen_t(a, d).emit();
                return dnnl_success;
            },
            &entry));
    *fn = reinterpret_cast<brg_fn_t>(const_cast<void *>(entry));
    return dnnl_success;
}

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
    if (d.bf16() && d.ICg % 2)
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
    if (d.is_1x1_dense() && d.ss[3] == d.IW * d.ss[4]
            && d.ds[3] == d.OW * d.ds[4]) {
        c.IW = c.OW = d.IH * d.IW;
        c.IH = c.OH = 1;
    }
    {
        const int64_t lastw = (c.OW - 1) * d.SW - d.PW + (d.KW - 1) * d.DW;
        const int64_t lasth = (c.OH - 1) * d.SH - d.PH + (d.KH - 1) * d.DH;
        if (d.PW > 0 || d.PH > 0 || lastw >= c.IW || lasth >= c.IH) {
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
    const int64_t es = d.bf16() ? 2 : 4, esd = d.dst_dt == dnnl_bf16 ? 2 : 4;
    // Baked displacements must fit the 32-bit fields.
    const int64_t lim = int64_t(1) << 30;
    if (d.SW * c.sw * es * 28 >= lim || c.dw * esd * 28 >= lim)
        return decline("direct conv: pixel strides too large");
    const int64_t OC = d.OCg;
    // Two zmm of channels by 14 pixels: 28 accumulators, and 14 pixels
    // tile the ResNet rows (7, 14, 28, 56, 112 and 2 rows of 7) exactly;
    // the weights are read from L2 at 128 bytes per 28 FMAs.
    c.nv = static_cast<int>(std::min<int64_t>(k_max_nv, (OC + 15) / 16));
    c.ocb = c.nv * 16;
    c.nocb = (OC + c.ocb - 1) / c.ocb;
    const int64_t last = OC - (c.nocb - 1) * c.ocb;
    c.last_nv = static_cast<int>((last + 15) / 16);
    c.last_tail = static_cast<int>(last % 16);
    c.ur = c.nv == 4 ? 6 : c.nv == 3 ? 9 : 14;
    if (2 * c.OW <= c.ur && c.OH > 1) c.rh = c.ur / c.OW;
    c.ksteps = d.bf16() ? d.ICg / 2 : d.ICg;
    // Column chunks: whole ur blocks; split rows further when the tasks
    // would not feed the threads.
    c.cw = c.OW;
    auto tasks = [&]() {
        return d.N * c.nocb * c.OH * ((c.OW + c.cw - 1) / c.cw);
    };
    while (c.rh == 1 && tasks() < 8 * nthreads && c.cw > 2 * c.ur)
        c.cw = (c.cw / 2 + c.ur - 1) / c.ur * c.ur;
    c.nch = (c.OW + c.cw - 1) / c.cw;
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
        return static_cast<size_t>(c_.nocb * d.KH * d.KW * c_.ksteps
                * c_.ocb * 4);
    }
    void prep_weights(const void *wei, char *out) const;
    // src: image stride c_.sn elements, rows c_.sh, pixels c_.sw.
    void run(const char *src, const char *w, const float *bias,
            char *dst) const;
    // The input with zero borders (c_.pad) into `out`.
    void pad_src(const char *src, char *out) const;

    std::string name_;
    brg_cfg_t c_;
    // [last OC block?][pixels 1..ur]
    brg_fn_t fn_[2][15] = {};
};

status_t conv_brg_kernel_t::init() {
    const conv_desc_t &d = c_.d;
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
            k.sstep = d.SW * c_.sw * (d.bf16() ? 2 : 4);
            k.dstep = c_.dw * (k.dst_bf16 ? 2 : 4);
            k.rw = c_.rh > 1 ? c_.OW : u;
            k.srow = c_.rh > 1 ? d.SH * c_.sh * (d.bf16() ? 2 : 4) : 0;
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
                        if (d.bf16()) {
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

void conv_brg_kernel_t::run(const char *src, const char *w,
        const float *bias, char *dst) const {
    const conv_desc_t &d = c_.d;
    const int64_t es = d.bf16() ? 2 : 4, esd = d.dst_dt == dnnl_bf16 ? 2 : 4;
    const int64_t OW = c_.OW, IW = c_.IW, IH = c_.IH;
    const int64_t PW = c_.PW, PH = c_.PH, sn = c_.sn;
    const int64_t nrt = (c_.OH + c_.rh - 1) / c_.rh; // row tiles
    // Output columns whose kernel columns all land inside the input.
    int64_t lo = 0;
    while (lo < OW && lo * d.SW - PW < 0)
        ++lo;
    int64_t hi = lo;
    while (hi < OW && hi * d.SW - PW + (d.KW - 1) * d.DW < IW)
        ++hi;
    const size_t wblk = wbytes() / static_cast<size_t>(c_.nocb);
    const int64_t tasks = d.N * c_.nocb * nrt * c_.nch;
    parallel_for(tasks, 1, [&](int64_t b, int64_t e) {
        std::vector<int64_t> taps;
        taps.reserve(static_cast<size_t>(2 * d.KH * d.KW));
        for (int64_t t = b; t < e; ++t) {
            const int64_t ch = t % c_.nch;
            const int64_t oh = t / c_.nch % nrt * c_.rh;
            const int64_t ob = t / (c_.nch * nrt) % c_.nocb;
            const int64_t n = t / (c_.nch * nrt * c_.nocb);
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
                    const int64_t ih = oh * d.SH - PH + kh * d.DH;
                    if (ih < 0 || ih >= IH) continue;
                    if (c_.merge_kw && kw0 == 0 && kw1 == d.KW) {
                        taps.push_back((ih * c_.sh + (o0 * d.SW - PW) * c_.sw)
                                * es);
                        taps.push_back(kh * d.KW * c_.ksteps * c_.ocb * 4);
                        continue;
                    }
                    for (int64_t kw = kw0; kw < kw1; ++kw) {
                        const int64_t iw = o0 * d.SW - PW + kw * d.DW;
                        taps.push_back((ih * c_.sh + iw * c_.sw) * es);
                        taps.push_back((kh * d.KW + kw) * c_.ksteps * c_.ocb
                                * 4);
                    }
                }
                args.taps = taps.data();
                args.ntaps = static_cast<int64_t>(taps.size() / 2);
                args.dst = drow + o0 * c_.dw * esd;
                fn_[last][np](&args);
            };
            auto border = [&](int64_t ow) {
                int64_t kw0 = 0, kw1 = d.KW;
                while (kw0 < d.KW && ow * d.SW - PW + kw0 * d.DW < 0)
                    ++kw0;
                while (kw1 > kw0 && ow * d.SW - PW + (kw1 - 1) * d.DW >= IW)
                    --kw1;
                call(ow, 1, kw0, kw1);
            };
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
    if (!c_.pad) {
        run(src, w, bias.data(), dst);
        return dnnl_success;
    }
    // Reused per calling thread: no page faults per execution.
    thread_local std::vector<char> padded;
    const size_t bytes = static_cast<size_t>(d.N * c_.sn * (d.bf16() ? 2 : 4));
    if (padded.size() < bytes) padded.resize(bytes);
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
            + (c.d.bf16() ? "_bf16" : "_f32")
            + (c.d.dst_dt == dnnl_bf16 ? "_bf16dst" : "");
    auto k = std::make_shared<conv_brg_kernel_t>(name, c);
    LLGA_RETURN_IF_ERROR(k->init());
    out = k;
    return dnnl_success;
}

} // namespace conv
} // namespace cpu
} // namespace llga
