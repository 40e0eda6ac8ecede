// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/gemm/int8/gemm_int8_ukr.cpp — generates the int8 GEMM
// micro-kernels: per (flavour, rows, vectors, dst type) a function that
// keeps the s32 tile in registers over a vpdpbusd K loop (on AVX2 without
// VNNI, vpmaddwd on the bytes widened to 16 bits), then runs the
// quantization epilogue on the registers (partial sums, compensation,
// scales, bias, rounding and saturation, narrow store); and the family's
// shape and name tables. The AMX kernels are in gemm_int8_amx.cpp.
#include "backends/cpu/kernels/gemm/int8/gemm_int8_ukr.hpp"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>

#include "backends/cpu/kernels/gemm/int8/gemm_int8_jit_p.hpp"

namespace llga {
namespace cpu {
namespace gemm_int8 {

using namespace asmjit;

namespace {

constexpr int k_unroll = 4; // k-quads per loop iteration
// Bytes ahead of the B pointer the few-row kernels prefetch (8 iterations).
constexpr int k_pf_dist = 4096;

class ukr_gen_t {
public:
    ukr_gen_t(x86::Assembler &a, i8_kind_t kind, int m, int nv, i8_dst_t dt,
            bool a7)
        : a_(a), s_(i8_shape(kind)), m_(m), nv_(nv), dt_(dt),
          z_(kind == i8_kind_t::vnni512), emu_(kind == i8_kind_t::avx2),
          a7_(emu_ && a7) {
        // One or two rows stream B (GEMV-like): one accumulator chain per
        // vector would be bound by the vpdpbusd latency, so the unrolled
        // steps rotate over several accumulator sets in the free registers,
        // summed before the epilogue.
        const int acc_regs = z_ ? 24 : emu_ ? 2 * s_.mr : 12;
        nsets_ = m_ <= 2 ? std::min(k_unroll, acc_regs / (2 * m_)) : 1;
    }

    void emit() {
        const x86::Gp pa = x86::rax, pb = x86::rcx, kcnt = x86::r8;
        a_.mov(pa, field(offsetof(i8_args_t, a)));
        a_.mov(pb, field(offsetof(i8_args_t, b)));
        a_.mov(kcnt, field(offsetof(i8_args_t, k)));
        if (a7_) {
            // 16-bit ones: vpmaddwd with them adds the word pairs.
            a_.mov(x86::r9d, 0x00010001);
            a_.vmovd(xreg(emu_ones()), x86::r9d);
            a_.vpbroadcastd(vreg(emu_ones()), xreg(emu_ones()));
        }
        for (int st = 0; st < nsets_; ++st)
            for (int i = 0; i < m_; ++i)
                for (int v = 0; v < nv_; ++v)
                    zero(acc_set(i, v, st));
        Label loop = a_.newLabel(), rem = a_.newLabel(),
              rem_loop = a_.newLabel(), done = a_.newLabel();
        a_.cmp(kcnt, k_unroll);
        a_.jb(rem);
        a_.align(AlignMode::kCode, 16);
        a_.bind(loop);
        for (int u = 0; u < k_unroll; ++u) {
            k_step(u, u % nsets_);
            // Few rows: B is the whole traffic, from L3 or memory; fetch
            // it well ahead (the unrolled step covers 4 * nr * 4 bytes).
            if (nsets_ > 1 && u == 0)
                for (int l = 0; l < k_unroll * s_.nr * 4 / 64; ++l)
                    a_.prefetcht0(x86::ptr(pb, k_pf_dist + l * 64));
        }
        a_.add(pa, k_unroll * s_.mr * a_quad_bytes());
        a_.add(pb, k_unroll * s_.nr * 4);
        a_.sub(kcnt, k_unroll);
        a_.cmp(kcnt, k_unroll);
        a_.jae(loop);
        a_.bind(rem);
        a_.test(kcnt, kcnt);
        a_.jz(done);
        a_.bind(rem_loop);
        k_step(0, 0);
        a_.add(pa, s_.mr * a_quad_bytes());
        a_.add(pb, s_.nr * 4);
        a_.dec(kcnt);
        a_.jnz(rem_loop);
        a_.bind(done);
        for (int st = 1; st < nsets_; ++st)
            for (int i = 0; i < m_; ++i)
                for (int v = 0; v < nv_; ++v)
                    a_.vpaddd(acc(i, v), acc(i, v), acc_set(i, v, st));
        epilogue();
        a_.vzeroupper();
        a_.ret();
    }

private:
    x86::Vec vreg(int i) const {
        return z_ ? x86::Vec(x86::zmm(i)) : x86::Vec(x86::ymm(i));
    }
    x86::Xmm xreg(int i) const { return x86::xmm(i); }
    int vlen() const { return s_.width * 4; }
    x86::Vec acc(int i, int v) const { return vreg(i * 2 + v); }
    // Accumulator set `st` (st = 0 is the epilogue's tile).
    x86::Vec acc_set(int i, int v, int st) const {
        return vreg(2 * m_ * st + i * 2 + v);
    }
    // B vectors after the accumulators; A broadcasts rotate over the rest
    // so a broadcast never waits for the dot products of the row before.
    x86::Vec bvec(int v) const { return z_ ? vreg(24 + v) : vreg(12 + v); }
    x86::Vec bcast(int i) const { return z_ ? vreg(26 + i % 4) : vreg(14 + i % 2); }

