// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/gemm/int8/gemm_int8_amx.cpp — generates the AMX int8
// GEMM kernels: the block kernel (one 32 x 32 s32 block by tdpbusd / tdpbssd
// into four 16 x 16 tiles, stored for a separate epilogue) and the panel kernel
// (a row panel across whole strips with the quantization epilogue fused and
// software-pipelined behind the tile products).
#include <cstddef>
#include <cstdint>
#include <string>

#include "backends/cpu/kernels/common/amx_tiles.hpp"
#include "backends/cpu/kernels/gemm/int8/gemm_int8_jit_p.hpp"

namespace llga {
namespace cpu {
namespace gemm_int8 {

using namespace asmjit;

namespace {

// Both kernels keep C00..C11 in tmm0..3 (rows 0-15 / 16-31 x columns 0-15
// / 16-31), the A halves in tmm4/5 and the B halves in tmm6/7; every tile
// is 16 rows x 64 bytes. A chunk is 64 k: C[q] += A[q / 2] x B[q % 2].
void dp(x86::Assembler &a, bool s8s8, int c, int ta, int tb) {
    if (s8s8)
        a.tdpbssd(x86::tmm(c), x86::tmm(ta), x86::tmm(tb));
    else
        a.tdpbusd(x86::tmm(c), x86::tmm(ta), x86::tmm(tb));
}

// One 64-k chunk: each product follows the load it needs, so the loads of
// the next step overlap the products still reading the previous tiles
// (tiles are not renamed). B streams from L2 while A stays in L1: the B
// chunk two steps ahead is prefetched a quarter after each product.
// `after(q)` emits extra work behind product q.
template <typename F>
void emit_chunk(x86::Assembler &a, bool s8s8, const x86::Gp &pa,
        const x86::Gp &pa1, const x86::Gp &pb, const x86::Gp &sa,
        const x86::Gp &sb, F after) {
    auto pf = [&](int q) {
        for (int l = 0; l < 8; ++l)
            a.prefetcht0(x86::ptr(pb, 4096 + (q * 8 + l) * 64));
    };
    a.tileloadd(x86::tmm4, x86::ptr(pa, sa));
    a.tileloadd(x86::tmm6, x86::ptr(pb, sb));
    dp(a, s8s8, 0, 4, 6);
    pf(0);
    after(0);
    a.tileloadd(x86::tmm7, x86::ptr(pb, sb, 0, 64));
    dp(a, s8s8, 1, 4, 7);
    pf(1);
    after(1);
    a.tileloadd(x86::tmm5, x86::ptr(pa1, sa));
    dp(a, s8s8, 2, 5, 6);
    pf(2);
    after(2);
    dp(a, s8s8, 3, 5, 7);
    pf(3);
    after(3);
}

// Tile configuration is a task-level cost (ldtilecfg and tilerelease take
// far longer than a short K loop): the caller sets k_i8_amx_config on the
// first call of a task and k_i8_amx_release on its last.
void config_if_asked(x86::Assembler &a, const Label &cfg) {
    Label no_cfg = a.newLabel();
    a.test(field(offsetof(i8_args_t, flags)), k_i8_amx_config);
    a.jz(no_cfg);
    a.ldtilecfg(x86::ptr(cfg));
    a.bind(no_cfg);
}

void emit_block(x86::Assembler &a, bool s8s8) {
    Label cfg = a.newLabel(), loop = a.newLabel();
    const x86::Gp pa = x86::rax, pb = x86::rcx, kcnt = x86::r8, c = x86::r9,
                  ldc = x86::r10, t = x86::r11, sa = x86::rdx, sb = x86::rsi,
                  pa1 = x86::rdi;
    config_if_asked(a, cfg);
    a.mov(pa, field(offsetof(i8_args_t, a)));
    a.mov(pb, field(offsetof(i8_args_t, b)));
    a.mov(kcnt, field(offsetof(i8_args_t, k)));
    a.mov(c, field(offsetof(i8_args_t, acc)));
    a.mov(ldc, field(offsetof(i8_args_t, ldacc)));
    a.mov(sa, field(offsetof(i8_args_t, lda)));
    a.mov(t, field(offsetof(i8_args_t, flags)));
    a.push(t); // read again after the loop, when every register is taken
    a.mov(sb, 128);
    // rdi (the args) becomes the pointer to A rows 16..31.
    a.mov(pa1, sa);
    a.shl(pa1, 4);
    a.add(pa1, pa);
    common::start_c_block(a, t, k_i8_accumulate, c, ldc, loop);
    emit_chunk(a, s8s8, pa, pa1, pb, sa, sb, [](int) {});
    a.add(pa, 64);
    a.add(pa1, 64);
    a.add(pb, 2048);
    a.dec(kcnt);
    a.jnz(loop);
    common::store_c_block(a, t, c, ldc);
    Label no_rel = a.newLabel();
    a.pop(kcnt);
    a.test(kcnt, k_i8_amx_release);
    a.jz(no_rel);
    a.tilerelease();
    a.bind(no_rel);
    a.ret();
    common::embed_tile_config(a, cfg);
}

// The panel kernel. Strip s's products run while the epilogue of the
// strip before (stored to the other half of the 8 KB acc ring; across
// panels too) is done two rows behind each product; what the K loop
// leaves (short K) is drained after it, and the last strip's epilogue at
// the end of the call.
class panel_gen_t {
public:
    panel_gen_t(x86::Assembler &a, bool s8s8, i8_dst_t dt, bool rowterm)
        : a_(a), s8s8_(s8s8), dt_(dt), rowterm_(rowterm),
          es_(i8_dst_bytes(dt)) {}

