// SPDX-License-Identifier: Apache-2.0
// tests/unit/backends/cpu/conv/cpu_conv_test_util.hpp — the shared harness of
// the JIT Convolution tests (cpu_conv_test.cpp, cpu_conv_brg_test.cpp): the
// CpuConv fixture (compiled-partition cache off, constant cache on), a case
// description, running a case through the public C++ API against a plain-loop
// convolution written here, the kernel-name checks and the random case
// generator.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/cpu/isa.hpp"
#include "cpu_test_isa.hpp"
#include "ir/dtype.hpp"
#include "oneapi/dnnl/dnnl_graph.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace conv_test {

using namespace dnnl::graph;
using ldt = logical_tensor::data_type;
using ldims = logical_tensor::dims;
using prop = logical_tensor::property_type;

inline std::vector<isa_t> levels() {
    return test_isa::host_levels({isa_t::avx2, isa_t::avx512_core, isa_t::avx512_core_bf16,
                 isa_t::avx512_core_amx});
}

using test_isa::isa_guard_t;

class CpuConv : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        rt::start_threading();
        // The cpu backend's ISA cap is not part of the compiled-partition
        // cache key: without this a level would reuse another's kernel.
        dnnl_graph_get_compiled_partition_cache_capacity(&saved_cp_);
        dnnl_graph_set_compiled_partition_cache_capacity(0);
        // Constant weights are prepacked only when the constant cache can
        // hold them (it is off by default).
        saved_const_mb_ = get_constant_tensor_cache_capacity(
                dnnl::engine::kind::cpu);
        set_constant_tensor_cache_capacity(dnnl::engine::kind::cpu, 1024);
    }
    static void TearDownTestSuite() {
        dnnl_graph_set_compiled_partition_cache_capacity(saved_cp_);
        set_constant_tensor_cache_capacity(
                dnnl::engine::kind::cpu, saved_const_mb_);
    }
    static inline int saved_cp_ = 0;
    static inline size_t saved_const_mb_ = 0;
};


struct conv_case_t {
    int nsp = 2;
    int64_t n = 1, g = 1, icg = 1, ocg = 1;
    int64_t in[3] = {1, 1, 1}, k[3] = {1, 1, 1}, s[3] = {1, 1, 1},
            d[3] = {1, 1, 1}, pb[3] = {0, 0, 0}, pe[3] = {0, 0, 0};
    bool nxc = true, xio = true, bias = false, constant = false;
    bool pad_strides = false; // src rows/planes padded (odd strides)
    bool same_upper = false;  // auto_pad SAME_UPPER
    bool bf16 = false, dst_f32 = false;

    int64_t ic() const { return g * icg; }
    int64_t oc() const { return g * ocg; }
    int64_t out(int i) const {
        if (same_upper) return (in[i] + s[i] - 1) / s[i];
        return (in[i] + pb[i] + pe[i] - (k[i] - 1) * d[i] - 1) / s[i] + 1;
    }
    // Pads the op actually uses (SAME_UPPER: the extra one at the end).
    int64_t pad_begin(int i) const {
        if (!same_upper) return pb[i];
        const int64_t total = std::max<int64_t>(
                (out(i) - 1) * s[i] + (k[i] - 1) * d[i] + 1 - in[i], 0);
        return total / 2;
    }
    std::string str() const {
        std::string r = (bf16 ? "bf16" : "f32") + std::string(dst_f32 ? "->f32" : "")
                + " mb" + std::to_string(n) + " g" + std::to_string(g) + " ic"
                + std::to_string(ic()) + " oc" + std::to_string(oc()) + " in";
        for (int i = 0; i < nsp; ++i)
            r += (i ? "x" : "") + std::to_string(in[i]);
        r += " k";
        for (int i = 0; i < nsp; ++i)
            r += (i ? "x" : "") + std::to_string(k[i]);
        r += " s";
        for (int i = 0; i < nsp; ++i)
            r += (i ? "x" : "") + std::to_string(s[i]);
        r += " d";
        for (int i = 0; i < nsp; ++i)
            r += (i ? "x" : "") + std::to_string(d[i]);
        r += " p";
        for (int i = 0; i < nsp; ++i)
            r += (i ? "," : "") + std::to_string(pb[i]) + ":"
                    + std::to_string(pe[i]);
        return r + (nxc ? " NXC" : " NCX") + (xio ? " XIO" : " OIX")
                + (bias ? " bias" : "") + (constant ? " const" : "")
                + (pad_strides ? " padded" : "") + (same_upper ? " SAME" : "");
    }
};

