// SPDX-License-Identifier: Apache-2.0
// tools/bench/onednn/bench_onednn.cpp — the oneDNN 2.6 comparator for llga's
// benchmarks: times one MatMul or Convolution primitive of Debian's
// libdnnl (2.6) and prints "gflops <best> <median>". It is a separate
// program on purpose: libdnnl exports the same dnnl_* C symbols as
// libllga with a different ABI, and its 2.6 headers share file names with
// ours, so the two must never meet in one process or include path. The
// llga benchmarks run it with popen, once per row, with OMP_NUM_THREADS set
// (Debian builds libdnnl with OpenMP).
//
//   llga-bench-onednn matmul <f32|bf16|s8> M N K
//   llga-bench-onednn matmul-plain <f32|bf16|s8> M N K
//   llga-bench-onednn matmul-q <f32|bf16|s32|s8|u8> M N K
//   llga-bench-onednn conv <f32|bf16> MB IC IH IW OC KH KW SH SW PH PW
//   ... [po=LIST]  (matmul and conv, f32): a fused epilogue, LIST a comma
//                  list of bias, relu, gelu (erf) and add (a dst-shaped
//                  operand, e.g. a residual) in order, as llga-bench-fusion
//                  builds its graphs
//
//   llga-bench-onednn sdpa f32 B H Sq Skv D <none|pad|causal>
//   llga-bench-onednn conv-bwd-d|conv-bwd-w f32 MB IC IH IW OC KH KW SH SW PH PW
//   llga-bench-onednn overhead f32   (fixed costs, for llga-bench-overhead)
//
// "conv-bwd-d" / "conv-bwd-w" time convolution_backward_data /
// convolution_backward_weights (forward_training hint) with NHWC data and
// the weights / diff_weights in the primitive's preferred layout; any
// reorder of those is left out of the timed loop, the primitive's best case.
// "matmul" and "conv" take constant weights in the layout the primitive
// prefers (format_tag::any, reordered once outside the timed loop);
// "matmul-plain" takes row-major weights as given, which the primitive
// repacks on every call (the comparator for weights that are not
// constant). Activations are plain row-major (matmul) or NHWC (conv). int8
// "matmul s8" is u8 x s8 -> s32; "matmul-q <dst>" is the quantized MatMul
// llga-bench-int8 runs: u8 x s8 with prepacked weights, per-column output
// scales (except s32), and for s8/u8 dst a dst zero point, so both sides
// do the same epilogue work. "sdpa" is scaled dot-product attention as
// llga-bench-sdpa builds it (Q [B,H,Sq,D], K and V [B,H,Skv,D]): a matmul
// of Q by K^T (K's row-major buffer read through a transposed strided
// descriptor) with the 1/sqrt(D) scale as output scale and the mask as a
// binary add post-op (pad: [B,1,1,Skv] of 0/-inf; causal: a precomputed
// [1,1,Sq,Skv] 0/-inf triangle), softmax_forward on the last axis in place,
// and a matmul by V; the three primitives are timed together per call
// (buffers allocated once), GFLOP/s counted as 4*B*H*Sq*Skv*D.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

#include <oneapi/dnnl/dnnl.hpp>

