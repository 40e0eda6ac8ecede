// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/conv/conv_dw.cpp — depthwise Convolution (groups == IC
// == OC) as a JIT direct kernel: channels sit in vector lanes, and one call
// computes a run of output pixels that share the same valid taps:
//
//   for each group of 3 pixels of the run (then single pixels):
//     for each block of up to 4 channel vectors (the last one masked):
//       acc[3][4] = bias
//       for each valid tap: load w[tap] once, acc[p] += src[p][tap] * w
//       store
//
// The C++ side walks output rows (threaded), drops the taps of kernel rows
// that fall into the padding, calls the kernel once for the interior run of
// a row and once per border pixel (whose kernel columns differ). Weights
// are converted to f32 [KD*KH*KW][C] (cached when constant); bf16 data is
// widened on load and rounded (RNE) on store. NCX data goes through dense
// NXC copies.
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <functional>
#include <vector>

#include "backends/cpu/jit_runtime.hpp"
#include "backends/cpu/kernels/conv/conv.hpp"
#include "backends/cpu/kernels/conv/conv_analysis_p.hpp"
#include "backends/cpu/kernels/conv/conv_copy_p.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "base/parallel.hpp"
#include "base/status.hpp"
#include "compiler/constant_prep.hpp"
#include "ir/dtype.hpp"

namespace llga {
namespace cpu {
namespace conv {

namespace {

using namespace asmjit;

// The kernel's single argument; the generator reads it by offsetof.
struct dw_args_t {
    const char *src;     // image base; tap offsets are relative to it
    char *dst;           // first output pixel of the run
    const float *wei;    // [taps][C] f32, padded
    const float *bias;   // [C] f32, padded
    const int64_t *taps; // (src byte offset, weight byte offset) pairs
    int64_t ntaps;
    int64_t npix;
    int64_t src_step; // bytes between the inputs of consecutive pixels
    int64_t dst_step; // bytes between consecutive output pixels
};
using dw_fn_t = void (*)(const dw_args_t *);

// f32 elements of padding after the weights and bias: whole-vector reads
// of the last channel block stay inside the buffers.
constexpr int64_t k_pad = 64;
constexpr int k_unroll = 4; // channel vectors per block

struct dw_desc_t {
    char family[8];
    int32_t avx512, src_bf16, dst_bf16, pad_;
    int64_t C;
};

class dw_gen_t {
public:
    dw_gen_t(x86::Assembler &a, const dw_desc_t &d)
        : a_(a), z_(d.avx512 != 0), sbf_(d.src_bf16 != 0),
          dbf_(d.dst_bf16 != 0), C_(d.C) {}

    void emit() {
        Label masks = a_.newLabel(), loop3 = a_.newLabel(),
              rem1 = a_.newLabel(), loop1 = a_.newLabel(),
              done = a_.newLabel();
        for (const x86::Gp &r : {x86::rbx, x86::rbp, x86::r12, x86::r13,
                     x86::r14, x86::r15})
            a_.push(r);
        a_.mov(x86::rsi, field(offsetof(dw_args_t, src)));
        a_.mov(x86::rdx, field(offsetof(dw_args_t, dst)));
        a_.mov(x86::r8, field(offsetof(dw_args_t, wei)));
        a_.mov(x86::r9, field(offsetof(dw_args_t, bias)));
        a_.mov(x86::r10, field(offsetof(dw_args_t, taps)));
        a_.mov(x86::r11, field(offsetof(dw_args_t, ntaps)));
        a_.mov(x86::r15, field(offsetof(dw_args_t, npix)));
        a_.mov(x86::rbp, field(offsetof(dw_args_t, src_step)));
        const int tail = static_cast<int>(C_ % (z_ ? 16 : 8));
        if (tail) {
            if (z_) {
                a_.mov(x86::eax, (1u << tail) - 1);
                a_.kmovw(x86::k1, x86::eax);
            } else {
                a_.vmovups(x86::ymm15, x86::ptr(masks, (8 - tail) * 4));
            }
        }
        // Three pixels at a time: each weight vector loaded serves three
        // FMAs; then the remaining pixels one by one.
        a_.bind(loop3);
        a_.cmp(x86::r15, 3);
        a_.jb(rem1);
        channels(3);
        a_.lea(x86::rsi, x86::ptr(x86::rsi, x86::rbp, 1));
        a_.add(x86::rsi, x86::rbp);
        for (int p = 0; p < 3; ++p)
            a_.add(x86::rdx, field(offsetof(dw_args_t, dst_step)));
        a_.sub(x86::r15, 3);
        a_.jmp(loop3);
        a_.bind(rem1);
        a_.test(x86::r15, x86::r15);
        a_.jz(done);
        a_.bind(loop1);
        channels(1);
        a_.add(x86::rsi, x86::rbp);
        a_.add(x86::rdx, field(offsetof(dw_args_t, dst_step)));
        a_.dec(x86::r15);
        a_.jnz(loop1);
        a_.bind(done);
        for (const x86::Gp &r : {x86::r15, x86::r14, x86::r13, x86::r12,
                     x86::rbp, x86::rbx})
            a_.pop(r);
        a_.vzeroupper();
        a_.ret();
        a_.align(AlignMode::kData, 32);
        a_.bind(masks);
        a_.embedUInt32(0xffffffffu, 8);
        a_.embedUInt32(0u, 8);
    }

private:
    x86::Mem field(size_t off) const {
        return x86::qword_ptr(x86::rdi, static_cast<int32_t>(off));
    }
    x86::Vec vreg(int i) const {
        return z_ ? x86::Vec(x86::zmm(i)) : x86::Vec(x86::ymm(i));
    }
    int width() const { return z_ ? 16 : 8; }
    // Accumulator of pixel p, vector i (at most 3 x 4 = 12 registers).
    x86::Vec acc(int p, int i) const { return vreg(p * k_unroll + i); }
    x86::Vec wvec() const { return vreg(z_ ? 24 : 12); }
    x86::Vec tmp() const { return vreg(z_ ? 25 : 13); }