// A data tensor's dims and strides: (n, c, sp...) in NXC or NCX order, the
// channel (NXC) or row (NCX) dimension optionally padded.
inline void data_layout(const conv_case_t &c, int64_t ch, const int64_t *sp,
        bool padded, ldims &dims, ldims &strides) {
    const int r = c.nsp + 2;
    std::vector<int> order; // memory order of logical axes, outer first
    dims.assign(r, 0);
    dims[0] = c.n;
    if (c.nxc) {
        for (int i = 0; i < c.nsp; ++i)
            dims[1 + i] = sp[i];
        dims[r - 1] = ch;
    } else {
        dims[1] = ch;
        for (int i = 0; i < c.nsp; ++i)
            dims[2 + i] = sp[i];
    }
    strides.assign(r, 0);
    int64_t st = 1;
    for (int i = r - 1; i >= 0; --i) {
        strides[i] = st;
        int64_t ext = dims[i];
        if (padded && i == r - 1) ext += 3; // innermost axis padded
        st *= ext;
    }
}

inline size_t span(const ldims &dims, const ldims &strides) {
    size_t m = 1;
    for (size_t i = 0; i < dims.size(); ++i)
        m += static_cast<size_t>((dims[i] - 1) * strides[i]);
    return m;
}

inline int64_t off(const ldims &st, const int64_t *idx) {
    int64_t o = 0;
    for (size_t i = 0; i < st.size(); ++i)
        o += idx[i] * st[i];
    return o;
}

// Values as stored (bf16 rounded) in a float mirror plus the raw buffer.
struct buf_t {
    bool bf16 = false;
    std::vector<float> v;
    std::vector<uint16_t> h;
    void resize(size_t n, bool is_bf16) {
        bf16 = is_bf16;
        v.assign(n, 0.f);
        if (bf16) h.assign(n, 0);
    }
    void set(size_t i, float x) {
        if (bf16) {
            h[i] = ir::f32_to_bf16(x);
            v[i] = ir::bf16_to_f32(h[i]);
        } else {
            v[i] = x;
        }
    }
    void *data() { return bf16 ? static_cast<void *>(h.data()) : v.data(); }
    float get(size_t i) const { return bf16 ? ir::bf16_to_f32(h[i]) : v[i]; }
};

// Data index (n, c, sp...) in the case's logical axis order.
inline void data_index(const conv_case_t &c, int64_t n, int64_t ch,
        const int64_t *sp, int64_t *idx) {
    idx[0] = n;
    if (c.nxc) {
        for (int i = 0; i < c.nsp; ++i)
            idx[1 + i] = sp[i];
        idx[c.nsp + 1] = ch;
    } else {
        idx[1] = ch;
        for (int i = 0; i < c.nsp; ++i)
            idx[2 + i] = sp[i];
    }
}

