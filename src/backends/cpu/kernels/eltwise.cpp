// backends/cpu/kernels/eltwise.cpp — the elementwise family: which plans it
// takes, the loop skeleton of the generated unary/binary functions (main
// loop of whole vectors, then one masked tail), and the kernel_t that splits
// a tensor into chunks and runs them with llga::parallel_for.
#include "backends/cpu/kernels/eltwise.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "backends/cpu/jit_runtime.hpp"
#include "backends/cpu/kernels/broadcast_runs.hpp"
#include "backends/cpu/kernels/eltwise_chain.hpp"
#include "backends/cpu/kernels/eltwise_jit_math.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "backends/cpu/kernels/movement.hpp"
#include "base/parallel.hpp"
#include "base/status.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/infer_util.hpp"
#include "ops/registry.hpp"
#include "ops/schema.hpp"

namespace llga {
namespace cpu {
namespace eltwise {

using namespace asmjit;

namespace {

// Elements per parallel task: large enough to amortise scheduling, a
// multiple of every vector width so only the last chunk has a tail.
constexpr int64_t k_chunk = 16384;
// See stream_min_bytes(). Zen 3, two threads, Square/Round/HardSwish then a
// binary op on 64 x 512 x 28 x 28 (103 MB in and out): 12.4-15.5 ms ->
// 8.1-10.0 ms.
constexpr int64_t k_stream_min_bytes = int64_t(64) << 20;

// The tensors' storage type. Math is f32 whatever it is: bf16/f16 values
// are widened exactly as loaded and rounded (nearest even) as stored, which
// is what the reference does around its own f32 result.
enum class io_t : int { f32, bf16, f16 };

io_t io_of(data_type_t dt) {
    return dt == dnnl_bf16 ? io_t::bf16 : dt == dnnl_f16 ? io_t::f16 : io_t::f32;
}

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

std::string kernel_name(alg_t alg, scalar_t s, bool avx512, io_t io) {
    static const char *const types[] = {"f32", "bf16", "f16"};
    std::string n = std::string("eltwise_") + alg_name(alg) + "_"
            + types[static_cast<int>(io)] + "_" + (avx512 ? "avx512" : "avx2");
    if (s == scalar_t::src0) n += "_bcast0";
    if (s == scalar_t::src1) n += "_bcast1";
    return n;
}

} // namespace

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

namespace {
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
} // namespace

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
    static const int64_t v = [] {
        const char *e = std::getenv("LLGA_STREAM_MIN_MB");
        return e && *e ? int64_t(std::atoll(e)) << 20 : k_stream_min_bytes;
    }();
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

namespace {
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
} // namespace

status_t get_binary(alg_t alg, scalar_t scalar, isa_t isa, binary_fn_t *fn) {
    return get_binary_fn(alg, scalar, isa, false, io_t::f32, fn);
}

// ---- plan side: what the family accepts and the executable kernel --------

namespace {

// A binary op's numpy broadcast as runs (bcast::runs_t): the generated
// function covers one run, with a scalar side when an operand is broadcast
// along it; the caller walks the outer dims with each operand's strides.
// Fills `r` and `scalar` for operands `a`, `b` of the dense output `out`;
// false (with the reason) if they do not broadcast to it, or a vector run
// would not be contiguous in an operand.
bool plan_runs(const logical_tensor_t &a, const logical_tensor_t &b,
        const logical_tensor_t &out, bcast::runs_t &r, scalar_t &scalar,
        std::string *why) {
    if (!bcast::plan(out, {a, b}, r, why)) return false;
    const int64_t sa = r.inner_step[1], sb = r.inner_step[2];
    if ((sa != 0 && sa != 1) || (sb != 0 && sb != 1))
        return decline(why, "an operand's innermost run is not contiguous");
    if (sa == 0 && sb == 0)
        return decline(why, "the operands do not broadcast to the output");
    scalar = sa == 0 ? scalar_t::src0 : sb == 0 ? scalar_t::src1 : scalar_t::none;
    return true;
}

struct layout_t {
    alg_t alg = alg_t::relu;
    io_t io = io_t::f32; // every tensor's type
    int64_t es = 4;      // its element size
    float alpha = 0.f, beta = 0.f;
    int in[2] = {-1, -1}; // op input k -> position in plan.inputs
    int out = -1;         // op output 0 -> position in plan.outputs
    int64_t n = 0;        // output elements
    bcast::runs_t runs;   // binary ops
    scalar_t scalar = scalar_t::none;
    // Inputs copied into the output's memory order before the loop.
    movement::relayout_t reorder[2];
};

// The inputs as the loops read them: in place, or a copy in the output's
// order taken from `frame`.
void inputs_in_output_order(const layout_t &l,
        const compiler::exec_ctx_t &ctx, int nin, const char **in,
        scratch_frame_t &frame) {
    for (int k = 0; k < nin; ++k)
        in[k] = static_cast<const char *>(
                l.reorder[k].apply(ctx.inputs[l.in[k]], frame));
}

bool analyse(const compiler::plan_t &plan, layout_t &l, std::string *why) {
    auto decline = [&](const std::string &msg) {
        if (why) *why = msg;
        return false;
    };
    const ir::op_t *single = compiler::single_op(plan, why);
    if (!single) return false;
    const ir::op_t &op = *single;
    const char *kname = ops::op_kind_name(op.kind);
    const std::string kind = kname ? kname : "?";
    // BiasAdd is an Add whose 1-D operand runs along the channel axis
    // (data_format), not numpy-aligned: its own case below, not a
    // params_of() kind (the chain kernel aligns operands numpy-style).
    const bool bias_add = op.kind == dnnl_graph_op_bias_add;
    if (bias_add)
        l.alg = alg_t::add;
    else if (!params_of(op, &l.alg, &l.alpha, &l.beta))
        return decline(kind + " is not elementwise");
    const size_t nin = is_binary(l.alg) ? 2 : 1;
    if (op.inputs.size() != nin || op.outputs.size() != 1)
        return decline(kind + ": unexpected port count");
    // The output is walked flat in its own (dense) memory order; the
    // inputs are read in that order (bcast::runs_t).
    const logical_tensor_t &o0 = op.outputs[0];
    if (!ir::is_dense_any_order(o0))
        return decline(kind + ": the output is not dense");
    // One storage type for every tensor: f32, bf16 or f16.
    const data_type_t dt = o0.data_type;
    if (dt != dnnl_f32 && dt != dnnl_bf16 && dt != dnnl_f16)
        return decline(kind + ": " + ir::dtype_name(dt)
                + " is not f32, bf16 or f16");
    for (const auto *v : {&op.inputs, &op.outputs})
        for (const auto &lt : *v)
            if (lt.data_type != dt)
                return decline(kind + ": mixed types (tensor "
                        + std::to_string(lt.id) + " is "
                        + ir::dtype_name(lt.data_type) + ", the output "
                        + ir::dtype_name(dt) + ")");
    l.io = io_of(dt);
    l.es = dt == dnnl_f32 ? 4 : 2;
    // An input of the output's shape in another memory order is copied
    // into the output's order first (one pass, far cheaper than leaving
    // the op to the reference); the loops then read it like the output.
    std::vector<logical_tensor_t> as_read = op.inputs;
    for (size_t k = 0; k < nin; ++k) {
        const logical_tensor_t &lt = op.inputs[k];
        if (ir::dims_of(lt) != ir::dims_of(o0) || ir::same_layout(lt, o0))
            continue;
        if (!ir::strides_known(lt))
            return decline(kind + ": tensor " + std::to_string(lt.id)
                    + " has no strides");
        l.reorder[k] = movement::relayout(lt, o0, static_cast<size_t>(l.es));
        as_read[k] = o0;
    }
    for (size_t k = 0; k < nin; ++k) {
        l.in[k] = compiler::find_port(plan.inputs, op.inputs[k].id);
        if (l.in[k] < 0) return decline(kind + ": input is not a port");
    }
    l.out = compiler::find_port(plan.outputs, op.outputs[0].id);
    if (l.out < 0) return decline(kind + ": output is not a port");
    const dims_t od = ir::dims_of(op.outputs[0]);
    l.n = ir::nelems(op.outputs[0]);
    if (!is_binary(l.alg)) {
        if (ir::nelems(op.inputs[0]) != l.n)
            return decline(kind + ": input and output sizes differ");
        return true;
    }
    if (bias_add) {
        // The bias as a rank-r operand: 1 everywhere but the channel axis.
        const logical_tensor_t &b = op.inputs[1];
        const int r = o0.ndims;
        if (b.ndims != 1 || r < 2 || !ir::strides_known(b))
            return decline(kind + ": bias is not a 1-D strided tensor");
        const int ca = ops::is_channel_last(op) ? r - 1 : 1;
        logical_tensor_t v = o0;
        for (int d = 0; d < r; ++d) {
            v.dims[d] = d == ca ? b.dims[0] : 1;
            v.layout.strides[d] = d == ca ? b.layout.strides[0] : 0;
        }
        as_read[1] = v;
    }
    std::string reason;
    if (!plan_runs(as_read[0], as_read[1], o0, l.runs, l.scalar, &reason))
        return decline(kind + ": " + ir::dims_to_string(ir::dims_of(op.inputs[0]))
                + " x " + ir::dims_to_string(ir::dims_of(op.inputs[1]))
                + ": " + reason);
    return true;
}

// The generated functions take float pointers; with 16-bit storage they
// carry bf16/f16 elements and whole vectors only. run_16 runs `len`
// elements: the whole vectors in place, the last len % W (< W) through
// zero-padded copies of one vector on the stack.
const float *fp(const char *p) { return reinterpret_cast<const float *>(p); }
float *fp(char *p) { return reinterpret_cast<float *>(p); }

template <typename Call>
void run_16(int64_t len, int W, const Call &call) {
    const int64_t whole = len / W * W;
    if (whole > 0) call(0, whole, false);
    if (whole < len) call(whole, len - whole, true);
}

class unary_kernel_t : public compiler::kernel_t {
public:
    unary_kernel_t(std::string name, unary_fn_t fn, unary_fn_t stream_fn,
            const layout_t &l, int width)
        : name_(std::move(name)), fn_(fn), stream_fn_(stream_fn), l_(l),
          W_(width) {}
    const char *name() const override { return name_.c_str(); }
    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        const char *src = nullptr;
        scratch_frame_t frame;
        inputs_in_output_order(l_, ctx, 1, &src, frame);
        char *dst = static_cast<char *>(ctx.outputs[l_.out]);
        const int64_t es = l_.es;
        for_each_chunk(l_.n, k_chunk, fp(dst), stream_fn_ != nullptr,
                [&](int64_t off, int64_t len, bool nt) {
                    if (l_.io == io_t::f32) {
                        (nt ? stream_fn_ : fn_)(fp(src + off * es),
                                fp(dst + off * es), static_cast<size_t>(len));
                        return;
                    }
                    run_16(len, W_, [&](int64_t o, int64_t m, bool pad) {
                        const char *x = src + (off + o) * es;
                        char *y = dst + (off + o) * es;
                        if (!pad) {
                            fn_(fp(x), fp(y), static_cast<size_t>(m));
                            return;
                        }
                        alignas(64) char xs[64] = {}, ys[64];
                        std::memcpy(xs, x, static_cast<size_t>(m * es));
                        fn_(fp(xs), fp(ys), static_cast<size_t>(W_));
                        std::memcpy(y, ys, static_cast<size_t>(m * es));
                    });
                });
        return dnnl_success;
    }

private:
    std::string name_;
    unary_fn_t fn_;
    unary_fn_t stream_fn_; // nullptr: the output is small enough to cache
    layout_t l_;
    int W_; // lanes per vector
};

class binary_kernel_t : public compiler::kernel_t {
public:
    binary_kernel_t(std::string name, binary_fn_t fn, binary_fn_t stream_fn,
            const layout_t &l, int width)
        : name_(std::move(name)), fn_(fn), stream_fn_(stream_fn), l_(l),
          W_(width) {}
    const char *name() const override { return name_.c_str(); }
    // Tasks are (outer position, piece of a run): runs longer than a
    // chunk are split so one long run still feeds every thread.
    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        const char *in[2];
        scratch_frame_t frame;
        inputs_in_output_order(l_, ctx, 2, in, frame);
        const char *a = in[0], *b = in[1];
        char *dst = static_cast<char *>(ctx.outputs[l_.out]);
        const int64_t es = l_.es;
        if (stream_fn_) { // one dense run: chunks, streamed past the head
            const int64_t sa = l_.runs.inner_step[1], sb = l_.runs.inner_step[2];
            for_each_chunk(l_.n, k_chunk, fp(dst), true,
                    [&](int64_t off, int64_t len, bool nt) {
                        (nt ? stream_fn_ : fn_)(fp(a + off * sa * es),
                                fp(b + off * sb * es), fp(dst + off * es),
                                static_cast<size_t>(len));
                    });
            return dnnl_success;
        }
        const bool a_vec = l_.scalar != scalar_t::src0;
        const bool b_vec = l_.scalar != scalar_t::src1;
        bcast::for_each_piece(l_.runs, k_chunk,
                [&](const int64_t *off, int64_t len) {
                    const char *pa = a + off[1] * es, *pb = b + off[2] * es;
                    char *pd = dst + off[0] * es;
                    if (l_.io == io_t::f32) {
                        fn_(fp(pa), fp(pb), fp(pd), static_cast<size_t>(len));
                        return;
                    }
                    run_16(len, W_, [&](int64_t o, int64_t m, bool pad) {
                        const char *x = a_vec ? pa + o * es : pa;
                        const char *y = b_vec ? pb + o * es : pb;
                        char *z = pd + o * es;
                        if (!pad) {
                            fn_(fp(x), fp(y), fp(z), static_cast<size_t>(m));
                            return;
                        }
                        alignas(64) char xs[64] = {}, ys[64] = {}, zs[64];
                        const size_t bytes = static_cast<size_t>(m * es);
                        if (a_vec) x = static_cast<const char *>(std::memcpy(xs, x, bytes));
                        if (b_vec) y = static_cast<const char *>(std::memcpy(ys, y, bytes));
                        fn_(fp(x), fp(y), fp(zs), static_cast<size_t>(W_));
                        std::memcpy(z, zs, bytes);
                    });
                });
        return dnnl_success;
    }

private:
    std::string name_;
    binary_fn_t fn_;
    // A single dense f32 run whose output is large enough to stream (see
    // stream_min_bytes()); nullptr otherwise.
    binary_fn_t stream_fn_;
    layout_t l_;
    int W_; // lanes per vector
};

} // namespace

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why) {
    if (!vector_loop_isa(isa, why)) return false;
    layout_t l;
    return analyse(plan, l, why);
}