    // All channels of npx pixels: full blocks of k_unroll vectors in a
    // runtime loop, then the rest (the last vector masked if C has a tail).
    void channels(int npx) {
        const int W = width();
        const int64_t full = C_ / (k_unroll * W);
        const int rest = static_cast<int>(C_ % (k_unroll * W));
        const int rest_v = (rest + W - 1) / W, tail = rest % W;
        a_.xor_(x86::ecx, x86::ecx); // channel index
        if (full > 0) {
            Label blk = a_.newLabel();
            a_.mov(x86::r14, full);
            a_.bind(blk);
            block(npx, k_unroll, 0);
            a_.add(x86::rcx, k_unroll * W);
            a_.dec(x86::r14);
            a_.jnz(blk);
        }
        if (rest_v > 0) block(npx, rest_v, tail);
    }

    // Input of pixel p (0..2) for channel vector i: rax points at pixel 0's
    // tap input at channel rcx, rbp is the step between pixels.
    x86::Mem src_mem(int p, int i, int ses) const {
        const int32_t off = i * width() * ses;
        if (p == 0) return x86::ptr(x86::rax, off);
        return x86::ptr(x86::rax, x86::rbp, p == 1 ? 0 : 1, off);
    }

    // npx pixels x nv channel vectors from channel rcx; the last vector has
    // `tail` valid lanes when tail > 0 (its src lanes past C are not read,
    // its dst lanes not written; the padded weights and bias are read
    // whole).
    void block(int npx, int nv, int tail) {
        const int W = width();
        const int ses = sbf_ ? 2 : 4, des = dbf_ ? 2 : 4;
        const int vb = W * 4;
        for (int i = 0; i < nv; ++i) {
            a_.vmovups(acc(0, i), x86::ptr(x86::r9, x86::rcx, 2, i * vb));
            for (int p = 1; p < npx; ++p)
                a_.vmovaps(acc(p, i), acc(0, i));
        }
        Label tap = a_.newLabel(), tdone = a_.newLabel();
        a_.mov(x86::rbx, x86::r10);
        a_.mov(x86::r13, x86::r11);
        a_.test(x86::r13, x86::r13);
        a_.jz(tdone);
        a_.bind(tap);
        a_.mov(x86::rax, x86::qword_ptr(x86::rbx));
        a_.mov(x86::r12, x86::qword_ptr(x86::rbx, 8));
        a_.add(x86::rax, x86::rsi);
        a_.add(x86::r12, x86::r8);
        a_.lea(x86::rax, x86::ptr(x86::rax, x86::rcx, sbf_ ? 1 : 2));
        for (int i = 0; i < nv; ++i) {
            const bool masked = tail && i == nv - 1;
            a_.vmovups(wvec(), x86::ptr(x86::r12, x86::rcx, 2, i * vb));
            for (int p = 0; p < npx; ++p) {
                const x86::Mem m = src_mem(p, i, ses);
                if (sbf_) {
                    x86::Mem mh = m;
                    mh.setSize(32);
                    if (masked)
                        a_.k(x86::k1).z().vpmovzxwd(tmp(), mh);
                    else
                        a_.vpmovzxwd(tmp(), mh);
                    a_.vpslld(tmp(), tmp(), 16);
                    a_.vfmadd231ps(acc(p, i), wvec(), tmp());
                } else if (!masked) {
                    a_.vfmadd231ps(acc(p, i), wvec(), m);
                } else if (z_) {
                    // Merge-masked: lanes past C are neither read nor used.
                    a_.k(x86::k1).vfmadd231ps(acc(p, i), wvec(), m);
                } else {
                    a_.vmaskmovps(tmp(), x86::ymm15, m);
                    a_.vfmadd231ps(acc(p, i), wvec(), tmp());
                }
            }
        }
        a_.add(x86::rbx, 16);
        a_.dec(x86::r13);
        a_.jnz(tap);
        a_.bind(tdone);
        a_.lea(x86::rax, x86::ptr(x86::rdx, x86::rcx, dbf_ ? 1 : 2));
        for (int p = 0; p < npx; ++p) {
            if (p > 0) a_.add(x86::rax, field(offsetof(dw_args_t, dst_step)));
            for (int i = 0; i < nv; ++i) {
                const bool masked = tail && i == nv - 1;
                const int32_t off = i * W * des;
                if (dbf_) {
                    const x86::Ymm h = x86::ymm(tmp().id());
                    a_.vcvtneps2bf16(h, acc(p, i));
                    const x86::Mem m = x86::ptr(x86::rax, off);
                    if (masked)
                        a_.k(x86::k1).vmovdqu16(m, h);
                    else
                        a_.vmovdqu16(m, h); // EVEX: h is ymm25
                } else {
                    const x86::Mem m = x86::ptr(x86::rax, off);
                    if (!masked)
                        a_.vmovups(m, acc(p, i));
                    else if (z_)
                        a_.k(x86::k1).vmovups(m, acc(p, i));
                    else
                        a_.vmaskmovps(m, x86::ymm15, acc(p, i));
                }
            }
        }
    }