    // Bytes of one row's k-quad in the packed A panel: 4 u8, or on the
    // AVX2 emulation 4 u16 (pack_a_words).
    int a_quad_bytes() const { return emu_ && !a7_ ? 8 : 4; }
    // Registers of the AVX2 emulation after the 2 * mr accumulators: B's
    // even and odd k per vector, the A broadcast, a product.
    int emu_beven() const { return 2 * s_.mr; }
    int emu_bodd() const { return 2 * s_.mr + 2; }
    int emu_a() const { return 2 * s_.mr + 4; }
    int emu_prod() const { return 2 * s_.mr + 5; }
    // The 7-bit path: raw B vectors at emu_beven(), then these.
    int emu_ones() const { return 2 * s_.mr + 2; }
    int emu_a7() const { return 2 * s_.mr + 3; }

    // u8 A (broadcast dword: 4 consecutive k) times s8 B (4 k per column).
    void k_step(int u, int st) {
        const x86::Gp pa = x86::rax, pb = x86::rcx;
        if (emu_) {
            k_step_emulated(u, st);
            return;
        }
        for (int v = 0; v < nv_; ++v)
            movdqu(bvec(v), x86::ptr(pb, (u * s_.nr * 4) + v * vlen()));
        for (int i = 0; i < m_; ++i) {
            a_.vpbroadcastd(bcast(i), x86::dword_ptr(pa, (u * s_.mr + i) * 4));
            for (int v = 0; v < nv_; ++v) {
                if (z_)
                    a_.vpdpbusd(acc_set(i, v, st), bcast(i), bvec(v));
                else
                    a_.vex().vpdpbusd(acc_set(i, v, st), bcast(i), bvec(v));
            }
        }
    }

    // The same k-quad without VNNI. Each column's dword holds b0..b3; as
    // 16-bit words, B's even k (b0, b2) are the low bytes sign-extended
    // (shift left, arithmetic right) and the odd k (b1, b3) the high bytes
    // (arithmetic right). A comes widened by the packing: per row the
    // words (a0, a2) then (a1, a3), each pair one dword to broadcast, all
    // 0..255. vpmaddwd then gives a0 b0 + a2 b2 and a1 b1 + a3 b3 per
    // column, exactly (|.| <= 2 * 255 * 128), where vpmaddubsw would
    // saturate.
    void k_step_emulated(int u, int st) {
        const x86::Gp pa = x86::rax, pb = x86::rcx;
        if (a7_) {
            k_step_a7(u, st);
            return;
        }
        for (int v = 0; v < nv_; ++v) {
            const x86::Vec be = vreg(emu_beven() + v), bo = vreg(emu_bodd() + v);
            a_.vmovdqu(bo, x86::ptr(pb, (u * s_.nr * 4) + v * vlen()));
            a_.vpsllw(be, bo, 8);
            a_.vpsraw(be, be, 8);
            a_.vpsraw(bo, bo, 8);
        }
        const x86::Vec av = vreg(emu_a()), prod = vreg(emu_prod());
        for (int i = 0; i < m_; ++i) {
            const int64_t at = (u * s_.mr + i) * 8;
            for (int half = 0; half < 2; ++half) {
                a_.vpbroadcastd(av, x86::dword_ptr(pa, at + 4 * half));
                for (int v = 0; v < nv_; ++v) {
                    const x86::Vec c = acc_set(i, v, st);
                    a_.vpmaddwd(prod, av,
                            vreg((half ? emu_bodd() : emu_beven()) + v));
                    a_.vpaddd(c, c, prod);
                }
            }
        }
    }

