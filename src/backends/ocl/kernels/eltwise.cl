// SPDX-License-Identifier: Apache-2.0
// backends/ocl/kernels/eltwise.cl — elementwise unary ops, forward (y = f(x))
// and backward (dx = g(v, dy)); the op is chosen by an OP_<NAME> macro, the
// parameters come as ALPHA/BETA/LO/HI. One work-item per element; the
// tensors share the iteration space DIMS with their own STRIDES.

constant long dims[] = {DIMS};
constant long src_strides[] = {SRC_STRIDES};
constant long dst_strides[] = {DST_STRIDES};
#ifdef BACKWARD
constant long dd_strides[] = {DD_STRIDES};
#endif

inline float sigm(float x) { return -x >= 88.7228f ? 0.f : 1.f / (1.f + exp(-x)); }
inline float log1pexp(float t) { return t >= 88.7228f ? t : log1p(exp(t)); }
inline float clampf(float x, float lo, float hi) {
    const float t = x < lo ? lo : x;
    return t > hi ? hi : t;
}

inline float fwd(float x) {
#if defined(OP_ABS)
    return fabs(x);
#elif defined(OP_CLAMP)
    return clampf(x, LO, HI);
#elif defined(OP_ELU)
    return x > 0 ? x : ALPHA * (exp(x) - 1.f);
#elif defined(OP_EXP)
    return exp(x);
#elif defined(OP_GELU_TANH)
    const float g = sqrt(2.f / M_PI_F) * (x + 0.044715f * x * x * x);
    return 0.5f * x * (1.f + tanh(g));
#elif defined(OP_GELU)
    return 0.5f * x * (1.f + erf(x / sqrt(2.f)));
#elif defined(OP_HARDSIGMOID)
    return clampf(ALPHA * x + BETA, 0.f, 1.f);
#elif defined(OP_HARDSWISH)
    return x * clampf(x / 6.f + 0.5f, 0.f, 1.f);
#elif defined(OP_LEAKYRELU)
    return x >= 0 ? x : ALPHA * x;
#elif defined(OP_LOG)
    return log(x);
#elif defined(OP_MISH)
    return x * tanh(log1pexp(x));
#elif defined(OP_POW)
    return pow(x, BETA);
#elif defined(OP_RECIPROCAL)
    return 1.f / x;
#elif defined(OP_RELU)
    return x < 0 ? 0.f : x;
#elif defined(OP_ROUND)
    return rint(x);
#elif defined(OP_SIGMOID)
    return sigm(x);
#elif defined(OP_SOFTPLUS)
    return log1pexp(BETA * x) / BETA;
#elif defined(OP_SQRT)
    return sqrt(x);
#elif defined(OP_SQUARE)
    return x * x;
#elif defined(OP_TANH)
    return tanh(x);
#else
#error "no eltwise op selected"
#endif
}

#ifdef BACKWARD
// v is the forward src, or the forward dst when USE_DST is defined.
inline float bwd(float v, float dy) {
#if defined(OP_ABS)
    return v > 0 ? dy : (v < 0 ? -dy : 0.f);
#elif defined(OP_CLAMP)
    return (v > LO && v < HI) ? dy : 0.f;
#elif defined(OP_ELU)
#ifdef USE_DST
    return dy * (v > 0 ? 1.f : v + ALPHA);
#else
    return dy * (v > 0 ? 1.f : ALPHA * exp(v));
#endif
#elif defined(OP_RELU)
    return v > 0 ? dy : 0.f;
#elif defined(OP_SIGMOID)
#ifdef USE_DST
    return dy * v * (1.f - v);
#else
    const float s = sigm(v);
    return dy * s * (1.f - s);
#endif
#elif defined(OP_TANH)
#ifdef USE_DST
    return dy * (1.f - v * v);
#else
    const float t = tanh(v);
    return dy * (1.f - t * t);
#endif
#elif defined(OP_SQRT)
#ifdef USE_DST
    return dy / (2.f * v);
#else
    return dy / (2.f * sqrt(v));
#endif
#elif defined(OP_HARDSIGMOID)
    const float t = ALPHA * v + BETA;
    return (t > 0 && t < 1) ? dy * ALPHA : 0.f;
#elif defined(OP_HARDSWISH)
    const float w = v / 6.f + 0.5f;
    return w <= 0.f ? 0.f : (w >= 1.f ? dy : dy * (v / 3.f + 0.5f));
#elif defined(OP_SOFTPLUS)
    return dy * sigm(BETA * v);
#elif defined(OP_GELU)
    const float cdf = 0.5f * (1.f + erf(v / sqrt(2.f)));
    const float pdf = exp(-0.5f * v * v) / sqrt(2.f * M_PI_F);
    return dy * (cdf + v * pdf);
#elif defined(OP_GELU_TANH)
    const float k = sqrt(2.f / M_PI_F);
    const float g = k * (v + 0.044715f * v * v * v);
    const float t = tanh(g);
    const float dg = k * (1.f + 3.f * 0.044715f * v * v);
    return dy * 0.5f * (1.f + t) * (1.f + v * (1.f - t) * dg);
#elif defined(OP_MISH)
    const float sp = log1pexp(v);
    const float t = tanh(sp);
    return dy * (t + v * (1.f - t * t) * sigm(v));
#else
#error "no eltwise backward op selected"
#endif
}
#endif

kernel void eltwise_fwd(const global SRC_T *src, global DST_T *dst) {
    const long i = get_global_id(0);
    if (i >= NELEMS) return;
    const float x = LD(SRC, src, offset_of(i, ND, dims, src_strides));
    ST(DST, dst, offset_of(i, ND, dims, dst_strides), fwd(x));
}

#ifdef BACKWARD
kernel void eltwise_bwd(const global SRC_T *src, const global DD_T *dd,
        global DST_T *dst) {
    const long i = get_global_id(0);
    if (i >= NELEMS) return;
    const float v = LD(SRC, src, offset_of(i, ND, dims, src_strides));
    const float dy = LD(DD, dd, offset_of(i, ND, dims, dd_strides));
    ST(DST, dst, offset_of(i, ND, dims, dst_strides), bwd(v, dy));
}
#endif
