// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/sdpa/sdpa_skip.cpp — the masked-key skipping of the
// fused SDPA kernel (see sdpa_skip.hpp): which masks allow it, where a row
// block stops, and why a skipped key's probability is exactly 0.
#include "backends/cpu/kernels/sdpa/sdpa_skip_p.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include <immintrin.h>

#include "backends/cpu/kernels/common/convert_rows.hpp"
#include "backends/cpu/kernels/sdpa/sdpa_stage_p.hpp"
#include "ir/dtype.hpp"

namespace llga {
namespace cpu {
namespace sdpa {

namespace {

constexpr double k_inf = std::numeric_limits<double>::infinity();

// A mask element by its bits (f32, bf16 or f16), with no conversion per
// element: a per-row mask is scanned over most of every row.
struct mask_bits_t {
    explicit mask_bits_t(data_type_t t) : dt(t) {
        if (t == dnnl_f32) {
            es = 4, sign = 0x80000000u, inf = 0x7f800000u, cut = 0x46000000u;
        } else if (t == dnnl_bf16) {
            es = 2, sign = 0x8000u, inf = 0x7f80u, cut = 0x4600u;
        } else { // f16
            es = 2, sign = 0x8000u, inf = 0x7c00u, cut = 0x7000u;
        }
    }
    enum class kind_t { kept, ninf, low };
    uint32_t bits(const char *e) const {
        if (es == 4) {
            uint32_t u;
            std::memcpy(&u, e, 4);
            return u;
        }
        uint16_t h;
        std::memcpy(&h, e, 2);
        return h;
    }
    // kept: positive, NaN, or above -8192 (`cut` is 8192's magnitude).
    kind_t kind(uint32_t u) const {
        if (!(u & sign)) return kind_t::kept;
        const uint32_t mag = u & ~sign;
        if (mag == inf) return kind_t::ninf;
        return mag < inf && mag >= cut ? kind_t::low : kind_t::kept;
    }
    float value(uint32_t u) const {
        char e[4];
        if (es == 4) {
            std::memcpy(e, &u, 4);
        } else {
            const uint16_t h = static_cast<uint16_t>(u);
            std::memcpy(e, &h, 2);
        }
        float v;
        common::widen_matrix(e, dt, 1, 1, 0, 0, &v);
        return v;
    }
    data_type_t dt;
    int64_t es;
    uint32_t sign, inf, cut;
};

} // namespace

int64_t batch_offset(const desc_t &d, int64_t b, const std::vector<int64_t> &bs) {
    int64_t off = 0;
    for (size_t i = d.batch.size(); i-- > 0;) {
        off += b % d.batch[i] * bs[i];
        b /= d.batch[i];
    }
    return off;
}

skip_t skip_kind(const desc_t &d) {
    if (d.steps.empty()) return skip_t::none;
    float z = 0.f;
    common::round_row(&z, 1, d.p_dt);
    apply_value_ops(d.p_ops, &z, 1);
    if (z != 0.f) return skip_t::none;
    for (const score_step_t &c : d.steps)
        if (c.kind == step_kind_t::select) return skip_t::select;
    const score_step_t &st = d.steps.back();
    if (st.kind == step_kind_t::binary && st.op == gemm::po_binary_t::add
            && st.operand.cs != 0)
        return skip_t::padding;
    return skip_t::none;
}

size_t select_step(const desc_t &d) {
    size_t k = 0;
    while (d.steps[k].kind != step_kind_t::select)
        ++k;
    return k;
}

void causal_shifts(const compiler::exec_ctx_t &ctx, const score_step_t &st,
        int64_t *shift) {
    const index_side_t *sides[2] = {&st.lhs, &st.rhs};
    for (int s = 0; s < 2; ++s) {
        shift[s] = 0;
        for (const auto &sh : sides[s]->shifts)
            shift[s] += sh.second
                    * *static_cast<const int32_t *>(ctx.inputs[sh.first]);
    }
}

// Each side is the row index i or the column index j plus its shift.
void causal_range(const desc_t &d, const score_step_t &st,
        const int64_t *shift, int64_t i, int64_t *lo, int64_t *hi) {
    const int64_t n = d.Skv;
    *lo = 0;
    *hi = n;
    if (st.lhs.is_row == st.rhs.is_row) { // both i or both j
        if (shift[0] < shift[1]) *hi = 0;
        return;
    }
    if (st.lhs.is_row) // i + s0 >= j + s1: j <= i + s0 - s1
        *hi = std::max<int64_t>(0, std::min(n, i + shift[0] - shift[1] + 1));
    else // j + s0 >= i + s1: j >= i + s1 - s0
        *lo = std::max<int64_t>(0, std::min(n, i + shift[1] - shift[0]));
}

int64_t live_cols(const desc_t &d, const compiler::exec_ctx_t &ctx, int64_t b,
        int64_t r0, int64_t rows) {
    const score_step_t &st = d.steps[select_step(d)];
    const int64_t n = d.Skv;
    const bool x_if_true = st.chained_slot == 1;
    if (!st.causal) { // the last column whose condition keeps x
        const uint8_t *cp
                = static_cast<const uint8_t *>(ctx.inputs[st.cond.port])
                + batch_offset(d, b, st.cond.bs);
        int64_t end = 0;
        for (int64_t i = 0; i < (st.cond.rs == 0 ? 1 : rows) && end < n; ++i) {
            const uint8_t *c = cp + (r0 + i) * st.cond.rs;
            for (int64_t j = n; j-- > end;)
                if ((c[j * st.cond.cs] != 0) == x_if_true) {
                    end = j + 1;
                    break;
                }
        }
        return end > 0 ? end : n;
    }
    int64_t shift[2];
    causal_shifts(ctx, st, shift);
    int64_t end = 0;
    for (int64_t i = 0; i < rows && end < n; ++i) {
        int64_t lo, hi;
        causal_range(d, st, shift, r0 + i, &lo, &hi);
        if (st.chained_slot == 1) // kept in [lo, hi)
            end = std::max(end, lo < hi ? hi : 0);
        else // kept outside it
            end = std::max(end, hi < n ? n : lo);
    }
    return end > 0 ? end : n;
}

float scalar_operand(const desc_t &d, const operand_t &o,
        const compiler::exec_ctx_t &ctx, int64_t b) {
    const char *p = static_cast<const char *>(
            ctx.inputs[static_cast<size_t>(o.port)]);
    float v;
    common::widen_matrix(p + batch_offset(d, b, o.bs) * (o.dt == dnnl_f32 ? 4 : 2),
            o.dt, 1, 1, 0, 0, &v);
    return v;
}

// A skipped score s + M (|s| <= B, M <= the row's largest skipped mask
// value Ms) and the row's max m >= (its last kept mask value L) - B give
// exp(s + M - m) = 0 exactly when (Ms + B) - (L - B) < -208: exp(-104)
// is under half the smallest f32 denormal, and the margin covers the
// roundings of the add and of the subtraction of m. Rows the mask leaves
// with no kept column are softmaxed over the masked values themselves in
// the reference (uniformly, for one finite mask value), so they are never
// skipped when a finite value is among them.
int64_t padded_cols(const desc_t &d, const compiler::exec_ctx_t &ctx,
        int64_t b, int64_t r0, int64_t rows, const score_bound_fn &bound) {
    const operand_t &o = d.steps.back().operand;
    const mask_bits_t mb(o.dt);
    const char *p = static_cast<const char *>(
                            ctx.inputs[static_cast<size_t>(o.port)])
            + batch_offset(d, b, o.bs) * mb.es;
    using kind_t = mask_bits_t::kind_t;
    const int64_t n = d.Skv;
    int64_t end = 0;
    // Rows with finite skipped values: (largest of them, last kept value).
    std::vector<std::pair<float, float>> finite;
    for (int64_t i = 0; i < (o.rs == 0 ? 1 : rows); ++i) {
        const char *row = p + (r0 + i) * o.rs * mb.es;
        const auto at = [&](int64_t j) { return mb.bits(row + j * o.cs * mb.es); };
        // Columns before `end` run anyway: a row only needs scanning to
        // there, unless it skips a finite value and needs its kept one.
        uint32_t low = 0; // the largest finite skipped value's bits
        int64_t j = n - 1;
        for (; j >= end; --j) {
            const uint32_t u = at(j);
            const kind_t k = mb.kind(u);
            if (k == kind_t::kept) break;
            // Negative values: the smaller the magnitude, the larger.
            if (k == kind_t::low && (low == 0 || u < low)) low = u;
        }
        if (j >= end) end = j + 1;
        if (low == 0) continue;
        while (j >= 0 && mb.kind(at(j)) != kind_t::kept)
            --j;
        if (j < 0) return n;
        finite.emplace_back(mb.value(low), mb.value(at(j)));
    }
    if (end == 0) return n; // every score -inf: what the reference does
    if (!finite.empty()) {
        const double bnd = bound(end);
        for (const auto &f : finite) {
            double hi = double(f.first) + bnd;
            hi += std::fabs(hi) * 0x1p-7;
            double lo = double(f.second) - bnd;
            lo -= std::fabs(lo) * 0x1p-7;
            if (!(hi - lo < -208.0)) return n;
        }
    }
    return end;
}

double score_bound(const desc_t &d, const compiler::exec_ctx_t &ctx,
        int64_t b, double qk) {
    // A value rounded to type t: bf16/f16 within 2^-8 relatively (2^-7
    // kept), f32 within 2^-24; an f16 value past its largest finite one
    // may become inf.
    const auto rounded = [](double x, data_type_t t) {
        if (t == dnnl_f16 && x >= 65504.0) return k_inf;
        return x * (t == dnnl_f32 ? 1 + 0x1p-22 : 1 + 0x1p-7);
    };
    // The f32 dot product's own error: D roundings of terms summing to
    // at most qk.
    double x = qk * (1 + double(d.D) * 0x1p-23);
    x = rounded(x, d.s_dt);
    for (size_t k = 0; k + 1 < d.steps.size(); ++k) {
        const score_step_t &st = d.steps[k];
        if (st.kind == step_kind_t::tanh) {
            x = std::min(x, 1.0);
        } else if (st.kind == step_kind_t::binary && st.operand.rs == 0
                && st.operand.cs == 0) {
            const double c = std::fabs(double(scalar_operand(d, st.operand, ctx, b)));
            switch (st.op) {
                case gemm::po_binary_t::mul: x *= c; break;
                case gemm::po_binary_t::div: x /= c; break;
                case gemm::po_binary_t::add:
                case gemm::po_binary_t::sub: x += c; break;
                case gemm::po_binary_t::max:
                case gemm::po_binary_t::min: x = std::max(x, c); break;
            }
        } else {
            return k_inf;
        }
        x = rounded(x, st.out_dt);
    }
    return std::isnan(x) ? k_inf : x;
}

namespace {

// max |x[i]| for i < n, or NaN when some x[i] is NaN or infinite.
__attribute__((target("avx2"))) float abs_max_run(const float *x, int64_t n) {
    const __m256 abs = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    const __m256 inf = _mm256_set1_ps(std::numeric_limits<float>::infinity());
    __m256 m = _mm256_setzero_ps(), bad = _mm256_setzero_ps();
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m256 a = _mm256_and_ps(_mm256_loadu_ps(x + i), abs);
        m = _mm256_max_ps(m, a);
        bad = _mm256_or_ps(bad, _mm256_cmp_ps(a, inf, _CMP_NLT_UQ));
    }
    float lanes[8];
    _mm256_storeu_ps(lanes, m);
    bool nonfinite = _mm256_movemask_ps(bad) != 0;
    float r = 0.f;
    for (float l : lanes)
        r = std::max(r, l);
    for (; i < n; ++i) {
        const float a = std::fabs(x[i]);
        nonfinite = nonfinite || !(a < std::numeric_limits<float>::infinity());
        r = std::max(r, a);
    }
    return nonfinite ? std::numeric_limits<float>::quiet_NaN() : r;
}

// max over i < n of x[i] without its sign bit.
__attribute__((target("avx2"))) uint16_t abs_bits_max_run(
        const uint16_t *x, int64_t n) {
    const __m256i magnitude = _mm256_set1_epi16(0x7fff);
    __m256i m = _mm256_setzero_si256();
    int64_t i = 0;
    for (; i + 16 <= n; i += 16)
        m = _mm256_max_epu16(m,
                _mm256_and_si256(magnitude,
                        _mm256_loadu_si256(
                                reinterpret_cast<const __m256i *>(x + i))));
    alignas(32) uint16_t lanes[16];
    _mm256_store_si256(reinterpret_cast<__m256i *>(lanes), m);
    uint16_t r = 0;
    for (uint16_t l : lanes)
        r = std::max(r, l);
    for (; i < n; ++i)
        r = std::max<uint16_t>(r, x[i] & 0x7fff);
    return r;
}

} // namespace

float abs_max(const float *x, int64_t rows, int64_t cols, int64_t rs,
        int64_t cs) {
    if (cs != 1 && rs == 1) {
        std::swap(rows, cols);
        std::swap(rs, cs);
    }
    float m = 0.f;
    for (int64_t r = 0; r < rows; ++r) {
        float a;
        if (cs == 1) {
            a = abs_max_run(x + r * rs, cols);
        } else {
            a = 0.f;
            for (int64_t c = 0; c < cols && a == a; ++c) {
                const float e = std::fabs(x[r * rs + c * cs]);
                a = e < std::numeric_limits<float>::infinity()
                        ? std::max(a, e)
                        : std::numeric_limits<float>::quiet_NaN();
            }
        }
        if (a != a) return a;
        m = std::max(m, a);
    }
    return m;
}

void key_abs_max(const float *k, int64_t K, int64_t n, int64_t ks, int64_t ns,
        float *out) {
    for (int64_t j = 0; j < n; ++j)
        out[j] = abs_max(k + j * ns, 1, K, 0, ks);
}

float abs_max_16(const uint16_t *x, bool f16, int64_t rows, int64_t cols,
        int64_t rs, int64_t cs) {
    // Patterns from here up are inf or NaN.
    const uint16_t nonfinite = f16 ? 0x7c00 : 0x7f80;
    uint16_t m = 0;
    for (int64_t r = 0; r < rows; ++r) {
        const uint16_t *row = x + r * rs;
        if (cs == 1) { // the usual K: a contiguous run per key
            m = std::max(m, abs_bits_max_run(row, cols));
            continue;
        }
        for (int64_t c = 0; c < cols; ++c)
            m = std::max<uint16_t>(m, row[c * cs] & 0x7fff);
    }
    if (m >= nonfinite) return std::numeric_limits<float>::quiet_NaN();
    return f16 ? ir::f16_to_f32(m) : ir::bf16_to_f32(m);
}

void key_abs_max_16(const uint16_t *k, bool f16, int64_t K, int64_t n,
        int64_t ks, int64_t ns, float *out) {
    for (int64_t j = 0; j < n; ++j)
        out[j] = abs_max_16(k + j * ns, f16, 1, K, 0, ks);
}

} // namespace sdpa
} // namespace cpu
} // namespace llga
