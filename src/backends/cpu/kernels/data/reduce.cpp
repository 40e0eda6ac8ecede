// SPDX-License-Identifier: Apache-2.0
// backends/cpu/kernels/data/reduce.cpp — the Reduce* family (see reduce.hpp):
// dims split into kept and reduced lists, then one of two loops (a block
// of outputs along a kept innermost dim, or one output at a time),
// instantiated per reduction so the inner loops carry no switch; f32 reads
// the source in place (run), bf16/f16 (run_half) widen it tile by tile
// into an L1 buffer and narrow the results, around the same per-output
// double arithmetic in the same order.
#include "backends/cpu/kernels/data/reduce.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "backends/cpu/kernels/common/convert_rows.hpp"
#include "backends/cpu/kernels/kernel_util.hpp"
#include "base/parallel.hpp"
#include "base/status.hpp"
#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ir/shape.hpp"

namespace llga {
namespace cpu {
namespace reduce {

namespace {

// Source elements one task reads at least.
constexpr int64_t k_task_elems = 32768;

// 16 bits: source values widened per step (16 KB of f32, in L1), and
// outputs narrowed per step.
constexpr int64_t k_half_tile = 4096;
constexpr int64_t k_half_out = 1024;

enum class red_t { sum, mean, max, min, prod, l1, l2 };

struct dims_list_t {
    std::vector<int64_t> n, s; // sizes and source strides, outermost first
    int64_t count() const {
        int64_t c = 1;
        for (int64_t v : n)
            c *= v;
        return c;
    }
};

struct layout_t {
    red_t kind = red_t::sum;
    int in = -1, out = -1;
    dims_list_t kept, red;
    // The reduced dims split once for walk_reduced: all but the innermost,
    // and the innermost's size and stride (1 and 0 when nothing reduces).
    dims_list_t red_outer;
    int64_t red_n = 1, red_s = 0;
    int64_t nr = 1; // reduced elements per output
    data_type_t dt = dnnl_f32; // of src and dst (one type variable)
    std::string name;
};

// Source offset of flat index `i` of a dims list.
int64_t offset_of(const dims_list_t &d, int64_t i) {
    int64_t off = 0;
    for (size_t k = d.n.size(); k-- > 0;) {
        off += (i % d.n[k]) * d.s[k];
        i /= d.n[k];
    }
    return off;
}

template <red_t K>
inline double init() {
    const double inf = std::numeric_limits<double>::infinity();
    return K == red_t::prod ? 1.0 : K == red_t::max ? -inf
            : K == red_t::min                      ? inf
                                                   : 0.0;
}

template <red_t K>
inline double step(double acc, double x) {
    switch (K) {
        case red_t::l1: return acc + std::fabs(x);
        case red_t::l2: return acc + x * x;
        case red_t::max: return std::max(acc, x);
        case red_t::min: return std::min(acc, x);
        case red_t::prod: return acc * x;
        default: return acc + x;
    }
}

template <red_t K>
inline float finish(double acc, bool nan, int64_t nr) {
    if (K == red_t::l2) acc = std::sqrt(acc);
    if (K == red_t::mean) acc /= static_cast<double>(nr);
    if (nan) acc = std::numeric_limits<double>::quiet_NaN();
    return static_cast<float>(acc);
}

// Calls f(offset) for every reduced element of a slice, in row-major
// order: the outer reduced dims by flat index, the innermost as a loop.
template <typename F>
void walk_reduced(const layout_t &l, F f) {
    const int64_t n_out = l.red_outer.count();
    for (int64_t r = 0; r < n_out; ++r) {
        const int64_t base = offset_of(l.red_outer, r);
        for (int64_t i = 0; i < l.red_n; ++i)
            f(base + i * l.red_s);
    }
}

// One reduced element for each of B outputs side by side (x[j * sb]):
// the step in double, and for max/min a NaN noted in nan[j]. AVX2 (the
// kernel's level in kernels.def; no FMA, nothing to contract): four
// outputs per vector, the same operations (std::max/min as vmaxpd/vminpd,
// whose NaN and equal-operand rules are theirs) as one at a time.
template <red_t K>
__attribute__((target("avx2"))) void block_step(const float *x, int64_t sb,
        int64_t B, double *acc, double *nan) {
    const bool track_nan = K == red_t::max || K == red_t::min;
    for (int64_t j = 0; j < B; ++j) {
        const double v = x[j * sb];
        if (track_nan) nan[j] = v != v ? 1.0 : nan[j];
        acc[j] = step<K>(acc[j], v);
    }
}

template <red_t K>
void run(const layout_t &l, const float *x, float *y) {
    const bool track_nan = K == red_t::max || K == red_t::min;
    const int nk = static_cast<int>(l.kept.n.size());
    const bool block = nk > 0 && l.kept.n.back() > 1 && !l.red.n.empty();
    if (!block) {
        // One output at a time.
        const int64_t nout = l.kept.count();
        const int64_t grain = std::max<int64_t>(1, k_task_elems / l.nr);
        parallel_for(nout, grain, [&](int64_t b, int64_t e) {
            for (int64_t o = b; o < e; ++o) {
                const float *xs = x + offset_of(l.kept, o);
                double acc = init<K>();
                bool nan = false;
                walk_reduced(l, [&](int64_t off) {
                    const double v = xs[off];
                    if (track_nan) nan = nan || v != v;
                    acc = step<K>(acc, v);
                });
                y[o] = finish<K>(acc, nan, l.nr);
            }
        });
        return;
    }
    // Outputs along the innermost kept dim accumulate side by side.
    dims_list_t outer = l.kept;
    const int64_t B = outer.n.back(), sb = outer.s.back();
    outer.n.pop_back();
    outer.s.pop_back();
    const int64_t grain = std::max<int64_t>(1, k_task_elems / (B * l.nr));
    parallel_for(outer.count(), grain, [&](int64_t b, int64_t e) {
        std::vector<double> acc(static_cast<size_t>(B));
        // Max/min: whether a NaN was seen, as a double (1 or 0) so that
        // the loop over j stays one type and vectorises.
        std::vector<double> nan(track_nan ? static_cast<size_t>(B) : 0);
        for (int64_t o = b; o < e; ++o) {
            const float *xs = x + offset_of(outer, o);
            std::fill(acc.begin(), acc.end(), init<K>());
            std::fill(nan.begin(), nan.end(), 0.0);
            walk_reduced(l, [&](int64_t off) {
                block_step<K>(xs + off, sb, B, acc.data(), nan.data());
            });
            float *yr = y + o * B;
            for (int64_t j = 0; j < B; ++j)
                yr[j] = finish<K>(acc[static_cast<size_t>(j)],
                        track_nan && nan[static_cast<size_t>(j)] != 0.0, l.nr);
        }
    });
}

// dst[r * cols + c] = f32(src[r * rs + c * cs]): one vector run when the
// rows are contiguous and back to back, as they often are in a tile.
void widen_tile(const uint16_t *src, data_type_t dt, int64_t rows,
        int64_t cols, int64_t rs, int64_t cs, float *dst) {
    if (cs == 1 && (rs == cols || rows == 1))
        common::widen_matrix(src, dt, 1, rows * cols, 0, 1, dst);
    else
        common::widen_matrix(src, dt, rows, cols, rs, cs, dst);
}

// run() on bf16/f16 data: the same per-output accumulation (each output's
// reduced elements in row-major order, in double), on source tiles
// widened into an f32 buffer; results are narrowed k_half_out at a time.
template <red_t K>
void run_half(const layout_t &l, const uint16_t *x, uint16_t *y) {
    const bool track_nan = K == red_t::max || K == red_t::min;
    const int nk = static_cast<int>(l.kept.n.size());
    const bool block = nk > 0 && l.kept.n.back() > 1 && !l.red.n.empty();
    const int64_t n_red_outer = l.red_outer.count();
    if (!block) {
        // One output at a time; its innermost reduced run widened in
        // pieces of k_half_tile.
        const int64_t nout = l.kept.count();
        const int64_t grain = std::max<int64_t>(1, k_task_elems / l.nr);
        const int64_t it = std::min(l.red_n, k_half_tile);
        parallel_for(nout, grain, [&](int64_t b, int64_t e) {
            std::vector<float> xf(static_cast<size_t>(it)),
                    yf(static_cast<size_t>(std::min(e - b, k_half_out)));
            for (int64_t o0 = b; o0 < e; o0 += k_half_out) {
                const int64_t on = std::min(k_half_out, e - o0);
                for (int64_t o = o0; o < o0 + on; ++o) {
                    const uint16_t *xs = x + offset_of(l.kept, o);
                    double acc = init<K>();
                    bool nan = false;
                    for (int64_t r = 0; r < n_red_outer; ++r) {
                        const uint16_t *xr = xs + offset_of(l.red_outer, r);
                        for (int64_t i0 = 0; i0 < l.red_n; i0 += it) {
                            const int64_t iw = std::min(it, l.red_n - i0);
                            common::widen_matrix(xr + i0 * l.red_s, l.dt, 1, iw,
                                    0, l.red_s, xf.data());
                            for (int64_t i = 0; i < iw; ++i) {
                                const double v = xf[static_cast<size_t>(i)];
                                if (track_nan) nan = nan || v != v;
                                acc = step<K>(acc, v);
                            }
                        }
                    }
                    yf[static_cast<size_t>(o - o0)] = finish<K>(acc, nan, l.nr);
                }
                common::narrow_row(yf.data(), on, y + o0, l.dt);
            }
        });
        return;
    }
    // Outputs along the innermost kept dim accumulate side by side, jt of
    // them per tile against it values of the innermost reduced run. The
    // tile is widened with the unit-stride side as its rows (vector
    // conversions): along the outputs (buffer [i][j]) unless only the
    // reduced run is contiguous (buffer [j][i]).
    dims_list_t outer = l.kept;
    const int64_t B = outer.n.back(), sb = outer.s.back();
    outer.n.pop_back();
    outer.s.pop_back();
    const bool by_output = l.red_s == 1 && sb != 1;
    int64_t jt, it;
    if (by_output) {
        it = std::min(l.red_n, k_half_tile);
        jt = std::min(B, std::max<int64_t>(1, k_half_tile / it));
    } else {
        jt = std::min(B, k_half_tile);
        it = std::min(l.red_n, std::max<int64_t>(1, k_half_tile / jt));
    }
    const int64_t grain = std::max<int64_t>(1, k_task_elems / (B * l.nr));
    parallel_for(outer.count(), grain, [&](int64_t b, int64_t e) {
        std::vector<double> acc(static_cast<size_t>(B));
        std::vector<double> nan(track_nan ? static_cast<size_t>(B) : 0); // 1: seen
        std::vector<float> xf(static_cast<size_t>(jt * it)),
                yf(static_cast<size_t>(std::min(B, k_half_out)));
        float *pf = xf.data();
        for (int64_t o = b; o < e; ++o) {
            const uint16_t *xs = x + offset_of(outer, o);
            std::fill(acc.begin(), acc.end(), init<K>());
            std::fill(nan.begin(), nan.end(), 0.0);
            for (int64_t j0 = 0; j0 < B; j0 += jt) {
                const int64_t jw = std::min(jt, B - j0);
                double *pa = acc.data() + j0;
                double *pn = track_nan ? nan.data() + j0 : nullptr;
                for (int64_t r = 0; r < n_red_outer; ++r) {
                    const uint16_t *xr
                            = xs + offset_of(l.red_outer, r) + j0 * sb;
                    for (int64_t i0 = 0; i0 < l.red_n; i0 += it) {
                        const int64_t iw = std::min(it, l.red_n - i0);
                        const uint16_t *xt = xr + i0 * l.red_s;
                        // Each output's values in i order either way.
                        if (by_output) { // tile [j][i]
                            widen_tile(xt, l.dt, jw, iw, sb, 1, pf);
                            for (int64_t i = 0; i < iw; ++i)
                                block_step<K>(pf + i, iw, jw, pa, pn);
                            continue;
                        }
                        widen_tile(xt, l.dt, iw, jw, l.red_s, sb, pf);
                        for (int64_t i = 0; i < iw; ++i) // tile [i][j]
                            block_step<K>(pf + i * jw, 1, jw, pa, pn);
                    }
                }
            }
            uint16_t *yr = y + o * B;
            for (int64_t j0 = 0; j0 < B; j0 += k_half_out) {
                const int64_t jw = std::min(k_half_out, B - j0);
                for (int64_t j = 0; j < jw; ++j) {
                    const size_t k = static_cast<size_t>(j0 + j);
                    yf[static_cast<size_t>(j)]
                            = finish<K>(acc[k], track_nan && nan[k] != 0.0, l.nr);
                }
                common::narrow_row(yf.data(), jw, yr + j0, l.dt);
            }
        }
    });
}

class reduce_kernel_t : public compiler::kernel_t {
public:
    explicit reduce_kernel_t(layout_t l) : l_(std::move(l)) {}
    const char *name() const override { return l_.name.c_str(); }
    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        if (l_.dt == dnnl_f32)
            dispatch(static_cast<const float *>(ctx.inputs[l_.in]),
                    static_cast<float *>(ctx.outputs[l_.out]));
        else
            dispatch(static_cast<const uint16_t *>(ctx.inputs[l_.in]),
                    static_cast<uint16_t *>(ctx.outputs[l_.out]));
        return dnnl_success;
    }

private:
    template <red_t K>
    void go(const float *x, float *y) const { run<K>(l_, x, y); }
    template <red_t K>
    void go(const uint16_t *x, uint16_t *y) const { run_half<K>(l_, x, y); }
    template <typename T>
    void dispatch(const T *x, T *y) const {
        switch (l_.kind) {
            case red_t::sum: go<red_t::sum>(x, y); break;
            case red_t::mean: go<red_t::mean>(x, y); break;
            case red_t::max: go<red_t::max>(x, y); break;
            case red_t::min: go<red_t::min>(x, y); break;
            case red_t::prod: go<red_t::prod>(x, y); break;
            case red_t::l1: go<red_t::l1>(x, y); break;
            case red_t::l2: go<red_t::l2>(x, y); break;
        }
    }

