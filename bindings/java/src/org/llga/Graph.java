// SPDX-License-Identifier: Apache-2.0
// bindings/java/src/org/llga/Graph.java — Java wrapper of dnnl_graph_graph_t.
package org.llga;

import java.util.ArrayList;
import java.util.List;

/** A set of connected ops, split into partitions once finalized. */
public final class Graph extends Handle {
    final SWIGTYPE_p_dnnl_graph_graph h;

    public Graph(EngineKind kind) {
        SWIGTYPE_p_p_dnnl_graph_graph out = Native.new_graph_p();
        try {
            DnnlException.check(Native.dnnl_graph_graph_create(out, kind), "dnnl_graph_graph_create");
            h = Native.graph_p_value(out);
        } catch (RuntimeException e) {
            super.close();
            throw e;
        } finally {
            Native.delete_graph_p(out);
        }
    }

    /** Adds a copy of {@code op} after checking it against its schema. */
    public Graph addOp(Op op) {
        ensureOpen();
        op.ensureOpen();
        DnnlException.check(Native.dnnl_graph_add_op(h, op.h), "dnnl_graph_add_op");
        return this;
    }

    public void finalizeGraph() {
        ensureOpen();
        DnnlException.check(Native.dnnl_graph_graph_finalize(h), "dnnl_graph_graph_finalize");
    }

    /** Filters the (finalized) graph with {@code policy} and returns the
     *  partitions; each must be closed by the caller. */
    public List<Partition> getPartitions(PartitionPolicy policy) {
        ensureOpen();
        DnnlException.check(Native.dnnl_graph_graph_filter(h, policy), "dnnl_graph_graph_filter");
        SWIGTYPE_p_size_t num = Native.new_size_t_p();
        long n;
        try {
            DnnlException.check(Native.dnnl_graph_graph_get_partition_num(h, num),
                    "dnnl_graph_graph_get_partition_num");
            n = Native.size_t_p_value(num);
        } finally {
            Native.delete_size_t_p(num);
        }
        SWIGTYPE_p_p_dnnl_graph_partition arr = Native.new_partition_array((int) Math.max(1, n));
        List<Partition> parts = new ArrayList<>();
        try {
            DnnlException.check(Native.dnnl_graph_graph_get_partitions(h, n, arr),
                    "dnnl_graph_graph_get_partitions");
            for (int i = 0; i < n; ++i)
                parts.add(new Partition(Native.partition_array_getitem(arr, i)));
        } finally {
            Native.delete_partition_array(arr);
        }
        return parts;
    }

    /** Finalizes the graph if needed and returns its fused partitions. */
    public List<Partition> getPartitions() {
        ensureOpen();
        SWIGTYPE_p_unsigned_char fin = Native.new_uint8_p();
        try {
            DnnlException.check(Native.dnnl_graph_graph_is_finalized(h, fin),
                    "dnnl_graph_graph_is_finalized");
            if (Native.uint8_p_value(fin) == 0) finalizeGraph();
        } finally {
            Native.delete_uint8_p(fin);
        }
        return getPartitions(PartitionPolicy.FUSION);
    }

    @Override
    void release() {
        if (h != null) Native.dnnl_graph_graph_destroy(h);
    }
}