    void emit() {
        Label cfg = a_.newLabel(), panel = a_.newLabel(), strip = a_.newLabel(),
              kloop = a_.newLabel();
        for (const x86::Gp &r : saved_) a_.push(r);
        a_.sub(x86::rsp, k_locals);
        config_if_asked(a_, cfg);
        a_.mov(sa_, field(offsetof(i8_args_t, lda)));
        a_.mov(s128_, 128);
        a_.mov(c_, field(offsetof(i8_args_t, acc)));
        a_.lea(t_, x86::ptr(c_, 4096));
        a_.mov(local(k_other), t_);
        a_.mov(t_, field(offsetof(i8_args_t, a)));
        a_.mov(local(k_pa), t_);
        a_.mov(t_, field(offsetof(i8_args_t, dst)));
        a_.mov(local(k_pdst), t_);
        a_.mov(t_, field(offsetof(i8_args_t, rowterm)));
        a_.mov(local(k_prt), t_);
        a_.mov(t_, field(offsetof(i8_args_t, rows)));
        a_.mov(local(k_left), t_);
        a_.xor_(pend_, pend_);
        a_.mov(ldd_, field(offsetof(i8_args_t, ldd)));
        if (quantized()) {
            a_.vbroadcastss(mul_, dfield(offsetof(i8_args_t, dst_mul)));
            a_.vbroadcastss(zp_, dfield(offsetof(i8_args_t, dst_zp)));
            a_.vbroadcastss(lo_, dfield(offsetof(i8_args_t, lo)));
            a_.vbroadcastss(hi_, dfield(offsetof(i8_args_t, hi)));
        }

        // Per panel: B from its first strip, dst and columns from the
        // left, the panel's row count (32 but for the last).
        a_.bind(panel);
        {
            Label full = a_.newLabel();
            a_.mov(t_, local(k_left));
            a_.cmp(t_, 32);
            a_.jle(full);
            a_.mov(t_, 32);
            a_.bind(full);
            a_.mov(local(k_prows), t_);
        }
        a_.mov(t_, local(k_pdst));
        a_.mov(local(k_dst), t_);
        a_.mov(local(k_col), 0);
        a_.mov(pb_, field(offsetof(i8_args_t, b)));
        a_.mov(strips_, field(offsetof(i8_args_t, nstrips)));

        a_.bind(strip);
        a_.mov(pa_, local(k_pa));
        a_.mov(pa1_, sa_);
        a_.shl(pa1_, 4);
        a_.add(pa1_, pa_);
        a_.mov(kcnt_, field(offsetof(i8_args_t, k)));
        for (int i = 0; i < 4; ++i)
            a_.tilezero(x86::tmm(i));
        a_.align(AlignMode::kCode, 16);
        a_.bind(kloop);
        // Two epilogue rows behind each product: 8 per 64-k chunk, so from
        // K = 256 up the previous strip is finished inside this loop.
        emit_chunk(a_, s8s8_, pa_, pa1_, pb_, sa_, s128_, [&](int) {
            pending_row();
            pending_row();
        });
        a_.add(pa_, 64);
        a_.add(pa1_, 64);
        a_.add(pb_, 2048);
        a_.dec(kcnt_);
        a_.jnz(kloop);
        // The block to the free half of the ring (rows 128 bytes apart).
        a_.tilestored(x86::ptr(c_, s128_), x86::tmm0);
        a_.tilestored(x86::ptr(c_, s128_, 0, 64), x86::tmm1);
        a_.tilestored(x86::ptr(c_, s128_, 0, 2048), x86::tmm2);
        a_.tilestored(x86::ptr(c_, s128_, 0, 2048 + 64), x86::tmm3);
        drain();
        start_epilogue();
        a_.dec(strips_);
        a_.jnz(strip);
        // Next panel: 32 rows down in A, dst and the row term.
        a_.mov(t_, sa_);
        a_.shl(t_, 5);
        a_.add(local(k_pa), t_);
        a_.mov(t_, ldd_);
        a_.shl(t_, 5);
        a_.add(local(k_pdst), t_);
        a_.add(local(k_prt), 32 * 4);
        a_.sub(local(k_left), 32);
        a_.jg(panel);
        drain();

        Label no_rel = a_.newLabel();
        a_.test(field(offsetof(i8_args_t, flags)), k_i8_amx_release);
        a_.jz(no_rel);
        a_.tilerelease();
        a_.bind(no_rel);
        a_.vzeroupper();
        a_.add(x86::rsp, k_locals);
        for (int i = static_cast<int>(sizeof(saved_) / sizeof(saved_[0])) - 1;
                i >= 0; --i)
            a_.pop(saved_[i]);
        a_.ret();
        common::embed_tile_config(a_, cfg);
    }

private:
    bool quantized() const {
        return dt_ == i8_dst_t::s8 || dt_ == i8_dst_t::u8;
    }
    x86::Mem local(int off) const { return x86::qword_ptr(x86::rsp, off); }

