// backends/cpu/kernels/gemm_dot.cpp — the dot-product kernel for one row of
// A against B stored transposed (B^T rows contiguous along k, the usual
// [N, K] weights with transpose_b): nn ≤ 8 columns per call, in one of two
// orders (dot_order_t: all rows advanced together, or each row whole),
// reduced to nn f32 sums. Bias, post-ops and the dst store are left to the
// wide kernels run with k = 0 on those sums (see gemm.hpp).
#include <cstddef>
#include <cstring>
#include <string>

#include "backends/cpu/jit_runtime.hpp"
#include "backends/cpu/kernels/gemm.hpp"
#include "backends/cpu/kernels/gemm_driver_impl.hpp"

namespace llga {
namespace cpu {
namespace gemm {

using namespace asmjit;

namespace {

struct dot_desc_t {
    char family[8];
    int32_t kind, nn, rows;
};

// GP registers of the B^T row pointers, which stay put while one offset
// register (r13) walks k for the vector and every row: one add per k
// vector instead of one per row, which with 8 rows was half the loop's
// instructions. rbx, r12 and r13 are callee-saved and pushed around the
// body.
const x86::Gp k_rows[8] = {x86::rcx, x86::rdx, x86::rsi, x86::r9, x86::r10,
        x86::r11, x86::rbx, x86::r12};
const x86::Gp k_off = x86::r13;

void emit_dot(x86::Assembler &a, ukr_kind_t kind, int nn) {
    const bool z = kind != ukr_kind_t::f32_avx2;
    const bool bf = kind == ukr_kind_t::bf16_avx512;
    const int W = z ? 16 : 8;
    const int step = W * (bf ? 2 : 4); // bytes of one k vector
    auto vreg = [&](int i) {
        return z ? x86::Vec(x86::zmm(i)) : x86::Vec(x86::ymm(i));
    };
    auto field = [](size_t off) {
        return x86::qword_ptr(x86::rdi, static_cast<int32_t>(off));
    };
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
    // Loads one k vector (f32, or 16 bf16 widened) into dst; `masked` uses
    // the k tail mask (k1 / ymm15) and zeroes the lanes past the end.
    auto load = [&](const x86::Vec &dst, const x86::Mem &m, bool masked) {
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
    };
    auto body = [&](bool masked) {
        load(va, x86::ptr(pa, k_off), masked);
        for (int j = 0; j < nn; ++j) {
            if (!bf && !masked) {
                a.vfmadd231ps(vreg(j), va, x86::ptr(k_rows[j], k_off));
                continue;
            }
            const x86::Vec t = vreg(9 + j % 4);
            load(t, x86::ptr(k_rows[j], k_off), masked);
            a.vfmadd231ps(vreg(j), va, t);
        }
    };
    Label loop = a.newLabel(), tail = a.newLabel(), done = a.newLabel();
    a.cmp(cnt, W);
    a.jb(tail);
    a.align(AlignMode::kCode, 16);
    a.bind(loop);
    body(false);
    a.add(k_off, step);
    a.sub(cnt, W);
    a.cmp(cnt, W);
    a.jae(loop);
    a.bind(tail);
    a.test(cnt, cnt);
    a.jz(done);
    if (z) {
        a.mov(x86::r11, field(offsetof(ukr_args_t, kmask)));
        a.kmovw(x86::k1, x86::r11d);
    } else {
        a.mov(x86::r11, field(offsetof(ukr_args_t, ymask)));
        a.vmovdqu(x86::ymm15, x86::ptr(x86::r11));
    }
    // r11 was row 5's pointer: reload it (rows are ldb apart).
    if (nn > 5) {
        a.mov(x86::r11, k_rows[4]);
        a.add(x86::r11, field(offsetof(ukr_args_t, ldb)));
    }
    body(true);
    a.bind(done);
    // Horizontal sums: halve each accumulator down to one lane.
    const x86::Gp out = x86::rax;
    a.mov(out, field(offsetof(ukr_args_t, acc)));
    for (int j = 0; j < nn; ++j) {
        const x86::Xmm xj = x86::xmm(j), xt = x86::xmm(13);
        if (z) {
            a.vextractf64x4(x86::ymm13, x86::zmm(j), 1);
            a.vaddps(x86::ymm(j), x86::ymm(j), x86::ymm13);
        }
        a.vextractf128(xt, x86::ymm(j), 1);
        a.vaddps(xj, xj, xt);
        a.vmovhlps(xt, xt, xj);
        a.vaddps(xj, xj, xt);
        a.vmovshdup(xt, xj);
        a.vaddss(xj, xj, xt);
        a.vmovss(x86::dword_ptr(out, j * 4), xj);
    }
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
void emit_dot_rows(x86::Assembler &a, ukr_kind_t kind, int nn) {
    const bool z = kind != ukr_kind_t::f32_avx2;
    const bool bf = kind == ukr_kind_t::bf16_avx512;
    const int W = z ? 16 : 8;
    const int step = W * (bf ? 2 : 4);
    auto vreg = [&](int i) {
        return z ? x86::Vec(x86::zmm(i)) : x86::Vec(x86::ymm(i));
    };
    auto field = [](size_t off) {
        return x86::qword_ptr(x86::rdi, static_cast<int32_t>(off));
    };
    const x86::Gp pa = x86::rax, row = x86::rcx, ldb = x86::rdx,
                  out = x86::rsi, cnt = x86::r8, off = x86::r9,
                  left = x86::r10;
    a.mov(pa, field(offsetof(ukr_args_t, a)));
    a.mov(row, field(offsetof(ukr_args_t, b)));
    a.mov(ldb, field(offsetof(ukr_args_t, ldb)));
    a.mov(out, field(offsetof(ukr_args_t, acc)));
    if (z) {
        a.mov(x86::r11, field(offsetof(ukr_args_t, kmask)));
        a.kmovw(x86::k1, x86::r11d);
    } else {
        a.mov(x86::r11, field(offsetof(ukr_args_t, ymask)));
        a.vmovdqu(x86::ymm15, x86::ptr(x86::r11));
    }
    a.mov(left, nn);
    // acc i = vreg(i), A vectors vreg(4 + i), B vectors vreg(8 + i).
    auto load = [&](const x86::Vec &dst, const x86::Mem &m, bool masked) {
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
    };
    auto fma = [&](int i, int disp, bool masked) {
        load(vreg(4 + i), x86::ptr(pa, off, 0, disp), masked);
        const x86::Mem m = x86::ptr(row, off, 0, disp);
        if (!bf && !masked) {
            a.vfmadd231ps(vreg(i), vreg(4 + i), m);
            return;
        }
        load(vreg(8 + i), m, masked);
        a.vfmadd231ps(vreg(i), vreg(4 + i), vreg(8 + i));
    };
    Label next = a.newLabel(), loop4 = a.newLabel(), one = a.newLabel(),
          loop1 = a.newLabel(), tail = a.newLabel(), sum = a.newLabel();
    a.align(AlignMode::kCode, 16);
    a.bind(next);
    for (int i = 0; i < 4; ++i)
        a.vxorps(vreg(i), vreg(i), vreg(i));
    a.xor_(off, off);
    a.mov(cnt, field(offsetof(ukr_args_t, k)));
    a.cmp(cnt, 4 * W);
    a.jb(one);
    a.align(AlignMode::kCode, 16);
    a.bind(loop4);
    for (int i = 0; i < 4; ++i)
        fma(i, i * step, false);
    a.add(off, 4 * step);
    a.sub(cnt, 4 * W);
    a.cmp(cnt, 4 * W);
    a.jae(loop4);
    a.bind(one);
    a.cmp(cnt, W);
    a.jb(tail);
    a.bind(loop1);
    fma(0, 0, false);
    a.add(off, step);
    a.sub(cnt, W);
    a.cmp(cnt, W);
    a.jae(loop1);
    a.bind(tail);
    a.test(cnt, cnt);
    a.jz(sum);
    fma(1, 0, true);
    a.bind(sum);
    a.vaddps(vreg(0), vreg(0), vreg(1));
    a.vaddps(vreg(2), vreg(2), vreg(3));
    a.vaddps(vreg(0), vreg(0), vreg(2));
    const x86::Xmm x0 = x86::xmm(0), xt = x86::xmm(13);
    if (z) {
        a.vextractf64x4(x86::ymm13, x86::zmm(0), 1);
        a.vaddps(x86::ymm0, x86::ymm0, x86::ymm13);
    }
    a.vextractf128(xt, x86::ymm0, 1);
    a.vaddps(x0, x0, xt);
    a.vmovhlps(xt, xt, x0);
    a.vaddps(x0, x0, xt);
    a.vmovshdup(xt, x0);
    a.vaddss(x0, x0, xt);
    a.vmovss(x86::dword_ptr(out), x0);
    a.add(out, 4);
    a.add(row, ldb);
    a.dec(left);
    a.jnz(next);
    a.vzeroupper();
    a.ret();
}

} // namespace

dot_order_t dot_order_for(int64_t row_bytes) {
    static const int64_t max_bytes = detail::env_int(
            "LLGA_GEMM_DOT_ROWS_MAX", k_dot_rows_max_bytes);
    return row_bytes <= max_bytes ? dot_order_t::rows
                                  : dot_order_t::interleaved;
}

status_t get_dot_kernel(
        ukr_kind_t kind, int nn, dot_order_t order, ukr_fn_t *fn) {
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
    const std::string name = std::string("gemm_dot_") + ukr_name(kind) + "_1x"
            + std::to_string(nn) + (rows ? "_rows" : "");
    return jit_get_fn(jit_key(d), name,
            [&](x86::Assembler &a) {
                if (rows)
                    emit_dot_rows(a, kind, nn);
                else
                    emit_dot(a, kind, nn);
                return dnnl_success;
            },
            fn);
}

} // namespace gemm
} // namespace cpu
} // namespace llga
