// SPDX-License-Identifier: Apache-2.0
// tools/bench/bench_conv.cpp — llga-bench-conv: Convolution throughput
// through the public C++ API on the distinct ResNet-50 (v1.5) layers, NHWC
// data, XIO weights marked constant (so the kernel prepacks them once), f32
// and bf16, minibatch 1 (all layers) and 32 (a few layers, to bound the run
// time), at 1 thread and at the requested thread count. Prints GFLOP/s per
// layer (best of the timed runs), the kernel that ran, and the geometric
// mean per column, and checks 64 sampled outputs of each row against plain
// loops (a wrong row is flagged and the exit status is 1). The "%pk" columns rate each row against this machine's
// peak measured at start-up by JIT loops (peak.hpp): the zmm FMA peak for
// f32, for bf16 the AMX peak when an AMX kernel ran, else vdpbf16ps, and
// the FMA peak on hosts without vdpbf16ps (where bf16 runs on f32 FMAs).
//
// The constant tensor cache is given 4 GiB (weights are prepacked once, as
// in a deployed model); --no-cache runs with it disabled (the library
// default), which reorders/packs the weights on every execution.
//
// With --bwd the rows are the training passes instead, f32 only:
// ConvolutionBackwardData (diff_dst, XIO weights -> diff_src) and
// ConvolutionBackwardWeights (src, diff_dst -> XIO diff_weights), nothing
// constant, against oneDNN 2.6's backward primitives.
//
//   llga-bench-conv [--threads N] [--min-time S] [--rounds R] [--dt f32|bf16]
//                   [--no-mb32] [--no-cache] [--dw] [--bwd] [--filter SUBSTR]
//     --rounds  rounds per row (default 2): llga and oneDNN are timed in
//               turn, each keeps its best round
//     --dw      depthwise 3x3 layers (MobileNet-v2 shapes) instead of ResNet-50
//     --filter  only the layers whose name contains SUBSTR
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <tbb/global_control.h>

#include "oneapi/dnnl/dnnl_graph.hpp"
#include "onednn_comparator.hpp"
#include "peak.hpp"
#include "sample_check.hpp"

using namespace dnnl::graph;
using dt = logical_tensor::data_type;
using layout = logical_tensor::layout_type;
using dims = logical_tensor::dims;
using prop = logical_tensor::property_type;

