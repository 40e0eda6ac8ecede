// SPDX-License-Identifier: Apache-2.0
// bindings/java/src/org/llga/Partition.java — Java wrapper of
// dnnl_graph_partition_t.
package org.llga;

import java.util.ArrayList;
import java.util.List;

/** A group of ops the library compiles and runs as one unit. */
public final class Partition extends Handle {
    final SWIGTYPE_p_dnnl_graph_partition h;

    Partition(SWIGTYPE_p_dnnl_graph_partition h) {
        this.h = h;
    }

    private long sizeQuery(int what) {
        ensureOpen();
        SWIGTYPE_p_size_t out = Native.new_size_t_p();
        try {
            switch (what) {
            case 0:
                DnnlException.check(Native.dnnl_graph_partition_get_id(h, out),
                        "dnnl_graph_partition_get_id");
                break;
            case 1:
                DnnlException.check(Native.dnnl_graph_partition_get_op_num(h, out),
                        "dnnl_graph_partition_get_op_num");
                break;
            case 2:
                DnnlException.check(Native.dnnl_graph_partition_get_input_ports_num(h, out),
                        "dnnl_graph_partition_get_input_ports_num");
                break;
            default:
                DnnlException.check(Native.dnnl_graph_partition_get_output_ports_num(h, out),
                        "dnnl_graph_partition_get_output_ports_num");
            }
            return Native.size_t_p_value(out);
        } finally {
            Native.delete_size_t_p(out);
        }
    }

    public long id() {
        return sizeQuery(0);
    }

    public boolean isSupported() {
        ensureOpen();
        SWIGTYPE_p_unsigned_char out = Native.new_uint8_p();
        try {
            DnnlException.check(Native.dnnl_graph_partition_is_supported(h, out),
                    "dnnl_graph_partition_is_supported");
            return Native.uint8_p_value(out) != 0;
        } finally {
            Native.delete_uint8_p(out);
        }
    }

    /** Ids of the ops in this partition. */
    public long[] opIds() {
        int n = (int) sizeQuery(1);
        SWIGTYPE_p_size_t arr = Native.new_size_t_array(Math.max(1, n));
        try {
            DnnlException.check(Native.dnnl_graph_partition_get_ops(h, n, arr),
                    "dnnl_graph_partition_get_ops");
            long[] ids = new long[n];
            for (int i = 0; i < n; ++i) ids[i] = Native.size_t_array_getitem(arr, i);
            return ids;
        } finally {
            Native.delete_size_t_array(arr);
        }
    }

    private List<LogicalTensor> ports(boolean inputs) {
        int n = (int) sizeQuery(inputs ? 2 : 3);
        dnnl_graph_logical_tensor_t arr = Native.new_lt_array(Math.max(1, n));
        try {
            DnnlException.check(inputs
                    ? Native.dnnl_graph_partition_get_input_ports(h, n, arr)
                    : Native.dnnl_graph_partition_get_output_ports(h, n, arr),
                    inputs ? "dnnl_graph_partition_get_input_ports"
                           : "dnnl_graph_partition_get_output_ports");
            List<LogicalTensor> out = new ArrayList<>();
            for (int i = 0; i < n; ++i)
                out.add(LogicalTensor.fromNative(Native.lt_array_getitem(arr, i)));
            return out;
        } finally {
            Native.delete_lt_array(arr);
        }
    }

    public List<LogicalTensor> inputPorts() {
        return ports(true);
    }

    public List<LogicalTensor> outputPorts() {
        return ports(false);
    }

    /** Compiles for {@code engine} with concrete input (and possibly
     *  incomplete output) descriptions. */
    public CompiledPartition compile(List<LogicalTensor> inputs, List<LogicalTensor> outputs,
            Engine engine) {
        ensureOpen();
        engine.ensureOpen();
        CompiledPartition cp = new CompiledPartition(this);
        List<dnnl_graph_logical_tensor_t> natives = new ArrayList<>();
        SWIGTYPE_p_p_dnnl_graph_logical_tensor_t ins
                = Native.new_lt_ptr_array(Math.max(1, inputs.size()));
        SWIGTYPE_p_p_dnnl_graph_logical_tensor_t outs
                = Native.new_lt_ptr_array(Math.max(1, outputs.size()));
        try {
            for (int i = 0; i < inputs.size(); ++i) {
                dnnl_graph_logical_tensor_t n = inputs.get(i).toNative();
                natives.add(n);
                Native.lt_ptr_array_setitem(ins, i, n);
            }
            for (int i = 0; i < outputs.size(); ++i) {
                dnnl_graph_logical_tensor_t n = outputs.get(i).toNative();
                natives.add(n);
                Native.lt_ptr_array_setitem(outs, i, n);
            }
            DnnlException.check(Native.dnnl_graph_partition_compile(h, cp.h, inputs.size(), ins,
                    outputs.size(), outs, engine.h), "dnnl_graph_partition_compile");
            return cp;
        } catch (RuntimeException e) {
            cp.close();
            throw e;
        } finally {
            for (dnnl_graph_logical_tensor_t n : natives) n.delete();
            Native.delete_lt_ptr_array(ins);
            Native.delete_lt_ptr_array(outs);
        }
    }

    @Override
    void release() {
        Native.dnnl_graph_partition_destroy(h);
    }
}