// Runs the case; returns the kernel name that executed, "" on failure.
inline std::string run_case(const conv_case_t &c, unsigned seed) {
    const std::string what = c.str();
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    const int r = c.nsp + 2;
    int64_t osp[3];
    for (int i = 0; i < c.nsp; ++i)
        osp[i] = c.out(i);
    ldims sd, ss, dd, ds;
    data_layout(c, c.ic(), c.in, c.pad_strides, sd, ss);
    data_layout(c, c.oc(), osp, false, dd, ds);
    ldims wd(r);
    if (c.xio) {
        for (int i = 0; i < c.nsp; ++i)
            wd[i] = c.k[i];
        wd[r - 2] = c.icg;
        wd[r - 1] = c.oc();
    } else {
        wd[0] = c.oc();
        wd[1] = c.icg;
        for (int i = 0; i < c.nsp; ++i)
            wd[2 + i] = c.k[i];
    }
    ldims ws(r);
    int64_t st = 1;
    for (int i = r - 1; i >= 0; --i) {
        ws[i] = st;
        st *= wd[i];
    }
    const ldt dt = c.bf16 ? ldt::bf16 : ldt::f32;
    const ldt odt = c.bf16 && !c.dst_f32 ? ldt::bf16 : ldt::f32;
    logical_tensor src_lt(0, dt, sd, ss);
    logical_tensor wei_lt(1, dt, wd, ws,
            c.constant ? prop::constant : prop::undef);
    logical_tensor bias_lt(2, dt, ldims {c.oc()}, ldims {1});
    logical_tensor dst_lt(3, odt, dd, ds);

    buf_t src, wei, bias, dst;
    src.resize(span(sd, ss), c.bf16);
    wei.resize(span(wd, ws), c.bf16);
    bias.resize(static_cast<size_t>(c.oc()), c.bf16);
    dst.resize(span(dd, ds), odt == ldt::bf16);
    for (size_t i = 0; i < src.v.size(); ++i)
        src.set(i, u(gen));
    for (size_t i = 0; i < wei.v.size(); ++i)
        wei.set(i, u(gen));
    for (size_t i = 0; i < bias.v.size(); ++i)
        bias.set(i, u(gen));

    op conv(0, op::kind::Convolution, {src_lt, wei_lt}, {dst_lt}, "conv");
    if (c.bias)
        conv = op(0, op::kind::Convolution, {src_lt, wei_lt, bias_lt},
                {dst_lt}, "conv");
    auto sp_attr = [&](const int64_t *v) { return ldims(v, v + c.nsp); };
    conv.set_attr<ldims>(op::attr::strides, sp_attr(c.s));
    conv.set_attr<ldims>(op::attr::dilations, sp_attr(c.d));
    conv.set_attr<ldims>(op::attr::pads_begin, sp_attr(c.pb));
    conv.set_attr<ldims>(op::attr::pads_end, sp_attr(c.pe));
    conv.set_attr<int64_t>(op::attr::groups, c.g);
    conv.set_attr<std::string>(op::attr::data_format, c.nxc ? "NXC" : "NCX");
    conv.set_attr<std::string>(op::attr::weights_format, c.xio ? "XIO" : "OIX");
    if (c.same_upper)
        conv.set_attr<std::string>(op::attr::auto_pad, "SAME_UPPER");

    dnnl::engine eng(dnnl::engine::kind::cpu, 0);
    dnnl::stream strm(eng);
    partition p(conv, dnnl::engine::kind::cpu);
    std::vector<logical_tensor> ins = {src_lt, wei_lt};
    if (c.bias) ins.push_back(bias_lt);
    compiled_partition cp = p.compile(ins, {dst_lt}, eng);
    std::vector<tensor> tin = {tensor(src_lt, eng, src.data()),
            tensor(wei_lt, eng, wei.data())};
    if (c.bias) tin.emplace_back(bias_lt, eng, bias.data());
    tensor tout(dst_lt, eng, dst.data());

    // Plain loops in double, plus the magnitude sum for the error bound;
    // computed once per (case, seed) and reused at every ISA level.
    struct expected_t {
        std::vector<double> want, mag;
        std::vector<char> written;
    };
    static std::map<std::string, expected_t> memo;
    const size_t nd = dst.v.size();
    const std::string key = what + "#" + std::to_string(seed);
    const int64_t osz = c.nsp == 1 ? osp[0]
            : c.nsp == 2           ? osp[0] * osp[1]
                                   : osp[0] * osp[1] * osp[2];
    const int64_t ksz = c.nsp == 1 ? c.k[0]
            : c.nsp == 2           ? c.k[0] * c.k[1]
                                   : c.k[0] * c.k[1] * c.k[2];
    if (!memo.count(key)) {
        expected_t &e = memo[key];
        std::vector<double> &want = e.want, &mag = e.mag;
        std::vector<char> &written = e.written;
        want.assign(nd, 0.0);
        mag.assign(nd, 0.0);
        written.assign(nd, 0);
        int64_t o[3] = {0, 0, 0}, kk[3] = {0, 0, 0}, x[3] = {0, 0, 0};
        int64_t idx[5];
        for (int64_t n = 0; n < c.n; ++n)
            for (int64_t oc = 0; oc < c.oc(); ++oc)
                for (int64_t op_ = 0; op_ < osz; ++op_) {
                    int64_t rem = op_;
                    for (int i = c.nsp - 1; i >= 0; --i) {
                        o[i] = rem % osp[i];
                        rem /= osp[i];
                    }
                    const int64_t grp = oc / c.ocg;
                    double acc = c.bias ? bias.get(oc) : 0.0;
                    double m = c.bias ? std::fabs(bias.get(oc)) : 0.0;
                    for (int64_t icl = 0; icl < c.icg; ++icl)
                        for (int64_t kp = 0; kp < ksz; ++kp) {
                            int64_t kr = kp;
                            bool inside = true;
                            for (int i = c.nsp - 1; i >= 0; --i) {
                                kk[i] = kr % c.k[i];
                                kr /= c.k[i];
                                x[i] = o[i] * c.s[i] - c.pad_begin(i)
                                        + kk[i] * c.d[i];
                                inside = inside && x[i] >= 0 && x[i] < c.in[i];
                            }
                            if (!inside) continue;
                            data_index(c, n, grp * c.icg + icl, x, idx);
                            const double xv = src.get(off(ss, idx));
                            int64_t widx[5];
                            if (c.xio) {
                                for (int i = 0; i < c.nsp; ++i)
                                    widx[i] = kk[i];
                                widx[r - 2] = icl;
                                widx[r - 1] = oc;
                            } else {
                                widx[0] = oc;
                                widx[1] = icl;
                                for (int i = 0; i < c.nsp; ++i)
                                    widx[2 + i] = kk[i];
                            }
                            const double wv = wei.get(off(ws, widx));
                            acc += xv * wv;
                            m += std::fabs(xv * wv);
                        }
                    data_index(c, n, oc, o, idx);
                    const int64_t di = off(ds, idx);
                    want[di] = acc;
                    mag[di] = m;
                    written[di] = 1;
                }
    }
    const std::vector<double> &want = memo[key].want, &mag = memo[key].mag;
    const std::vector<char> &written = memo[key].written;

    // Verbose level 1 names the kernel in the exec line.
    std::string kname;
    for (int rep = 0; rep < (c.constant ? 2 : 1); ++rep) {
        std::fill(dst.v.begin(), dst.v.end(), -7.f);
        std::fill(dst.h.begin(), dst.h.end(), uint16_t(0));
        dnnl_set_verbose(1);
        ::testing::internal::CaptureStdout();
        cp.execute(strm, tin, {tout});
        strm.wait();
        const std::string out = ::testing::internal::GetCapturedStdout();
        dnnl_set_verbose(0);
        const std::string tag = ",graph,exec,";
        const size_t at = out.rfind(tag);
        if (at != std::string::npos) {
            // engine,id,kind,ops,formats,tensors,fpmath,<kernel>,backend,ms
            size_t p0 = at + tag.size() - 1;
            for (int f = 0; f < 7; ++f) p0 = out.find(',', p0 + 1);
            const size_t p1 = out.find(',', p0 + 1);
            kname = out.substr(p0 + 1, p1 - p0 - 1);
        }
        const double ulp = std::ldexp(1.0, -24);
        const int64_t K = c.icg * ksz;
        int bad = 0;
        for (size_t i = 0; i < nd; ++i) {
            if (!written[i]) continue;
            const double g = dst.get(i), w = want[i];
            double tol = (K + 4) * ulp * 2 * mag[i] + 1e-30;
            if (odt == ldt::bf16) tol += std::ldexp(std::fabs(w), -7);
            if (!(std::fabs(g - w) <= tol) && bad++ < 5)
                ADD_FAILURE() << what << " [" << kname << "] run " << rep
                              << ": element " << i << " got " << g << " want "
                              << w << " (tol " << tol << ")";
        }
        if (bad) return "";
    }
    return kname;
}

