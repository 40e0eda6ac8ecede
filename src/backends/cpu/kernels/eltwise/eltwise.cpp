// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/eltwise/eltwise.cpp — the elementwise family's
// generators: the loop skeleton of the generated unary/binary functions (main
// loop of whole vectors, then one masked tail; 16-bit storage widened as loaded
// and rounded as stored, whole vectors only), the op parameters, and the chunk
// walk. Which plans the family takes and its kernels: eltwise_plan.cpp.
#include "backends/cpu/kernels/eltwise/eltwise.hpp"
#include "backends/cpu/kernels/eltwise/eltwise_impl_p.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "backends/cpu/jit_runtime.hpp"
#include "backends/cpu/kernels/eltwise/eltwise_chain_p.hpp"
#include "backends/cpu/kernels/eltwise/eltwise_jit_math.hpp"
#include "base/knobs.hpp"
#include "base/parallel.hpp"
#include "base/status.hpp"
#include "ops/infer_util.hpp"
#include "ops/schema.hpp"

namespace llga {
namespace cpu {
namespace eltwise {

using namespace asmjit;

namespace {

// See stream_min_bytes(). Zen 3, two threads, Square/Round/HardSwish then a
// binary op on 64 x 512 x 28 x 28 (103 MB in and out): 12.4-15.5 ms ->
// 8.1-10.0 ms.
constexpr int64_t k_stream_min_bytes = int64_t(64) << 20;

// The cache key. Plain 4-byte fields only, so the raw bytes are the key.
struct desc_t {
    char family[8];
    int32_t isa;
    int32_t alg;
    float alpha, beta;
    int32_t scalar;
    int32_t tail; // 0: k-mask (AVX-512), 1: vmaskmovps (AVX2)
    int32_t stream; // whole vectors stored non-temporally
    int32_t io;     // storage type: see io_t
};

desc_t make_desc(alg_t alg, float alpha, float beta, scalar_t s, bool avx512,
        bool stream, io_t io) {
    desc_t d;
    std::memset(&d, 0, sizeof(d));
    std::memcpy(d.family, "eltwise", 8);
    d.isa = static_cast<int32_t>(avx512 ? isa_t::avx512_core : isa_t::avx2);
    d.alg = static_cast<int32_t>(alg);
    d.alpha = alpha;
    d.beta = beta;
    d.scalar = static_cast<int32_t>(s);
    d.tail = avx512 ? 0 : 1;
    d.stream = stream ? 1 : 0;
    d.io = static_cast<int32_t>(io);
    return d;
}

} // namespace

// Shared with eltwise_chain.cpp (declared in eltwise_chain.hpp).

// y = f(x) for one vector. Registers: x = v0, y = v1, temporaries v2..v5
// and v7 (v6 is the binary kernels' second operand).
void emit_unary_math(vec_emitter_t &e, x86::Assembler &a, alg_t alg,
        float alpha, float beta) {
    const x86::Vec x = e.v(0), y = e.v(1), t1 = e.v(2), t2 = e.v(3),
                   t3 = e.v(4), t4 = e.v(5), t5 = e.v(7);
    switch (alg) {
        case alg_t::relu:
            // 0 > x ? 0 : x keeps NaN and -0 like the reference.
            a.vxorps(y, y, y);
            a.vmaxps(y, y, x);
            break;
        case alg_t::leaky_relu:
            a.vmulps(t1, x, e.c(alpha));
            a.vmovaps(y, x);
            e.select(y, x, e.c(0.f), k_cmp_lt, t1);
            break;
        case alg_t::clamp:
            e.load(y, alpha);
            a.vmaxps(y, y, x); // lo > x ? lo : x
            e.load(t1, beta);
            a.vminps(y, t1, y); // hi < y ? hi : y
            break;
        case alg_t::abs: a.vandps(y, x, e.ci(0x7fffffffu)); break;
        case alg_t::square: a.vmulps(y, x, x); break;
        case alg_t::sqrt: a.vsqrtps(y, x); break;
        case alg_t::exp: e.exp(y, x, t1, t2); break;
        case alg_t::sigmoid: e.sigmoid(y, x, t1, t2, t3); break;
        case alg_t::tanh: e.tanh(y, x, t1, t2, t3, t4); break;
        case alg_t::gelu_tanh: e.gelu_tanh(y, x, t1, t2, t3); break;
        case alg_t::gelu_erf: e.gelu_erf(y, x, t1, t2, t3, t4, t5); break;
        case alg_t::elu: e.elu(y, x, alpha, t1, t2, t3); break;
        case alg_t::hard_sigmoid:
            // clamp as Clamp does (NaN passes): max(0, .) then min(1, .).
            e.load(y, beta);
            a.vfmadd231ps(y, x, e.c(alpha));
            a.vxorps(t1, t1, t1);
            a.vmaxps(y, t1, y);
            e.load(t1, 1.f);
            a.vminps(y, t1, y);
            break;
        case alg_t::hard_swish:
            // (x + 3) / 6, not x / 6 + 1/2: near x = -3 the sum cancels,
            // and x + 3 is exact there.
            a.vaddps(t1, x, e.c(3.f));
            a.vmulps(t1, t1, e.c(1.f / 6.f));
            a.vxorps(t2, t2, t2);
            a.vmaxps(t1, t2, t1);
            e.load(t2, 1.f);
            a.vminps(t1, t2, t1);
            a.vmulps(y, x, t1);
            break;
        case alg_t::round:
            // Nearest even, no precision exception; NaN and -0 pass.
            if (e.avx512())
                a.vrndscaleps(y, x, 0x08);
            else
                a.vroundps(y, x, 0x08);
            break;
        case alg_t::erf:
            a.vandps(t4, x, e.ci(0x7fffffffu));
            e.erfc_pos(y, t4, x, 1.f, t1, t2, t3, t5);
            e.load(t1, 1.f);
            a.vsubps(y, t1, y);
            a.vandps(t1, x, e.ci(0x80000000u));
            a.vorps(y, y, t1);
            break;
        default: break; // binary algs never reach here
    }
}

// y = a op b. Registers: a = v0, b = v6, y = v1.
void emit_binary_math(vec_emitter_t &e, x86::Assembler &a, alg_t alg) {
    const x86::Vec va = e.v(0), y = e.v(1), vb = e.v(6);
    switch (alg) {
        case alg_t::add: a.vaddps(y, va, vb); break;
        case alg_t::sub: a.vsubps(y, va, vb); break;
        case alg_t::mul: a.vmulps(y, va, vb); break;
        case alg_t::div: a.vdivps(y, va, vb); break;
        case alg_t::max:
        case alg_t::min:
            // vmaxps is a > b ? a : b, which already returns a NaN b; a NaN
            // a is put back explicitly so NaN in either operand propagates.
            if (alg == alg_t::max)
                a.vmaxps(y, va, vb);
            else
                a.vminps(y, va, vb);
            e.select(y, va, va, k_cmp_unord, va);
            break;
        default: break;
    }
}

// Sets up the tail mask for `rem` (in rem_reg, 1..W-1) remaining lanes.
// Clobbers rax/rcx.
void emit_tail_mask(vec_emitter_t &e, x86::Assembler &a, const x86::Gp &rem,
        const Label &mask_table) {
    if (e.avx512()) {
        a.mov(x86::ecx, rem.r32());
        a.mov(x86::eax, 1);
        a.shl(x86::eax, x86::cl);
        a.dec(x86::eax);
        a.kmovw(x86::k1, x86::eax);
    } else {
        // The table holds 8 all-ones lanes then 8 zero lanes; starting at
        // lane 8 - rem gives exactly rem leading all-ones lanes.
        a.lea(x86::rax, x86::ptr(mask_table));
        a.mov(x86::ecx, 8);
        a.sub(x86::rcx, rem);
        a.vmovups(e.tail_mask(), x86::ptr(x86::rax, x86::rcx, 2));
    }
}

void emit_mask_table(x86::Assembler &a, const Label &mask_table) {
    a.align(AlignMode::kData, 32);
    a.bind(mask_table);
    a.embedUInt32(0xffffffffu, 8);
    a.embedUInt32(0u, 8);
}

namespace {

// A whole vector of the storage type at m into f32 register v.
void load_io(vec_emitter_t &e, x86::Assembler &a, io_t io, const x86::Vec &v,
        const x86::Mem &m) {
    if (io == io_t::f32)
        a.vmovups(v, m);
    else
        e.load_16(v, m, io == io_t::f16);
}

// f32 register v (the result, v1) as a whole vector of the storage type.
void store_io(vec_emitter_t &e, x86::Assembler &a, io_t io,
        const x86::Mem &m, const x86::Vec &v, bool stream) {
    if (io != io_t::f32)
        e.store_16(m, v, io == io_t::f16, e.v(8), e.v(9));
    else if (stream)
        a.vmovntps(m, v);
    else
        a.vmovups(m, v);
}

// void f(const float *src /*rdi*/, float *dst /*rsi*/, size_t n /*rdx*/)
// 16-bit storage (io): pointers to bf16/f16 elements, and n whole vectors
// only (no tail code: the caller runs the tail through a padded copy).
status_t emit_unary(x86::Assembler &a, alg_t alg, float alpha, float beta,
        bool avx512, bool stream, io_t io) {
    vec_emitter_t e(a, avx512);
    const int W = e.width();
    const int step = io == io_t::f32 ? e.vlen() : W * 2;
    const x86::Gp src = x86::rdi, dst = x86::rsi, n = x86::rdx;
    Label loop = a.newLabel(), tail = a.newLabel(), done = a.newLabel(),
          masks = a.newLabel();
    a.cmp(n, W);
    a.jb(tail);
    a.bind(loop);
    load_io(e, a, io, e.v(0), x86::ptr(src));
    emit_unary_math(e, a, alg, alpha, beta);
    store_io(e, a, io, x86::ptr(dst), e.v(1), stream);
    a.add(src, step);
    a.add(dst, step);
    a.sub(n, W);
    a.cmp(n, W);
    a.jae(loop);
    a.bind(tail);
    if (io != io_t::f32) a.jmp(done);
    a.test(n, n);
    a.jz(done);
    emit_tail_mask(e, a, n, masks);
    e.load_tail(e.v(0), x86::ptr(src));
    emit_unary_math(e, a, alg, alpha, beta);
    e.store_tail(x86::ptr(dst), e.v(1));
    a.bind(done);
    // Non-temporal stores are weakly ordered: fence them before the
    // results are handed on.
    if (stream) a.sfence();
    a.vzeroupper();
    a.ret();
    e.emit_pool();
    emit_mask_table(a, masks);
    return dnnl_success;
}

// void f(const float *a /*rdi*/, const float *b /*rsi*/, float *dst /*rdx*/,
//        size_t n /*rcx, moved to r8 because cl is the shift count*/)
// 16-bit storage (io): as emit_unary.
status_t emit_binary(x86::Assembler &a, alg_t alg, scalar_t scalar,
        bool avx512, bool stream, io_t io) {
    vec_emitter_t e(a, avx512);
    const int W = e.width();
    const int step = io == io_t::f32 ? e.vlen() : W * 2;
    const x86::Gp pa = x86::rdi, pb = x86::rsi, dst = x86::rdx, n = x86::r8;
    const bool a_vec = scalar != scalar_t::src0;
    const bool b_vec = scalar != scalar_t::src1;
    Label loop = a.newLabel(), tail = a.newLabel(), done = a.newLabel(),
          masks = a.newLabel();
    a.mov(n, x86::rcx);
    for (int k = 0; k < 2; ++k) {
        if (k == 0 ? a_vec : b_vec) continue;
        const x86::Vec v = e.v(k == 0 ? 0 : 6);
        const x86::Gp p = k == 0 ? pa : pb;
        if (io == io_t::f32)
            a.vbroadcastss(v, x86::dword_ptr(p));
        else
            e.bcast_16(v, x86::ptr(p), io == io_t::f16);
    }
    a.cmp(n, W);
    a.jb(tail);
    a.bind(loop);
    if (a_vec) load_io(e, a, io, e.v(0), x86::ptr(pa));
    if (b_vec) load_io(e, a, io, e.v(6), x86::ptr(pb));
    emit_binary_math(e, a, alg);
    store_io(e, a, io, x86::ptr(dst), e.v(1), stream);
    if (a_vec) a.add(pa, step);
    if (b_vec) a.add(pb, step);
    a.add(dst, step);
    a.sub(n, W);
    a.cmp(n, W);
    a.jae(loop);
    a.bind(tail);
    if (io != io_t::f32) a.jmp(done);
    a.test(n, n);
    a.jz(done);
    emit_tail_mask(e, a, n, masks);
    if (a_vec) e.load_tail(e.v(0), x86::ptr(pa));
    if (b_vec) e.load_tail(e.v(6), x86::ptr(pb));
    emit_binary_math(e, a, alg);
    e.store_tail(x86::ptr(dst), e.v(1));
    a.bind(done);
    if (stream) a.sfence(); // non-temporal stores are weakly ordered
    a.vzeroupper();
    a.ret();
    e.emit_pool();
    emit_mask_table(a, masks);
    return dnnl_success;
}

status_t check_isa(isa_t isa, bool *avx512) {
    if (isa != isa_t::avx512_core && isa != isa_t::avx2)
        return fail(dnnl_unimplemented,
                "cpu eltwise: no generator for isa %s", isa_name(isa));
    if (!isa_available(isa))
        return fail(dnnl_unimplemented,
                "cpu eltwise: isa %s is not available (max %s)",
                isa_name(isa), isa_name(max_isa()));
    *avx512 = isa == isa_t::avx512_core;
    return dnnl_success;
}

} // namespace

std::string kernel_name(alg_t alg, scalar_t s, bool avx512, io_t io) {
    static const char *const types[] = {"f32", "bf16", "f16"};
    std::string n = std::string("eltwise_") + alg_name(alg) + "_"
            + types[static_cast<int>(io)] + "_" + (avx512 ? "avx512" : "avx2");
    if (s == scalar_t::src0) n += "_bcast0";
    if (s == scalar_t::src1) n += "_bcast1";
    return n;
}

bool is_binary(alg_t alg) { return alg >= alg_t::add; }

bool params_of(const ir::op_t &op, alg_t *alg, float *alpha, float *beta) {
    *alpha = *beta = 0.f;
    switch (op.kind) {
        case dnnl_graph_op_relu: *alg = alg_t::relu; break;
        case dnnl_graph_op_leaky_relu: *alg = alg_t::leaky_relu; break;
        case dnnl_graph_op_clamp: *alg = alg_t::clamp; break;
        case dnnl_graph_op_abs: *alg = alg_t::abs; break;
        case dnnl_graph_op_square: *alg = alg_t::square; break;
        case dnnl_graph_op_sqrt: *alg = alg_t::sqrt; break;
        case dnnl_graph_op_exp: *alg = alg_t::exp; break;
        case dnnl_graph_op_sigmoid: *alg = alg_t::sigmoid; break;
        case dnnl_graph_op_tanh: *alg = alg_t::tanh; break;
        case dnnl_graph_op_elu: *alg = alg_t::elu; break;
        case dnnl_graph_op_gelu:
            *alg = ops::iequals(op.get_str(dnnl_graph_op_attr_mode,
                                        "gelu_erf"),
                           "gelu_tanh")
                    ? alg_t::gelu_tanh
                    : alg_t::gelu_erf;
            break;
        case dnnl_graph_op_hard_sigmoid: *alg = alg_t::hard_sigmoid; break;
        case dnnl_graph_op_hard_swish: *alg = alg_t::hard_swish; break;
        case dnnl_graph_op_round: *alg = alg_t::round; break;
        case dnnl_graph_op_add: *alg = alg_t::add; break;
        case dnnl_graph_op_subtract: *alg = alg_t::sub; break;
        case dnnl_graph_op_multiply: *alg = alg_t::mul; break;
        case dnnl_graph_op_divide: *alg = alg_t::div; break;
        case dnnl_graph_op_maximum: *alg = alg_t::max; break;
        case dnnl_graph_op_minimum: *alg = alg_t::min; break;
        default: return false;
    }
    if (*alg == alg_t::leaky_relu || *alg == alg_t::elu)
        *alpha = op.get_f32(dnnl_graph_op_attr_alpha, 0.f);
    if (*alg == alg_t::hard_sigmoid) {
        *alpha = op.get_f32(dnnl_graph_op_attr_alpha, 0.f);
        *beta = op.get_f32(dnnl_graph_op_attr_beta, 0.f);
    }
    if (*alg == alg_t::clamp) {
        *alpha = op.get_f32(dnnl_graph_op_attr_min, 0.f);
        *beta = op.get_f32(dnnl_graph_op_attr_max, 0.f);
    }
    return true;
}

const char *alg_name(alg_t alg) {
    static const char *const names[] = {"relu", "leaky_relu", "clamp", "abs",
            "square", "sqrt", "exp", "sigmoid", "tanh", "gelu_tanh",
            "gelu_erf", "elu", "hard_sigmoid", "hard_swish", "round", "erf",
            "add", "sub", "mul", "div", "max", "min"};
    return names[static_cast<int>(alg)];
}

status_t get_unary_fn(alg_t alg, float alpha, float beta, isa_t isa,
        bool stream, io_t io, unary_fn_t *fn) {
    bool avx512 = false;
    LLGA_RETURN_IF_ERROR(check_isa(isa, &avx512));
    if (is_binary(alg))
        return fail(dnnl_invalid_arguments, "cpu eltwise: %s is binary",
                alg_name(alg));
    const desc_t d
            = make_desc(alg, alpha, beta, scalar_t::none, avx512, stream, io);
    const std::string name = kernel_name(alg, scalar_t::none, avx512, io)
            + (stream ? "_nt" : "");
    return jit_get_fn(jit_key(d), name,
            [&](x86::Assembler &a) {
                return emit_unary(a, alg, alpha, beta, avx512, stream, io);
            },
            fn);
}

status_t get_unary(alg_t alg, float alpha, float beta, isa_t isa,
        unary_fn_t *fn) {
    return get_unary_fn(alg, alpha, beta, isa, false, io_t::f32, fn);
}

namespace {
std::atomic<int64_t> &stream_min_override() {
    static std::atomic<int64_t> v {-1};
    return v;
}
} // namespace

int64_t stream_min_bytes() {
    static const int64_t v = int64_t(knob_int(knob_t::stream_min_mb,
                                     k_stream_min_bytes >> 20))
            << 20;
    const int64_t o = stream_min_override().load();
    return o >= 0 ? o : v;
}

void set_stream_min_bytes_for_testing(int64_t bytes) {
    stream_min_override().store(bytes);
}

void for_each_chunk(int64_t n, int64_t chunk, const float *dst, bool stream,
        const std::function<void(int64_t off, int64_t len, bool nt)> &f) {
    const auto run = [&](int64_t b0, int64_t e0, bool nt) {
        parallel_for((e0 - b0 + chunk - 1) / chunk, 1,
                [&](int64_t b, int64_t e) {
                    for (int64_t c = b; c < e; ++c) {
                        const int64_t off = b0 + c * chunk;
                        f(off, std::min(chunk, e0 - off), nt);
                    }
                });
    };
    const uintptr_t addr = reinterpret_cast<uintptr_t>(dst);
    if (!stream || addr % sizeof(float) != 0) {
        run(0, n, false);
        return;
    }
    const int64_t head = std::min<int64_t>(
            n, static_cast<int64_t>((64 - addr % 64) % 64 / sizeof(float)));
    if (head > 0) f(0, head, false);
    run(head, n, true);
}

status_t get_binary_fn(alg_t alg, scalar_t scalar, isa_t isa, bool stream,
        io_t io, binary_fn_t *fn) {
    bool avx512 = false;
    LLGA_RETURN_IF_ERROR(check_isa(isa, &avx512));
    if (!is_binary(alg))
        return fail(dnnl_invalid_arguments, "cpu eltwise: %s is unary",
                alg_name(alg));
    const desc_t d = make_desc(alg, 0.f, 0.f, scalar, avx512, stream, io);
    const std::string name
            = kernel_name(alg, scalar, avx512, io) + (stream ? "_nt" : "");
    return jit_get_fn(jit_key(d), name,
            [&](x86::Assembler &a) {
                return emit_binary(a, alg, scalar, avx512, stream, io);
            },
            fn);
}

status_t get_binary(alg_t alg, scalar_t scalar, isa_t isa, binary_fn_t *fn) {
    return get_binary_fn(alg, scalar, isa, false, io_t::f32, fn);
}

} // namespace eltwise
} // namespace cpu
} // namespace llga