namespace {

using dt = dnnl::memory::data_type;
using tag = dnnl::memory::format_tag;

bool parse_dt(const std::string &s, dt *out) {
    if (s == "f32") *out = dt::f32;
    else if (s == "bf16") *out = dt::bf16;
    else if (s == "s8") *out = dt::s8;
    else if (s == "u8") *out = dt::u8;
    else if (s == "s32") *out = dt::s32;
    else return false;
    return true;
}

// Runs `run` until at least LLGA_BENCH_MIN_TIME seconds (default 0.4, set
// by the calling benchmark to its own per-row time) and 5 repetitions have
// passed; returns best and median seconds per call.
template <typename F>
void time_it(F run, dnnl::stream &s, double *best, double *median) {
    run();
    s.wait();
    std::vector<double> t;
    double total = 0;
    const char *mt = std::getenv("LLGA_BENCH_MIN_TIME");
    const double min_time = mt ? std::atof(mt) : 0.4;
    while (t.size() < 5 || (total < min_time && t.size() < 20000)) {
        const auto a = std::chrono::steady_clock::now();
        run();
        s.wait();
        const double d = std::chrono::duration<double>(
                std::chrono::steady_clock::now() - a).count();
        t.push_back(d);
        total += d;
    }
    std::sort(t.begin(), t.end());
    *best = t.front();
    *median = t[t.size() / 2];
}

void fill(dnnl::memory &m) {
    const size_t n = m.get_desc().get_size();
    auto *p = static_cast<unsigned char *>(m.get_data_handle());
    // Small bytes: finite, non-denormal values for every data type.
    for (size_t i = 0; i < n; ++i) p[i] = static_cast<unsigned char>(0x3c ^ (i % 7));
}

// Times the matmul of `pd` (weights of type `wt` reordered once from a
// plain [K, N] tensor into the layout it chose) and prints the result.
// The fused epilogue of a "po=" argument: bias first (a primitive input of
// its own), then eltwise and binary post-ops on dst-shaped operands.
struct epilogue_t {
    bool bias = false;
    dnnl::post_ops ops;
    int binaries = 0;
};

bool parse_po(const std::string &list, const dnnl::memory::desc &dst_md,
        epilogue_t *e) {
    if (list.empty()) return true; // no epilogue
    size_t at = 0;
    while (at <= list.size()) {
        const size_t end = std::min(list.find(',', at), list.size());
        const std::string item = list.substr(at, end - at);
        if (item == "bias" && e->ops.len() == 0) e->bias = true;
        else if (item == "relu")
            e->ops.append_eltwise(1.f, dnnl::algorithm::eltwise_relu, 0.f, 0.f);
        else if (item == "gelu")
            e->ops.append_eltwise(1.f, dnnl::algorithm::eltwise_gelu_erf, 0.f, 0.f);
        else if (item == "add") {
            e->ops.append_binary(dnnl::algorithm::binary_add, dst_md);
            ++e->binaries;
        } else
            return false;
        at = end + 1;
    }
    return true;
}

// Memory for every binary post-op operand of `e`, keyed for execute().
void add_po_args(const epilogue_t &e, const dnnl::memory::desc &dst_md,
        dnnl::engine &eng, std::unordered_map<int, dnnl::memory> &args,
        std::vector<dnnl::memory> &keep) {
    for (int i = 0; i < e.ops.len(); ++i) {
        if (e.ops.kind(i) != dnnl::primitive::kind::binary) continue;
        keep.emplace_back(dst_md, eng);
        fill(keep.back());
        args[DNNL_ARG_ATTR_MULTIPLE_POST_OP(i) | DNNL_ARG_SRC_1] = keep.back();
    }
}

int run_matmul(const dnnl::matmul::primitive_desc &pd, dnnl::engine &eng,
        dnnl::stream &s, dt wt, long M, long N, long K,
        const epilogue_t *po = nullptr) {
    dnnl::memory src(pd.src_desc(), eng), dst(pd.dst_desc(), eng);
    dnnl::memory wei_plain({{K, N}, wt, tag::ab}, eng), wei(pd.weights_desc(), eng);
    fill(src);
    fill(wei_plain);
    dnnl::reorder(wei_plain, wei).execute(s, wei_plain, wei);
    dnnl::matmul prim(pd);
    std::unordered_map<int, dnnl::memory> args = {{DNNL_ARG_SRC, src},
            {DNNL_ARG_WEIGHTS, wei}, {DNNL_ARG_DST, dst}};
    std::vector<dnnl::memory> keep;
    if (po && po->bias) {
        keep.emplace_back(pd.bias_desc(), eng);
        fill(keep.back());
        args[DNNL_ARG_BIAS] = keep.back();
    }
    if (po) add_po_args(*po, pd.dst_desc(), eng, args, keep);
    double best = 0, med = 0;
    time_it([&] { prim.execute(s, args); }, s, &best, &med);
    const double flop = 2.0 * M * N * K;
    std::printf("gflops %.3f %.3f impl %s\n", flop / best * 1e-9,
            flop / med * 1e-9, pd.impl_info_str());
    return 0;
}

int bench_matmul(dt t, long M, long N, long K, bool plain) {
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    dnnl::stream s(eng);
    const dt wt = t == dt::s8 ? dt::s8 : t;
    const dt st = t == dt::s8 ? dt::u8 : t;
    const dt dt_dst = t == dt::s8 ? dt::s32 : t;
    dnnl::memory::desc src_md({M, K}, st, tag::ab);
    dnnl::memory::desc wei_any({K, N}, wt, plain ? tag::ab : tag::any);
    dnnl::memory::desc dst_md({M, N}, dt_dst, tag::ab);
    dnnl::matmul::primitive_desc pd(
            dnnl::matmul::desc(src_md, wei_any, dst_md), eng);
    return run_matmul(pd, eng, s, wt, M, N, K);
}

int bench_matmul_po(long M, long N, long K, const std::string &list) {
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    dnnl::stream s(eng);
    dnnl::memory::desc src_md({M, K}, dt::f32, tag::ab);
    dnnl::memory::desc wei_any({K, N}, dt::f32, tag::any);
    dnnl::memory::desc dst_md({M, N}, dt::f32, tag::ab);
    epilogue_t po;
    if (!parse_po(list, dst_md, &po)) return 2;
    dnnl::primitive_attr attr;
    attr.set_post_ops(po.ops);
    dnnl::memory::desc bias_md({1, N}, dt::f32, tag::ab);
    dnnl::matmul::primitive_desc pd(po.bias
                    ? dnnl::matmul::desc(src_md, wei_any, bias_md, dst_md)
                    : dnnl::matmul::desc(src_md, wei_any, dst_md),
            attr, eng);
    return run_matmul(pd, eng, s, dt::f32, M, N, K, &po);
}

int bench_matmul_q(dt dst_t, long M, long N, long K) {
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    dnnl::stream s(eng);
    dnnl::memory::desc src_md({M, K}, dt::u8, tag::ab);
    dnnl::memory::desc wei_any({K, N}, dt::s8, tag::any);
    dnnl::memory::desc dst_md({M, N}, dst_t, tag::ab);
    dnnl::primitive_attr attr;
    if (dst_t != dt::s32)
        attr.set_output_scales(2, std::vector<float>(N, 0.02f * 0.01f));
    if (dst_t == dt::s8 || dst_t == dt::u8)
        attr.set_zero_points(DNNL_ARG_DST, 0, {3});
    dnnl::matmul::primitive_desc pd(
            dnnl::matmul::desc(src_md, wei_any, dst_md), attr, eng);
    return run_matmul(pd, eng, s, dt::s8, M, N, K);
}

int bench_conv(dt t, const long *a, const std::string &list) {
    const long mb = a[0], ic = a[1], ih = a[2], iw = a[3], oc = a[4], kh = a[5],
               kw = a[6], sh = a[7], sw = a[8], ph = a[9], pw = a[10];
    const long oh = (ih + 2 * ph - kh) / sh + 1, ow = (iw + 2 * pw - kw) / sw + 1;
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    dnnl::stream s(eng);
    dnnl::memory::desc src_md({mb, ic, ih, iw}, t, tag::nhwc);
    dnnl::memory::desc dst_md({mb, oc, oh, ow}, t, tag::nhwc);
    dnnl::memory::desc wei_any({oc, ic, kh, kw}, t, tag::any);
    dnnl::memory::desc bias_md({oc}, t, tag::a);
    epilogue_t po;
    if (!parse_po(list, dst_md, &po)) return 2;
    dnnl::primitive_attr attr;
    attr.set_post_ops(po.ops);
    const auto fwd = dnnl::prop_kind::forward_inference;
    const auto alg = dnnl::algorithm::convolution_direct;
    dnnl::convolution_forward::primitive_desc pd(po.bias
                    ? dnnl::convolution_forward::desc(fwd, alg, src_md, wei_any,
                              bias_md, dst_md, {sh, sw}, {ph, pw}, {ph, pw})
                    : dnnl::convolution_forward::desc(fwd, alg, src_md, wei_any,
                              dst_md, {sh, sw}, {ph, pw}, {ph, pw}),
            attr, eng);
    dnnl::memory src(pd.src_desc(), eng), dst(pd.dst_desc(), eng);
    dnnl::memory wei_plain({{oc, ic, kh, kw}, t, tag::hwio}, eng), wei(pd.weights_desc(), eng);
    fill(src);
    fill(wei_plain);
    dnnl::reorder(wei_plain, wei).execute(s, wei_plain, wei);
    dnnl::convolution_forward prim(pd);
    std::unordered_map<int, dnnl::memory> args = {{DNNL_ARG_SRC, src},
            {DNNL_ARG_WEIGHTS, wei}, {DNNL_ARG_DST, dst}};
    std::vector<dnnl::memory> keep;
    if (po.bias) {
        keep.emplace_back(pd.bias_desc(), eng);
        fill(keep.back());
        args[DNNL_ARG_BIAS] = keep.back();
    }
    add_po_args(po, pd.dst_desc(), eng, args, keep);
    double best = 0, med = 0;
    time_it([&] { prim.execute(s, args); }, s, &best, &med);
    const double flop = 2.0 * mb * oc * oh * ow * ic * kh * kw;
    std::printf("gflops %.3f %.3f impl %s\n", flop / best * 1e-9,
            flop / med * 1e-9, pd.impl_info_str());
    return 0;
}

int bench_conv_bwd(bool data, const long *a) {
    const long mb = a[0], ic = a[1], ih = a[2], iw = a[3], oc = a[4], kh = a[5],
               kw = a[6], sh = a[7], sw = a[8], ph = a[9], pw = a[10];
    const long oh = (ih + 2 * ph - kh) / sh + 1, ow = (iw + 2 * pw - kw) / sw + 1;
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    dnnl::stream s(eng);
    const dnnl::memory::desc src_md({mb, ic, ih, iw}, dt::f32, tag::nhwc);
    const dnnl::memory::desc dst_md({mb, oc, oh, ow}, dt::f32, tag::nhwc);
    const dnnl::memory::desc wei_any({oc, ic, kh, kw}, dt::f32, tag::any);
    const auto alg = dnnl::algorithm::convolution_direct;
    const dnnl::memory::dims st = {sh, sw}, pad = {ph, pw};
    const dnnl::convolution_forward::primitive_desc hint(
            dnnl::convolution_forward::desc(dnnl::prop_kind::forward_training,
                    alg, src_md, wei_any, dst_md, st, pad, pad),
            eng);
    std::unordered_map<int, dnnl::memory> args;
    dnnl::primitive prim;
    std::string impl;
    if (data) {
        const dnnl::convolution_backward_data::primitive_desc pd(
                dnnl::convolution_backward_data::desc(
                        alg, src_md, wei_any, dst_md, st, pad, pad),
                eng, hint);
        args = {{DNNL_ARG_DIFF_DST, dnnl::memory(pd.diff_dst_desc(), eng)},
                {DNNL_ARG_WEIGHTS, dnnl::memory(pd.weights_desc(), eng)},
                {DNNL_ARG_DIFF_SRC, dnnl::memory(pd.diff_src_desc(), eng)}};
        prim = dnnl::convolution_backward_data(pd);
        impl = pd.impl_info_str();
    } else {
        const dnnl::convolution_backward_weights::primitive_desc pd(
                dnnl::convolution_backward_weights::desc(
                        alg, src_md, wei_any, dst_md, st, pad, pad),
                eng, hint);
        args = {{DNNL_ARG_SRC, dnnl::memory(pd.src_desc(), eng)},
                {DNNL_ARG_DIFF_DST, dnnl::memory(pd.diff_dst_desc(), eng)},
                {DNNL_ARG_DIFF_WEIGHTS,
                        dnnl::memory(pd.diff_weights_desc(), eng)}};
        prim = dnnl::convolution_backward_weights(pd);
        impl = pd.impl_info_str();
    }
    for (auto &e : args)
        fill(e.second);
    double best = 0, med = 0;
    time_it([&] { prim.execute(s, args); }, s, &best, &med);
    const double flop = 2.0 * mb * oc * oh * ow * ic * kh * kw;
    std::printf("gflops %.3f %.3f impl %s\n", flop / best * 1e-9,
            flop / med * 1e-9, impl.c_str());
    return 0;
}

int bench_sdpa(long B, long H, long Sq, long Skv, long D, const std::string &mask) {
    if (mask != "none" && mask != "pad" && mask != "causal") return 2;
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    dnnl::stream s(eng);
    const dnnl::memory::desc q_md({B, H, Sq, D}, dt::f32, tag::abcd);
    const dnnl::memory::desc k_md({B, H, Skv, D}, dt::f32, tag::abcd);
    // K^T [B,H,D,Skv] over K's row-major [B,H,Skv,D] buffer.
    const dnnl::memory::desc kt_md(
            {B, H, D, Skv}, dt::f32, {H * Skv * D, Skv * D, 1, D});
    const dnnl::memory::desc s_md({B, H, Sq, Skv}, dt::f32, tag::abcd);
    const dnnl::memory::desc o_md({B, H, Sq, D}, dt::f32, tag::abcd);
    const dnnl::memory::desc m_md = mask == "pad"
            ? dnnl::memory::desc({B, 1, 1, Skv}, dt::f32, tag::abcd)
            : dnnl::memory::desc({1, 1, Sq, Skv}, dt::f32, tag::abcd);
    dnnl::primitive_attr attr;
    attr.set_output_scales(0, {1.f / std::sqrt(static_cast<float>(D))});
    if (mask != "none") {
        dnnl::post_ops ops;
        ops.append_binary(dnnl::algorithm::binary_add, m_md);
        attr.set_post_ops(ops);
    }
    dnnl::matmul::primitive_desc qk_pd(
            dnnl::matmul::desc(q_md, kt_md, s_md), attr, eng);
    dnnl::softmax_forward::primitive_desc sm_pd(
            dnnl::softmax_forward::desc(
                    dnnl::prop_kind::forward_inference, s_md, 3),
            eng);
    dnnl::matmul::primitive_desc pv_pd(
            dnnl::matmul::desc(s_md, k_md, o_md), eng);
    dnnl::memory q(q_md, eng), k(k_md, eng), v(k_md, eng), sc(s_md, eng),
            o(o_md, eng), m(m_md, eng);
    fill(q);
    fill(k);
    fill(v);
    // The mask: 0 or -inf, never a whole row (pad: every tenth key from key
    // 3 on; causal: keys after the query).
    auto *mp = static_cast<float *>(m.get_data_handle());
    const float inf = std::numeric_limits<float>::infinity();
    if (mask == "pad")
        for (long i = 0; i < B * Skv; ++i) mp[i] = i % Skv % 10 == 3 ? -inf : 0.f;
    if (mask == "causal")
        for (long i = 0; i < Sq; ++i)
            for (long j = 0; j < Skv; ++j) mp[i * Skv + j] = j > i ? -inf : 0.f;
    const dnnl::memory kt(kt_md, eng, k.get_data_handle());
    dnnl::matmul qk(qk_pd), pv(pv_pd);
    dnnl::softmax_forward sm(sm_pd);
    std::unordered_map<int, dnnl::memory> qk_args = {{DNNL_ARG_SRC, q},
            {DNNL_ARG_WEIGHTS, kt}, {DNNL_ARG_DST, sc}};
    if (mask != "none")
        qk_args[DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1] = m;
    const std::unordered_map<int, dnnl::memory> sm_args = {
            {DNNL_ARG_SRC, sc}, {DNNL_ARG_DST, sc}};
    const std::unordered_map<int, dnnl::memory> pv_args = {{DNNL_ARG_SRC, sc},
            {DNNL_ARG_WEIGHTS, v}, {DNNL_ARG_DST, o}};
    double best = 0, med = 0;
    time_it([&] {
        qk.execute(s, qk_args);
        sm.execute(s, sm_args);
        pv.execute(s, pv_args);
    }, s, &best, &med);
    const double flop = 4.0 * B * H * Sq * Skv * D;
    std::printf("gflops %.3f %.3f impl qk=%s softmax=%s pv=%s\n",
            flop / best * 1e-9, flop / med * 1e-9, qk_pd.impl_info_str(),
            sm_pd.impl_info_str(), pv_pd.impl_info_str());
    return 0;
}

// Fixed costs: per-call execute of a 16-float ReLU, and creation of the
// MatMul 256x1024x1024 + bias + ReLU primitive (weights tag::any), the first
// time and then the best of five more (primitive-cache hits unless the
// caller set DNNL_PRIMITIVE_CACHE_CAPACITY=0). Prints "overhead <exec us>
// <first create ms> <again create ms>" for llga-bench-overhead.
int bench_overhead() {
    using clock_type = std::chrono::steady_clock;
    auto since = [](clock_type::time_point t0) {
        return std::chrono::duration<double>(clock_type::now() - t0).count();
    };
    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    dnnl::stream s(eng);
    auto create = [&] {
        const auto t0 = clock_type::now();
        dnnl::memory::desc src_md({256, 1024}, dt::f32, tag::ab);
        dnnl::memory::desc wei_md({1024, 1024}, dt::f32, tag::any);
        dnnl::memory::desc bia_md({1, 1024}, dt::f32, tag::ab);
        dnnl::memory::desc dst_md({256, 1024}, dt::f32, tag::ab);
        dnnl::post_ops po;
        po.append_eltwise(1.f, dnnl::algorithm::eltwise_relu, 0.f, 0.f);
        dnnl::primitive_attr attr;
        attr.set_post_ops(po);
        dnnl::matmul::primitive_desc pd(
                dnnl::matmul::desc(src_md, wei_md, bia_md, dst_md), attr, eng);
        dnnl::matmul prim(pd);
        return since(t0) * 1e3;
    };
    const double first = create();
    double again = 1e30;
    for (int i = 0; i < 5; ++i) again = std::min(again, create());
    dnnl::memory::desc md({16}, dt::f32, tag::a);
    dnnl::eltwise_forward::primitive_desc epd(
            dnnl::eltwise_forward::desc(dnnl::prop_kind::forward_inference,
                    dnnl::algorithm::eltwise_relu, md, 0.f, 0.f),
            eng);
    dnnl::eltwise_forward relu(epd);
    dnnl::memory a(md, eng), b(md, eng);
    fill(a);
    std::unordered_map<int, dnnl::memory> args
            = {{DNNL_ARG_SRC, a}, {DNNL_ARG_DST, b}};
    double best = 1e30;
    const int calls = 20000;
    for (int r = 0; r < 5; ++r) {
        const auto t0 = clock_type::now();
        for (int i = 0; i < calls; ++i) relu.execute(s, args);
        s.wait();
        best = std::min(best, since(t0) / calls);
    }
    std::printf("overhead %.4f %.4f %.4f\n", best * 1e6, first, again);
    return 0;
}

int usage() {
    std::fprintf(stderr,
            "usage: llga-bench-onednn matmul[-plain] <f32|bf16|s8> M N K\n"
            "       llga-bench-onednn matmul-q <f32|bf16|s32|s8|u8> M N K\n"
            "       llga-bench-onednn conv <f32|bf16> MB IC IH IW OC KH KW SH SW PH PW\n"
            "       ... po=bias,relu,gelu,add (f32 matmul and conv)\n"
            "       llga-bench-onednn sdpa f32 B H Sq Skv D <none|pad|causal>\n"
            "       llga-bench-onednn conv-bwd-d|conv-bwd-w f32 MB IC IH IW OC KH KW SH SW PH PW\n"
            "       llga-bench-onednn overhead f32\n");
    return 2;
}

} // namespace