    layout_t l_;
};

bool kind_of(op_kind_t k, red_t *r, const char **name) {
    switch (k) {
        case dnnl_graph_op_reduce_sum: *r = red_t::sum; *name = "sum"; break;
        case dnnl_graph_op_reduce_mean: *r = red_t::mean; *name = "mean"; break;
        case dnnl_graph_op_reduce_max: *r = red_t::max; *name = "max"; break;
        case dnnl_graph_op_reduce_min: *r = red_t::min; *name = "min"; break;
        case dnnl_graph_op_reduce_prod: *r = red_t::prod; *name = "prod"; break;
        case dnnl_graph_op_reduce_l1: *r = red_t::l1; *name = "l1"; break;
        case dnnl_graph_op_reduce_l2: *r = red_t::l2; *name = "l2"; break;
        default: return false;
    }
    return true;
}

bool analyse(const compiler::plan_t &plan, layout_t &l, std::string *why) {
    const ir::op_t *op = compiler::single_op(plan, why);
    if (!op) return false;
    const char *kname = nullptr;
    if (!kind_of(op->kind, &l.kind, &kname))
        return decline(why, "not a Reduce op");
    if (op->inputs.size() != 1 || op->outputs.size() != 1)
        return decline(why, "only the axes-attribute form (one input)");
    const logical_tensor_t &x = op->inputs[0], &y = op->outputs[0];
    // One type variable binds src and dst: f32, or bf16/f16 widened per
    // tile (exact) and rounded once per output, as the reference stores.
    if (x.data_type != y.data_type)
        return decline(why, "src and dst types differ (one type variable)");
    l.dt = x.data_type;
    if (l.dt != dnnl_f32 && l.dt != dnnl_bf16 && l.dt != dnnl_f16)
        return decline(why, "only f32, bf16 and f16");
    if (!ir::is_dense(y)) return decline(why, "dst must be dense row-major");
    const int r = x.ndims;
    std::vector<bool> mask(static_cast<size_t>(r), false);
    for (int64_t v : op->get_s64s(dnnl_graph_op_attr_axes)) {
        int64_t a;
        if (!ir::normalize_axis(v, r, a) || mask[static_cast<size_t>(a)])
            return decline(why, "bad axes");
        mask[static_cast<size_t>(a)] = true;
    }
    for (int d = 0; d < r; ++d) {
        if (x.dims[d] == 1) continue; // size-1 dims change nothing
        dims_list_t &to = mask[static_cast<size_t>(d)] ? l.red : l.kept;
        to.n.push_back(x.dims[d]);
        to.s.push_back(x.layout.strides[d]);
    }
    if (ir::nelems(x) == 0) return decline(why, "empty source");
    // Neighbouring reduced dims that are one run in memory (the outer's
    // stride is the inner's extent times its stride) become one dim: the
    // same elements in the same order, in longer inner runs (spatial sums
    // of NCHW and NHWC tensors walk one run per output).
    for (size_t k = l.red.n.size(); k-- > 1;)
        if (l.red.s[k - 1] == l.red.n[k] * l.red.s[k]) {
            l.red.n[k - 1] *= l.red.n[k];
            l.red.s[k - 1] = l.red.s[k];
            l.red.n.erase(l.red.n.begin() + static_cast<int64_t>(k));
            l.red.s.erase(l.red.s.begin() + static_cast<int64_t>(k));
        }
    l.red_outer = l.red;
    if (!l.red.n.empty()) {
        l.red_n = l.red.n.back();
        l.red_s = l.red.s.back();
        l.red_outer.n.pop_back();
        l.red_outer.s.pop_back();
    }
    l.nr = 1;
    for (int d = 0; d < r; ++d)
        if (mask[static_cast<size_t>(d)]) l.nr *= x.dims[d];
    if (l.kept.count() != ir::nelems(y))
        return decline(why, "output size does not match the kept dims");
    l.in = compiler::find_port(plan.inputs, x.id);
    l.out = compiler::find_port(plan.outputs, y.id);
    if (l.in < 0 || l.out < 0) return decline(why, "ports not found");
    l.name = std::string("reduce_") + kname + "_" + ir::dtype_name(l.dt);
    return true;
}

} // namespace

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why) {
    return accepts_by<layout_t>(plan, why, analyse);
}

status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    return create_by<layout_t, reduce_kernel_t>(plan, "reduce", analyse, out);
}

} // namespace reduce
} // namespace cpu
} // namespace llga
