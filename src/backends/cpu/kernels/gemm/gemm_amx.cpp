// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/gemm/gemm_amx.cpp — generates the AMX bf16 GEMM kernels
// (ukr_kind_t::bf16_amx): a 32 x 32 f32 block in four tiles (or, for
// GEMMs of at most 16 rows, a 16 x 32 block in two) accumulated over 32-k
// chunks of packed A and B; see get_amx_kernel in gemm.hpp.
#include <cstddef>
#include <cstdint>

#include "backends/cpu/jit_runtime.hpp"
#include "backends/cpu/kernels/common/amx_tiles.hpp"
#include "backends/cpu/kernels/gemm/gemm.hpp"

namespace llga {
namespace cpu {
namespace gemm {

using namespace asmjit;

namespace {

// AMX tiles: C00..C11 in tmm0..3 (rows 0-15/16-31 x cols 0-15/16-31), A
// halves in tmm4/5, B halves in tmm6/7. Every tile is 16 rows x 64 bytes.
// With rows == 16 only C00/C01, the first A half and both B halves exist.
void emit_amx(x86::Assembler &a, int rows) {
    const bool two = rows == 32;
    Label cfg = a.newLabel(), loop = a.newLabel();
    const x86::Gp pa = x86::rax, pb = x86::rcx, kcnt = x86::r8, c = x86::r9,
                  ldc = x86::r10, t = x86::r11, sa = x86::rdx, sb = x86::rsi;
    auto field = [](size_t off) {
        return x86::qword_ptr(x86::rdi, static_cast<int32_t>(off));
    };
    // rbx (callee-saved) steps A from one 32-k chunk to the next; r12
    // keeps the flags for the end.
    const x86::Gp astep = x86::rbx, fl = x86::r12;
    // r13/r14 (callee-saved): where the final tiles are stored and the row
    // stride there.
    const x86::Gp oc = x86::r13, oldc = x86::r14;
    a.push(astep);
    a.push(fl);
    a.push(oc);
    a.push(oldc);
    a.mov(fl, field(offsetof(ukr_args_t, flags)));
    {
        // ldtilecfg costs about as much as four chunks of products: a task
        // loads the configuration once and keeps it across its calls.
        Label skip = a.newLabel();
        a.test(fl, k_ukr_amx_configured);
        a.jnz(skip);
        a.ldtilecfg(x86::ptr(cfg));
        a.bind(skip);
    }
    a.mov(astep, field(offsetof(ukr_args_t, a_kstep)));
    {
        Label has_step = a.newLabel();
        a.test(astep, astep);
        a.jnz(has_step);
        a.mov(astep, 64);
        a.bind(has_step);
    }
    a.mov(pa, field(offsetof(ukr_args_t, a)));
    a.mov(pb, field(offsetof(ukr_args_t, b)));
    a.mov(kcnt, field(offsetof(ukr_args_t, k)));
    a.mov(c, field(offsetof(ukr_args_t, acc)));
    a.mov(ldc, field(offsetof(ukr_args_t, ldacc)));
    a.mov(oc, c);
    a.mov(oldc, ldc);
    {
        Label to_acc = a.newLabel();
        a.test(fl, k_ukr_amx_to_dst);
        a.jz(to_acc);
        a.mov(oc, field(offsetof(ukr_args_t, dst)));
        a.mov(oldc, field(offsetof(ukr_args_t, ldd)));
        a.bind(to_acc);
    }
    a.mov(sa, field(offsetof(ukr_args_t, lda)));
    a.mov(sb, 128);
    // The second A half walks in rdi once every field has been read.
    const x86::Gp pa1 = x86::rdi;
    // Read the last field before rdi becomes the pointer to A rows 16..31
    // (pa + 16 * lda); t keeps the flags until the branch.
    a.mov(t, field(offsetof(ukr_args_t, flags)));
    a.mov(pa1, sa);
    a.shl(pa1, 4);
    a.add(pa1, pa);
    common::start_c_block(a, t, k_ukr_accumulate, c, ldc, loop, two ? 2 : 1);
    // Each load sits right before the first product that needs it, so
    // the later loads overlap the earlier products. B streams from L2 (A
    // stays in L1 across the strips of a panel): a later chunk's 32 lines
    // are requested into L1 a quarter per product, so the tile loads find
    // them there. Prefetches past the strip's end are harmless.
    // Two chunks ahead: one chunk (64 cycles of products at full speed)
    // is too short to cover an L2 miss under load.
    constexpr int pf_dist = 4096;
    auto pf_b = [&](int q) {
        for (int l = 0; l < 8; ++l)
            a.prefetcht0(x86::ptr(pb, pf_dist + (q * 8 + l) * 64));
    };
    a.tileloadd(x86::tmm4, x86::ptr(pa, sa));
    a.tileloadd(x86::tmm6, x86::ptr(pb, sb));
    a.tdpbf16ps(x86::tmm0, x86::tmm4, x86::tmm6);
    pf_b(0);
    a.tileloadd(x86::tmm7, x86::ptr(pb, sb, 0, 64));
    a.tdpbf16ps(x86::tmm1, x86::tmm4, x86::tmm7);
    pf_b(1);
    if (two) {
        a.tileloadd(x86::tmm5, x86::ptr(pa1, sa));
        a.tdpbf16ps(x86::tmm2, x86::tmm5, x86::tmm6);
    }
    pf_b(2);
    if (two) a.tdpbf16ps(x86::tmm3, x86::tmm5, x86::tmm7);
    pf_b(3);
    a.add(pa, astep);
    if (two) a.add(pa1, astep);
    a.add(pb, 2048);
    a.dec(kcnt);
    a.jnz(loop);
    // The store target (acc, or dst with k_ukr_amx_to_dst).
    a.mov(c, oc);
    a.mov(ldc, oldc);
    common::store_c_block(a, t, c, ldc, two ? 2 : 1);
    // Release (unless the caller has more calls) so later code and
    // context switches carry no tile state.
    {
        Label keep = a.newLabel();
        a.test(fl, k_ukr_amx_keep);
        a.jnz(keep);
        a.tilerelease();
        a.bind(keep);
    }
    a.pop(oldc);
    a.pop(oc);
    a.pop(fl);
    a.pop(astep);
    a.ret();
    common::embed_tile_config(a, cfg);
}

} // namespace

status_t get_amx_kernel(ukr_fn_t *fn, int rows) {
    if (!isa_available(isa_t::avx512_core_amx))
        return fail(dnnl_unimplemented,
                "cpu gemm: isa avx512_core_amx is not available (max %s)",
                isa_name(max_isa()));
    if (rows != 32 && rows != 16)
        return fail(dnnl_invalid_arguments,
                "cpu gemm: AMX kernel rows %d (want 16 or 32)", rows);
    return jit_get_fn(
            rows == 32 ? "gemm_amx_bf16_32x32" : "gemm_amx_bf16_16x32",
            rows == 32 ? "gemm_ukr_bf16_avx512_amx_32x32"
                       : "gemm_ukr_bf16_avx512_amx_16x32",
            [&](x86::Assembler &a) {
                emit_amx(a, rows);
                return dnnl_success;
            },
            fn);
}

} // namespace gemm
} // namespace cpu
} // namespace llga