// Kernels that ran, printed at the end of each test (coverage at a glance).
inline std::map<std::string, int> &kernel_counts() {
    static std::map<std::string, int> m;
    return m;
}
inline void print_counts() {
    for (const auto &kv : kernel_counts())
        std::printf("  %4d x %s\n", kv.second, kv.first.c_str());
    kernel_counts().clear();
}

// Checks the kernel family and ISA of a case the JIT must take.
inline void expect_jit(const conv_case_t &c, isa_t isa, const std::string &kname) {
    ++kernel_counts()[kname];
    const bool bf16_ok = isa >= isa_t::avx512_core_bf16;
    if (c.bf16 && !bf16_ok) {
        // Widened to f32 around the f32 convolution (staged.cpp).
        EXPECT_EQ(kname.rfind("staged_f32(conv_", 0), 0u)
                << c.str() << " @" << isa_name(isa) << " ran " << kname;
        return;
    }
    EXPECT_EQ(kname.rfind("conv_", 0), 0u)
            << c.str() << " @" << isa_name(isa) << " ran " << kname;
    EXPECT_NE(kname.find(isa == isa_t::avx2 ? "avx2" : "avx512"),
            std::string::npos)
            << c.str() << " @" << isa_name(isa) << " ran " << kname;
    const bool dw = c.icg == 1 && c.ocg == 1 && c.g > 1;
    if (isa == isa_t::avx512_core_amx && c.bf16 && !dw) {
        EXPECT_NE(kname.find("amx"), std::string::npos)
                << c.str() << " ran " << kname;
    }
}

