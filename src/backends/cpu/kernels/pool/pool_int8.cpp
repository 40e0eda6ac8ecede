// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/pool/pool_int8.cpp — the quantized max pooling kernel
// (see pool_int8.hpp): the partition read, the per-plane tables built with
// the ops' reference code, and the byte maximum of each window, a row of
// outputs at a time, channel-first data.
#include "backends/cpu/kernels/pool/pool_int8.hpp"
#include "backends/cpu/kernels/pool/pool_int8_tail_p.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include <immintrin.h>

#include "backends/cpu/kernels/common/int8_quant_params.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "backends/cpu/kernels/matmul/matmul_chain.hpp"
#include "backends/cpu/kernels/matmul/matmul_shape.hpp"
#include "backends/cpu/kernels/pool/pool_window_p.hpp"
#include "base/parallel.hpp"
#include "base/status.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/op_def.hpp"
#include "ops/pool_geom.hpp"
#include "ops/registry.hpp"
#include "ops/schema.hpp"

namespace llga {
namespace cpu {
namespace pool_int8 {

namespace {

// Table entries: the 256 bytes, then the window with no tap inside the
// source (the reference's max-pool "lowest" value).
constexpr int64_t k_entries = 257;
constexpr int64_t k_empty = 256;

// Ops whose output element depends only on the same element of the
// chained input (and of the operand): what a table can stand for — the
// ops.def families of elementwise ops (the input count is checked by the
// caller), a per-tensor Quantize, a TypeCast.
bool elementwise(op_kind_t k, bool *binary) {
    const char *f = ops::op_family(k);
    if (!f) return false;
    const std::string fam = f;
    *binary = fam == "binary";
    return *binary || fam == "eltwise_unary" || k == dnnl_graph_op_quantize
            || k == dnnl_graph_op_type_cast;
}

// One op after the pool. A binary op's operand is a partition input (read
// as stored, or through the per-tensor Dequantize `dq`), one value per
// plane: `sn` / `sc` are its element strides along the image and channel
// axes (0 where it broadcasts).
struct step_t {
    ir::op_t op;
    int slot = 0; // the input carrying the pooled value
    bool binary = false;
    int port = -1;
    bool has_dq = false;
    ir::op_t dq;
    logical_tensor_t operand {};
    int64_t sn = 0, sc = 0;
    // An operand that varies by pixel: its element strides along the
    // three normalized spatial dims (layout_t::xsp); the op joins the tail.
    bool per_pixel = false;
    int64_t sp[3] = {0, 0, 0};
    tail_op_t tail; // the op in the per-element tail (pool_int8_tail.hpp)
};

// The pooling geometry (geom3_t): channel-first, the last source dim
// contiguous.
struct layout_t : pool::geom3_t {
    int in = -1, out = -1;
    ir::op_t dq; // the src Dequantize
    bool s8 = false;
    std::vector<step_t> steps;
    // steps[0, prefix) are in the tables; the rest run per element on the
    // f32 value the tables give (an operand varying by pixel, a residual).
    size_t prefix = 0;
    data_type_t out_dt = dnnl_f32;
    size_t out_es = 4;
    int64_t pn = 1, pc = 1; // table planes along the images and channels
    std::string name;
};

bool read_operand(const compiler::plan_t &plan, const ir::op_t &op,
        int slot, const dims_t &yd, std::vector<bool> &used, step_t &st,
        std::string *why) {
    const logical_tensor_t &y = op.inputs[static_cast<size_t>(1 - slot)];
    int dqi = -1, tci = -1;
    st.port = matmul::operand_port(plan, y.id, true, &dqi, &tci);
    if (st.port < 0 || tci >= 0)
        return decline(why, "quantized pool: an operand is computed in the "
                            "partition");
    st.operand = plan.inputs[static_cast<size_t>(st.port)];
    if (dqi >= 0) {
        st.has_dq = true;
        st.dq = plan.ops[static_cast<size_t>(dqi)];
        used[static_cast<size_t>(dqi)] = true;
        common::qparams_t q;
        if (!common::read_qparams(st.dq, q, why)) return false;
        if (q.axis >= 0)
            return decline(why, "quantized pool: a per-channel operand "
                                "Dequantize");
    }
    if (!matmul::tensor_usable(st.operand, why)) return false;
    // One value per plane: numpy-aligned to the output, extent 1 along
    // every spatial axis.
    const dims_t od = ir::dims_of(st.operand), os = ir::strides_of(st.operand);
    const int r = static_cast<int>(yd.size()), orank = static_cast<int>(od.size());
    if (orank > r)
        return decline(why, "quantized pool: an operand has more dims than "
                            "the output");
    const int nsp = r - 2;
    for (int j = 0; j < orank; ++j) {
        const int i = j + r - orank;
        if (od[j] == 1) continue;
        if (od[j] != yd[i])
            return decline(why, "quantized pool: operand "
                            + ir::dims_to_string(od) + " does not broadcast "
                            "to " + ir::dims_to_string(yd));
        if (i < 2) {
            (i == 0 ? st.sn : st.sc) = os[j];
        } else {
            st.per_pixel = true;
            st.sp[3 - nsp + i - 2] = os[j];
        }
    }
    return true;
}

bool analyse(const compiler::plan_t &plan, layout_t &l, std::string *why) {
    const int pi = matmul::single_op_of_kind(plan, dnnl_graph_op_max_pool, why);
    if (pi < 0) return false;
    const ir::op_t &pool = plan.ops[static_cast<size_t>(pi)];
    std::vector<matmul::chain_step_t> chain;
    std::vector<bool> used;
    if (!matmul::walk_chain(plan, static_cast<size_t>(pi), chain, &used, why))
        return false;
    const ir::op_t *dq = common::dequant_of(plan, pool, 0, used, why);
    if (!dq) return false;
    l.dq = *dq;
    common::qparams_t q;
    if (!common::read_qparams(*dq, q, why)) return false;
    if (q.axis >= 0 || !(q.scales[0] > 0.f))
        return decline(why, "quantized pool: the src Dequantize is not per "
                            "tensor with a positive scale (the maximum "
                            "commutes with it only then)");
    const logical_tensor_t &src = dq->inputs[0];
    if (src.data_type != dnnl_u8 && src.data_type != dnnl_s8)
        return decline(why, "quantized pool: src is not u8/s8");
    if (pool.inputs[0].data_type != dnnl_f32 || pool.outputs[0].data_type != dnnl_f32)
        return decline(why, "quantized pool: MaxPool is not f32");
    l.s8 = src.data_type == dnnl_s8;
    const dims_t yd = ir::dims_of(pool.outputs[0]);
    for (const matmul::chain_step_t &c : chain) {
        step_t st;
        if (c.sigmoid || !elementwise(c.op->kind, &st.binary))
            return decline(why, std::string("quantized pool: ")
                            + ops::op_kind_name(c.op->kind)
                            + " is not elementwise here");
        if (c.op->inputs.size() != (st.binary ? 2u : 1u)
                || ir::dims_of(c.op->outputs[0]) != yd)
            return decline(why, "quantized pool: an op changes the shape");
        if (c.op->kind == dnnl_graph_op_quantize
                && !ops::iequals(c.op->get_str(dnnl_graph_op_attr_qtype,
                                         "per_tensor"),
                        "per_tensor"))
            return decline(why, "quantized pool: a per-channel Quantize");
        st.op = *c.op;
        st.slot = c.slot;
        if (st.binary && !read_operand(plan, *c.op, c.slot, yd, used, st, why))
            return false;
        l.steps.push_back(st);
    }
    for (size_t i = 0; i < used.size(); ++i)
        if (!used[i])
            return decline(why, std::string("quantized pool: ")
                            + ops::op_kind_name(plan.ops[i].kind)
                            + " is not on the chain");
    // The tables stop at the first operand that varies by pixel; from
    // there each op is computed per element on the tables' f32 value.
    l.prefix = l.steps.size();
    for (size_t i = 0; i < l.steps.size(); ++i)
        if (l.steps[i].per_pixel) {
            l.prefix = i;
            break;
        }
    for (size_t i = l.prefix; i < l.steps.size(); ++i) {
        step_t &st = l.steps[i];
        if (!read_tail_op(st.op, st.slot, st.binary ? &st.operand : nullptr,
                    st.has_dq ? &st.dq : nullptr, st.tail, why))
            return false;
        if (st.tail.kind == tail_kind_t::quantize && i + 1 != l.steps.size())
            return decline(why, "quantized pool: ops after the Quantize");
        if (st.op.inputs[static_cast<size_t>(st.slot)].data_type != dnnl_f32)
            return decline(why, "quantized pool: a value before a residual "
                                "is not f32");
    }
    const logical_tensor_t &dst
            = chain.empty() ? pool.outputs[0] : chain.back().op->outputs[0];
    l.in = compiler::find_port(plan.inputs, src.id);
    l.out = compiler::find_port(plan.outputs, dst.id);
    if (l.in < 0 || l.out < 0) return decline(why, "quantized pool: ports");
    if (!matmul::tensor_usable(src, why) || !matmul::tensor_usable(dst, why))
        return false;
    l.out_dt = dst.data_type;
    l.out_es = ir::dtype_storage_bytes(dst.data_type, 1);
    if (l.out_es != 1 && l.out_es != 2 && l.out_es != 4)
        return decline(why, "quantized pool: output element size");

    ops::pool_geom_t g;
    if (ops::pool_geometry(pool, ir::dims_of(src), yd, dnnl_invalid_shape, g)
            != dnnl_success)
        return decline(why, "quantized pool: geometry: " + last_error());
    // Channel-last data: the f32 kernel's channel vectors run it (and the
    // operands above were read with the channels second).
    if (g.channel_last)
        return decline(why, "quantized pool: channel-last data");
    const dims_t xst = ir::strides_of(src), yst = ir::strides_of(dst);
    static_cast<pool::geom3_t &>(l)
            = pool::normalize3(g, xst.data(), yst.data(), src.ndims);
    if (l.xs[2] != 1 && l.xsp[2] > 1)
        return decline(why, "quantized pool: source rows are not contiguous");
    for (size_t i = 0; i < l.prefix; ++i) {
        if (l.steps[i].sn != 0) l.pn = l.n;
        if (l.steps[i].sc != 0) l.pc = l.c;
    }
    // The tables cost about what pooling the planes does when a plane has
    // few outputs: leave those to the op sequence.
    const int64_t outs = l.n * l.c * l.ysp[0] * l.ysp[1] * l.ysp[2];
    if (l.pn * l.pc * k_entries > std::max<int64_t>(outs, k_entries))
        return decline(why, "quantized pool: more table entries than outputs");
    l.name = std::string("pool_int8_max_") + (l.s8 ? "s8" : "u8") + "_po:"
            + std::to_string(l.prefix)
            + (l.prefix < l.steps.size()
                            ? "+" + std::to_string(l.steps.size() - l.prefix)
                                    + "_per_element"
                            : std::string())
            + "->" + ir::dtype_name(l.out_dt);
    return true;
}

// ---- tables ---------------------------------------------------------------

status_t run_ref(const ir::op_t &op, const std::vector<const void *> &in,
        void *out) {
    const ops::op_def_t *def = ops::find_op_def(op.kind);
    if (!def || !def->ref)
        return fail(dnnl_unimplemented, "cpu pool_int8: no reference for %s",
                ops::op_kind_name(op.kind));
    return def->ref(op, in, {out});
}

// The tables: for each plane, output element e of the chain at byte e of
// the src type (entry k_empty: the empty window), in the output type.
status_t make_tables(const layout_t &l, const compiler::exec_ctx_t &ctx,
        std::vector<char> &tables) {
    const int64_t P = l.pn * l.pc, n = P * k_entries;
    const dims_t pd = {P, k_entries};
    // The 256 bytes dequantized by the partition's own Dequantize.
    std::vector<uint8_t> bytes(256);
    for (int v = 0; v < 256; ++v)
        bytes[static_cast<size_t>(v)] = static_cast<uint8_t>(v);
    std::vector<float> deq(256);
    ir::op_t dq = l.dq;
    dq.inputs[0] = ir::make_lt(1, l.s8 ? dnnl_s8 : dnnl_u8, {256});
    dq.outputs[0] = ir::make_lt(2, dnnl_f32, {256});
    LLGA_RETURN_IF_ERROR(run_ref(dq, {bytes.data()}, deq.data()));
    std::vector<char> cur(static_cast<size_t>(n) * 4);
    float *c0 = reinterpret_cast<float *>(cur.data());
    for (int64_t p = 0; p < P; ++p) {
        std::copy(deq.begin(), deq.end(), c0 + p * k_entries);
        c0[p * k_entries + k_empty]
                = static_cast<float>(ops::pool_lowest(dnnl_f32));
    }
    data_type_t cur_dt = dnnl_f32;
    std::vector<char> next, operand, operand_f;
    for (size_t si = 0; si < l.prefix; ++si) {
        const step_t &st = l.steps[si];
        ir::op_t op = st.op;
        const data_type_t out_dt = op.outputs[0].data_type;
        op.inputs[static_cast<size_t>(st.slot)] = ir::make_lt(1, cur_dt, pd);
        op.outputs[0] = ir::make_lt(3, out_dt, pd);
        next.assign(static_cast<size_t>(n) * ir::dtype_storage_bytes(out_dt, 1), 0);
        std::vector<const void *> in(op.inputs.size());
        in[static_cast<size_t>(st.slot)] = cur.data();
        if (st.binary) {
            // The operand's value of each plane, repeated along the entries.
            const data_type_t odt = st.operand.data_type;
            const size_t oes = ir::dtype_storage_bytes(odt, 1);
            operand.resize(static_cast<size_t>(n) * oes);
            const char *base = static_cast<const char *>(ctx.inputs[st.port]);
            for (int64_t p = 0; p < P; ++p) {
                const int64_t in_ = l.pc > 1 ? p / l.pc : p, ic = p % l.pc;
                const char *v = base
                        + ((l.pn > 1 ? in_ : 0) * st.sn + ic * st.sc)
                                * static_cast<int64_t>(oes);
                for (int64_t e = 0; e < k_entries; ++e)
                    std::memcpy(&operand[static_cast<size_t>(p * k_entries + e) * oes],
                            v, oes);
            }
            logical_tensor_t olt = ir::make_lt(2, odt, pd);
            const void *optr = operand.data();
            if (st.has_dq) {
                ir::op_t d = st.dq;
                d.inputs[0] = olt;
                d.outputs[0] = ir::make_lt(4, dnnl_f32, pd);
                operand_f.resize(static_cast<size_t>(n) * 4);
                LLGA_RETURN_IF_ERROR(run_ref(d, {operand.data()}, operand_f.data()));
                olt = d.outputs[0];
                olt.id = 2;
                optr = operand_f.data();
            }
            op.inputs[static_cast<size_t>(1 - st.slot)] = olt;
            in[static_cast<size_t>(1 - st.slot)] = optr;
        }
        LLGA_RETURN_IF_ERROR(run_ref(op, in, next.data()));
        cur.swap(next);
        cur_dt = out_dt;
    }
    tables.swap(cur);
    return dnnl_success;
}

// ---- the byte maximum -----------------------------------------------------

// m[w] = max(m[w], src[w]) for w < n, 32 bytes at a time.
template <typename T>
__attribute__((target("avx2"))) void max_into(T *m, const T *src, int64_t n) {
    int64_t w = 0;
    for (; w + 32 <= n; w += 32) {
        const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(m + w));
        const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(src + w));
        const __m256i r = sizeof(T) == 1 && T(-1) < T(0) ? _mm256_max_epi8(a, b)
                                                         : _mm256_max_epu8(a, b);
        _mm256_storeu_si256(reinterpret_cast<__m256i *>(m + w), r);
    }
    for (; w < n; ++w)
        m[w] = std::max(m[w], src[w]);
}

// e[j] = x[2j], o[j] = x[2j + 1] for j < pairs (and e[pairs] = x[2 pairs]
// when `odd`): a stride-2 row as two contiguous ones.
__attribute__((target("avx2"))) void deinterleave(const uint8_t *x,
        int64_t pairs, bool odd, uint8_t *e, uint8_t *o) {
    const __m256i sh = _mm256_setr_epi8(0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7,
            9, 11, 13, 15, 0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15);
    int64_t j = 0;
    for (; j + 16 <= pairs; j += 16) {
        __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(x + 2 * j));
        v = _mm256_shuffle_epi8(v, sh); // per lane: 8 even bytes, 8 odd
        v = _mm256_permute4x64_epi64(v, 0xd8); // evens, then odds
        _mm_storeu_si128(reinterpret_cast<__m128i *>(e + j), _mm256_castsi256_si128(v));
        _mm_storeu_si128(reinterpret_cast<__m128i *>(o + j), _mm256_extracti128_si256(v, 1));
    }
    for (; j < pairs; ++j) {
        e[j] = x[2 * j];
        o[j] = x[2 * j + 1];
    }
    if (odd) e[pairs] = x[2 * pairs];
}

// One output row (o0, o1) of one plane: the byte maximum of every window
// into m (windows without a tap in the source along the last dim are the
// caller's, through its `empty` flags); false when no window of the row
// has a tap in the source.
template <typename T>
bool row_max(const layout_t &l, const T *x, int64_t o0, int64_t o1,
        std::vector<T> &m, std::vector<uint8_t> &ev, std::vector<uint8_t> &od) {
    const int64_t W = l.ysp[2], X = l.xsp[2], s2 = l.s[2];
    const pool::taps_t t0 = pool::clip(o0, l.s[0], l.d[0], l.pb[0], l.k[0], l.xsp[0]);
    const pool::taps_t t1 = pool::clip(o1, l.s[1], l.d[1], l.pb[1], l.k[1], l.xsp[1]);
    if (t0.k0 == t0.k1 || t1.k0 == t1.k1) return false;
    m.assign(static_cast<size_t>(W), std::numeric_limits<T>::lowest());
    const bool split = s2 == 2 && l.d[2] == 1;
    for (int64_t a = t0.k0; a < t0.k1; ++a)
        for (int64_t b = t1.k0; b < t1.k1; ++b) {
            const T *xr = x + (t0.p0 + (a - t0.k0) * l.d[0]) * l.xs[0]
                    + (t1.p0 + (b - t1.k0) * l.d[1]) * l.xs[1];
            if (split)
                deinterleave(reinterpret_cast<const uint8_t *>(xr), X / 2,
                        X % 2 != 0, ev.data(), od.data());
            for (int64_t e = 0; e < l.k[2]; ++e) {
                // Outputs w whose tap e lands inside: 0 <= w*s + off < X.
                const int64_t off = e * l.d[2] - l.pb[2];
                const int64_t w0 = off >= 0 ? 0 : (-off + s2 - 1) / s2;
                const int64_t last = X - 1 - off;
                const int64_t w1 = last < 0 ? 0 : std::min(W, last / s2 + 1);
                if (w0 >= w1) continue;
                if (s2 == 1) {
                    max_into(m.data() + w0, xr + off + w0, w1 - w0);
                } else if (split) { // tap 2w + off: even or odd column
                    const T *half = reinterpret_cast<const T *>(
                            (off & 1) != 0 ? od.data() : ev.data());
                    const int64_t shift = (off - (off & 1)) / 2;
                    max_into(m.data() + w0, half + w0 + shift, w1 - w0);
                } else {
                    for (int64_t w = w0; w < w1; ++w)
                        m[static_cast<size_t>(w)]
                                = std::max(m[static_cast<size_t>(w)], xr[w * s2 + off]);
                }
            }
        }
    return true;
}

// y[w * ys] = tab[i(w)] for the W outputs of a row: i(w) the byte of m[w],
// or k_empty where empty[w] (a null `empty`: no such window; a null m:
// every window is empty).
template <typename T, typename E>
void lookup_row(const E *__restrict tab, const T *__restrict m,
        const uint8_t *__restrict empty, int64_t W, int64_t ys,
        E *__restrict y) {
    if (!m) {
        for (int64_t w = 0; w < W; ++w)
            y[w * ys] = tab[k_empty];
    } else if (!empty) {
        for (int64_t w = 0; w < W; ++w)
            y[w * ys] = tab[static_cast<uint8_t>(m[w])];
    } else {
        for (int64_t w = 0; w < W; ++w)
            y[w * ys] = tab[empty[w] ? k_empty : static_cast<uint8_t>(m[w])];
    }
}

class pool_int8_kernel_t : public compiler::kernel_t {
public:
    explicit pool_int8_kernel_t(layout_t l) : l_(std::move(l)) {
        // Outputs along the last dim whose windows miss the source there.
        for (int64_t w = 0; w < l_.ysp[2]; ++w) {
            const pool::taps_t t = pool::clip(
                    w, l_.s[2], l_.d[2], l_.pb[2], l_.k[2], l_.xsp[2]);
            empty_w_.push_back(t.k0 == t.k1 ? 1 : 0);
            any_empty_w_ = any_empty_w_ || t.k0 == t.k1;
        }
    }
    const char *name() const override { return l_.name.c_str(); }
    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        std::vector<char> tables;
        LLGA_RETURN_IF_ERROR(make_tables(l_, ctx, tables));
        if (l_.s8)
            run<int8_t>(ctx, tables);
        else
            run<uint8_t>(ctx, tables);
        return dnnl_success;
    }

private:
    template <typename T>
    void run(const compiler::exec_ctx_t &ctx,
            const std::vector<char> &tables) const {
        const layout_t &l = l_;
        const T *x = static_cast<const T *>(ctx.inputs[l.in]);
        char *y = static_cast<char *>(ctx.outputs[l.out]);
        const int64_t rows = l.ysp[0] * l.ysp[1], W = l.ysp[2];
        const int64_t es = static_cast<int64_t>(l.out_es);
        const bool tail = l.prefix < l.steps.size();
        const int64_t tes = tail ? 4 : es; // table entries: f32 before a tail
        const uint8_t *empty = any_empty_w_ ? empty_w_.data() : nullptr;
        const int64_t grain = std::max<int64_t>(1, 4096 / std::max<int64_t>(1, W));
        parallel_for(l.n * l.c * rows, grain, [&](int64_t lo, int64_t hi) {
            std::vector<T> m;
            std::vector<uint8_t> ev(static_cast<size_t>(l.xsp[2] / 2 + 1)),
                    od(static_cast<size_t>(l.xsp[2] / 2 + 1));
            std::vector<float> f(tail ? static_cast<size_t>(W) : 0), v(f.size());
            for (int64_t u = lo; u < hi; ++u) {
                const int64_t row = u % rows, c = u / rows % l.c,
                              n = u / (rows * l.c);
                const int64_t o0 = row / l.ysp[1], o1 = row % l.ysp[1];
                const bool some = row_max(
                        l, x + n * l.xs_n + c * l.xs_c, o0, o1, m, ev, od);
                const int64_t p = (l.pn > 1 ? n * l.pc : 0) + (l.pc > 1 ? c : 0);
                const char *tab = tables.data() + p * k_entries * tes;
                char *yr = y + (n * l.ys_n + c * l.ys_c + o0 * l.ys[0]
                                       + o1 * l.ys[1]) * es;
                const T *mr = some ? m.data() : nullptr;
                if (tail) {
                    lookup_row(reinterpret_cast<const uint32_t *>(tab), mr,
                            empty, W, 1, reinterpret_cast<uint32_t *>(f.data()));
                    run_tail(ctx, n, c, o0, o1, f.data(), v.data(), yr);
                } else if (es == 1)
                    lookup_row(reinterpret_cast<const uint8_t *>(tab), mr,
                            empty, W, l.ys[2], reinterpret_cast<uint8_t *>(yr));
                else if (es == 2)
                    lookup_row(reinterpret_cast<const uint16_t *>(tab), mr,
                            empty, W, l.ys[2], reinterpret_cast<uint16_t *>(yr));
                else
                    lookup_row(reinterpret_cast<const uint32_t *>(tab), mr,
                            empty, W, l.ys[2], reinterpret_cast<uint32_t *>(yr));
            }
        });
    }

