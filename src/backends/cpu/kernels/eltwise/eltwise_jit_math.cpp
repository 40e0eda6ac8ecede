// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/eltwise/eltwise_jit_math.cpp — vector math for the
// elementwise JIT kernels, written once for zmm and ymm.
//
// Approximations: polynomial coefficients were fitted for this project with
// mpmath's Chebyshev fit. Accuracy measured by the VectorMathAccuracy test
// (tests/unit/backends/cpu_eltwise_test.cpp, 10^6 evenly spaced f32 inputs,
// against double libm; identical on AVX2 and AVX-512):
//   exp        [-87.3, 88.7]  1.14 ulp   (rel 9.5e-8)
//   tanh       [-10, 10]      1.34 ulp   ([-1e-3, 1e-3]: 0.87 ulp)
//   sigmoid    [-80, 30]      2.38 ulp   (rel 1.5e-7)
//   erf        [-6, 6]        abs 3.5e-7 (internal; relative error is poor
//                             near 0 where 1 - erfc cancels)
//   Elu(a=1)   [-10, 1]       1.63 ulp   (expm1 from the exp polynomial)
//   GELU erf   [-12, 5]       7.2 ulp    (rel 4.6e-7)
//   GELU tanh  [-3, 5]        13.7 ulp   (rel 8.4e-7); [-9, -3] rel 1.2e-5,
//                             from rounding of the f32 exponent argument 2g
#include "backends/cpu/kernels/eltwise/eltwise_jit_math.hpp"

#include <cstring>