status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    layout_t l;
    std::string why;
    if (!analyse(plan, l, &why))
        return fail(dnnl_unimplemented, "cpu eltwise: %s", why.c_str());
    const bool avx512 = isa == isa_t::avx512_core;
    const int W = avx512 ? 16 : 8;
    // Non-temporal stores for large f32 outputs only (16-bit rows are half
    // a vector's bytes; not measured).
    const bool big = l.io == io_t::f32 && l.n * 4 >= stream_min_bytes();
    if (!is_binary(l.alg)) {
        unary_fn_t fn = nullptr, stream_fn = nullptr;
        LLGA_RETURN_IF_ERROR(get_unary_fn(
                l.alg, l.alpha, l.beta, isa, false, l.io, &fn));
        if (big)
            LLGA_RETURN_IF_ERROR(get_unary_fn(
                    l.alg, l.alpha, l.beta, isa, true, l.io, &stream_fn));
        out = std::make_shared<unary_kernel_t>(
                kernel_name(l.alg, scalar_t::none, avx512, l.io), fn,
                stream_fn, l, W);
        return dnnl_success;
    }
    const scalar_t s = l.scalar;
    binary_fn_t fn = nullptr, stream_fn = nullptr;
    LLGA_RETURN_IF_ERROR(get_binary_fn(l.alg, s, isa, false, l.io, &fn));
    if (l.runs.outer_count() == 1 && l.runs.inner == l.n && big)
        LLGA_RETURN_IF_ERROR(
                get_binary_fn(l.alg, s, isa, true, l.io, &stream_fn));
    out = std::make_shared<binary_kernel_t>(
            kernel_name(l.alg, s, avx512, l.io), fn, stream_fn, l, W);
    return dnnl_success;
}

} // namespace eltwise
} // namespace cpu
} // namespace llga
