// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/gemm/gemm_postops.cpp — the post-op chain: its
// plain-data helpers (constructors, cache key) and the code emitted for one
// vector of the C tile (gemm_postops_jit.hpp). Eltwise formulas follow the
// standalone eltwise kernels (same approximations from eltwise_jit_math),
// written here against caller-provided registers because the tile owns most of
// them.
#include "backends/cpu/kernels/gemm/gemm_postops_jit_p.hpp"

#include <cstring>

namespace llga {
namespace cpu {
namespace gemm {

using namespace asmjit;

namespace {
template <typename T>
void put(std::string &s, T v) {
    s.append(reinterpret_cast<const char *>(&v), sizeof(v));
}
} // namespace

postop_t postop_t::make_eltwise(po_eltwise_t a, float alpha, float beta) {
    postop_t p;
    p.kind = postop_kind_t::eltwise;
    p.alg = a;
    p.alpha = alpha;
    p.beta = beta;
    return p;
}

postop_t postop_t::make_binary(po_binary_t op, po_bcast_t b, po_dt_t dt,
        int64_t ld) {
    postop_t p;
    p.kind = postop_kind_t::binary;
    p.op = op;
    p.bcast = b;
    p.src_dt = dt;
    p.ld = ld;
    return p;
}

postop_t postop_t::make_scale(bool per_column) {
    postop_t p;
    p.kind = postop_kind_t::scale;
    p.bcast = per_column ? po_bcast_t::col : po_bcast_t::scalar;
    return p;
}

postop_t postop_t::make_sum(float scale, int32_t zp) {
    postop_t p;
    p.kind = postop_kind_t::sum;
    p.sum_scale = scale;
    p.sum_zp = zp;
    return p;
}

int postops_t::operand_count() const {
    int n = 0;
    for (const postop_t &p : ops)
        n += p.has_operand() ? 1 : 0;
    return n;
}

bool postops_t::has_sum() const {
    for (const postop_t &p : ops)
        if (p.kind == postop_kind_t::sum) return true;
    return false;
}

std::string postops_t::key() const {
    std::string s;
    put(s, static_cast<int32_t>(ops.size()));
    for (const postop_t &p : ops) {
        put(s, p.kind);
        switch (p.kind) {
            case postop_kind_t::eltwise:
                put(s, p.alg);
                put(s, p.alpha);
                put(s, p.beta);
                break;
            case postop_kind_t::binary:
                put(s, p.op);
                put(s, p.q_scale);
                put(s, p.q_zp);
                put(s, p.q_bf16);
                [[fallthrough]];
            case postop_kind_t::scale:
                put(s, p.src_dt);
                put(s, p.bcast);
                break;
            case postop_kind_t::sum:
                put(s, p.sum_scale);
                put(s, p.sum_zp);
                break;
        }
    }
    put(s, dst_dt);
    put(s, dst_scale);
    put(s, dst_zp);
    return s;
}

const char *po_eltwise_name(po_eltwise_t a) {
    static const char *const names[] = {"relu", "leaky_relu", "gelu_erf",
            "gelu_tanh", "sigmoid", "tanh", "swish", "clamp", "elu", "exp",
            "log", "square", "abs", "sqrt", "hardsigmoid", "hardswish",
            "linear", "round_bf16"};
    return names[static_cast<int>(a)];
}

std::string postops_t::str() const {
    static const char *const bin[] = {"add", "sub", "mul", "div", "max", "min"};
    static const char *const bc[] = {"scalar", "col", "row", "full"};
    static const char *const dts[] = {"f32", "bf16", "s8", "u8"};
    std::string s;
    for (const postop_t &p : ops) {
        if (!s.empty()) s += "+";
        switch (p.kind) {
            case postop_kind_t::eltwise: s += po_eltwise_name(p.alg); break;
            case postop_kind_t::binary:
                s += std::string(bin[static_cast<int>(p.op)]) + ":"
                        + bc[static_cast<int>(p.bcast)] + ":"
                        + dts[static_cast<int>(p.src_dt)]
                        + (p.q_bf16 ? ">bf16" : "");
                break;
            case postop_kind_t::scale:
                s += std::string("scale:") + bc[static_cast<int>(p.bcast)];
                break;
            case postop_kind_t::sum: s += "sum"; break;
        }
    }
    s += std::string("->") + dts[static_cast<int>(dst_dt)];
    return s;
}

size_t po_dt_size(po_dt_t dt) {
    switch (dt) {
        case po_dt_t::f32: return 4;
        case po_dt_t::bf16: return 2;
        case po_dt_t::s8:
        case po_dt_t::u8: return 1;
    }
    return 4;
}

status_t check_postops(const postops_t &po, bool avx512, bool dst_bf16) {
    if (po.operand_count() > k_max_po_operands)
        return fail(dnnl_unimplemented,
                "cpu gemm: more than %d post-op operands", k_max_po_operands);
    if (dst_bf16 && po.dst_dt != po_dt_t::f32 && po.dst_dt != po_dt_t::bf16)
        return fail(dnnl_invalid_arguments,
                "cpu gemm: dst_bf16 contradicts the post-op dst type");
    if (avx512) return dnnl_success;
    // No masked 8- or 16-bit loads on AVX2 for the previous dst.
    if ((po.dst_dt != po_dt_t::f32 || dst_bf16) && po.has_sum())
        return fail(dnnl_unimplemented,
                "cpu gemm: avx2 kernels sum into an f32 dst only");
    return dnnl_success;
}

// ---- emitter --------------------------------------------------------------

void po_emitter_t::load_table(const x86::Mem &table_field) {
    if (po_.operand_count() > 0) a_.mov(x86::rsi, table_field);
}

void po_emitter_t::operand_row(const postop_t &op, int idx, int row) {
    const x86::Gp p = x86::rdx, t = x86::r8;
    a_.mov(p, x86::qword_ptr(x86::rsi, idx * 16));
    const bool by_row = op.bcast == po_bcast_t::row
            || op.bcast == po_bcast_t::full;
    if (by_row && row > 0) {
        a_.mov(t, x86::qword_ptr(x86::rsi, idx * 16 + 8));
        a_.imul(t, t, row);
        a_.add(p, t);
    }
}

void po_emitter_t::load_operand(const postop_t &op, int idx, int row, int v,
        bool last, const x86::Vec &dst) {
    const x86::Gp p = x86::rdx;
    operand_row(op, idx, row);
    if (op.src_dt == po_dt_t::s8 || op.src_dt == po_dt_t::u8) {
        load_int8_operand(op, v, last, dst);
        return;
    }
    if (op.src_dt == po_dt_t::bf16) {
        load_bf16_operand(op, v, last, dst);
        return;
    }
    if (op.bcast == po_bcast_t::scalar || op.bcast == po_bcast_t::row) {
        a_.vbroadcastss(dst, x86::dword_ptr(p));
        return;
    }
    const int w = e_.width();
    const x86::Mem m = x86::ptr(p, v * w * 4);
    if (!last)
        a_.vmovups(dst, m);
    else if (e_.avx512())
        a_.k(x86::k1).z().vmovups(dst, m);
    else
        a_.vmaskmovps(dst, x86::ymm14, m);
}

template <typename F>
void po_emitter_t::each_tail_word(const x86::Mem &m, F emit) {
    Label done = a_.newLabel();
    tail_lanes_to_ecx();
    for (int i = 0; i < 7; ++i) { // at least one lane, at most seven
        if (i > 0) {
            a_.cmp(x86::ecx, i);
            a_.jbe(done);
        }
        x86::Mem mi = m;
        mi.addOffset(2 * i);
        mi.setSize(2);
        emit(mi, i);
    }
    a_.bind(done);
}

// A bf16 operand at rdx, widened to f32 (the bf16 bits become the high
// half of each dword, zeros below). AVX-512 masks the tail load; AVX2 has
// no word-masked load, so a tail vector's valid words (the popcount of the
// ymm14 mask, at least one) are inserted one by one.
void po_emitter_t::load_bf16_operand(const postop_t &op, int v, bool last,
        const x86::Vec &dst) {
    const x86::Gp p = x86::rdx;
    const x86::Mem m = x86::ptr(p, v * e_.width() * 2);
    if (op.bcast == po_bcast_t::scalar || op.bcast == po_bcast_t::row) {
        a_.vpbroadcastw(dst, x86::word_ptr(p)); // every word gets the value
    } else if (!last) {
        a_.vpmovzxwd(dst, m);
    } else if (e_.avx512()) {
        a_.k(x86::k1).z().vpmovzxwd(dst, m);
    } else {
        const x86::Xmm dx = x86::xmm(dst.id());
        a_.vpxor(dx, dx, dx);
        each_tail_word(m, [&](const x86::Mem &mi, int i) {
            a_.vpinsrw(dx, dx, mi, i);
        });
        a_.vpmovzxwd(dst, dx);
    }
    a_.vpslld(dst, dst, 16);
}

void po_emitter_t::round_bf16(const x86::Vec &x, const x86::Vec &t,
        const x86::Vec &u) {
    e_.bf16_bits(t, x, u);
    a_.vpslld(x, t, 16);
}

void po_emitter_t::tail_lanes_to_ecx() {
    a_.vmovmskps(x86::eax, x86::ymm14); // masks are prefixes of lanes
    a_.popcnt(x86::ecx, x86::eax);
}

// An s8/u8 operand at rdx (operand_row's address), dequantized: the vector
// (or, broadcast, its one value) widened to dwords, converted, then
// (q - q_zp) * q_scale. AVX-512 masks the tail load (fault-suppressing);
// AVX2 has no byte-masked load, so a tail vector's valid bytes (the
// popcount of the ymm14 mask) are gathered one by one into rax (rcx and
// r11 are free in the epilogue: the K loop's pointers, the bias).
void po_emitter_t::load_int8_operand(const postop_t &op, int v, bool last,
        const x86::Vec &dst) {
    const x86::Gp p = x86::rdx;
    const bool s8 = op.src_dt == po_dt_t::s8;
    const bool one = op.bcast == po_bcast_t::scalar
            || op.bcast == po_bcast_t::row;
    const int w = e_.width();
    const x86::Xmm dx = x86::xmm(dst.id());
    auto widen = [&](const Operand &src) {
        a_.emit(s8 ? x86::Inst::kIdVpmovsxbd : x86::Inst::kIdVpmovzxbd, dst,
                src);
    };
    if (one) {
        if (s8)
            a_.movsx(x86::eax, x86::byte_ptr(p));
        else
            a_.movzx(x86::eax, x86::byte_ptr(p));
        a_.vmovd(dx, x86::eax);
        a_.vpbroadcastd(dst, dx);
    } else if (!last) {
        widen(x86::ptr(p, v * w));
    } else if (e_.avx512()) {
        a_.k(x86::k1).z();
        widen(x86::ptr(p, v * w));
    } else {
        Label loop = a_.newLabel();
        tail_lanes_to_ecx();
        a_.lea(x86::r11, x86::ptr(p, v * w - 1));
        a_.xor_(x86::eax, x86::eax);
        a_.bind(loop); // last valid byte first: it ends up in the low lane
        a_.shl(x86::rax, 8);
        a_.mov(x86::al, x86::byte_ptr(x86::r11, x86::rcx));
        a_.dec(x86::ecx);
        a_.jnz(loop);
        a_.vmovq(dx, x86::rax);
        widen(dx);
    }
    a_.vcvtdq2ps(dst, dst);
    if (op.q_zp != 0)
        a_.vsubps(dst, dst, e_.c(static_cast<float>(op.q_zp)));
    a_.vmulps(dst, dst, e_.c(op.q_scale));
}

void po_emitter_t::load_dst(const x86::Mem &m, bool last, const x86::Vec &dst) {
    const bool z = e_.avx512();
    switch (po_.dst_dt == po_dt_t::f32 && dst_bf16_ ? po_dt_t::bf16
                                                    : po_.dst_dt) {
        case po_dt_t::f32:
            if (!last)
                a_.vmovups(dst, m);
            else if (z)
                a_.k(x86::k1).z().vmovups(dst, m);
            else
                a_.vmaskmovps(dst, x86::ymm14, m);
            return;
        case po_dt_t::bf16:
            if (last)
                a_.k(x86::k1).z().vpmovzxwd(dst, m);
            else
                a_.vpmovzxwd(dst, m);
            a_.vpslld(dst, dst, 16);
            return;
        case po_dt_t::s8:
        case po_dt_t::u8:
            if (last) a_.k(x86::k1).z();
            if (po_.dst_dt == po_dt_t::s8)
                a_.vpmovsxbd(dst, m);
            else
                a_.vpmovzxbd(dst, m);
            a_.vcvtdq2ps(dst, dst);
            return;
    }
}

void po_emitter_t::eltwise(const postop_t &op, const x86::Vec &x,
        const po_regs_t &r) {
    eltwise::vec_emitter_t &e = e_;
    const x86::Vec y = r.t[0], t1 = r.t[1], t2 = r.t[2], t3 = r.t[3],
                   t4 = r.t[4], t5 = r.t[5];
    const float alpha = op.alpha, beta = op.beta;
    using eltwise::k_cmp_lt;
    auto clamp01 = [&](const x86::Vec &v) { // NaN becomes 0
        a_.vmaxps(v, v, e.c(0.f));
        a_.vminps(v, v, e.c(1.f));
    };
    switch (op.alg) {
        case po_eltwise_t::relu:
            if (alpha == 0.f) {
                a_.vxorps(y, y, y);
                a_.vmaxps(x, y, x); // 0 > x ? 0 : x keeps NaN and -0
                break;
            }
            [[fallthrough]];
        case po_eltwise_t::leaky_relu:
            a_.vmulps(t1, x, e.c(alpha));
            e.select(x, x, e.c(0.f), k_cmp_lt, t1);
            break;
        case po_eltwise_t::gelu_erf:
            e.gelu_erf(y, x, t1, t2, t3, t4, t5);
            a_.vmovaps(x, y);
            break;
        case po_eltwise_t::gelu_tanh:
            e.gelu_tanh(y, x, t1, t2, t3);
            a_.vmovaps(x, y);
            break;
        case po_eltwise_t::sigmoid:
            e.sigmoid(y, x, t1, t2, t3);
            a_.vmovaps(x, y);
            break;
        case po_eltwise_t::swish:
            a_.vmulps(t4, x, e.c(alpha));
            e.sigmoid(y, t4, t1, t2, t3);
            a_.vmulps(x, x, y);
            break;
        case po_eltwise_t::tanh:
            e.tanh(y, x, t1, t2, t3, t4);
            a_.vmovaps(x, y);
            break;
        case po_eltwise_t::clamp:
            e.load(y, alpha);
            a_.vmaxps(y, y, x); // lo > x ? lo : x (NaN x survives)
            e.load(t1, beta);
            a_.vminps(x, t1, y);
            break;
        case po_eltwise_t::elu:
            e.elu(y, x, alpha, t1, t2, t3);
            a_.vmovaps(x, y);
            break;
        case po_eltwise_t::exp:
            e.exp(y, x, t1, t2);
            a_.vmovaps(x, y);
            break;
        case po_eltwise_t::log:
            e.log(y, x, t1, t2, t3);
            a_.vmovaps(x, y);
            break;
        case po_eltwise_t::square: a_.vmulps(x, x, x); break;
        case po_eltwise_t::abs: a_.vandps(x, x, e.ci(0x7fffffffu)); break;
        case po_eltwise_t::sqrt: a_.vsqrtps(x, x); break;
        case po_eltwise_t::hardsigmoid:
            a_.vmulps(x, x, e.c(alpha));
            a_.vaddps(x, x, e.c(beta));
            clamp01(x);
            break;
        case po_eltwise_t::hardswish:
            a_.vmulps(y, x, e.c(alpha));
            a_.vaddps(y, y, e.c(beta));
            clamp01(y);
            a_.vmulps(x, x, y);
            break;
        case po_eltwise_t::linear:
            a_.vmulps(x, x, e.c(alpha));
            a_.vaddps(x, x, e.c(beta));
            break;
        case po_eltwise_t::round_bf16: round_bf16(x, y, t1); break;
    }
}

void po_emitter_t::apply(const x86::Vec &x, int row, int v, bool last,
        const x86::Mem &dst, const po_regs_t &r) {
    int idx = 0;
    for (const postop_t &op : po_.ops) {
        switch (op.kind) {
            case postop_kind_t::eltwise: eltwise(op, x, r); break;
            case postop_kind_t::scale:
                load_operand(op, idx++, row, v, last, r.t[6]);
                a_.vmulps(x, x, r.t[6]);
                break;
            case postop_kind_t::binary: {
                const x86::Vec y = r.t[6];
                load_operand(op, idx++, row, v, last, y);
                if (op.q_bf16) round_bf16(y, r.t[0], r.t[1]);
                switch (op.op) {
                    case po_binary_t::add: a_.vaddps(x, x, y); break;
                    case po_binary_t::sub: a_.vsubps(x, x, y); break;
                    case po_binary_t::mul: a_.vmulps(x, x, y); break;
                    case po_binary_t::div: a_.vdivps(x, x, y); break;
                    case po_binary_t::max:
                    case po_binary_t::min:
                        // vmaxps/vminps return the second source when
                        // either is NaN: y then holds max(x, y) with a NaN
                        // operand kept, and a NaN x is put back, so NaN on
                        // either side propagates as in the reference.
                        if (op.op == po_binary_t::max)
                            a_.vmaxps(y, x, y);
                        else
                            a_.vminps(y, x, y);
                        e_.select(y, x, x, eltwise::k_cmp_unord, x);
                        a_.vmovaps(x, y);
                        break;
                }
                break;
            }
            case postop_kind_t::sum: {
                const x86::Vec y = r.t[6];
                load_dst(dst, last, y);
                if (op.sum_zp != 0)
                    a_.vsubps(y, y, e_.c(static_cast<float>(op.sum_zp)));
                if (op.sum_scale == 1.f)
                    a_.vaddps(x, x, y);
                else
                    a_.vfmadd231ps(x, y, e_.c(op.sum_scale));
                break;
            }
        }
    }
}

bool po_emitter_t::in_place_ok() const {
    // A bf16 store needs two temporaries and the compare mask.
    if (po_.dst_dt == po_dt_t::bf16 || dst_bf16_) return false;
    for (const postop_t &op : po_.ops) {
        if (op.kind == postop_kind_t::eltwise) {
            if (op.alg != po_eltwise_t::relu || op.alpha != 0.f) return false;
            continue;
        }
        if (op.kind == postop_kind_t::sum || op.src_dt != po_dt_t::f32)
            return false;
        if (op.kind == postop_kind_t::binary && op.op != po_binary_t::add
                && op.op != po_binary_t::sub && op.op != po_binary_t::mul
                && op.op != po_binary_t::div)
            return false;
    }
    return true;
}

bool po_emitter_t::has_relu() const {
    for (const postop_t &op : po_.ops)
        if (op.kind == postop_kind_t::eltwise) return true;
    return false;
}

void po_emitter_t::apply_row_in_place(const x86::Vec *xs, int nv, int row,
        bool last_masked, const x86::Vec &t, const x86::Vec &zero) {
    const x86::Gp p = x86::rdx;
    const int w = e_.width();
    int idx = 0;
    for (const postop_t &op : po_.ops) {
        if (op.kind == postop_kind_t::eltwise) { // ReLU, as eltwise() does
            for (int v = 0; v < nv; ++v)
                a_.vmaxps(xs[v], zero, xs[v]); // keeps NaN and -0
            continue;
        }
        operand_row(op, idx, row); // once per tile row, not per vector
        const bool one_value = op.bcast == po_bcast_t::scalar
                || op.bcast == po_bcast_t::row;
        if (one_value) a_.vbroadcastss(t, x86::dword_ptr(p));
        for (int v = 0; v < nv; ++v) {
            Operand y = t;
            if (!one_value) {
                const x86::Mem m = x86::ptr(p, v * w * 4);
                if (last_masked && v == nv - 1)
                    a_.vmaskmovps(t, x86::ymm14, m);
                else
                    y = m;
            }
            const po_binary_t bop = op.kind == postop_kind_t::scale
                    ? po_binary_t::mul
                    : op.op;
            const InstId id = bop == po_binary_t::add ? x86::Inst::kIdVaddps
                    : bop == po_binary_t::sub ? x86::Inst::kIdVsubps
                    : bop == po_binary_t::mul ? x86::Inst::kIdVmulps
                                              : x86::Inst::kIdVdivps;
            a_.emit(id, xs[v], xs[v], y);
        }
        ++idx;
    }
}

void po_emitter_t::store_int8(const x86::Vec &x, const x86::Mem &dst,
        bool last, const po_regs_t &r) {
    (void)r;
    const bool s8 = po_.dst_dt == po_dt_t::s8;
    if (po_.dst_scale != 1.f) a_.vdivps(x, x, e_.c(po_.dst_scale));
    if (po_.dst_zp != 0)
        a_.vaddps(x, x, e_.c(static_cast<float>(po_.dst_zp)));
    // Saturate in f32 (a NaN becomes the low bound), then round to nearest
    // even (MXCSR default) and truncate the in-range dwords to bytes.
    a_.vmaxps(x, x, e_.c(s8 ? -128.f : 0.f));
    a_.vminps(x, x, e_.c(s8 ? 127.f : 255.f));
    a_.vcvtps2dq(x, x);
    if (e_.avx512()) {
        if (last)
            a_.k(x86::k1).vpmovdb(dst, x);
        else
            a_.vpmovdb(dst, x);
        return;
    }
    // AVX2: the in-range dwords narrow to 8 bytes in the low quadword
    // (xmm15 is free here: vec_emitter_t's compare scratch).
    const x86::Xmm xl = x86::xmm(x.id()), hi = x86::xmm15;
    a_.vextracti128(hi, x, 1);
    a_.vpackssdw(xl, xl, hi);
    if (s8)
        a_.vpacksswb(xl, xl, xl);
    else
        a_.vpackuswb(xl, xl, xl);
    if (!last) {
        a_.vmovq(dst, xl);
        return;
    }
    // No byte-masked store on AVX2: the valid lanes (the prefix the tail
    // mask in ymm14 selects) are stored one byte at a time. rax, rcx and
    // r11 are free in the epilogue (the K loop's pointers, the bias).
    Label loop = a_.newLabel();
    tail_lanes_to_ecx();
    a_.vmovq(x86::rax, xl);
    a_.lea(x86::r11, dst);
    a_.bind(loop);
    a_.mov(x86::byte_ptr(x86::r11), x86::al);
    a_.inc(x86::r11);
    a_.shr(x86::rax, 8);
    a_.dec(x86::ecx);
    a_.jnz(loop);
}

void po_emitter_t::store_bf16(const x86::Vec &x, const x86::Mem &dst,
        bool last, bool cvt, const po_regs_t &r) {
    const x86::Vec bits = r.t[0];
    if (e_.avx512()) {
        const x86::Ymm h = x86::ymm(bits.id());
        if (cvt)
            a_.vcvtneps2bf16(h, x);
        else
            e_.bf16_bits(bits, x, r.t[1]);
        const bool narrow = !cvt; // the bit pattern is still in dwords
        if (narrow) {
            if (last)
                a_.k(x86::k1).vpmovdw(dst, bits);
            else
                a_.vpmovdw(dst, bits);
        } else if (last) {
            a_.k(x86::k1).vmovdqu16(dst, h);
        } else {
            a_.vmovdqu16(dst, h);
        }
        return;
    }
    const x86::Xmm lo = x86::xmm(bits.id()), hi = x86::xmm(r.t[1].id());
    e_.bf16_bits(bits, x, r.t[1]);
    a_.vextracti128(hi, bits, 1);
    a_.vpackusdw(lo, lo, hi); // values <= 0xffff: exact
    if (!last) {
        a_.vmovdqu(dst, lo);
        return;
    }
    // No word-masked store on AVX2: the tail's valid words are stored one
    // by one.
    each_tail_word(dst, [&](const x86::Mem &mi, int i) {
        a_.vpextrw(mi, lo, i);
    });
}

} // namespace gemm
} // namespace cpu
} // namespace llga
