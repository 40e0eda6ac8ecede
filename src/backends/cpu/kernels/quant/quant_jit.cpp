// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/quant/quant_jit.cpp — the generator of the quantization
// family's functions (get_convert): one loop of whole vectors, then one
// tail. AVX-512 runs the tail with the k1 lane mask on every load and store
// (byte and word stores included). AVX2 has no byte/word masked moves, so
// its tail copies the remaining elements into a stack scratch, runs the same
// vector body on it, and copies the valid results out byte by byte.
//
// The arithmetic mirrors the reference (ops/quant.cpp, ir/dtype.cpp) step
// by step in f32 — separate multiply and add (no FMA), NaN -> 0, clamp to
// the integer range, then round half to even (vcvtps2dq with the default
// MXCSR, like std::nearbyint) — so results are bit-identical.
#include <cstring>

#include "backends/cpu/jit_runtime.hpp"
#include "backends/cpu/kernels/eltwise/eltwise_jit_math.hpp"
#include "backends/cpu/kernels/quant/quant.hpp"
#include "base/status.hpp"

namespace llga {
namespace cpu {
namespace quant {

using namespace asmjit;
using eltwise::vec_emitter_t;

namespace {

// The cache key. Plain 4-byte fields only, so the raw bytes are the key.
struct desc_t {
    char family[8];
    int32_t isa;
    int32_t conv;
    int32_t qdt;
    int32_t params;
};

using eltwise::k_cmp_ord;
using eltwise::k_cmp_unord;

// Registers. Arguments arrive in rdi, rsi, rdx, rcx, r8 and are moved out of
// rdi/rsi/rcx, which the AVX2 tail copy uses.
const x86::Gp r_src = x86::r9, r_dst = x86::r10, r_n = x86::r11,
              r_mul = x86::rdx, r_zp = x86::r8;
// Stack scratch of the AVX2 tail: src, mul, zp, dst, 32 bytes each.
constexpr int k_scratch = 128;
constexpr int k_sc_src = 0, k_sc_mul = 32, k_sc_zp = 64, k_sc_dst = 96;

int in_size(conv_t c) {
    switch (c) {
        case conv_t::quantize: return 4;
        case conv_t::dequantize: return 1;
        case conv_t::f32_to_bf16: return 4;
        default: return 2;
    }
}
int out_size(conv_t c) {
    switch (c) {
        case conv_t::quantize: return 1;
        case conv_t::dequantize: return 4;
        case conv_t::f32_to_bf16: return 2;
        default: return 4;
    }
}
// `m` with an explicit operand size (byte/word narrowing moves need it).
x86::Mem sized(const x86::Mem &m, uint32_t bytes) {
    x86::Mem r = m;
    r.setSize(bytes);
    return r;
}

int log2_of(int v) { return v == 4 ? 2 : v == 2 ? 1 : 0; }

struct gen_t {
    x86::Assembler &a;
    vec_emitter_t e;
    conv_t conv;
    bool is_signed; // s8 rather than u8
    bool vec_params;

    gen_t(x86::Assembler &as, bool avx512, conv_t c, bool s, bool vp)
        : a(as), e(as, avx512), conv(c), is_signed(s), vec_params(vp) {}

    bool avx512() const { return e.avx512(); }
    int W() const { return e.width(); }
    // Vectors: data 0..3, mul 8, zp 9.
    x86::Vec v(int i) const { return e.v(i); }

    // Loads W (or, masked, the k1 lanes of) f32 values into dst.
    void load_f32(const x86::Vec &dst, const x86::Mem &m, bool masked) {
        if (masked)
            a.k(x86::k1).z().vmovups(dst, m);
        else
            a.vmovups(dst, m);
    }

    // One vector of the conversion: reads src (and mul/zp when per element),
    // writes dst. `masked`: AVX-512 tail under k1.
    void body(const x86::Mem &src, const x86::Mem &mul, const x86::Mem &zp,
            const x86::Mem &dst, bool masked) {
        const x86::Vec x = v(0);
        if (vec_params && (conv == conv_t::quantize
                    || conv == conv_t::dequantize)) {
            load_f32(v(8), mul, masked);
            load_f32(v(9), zp, masked);
        }
        switch (conv) {
            case conv_t::quantize: quantize(src, dst, masked); break;
            case conv_t::dequantize: dequantize(src, dst, masked); break;
            case conv_t::f32_to_bf16: to_bf16(src, dst, masked); break;
            case conv_t::bf16_to_f32:
                if (masked)
                    a.k(x86::k1).z().vpmovzxwd(x, sized(src, 32));
                else if (avx512())
                    a.vpmovzxwd(x, sized(src, 32));
                else
                    a.vpmovzxwd(x, sized(src, 16));
                a.vpslld(x, x, 16);
                quiet_nan(x);
                store_f32(dst, x, masked);
                break;
            default: break; // f16 casts: C++ (get_convert refuses them)
        }
    }

