// SPDX-License-Identifier: Apache-2.0
// bindings/java/src/org/llga/CompiledPartition.java — Java wrapper of
// dnnl_graph_compiled_partition_t.
package org.llga;

import java.util.List;

/** A partition compiled for concrete shapes; executes on a stream. */
public final class CompiledPartition extends Handle {
    final SWIGTYPE_p_dnnl_graph_compiled_partition h;

    CompiledPartition(Partition p) {
        SWIGTYPE_p_p_dnnl_graph_compiled_partition out = Native.new_compiled_partition_p();
        try {
            DnnlException.check(Native.dnnl_graph_compiled_partition_create(out, p.h),
                    "dnnl_graph_compiled_partition_create");
            h = Native.compiled_partition_p_value(out);
        } catch (RuntimeException e) {
            super.close();
            throw e;
        } finally {
            Native.delete_compiled_partition_p(out);
        }
    }

    /** The final (shape-inferred, layout-resolved) description of the input
     *  or output with id {@code tid}. */
    public LogicalTensor queryLogicalTensor(long tid) {
        ensureOpen();
        dnnl_graph_logical_tensor_t n = new dnnl_graph_logical_tensor_t();
        Status st = Native.dnnl_graph_compiled_partition_query_logical_tensor(h, tid, n);
        if (st != Status.SUCCESS) n.delete();
        DnnlException.check(st, "dnnl_graph_compiled_partition_query_logical_tensor");
        return LogicalTensor.fromNative(n);
    }

    /** Submits the partition to {@code stream}; tensors are in the order of
     *  the logical tensors given at compilation. Call stream.waitAll(). */
    public void execute(Stream stream, List<Tensor> inputs, List<Tensor> outputs) {
        ensureOpen();
        stream.ensureOpen();
        SWIGTYPE_p_p_dnnl_graph_tensor ins = Native.new_tensor_array(Math.max(1, inputs.size()));
        SWIGTYPE_p_p_dnnl_graph_tensor outs = Native.new_tensor_array(Math.max(1, outputs.size()));
        try {
            for (int i = 0; i < inputs.size(); ++i) {
                inputs.get(i).ensureOpen();
                Native.tensor_array_setitem(ins, i, inputs.get(i).h);
            }
            for (int i = 0; i < outputs.size(); ++i) {
                outputs.get(i).ensureOpen();
                Native.tensor_array_setitem(outs, i, outputs.get(i).h);
            }
            DnnlException.check(Native.dnnl_graph_compiled_partition_execute(h, stream.h,
                    inputs.size(), ins, outputs.size(), outs),
                    "dnnl_graph_compiled_partition_execute");
        } finally {
            Native.delete_tensor_array(ins);
            Native.delete_tensor_array(outs);
        }
    }

    @Override
    void release() {
        if (h != null) Native.dnnl_graph_compiled_partition_destroy(h);
    }
}