namespace {

double now_s() {
    return std::chrono::duration<double>(
            std::chrono::steady_clock::now().time_since_epoch())
            .count();
}

struct layer_t {
    const char *name;
    int64_t ic, oc, hw, k, s, pad;
    bool mb32; // also run at minibatch 32
    int64_t groups = 1;
};

// The distinct convolutions of ResNet-50 v1.5 (stride on the 3x3).
const layer_t k_layers[] = {
        {"conv1", 3, 64, 224, 7, 2, 3, false},
        {"res2_1x1_64_64", 64, 64, 56, 1, 1, 0, false},
        {"res2_3x3_64", 64, 64, 56, 3, 1, 1, true},
        {"res2_1x1_64_256", 64, 256, 56, 1, 1, 0, false},
        {"res2_1x1_256_64", 256, 64, 56, 1, 1, 0, false},
        {"res3a_1x1_256_128", 256, 128, 56, 1, 1, 0, false},
        {"res3a_3x3_128_s2", 128, 128, 56, 3, 2, 1, false},
        {"res3a_proj_256_512_s2", 256, 512, 56, 1, 2, 0, false},
        {"res3_1x1_512_128", 512, 128, 28, 1, 1, 0, false},
        {"res3_3x3_128", 128, 128, 28, 3, 1, 1, true},
        {"res3_1x1_128_512", 128, 512, 28, 1, 1, 0, false},
        {"res4a_1x1_512_256", 512, 256, 28, 1, 1, 0, false},
        {"res4a_3x3_256_s2", 256, 256, 28, 3, 2, 1, false},
        {"res4a_proj_512_1024_s2", 512, 1024, 28, 1, 2, 0, false},
        {"res4_1x1_1024_256", 1024, 256, 14, 1, 1, 0, true},
        {"res4_3x3_256", 256, 256, 14, 3, 1, 1, false},
        {"res4_1x1_256_1024", 256, 1024, 14, 1, 1, 0, false},
        {"res5a_1x1_1024_512", 1024, 512, 14, 1, 1, 0, false},
        {"res5a_3x3_512_s2", 512, 512, 14, 3, 2, 1, false},
        {"res5a_proj_1024_2048_s2", 1024, 2048, 14, 1, 2, 0, false},
        {"res5_1x1_2048_512", 2048, 512, 7, 1, 1, 0, false},
        {"res5_3x3_512", 512, 512, 7, 3, 1, 1, true},
        {"res5_1x1_512_2048", 512, 2048, 7, 1, 1, 0, false},
};

// With --dw: MobileNet-v2-style depthwise 3x3 layers (groups = channels).
const layer_t k_dw_layers[] = {
        {"dw3x3_32_112", 32, 32, 112, 3, 1, 1, false, 32},
        {"dw3x3_96_112_s2", 96, 96, 112, 3, 2, 1, false, 96},
        {"dw3x3_144_56", 144, 144, 56, 3, 1, 1, false, 144},
        {"dw3x3_192_28", 192, 192, 28, 3, 1, 1, false, 192},
        {"dw3x3_576_14", 576, 576, 14, 3, 1, 1, false, 576},
        {"dw3x3_960_7", 960, 960, 7, 3, 1, 1, false, 960},
};

uint16_t to_bf16(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    u += 0x7fff + ((u >> 16) & 1);
    return static_cast<uint16_t>(u >> 16);
}

int64_t out_hw(const layer_t &l) {
    return (l.hw + 2 * l.pad - l.k) / l.s + 1;
}

double gflop(const layer_t &l, int64_t mb) {
    const double o = static_cast<double>(out_hw(l));
    return 2.0 * mb * l.oc * o * o * (l.ic / l.groups) * l.k * l.k * 1e-9;
}

enum class pass_t { fwd, bwd_data, bwd_weights };

const char *pass_name(pass_t p) {
    return p == pass_t::fwd    ? "forward"
            : p == pass_t::bwd_data ? "backward data"
                                    : "backward weights";
}

// One Convolution (or backward) partition compiled through the public API.
struct conv_run_t {
    engine eng {engine::kind::cpu, 0};
    stream strm {eng};
    compiled_partition cp;
    std::vector<tensor> ins, outs;
    std::vector<char> src, wei, bias, dst;
    char *p[4] = {}; // 64-byte aligned src, wei, bias, dst
    std::string kernel;
    layer_t l;
    int64_t mb = 1;
    bool bf16 = false;
    pass_t pass = pass_t::fwd;

