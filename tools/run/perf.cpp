// SPDX-License-Identifier: Apache-2.0
// tools/run/perf.cpp — timing loop and FLOP counts (see perf.hpp).
#include "perf.hpp"

#include <algorithm>
#include <chrono>

#include "ir/logical_tensor.hpp"

namespace llga_run {

using namespace llga;

namespace {
double prod(const dims_t &d, size_t from = 0) {
    double p = 1;
    for (size_t k = from; k < d.size(); ++k) p *= static_cast<double>(d[k]);
    return p;
}

// Input channels per group times kernel volume, from the weights tensor.
double conv_reduction(const ir::op_t &op, bool transposed) {
    if (op.inputs.size() < 2) return 0;
    const dims_t w = ir::dims_of(op.inputs[1]);
    const dims_t src = ir::dims_of(op.inputs[0]);
    if (w.size() < 3 || src.size() < 3) return 0;
    const std::string wf = op.get_str(dnnl_graph_op_attr_weights_format,
            transposed ? "IOX" : "OIX");
    const std::string df = op.get_str(dnnl_graph_op_attr_data_format, "NXC");
    const int64_t g = std::max<int64_t>(1, op.get_s64(dnnl_graph_op_attr_groups, 1));
    // Spatial dims of the kernel and the input-channel count of the weights.
    const size_t sp = w.size() - 2;
    double kvol = 1;
    const bool spatial_first = wf == "XIO" || wf == "XOI";
    for (size_t k = 0; k < sp; ++k) kvol *= static_cast<double>(w[spatial_first ? k : k + 2]);
    const double ic = static_cast<double>(df == "NCX" ? src[1] : src.back());
    return kvol * ic / static_cast<double>(g);
}
} // namespace

double graph_flops(const prepared_t &g) {
    double total = 0;
    for (const auto &op : g.ops) {
        if (op.outputs.empty() || !ir::shape_known(op.outputs[0])) continue;
        const dims_t dst = ir::dims_of(op.outputs[0]);
        switch (op.kind) {
            case dnnl_graph_op_matmul: {
                const dims_t a = ir::dims_of(op.inputs[0]);
                if (a.empty()) break;
                const bool ta = op.get_bool(dnnl_graph_op_attr_transpose_a, false);
                double k = static_cast<double>(
                        a.size() == 1 ? a[0] : ta ? a[a.size() - 2] : a.back());
                total += 2 * prod(dst) * k;
                break;
            }
            case dnnl_graph_op_convolution:
                total += 2 * prod(dst) * conv_reduction(op, false);
                break;
            case dnnl_graph_op_conv_transpose: {
                // Every input element is scattered over OC/G x kernel.
                const dims_t w = ir::dims_of(op.inputs[1]);
                const dims_t src = ir::dims_of(op.inputs[0]);
                if (w.size() < 3) break;
                const int64_t grp = std::max<int64_t>(1, op.get_s64(dnnl_graph_op_attr_groups, 1));
                const double red = conv_reduction(op, true); // kvol * IC / G
                const double ic = static_cast<double>(
                        op.get_str(dnnl_graph_op_attr_data_format, "NXC") == "NCX"
                                ? src[1]
                                : src.back());
                const double oc = static_cast<double>(
                        op.get_str(dnnl_graph_op_attr_data_format, "NXC") == "NCX"
                                ? dst[1]
                                : dst.back());
                if (ic > 0) total += 2 * prod(src) * red / ic * grp * (oc / grp);
                break;
            }
            case dnnl_graph_op_convolution_backward_data:
            case dnnl_graph_op_convolution_backward_weights:
            case dnnl_graph_op_conv_transpose_backward_data:
            case dnnl_graph_op_conv_transpose_backward_weights: {
                // Same multiply-adds as the forward op: every point of the
                // (diff) destination meets every weight of its group, i.e.
                // 2 x (batch x output spatial) x prod(weights dims).
                const bool bwd_w = op.kind == dnnl_graph_op_convolution_backward_weights
                        || op.kind == dnnl_graph_op_conv_transpose_backward_weights;
                const dims_t w = bwd_w ? dst : ir::dims_of(op.inputs[1]);
                const dims_t dd = ir::dims_of(op.inputs[bwd_w ? 1 : 0]);
                if (dd.size() < 3) break;
                const bool ncx = op.get_str(dnnl_graph_op_attr_data_format, "NXC") == "NCX";
                const double c = static_cast<double>(ncx ? dd[1] : dd.back());
                if (c > 0) total += 2 * prod(dd) / c * prod(w);
                break;
            }
            default: break;
        }
    }
    return total;
}

double reference_work_mops(const prepared_t &g) {
    double elems = 0;
    for (const auto &op : g.ops) {
        for (const auto &lt : op.inputs)
            if (ir::shape_known(lt)) elems += prod(ir::dims_of(lt));
        for (const auto &lt : op.outputs)
            if (ir::shape_known(lt)) elems += prod(ir::dims_of(lt));
    }
    return (graph_flops(g) + 20 * elems) * 1e-6;
}

bool run_perf(api_session_t &s, const prepared_t &g, const global_opts_t &opts,
        perf_result_t &out, std::string &error) {
    using clock = std::chrono::steady_clock;
    for (int k = 0; k < opts.warmup; ++k)
        if (!s.execute(error)) return false;
    std::vector<double> times;
    const auto start = clock::now();
    for (;;) {
        const auto t0 = clock::now();
        if (!s.execute(error)) return false;
        const auto t1 = clock::now();
        times.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        const double spent = std::chrono::duration<double, std::milli>(t1 - start).count();
        if (opts.fix_times > 0) {
            if (static_cast<int>(times.size()) >= opts.fix_times) break;
        } else if (spent >= opts.max_ms && times.size() >= 5) {
            break;
        }
    }
    std::vector<double> sorted = times;
    std::sort(sorted.begin(), sorted.end());
    out.iterations = static_cast<int>(times.size());
    out.min_ms = sorted.front();
    out.median_ms = sorted[sorted.size() / 2];
    out.max_ms = sorted.back();
    double sum = 0;
    for (double t : times) sum += t;
    out.avg_ms = sum / static_cast<double>(times.size());
    out.flops = graph_flops(g);
    return true;
}

} // namespace llga_run
