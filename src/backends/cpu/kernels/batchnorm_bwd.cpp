// backends/cpu/kernels/batchnorm_bwd.cpp — BatchNormTrainingBackward (see
// batchnorm_bwd.hpp): the non-channel dims merged into rows and an inner
// run, the per-channel sums threaded over channels (or channel blocks),
// then diff_src threaded over rows, channels and runs.
#include "backends/cpu/kernels/batchnorm_bwd.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "backends/cpu/kernels/kernel_util.hpp"
#include "base/parallel.hpp"
#include "base/status.hpp"
#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"
#include "runtime/threading/threading.hpp"

namespace llga {
namespace cpu {
namespace batchnorm_bwd {

namespace {

// Channel-last sums run on whole pixels unless that leaves threads idle;
// then on channel blocks, a multiple of this many and at least twice it
// (narrower blocks read only part of each pixel's cache lines, which
// costs more than the idle threads). The elements one diff_src task
// writes at least.
constexpr int64_t k_channel_step = 16;
constexpr int64_t k_task_elems = 16384;

// The three data tensors: src, diff_dst, diff_src.
enum { k_src, k_dd, k_ds, k_data };
// The per-channel vectors: mean, variance, gamma, diff_gamma, diff_beta.
enum { k_mean, k_var, k_gamma, k_dg, k_db, k_vecs };

struct layout_t {
    int in[k_data + k_vecs];  // ports of src, diff_dst, then the vectors
    int out[k_data + k_vecs]; // ports of diff_src, diff_gamma, diff_beta
    int64_t c = 0, m = 0;     // channels, elements per channel
    // The non-channel dims in the reference's (row-major) order, size-1
    // dims dropped and neighbours merged where all three tensors allow:
    // dims [0, nd - 1) make the rows, dim nd - 1 the inner run.
    int nd = 0;
    int64_t dims[DNNL_MAX_NDIMS];
    int64_t st[k_data][DNNL_MAX_NDIMS];
    int64_t cst[k_data];   // channel strides
    int64_t vst[k_vecs];   // strides of the per-channel vectors
    bool channels = false; // unit channel stride on all three
    int64_t sum_cb = 1;    // channels one sums task carries (1 for planes)
    double eps = 0;
};

// What diff_src needs of each channel, from the reference's expressions.
struct per_channel_t {
    std::vector<double> mu, inv, gi, mean_dy, sum_dy_xh;
};

// Element offsets of row r in the three tensors.
void row_offsets(const layout_t &l, int64_t r, int64_t *off) {
    for (int k = 0; k < k_data; ++k)
        off[k] = 0;
    for (int j = l.nd - 2; j >= 0; --j) {
        const int64_t i = r % l.dims[j];
        r /= l.dims[j];
        for (int k = 0; k < k_data; ++k)
            off[k] += i * l.st[k][j];
    }
}

// Channels [c0, c0 + cw) (cw = 1 unless channel-last): sum of diff_dst and
// of diff_dst times the normalized source, rows then the inner run
// ascending, as the reference walks them.
template <bool Channels>
void channel_sums(const layout_t &l, const float *x, const float *dy,
        const per_channel_t &pc, int64_t c0, int64_t cw_, double *sdy,
        double *sdx) {
    const int64_t cw = Channels ? cw_ : 1;
    const int64_t rows = l.m / l.dims[l.nd - 1], run = l.dims[l.nd - 1];
    const int64_t xi = l.st[k_src][l.nd - 1], yi = l.st[k_dd][l.nd - 1];
    const double *mu = pc.mu.data() + c0, *inv = pc.inv.data() + c0;
    for (int64_t c = 0; c < cw; ++c)
        sdy[c] = sdx[c] = 0.0;
    int64_t off[k_data];
    for (int64_t r = 0; r < rows; ++r) {
        row_offsets(l, r, off);
        const float *xr = x + off[k_src] + c0 * l.cst[k_src];
        const float *yr = dy + off[k_dd] + c0 * l.cst[k_dd];
        for (int64_t i = 0; i < run; ++i) {
            const float *px = xr + i * xi, *py = yr + i * yi;
            for (int64_t c = 0; c < cw; ++c) {
                const double g = py[c];
                sdy[c] += g;
                sdx[c] += g * (double(px[c]) - mu[c]) * inv[c];
            }
        }
    }
}

// diff_src of channels [c0, c0 + cw) over inner positions [i0, i1) of
// row r: g inv (dy - sum_dy / m - xh sum_dy_xh / m), with g inv and
// sum_dy / m formed once per channel (the same values the reference's
// left-to-right evaluation forms).
template <bool Channels>
void diff_src_run(const layout_t &l, const float *x, const float *dy,
        float *ds, const per_channel_t &pc, int64_t r, int64_t c0,
        int64_t cw_, int64_t i0, int64_t i1) {
    const int64_t cw = Channels ? cw_ : 1;
    const int last = l.nd - 1;
    const double md = static_cast<double>(l.m);
    const double *mu = pc.mu.data() + c0, *inv = pc.inv.data() + c0,
                 *gi = pc.gi.data() + c0, *mdy = pc.mean_dy.data() + c0,
                 *sdx = pc.sum_dy_xh.data() + c0;
    int64_t off[k_data];
    row_offsets(l, r, off);
    const float *xr = x + off[k_src] + c0 * l.cst[k_src];
    const float *yr = dy + off[k_dd] + c0 * l.cst[k_dd];
    float *dr = ds + off[k_ds] + c0 * l.cst[k_ds];
    for (int64_t i = i0; i < i1; ++i) {
        const float *px = xr + i * l.st[k_src][last];
        const float *py = yr + i * l.st[k_dd][last];
        float *pd = dr + i * l.st[k_ds][last];
        for (int64_t c = 0; c < cw; ++c) {
            const double xh = (double(px[c]) - mu[c]) * inv[c];
            pd[c] = static_cast<float>(
                    gi[c] * (double(py[c]) - mdy[c] - xh * sdx[c] / md));
        }
    }
}

class bn_bwd_kernel_t : public compiler::kernel_t {
public:
    explicit bn_bwd_kernel_t(layout_t l) : l_(l) {}
    const char *name() const override {
        return l_.channels ? "batchnorm_backward_channels_f32"
                           : "batchnorm_backward_f32";
    }
    status_t execute(const compiler::exec_ctx_t &ctx) const override {
        const layout_t &l = l_;
        auto in = [&](int k) {
            return l.in[k] < 0
                    ? nullptr
                    : static_cast<const float *>(ctx.inputs[l.in[k]]);
        };
        auto out = [&](int k) {
            return l.out[k] < 0 ? nullptr
                                : static_cast<float *>(ctx.outputs[l.out[k]]);
        };
        const float *x = in(k_src), *dy = in(k_dd);
        const float *mean = in(k_data + k_mean), *var = in(k_data + k_var),
                    *gamma = in(k_data + k_gamma);
        float *ds = out(k_ds), *dg = out(k_data + k_dg),
              *db = out(k_data + k_db);
        const size_t C = static_cast<size_t>(l.c);
        per_channel_t pc;
        pc.mu.resize(C);
        pc.inv.resize(C);
        pc.gi.resize(C);
        pc.mean_dy.resize(C);
        pc.sum_dy_xh.resize(C);
        for (int64_t c = 0; c < l.c; ++c) {
            const size_t k = static_cast<size_t>(c);
            pc.mu[k] = mean[c * l.vst[k_mean]];
            pc.inv[k] = 1.0 / std::sqrt(double(var[c * l.vst[k_var]]) + l.eps);
            const double g = gamma ? double(gamma[c * l.vst[k_gamma]]) : 1.0;
            pc.gi[k] = g * pc.inv[k];
        }
        const int64_t cb = l.sum_cb, groups = div_up(l.c, cb);
        const double md = static_cast<double>(l.m);
        parallel_for(groups, 1, [&](int64_t b, int64_t e) {
            std::vector<double> sdy(static_cast<size_t>(cb)), sdx(sdy);
            double *py = sdy.data(), *px = sdx.data();
            for (int64_t t = b; t < e; ++t) {
                const int64_t c0 = t * cb, cw = std::min(cb, l.c - c0);
                if (l.channels)
                    channel_sums<true>(l, x, dy, pc, c0, cw, py, px);
                else
                    channel_sums<false>(l, x, dy, pc, c0, cw, py, px);
                for (int64_t c = 0; c < cw; ++c) {
                    const size_t k = static_cast<size_t>(c0 + c);
                    const double sy = sdy[static_cast<size_t>(c)];
                    const double sx = sdx[static_cast<size_t>(c)];
                    pc.mean_dy[k] = sy / md;
                    pc.sum_dy_xh[k] = sx;
                    if (dg) dg[(c0 + c) * l.vst[k_dg]] = static_cast<float>(sx);
                    if (db) db[(c0 + c) * l.vst[k_db]] = static_cast<float>(sy);
                }
            }
        });
        // diff_src: units of (row, channel, piece of the inner run), all
        // channels at once for channel-last tensors.
        const int64_t run = l.dims[l.nd - 1], rows = l.m / run;
        const int64_t cw = l.channels ? l.c : 1, chans = l.channels ? 1 : l.c;
        const int64_t piece = std::max<int64_t>(1, k_task_elems / cw);
        const int64_t pieces = div_up(run, piece);
        const int64_t unit = std::min(run, piece) * cw;
        const int64_t grain = std::max<int64_t>(1, k_task_elems / unit);
        parallel_for(rows * chans * pieces, grain, [&](int64_t b, int64_t e) {
            for (int64_t u = b; u < e; ++u) {
                const int64_t p = u % pieces, c0 = (u / pieces) % chans;
                const int64_t r = u / (pieces * chans);
                const int64_t i0 = p * piece, i1 = std::min(run, i0 + piece);
                if (l.channels)
                    diff_src_run<true>(l, x, dy, ds, pc, r, 0, cw, i0, i1);
                else
                    diff_src_run<false>(l, x, dy, ds, pc, r, c0, 1, i0, i1);
            }
        });
        return dnnl_success;
    }

private:
    layout_t l_;
};

bool analyse(const compiler::plan_t &plan, layout_t &l, std::string *why) {
    const ir::op_t *op = compiler::single_op(plan, why);
    if (!op) return false;
    if (op->kind != dnnl_graph_op_batch_norm_backward)
        return decline(why, "not BatchNormTrainingBackward");
    if (op->inputs.size() < 4 || op->inputs.size() > 5 || op->outputs.empty()
            || op->outputs.size() > 3)
        return decline(why, "unexpected port count");
    for (const auto *v : {&op->inputs, &op->outputs})
        for (const logical_tensor_t &t : *v)
            if (t.data_type != dnnl_f32)
                return decline(
                        why, "only f32 (bf16/f16 run staged through f32)");
    const logical_tensor_t *data[k_data] = {
            &op->inputs[0], &op->inputs[1], &op->outputs[0]};
    const logical_tensor_t &x = *data[k_src];
    if (x.ndims < 2) return decline(why, "rank below 2");
    if (ir::dims_of(*data[k_dd]) != ir::dims_of(x)
            || ir::dims_of(*data[k_ds]) != ir::dims_of(x))
        return decline(why, "src, diff_dst and diff_src shapes differ");
    const int cax = ops::iequals(
                            op->get_str(dnnl_graph_op_attr_data_format, "NXC"),
                            "NXC")
            ? x.ndims - 1
            : 1;
    l.c = x.dims[cax];
    // The per-channel vectors, -1 where absent.
    const logical_tensor_t *vec[k_vecs] = {&op->inputs[2], &op->inputs[3],
            op->inputs.size() > 4 ? &op->inputs[4] : nullptr,
            op->outputs.size() > 1 ? &op->outputs[1] : nullptr,
            op->outputs.size() > 2 ? &op->outputs[2] : nullptr};
    for (int k = 0; k < k_data + k_vecs; ++k)
        l.in[k] = l.out[k] = -1;
    for (int k = 0; k < k_vecs; ++k) {
        l.vst[k] = 0;
        if (!vec[k]) continue;
        if (vec[k]->ndims != 1 || vec[k]->dims[0] != l.c)
            return decline(
                    why, "per-channel tensors must be 1-D with C values");
        l.vst[k] = vec[k]->layout.strides[0];
        const bool is_out = k >= k_dg;
        int &port = (is_out ? l.out : l.in)[k_data + k];
        port = compiler::find_port(
                is_out ? plan.outputs : plan.inputs, vec[k]->id);
        if (port < 0) return decline(why, "ports not found");
    }
    l.in[k_src] = compiler::find_port(plan.inputs, data[k_src]->id);
    l.in[k_dd] = compiler::find_port(plan.inputs, data[k_dd]->id);
    l.out[k_ds] = compiler::find_port(plan.outputs, data[k_ds]->id);
    if (l.in[k_src] < 0 || l.in[k_dd] < 0 || l.out[k_ds] < 0)
        return decline(why, "ports not found");
    // Merge: a dim folds into the one before it when, in all three
    // tensors, that one's stride is this one's size times its stride.
    l.nd = 0;
    l.m = 1;
    for (int d = 0; d < x.ndims; ++d) {
        if (d == cax) continue;
        const int64_t n = x.dims[d];
        l.m *= n;
        if (n == 1) continue;
        bool merge = l.nd > 0;
        for (int k = 0; k < k_data && merge; ++k)
            merge = l.st[k][l.nd - 1] == n * data[k]->layout.strides[d];
        if (!merge) l.dims[l.nd++] = 1;
        l.dims[l.nd - 1] *= n;
        for (int k = 0; k < k_data; ++k)
            l.st[k][l.nd - 1] = data[k]->layout.strides[d];
    }
    if (l.m == 0) return decline(why, "no elements per channel");
    if (l.nd == 0) { // one element per channel
        l.dims[0] = 1;
        for (int k = 0; k < k_data; ++k)
            l.st[k][0] = 0;
        l.nd = 1;
    }
    for (int k = 0; k < k_data; ++k)
        l.cst[k] = data[k]->layout.strides[cax];
    l.channels = l.cst[k_src] == 1 && l.cst[k_dd] == 1 && l.cst[k_ds] == 1;
    if (l.channels) {
        const int64_t tasks = std::min<int64_t>(std::max(1, rt::max_threads()),
                std::max<int64_t>(1, l.c / (2 * k_channel_step)));
        l.sum_cb = tasks <= 1 ? std::max<int64_t>(1, l.c)
                              : round_up(div_up(l.c, tasks), k_channel_step);
    }
    l.eps = op->get_f32(dnnl_graph_op_attr_epsilon);
    return true;
}

} // namespace

bool accepts(const compiler::plan_t &plan, isa_t isa, std::string *why) {
    return accepts_by<layout_t>(plan, why, analyse);
}

status_t create(const compiler::plan_t &plan, isa_t isa,
        std::shared_ptr<const compiler::kernel_t> &out) {
    return create_by<layout_t, bn_bwd_kernel_t>(
            plan, "batchnorm backward", analyse, out);
}

} // namespace batchnorm_bwd
} // namespace cpu
} // namespace llga