    conv_run_t(const layer_t &l_, int64_t mb_, bool bf16_, pass_t pass_)
        : l(l_), mb(mb_), bf16(bf16_), pass(pass_) {
        const dt t = bf16 ? dt::bf16 : dt::f32;
        const int64_t o = out_hw(l);
        const bool fwd = pass == pass_t::fwd;
        const dims sd = {mb, l.hw, l.hw, l.ic};
        const dims wd = {l.k, l.k, l.ic / l.groups, l.oc};
        logical_tensor ls(0, t, sd, layout::strided);
        logical_tensor lw(1, t, wd, layout::strided,
                fwd ? prop::constant : prop::variable);
        logical_tensor lb(2, t, dims {l.oc}, layout::strided, prop::constant);
        logical_tensor ld(3, t, dims {mb, o, o, l.oc}, layout::strided);
        std::vector<logical_tensor> lin = {ls, lw, lb}, lout = {ld};
        op::kind kind = op::kind::Convolution;
        if (pass == pass_t::bwd_data) {
            kind = op::kind::ConvolutionBackwardData;
            lin = {ld, lw};
            lout = {ls};
        } else if (pass == pass_t::bwd_weights) {
            kind = op::kind::ConvolutionBackwardWeights;
            lin = {ls, ld};
            lout = {lw};
        }
        op conv(0, kind, lin, lout, "conv");
        if (pass == pass_t::bwd_data) conv.set_attr<dims>(op::attr::dst_shape, sd);
        if (pass == pass_t::bwd_weights)
            conv.set_attr<dims>(op::attr::weights_shape, wd);
        conv.set_attr<dims>(op::attr::strides, {l.s, l.s});
        conv.set_attr<dims>(op::attr::dilations, {1, 1});
        conv.set_attr<int64_t>(op::attr::groups, l.groups);
        conv.set_attr<dims>(op::attr::pads_begin, {l.pad, l.pad});
        conv.set_attr<dims>(op::attr::pads_end, {l.pad, l.pad});
        conv.set_attr<std::string>(op::attr::data_format, "NXC");
        conv.set_attr<std::string>(op::attr::weights_format, "XIO");
        graph g(engine::kind::cpu);
        g.add_op(conv);
        g.finalize();
        auto parts = g.get_partitions();
        cp = parts.at(0).compile(lin, lout, eng);
        const size_t es = bf16 ? 2 : 4;
        // Buffers 64-byte aligned, as frameworks allocate tensors (a
        // vector's 16-byte alignment splits every 64-byte row load).
        const size_t n[4] = {static_cast<size_t>(mb * l.hw * l.hw * l.ic) * es,
                static_cast<size_t>(l.k * l.k * (l.ic / l.groups) * l.oc) * es,
                static_cast<size_t>(l.oc) * es,
                static_cast<size_t>(mb * o * o * l.oc) * es};
        std::vector<char> *bufs[4] = {&src, &wei, &bias, &dst};
        for (int b = 0; b < 4; ++b) {
            bufs[b]->resize(n[b] + 64);
            p[b] = bufs[b]->data()
                    + (64 - reinterpret_cast<uintptr_t>(bufs[b]->data()) % 64)
                            % 64;
        }
        std::mt19937 gen(1);
        std::uniform_real_distribution<float> u(-1.f, 1.f);
        for (int b = 0; b < 4; ++b) // dst too: the input of both backward passes
            for (size_t i = 0; i < n[b] / es; ++i) {
                const float x = u(gen);
                if (bf16) {
                    const uint16_t h = to_bf16(x);
                    std::memcpy(p[b] + 2 * i, &h, 2);
                } else {
                    std::memcpy(p[b] + 4 * i, &x, 4);
                }
            }
        const tensor ts(ls, eng, p[0]), tw(lw, eng, p[1]), tb(lb, eng, p[2]),
                td(ld, eng, p[3]);
        ins = {ts, tw, tb};
        outs = {td};
        if (pass == pass_t::bwd_data) {
            ins = {td, tw};
            outs = {ts};
        } else if (pass == pass_t::bwd_weights) {
            ins = {ts, td};
            outs = {tw};
        }
    }
    void run() {
        cp.execute(strm, ins, outs);
        strm.wait();
    }

    // Element i of buffer b as a double.
    double at(int b, int64_t i) const {
        if (!bf16) {
            float f;
            std::memcpy(&f, p[b] + 4 * i, 4);
            return f;
        }
        uint16_t h;
        std::memcpy(&h, p[b] + 2 * i, 2);
        const uint32_t u = static_cast<uint32_t>(h) << 16;
        float f;
        std::memcpy(&f, &u, 4);
        return f;
    }

