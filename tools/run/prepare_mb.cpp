// SPDX-License-Identifier: Apache-2.0
// tools/run/prepare_mb.cpp — which tensors carry the minibatch, for --mb
// (the rule is in docs/runner.md; used by prepare.cpp).
#include <algorithm>

#include "ir/logical_tensor.hpp"
#include "ops/registry.hpp"
#include "prepare_detail.hpp"

namespace llga_run {

using namespace llga;

namespace {

// Single-data-input ops that pass the batch through unchanged:
// quantization, type conversion, reorder.
bool is_carrier(op_kind_t k) {
    switch (k) {
        case dnnl_graph_op_dequantize:
        case dnnl_graph_op_quantize:
        case dnnl_graph_op_dynamic_dequantize:
        case dnnl_graph_op_dynamic_quantize:
        case dnnl_graph_op_type_cast:
        case dnnl_graph_op_reorder: return true;
        default: return false;
    }
}

// Graph inputs whose dim 0 is the minibatch (see the --mb rule in
// docs/runner.md): follow single-data-input "carrier" ops (quantization,
// type conversion) to the first real consumer and look at the port.
bool carries_batch(const std::vector<work_op_t> &ops,
        const std::map<size_t, std::vector<std::pair<size_t, size_t>>> &uses,
        size_t id, int depth = 0) {
    auto it = uses.find(id);
    if (it == uses.end() || it->second.empty() || depth > 8) return false;
    const auto &use = it->second.front();
    const work_op_t &op = ops[use.first];
    const size_t port = use.second;
    if (is_carrier(op.kind)) {
        if (port != 0 || op.src->outputs.empty()) return false;
        return carries_batch(ops, uses, op.src->outputs[0].id, depth + 1);
    }
    switch (op.kind) {
        case dnnl_graph_op_convolution_backward_data:
        case dnnl_graph_op_convolution_backward_weights:
        case dnnl_graph_op_conv_transpose_backward_weights: return false;
        case dnnl_graph_op_concat: return true;
        case dnnl_graph_op_matmul:
            return port == 0 || op.src->inputs[port].ndims > 2;
        default: return port == 0;
    }
}

bool same_dims(const logical_tensor_t &a, const logical_tensor_t &b) {
    if (a.ndims != b.ndims) return false;
    for (int k = 0; k < a.ndims; ++k)
        if (a.dims[k] != b.dims[k]) return false;
    return true;
}

// Ops whose inputs past port 0 are weights or geometry, never batch.
bool weighted(op_kind_t k) {
    switch (k) {
        case dnnl_graph_op_matmul:
        case dnnl_graph_op_convolution:
        case dnnl_graph_op_conv_transpose:
        case dnnl_graph_op_convolution_backward_data:
        case dnnl_graph_op_convolution_backward_weights:
        case dnnl_graph_op_conv_transpose_backward_data:
        case dnnl_graph_op_conv_transpose_backward_weights: return true;
        default: return false;
    }
}

// Follows a tensor back through single-input carrier ops (quantization,
// type conversion, reorder; port 0) to the graph input it comes from.
// Returns false if it does not start at a graph input that way.
bool carrier_source(const std::vector<work_op_t> &ops,
        const std::map<size_t, size_t> &producer, const std::set<size_t> &inputs,
        size_t id, size_t *src) {
    for (int depth = 0; depth < 8; ++depth) {
        if (inputs.count(id)) {
            *src = id;
            return true;
        }
        auto it = producer.find(id);
        if (it == producer.end()) return false;
        const work_op_t &w = ops[it->second];
        if (!is_carrier(w.kind) || w.src->inputs.empty()) return false;
        id = w.src->inputs[0].id;
    }
    return false;
}

} // namespace

// Every tensor's shape before --mb: the graph inputs as they stand,
// then each op's outputs by shape inference (the file's shapes where an
// op cannot be inferred). Files often leave intermediate shapes unknown.
std::map<size_t, logical_tensor_t> shapes_before_mb(
        const std::vector<work_op_t> &ops, const std::vector<size_t> &order,
        const std::map<size_t, logical_tensor_t> &tensors) {
    std::map<size_t, logical_tensor_t> shape = tensors;
    for (size_t i : order) {
        const work_op_t &w = ops[i];
        ir::op_t op;
        op.id = w.src->id;
        op.kind = w.kind;
        op.attrs = w.attrs;
        bool known = true;
        for (const auto &lt : w.src->inputs) {
            auto it = shape.find(lt.id);
            op.inputs.push_back(it != shape.end() ? it->second : lt);
            known = known && ir::shape_known(op.inputs.back());
        }
        for (const auto &lt : w.src->outputs)
            op.outputs.push_back(ir::make_lt_unknown(lt.id, lt.data_type));
        const ops::op_def_t *def = ops::find_op_def(op.kind);
        const bool inferred = known && def && def->infer
                && ops::infer_shapes(op) == dnnl_success;
        for (size_t k = 0; k < op.outputs.size(); ++k)
            shape[w.src->outputs[k].id]
                    = inferred ? op.outputs[k] : w.src->outputs[k];
    }
    return shape;
}

// The graph inputs --mb rewrites: those carries_batch() finds, plus the
// inputs that must follow the batch through the graph (file shapes, in
// dependency order). An op with a batch-carrying input passes the batch
// to its outputs of the same dim 0. Another input of that op (a graph
// input, or one reached from a graph input through quantization / type
// conversion / reorder) follows when it has the same shape (backward
// ops' diff_dst, binary ops without broadcast), or rank >= 2 and the same
// batch dim 0 when that batch is not 1 (per-sample operands such as
// N x C x 1 x 1, normalization statistics); DynamicDequantize's scales
// and zero points follow on equal rank and dim 0 (per-group on the batch
// dim: one group per sample), LayerNormBackward's statistics on dim 0.
// Weight ports of MatMul and convolutions
// never do. Returns every tensor found to carry the batch (graph inputs
// and, by file shapes, intermediates).
std::set<size_t> batch_tensors(const std::vector<work_op_t> &ops,
        const std::vector<size_t> &order,
        const std::map<size_t, size_t> &producer,
        const std::map<size_t, std::vector<std::pair<size_t, size_t>>> &uses,
        const std::vector<size_t> &inputs,
        const std::map<size_t, logical_tensor_t> &shape) {
    std::set<size_t> carried;
    const std::set<size_t> is_input(inputs.begin(), inputs.end());
    for (size_t id : inputs)
        if (carries_batch(ops, uses, id)) carried.insert(id);
    for (size_t i : order) {
        const work_op_t &w = ops[i];
        std::vector<logical_tensor_t> in;
        for (const auto &lt : w.src->inputs)
            in.push_back(shape.at(lt.id));
        const logical_tensor_t *c = nullptr;
        for (const auto &lt : in)
            if (carried.count(lt.id) && lt.ndims >= 1) {
                c = &lt;
                break;
            }
        if (!c) continue;
        const bool dyn_q = w.kind == dnnl_graph_op_dynamic_dequantize
                || w.kind == dnnl_graph_op_dynamic_quantize;
        for (size_t p = 0; p < in.size(); ++p) {
            const logical_tensor_t &lt = in[p];
            size_t src = 0;
            if (carried.count(lt.id) || lt.ndims < 1
                    || (weighted(w.kind) && p > 0)
                    || !carrier_source(ops, producer, is_input, lt.id, &src))
                continue;
            const bool same_rank = lt.ndims == c->ndims;
            const bool same_n = lt.dims[0] == c->dims[0];
            // LayerNormBackward's mean and variance: one per normalized
            // group, batch first whatever their rank.
            const bool ln_stats = w.kind == dnnl_graph_op_layer_norm_backward
                    && (p == 2 || p == 3);
            const bool follows = same_dims(lt, *c)
                    || (lt.ndims >= 2 && same_n && c->dims[0] != 1)
                    || (((dyn_q && same_rank) || ln_stats) && same_n);
            if (follows) {
                carried.insert(src);
                carried.insert(lt.id);
            }
        }
        for (const auto &o : w.src->outputs) {
            const logical_tensor_t &lt = shape.at(o.id);
            if (lt.ndims >= 1 && lt.dims[0] == c->dims[0])
                carried.insert(lt.id);
        }
    }
    return carried;
}

} // namespace llga_run
