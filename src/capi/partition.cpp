// SPDX-License-Identifier: Apache-2.0
// capi/partition.cpp — dnnl_graph_partition_*.
#include "capi/barrier.hpp"
#include "capi/handles.hpp"
#include "capi/lt_check.hpp"
#include "ops/registry.hpp"

using namespace llga;

extern "C" {

dnnl_status_t dnnl_graph_partition_create_with_op(dnnl_graph_partition_t *partition,
        const_dnnl_graph_op_t op, dnnl_engine_kind_t ekind) {
    return LLGA_API_BODY("dnnl_graph_partition_create_with_op", {
        LLGA_CHECK_ARG(partition);
        *partition = nullptr;
        LLGA_CHECK_ARG(op);
        LLGA_CHECK_ENUM(ekind, dnnl_cpu, dnnl_gpu, "engine kind");
        ir::op_t copy = *op;
        LLGA_RETURN_IF_ERROR(ops::verify_op(copy));
        auto *h = new dnnl_graph_partition();
        status_t st = fusion::partition_single_op(copy, ekind, h->p);
        if (st != dnnl_success) {
            delete h;
            return st;
        }
        *partition = h;
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_partition_destroy(dnnl_graph_partition_t partition) {
    return LLGA_API_BODY("dnnl_graph_partition_destroy", {
        LLGA_CHECK_ARG(partition);
        delete partition;
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_partition_get_op_num(
        const_dnnl_graph_partition_t partition, size_t *num) {
    return LLGA_API_BODY("dnnl_graph_partition_get_op_num", {
        LLGA_CHECK_ARG(partition);
        LLGA_CHECK_ARG(num);
        *num = partition->p->ops.size();
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_partition_get_ops(
        dnnl_graph_partition_t partition, size_t num, size_t *ids) {
    return LLGA_API_BODY("dnnl_graph_partition_get_ops", {
        LLGA_CHECK_ARG(partition);
        LLGA_CHECK_ARG(ids);
        const auto &ops = partition->p->ops;
        if (num != ops.size())
            return fail(dnnl_invalid_arguments,
                    "num is %zu but the partition has %zu ops", num, ops.size());
        for (size_t k = 0; k < num; ++k)
            ids[k] = ops[k].id;
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_partition_get_id(
        const_dnnl_graph_partition_t partition, size_t *id) {
    return LLGA_API_BODY("dnnl_graph_partition_get_id", {
        LLGA_CHECK_ARG(partition);
        LLGA_CHECK_ARG(id);
        *id = partition->p->id;
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_partition_compile(dnnl_graph_partition_t partition,
        dnnl_graph_compiled_partition_t compiled_partition, size_t in_num,
        const dnnl_graph_logical_tensor_t **inputs, size_t out_num,
        const dnnl_graph_logical_tensor_t **outputs, dnnl_engine_t engine) {
    return LLGA_API_BODY("dnnl_graph_partition_compile", {
        LLGA_CHECK_ARG(partition);
        LLGA_CHECK_ARG(compiled_partition);
        LLGA_CHECK_ARG(engine);
        if (in_num > 0) LLGA_CHECK_ARG(inputs);
        if (out_num > 0) LLGA_CHECK_ARG(outputs);
        if (compiled_partition->p != partition->p)
            return fail(dnnl_invalid_arguments,
                    "the compiled partition was created for partition %zu, "
                    "not %zu",
                    compiled_partition->p ? compiled_partition->p->id : 0,
                    partition->p->id);
        std::vector<logical_tensor_t> ins, outs;
        for (size_t k = 0; k < in_num; ++k) {
            if (!inputs[k])
                return fail(dnnl_invalid_arguments, "inputs[%zu] is null", k);
            LLGA_RETURN_IF_ERROR(capi::check_lt(inputs[k], "input"));
            ins.push_back(*inputs[k]);
        }
        for (size_t k = 0; k < out_num; ++k) {
            if (!outputs[k])
                return fail(dnnl_invalid_arguments, "outputs[%zu] is null", k);
            LLGA_RETURN_IF_ERROR(capi::check_lt(outputs[k], "output"));
            outs.push_back(*outputs[k]);
        }
        std::shared_ptr<const compiler::compiled_t> c;
        LLGA_RETURN_IF_ERROR(compiler::compile_partition(partition->p, ins,
                outs, *engine, capi::backends_for(*engine), c));
        compiled_partition->compiled = c;
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_partition_get_input_ports_num(
        const_dnnl_graph_partition_t partition, size_t *num) {
    return LLGA_API_BODY("dnnl_graph_partition_get_input_ports_num", {
        LLGA_CHECK_ARG(partition);
        LLGA_CHECK_ARG(num);
        *num = partition->p->inputs.size();
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_partition_get_input_ports(
        const_dnnl_graph_partition_t partition, size_t num,
        dnnl_graph_logical_tensor_t *inputs) {
    return LLGA_API_BODY("dnnl_graph_partition_get_input_ports", {
        LLGA_CHECK_ARG(partition);
        LLGA_CHECK_ARG(inputs);
        const auto &v = partition->p->inputs;
        if (num != v.size())
            return fail(dnnl_invalid_arguments,
                    "num is %zu but the partition has %zu input ports", num,
                    v.size());
        for (size_t k = 0; k < num; ++k)
            inputs[k] = v[k];
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_partition_get_output_ports_num(
        const_dnnl_graph_partition_t partition, size_t *num) {
    return LLGA_API_BODY("dnnl_graph_partition_get_output_ports_num", {
        LLGA_CHECK_ARG(partition);
        LLGA_CHECK_ARG(num);
        *num = partition->p->outputs.size();
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_partition_get_output_ports(
        const_dnnl_graph_partition_t partition, size_t num,
        dnnl_graph_logical_tensor_t *outputs) {
    return LLGA_API_BODY("dnnl_graph_partition_get_output_ports", {
        LLGA_CHECK_ARG(partition);
        LLGA_CHECK_ARG(outputs);
        const auto &v = partition->p->outputs;
        if (num != v.size())
            return fail(dnnl_invalid_arguments,
                    "num is %zu but the partition has %zu output ports", num,
                    v.size());
        for (size_t k = 0; k < num; ++k)
            outputs[k] = v[k];
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_partition_is_supported(
        const_dnnl_graph_partition_t partition, uint8_t *is_supported) {
    return LLGA_API_BODY("dnnl_graph_partition_is_supported", {
        LLGA_CHECK_ARG(partition);
        LLGA_CHECK_ARG(is_supported);
        *is_supported = partition->p->supported ? 1 : 0;
        return dnnl_success;
    });
}

dnnl_status_t dnnl_graph_partition_get_engine_kind(
        const_dnnl_graph_partition_t partition, dnnl_engine_kind_t *kind) {
    return LLGA_API_BODY("dnnl_graph_partition_get_engine_kind", {
        LLGA_CHECK_ARG(partition);
        LLGA_CHECK_ARG(kind);
        *kind = partition->p->engine_kind;
        return dnnl_success;
    });
}

} // extern "C"