int main(int argc, char **argv) {
    if (argc < 3) return usage();
    const std::string what = argv[1];
    dt t;
    if (!parse_dt(argv[2], &t)) return usage();
    if (what == "overhead") {
        if (argc != 3 || t != dt::f32) return usage();
        try {
            return bench_overhead();
        } catch (const dnnl::error &e) {
            std::printf("error %s\n", e.what());
            return 1;
        }
    }
    if (what == "sdpa") {
        if (argc != 9 || t != dt::f32) return usage();
        long a[5];
        for (int i = 0; i < 5; ++i) a[i] = std::strtol(argv[3 + i], nullptr, 10);
        try {
            const int rc = bench_sdpa(a[0], a[1], a[2], a[3], a[4], argv[8]);
            return rc == 2 ? usage() : rc;
        } catch (const dnnl::error &e) {
            std::printf("error %s\n", e.what());
            return 1;
        }
    }
    std::vector<long> v;
    std::string po;
    for (int i = 3; i < argc; ++i) {
        const std::string a = argv[i];
        if (a.rfind("po=", 0) == 0) po = a.substr(3);
        else v.push_back(std::strtol(argv[i], nullptr, 10));
    }
    try {
        const bool fp_or_s8 = t == dt::f32 || t == dt::bf16 || t == dt::s8;
        if (what == "matmul" && v.size() == 3 && t == dt::f32 && !po.empty())
            return bench_matmul_po(v[0], v[1], v[2], po);
        if ((what == "matmul" || what == "matmul-plain") && v.size() == 3
                && fp_or_s8 && po.empty())
            return bench_matmul(t, v[0], v[1], v[2], what == "matmul-plain");
        if (what == "matmul-q" && v.size() == 3)
            return bench_matmul_q(t, v[0], v[1], v[2]);
        if (what == "conv" && v.size() == 11 && (t == dt::f32 || t == dt::bf16))
            return bench_conv(t, v.data(), po);
        if ((what == "conv-bwd-d" || what == "conv-bwd-w") && v.size() == 11
                && t == dt::f32 && po.empty())
            return bench_conv_bwd(what == "conv-bwd-d", v.data());
    } catch (const dnnl::error &e) {
        std::printf("error %s\n", e.what());
        return 1;
    }
    return usage();
}
