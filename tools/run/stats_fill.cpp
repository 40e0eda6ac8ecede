// SPDX-License-Identifier: Apache-2.0
// tools/run/stats_fill.cpp — see stats_fill.hpp.
#include "stats_fill.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include "ir/dtype.hpp"
#include "ir/logical_tensor.hpp"
#include "ir/shape.hpp"
#include "reference.hpp"

namespace llga_run {

using namespace llga;

namespace {

const ir::op_t *consumer_of(const prepared_t &g, size_t id, size_t *port) {
    for (const auto &op : g.ops)
        for (size_t p = 0; p < op.inputs.size(); ++p)
            if (op.inputs[p].id == id) {
                if (port) *port = p;
                return &op;
            }
    return nullptr;
}

// The Subtract whose port 1 is `id` and whose result feeds Exp, or null.
const ir::op_t *stat_subtract(const prepared_t &g, size_t id) {
    size_t port = 0;
    const ir::op_t *sub = consumer_of(g, id, &port);
    if (!sub || sub->kind != dnnl_graph_op_subtract || port != 1) return nullptr;
    const ir::op_t *next = consumer_of(g, sub->outputs[0].id, nullptr);
    return next && next->kind == dnnl_graph_op_exp ? sub : nullptr;
}

} // namespace

bool is_softmax_stat(const prepared_t &g, size_t id) {
    return stat_subtract(g, id) != nullptr;
}

bool fill_softmax_stats(const prepared_t &g, buffers_t &bufs, std::string &error) {
    std::vector<size_t> stats;
    for (size_t id : g.inputs)
        if (is_softmax_stat(g, id)) stats.push_back(id);
    if (stats.empty()) return true;
    buffers_t probe = bufs;
    if (!run_reference(g, probe, error)) return false;
    for (size_t id : stats) {
        const ir::op_t *sub = stat_subtract(g, id);
        const buffer_t &scores = probe.at(sub->inputs[0].id);
        buffer_t &stat = bufs.at(id);
        const dims_t sdims = ir::dims_of(scores.lt);
        const dims_t sstr = strides_or_dense(scores.lt);
        const dims_t tdims = ir::dims_of(stat.lt);
        const dims_t tstr = strides_or_dense(stat.lt);
        const int nd = static_cast<int>(sdims.size());
        const int64_t n = ir::product(sdims);
        // Largest finite score per statistic element (broadcast pre-image).
        std::vector<double> best(static_cast<size_t>(ir::product(tdims)),
                -std::numeric_limits<double>::infinity());
        const dims_t tdense = ir::dense_strides(tdims);
        int64_t idx[DNNL_MAX_NDIMS] = {0};
        for (int64_t i = 0; i < n; ++i, ir::next_index(idx, sdims)) {
            const double v = ir::load_value(scores.lt.data_type, scores.data(),
                    ir::offset_of(idx, sstr.data(), nd));
            const int64_t t = ir::broadcast_offset(idx, nd, tdims, tdense);
            if (std::isfinite(v) && v > best[static_cast<size_t>(t)])
                best[static_cast<size_t>(t)] = v;
        }
        const int tn = static_cast<int>(tdims.size());
        int64_t tidx[DNNL_MAX_NDIMS] = {0};
        for (size_t t = 0; t < best.size(); ++t, ir::next_index(tidx, tdims)) {
            // A statistic with no finite score behind it gets 0.
            const double v = std::isfinite(best[t]) ? best[t] : 0.0;
            ir::store_value(stat.lt.data_type, stat.data(),
                    ir::offset_of(tidx, tstr.data(), tn), v);
        }
    }
    return true;
}

} // namespace llga_run