    // Sets the quiet bit of NaN lanes: the reference widens every value to
    // double and back, which turns a signalling NaN into a quiet one.
    void quiet_nan(const x86::Vec &y) {
        if (avx512()) {
            a.vcmpps(x86::k2, y, y, k_cmp_unord);
            a.k(x86::k2).vpord(y, y, e.ci(0x00400000u));
            return;
        }
        const x86::Vec m = v(1);
        a.vcmpps(m, y, y, k_cmp_unord);
        a.vandps(m, m, e.ci(0x00400000u));
        a.vorps(y, y, m);
    }

    void store_f32(const x86::Mem &dst, const x86::Vec &y, bool masked) {
        if (masked)
            a.k(x86::k1).vmovups(dst, y);
        else
            a.vmovups(dst, y);
    }

    void quantize(const x86::Mem &src, const x86::Mem &dst, bool masked) {
        const x86::Vec x = v(0), t = v(1);
        load_f32(x, src, masked);
        // x * (1/scale) + zp, rounded after each step like the reference.
        a.vmulps(x, x, v(8));
        a.vaddps(x, x, v(9));
        // NaN -> 0 (saturate_round's rule), then clamp; clamped values
        // round inside the range, so saturate-then-round equals this.
        if (avx512()) {
            a.vcmpps(x86::k2, x, x, k_cmp_ord);
            a.k(x86::k2).z().vmovaps(x, x);
        } else {
            a.vcmpps(t, x, x, k_cmp_ord);
            a.vandps(x, x, t);
        }
        a.vmaxps(x, x, e.c(is_signed ? -128.f : 0.f));
        a.vminps(x, x, e.c(is_signed ? 127.f : 255.f));
        a.vcvtps2dq(x, x); // round half to even (default MXCSR)
        if (avx512()) {
            // Values are in range, so the truncating narrow is exact.
            if (masked)
                a.k(x86::k1).vpmovdb(sized(dst, 16), x);
            else
                a.vpmovdb(sized(dst, 16), x);
            return;
        }
        const x86::Xmm xl = x86::xmm(0), th = x86::xmm(1);
        a.vextracti128(th, x, 1);
        a.vpackssdw(xl, xl, th); // exact: |values| <= 255
        if (is_signed)
            a.vpacksswb(xl, xl, xl);
        else
            a.vpackuswb(xl, xl, xl);
        a.vmovq(sized(dst, 8), xl);
    }

    void dequantize(const x86::Mem &src, const x86::Mem &dst, bool masked) {
        const x86::Vec x = v(0);
        const x86::Mem m = avx512() ? sized(src, 16)
                                    : sized(src, 8);
        if (masked && is_signed)
            a.k(x86::k1).z().vpmovsxbd(x, m);
        else if (masked)
            a.k(x86::k1).z().vpmovzxbd(x, m);
        else if (is_signed)
            a.vpmovsxbd(x, m);
        else
            a.vpmovzxbd(x, m);
        a.vcvtdq2ps(x, x); // exact for 8-bit integers
        a.vsubps(x, x, v(9));
        a.vmulps(x, x, v(8));
        store_f32(dst, x, masked);
    }

    // The bf16 bits of each value (vec_emitter_t::bf16_bits, as
    // ir::f32_to_bf16), narrowed to words.
    void to_bf16(const x86::Mem &src, const x86::Mem &dst, bool masked) {
        const x86::Vec x = v(0), t = v(1), r = v(2);
        load_f32(x, src, masked);
        e.store_16(dst, x, false, r, t, masked);
    }

    // rdi/rsi/rcx: byte copy of rcx (>= 1) bytes from [rsi] to [rdi].
    void copy_bytes() {
        Label l = a.newLabel();
        a.bind(l);
        a.movzx(x86::eax, x86::byte_ptr(x86::rsi, x86::rcx, 0, -1));
        a.mov(x86::byte_ptr(x86::rdi, x86::rcx, 0, -1), x86::al);
        a.dec(x86::rcx);
        a.jnz(l);
    }
    // Copies r_n elements of `elem` bytes between [from] and [to].
    void copy_elems(const x86::Mem &to, const x86::Mem &from, int elem) {
        a.lea(x86::rdi, to);
        a.lea(x86::rsi, from);
        a.mov(x86::rcx, r_n);
        if (log2_of(elem)) a.shl(x86::rcx, log2_of(elem));
        copy_bytes();
    }