    // The tail ops on row (n, c, o0, o1)'s values f, then the store.
    void run_tail(const compiler::exec_ctx_t &ctx, int64_t n, int64_t c,
            int64_t o0, int64_t o1, float *f, float *v, char *yr) const {
        const layout_t &l = l_;
        const int64_t W = l.ysp[2];
        for (size_t i = l.prefix; i < l.steps.size(); ++i) {
            const step_t &st = l.steps[i];
            if (st.tail.kind == tail_kind_t::quantize) {
                quantize_row(st.tail, f, W, l.out_dt == dnnl_s8,
                        reinterpret_cast<uint8_t *>(yr), l.ys[2]);
                return;
            }
            if (st.binary)
                operand_row(st.tail,
                        static_cast<const char *>(ctx.inputs[st.port])
                                + (n * st.sn + c * st.sc + o0 * st.sp[0]
                                          + o1 * st.sp[1])
                                        * static_cast<int64_t>(
                                                ir::dtype_storage_bytes(
                                                        st.operand.data_type, 1)),
                        W, st.sp[2], v);
            tail_step(st.tail, f, v, W);
        }
        float *out = reinterpret_cast<float *>(yr); // an f32 dst
        for (int64_t w = 0; w < W; ++w)
            out[w * l.ys[2]] = f[w];
    }

    layout_t l_;
    std::vector<uint8_t> empty_w_;
    bool any_empty_w_ = false;
};

} // namespace

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why) {
    (void)isa;
    return accepts_by<layout_t>(plan, why, analyse);
}

status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    (void)isa;
    return create_by<layout_t, pool_int8_kernel_t>(plan, "pool_int8", analyse,
            out);
}

} // namespace pool_int8
} // namespace cpu
} // namespace llga
