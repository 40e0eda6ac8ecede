// backends/cpu/kernels/gemm_dot.cpp — the dot-product kernel for one row of
// A against B stored transposed (B^T rows contiguous along k, the usual
// [N, K] weights with transpose_b): nn ≤ 8 columns at once, each an
// accumulator vector fed by its own sequential stream of B^T, reduced to
// nn f32 sums at the end. Bias, post-ops and the dst store are left to the
// wide kernels run with k = 0 on those sums (see gemm.hpp).
#include <cstddef>
#include <cstring>
#include <string>

#include "backends/cpu/jit_runtime.hpp"
#include "backends/cpu/kernels/gemm.hpp"

namespace llga {
namespace cpu {
namespace gemm {

using namespace asmjit;

namespace {

struct dot_desc_t {
    char family[8];
    int32_t kind, nn;
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

} // namespace

status_t get_dot_kernel(ukr_kind_t kind, int nn, ukr_fn_t *fn) {
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
    const std::string name = std::string("gemm_dot_") + ukr_name(kind) + "_1x"
            + std::to_string(nn);
    return jit_get_fn(jit_key(d), name,
            [&](x86::Assembler &a) {
                emit_dot(a, kind, nn);
                return dnnl_success;
            },
            fn);
}

} // namespace gemm
} // namespace cpu
} // namespace llga