namespace llga {
namespace cpu {
namespace eltwise {

using namespace asmjit;

namespace {

uint32_t bits_of(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

// e^r = 1 + r*Q(r) on |r| <= ln2/2; Q of degree 5, highest first. Fit error
// of Q: 1.2e-8 relative.
constexpr float k_exp_q[] = {1.393390005e-03f, 8.369355861e-03f,
        4.166646267e-02f, 1.666650339e-01f, 5.000000014e-01f,
        1.000000011e+00f};
// tanh(x)/x = P(x^2) on |x| <= 0.55; fit error 9.4e-10.
constexpr float k_tanh_p[] = {-6.233633488e-03f, 2.103821481e-02f,
        -5.384231925e-02f, 1.333245654e-01f, -3.333331080e-01f,
        9.999999991e-01f};
// erfc(z)*e^(z^2) = P(t), t = 1/(1 + 0.4z), fitted on z in [0, 10] (t in
// [0.2, 1]); fit error 4.6e-10 absolute (P is between 0.06 and 1). In t the
// Horner sum is well conditioned in the tail (large z), which GELU needs;
// near z = 0 its terms partly cancel, costing ~2e-7 absolute in erf there.
constexpr float k_erfc_p = 0.4f;
constexpr float k_erfc_q[] = {-4.199786127e-02f, 2.697051546e-01f,
        -6.803849764e-01f, 8.123136266e-01f, -5.303877281e-01f,
        4.238186374e-01f, 6.682731532e-02f, 2.321547786e-01f,
        2.219602494e-01f, 2.260035624e-01f, -1.275889235e-05f};

constexpr float k_log2e = 1.44269502163f;
// ln2 split so that n*ln2_hi is exact for |n| <= 2^9 (low 12 bits clear).
constexpr float k_ln2_hi = 0.693145751953125f;
constexpr float k_ln2_lo = 1.428606765330187e-06f;

} // namespace

vec_emitter_t::vec_emitter_t(x86::Assembler &a, bool avx512)
    : a_(a), avx512_(avx512), pool_(a.newLabel()) {}

x86::Vec vec_emitter_t::v(int i) const {
    if (avx512_) return x86::zmm(static_cast<uint32_t>(i));
    return x86::ymm(static_cast<uint32_t>(i));
}

x86::Mem vec_emitter_t::ci(uint32_t bits) {
    size_t idx = 0;
    while (idx < consts_.size() && consts_[idx] != bits)
        ++idx;
    if (idx == consts_.size()) consts_.push_back(bits);
    return x86::ptr(pool_, static_cast<int32_t>(idx) * vlen());
}

x86::Mem vec_emitter_t::c(float value) { return ci(bits_of(value)); }

void vec_emitter_t::load(const x86::Vec &dst, float value) {
    a_.vmovups(dst, c(value));
}

void vec_emitter_t::select(const x86::Vec &dst, const x86::Vec &a,
        const Operand &b, uint32_t pred, const x86::Vec &src) {
    if (avx512_) {
        if (b.isMem())
            a_.vcmpps(x86::k2, a, b.as<x86::Mem>(), pred);
        else
            a_.vcmpps(x86::k2, a, b.as<x86::Vec>(), pred);
        a_.k(x86::k2).vmovaps(dst, src);
    } else {
        const x86::Vec m = v(15);
        if (b.isMem())
            a_.vcmpps(m, a, b.as<x86::Mem>(), pred);
        else
            a_.vcmpps(m, a, b.as<x86::Vec>(), pred);
        a_.vblendvps(dst, dst, src, m);
    }
}

void vec_emitter_t::load_tail(const x86::Vec &dst, const x86::Mem &m) {
    if (avx512_)
        a_.k(x86::k1).z().vmovups(dst, m);
    else
        a_.vmaskmovps(dst, tail_mask(), m);
}

void vec_emitter_t::store_tail(const x86::Mem &m, const x86::Vec &src) {
    if (avx512_)
        a_.k(x86::k1).vmovups(m, src);
    else
        a_.vmaskmovps(m, tail_mask(), src);
}

void vec_emitter_t::bf16_bits(const x86::Vec &r, const x86::Vec &x,
        const x86::Vec &t) {
    // (u + 0x7fff + ((u >> 16) & 1)) >> 16 never carries past bit 31 for a
    // number: the largest finite u rounds up to the infinity pattern.
    a_.vpsrld(t, x, 16);
    if (avx512_)
        a_.vpandd(r, t, ci(1u));
    else
        a_.vpand(r, t, ci(1u));
    a_.vpaddd(r, r, ci(0x7fffu));
    a_.vpaddd(r, r, x);
    a_.vpsrld(r, r, 16);
    if (avx512_)
        a_.vpord(t, t, ci(0x40u));
    else
        a_.vpor(t, t, ci(0x40u));
    select(r, x, x, k_cmp_unord, t);
}

namespace {
x86::Mem sized_mem(const x86::Mem &m, uint32_t bytes) {
    x86::Mem r = m;
    r.setSize(bytes);
    return r;
}
} // namespace

void vec_emitter_t::load_16(const x86::Vec &dst, const x86::Mem &m,
        bool f16) {
    const x86::Mem half = sized_mem(m, static_cast<uint32_t>(width() * 2));
    if (f16) {
        a_.vcvtph2ps(dst, half);
        return;
    }
    a_.vpmovzxwd(dst, half);
    a_.vpslld(dst, dst, 16);
}

void vec_emitter_t::bcast_16(const x86::Vec &dst, const x86::Mem &m,
        bool f16) {
    // The word into every lane of the half-width register, then widened.
    const x86::Vec h = avx512_ ? x86::Vec(dst.ymm()) : x86::Vec(dst.xmm());
    a_.vpbroadcastw(h, sized_mem(m, 2));
    if (f16) {
        a_.vcvtph2ps(dst, h);
        return;
    }
    a_.vpmovzxwd(dst, h);
    a_.vpslld(dst, dst, 16);
}

void vec_emitter_t::store_16(const x86::Mem &m, const x86::Vec &x, bool f16,
        const x86::Vec &r, const x86::Vec &t, bool masked) {
    const x86::Mem out = sized_mem(m, static_cast<uint32_t>(width() * 2));
    if (f16) {
        // imm 0: round to nearest even, whatever MXCSR says.
        if (masked)
            a_.k(x86::k1).vcvtps2ph(out, x, 0);
        else
            a_.vcvtps2ph(out, x, 0);
        return;
    }
    bf16_bits(r, x, t);
    if (avx512_) {
        if (masked)
            a_.k(x86::k1).vpmovdw(out, r);
        else
            a_.vpmovdw(out, r);
        return;
    }
    const x86::Xmm rl = r.xmm(), rh = t.xmm();
    a_.vextracti128(rh, r.ymm(), 1);
    a_.vpackusdw(rl, rl, rh); // exact: the values fit in 16 bits
    a_.vmovdqu(out, rl);
}

// e^x = 2^n * e^r with n = round(x*log2(e)), r = x - n*ln2 (two-step, exact
// with FMA). 2^n is applied as 2^n1 * 2^n2 with n1 = n>>1, n2 = n - n1 so
// both factors stay normal even where e^x is subnormal or overflows; the
// last multiply then rounds once, giving correct subnormals and +inf.
// Clamping x to [-104, 89] (where e^x is 0 or inf in f32 anyway) keeps n in
// range; the clamp is ordered so that NaN passes through.
void vec_emitter_t::exp(const x86::Vec &y, const x86::Vec &x,
        const x86::Vec &t1, const x86::Vec &t2, const x86::Vec *rq) {
    load(t1, -104.f);
    a_.vmaxps(t1, t1, x); // t1 > x ? t1 : x -> NaN x survives
    load(t2, 89.f);
    a_.vminps(t1, t2, t1); // 89 < t1 ? 89 : t1
    a_.vmulps(t2, t1, c(k_log2e));
    if (avx512_)
        a_.vrndscaleps(t2, t2, 0x08); // nearest even, no precision exception
    else
        a_.vroundps(t2, t2, 0x08);
    a_.vfnmadd231ps(t1, t2, c(k_ln2_hi)); // r = x - n*ln2_hi
    a_.vfnmadd231ps(t1, t2, c(k_ln2_lo)); //     - n*ln2_lo
    a_.vmovups(y, c(k_exp_q[0]));
    for (size_t i = 1; i < sizeof(k_exp_q) / sizeof(k_exp_q[0]); ++i)
        a_.vfmadd213ps(y, t1, c(k_exp_q[i]));
    a_.vmulps(y, y, t1); // r*Q(r)
    if (rq) a_.vmovaps(*rq, y);
    a_.vaddps(y, y, c(1.f));
    a_.vcvtps2dq(t2, t2); // n as int (NaN lanes give garbage; y is NaN)
    a_.vpsrad(t1, t2, 1); // n1
    a_.vpsubd(t2, t2, t1); // n2
    a_.vpaddd(t1, t1, ci(127));
    a_.vpslld(t1, t1, 23);
    a_.vpaddd(t2, t2, ci(127));
    a_.vpslld(t2, t2, 23);
    a_.vmulps(y, y, t1);
    a_.vmulps(y, y, t2);
}

// erfc(z) = e^(-z^2) * P(1 / (1 + 0.4z)) for z >= 0. Computing erfc
// directly (instead of 1 - erf) keeps GELU's negative tail accurate.
void vec_emitter_t::erfc_pos(const x86::Vec &y, const x86::Vec &az,
        const x86::Vec &s, float k, const x86::Vec &t1, const x86::Vec &t2,
        const x86::Vec &t3, const x86::Vec &t4) {
    a_.vmulps(t3, az, c(k_erfc_p));
    a_.vaddps(t3, t3, c(1.f));
    load(t1, 1.f);
    a_.vdivps(t3, t1, t3); // t
    a_.vmulps(az, s, s);   // hi = s*s rounded
    a_.vmovaps(t4, az);
    a_.vfmsub231ps(t4, s, s); // lo = s*s - hi, exact
    // s = ±inf gives hi = inf and lo = inf - inf = NaN, which would turn
    // erfc(inf) = 0 into NaN (and GELU(inf), erf(inf) with it): lo = 0.
    if (avx512_) {
        a_.vcmpps(x86::k2, t4, t4, k_cmp_ord);
        a_.k(x86::k2).z().vmovaps(t4, t4);
    } else {
        a_.vcmpps(t1, t4, t4, k_cmp_ord);
        a_.vandps(t4, t4, t1);
    }
    if (k != 1.f) {
        a_.vmulps(az, az, c(k)); // k = 0.5 scales exactly
        a_.vmulps(t4, t4, c(k));
    }
    a_.vxorps(az, az, ci(0x80000000u));
    exp(y, az, t1, t2);       // e^-hi
    a_.vfnmadd231ps(y, y, t4); // * (1 - lo) = e^-(hi + lo) to O(lo^2)
    a_.vmovups(az, c(k_erfc_q[0]));
    for (size_t i = 1; i < sizeof(k_erfc_q) / sizeof(k_erfc_q[0]); ++i)
        a_.vfmadd213ps(az, t3, c(k_erfc_q[i]));
    a_.vmulps(y, y, az);
}

// Near zero 1 - 2/(e^2|x| + 1) cancels, so |x| < 0.55 uses the odd
// polynomial; both halves are computed and blended. The sign is copied back
// from x, which also keeps -0 and NaN.
void vec_emitter_t::tanh(const x86::Vec &y, const x86::Vec &x,
        const x86::Vec &t1, const x86::Vec &t2, const x86::Vec &t3,
        const x86::Vec &t4) {
    a_.vandps(t4, x, ci(0x7fffffffu)); // |x|
    a_.vaddps(t3, t4, t4);
    exp(y, t3, t1, t2);
    a_.vaddps(y, y, c(1.f));
    load(t1, 2.f);
    a_.vdivps(y, t1, y);
    load(t1, 1.f);
    a_.vsubps(y, t1, y); // large-|x| form
    a_.vmulps(t3, t4, t4);
    a_.vmovups(t1, c(k_tanh_p[0]));
    for (size_t i = 1; i < sizeof(k_tanh_p) / sizeof(k_tanh_p[0]); ++i)
        a_.vfmadd213ps(t1, t3, c(k_tanh_p[i]));
    a_.vmulps(t1, t1, t4); // small-|x| form
    select(y, t4, c(0.55f), k_cmp_lt, t1);
    a_.vandps(t1, x, ci(0x80000000u));
    a_.vorps(y, y, t1);
}

// x = 2^e * m with m in [0.75, 1.5) (from the exponent and mantissa bits),
// then ln m = 2 atanh(s), s = (m - 1)/(m + 1), |s| <= 0.2, by its odd
// series to s^11 (truncation < 1e-9 relative); e * ln2 is added in two
// parts so it stays exact. Special inputs are patched in at the end.
void vec_emitter_t::log(const x86::Vec &y, const x86::Vec &x,
        const x86::Vec &t1, const x86::Vec &t2, const x86::Vec &t3) {
    a_.vpsrld(t1, x, 23);
    a_.vpsubd(t1, t1, ci(127));
    a_.vcvtdq2ps(t1, t1); // e
    a_.vandps(t2, x, ci(0x007fffffu));
    a_.vorps(t2, t2, ci(0x3f800000u)); // m in [1, 2)
    a_.vaddps(t3, t1, c(1.f));
    select(t1, t2, c(1.5f), k_cmp_ge, t3);
    a_.vmulps(t3, t2, c(0.5f));
    select(t2, t2, c(1.5f), k_cmp_ge, t3);
    a_.vaddps(t3, t2, c(1.f));
    a_.vsubps(t2, t2, c(1.f));
    a_.vdivps(t2, t2, t3); // s
    a_.vmulps(t3, t2, t2);
    a_.vmovups(y, c(1.f / 11.f));
    for (float d : {9.f, 7.f, 5.f, 3.f, 1.f})
        a_.vfmadd213ps(y, t3, c(1.f / d));
    a_.vmulps(y, y, t2);
    a_.vaddps(y, y, y);
    a_.vfmadd231ps(y, t1, c(k_ln2_lo));
    a_.vfmadd231ps(y, t1, c(k_ln2_hi));
    a_.vmovups(t3, ci(0x7fc00000u));
    select(y, x, c(0.f), k_cmp_lt, t3); // x < 0: NaN
    a_.vmovups(t3, ci(0xff800000u));
    select(y, x, c(0.f), k_cmp_eq, t3); // 0: -inf
    a_.vmovups(t3, ci(0x7f800000u));
    select(y, x, t3, k_cmp_eq, t3); // +inf
    select(y, x, x, k_cmp_unord, x); // NaN
}

void vec_emitter_t::sigmoid(const x86::Vec &y, const x86::Vec &x,
        const x86::Vec &t1, const x86::Vec &t2, const x86::Vec &t3) {
    a_.vxorps(t3, x, ci(0x80000000u));
    exp(y, t3, t1, t2);
    a_.vaddps(y, y, c(1.f));
    load(t1, 1.f);
    a_.vdivps(y, t1, y);
}

void vec_emitter_t::gelu_tanh(const x86::Vec &y, const x86::Vec &x,
        const x86::Vec &t1, const x86::Vec &t2, const x86::Vec &t3) {
    constexpr float k_sqrt_2_over_pi = 0.7978845608028654f;
    constexpr float k_gelu_k = 0.044715f;
    a_.vmulps(t3, x, x);
    a_.vmulps(t3, t3, c(-2.f * k_sqrt_2_over_pi * k_gelu_k));
    a_.vaddps(t3, t3, c(-2.f * k_sqrt_2_over_pi));
    a_.vmulps(t3, t3, x); // -2g
    exp(y, t3, t1, t2);
    a_.vaddps(y, y, c(1.f));
    a_.vdivps(y, x, y);
}

void vec_emitter_t::gelu_erf(const x86::Vec &y, const x86::Vec &x,
        const x86::Vec &t1, const x86::Vec &t2, const x86::Vec &t3,
        const x86::Vec &t4, const x86::Vec &t5) {
    constexpr float k_inv_sqrt2 = 0.70710678118654752f;
    // x * (x >= 0 ? 1 - erfc(|z|)/2 : erfc(|z|)/2), z = x / sqrt 2.
    a_.vmulps(t4, x, c(k_inv_sqrt2));
    a_.vandps(t4, t4, ci(0x7fffffffu));
    erfc_pos(y, t4, x, 0.5f, t1, t2, t3, t5); // z^2 = x^2 / 2
    a_.vmulps(y, y, c(0.5f));
    load(t1, 1.f);
    a_.vsubps(t1, t1, y);
    select(y, x, c(0.f), k_cmp_ge, t1);
    a_.vmulps(y, y, x);
}

void vec_emitter_t::elu(const x86::Vec &y, const x86::Vec &x, float alpha,
        const x86::Vec &t1, const x86::Vec &t2, const x86::Vec &t3) {
    exp(y, x, t1, t2, &t3);
    a_.vsubps(y, y, c(1.f));
    a_.vandps(t1, x, ci(0x7fffffffu));
    select(y, t1, c(0.3465f), k_cmp_lt, t3); // expm1 near 0
    a_.vmulps(y, y, c(alpha));
    select(y, x, c(0.f), k_cmp_gt, x);
}

void vec_emitter_t::emit_pool() {
    a_.align(AlignMode::kData, 64);
    a_.bind(pool_);
    for (uint32_t b : consts_)
        a_.embedUInt32(b, static_cast<size_t>(width()));
}

} // namespace eltwise
} // namespace cpu
} // namespace llga
