// backends/cpu/kernels/reduce.cpp — the Reduce* family (see reduce.hpp):
// dims split into kept and reduced lists, then one of two loops (a block
// of outputs along a kept innermost dim, or one output at a time),
// instantiated per reduction so the inner loops carry no switch.
#include "backends/cpu/kernels/reduce.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "backends/cpu/kernels/kernel_util.hpp"
#include "base/parallel.hpp"
#include "base/status.hpp"
#include "ir/logical_tensor.hpp"
#include "ir/shape.hpp"

namespace llga {
namespace cpu {
namespace reduce {

namespace {

// Source elements one task reads at least.
constexpr int64_t k_task_elems = 32768;

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
        std::vector<char> nan(track_nan ? static_cast<size_t>(B) : 0);
        for (int64_t o = b; o < e; ++o) {
            const float *xs = x + offset_of(outer, o);
            std::fill(acc.begin(), acc.end(), init<K>());
            std::fill(nan.begin(), nan.end(), 0);
            double *pa = acc.data();
            walk_reduced(l, [&](int64_t off) {
                const float *xr = xs + off;
                for (int64_t j = 0; j < B; ++j) {
                    const double v = xr[j * sb];
                    if (track_nan) nan[static_cast<size_t>(j)] |= v != v;
                    pa[j] = step<K>(pa[j], v);
                }
            });
            float *yr = y + o * B;
            for (int64_t j = 0; j < B; ++j)
                yr[j] = finish<K>(pa[j],
                        track_nan && nan[static_cast<size_t>(j)], l.nr);
        }
    });
}

class reduce_kernel_t : public compiler::kernel_t {
public:
    explicit reduce_kernel_t(layout_t l) : l_(std::move(l)) {}
    const char *name() const override { return l_.name.c_str(); }
    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        const float *x = static_cast<const float *>(ctx.inputs[l_.in]);
        float *y = static_cast<float *>(ctx.outputs[l_.out]);
        switch (l_.kind) {
            case red_t::sum: run<red_t::sum>(l_, x, y); break;
            case red_t::mean: run<red_t::mean>(l_, x, y); break;
            case red_t::max: run<red_t::max>(l_, x, y); break;
            case red_t::min: run<red_t::min>(l_, x, y); break;
            case red_t::prod: run<red_t::prod>(l_, x, y); break;
            case red_t::l1: run<red_t::l1>(l_, x, y); break;
            case red_t::l2: run<red_t::l2>(l_, x, y); break;
        }
        return dnnl_success;
    }

private:
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
    if (x.data_type != dnnl_f32 || y.data_type != dnnl_f32)
        return decline(why, "only f32");
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
    l.name = std::string("reduce_") + kname + "_f32";
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