    x86::Assembler &a_;
    bool z_, sbf_, dbf_;
    int64_t C_;
};

status_t get_dw_kernel(bool avx512, bool src_bf16, bool dst_bf16, int64_t C,
        dw_fn_t *fn) {
    dw_desc_t d;
    std::memset(&d, 0, sizeof(d));
    std::memcpy(d.family, "conv_dw", 8);
    d.avx512 = avx512;
    d.src_bf16 = src_bf16;
    d.dst_bf16 = dst_bf16;
    d.C = C;
    const std::string name = std::string("conv_dw_") + (avx512 ? "avx512" : "avx2")
            + (src_bf16 ? "_bf16" : "_f32") + (dst_bf16 ? "_bf16dst" : "")
            + "_c" + std::to_string(C);
    return jit_get_fn(jit_key(d), name,
            [&](x86::Assembler &a) {
                dw_gen_t(a, d).emit();
                return dnnl_success;
            },
            fn);
}

bool configure_dw(const compiler::plan_t &plan, isa_t isa, conv_desc_t &d,
        std::string *why) {
    auto decline = [&](const std::string &m) {
        if (why) *why = m;
        return false;
    };
    if (!analyse(plan, d, why)) return false;
    if (!d.depthwise())
        return decline("Convolution: not depthwise (needs groups == IC == OC)");
    if (isa == isa_t::avx512_core_bf16) {
        if (!d.bf16()) return decline("f32 depthwise runs on avx512_core");
    } else if (isa == isa_t::avx512_core || isa == isa_t::avx2) {
        if (d.bf16())
            return decline(std::string("bf16 depthwise needs "
                                       "avx512_core_bf16, not ")
                    + isa_name(isa));
    } else {
        return decline(std::string("no depthwise generator for ")
                + isa_name(isa));
    }
    if (d.nxc && (d.ss[1] != 1 || d.ds[1] != 1))
        return decline("Convolution: channel-last data with channel stride "
                       "!= 1");
    return true;
}

class conv_dw_kernel_t : public compiler::kernel_t {
public:
    conv_dw_kernel_t(std::string name, const conv_desc_t &d, dw_fn_t fn)
        : name_(std::move(name)), d_(d), fn_(fn) {}
    const char *name() const override { return name_.c_str(); }
    status_t execute(const compiler::exec_ctx_t &ctx) const override;

private:
    void prep_weights(const void *wei, float *out) const;
    // Channel-last core; strides in elements (n, c, d, h, w).
    void run(const char *src, const int64_t ss[5], const float *w,
            const float *bias, char *dst, const int64_t ds[5]) const;