    // The k-quad when every A byte is at most 127 (A packed as bytes):
    // vpmaddubsw gives a0 b0 + a1 b1 and a2 b2 + a3 b3 as words, exact
    // (|.| <= 2 * 127 * 128 < 2^15), and vpmaddwd with ones adds the pair.
    void k_step_a7(int u, int st) {
        const x86::Gp pa = x86::rax, pb = x86::rcx;
        for (int v = 0; v < nv_; ++v)
            a_.vmovdqu(vreg(emu_beven() + v),
                    x86::ptr(pb, (u * s_.nr * 4) + v * vlen()));
        const x86::Vec av = vreg(emu_a7()), prod = vreg(emu_prod());
        for (int i = 0; i < m_; ++i) {
            a_.vpbroadcastd(av, x86::dword_ptr(pa, (u * s_.mr + i) * 4));
            for (int v = 0; v < nv_; ++v) {
                const x86::Vec c = acc_set(i, v, st);
                a_.vpmaddubsw(prod, av, vreg(emu_beven() + v));
                a_.vpmaddwd(prod, prod, vreg(emu_ones()));
                a_.vpaddd(c, c, prod);
            }
        }
    }

    // Integer moves: EVEX needs the element-size forms on zmm.
    void movdqu(const x86::Vec &r, const x86::Mem &m) {
        if (z_)
            a_.vmovdqu32(r, m);
        else
            a_.vmovdqu(r, m);
    }
    void movdqu(const x86::Mem &m, const x86::Vec &r) {
        if (z_)
            a_.vmovdqu32(m, r);
        else
            a_.vmovdqu(m, r);
    }
    void zero(const x86::Vec &r) {
        if (z_)
            a_.vpxord(r, r, r);
        else
            a_.vpxor(r, r, r);
    }

    // Per-column vector v of a padded f32/s32 array at [p].
    x86::Mem col(const x86::Gp &p, int v) const {
        return x86::ptr(p, v * vlen());
    }
    // A 4-byte args field as an operand: an embedded broadcast on zmm; on
    // ymm broadcast into `tmp` first.
    x86::Vec bfield(size_t off, int tmp) {
        const x86::Vec t = vreg(tmp);
        a_.vpbroadcastd(t, dfield(off));
        return t;
    }

    void store_rows_s32(const x86::Gp &row, const x86::Gp &ld) {
        for (int i = 0; i < m_; ++i) {
            for (int v = 0; v < nv_; ++v)
                movdqu(x86::ptr(row, v * vlen()), acc(i, v));
            if (i + 1 < m_) a_.add(row, ld);
        }
    }