    // Checks `samples` outputs of the last run against sums written here
    // (double, plain loops): |got - want| <= 1e-5 * sum |terms| (+ bf16
    // rounding of the result, 2^-8 |want|). Returns the failures.
    int check(int samples) const {
        const int64_t o = out_hw(l), G = l.groups, icg = l.ic / G,
                      ocg = l.oc / G;
        const int64_t hw = l.hw, k = l.k;
        std::mt19937_64 gen(7);
        const int out_b = pass == pass_t::fwd ? 3
                : pass == pass_t::bwd_data    ? 0
                                              : 1;
        const int64_t n_out = pass == pass_t::fwd ? mb * o * o * l.oc
                : pass == pass_t::bwd_data        ? mb * hw * hw * l.ic
                                                  : k * k * icg * l.oc;
        auto src_at = [&](int64_t n, int64_t ih, int64_t iw, int64_t c) {
            return at(0, ((n * hw + ih) * hw + iw) * l.ic + c);
        };
        auto wei_at = [&](int64_t kh, int64_t kw, int64_t ic, int64_t oc) {
            return at(1, ((kh * k + kw) * icg + ic) * l.oc + oc);
        };
        auto dst_at = [&](int64_t n, int64_t oh, int64_t ow, int64_t oc) {
            return at(3, ((n * o + oh) * o + ow) * l.oc + oc);
        };
        int bad = 0;
        for (int sIdx = 0; sIdx < samples; ++sIdx) {
            const int64_t i = static_cast<int64_t>(gen() % n_out);
            double want = 0, mag = 0;
            auto add = [&](double x) {
                want += x;
                mag += std::fabs(x);
            };
            if (pass == pass_t::fwd) {
                const int64_t oc = i % l.oc, ow = i / l.oc % o,
                              oh = i / (l.oc * o) % o, n = i / (l.oc * o * o);
                const int64_t g = oc / ocg;
                add(at(2, oc));
                for (int64_t kh = 0; kh < k; ++kh)
                    for (int64_t kw = 0; kw < k; ++kw) {
                        const int64_t ih = oh * l.s - l.pad + kh,
                                      iw = ow * l.s - l.pad + kw;
                        if (ih < 0 || ih >= hw || iw < 0 || iw >= hw) continue;
                        for (int64_t c = 0; c < icg; ++c)
                            add(src_at(n, ih, iw, g * icg + c)
                                    * wei_at(kh, kw, c, oc));
                    }
            } else if (pass == pass_t::bwd_data) {
                const int64_t c = i % l.ic, iw = i / l.ic % hw,
                              ih = i / (l.ic * hw) % hw,
                              n = i / (l.ic * hw * hw);
                const int64_t g = c / icg;
                for (int64_t kh = 0; kh < k; ++kh)
                    for (int64_t kw = 0; kw < k; ++kw) {
                        const int64_t th = ih + l.pad - kh, tw = iw + l.pad - kw;
                        if (th < 0 || tw < 0 || th % l.s || tw % l.s) continue;
                        const int64_t oh = th / l.s, ow = tw / l.s;
                        if (oh >= o || ow >= o) continue;
                        for (int64_t oc = g * ocg; oc < (g + 1) * ocg; ++oc)
                            add(dst_at(n, oh, ow, oc)
                                    * wei_at(kh, kw, c % icg, oc));
                    }
            } else {
                const int64_t oc = i % l.oc, c = i / l.oc % icg,
                              kw = i / (l.oc * icg) % k,
                              kh = i / (l.oc * icg * k);
                const int64_t g = oc / ocg;
                for (int64_t n = 0; n < mb; ++n)
                    for (int64_t oh = 0; oh < o; ++oh)
                        for (int64_t ow = 0; ow < o; ++ow) {
                            const int64_t ih = oh * l.s - l.pad + kh,
                                          iw = ow * l.s - l.pad + kw;
                            if (ih < 0 || ih >= hw || iw < 0 || iw >= hw)
                                continue;
                            add(src_at(n, ih, iw, g * icg + c)
                                    * dst_at(n, oh, ow, oc));
                        }
            }
            const double got = at(out_b, i);
            const double tol = 1e-5 * mag + (bf16 ? std::fabs(want) / 256 : 0)
                    + 1e-30;
            if (!(std::fabs(got - want) <= tol)) ++bad;
        }
        return bad;
    }
};

// Best time in ms (after one warm-up run that also prepacks the weights).
double time_best(conv_run_t &r, double min_time) {
    r.run();
    double best = 1e30;
    int runs = 0;
    const double start = now_s();
    while ((now_s() - start < min_time || runs < 2) && runs < 20000) {
        const double t0 = now_s();
        r.run();
        best = std::min(best, (now_s() - t0) * 1e3);
        ++runs;
    }
    return best;
}

// The kernel name from the verbose exec line (stdout is redirected to a
// pipe only for that run).
std::string kernel_of(conv_run_t &r) {
    std::fflush(stdout);
    char buf[4096] = {};
    FILE *old = stdout;
    FILE *tmp = std::tmpfile();
    if (!tmp) return "?";
    stdout = tmp;
    dnnl_set_verbose(1);
    r.run();
    dnnl_set_verbose(0);
    std::fflush(tmp);
    stdout = old;
    std::rewind(tmp);
    const size_t n = std::fread(buf, 1, sizeof(buf) - 1, tmp);
    std::fclose(tmp);
    const std::string s(buf, n);
    const std::string tag = ",graph,exec,";
    size_t at = s.rfind(tag);
    if (at == std::string::npos) return "?";
    // engine,id,kind,ops,formats,tensors,fpmath,<kernel>,backend,ms
    size_t p0 = at + tag.size() - 1;
    for (int f = 0; f < 7; ++f) p0 = s.find(',', p0 + 1);
    const size_t p1 = s.find(',', p0 + 1);
    return s.substr(p0 + 1, p1 - p0 - 1);
}

// Arguments of llga-bench-onednn for the same layer.
std::string onednn_args(const layer_t &l, int64_t mb, bool bf16, pass_t pass) {
    char b[160];
    const char *what = pass == pass_t::fwd ? "conv"
            : pass == pass_t::bwd_data     ? "conv-bwd-d"
                                           : "conv-bwd-w";
    std::snprintf(b, sizeof(b), "%s %s %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld",
            what, bf16 ? "bf16" : "f32", (long long)mb, (long long)l.ic,
            (long long)l.hw, (long long)l.hw, (long long)l.oc, (long long)l.k,
            (long long)l.k, (long long)l.s, (long long)l.s, (long long)l.pad,
            (long long)l.pad);
    return b;
}

} // namespace