    void tail() {
        if (avx512()) {
            a.mov(x86::ecx, r_n.r32());
            a.mov(x86::eax, 1);
            a.shl(x86::eax, x86::cl);
            a.dec(x86::eax);
            a.kmovw(x86::k1, x86::eax);
            body(x86::ptr(r_src), x86::ptr(r_mul), x86::ptr(r_zp),
                    x86::ptr(r_dst), true);
            return;
        }
        const x86::Mem sc_src = x86::ptr(x86::rsp, k_sc_src),
                       sc_mul = x86::ptr(x86::rsp, k_sc_mul),
                       sc_zp = x86::ptr(x86::rsp, k_sc_zp),
                       sc_dst = x86::ptr(x86::rsp, k_sc_dst);
        copy_elems(sc_src, x86::ptr(r_src), in_size(conv));
        if (vec_params) {
            copy_elems(sc_mul, x86::ptr(r_mul), 4);
            copy_elems(sc_zp, x86::ptr(r_zp), 4);
        }
        body(sc_src, sc_mul, sc_zp, sc_dst, false);
        copy_elems(x86::ptr(r_dst), sc_dst, out_size(conv));
    }

    // void f(src, dst, n, mul, zp)
    status_t emit() {
        Label loop = a.newLabel(), tail_l = a.newLabel(),
              done = a.newLabel();
        const bool has_params
                = conv == conv_t::quantize || conv == conv_t::dequantize;
        a.mov(r_src, x86::rdi);
        a.mov(r_dst, x86::rsi);
        a.mov(r_n, x86::rdx);
        a.mov(r_mul, x86::rcx);
        if (!avx512()) a.sub(x86::rsp, k_scratch);
        if (has_params && !vec_params) {
            a.vbroadcastss(v(8), x86::dword_ptr(r_mul));
            a.vbroadcastss(v(9), x86::dword_ptr(r_zp));
        }
        a.cmp(r_n, W());
        a.jb(tail_l);
        a.bind(loop);
        body(x86::ptr(r_src), x86::ptr(r_mul), x86::ptr(r_zp),
                x86::ptr(r_dst), false);
        a.add(r_src, W() * in_size(conv));
        a.add(r_dst, W() * out_size(conv));
        if (vec_params) {
            a.add(r_mul, e.vlen());
            a.add(r_zp, e.vlen());
        }
        a.sub(r_n, W());
        a.cmp(r_n, W());
        a.jae(loop);
        a.bind(tail_l);
        a.test(r_n, r_n);
        a.jz(done);
        tail();
        a.bind(done);
        if (!avx512()) a.add(x86::rsp, k_scratch);
        a.vzeroupper();
        a.ret();
        e.emit_pool();
        return dnnl_success;
    }
};

const char *conv_name(conv_t c, bool is_signed) {
    switch (c) {
        case conv_t::quantize:
            return is_signed ? "quantize_f32_s8" : "quantize_f32_u8";
        case conv_t::dequantize:
            return is_signed ? "dequantize_s8_f32" : "dequantize_u8_f32";
        case conv_t::f32_to_bf16: return "typecast_f32_bf16";
        default: return "typecast_bf16_f32";
    }
}

} // namespace

status_t get_convert(conv_t conv, data_type_t qdt, params_t params, isa_t isa,
        convert_fn_t *fn) {
    if (isa != isa_t::avx512_core && isa != isa_t::avx2)
        return fail(dnnl_unimplemented, "cpu quant: no generator for isa %s",
                isa_name(isa));
    if (!isa_available(isa))
        return fail(dnnl_unimplemented,
                "cpu quant: isa %s is not available (max %s)", isa_name(isa),
                isa_name(max_isa()));
    if (is_cast(conv) && conv != conv_t::f32_to_bf16
            && conv != conv_t::bf16_to_f32)
        return fail(dnnl_unimplemented,
                "cpu quant: casts with an f16 side are not generated");
    const bool has_params
            = conv == conv_t::quantize || conv == conv_t::dequantize;
    if (has_params && qdt != dnnl_u8 && qdt != dnnl_s8)
        return fail(dnnl_unimplemented, "cpu quant: integer type must be u8 "
                "or s8");
    const bool avx512 = isa == isa_t::avx512_core;
    const bool is_signed = has_params && qdt == dnnl_s8;
    const bool vec = has_params && params == params_t::vector;
    desc_t d;
    std::memset(&d, 0, sizeof(d));
    std::memcpy(d.family, "quant", 6);
    d.isa = static_cast<int32_t>(isa);
    d.conv = static_cast<int32_t>(conv);
    d.qdt = is_signed ? 1 : 0;
    d.params = vec ? 1 : 0;
    std::string name = conv_name(conv, is_signed);
    if (has_params) name += vec ? "_vec" : "_bcast";
    name += avx512 ? "_avx512" : "_avx2";
    return jit_get_fn(jit_key(d), name,
            [&](x86::Assembler &a) {
                gen_t g(a, avx512, conv, is_signed, vec);
                return g.emit();
            },
            fn);
}

} // namespace quant
} // namespace cpu
} // namespace llga
