// SPDX-License-Identifier: Apache-2.0
// capi/compiled_partition.cpp — dnnl_graph_compiled_partition_*.
#include "capi/barrier.hpp"
#include "capi/execute.hpp"
#include "capi/handles.hpp"

using namespace llga;

namespace {
status_t require_compiled(const_dnnl_graph_compiled_partition_t cp) {
    if (!cp->compiled)
        return fail(dnnl_invalid_arguments,
                "the compiled partition has not been compiled yet "
                "(call dnnl_graph_partition_compile first)");
    return dnnl_success;
}
} // namespace

status_t capi::execute_handles(const_dnnl_graph_compiled_partition_t cp,
        dnnl_stream_t stream, size_t num_inputs,
        const_dnnl_graph_tensor_t *inputs, size_t num_outputs,
        const_dnnl_graph_tensor_t *outputs,
        const compiler::device_events_t &events) {
    LLGA_CHECK_ARG(cp);
    LLGA_CHECK_ARG(stream);
    LLGA_RETURN_IF_ERROR(require_compiled(cp));
    if (num_inputs > 0) LLGA_CHECK_ARG(inputs);
    if (num_outputs == 0)
        return fail(dnnl_invalid_arguments, "execute needs output tensors");
    LLGA_CHECK_ARG(outputs);
    if (stream->engine()->kind() != cp->p->engine_kind)
        return fail(dnnl_invalid_arguments,
                "the stream's engine kind does not match the partition's");
    // The handles are the tensors; small calls convert them on the stack.
    constexpr size_t k_small = 16;
    const rt::tensor_t *small[2 * k_small];
    std::vector<const rt::tensor_t *> big;
    const rt::tensor_t **ins = small, **outs = small + k_small;
    if (num_inputs > k_small || num_outputs > k_small) {
        big.resize(num_inputs + num_outputs);
        ins = big.data();
        outs = big.data() + num_inputs;
    }
    for (size_t k = 0; k < num_inputs; ++k)
        ins[k] = inputs[k];
    for (size_t k = 0; k < num_outputs; ++k)
        outs[k] = outputs[k];
    return compiler::execute_compiled(
            *cp->compiled, *stream, ins, num_inputs, outs, num_outputs, events);
}

extern "C" {

dnnl_status_t dnnl_graph_compiled_partition_create(
        dnnl_graph_compiled_partition_t *compiled_partition,
        dnnl_graph_partition_t partition) {
    return LLGA_API_BODY("dnnl_graph_compiled_partition_create", {
        LLGA_CHECK_ARG(compiled_partition);
        *compiled_partition = nullptr;
        LLGA_CHECK_ARG(partition);
        auto *cp = new dnnl_graph_compiled_partition();
        cp->p = partition->p;
        *compiled_partition = cp;
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_compiled_partition_execute(
        const_dnnl_graph_compiled_partition_t compiled_partition,
        dnnl_stream_t stream, size_t num_inputs,
        const_dnnl_graph_tensor_t *inputs, size_t num_outputs,
        const_dnnl_graph_tensor_t *outputs) {
    return LLGA_API_BODY("dnnl_graph_compiled_partition_execute", {
        return capi::execute_handles(compiled_partition, stream, num_inputs,
                inputs, num_outputs, outputs, compiler::device_events_t());
    });
}

dnnl_status_t dnnl_graph_compiled_partition_destroy(
        dnnl_graph_compiled_partition_t compiled_partition) {
    return LLGA_API_BODY("dnnl_graph_compiled_partition_destroy", {
        LLGA_CHECK_ARG(compiled_partition);
        delete compiled_partition;
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_compiled_partition_query_logical_tensor(
        const_dnnl_graph_compiled_partition_t compiled_partition, size_t tid,
        dnnl_graph_logical_tensor_t *lt) {
    return LLGA_API_BODY("dnnl_graph_compiled_partition_query_logical_tensor", {
        LLGA_CHECK_ARG(compiled_partition);
        LLGA_CHECK_ARG(lt);
        LLGA_RETURN_IF_ERROR(require_compiled(compiled_partition));
        if (!compiler::query_port(*compiled_partition->compiled, tid, *lt))
            return fail(dnnl_invalid_arguments,
                    "tensor %zu is not an input or output of this compiled "
                    "partition",
                    tid);
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_compiled_partition_get_inplace_ports(
        const_dnnl_graph_compiled_partition_t compiled_partition,
        size_t *num_inplace_pairs,
        const dnnl_graph_inplace_pair_t **inplace_pairs) {
    return LLGA_API_BODY("dnnl_graph_compiled_partition_get_inplace_ports", {
        LLGA_CHECK_ARG(compiled_partition);
        LLGA_CHECK_ARG(num_inplace_pairs);
        LLGA_CHECK_ARG(inplace_pairs);
        LLGA_RETURN_IF_ERROR(require_compiled(compiled_partition));
        const auto &v = compiled_partition->compiled->inplace;
        *num_inplace_pairs = v.size();
        *inplace_pairs = v.empty() ? nullptr : v.data();
        return dnnl_success;
    });
}

} // extern "C"