int main(int argc, char **argv) {
    int bad_rows = 0;
    int threads = static_cast<int>(std::thread::hardware_concurrency());
    double min_time = 0.2;
    int rounds = 2;
    bool mb32 = true, cache = true, dw = false, bwd = false;
    std::string filter;
    std::vector<bool> types = {false, true};
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--threads" && i + 1 < argc)
            threads = std::atoi(argv[++i]);
        else if (a == "--min-time" && i + 1 < argc)
            min_time = std::atof(argv[++i]);
        else if (a == "--rounds" && i + 1 < argc)
            rounds = std::max(1, std::atoi(argv[++i]));
        else if (a == "--filter" && i + 1 < argc)
            filter = argv[++i];
        else if (a == "--dw")
            dw = true;
        else if (a == "--bwd")
            bwd = true;
        else if (a == "--no-cache")
            cache = false;
        else if (a == "--no-mb32")
            mb32 = false;
        else if (a == "--dt" && i + 1 < argc)
            types = {std::string(argv[++i]) == "bf16"};
        else {
            std::fprintf(stderr,
                    "usage: %s [--threads N] [--min-time S] [--rounds R] [--dt f32|bf16] "
                    "[--no-mb32] [--no-cache] [--dw] [--bwd] [--filter SUBSTR]\n",
                    argv[0]);
            return 2;
        }
    }
    const bool have_dnnl = llga_bench::onednn_comparator_available();
    std::printf("comparator: %s\n",
            have_dnnl ? "oneDNN 2.6 convolution primitive (llga-bench-onednn: "
                        "NHWC data, weights in its preferred layout)"
                      : "oneDNN 2.6 comparator not built (column skipped)");
    // Each thread count compiles its own kernel (blocking follows it).
    dnnl_graph_set_compiled_partition_cache_capacity(0);
    set_constant_tensor_cache_capacity(engine::kind::cpu, cache ? 4096 : 0);
    std::vector<int> tcounts = {1};
    if (threads > 1) tcounts.push_back(threads);
    std::vector<llga_bench::peaks_t> peaks;
    for (int t : tcounts) {
        peaks.push_back(llga_bench::measure_peaks(t));
        std::printf("measured peak, %d thread(s): f32 FMA %.1f, bf16 "
                    "vdpbf16ps %.1f, AMX %.1f GFLOP/s\n",
                t, peaks.back().f32, peaks.back().bf16, peaks.back().amx);
    }
    std::vector<pass_t> passes = {pass_t::fwd};
    if (bwd) {
        passes = {pass_t::bwd_data, pass_t::bwd_weights};
        types = {false};
    }
    for (pass_t pass : passes)
    for (bool bf16 : types)
        for (int64_t mb : {int64_t(1), int64_t(32)}) {
            if (mb == 32 && !mb32) continue;
            if (pass == pass_t::fwd)
                std::printf("\n%s mb%lld, NHWC, constant XIO weights (cache "
                            "%s), GFLOP/s\n",
                        bf16 ? "bf16" : "f32", static_cast<long long>(mb),
                        cache ? "on" : "off");
            else
                std::printf("\nf32 mb%lld %s, NHWC, XIO weights, GFLOP/s\n",
                        static_cast<long long>(mb), pass_name(pass));
            std::printf("%-26s %8s", "layer", "GFLOP");
            for (int t : tcounts) {
                std::printf(" %7dT %4s", t, "%pk");
                if (have_dnnl) std::printf(" %5dT-1D %6s", t, "vs 1D");
            }
            std::printf("  kernel\n");
            std::vector<double> logsum(tcounts.size(), 0.0);
            std::vector<double> logd(tcounts.size(), 0.0);
            std::vector<int> nd(tcounts.size(), 0);
            int rows = 0;
            std::vector<layer_t> layers(std::begin(k_layers), std::end(k_layers));
            if (dw) layers.assign(std::begin(k_dw_layers), std::end(k_dw_layers));
            for (const layer_t &l : layers) {
                if (mb == 32 && !l.mb32) continue;
                if (!filter.empty()
                        && std::string(l.name).find(filter) == std::string::npos)
                    continue;
                std::printf("%-26s %8.3f", l.name, gflop(l, mb));
                std::string kname;
                int bad = 0;
                for (size_t ti = 0; ti < tcounts.size(); ++ti) {
                    tbb::global_control gc(
                            tbb::global_control::max_allowed_parallelism,
                            tcounts[ti]);
                    conv_run_t r(l, mb, bf16, pass);
                    // Rounds alternate llga and oneDNN, each keeping its
                    // best (the machine's speed drifts over seconds).
                    double ms = 1e30, dg = -1;
                    for (int round = 0; round < rounds; ++round) {
                        ms = std::min(ms, time_best(r, min_time));
                        if (have_dnnl && l.groups == 1)
                            dg = std::max(dg,
                                    llga_bench::onednn_gflops(
                                            onednn_args(l, mb, bf16, pass),
                                            tcounts[ti], min_time));
                    }
                    const double gf = gflop(l, mb) / (ms * 1e-3);
                    logsum[ti] += std::log(gf);
                    std::string kn = kernel_of(r);
                    const llga_bench::peaks_t &pk = peaks[ti];
                    // bf16 rows run on f32 FMAs (staged) where the host
                    // has no vdpbf16ps: rated against the FMA peak.
                    const double peak = !bf16 || pk.bf16 <= 0 ? pk.f32
                            : kn.find("amx") != std::string::npos ? pk.amx
                                                                : pk.bf16;
                    std::printf(" %8.1f %4.0f", gf,
                            peak > 0 ? 100.0 * gf / peak : 0.0);
                    if (have_dnnl) {
                        if (dg > 0) {
                            std::printf(" %9.1f %5.2fx", dg, gf / dg);
                            logd[ti] += std::log(gf / dg);
                            ++nd[ti];
                        } else {
                            std::printf(" %9s %6s", "-", "-");
                        }
                    }
                    std::fflush(stdout);
                    if (ti == 0) {
                        kname = kn;
                        bad = r.check(llga_bench::k_check_samples);
                    }
                }
                if (bad) ++bad_rows;
                std::printf("  %s%s\n", kname.c_str(),
                        bad ? ("  WRONG: " + std::to_string(bad) + " of "
                                + std::to_string(llga_bench::k_check_samples)
                                + " sampled outputs")
                                        .c_str()
                            : "");
                ++rows;
            }
            std::printf("%-26s %8s", "geomean", "");
            for (size_t ti = 0; ti < logsum.size(); ++ti) {
                std::printf(" %8.1f %4s", std::exp(logsum[ti] / std::max(rows, 1)),
                        "");
                // No comparator rows (oneDNN 2.6 has no bf16 convolution
                // without AVX512-BF16): "-" rather than a ratio of 0.
                if (have_dnnl && nd[ti])
                    std::printf(" %9s %5.2fx", "", std::exp(logd[ti] / nd[ti]));
                else if (have_dnnl)
                    std::printf(" %9s %6s", "", "-");
            }
            std::printf("\n");
        }
    return llga_bench::report_checks(bad_rows, "plain loops");
}