    std::string name_;
    conv_desc_t d_;
    dw_fn_t fn_;
};

void conv_dw_kernel_t::prep_weights(const void *wei, float *out) const {
    const conv_desc_t &d = d_;
    const int64_t C = d.OC();
    std::fill(out, out + d.ksize() * C + k_pad, 0.f);
    int64_t t = 0;
    for (int64_t kd = 0; kd < d.KD; ++kd)
        for (int64_t kh = 0; kh < d.KH; ++kh)
            for (int64_t kw = 0; kw < d.KW; ++kw, ++t)
                for (int64_t c = 0; c < C; ++c) {
                    const int64_t off = c * d.ws[0] + kd * d.ws[2]
                            + kh * d.ws[3] + kw * d.ws[4];
                    out[t * C + c] = d.bf16()
                            ? ir::bf16_to_f32(
                                    static_cast<const uint16_t *>(wei)[off])
                            : static_cast<const float *>(wei)[off];
                }
}

void conv_dw_kernel_t::run(const char *src, const int64_t ss[5],
        const float *w, const float *bias, char *dst,
        const int64_t ds[5]) const {
    const conv_desc_t &d = d_;
    const int64_t es = d.bf16() ? 2 : 4, esd = d.dst_dt == dnnl_bf16 ? 2 : 4;
    const int64_t C = d.OC();
    // Output columns whose kernel columns all land inside the input.
    auto first_ok = [&](int64_t ow) { return ow * d.SW - d.PW >= 0; };
    auto last_ok = [&](int64_t ow) {
        return ow * d.SW - d.PW + (d.KW - 1) * d.DW < d.IW;
    };
    int64_t lo = 0;
    while (lo < d.OW && !first_ok(lo))
        ++lo;
    int64_t hi = lo;
    while (hi < d.OW && last_ok(hi))
        ++hi;
    parallel_for(d.N * d.OD * d.OH, 1, [&](int64_t b, int64_t e) {
        std::vector<int64_t> taps;
        taps.reserve(static_cast<size_t>(2 * d.ksize()));
        for (int64_t t = b; t < e; ++t) {
            const int64_t n = t / (d.OD * d.OH), od = t / d.OH % d.OD,
                          oh = t % d.OH;
            dw_args_t args;
            args.src = src + n * ss[0] * es;
            args.wei = w;
            args.bias = bias;
            args.src_step = d.SW * ss[4] * es;
            args.dst_step = ds[4] * esd;
            char *drow = dst + (n * ds[0] + od * ds[2] + oh * ds[3]) * esd;
            // Pixels [o0, o1) with kernel columns [kw0, kw1).
            auto call = [&](int64_t o0, int64_t o1, int64_t kw0, int64_t kw1) {
                taps.clear();
                for (int64_t kd = 0; kd < d.KD; ++kd) {
                    const int64_t id = od * d.SD - d.PD + kd * d.DD;
                    if (id < 0 || id >= d.ID) continue;
                    for (int64_t kh = 0; kh < d.KH; ++kh) {
                        const int64_t ih = oh * d.SH - d.PH + kh * d.DH;
                        if (ih < 0 || ih >= d.IH) continue;
                        for (int64_t kw = kw0; kw < kw1; ++kw) {
                            const int64_t iw = o0 * d.SW - d.PW + kw * d.DW;
                            taps.push_back(
                                    (id * ss[2] + ih * ss[3] + iw * ss[4]) * es);
                            taps.push_back(
                                    ((kd * d.KH + kh) * d.KW + kw) * C * 4);
                        }
                    }
                }
                args.taps = taps.data();
                args.ntaps = static_cast<int64_t>(taps.size() / 2);
                args.npix = o1 - o0;
                args.dst = drow + o0 * ds[4] * esd;
                fn_(&args);
            };
            auto border = [&](int64_t ow) {
                int64_t kw0 = 0, kw1 = d.KW;
                while (kw0 < d.KW && ow * d.SW - d.PW + kw0 * d.DW < 0)
                    ++kw0;
                while (kw1 > kw0
                        && ow * d.SW - d.PW + (kw1 - 1) * d.DW >= d.IW)
                    --kw1;
                // Interior columns between invalid ones cannot occur: the
                // valid kernel columns of a pixel are one contiguous range.
                call(ow, ow + 1, kw0, kw1);
            };
            for (int64_t ow = 0; ow < std::min(lo, d.OW); ++ow)
                border(ow);
            if (hi > lo) call(lo, hi, 0, d.KW);
            for (int64_t ow = std::max(hi, lo); ow < d.OW; ++ow)
                border(ow);
        }
    });
}

status_t conv_dw_kernel_t::execute(const compiler::exec_ctx_t &ctx) const {
    const conv_desc_t &d = d_;
    const int64_t C = d.OC();
    const size_t wfloats = static_cast<size_t>(d.ksize() * C + k_pad);
    const void *wei = ctx.inputs[d.in_wei];
    rt::constant_ptr_t cached;
    std::vector<float> wtmp;
    const float *w = nullptr;
    if (d.wei_constant && compiler::constant_cache_enabled(ctx)) {
        compiler::constant_request_t req;
        req.backend = compiler::backend_id::cpu;
        req.slot = static_cast<size_t>(d.in_wei);
        req.src = wei;
        req.bytes = wfloats * 4;
        req.detail = std::hash<std::string>()(name_ + d.str());
        LLGA_RETURN_IF_ERROR(compiler::get_prepared_constant(ctx, *this, req,
                [&](void *out) {
                    prep_weights(wei, static_cast<float *>(out));
                    return dnnl_success;
                },
                cached));
        w = static_cast<const float *>(cached->data());
    } else {
        wtmp.resize(wfloats);
        prep_weights(wei, wtmp.data());
        w = wtmp.data();
    }
    const std::vector<float> bias = bias_f32(d,
            d.has_bias ? ctx.inputs[d.in_bias] : nullptr, k_pad);
    const char *src = static_cast<const char *>(ctx.inputs[d.in_src]);
    char *dst = static_cast<char *>(ctx.outputs[d.out]);
    if (d.nxc) {
        run(src, d.ss, w, bias.data(), dst, d.ds);
        return dnnl_success;
    }
    const int64_t es = d.bf16() ? 2 : 4, esd = d.dst_dt == dnnl_bf16 ? 2 : 4;
    // Dense channel-last copies (scratch: written before it is read).
    scratch_frame_t frame;
    char *s2 = static_cast<char *>(frame.take(
            static_cast<size_t>(d.N * d.ID * d.IH * d.IW * C * es)));
    char *d2 = static_cast<char *>(
            frame.take(static_cast<size_t>(d.N * d.opix() * C * esd)));
    to_dense_nxc(src, d.ss, d.N, C, d.ID, d.IH, d.IW, static_cast<size_t>(es),
            s2);
    const int64_t s2s[5] = {d.ID * d.IH * d.IW * C, 1, d.IH * d.IW * C,
            d.IW * C, C};
    const int64_t d2s[5] = {d.opix() * C, 1, d.OH * d.OW * C, d.OW * C, C};
    run(s2, s2s, w, bias.data(), d2, d2s);
    from_dense_nxc(d2, d.N, C, d.OD, d.OH, d.OW, static_cast<size_t>(esd),
            dst, d.ds);
    return dnnl_success;
}

} // namespace

bool accepts_dw(const compiler::plan_t &plan, isa_t isa, std::string *why) {
    conv_desc_t d;
    return configure_dw(plan, isa, d, why);
}

status_t create_dw(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    conv_desc_t d;
    std::string why;
    if (!configure_dw(plan, isa, d, &why))
        return fail(dnnl_unimplemented, "cpu conv: %s", why.c_str());
    const bool avx512 = isa != isa_t::avx2;
    dw_fn_t fn = nullptr;
    LLGA_RETURN_IF_ERROR(get_dw_kernel(avx512, d.bf16(),
            d.dst_dt == dnnl_bf16, d.OC(), &fn));
    const std::string name = std::string("conv_dw_")
            + (avx512 ? "avx512" : "avx2") + (d.bf16() ? "_bf16" : "_f32")
            + (d.dst_dt == dnnl_bf16 ? "_bf16dst" : "");
    out = std::make_shared<conv_dw_kernel_t>(name, d, fn);
    return dnnl_success;
}

} // namespace conv
} // namespace cpu
} // namespace llga