    void epilogue() {
        const x86::Gp row = x86::r9, ld = x86::r10, flags = x86::r11,
                      p = x86::rdx;
        a_.mov(flags, field(offsetof(i8_args_t, flags)));
        Label no_acc = a_.newLabel(), to_acc = a_.newLabel(),
              no_rt = a_.newLabel(), end = a_.newLabel();
        a_.test(flags, k_i8_accumulate);
        a_.jz(no_acc);
        a_.mov(row, field(offsetof(i8_args_t, acc)));
        a_.mov(ld, field(offsetof(i8_args_t, ldacc)));
        for (int i = 0; i < m_; ++i) {
            for (int v = 0; v < nv_; ++v)
                a_.vpaddd(acc(i, v), acc(i, v), x86::ptr(row, v * vlen()));
            if (i + 1 < m_) a_.add(row, ld);
        }
        a_.bind(no_acc);
        a_.test(flags, k_i8_last);
        a_.jz(to_acc);

        // Integer corrections: column compensation (colsum terms of the
        // +128 shift and of the src zero point) and the row term.
        a_.mov(p, field(offsetof(i8_args_t, comp)));
        for (int v = 0; v < nv_; ++v)
            movdqu(bvec(v), col(p, v));
        for (int i = 0; i < m_; ++i)
            for (int v = 0; v < nv_; ++v)
                a_.vpaddd(acc(i, v), acc(i, v), bvec(v));
        a_.test(flags, k_i8_rowterm);
        a_.jz(no_rt);
        a_.mov(p, field(offsetof(i8_args_t, rowterm)));
        for (int i = 0; i < m_; ++i) {
            a_.vpbroadcastd(bcast(0), x86::dword_ptr(p, i * 4));
            for (int v = 0; v < nv_; ++v)
                a_.vpaddd(acc(i, v), acc(i, v), bcast(0));
        }
        a_.bind(no_rt);
        if (dt_ != i8_dst_t::s32) {
            Label no_bias = a_.newLabel();
            a_.mov(p, field(offsetof(i8_args_t, scale)));
            for (int v = 0; v < nv_; ++v)
                a_.vmovups(bvec(v), col(p, v));
            for (int i = 0; i < m_; ++i)
                for (int v = 0; v < nv_; ++v) {
                    a_.vcvtdq2ps(acc(i, v), acc(i, v));
                    a_.vmulps(acc(i, v), acc(i, v), bvec(v));
                }
            a_.test(flags, k_i8_bias);
            a_.jz(no_bias);
            a_.mov(p, field(offsetof(i8_args_t, bias)));
            for (int v = 0; v < nv_; ++v)
                a_.vmovups(bvec(v), col(p, v));
            for (int i = 0; i < m_; ++i)
                for (int v = 0; v < nv_; ++v)
                    a_.vaddps(acc(i, v), acc(i, v), bvec(v));
            a_.bind(no_bias);
        }
        if (dt_ == i8_dst_t::s8 || dt_ == i8_dst_t::u8) {
            // q = clamp(x * (1 / scale) + zp) rounded to nearest even (the
            // MXCSR default) — the opset's Quantize order.
            const x86::Vec mul = bfield(offsetof(i8_args_t, dst_mul), z_ ? 24 : 12);
            const x86::Vec zp = bfield(offsetof(i8_args_t, dst_zp), z_ ? 25 : 13);
            const x86::Vec lo = bfield(offsetof(i8_args_t, lo), z_ ? 26 : 14);
            const x86::Vec hi = bfield(offsetof(i8_args_t, hi), z_ ? 27 : 15);
            for (int i = 0; i < m_; ++i)
                for (int v = 0; v < nv_; ++v) {
                    const x86::Vec r = acc(i, v);
                    a_.vfmadd213ps(r, mul, zp);
                    a_.vmaxps(r, r, lo);
                    a_.vminps(r, r, hi);
                    a_.vcvtps2dq(r, r);
                }
        }
        if (dt_ == i8_dst_t::bf16) {
            // Round to nearest even on the bit pattern, (x + 0x7fff + bit16)
            // >> 16: no vcvtneps2bf16 without AVX-512, nor on the
            // avx512_core_vnni hosts this flavour also runs on.
            const x86::Vec one = vreg(z_ ? 24 : 12), bias = vreg(z_ ? 25 : 13),
                           t = vreg(z_ ? 26 : 14);
            a_.vpbroadcastd(one, dfield(offsetof(i8_args_t, one)));
            a_.vpbroadcastd(bias, dfield(offsetof(i8_args_t, round_bias)));
            for (int i = 0; i < m_; ++i)
                for (int v = 0; v < nv_; ++v) {
                    const x86::Vec r = acc(i, v);
                    a_.vpsrld(t, r, 16);
                    if (z_)
                        a_.vpandd(t, t, one);
                    else
                        a_.vpand(t, t, one);
                    a_.vpaddd(r, r, t);
                    a_.vpaddd(r, r, bias);
                    a_.vpsrld(r, r, 16);
                }
        }
        a_.mov(row, field(offsetof(i8_args_t, dst)));
        a_.mov(ld, field(offsetof(i8_args_t, ldd)));
        const int es = i8_dst_bytes(dt_);
        for (int i = 0; i < m_; ++i) {
            for (int v = 0; v < nv_; ++v)
                store(acc(i, v), x86::ptr(row, v * s_.width * es));
            if (i + 1 < m_) a_.add(row, ld);
        }
        a_.jmp(end);
        a_.bind(to_acc);
        a_.mov(row, field(offsetof(i8_args_t, acc)));
        a_.mov(ld, field(offsetof(i8_args_t, ldacc)));
        store_rows_s32(row, ld);
        a_.bind(end);
    }

    // Whole-vector store of one converted accumulator.
    void store(const x86::Vec &r, const x86::Mem &m) {
        const x86::Xmm x = xreg(r.id()), t = xreg(z_ ? 28 : 14);
        switch (dt_) {
            case i8_dst_t::f32: a_.vmovups(m, r); break;
            case i8_dst_t::s32: movdqu(m, r); break;
            case i8_dst_t::bf16: // the rounded bits, one per dword
                if (z_) {
                    a_.vpmovdw(m, r);
                } else {
                    a_.vextracti128(t, r, 1);
                    a_.vpackusdw(x, x, t);
                    a_.vmovdqu(m, x);
                }
                break;
            case i8_dst_t::s8:
            case i8_dst_t::u8:
                // Values are already within range, so any saturating
                // narrowing gives them exactly.
                if (z_) {
                    if (dt_ == i8_dst_t::s8)
                        a_.vpmovsdb(m, r);
                    else
                        a_.vpmovusdb(m, r);
                } else {
                    a_.vextracti128(t, r, 1);
                    a_.vpackssdw(x, x, t);
                    if (dt_ == i8_dst_t::s8)
                        a_.vpacksswb(x, x, x);
                    else
                        a_.vpackuswb(x, x, x);
                    a_.vmovq(m, x);
                }
                break;
        }
    }

