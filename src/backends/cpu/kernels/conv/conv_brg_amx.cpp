// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/conv/conv_brg_amx.cpp — the AMX generator of the direct
// Convolution (see conv_brg.hpp). Tiles: C in tmm0..3 (pixel rows 0-15 /
// 16-31 x channels 0-15 / 16-31), A halves (pixel rows) in tmm4/5, B halves
// in tmm6/7, all 16 rows x 64 bytes, configured once per task by the
// get_brg_amx_cfg functions (ldtilecfg costs more than a short call).
#include <cstddef>
#include <cstring>
#include <string>

#include "backends/cpu/isa.hpp"
#include "backends/cpu/jit_runtime.hpp"
#include "backends/cpu/kernels/common/amx_tiles.hpp"
#include "backends/cpu/kernels/conv/conv_brg_p.hpp"

namespace llga {
namespace cpu {
namespace conv {

namespace {

using namespace asmjit;

x86::Mem field(size_t off) {
    return x86::qword_ptr(x86::rdi, static_cast<int32_t>(off));
}

void emit_amx(x86::Assembler &a, const brg_desc_t &d) {
    const bool two = d.ur == 2; // A tiles (16 pixel rows each)
    const int64_t nkc = d.ksteps * 2 / 32; // 32-value chunks per tap
    const x86::Gp src = x86::rsi, wei = x86::r8, taps = x86::r10,
                  ntaps = x86::r11, pa = x86::rax, pa1 = x86::rbx,
                  pb = x86::r12, kc = x86::rcx, sa = x86::r13, sb = x86::r14;
    for (const x86::Gp &r : {x86::rbx, x86::rbp, x86::r12, x86::r13,
                 x86::r14, x86::r15})
        a.push(r);
    a.mov(src, field(offsetof(brg_args_t, src)));
    a.mov(wei, field(offsetof(brg_args_t, wei)));
    a.mov(taps, field(offsetof(brg_args_t, taps)));
    a.mov(ntaps, field(offsetof(brg_args_t, ntaps)));
    a.mov(sa, d.sstep);
    a.mov(sb, 64);
    for (int i = 0; i < (two ? 4 : 2); ++i)
        a.tilezero(x86::tmm(i));
    Label tap = a.newLabel(), tdone = a.newLabel(), kl = a.newLabel();
    a.test(ntaps, ntaps);
    a.jz(tdone);
    a.bind(tap);
    a.mov(pa, x86::qword_ptr(taps));
    a.mov(pb, x86::qword_ptr(taps, 8));
    a.add(pa, src);
    a.add(pb, wei);
    if (two) {
        a.mov(pa1, sa);
        a.shl(pa1, 4);
        a.add(pa1, pa);
    }
    a.mov(kc, nkc);
    a.bind(kl);
    a.tileloadd(x86::tmm4, x86::ptr(pa, sa));
    a.tileloadd(x86::tmm6, x86::ptr(pb, sb));
    a.tileloadd(x86::tmm7, x86::ptr(pb, sb, 0, 1024));
    if (two) a.tileloadd(x86::tmm5, x86::ptr(pa1, sa));
    a.tdpbf16ps(x86::tmm0, x86::tmm4, x86::tmm6);
    a.tdpbf16ps(x86::tmm1, x86::tmm4, x86::tmm7);
    if (two) {
        a.tdpbf16ps(x86::tmm2, x86::tmm5, x86::tmm6);
        a.tdpbf16ps(x86::tmm3, x86::tmm5, x86::tmm7);
        a.add(pa1, 64);
    }
    a.add(pa, 64);
    a.add(pb, 2048);
    a.dec(kc);
    a.jnz(kl);
    a.add(taps, 16);
    a.dec(ntaps);
    a.jnz(tap);
    a.bind(tdone);
    // C -> acc scratch ([32][32] f32, rows 128 bytes apart).
    const x86::Gp acc = x86::rbp, lda = x86::r15, dst = x86::rdx,
                  bias = x86::r9, rows = x86::rcx;
    a.mov(acc, field(offsetof(brg_args_t, acc)));
    a.mov(lda, 128);
    a.tilestored(x86::ptr(acc, lda), x86::tmm0);
    a.tilestored(x86::ptr(acc, lda, 0, 64), x86::tmm1);
    if (two) {
        a.tilestored(x86::ptr(acc, lda, 0, 2048), x86::tmm2);
        a.tilestored(x86::ptr(acc, lda, 0, 2112), x86::tmm3);
    }
    // Epilogue: m rows, bias, f32 or bf16 (RNE) store; the last vector
    // masked on the channel tail.
    a.mov(dst, field(offsetof(brg_args_t, dst)));
    a.mov(bias, field(offsetof(brg_args_t, bias)));
    a.mov(rows, field(offsetof(brg_args_t, m)));
    if (d.tail) {
        a.mov(x86::eax, (1u << d.tail) - 1);
        a.kmovw(x86::k1, x86::eax);
    }
    for (int v = 0; v < d.nv; ++v) {
        if (d.bias)
            a.vmovups(x86::zmm(30 + v), x86::ptr(bias, v * 64));
    }
    Label row = a.newLabel(), skip = a.newLabel();
    x86::Gp out = dst;
    if (d.rowtab) {
        a.mov(x86::r8, field(offsetof(brg_args_t, rows)));
        out = x86::r11;
    }
    a.bind(row);
    if (d.rowtab) {
        a.mov(out, x86::qword_ptr(x86::r8));
        a.test(out, out);
        a.js(skip);
        a.add(out, dst);
    }
    for (int v = 0; v < d.nv; ++v) {
        const bool masked = d.tail && v == d.nv - 1;
        const x86::Zmm z = x86::zmm(v);
        a.vmovups(z, x86::ptr(acc, v * 64));
        if (d.bias) a.vaddps(z, z, x86::zmm(30 + v));
        if (d.dst_bf16) {
            const x86::Ymm h = x86::ymm(16 + v);
            a.vcvtneps2bf16(h, z);
            const x86::Mem m = x86::ptr(out, v * 32);
            if (masked)
                a.k(x86::k1).vmovdqu16(m, h);
            else
                a.vmovdqu16(m, h);
        } else {
            const x86::Mem m = x86::ptr(out, v * 64);
            if (masked)
                a.k(x86::k1).vmovups(m, z);
            else
                a.vmovups(m, z);
        }
    }
    a.bind(skip);
    a.add(acc, 128);
    if (d.rowtab)
        a.add(x86::r8, 8);
    else
        a.add(dst, d.dstep);
    a.dec(rows);
    a.jnz(row);
    for (const x86::Gp &r : {x86::r15, x86::r14, x86::r13, x86::r12,
                 x86::rbp, x86::rbx})
        a.pop(r);
    a.vzeroupper();
    a.ret();
}

} // namespace

status_t get_brg_amx_kernel(const brg_desc_t &d, brg_fn_t *fn) {
    if (!isa_available(isa_t::avx512_core_amx))
        return fail(dnnl_unimplemented, "cpu conv: AMX is not available");
    const std::string name = std::string("conv_brg_amx_bf16_m")
            + std::to_string(d.ur * 16) + "_nv" + std::to_string(d.nv);
    return jit_get_fn(jit_key(d), name,
            [&](x86::Assembler &a) {
                emit_amx(a, d);
                return dnnl_success;
            },
            fn);
}

status_t get_brg_amx_cfg(brg_void_fn_t *load, brg_void_fn_t *release) {
    if (!isa_available(isa_t::avx512_core_amx))
        return fail(dnnl_unimplemented, "cpu conv: AMX is not available");
    LLGA_RETURN_IF_ERROR(jit_get_fn("conv_brg_amx_tilecfg_load",
            "conv_brg_amx_tilecfg_load",
            [&](x86::Assembler &a) {
                Label cfg = a.newLabel();
                a.ldtilecfg(x86::ptr(cfg));
                a.ret();
                common::embed_tile_config(a, cfg);
                return dnnl_success;
            },
            load));
    return jit_get_fn("conv_brg_amx_tilecfg_release",
            "conv_brg_amx_tilecfg_release",
            [&](x86::Assembler &a) {
                a.tilerelease();
                a.ret();
                return dnnl_success;
            },
            release);
}

} // namespace conv
} // namespace cpu
} // namespace llga