    // The epilogue now owns the block just stored: its rows, the next
    // half of the ring for the products, the strip's columns.
    void start_epilogue() {
        a_.mov(accp_, c_);
        a_.mov(t_, local(k_other));
        a_.mov(local(k_other), c_);
        a_.mov(c_, t_);
        a_.mov(dstp_, local(k_dst));
        a_.add(local(k_dst), 32 * es_);
        a_.mov(t_, local(k_col));
        a_.add(local(k_col), 32 * 4);
        // rtp_ is free until the row term pointer is set below.
        a_.mov(rtp_, field(offsetof(i8_args_t, comp)));
        a_.vmovdqu32(comp_[0], x86::ptr(rtp_, t_));
        a_.vmovdqu32(comp_[1], x86::ptr(rtp_, t_, 0, 64));
        if (dt_ != i8_dst_t::s32) {
            a_.mov(rtp_, field(offsetof(i8_args_t, scale)));
            a_.vmovups(scale_[0], x86::ptr(rtp_, t_));
            a_.vmovups(scale_[1], x86::ptr(rtp_, t_, 0, 64));
            // No bias adds zeros: x * s + 0 rounds as x * s does, so
            // every column matches the VNNI epilogue bit for bit.
            Label no_bias = a_.newLabel(), done = a_.newLabel();
            a_.test(field(offsetof(i8_args_t, flags)), k_i8_bias);
            a_.jz(no_bias);
            a_.mov(rtp_, field(offsetof(i8_args_t, bias)));
            a_.vmovups(bias_[0], x86::ptr(rtp_, t_));
            a_.vmovups(bias_[1], x86::ptr(rtp_, t_, 0, 64));
            a_.jmp(done);
            a_.bind(no_bias);
            a_.vpxord(bias_[0], bias_[0], bias_[0]);
            a_.vpxord(bias_[1], bias_[1], bias_[1]);
            a_.bind(done);
        }
        if (rowterm_) a_.mov(rtp_, local(k_prt));
        a_.mov(pend_, local(k_prows));
    }

    void drain() {
        Label top = a_.newLabel(), done = a_.newLabel();
        a_.bind(top);
        a_.test(pend_, pend_);
        a_.jz(done);
        row();
        a_.jmp(top);
        a_.bind(done);
    }

    void pending_row() {
        Label skip = a_.newLabel();
        a_.test(pend_, pend_);
        a_.jz(skip);
        row();
        a_.bind(skip);
    }

