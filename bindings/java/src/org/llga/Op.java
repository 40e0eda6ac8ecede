// SPDX-License-Identifier: Apache-2.0
// bindings/java/src/org/llga/Op.java — Java wrapper of dnnl_graph_op_t.
package org.llga;

import java.nio.charset.StandardCharsets;

/** One operation: kind, inputs, outputs and attributes. */
public final class Op extends Handle {
    final SWIGTYPE_p_dnnl_graph_op h;

    public Op(long id, OpKind kind, String name) {
        SWIGTYPE_p_p_dnnl_graph_op out = Native.new_op_p();
        try {
            DnnlException.check(Native.dnnl_graph_op_create(out, id, kind, name),
                    "dnnl_graph_op_create");
            h = Native.op_p_value(out);
        } catch (RuntimeException e) {
            super.close();
            throw e;
        } finally {
            Native.delete_op_p(out);
        }
    }

    /** Creates the op and adds the given inputs and outputs. */
    public Op(long id, OpKind kind, LogicalTensor[] inputs, LogicalTensor[] outputs,
            String name) {
        this(id, kind, name);
        try {
            for (LogicalTensor t : inputs) addInput(t);
            for (LogicalTensor t : outputs) addOutput(t);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    public Op addInput(LogicalTensor t) {
        ensureOpen();
        dnnl_graph_logical_tensor_t n = t.toNative();
        try {
            DnnlException.check(Native.dnnl_graph_op_add_input(h, n), "dnnl_graph_op_add_input");
        } finally {
            n.delete();
        }
        return this;
    }

    public Op addOutput(LogicalTensor t) {
        ensureOpen();
        dnnl_graph_logical_tensor_t n = t.toNative();
        try {
            DnnlException.check(Native.dnnl_graph_op_add_output(h, n), "dnnl_graph_op_add_output");
        } finally {
            n.delete();
        }
        return this;
    }

    /** Sets an integer (s64) attribute, scalar or vector. */
    public Op setAttr(OpAttr name, long... values) {
        ensureOpen();
        SWIGTYPE_p_long_long a = Native.new_int64_array(Math.max(1, values.length));
        try {
            for (int i = 0; i < values.length; ++i) Native.int64_array_setitem(a, i, values[i]);
            // No array for an empty list: a scalar attribute then fails (the
            // C setters read one value whatever the count).
            DnnlException.check(Native.dnnl_graph_op_set_attr_s64(h, name,
                                        values.length == 0 ? null : a, values.length),
                    "dnnl_graph_op_set_attr_s64");
        } finally {
            Native.delete_int64_array(a);
        }
        return this;
    }

    /** Sets a floating-point (f32) attribute, scalar or vector. */
    public Op setAttr(OpAttr name, float... values) {
        ensureOpen();
        SWIGTYPE_p_float a = Native.new_float_array(Math.max(1, values.length));
        try {
            for (int i = 0; i < values.length; ++i) Native.float_array_setitem(a, i, values[i]);
            DnnlException.check(Native.dnnl_graph_op_set_attr_f32(h, name,
                                        values.length == 0 ? null : a, values.length),
                    "dnnl_graph_op_set_attr_f32");
        } finally {
            Native.delete_float_array(a);
        }
        return this;
    }

    /** Sets a boolean attribute. */
    public Op setAttr(OpAttr name, boolean value) {
        ensureOpen();
        SWIGTYPE_p_unsigned_char a = Native.new_uint8_array(1);
        try {
            Native.uint8_array_setitem(a, 0, (short) (value ? 1 : 0));
            DnnlException.check(Native.dnnl_graph_op_set_attr_bool(h, name, a, 1),
                    "dnnl_graph_op_set_attr_bool");
        } finally {
            Native.delete_uint8_array(a);
        }
        return this;
    }

    /** Sets a string attribute. */
    public Op setAttr(OpAttr name, String value) {
        ensureOpen();
        long len = value.getBytes(StandardCharsets.UTF_8).length;
        DnnlException.check(Native.dnnl_graph_op_set_attr_str(h, name, value, len),
                "dnnl_graph_op_set_attr_str");
        return this;
    }

    public long id() {
        ensureOpen();
        SWIGTYPE_p_size_t out = Native.new_size_t_p();
        try {
            DnnlException.check(Native.dnnl_graph_op_get_id(h, out), "dnnl_graph_op_get_id");
            return Native.size_t_p_value(out);
        } finally {
            Native.delete_size_t_p(out);
        }
    }

    public OpKind kind() {
        ensureOpen();
        SWIGTYPE_p_dnnl_graph_op_kind_t out = Native.new_op_kind_p();
        try {
            DnnlException.check(Native.dnnl_graph_op_get_kind(h, out), "dnnl_graph_op_get_kind");
            return Native.op_kind_p_value(out);
        } finally {
            Native.delete_op_kind_p(out);
        }
    }

    @Override
    void release() {
        if (h != null) Native.dnnl_graph_op_destroy(h);
    }
}