    x86::Assembler &a_;
    i8_shape_t s_;
    int m_, nv_;
    i8_dst_t dt_;
    bool z_;
    bool emu_; // AVX2 without VNNI (k_step_emulated)
    bool a7_;  // ... with A at most 127 (k_step_a7)
    int nsets_ = 1;
};


} // namespace

status_t check_i8_isa(i8_kind_t kind) {
    if (!isa_available(i8_isa(kind)))
        return fail(dnnl_unimplemented,
                "cpu gemm_int8: isa %s is not available (max %s)",
                isa_name(i8_isa(kind)), isa_name(max_isa()));
    return dnnl_success;
}

i8_shape_t i8_shape(i8_kind_t kind) {
    switch (kind) {
#define LLGA_GEMM_I8_UKR(kind, mr, nr, width, kalign, isa, name) \
    case i8_kind_t::kind: return {mr, nr, width, kalign};
#include "backends/cpu/kernels/gemm/gemm_flavours.def"
#undef LLGA_GEMM_I8_UKR
    }
    return {0, 0, 0, 0};
}

isa_t i8_isa(i8_kind_t kind) {
    switch (kind) {
#define LLGA_GEMM_I8_UKR(kind, mr, nr, width, kalign, isa, name) \
    case i8_kind_t::kind: return isa_t::isa;
#include "backends/cpu/kernels/gemm/gemm_flavours.def"
#undef LLGA_GEMM_I8_UKR
    }
    return isa_t::isa_default;
}

const char *i8_kind_name(i8_kind_t kind) {
    switch (kind) {
#define LLGA_GEMM_I8_UKR(kind, mr, nr, width, kalign, isa, name) \
    case i8_kind_t::kind: return name;
#include "backends/cpu/kernels/gemm/gemm_flavours.def"
#undef LLGA_GEMM_I8_UKR
    }
    return "?";
}

int i8_dst_bytes(i8_dst_t dt) {
    switch (dt) {
        case i8_dst_t::f32:
        case i8_dst_t::s32: return 4;
        case i8_dst_t::bf16: return 2;
        default: return 1;
    }
}

const char *i8_dst_name(i8_dst_t dt) {
    switch (dt) {
        case i8_dst_t::f32: return "f32";
        case i8_dst_t::bf16: return "bf16";
        case i8_dst_t::s32: return "s32";
        case i8_dst_t::s8: return "s8";
        case i8_dst_t::u8: return "u8";
    }
    return "?";
}

status_t get_i8_ukernel(i8_kind_t kind, int m, int nv, i8_dst_t dt,
        i8_fn_t *fn, bool a7) {
    a7 = a7 && kind == i8_kind_t::avx2;
    const i8_shape_t s = i8_shape(kind);
    if (kind == i8_kind_t::amx)
        return fail(dnnl_invalid_arguments, "cpu gemm_int8: use get_i8_amx_kernel");
    if (m < 1 || m > s.mr || nv < 1 || nv * s.width > s.nr)
        return fail(dnnl_invalid_arguments,
                "cpu gemm_int8: tile %dx%d vectors is outside %dx%d", m, nv,
                s.mr, s.nr / s.width);
    LLGA_RETURN_IF_ERROR(check_i8_isa(kind));
    i8_key_t d = i8_key("gemmi8");
    d.kind = static_cast<int32_t>(kind);
    d.m = m;
    d.nv = nv;
    d.dt = static_cast<int32_t>(dt);
    d.variant = a7 ? 1 : 0;
    const std::string name = std::string("gemm_int8_ukr_") + i8_kind_name(kind)
            + (a7 ? "_a7" : "") + "_" + std::to_string(m) + "x"
            + std::to_string(nv * s.width) + "_" + i8_dst_name(dt);
    return jit_get_fn(jit_key(d), name,
            [&](x86::Assembler &a) {
                ukr_gen_t(a, kind, m, nv, dt, a7).emit();
                return dnnl_success;
            },
            fn);
}

} // namespace gemm_int8
} // namespace cpu
} // namespace llga