    // One row of 32 columns, as the VNNI tiles' epilogue computes it.
    void row() {
        const x86::Zmm x[2] = {x86::zmm0, x86::zmm1};
        for (int v = 0; v < 2; ++v)
            a_.vpaddd(x[v], comp_[v], x86::ptr(accp_, v * 64));
        if (rowterm_) {
            a_.vpbroadcastd(x86::zmm12, x86::dword_ptr(rtp_));
            for (int v = 0; v < 2; ++v)
                a_.vpaddd(x[v], x[v], x86::zmm12);
            a_.add(rtp_, 4);
        }
        if (dt_ != i8_dst_t::s32)
            for (int v = 0; v < 2; ++v) {
                a_.vcvtdq2ps(x[v], x[v]);
                a_.vmulps(x[v], x[v], scale_[v]);
                a_.vaddps(x[v], x[v], bias_[v]);
            }
        if (quantized())
            for (int v = 0; v < 2; ++v) {
                a_.vfmadd213ps(x[v], mul_, zp_);
                a_.vmaxps(x[v], x[v], lo_);
                a_.vminps(x[v], x[v], hi_);
                a_.vcvtps2dq(x[v], x[v]);
            }
        for (int v = 0; v < 2; ++v) {
            const x86::Mem m = x86::ptr(dstp_, v * 16 * es_);
            switch (dt_) {
                case i8_dst_t::f32: a_.vmovups(m, x[v]); break;
                case i8_dst_t::s32: a_.vmovdqu32(m, x[v]); break;
                case i8_dst_t::bf16:
                    a_.vcvtneps2bf16(x86::ymm(x[v].id()), x[v]);
                    a_.vmovdqu16(m, x86::ymm(x[v].id()));
                    break;
                case i8_dst_t::s8: a_.vpmovsdb(m, x[v]); break;
                case i8_dst_t::u8: a_.vpmovusdb(m, x[v]); break;
            }
        }
        a_.add(accp_, 128);
        a_.add(dstp_, ldd_);
        a_.dec(pend_);
    }

    // Stack locals: the ring half the next block goes to; the dst and the
    // column byte offset of the strip being computed; the panel's A, dst,
    // row term and rows; the rows from this panel on.
    static constexpr int k_other = 0, k_dst = 8, k_col = 16, k_pa = 24,
                         k_pdst = 32, k_prt = 40, k_prows = 48, k_left = 56,
                         k_locals = 64;

    x86::Assembler &a_;
    bool s8s8_;
    i8_dst_t dt_;
    bool rowterm_;
    int es_;
    // rdi stays the argument block throughout.
    const x86::Gp pa_ = x86::rax, pa1_ = x86::rbx, pb_ = x86::rcx,
                  kcnt_ = x86::r8, sa_ = x86::rdx, s128_ = x86::rsi,
                  c_ = x86::r9, accp_ = x86::r10, dstp_ = x86::r11,
                  pend_ = x86::r12, ldd_ = x86::r13, rtp_ = x86::r14,
                  t_ = x86::r15, strips_ = x86::rbp;
    const x86::Gp saved_[6] = {x86::rbx, x86::rbp, x86::r12, x86::r13,
            x86::r14, x86::r15};
    const x86::Zmm comp_[2] = {x86::zmm2, x86::zmm3};
    const x86::Zmm scale_[2] = {x86::zmm4, x86::zmm5};
    const x86::Zmm bias_[2] = {x86::zmm6, x86::zmm7};
    const x86::Zmm mul_ = x86::zmm8, zp_ = x86::zmm9, lo_ = x86::zmm10,
                   hi_ = x86::zmm11;
};

} // namespace

status_t get_i8_amx_kernel(bool s8s8, i8_fn_t *fn) {
    LLGA_RETURN_IF_ERROR(check_i8_isa(i8_kind_t::amx));
    i8_key_t d = i8_key("gemmi8");
    d.kind = static_cast<int32_t>(i8_kind_t::amx);
    d.variant = s8s8 ? 1 : 0;
    return jit_get_fn(jit_key(d),
            s8s8 ? "gemm_int8_amx_s8s8_32x32" : "gemm_int8_amx_u8s8_32x32",
            [&](x86::Assembler &a) {
                emit_block(a, s8s8);
                return dnnl_success;
            },
            fn);
}

status_t get_i8_amx_panel_kernel(bool s8s8, i8_dst_t dt, bool rowterm,
        i8_fn_t *fn) {
    LLGA_RETURN_IF_ERROR(check_i8_isa(i8_kind_t::amx));
    i8_key_t d = i8_key("gemmi8p");
    d.kind = static_cast<int32_t>(i8_kind_t::amx);
    d.dt = static_cast<int32_t>(dt);
    d.variant = (s8s8 ? 1 : 0) | (rowterm ? 2 : 0);
    const std::string name = std::string("gemm_int8_amx_panel_")
            + (s8s8 ? "s8s8_" : "u8s8_") + i8_dst_name(dt)
            + (rowterm ? "_rowterm" : "");
    return jit_get_fn(jit_key(d), name,
            [&](x86::Assembler &a) {
                panel_gen_t(a, s8s8, dt, rowterm).emit();
                return dnnl_success;
            },
            fn);
}

} // namespace gemm_int8
} // namespace cpu
} // namespace llga
