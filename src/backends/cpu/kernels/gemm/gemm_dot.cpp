// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/gemm/gemm_dot.cpp — the dot-product kernel for one row
// of A against B stored transposed (B^T rows contiguous along k, the usual [N,
// K] weights with transpose_b): nn ≤ 8 columns per call, in one of two orders
// (dot_order_t: all rows advanced together, or each row whole), reduced to nn
// f32 sums. Bias, post-ops and the dst store are left to the wide kernels run
// with k = 0 on those sums (see gemm.hpp).
#include <cstddef>
#include <cstring>
#include <string>

#include "backends/cpu/jit_runtime.hpp"
#include "backends/cpu/kernels/gemm/gemm.hpp"
#include "backends/cpu/kernels/gemm/gemm_driver_impl_p.hpp"

namespace llga {
namespace cpu {
namespace gemm {

using namespace asmjit;

namespace {

struct dot_desc_t {
    char family[8];
    int32_t kind, nn, rows, b16;
};

// GP registers of the B^T row pointers, which stay put while one offset
// register (r13) walks k for the vector and every row: one add per k
// vector instead of one per row, which with 8 rows was half the loop's
// instructions. rbx, r12 and r13 are callee-saved and pushed around the
// body.
const x86::Gp k_rows[8] = {x86::rcx, x86::rdx, x86::rsi, x86::r9, x86::r10,
        x86::r11, x86::rbx, x86::r12};
const x86::Gp k_off = x86::r13;

// How a dot kernel reads its operands: A (bf16 on the bf16 flavour, else
// f32) and B (the flavour's type, or 16-bit B of an f32 flavour, widened).
// One offset register walks B's bytes; with f32 A and 16-bit B, A's
// address scales it by two. 16-bit B of an f32 flavour has no tail code:
// the caller passes k in whole vectors.
struct dot_io_t {
    x86::Assembler &a;
    bool z, bf;
    b16_t b16;
    int W;
    int a_shift() const { return !bf && b16 != b16_t::none ? 1 : 0; }
    int b_step() const { return W * (bf || b16 != b16_t::none ? 2 : 4); }
    bool b_tail() const { return b16 == b16_t::none; }
    x86::Mem a_at(const x86::Gp &pa, const x86::Gp &off, int disp) const {
        return x86::ptr(pa, off, static_cast<uint32_t>(a_shift()),
                disp << a_shift());
    }
    // One k vector (f32, or bf16 widened) into dst; `masked` uses the k
    // tail mask (k1 / ymm15) and zeroes the lanes past the end.
    void load_a(const x86::Vec &dst, const x86::Mem &m, bool masked) const {
        if (bf) {
            if (masked) a.k(x86::k1).z();
            a.vpmovzxwd(dst, m);
            a.vpslld(dst, dst, 16);
        } else if (!masked) {
            a.vmovups(dst, m);
        } else if (z) {
            a.k(x86::k1).z().vmovups(dst, m);
        } else {
            a.vmaskmovps(dst, x86::ymm15, m);
        }
    }
    void load_b(const x86::Vec &dst, const x86::Mem &m, bool masked) const {
        if (b16 == b16_t::f16) {
            a.vcvtph2ps(dst, m);
        } else if (b16 == b16_t::bf16) {
            a.vpmovzxwd(dst, m);
            a.vpslld(dst, dst, 16);
        } else {
            load_a(dst, m, masked);
        }
    }
    x86::Vec vreg(int i) const {
        return z ? x86::Vec(x86::zmm(i)) : x86::Vec(x86::ymm(i));
    }
    static x86::Mem field(size_t off) {
        return x86::qword_ptr(x86::rdi, static_cast<int32_t>(off));
    }
    // The k tail mask into k1 (AVX-512) or ymm15 (AVX2), through r11.
    void load_tail_mask() const {
        if (z) {
            a.mov(x86::r11, field(offsetof(ukr_args_t, kmask)));
            a.kmovw(x86::k1, x86::r11d);
        } else {
            a.mov(x86::r11, field(offsetof(ukr_args_t, ymask)));
            a.vmovdqu(x86::ymm15, x86::ptr(x86::r11));
        }
    }
    // Lane sum of accumulator i (clobbered; vector 13 a temporary) stored
    // as one f32 at m.
    void hsum_store(int i, const x86::Mem &m) const {
        const x86::Xmm xi = x86::xmm(i), xt = x86::xmm(13);
        if (z) {
            a.vextractf64x4(x86::ymm13, x86::zmm(i), 1);
            a.vaddps(x86::ymm(i), x86::ymm(i), x86::ymm13);
        }
        a.vextractf128(xt, x86::ymm(i), 1);
        a.vaddps(xi, xi, xt);
        a.vmovhlps(xt, xt, xi);
        a.vaddps(xi, xi, xt);
        a.vmovshdup(xt, xi);
        a.vaddss(xi, xi, xt);
        a.vmovss(m, xi);
    }
    // while (cnt >= per) { body(); off += bytes; cnt -= per; }
    template <typename body_t>
    void k_loop(const x86::Gp &cnt, const x86::Gp &off, int per, int bytes,
            const body_t &body) const {
        Label loop = a.newLabel(), end = a.newLabel();
        a.cmp(cnt, per);
        a.jb(end);
        a.align(AlignMode::kCode, 16);
        a.bind(loop);
        body();
        a.add(off, bytes);
        a.sub(cnt, per);
        a.cmp(cnt, per);
        a.jae(loop);
        a.bind(end);
    }
    // acc += va * B vector at m (straight from memory when B is f32).
    void fma(const x86::Vec &acc, const x86::Vec &va, const x86::Mem &m,
            const x86::Vec &t, bool masked) const {
        if (!bf && b16 == b16_t::none && !masked) {
            a.vfmadd231ps(acc, va, m);
            return;
        }
        load_b(t, m, masked);
        a.vfmadd231ps(acc, va, t);
    }
};

void emit_dot(x86::Assembler &a, ukr_kind_t kind, int nn, b16_t b16) {
    const bool z = kind != ukr_kind_t::f32_avx2;
    const bool bf = kind == ukr_kind_t::bf16_avx512;
    const int W = z ? 16 : 8;
    const dot_io_t io {a, z, bf, b16, W};
    const int step = io.b_step(); // B bytes of one k vector
    const auto vreg = [&](int i) { return io.vreg(i); };
    const auto field = dot_io_t::field;
    const x86::Gp pa = x86::rax, cnt = x86::r8;
    a.push(x86::rbx);
    a.push(x86::r12);
    a.push(k_off);
    a.xor_(k_off, k_off);
    a.mov(pa, field(offsetof(ukr_args_t, a)));
    a.mov(k_rows[0], field(offsetof(ukr_args_t, b)));
    a.mov(cnt, field(offsetof(ukr_args_t, ldb)));
    for (int j = 1; j < nn; ++j) {
        a.mov(k_rows[j], k_rows[j - 1]);
        a.add(k_rows[j], cnt);
    }
    a.mov(cnt, field(offsetof(ukr_args_t, k)));
    // acc j = vreg(j); A vector = vreg(8); B temporaries vreg(9..12).
    for (int j = 0; j < nn; ++j)
        a.vxorps(vreg(j), vreg(j), vreg(j));
    const x86::Vec va = vreg(8);
    auto body = [&](bool masked) {
        io.load_a(va, io.a_at(pa, k_off, 0), masked);
        for (int j = 0; j < nn; ++j)
            io.fma(vreg(j), va, x86::ptr(k_rows[j], k_off), vreg(9 + j % 4),
                    masked);
    };
    Label done = a.newLabel();
    io.k_loop(cnt, k_off, W, step, [&] { body(false); });
    if (io.b_tail()) {
        a.test(cnt, cnt);
        a.jz(done);
        io.load_tail_mask();
        // r11 was row 5's pointer: reload it (rows are ldb apart).
        if (nn > 5) {
            a.mov(x86::r11, k_rows[4]);
            a.add(x86::r11, field(offsetof(ukr_args_t, ldb)));
        }
        body(true);
    }
    a.bind(done);
    // Horizontal sums: halve each accumulator down to one lane.
    const x86::Gp out = x86::rax;
    a.mov(out, field(offsetof(ukr_args_t, acc)));
    for (int j = 0; j < nn; ++j)
        io.hsum_store(j, x86::dword_ptr(out, j * 4));
    a.pop(k_off);
    a.pop(x86::r12);
    a.pop(x86::rbx);
    a.vzeroupper();
    a.ret();
}

// Row order: each B^T row is summed whole before the next one starts,
// with four accumulators (4 k vectors per loop step) so the FMA latency is
// covered within a row; the A row is reloaded from L1 for every row.
// Reading nn rows interleaved (emit_dot) keeps nn streams open at once;
// when B^T comes from memory that order streams 30-40% slower than this
// one, which walks it in address order (Zen 3, 512-byte rows).
void emit_dot_rows(x86::Assembler &a, ukr_kind_t kind, int nn, b16_t b16) {
    const bool z = kind != ukr_kind_t::f32_avx2;
    const bool bf = kind == ukr_kind_t::bf16_avx512;
    const int W = z ? 16 : 8;
    const dot_io_t io {a, z, bf, b16, W};
    const int step = io.b_step();
    const auto vreg = [&](int i) { return io.vreg(i); };
    const auto field = dot_io_t::field;
    const x86::Gp pa = x86::rax, row = x86::rcx, ldb = x86::rdx,
                  out = x86::rsi, cnt = x86::r8, off = x86::r9,
                  left = x86::r10;
    a.mov(pa, field(offsetof(ukr_args_t, a)));
    a.mov(row, field(offsetof(ukr_args_t, b)));
    a.mov(ldb, field(offsetof(ukr_args_t, ldb)));
    a.mov(out, field(offsetof(ukr_args_t, acc)));
    io.load_tail_mask();
    a.mov(left, nn);
    // acc i = vreg(i), A vectors vreg(4 + i), B vectors vreg(8 + i).
    auto fma = [&](int i, int disp, bool masked) {
        io.load_a(vreg(4 + i), io.a_at(pa, off, disp), masked);
        io.fma(vreg(i), vreg(4 + i), x86::ptr(row, off, 0, disp),
                vreg(8 + i), masked);
    };
    Label next = a.newLabel(), sum = a.newLabel();
    a.align(AlignMode::kCode, 16);
    a.bind(next);
    for (int i = 0; i < 4; ++i)
        a.vxorps(vreg(i), vreg(i), vreg(i));
    a.xor_(off, off);
    a.mov(cnt, field(offsetof(ukr_args_t, k)));
    io.k_loop(cnt, off, 4 * W, 4 * step, [&] {
        for (int i = 0; i < 4; ++i)
            fma(i, i * step, false);
    });
    io.k_loop(cnt, off, W, step, [&] { fma(0, 0, false); });
    if (io.b_tail()) {
        a.test(cnt, cnt);
        a.jz(sum);
        fma(1, 0, true);
    }
    a.bind(sum);
    a.vaddps(vreg(0), vreg(0), vreg(1));
    a.vaddps(vreg(2), vreg(2), vreg(3));
    a.vaddps(vreg(0), vreg(0), vreg(2));
    io.hsum_store(0, x86::dword_ptr(out));
    a.add(out, 4);
    a.add(row, ldb);
    a.dec(left);
    a.jnz(next);
    a.vzeroupper();
    a.ret();
}

} // namespace

int64_t dot_max_m(bool b16) {
    static const int64_t v
            = detail::env_int(knob_t::gemm_dot_max_m, k_dot_max_m);
    return b16 ? 2 * v : v;
}

dot_order_t dot_order_for(int64_t row_bytes) {
    static const int64_t max_bytes = detail::env_int(
            knob_t::gemm_dot_rows_max, k_dot_rows_max_bytes);
    return row_bytes <= max_bytes ? dot_order_t::rows
                                  : dot_order_t::interleaved;
}

status_t get_dot_kernel(ukr_kind_t kind, int nn, dot_order_t order,
        ukr_fn_t *fn, b16_t b16) {
    if (b16 != b16_t::none && kind != ukr_kind_t::f32_avx2)
        return fail(dnnl_invalid_arguments,
                "cpu gemm: 16-bit B rows need the f32_avx2 dot kernel");
    if (kind == ukr_kind_t::bf16_amx || nn < 1 || nn > k_dot_max_cols)
        return fail(dnnl_invalid_arguments, "cpu gemm: bad dot kernel %d", nn);
    if (!isa_available(ukr_isa(kind)))
        return fail(dnnl_unimplemented,
                "cpu gemm: isa %s is not available (max %s)",
                isa_name(ukr_isa(kind)), isa_name(max_isa()));
    dot_desc_t d;
    std::memset(&d, 0, sizeof(d));
    std::memcpy(d.family, "gemmdot", 8);
    d.kind = static_cast<int32_t>(kind);
    d.nn = nn;
    const bool rows = order == dot_order_t::rows;
    d.rows = rows;
    d.b16 = static_cast<int32_t>(b16);
    const std::string name = std::string("gemm_dot_") + ukr_name(kind)
            + (b16 == b16_t::bf16 ? "_bf16b" : b16 == b16_t::f16 ? "_f16b" : "")
            + "_1x" + std::to_string(nn) + (rows ? "_rows" : "");
    return jit_get_fn(jit_key(d), name,
            [&](x86::Assembler &a) {
                if (rows)
                    emit_dot_rows(a, kind, nn, b16);
                else
                    emit_dot(a, kind, nn, b16);
                return dnnl_success;
            },
            fn);
}

} // namespace gemm
} // namespace cpu
} // namespace llga