// A random case whose plain-loop cost stays small.
inline conv_case_t random_case(std::mt19937 &gen, bool bf16) {
    auto pick = [&](std::initializer_list<int64_t> l) {
        return *(l.begin() + gen() % l.size());
    };
    for (;;) {
        conv_case_t c;
        c.bf16 = bf16;
        // The op schema ties dst to the src type ('T').
        c.nsp = pick({1, 2, 2, 2, 2, 3});
        c.n = pick({1, 1, 2, 3});
        const int kind = static_cast<int>(gen() % 6);
        if (kind == 0) { // depthwise
            c.g = pick({1, 3, 8, 17, 32, 67});
            if (c.g == 1) c.g = 2;
        } else if (kind == 1) { // grouped
            c.g = pick({2, 3, 4});
            c.icg = pick({1, 3, 8, 16});
            c.ocg = pick({1, 5, 16, 33});
        } else {
            c.icg = pick({1, 3, 8, 16, 17, 64});
            c.ocg = pick({1, 7, 16, 33, 64, 100});
        }
        const int64_t kmax = c.nsp == 3 ? 3 : 7;
        for (int i = 0; i < c.nsp; ++i) {
            c.k[i] = std::min(kmax, pick({1, 1, 3, 3, 5, 7}));
            c.s[i] = pick({1, 1, 2});
            c.d[i] = pick({1, 1, 1, 2});
            c.pb[i] = pick({0, 0, 1, 2, 3});
            c.pe[i] = pick({0, 1, 2});
            c.in[i] = pick({1, 4, 7, 9, 13, 20}) + (c.nsp == 1 ? 17 : 0);
        }
        if (gen() % 4 == 0) { // dense 1x1: the plain-GEMM path
            for (int i = 0; i < c.nsp; ++i) {
                c.k[i] = c.s[i] = c.d[i] = 1;
                c.pb[i] = c.pe[i] = 0;
            }
        }
        c.nxc = gen() % 3 != 0;
        c.xio = gen() % 2 == 0;
        c.bias = gen() % 2 == 0;
        c.constant = gen() % 2 == 0;
        c.pad_strides = gen() % 5 == 0;
        c.same_upper = gen() % 8 == 0;
        bool ok = true;
        int64_t work = c.n * c.oc() * c.icg;
        for (int i = 0; i < c.nsp; ++i) {
            ok = ok && c.out(i) >= 1
                    && c.in[i] + c.pb[i] + c.pe[i] - (c.k[i] - 1) * c.d[i] >= 1;
            work *= std::max<int64_t>(c.out(i), 1) * c.k[i];
        }
        if (ok && work <= 3000000) return c;
    }
}

// Runs every case at every ISA level the host has (seeded data per case)
// and checks the result and the kernel chosen; prints the kernel counts.
inline void run_cases_at_every_isa(const std::vector<conv_case_t> &cases,
        unsigned seed) {
    const auto lv = levels();
    for (isa_t isa : lv) {
        isa_guard_t g(isa);
        unsigned s = seed;
        int low_bf16 = 0;
        for (const conv_case_t &c : cases) {
            // bf16 below avx512_core_bf16 runs staged through f32: a few
            // cases check that; the rest add nothing the f32 runs do not.
            if (c.bf16 && isa < isa_t::avx512_core_bf16 && ++low_bf16 > 3) {
                ++s;
                continue;
            }
            std::string k;
            try {
                k = run_case(c, ++s);
            } catch (const std::exception &e) {
                ADD_FAILURE() << c.str() << ": " << e.what();
            }
            if (!k.empty()) expect_jit(c, isa, k);
        }
    }
    print_counts();
}

inline void run_random(bool bf16, unsigned seed, int count) {
    if (levels().empty()) GTEST_SKIP() << "no AVX2";
    std::mt19937 gen(seed);
    std::vector<conv_case_t> cases;
    for (int i = 0; i < count; ++i)
        cases.push_back(random_case(gen, bf16));
    run_cases_at_every_isa(cases, seed);
}

} // namespace conv_test
} // namespace cpu
} // namespace llga
