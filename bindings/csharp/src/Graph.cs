// SPDX-License-Identifier: Apache-2.0
// bindings/csharp/src/Graph.cs — C# wrappers of dnnl_graph_op_t,
// dnnl_graph_graph_t, dnnl_graph_partition_t and
// dnnl_graph_compiled_partition_t.
using System;
using System.Collections.Generic;
using System.Text;

namespace Llga
{
    /// <summary>One operation: kind, inputs, outputs and attributes.</summary>
    public sealed class Op : Handle
    {
        internal readonly SWIGTYPE_p_dnnl_graph_op h;

        public Op(long id, OpKind kind, string name)
        {
            var p = Native.new_op_p();
            try
            {
                DnnlException.Check(Native.dnnl_graph_op_create(p, (ulong)id, kind, name),
                        "dnnl_graph_op_create");
                h = Native.op_p_value(p);
            }
            catch
            {
                Dispose();
                throw;
            }
            finally
            {
                Native.delete_op_p(p);
            }
        }

        /// <summary>Creates the op and adds the inputs and outputs.</summary>
        public Op(long id, OpKind kind, LogicalTensor[] inputs, LogicalTensor[] outputs,
                string name) : this(id, kind, name)
        {
            try
            {
                foreach (var t in inputs) AddInput(t);
                foreach (var t in outputs) AddOutput(t);
            }
            catch
            {
                Dispose();
                throw;
            }
        }

        public Op AddInput(LogicalTensor t)
        {
            EnsureOpen();
            using (var n = t.ToNative())
                DnnlException.Check(Native.dnnl_graph_op_add_input(h, n), "dnnl_graph_op_add_input");
            return this;
        }

        public Op AddOutput(LogicalTensor t)
        {
            EnsureOpen();
            using (var n = t.ToNative())
                DnnlException.Check(Native.dnnl_graph_op_add_output(h, n), "dnnl_graph_op_add_output");
            return this;
        }

        /// <summary>Sets an integer (s64) attribute, scalar or vector.</summary>
        public Op SetAttr(OpAttr name, params long[] values)
        {
            EnsureOpen();
            var a = Native.new_int64_array(Math.Max(1, values.Length));
            try
            {
                for (int i = 0; i < values.Length; ++i) Native.int64_array_setitem(a, i, values[i]);
                // No array for an empty list: a scalar attribute then fails
                // (the C setters read one value whatever the count).
                DnnlException.Check(Native.dnnl_graph_op_set_attr_s64(h, name,
                        values.Length == 0 ? null : a, (ulong)values.Length),
                        "dnnl_graph_op_set_attr_s64");
            }
            finally
            {
                Native.delete_int64_array(a);
            }
            return this;
        }

        /// <summary>Sets a floating-point (f32) attribute, scalar or vector.</summary>
        public Op SetAttr(OpAttr name, params float[] values)
        {
            EnsureOpen();
            var a = Native.new_float_array(Math.Max(1, values.Length));
            try
            {
                for (int i = 0; i < values.Length; ++i) Native.float_array_setitem(a, i, values[i]);
                DnnlException.Check(Native.dnnl_graph_op_set_attr_f32(h, name,
                        values.Length == 0 ? null : a, (ulong)values.Length),
                        "dnnl_graph_op_set_attr_f32");
            }
            finally
            {
                Native.delete_float_array(a);
            }
            return this;
        }

        /// <summary>Sets a boolean attribute.</summary>
        public Op SetAttr(OpAttr name, bool value)
        {
            EnsureOpen();
            var a = Native.new_uint8_array(1);
            try
            {
                Native.uint8_array_setitem(a, 0, (byte)(value ? 1 : 0));
                DnnlException.Check(Native.dnnl_graph_op_set_attr_bool(h, name, a, 1),
                        "dnnl_graph_op_set_attr_bool");
            }
            finally
            {
                Native.delete_uint8_array(a);
            }
            return this;
        }

        /// <summary>Sets a string attribute.</summary>
        public Op SetAttr(OpAttr name, string value)
        {
            EnsureOpen();
            DnnlException.Check(Native.dnnl_graph_op_set_attr_str(h, name, value,
                    (ulong)Encoding.UTF8.GetByteCount(value)), "dnnl_graph_op_set_attr_str");
            return this;
        }

        public long Id
        {
            get
            {
                EnsureOpen();
                var p = Native.new_size_t_p();
                try
                {
                    DnnlException.Check(Native.dnnl_graph_op_get_id(h, p), "dnnl_graph_op_get_id");
                    return (long)Native.size_t_p_value(p);
                }
                finally { Native.delete_size_t_p(p); }
            }
        }

        public OpKind Kind
        {
            get
            {
                EnsureOpen();
                var p = Native.new_op_kind_p();
                try
                {
                    DnnlException.Check(Native.dnnl_graph_op_get_kind(h, p), "dnnl_graph_op_get_kind");
                    return Native.op_kind_p_value(p);
                }
                finally { Native.delete_op_kind_p(p); }
            }
        }

        internal override void Release()
        {
            if (h != null) Native.dnnl_graph_op_destroy(h);
        }
    }

    /// <summary>A set of connected ops, split into partitions once finalized.</summary>
    public sealed class Graph : Handle
    {
        internal readonly SWIGTYPE_p_dnnl_graph_graph h;

        public Graph(EngineKind kind)
        {
            var p = Native.new_graph_p();
            try
            {
                DnnlException.Check(Native.dnnl_graph_graph_create(p, kind), "dnnl_graph_graph_create");
                h = Native.graph_p_value(p);
            }
            catch
            {
                Dispose();
                throw;
            }
            finally
            {
                Native.delete_graph_p(p);
            }
        }

        /// <summary>Adds a copy of op after checking it against its schema.</summary>
        public Graph AddOp(Op op)
        {
            EnsureOpen();
            op.EnsureOpen();
            DnnlException.Check(Native.dnnl_graph_add_op(h, op.h), "dnnl_graph_add_op");
            return this;
        }

        public void FinalizeGraph()
        {
            EnsureOpen();
            DnnlException.Check(Native.dnnl_graph_graph_finalize(h), "dnnl_graph_graph_finalize");
        }

        /// <summary>Filters the finalized graph; the caller disposes the partitions.</summary>
        public List<Partition> GetPartitions(PartitionPolicy policy)
        {
            EnsureOpen();
            DnnlException.Check(Native.dnnl_graph_graph_filter(h, policy), "dnnl_graph_graph_filter");
            var num = Native.new_size_t_p();
            ulong n;
            try
            {
                DnnlException.Check(Native.dnnl_graph_graph_get_partition_num(h, num),
                        "dnnl_graph_graph_get_partition_num");
                n = Native.size_t_p_value(num);
            }
            finally { Native.delete_size_t_p(num); }
            var arr = Native.new_partition_array((int)Math.Max(1UL, n));
            var parts = new List<Partition>();
            try
            {
                DnnlException.Check(Native.dnnl_graph_graph_get_partitions(h, n, arr),
                        "dnnl_graph_graph_get_partitions");
                for (int i = 0; i < (int)n; ++i)
                    parts.Add(new Partition(Native.partition_array_getitem(arr, i)));
            }
            finally { Native.delete_partition_array(arr); }
            return parts;
        }

        /// <summary>Finalizes the graph if needed; returns fused partitions.</summary>
        public List<Partition> GetPartitions()
        {
            EnsureOpen();
            var fin = Native.new_uint8_p();
            try
            {
                DnnlException.Check(Native.dnnl_graph_graph_is_finalized(h, fin),
                        "dnnl_graph_graph_is_finalized");
                if (Native.uint8_p_value(fin) == 0) FinalizeGraph();
            }
            finally { Native.delete_uint8_p(fin); }
            return GetPartitions(PartitionPolicy.FUSION);
        }

        internal override void Release()
        {
            if (h != null) Native.dnnl_graph_graph_destroy(h);
        }
    }

    /// <summary>A group of ops compiled and executed as one unit.</summary>
    public sealed class Partition : Handle
    {
        internal readonly SWIGTYPE_p_dnnl_graph_partition h;

        internal Partition(SWIGTYPE_p_dnnl_graph_partition h)
        {
            this.h = h;
        }

        ulong SizeQuery(Func<SWIGTYPE_p_size_t, Status> call, string fn)
        {
            EnsureOpen();
            var p = Native.new_size_t_p();
            try
            {
                DnnlException.Check(call(p), fn);
                return Native.size_t_p_value(p);
            }
            finally { Native.delete_size_t_p(p); }
        }

        public long Id => (long)SizeQuery(p => Native.dnnl_graph_partition_get_id(h, p),
                "dnnl_graph_partition_get_id");

        public bool IsSupported
        {
            get
            {
                EnsureOpen();
                var p = Native.new_uint8_p();
                try
                {
                    DnnlException.Check(Native.dnnl_graph_partition_is_supported(h, p),
                            "dnnl_graph_partition_is_supported");
                    return Native.uint8_p_value(p) != 0;
                }
                finally { Native.delete_uint8_p(p); }
            }
        }

        /// <summary>Ids of the ops in this partition.</summary>
        public long[] OpIds
        {
            get
            {
                ulong n = SizeQuery(p => Native.dnnl_graph_partition_get_op_num(h, p),
                        "dnnl_graph_partition_get_op_num");
                var arr = Native.new_size_t_array((int)Math.Max(1UL, n));
                try
                {
                    DnnlException.Check(Native.dnnl_graph_partition_get_ops(h, n, arr),
                            "dnnl_graph_partition_get_ops");
                    var ids = new long[n];
                    for (int i = 0; i < (int)n; ++i) ids[i] = (long)Native.size_t_array_getitem(arr, i);
                    return ids;
                }
                finally { Native.delete_size_t_array(arr); }
            }
        }

        List<LogicalTensor> Ports(bool inputs)
        {
            ulong n = inputs
                    ? SizeQuery(p => Native.dnnl_graph_partition_get_input_ports_num(h, p),
                              "dnnl_graph_partition_get_input_ports_num")
                    : SizeQuery(p => Native.dnnl_graph_partition_get_output_ports_num(h, p),
                              "dnnl_graph_partition_get_output_ports_num");
            var arr = Native.new_lt_array((int)Math.Max(1UL, n));
            try
            {
                DnnlException.Check(inputs
                        ? Native.dnnl_graph_partition_get_input_ports(h, n, arr)
                        : Native.dnnl_graph_partition_get_output_ports(h, n, arr),
                        inputs ? "dnnl_graph_partition_get_input_ports"
                               : "dnnl_graph_partition_get_output_ports");
                var list = new List<LogicalTensor>();
                for (int i = 0; i < (int)n; ++i)
                    list.Add(LogicalTensor.FromNative(Native.lt_array_getitem(arr, i)));
                return list;
            }
            finally { Native.delete_lt_array(arr); }
        }

        public List<LogicalTensor> InputPorts => Ports(true);
        public List<LogicalTensor> OutputPorts => Ports(false);

        /// <summary>Compiles for engine with concrete input (and possibly
        /// incomplete output) descriptions.</summary>
        public CompiledPartition Compile(IList<LogicalTensor> inputs, IList<LogicalTensor> outputs,
                Engine engine)
        {
            EnsureOpen();
            engine.EnsureOpen();
            var cp = new CompiledPartition(this);
            var natives = new List<dnnl_graph_logical_tensor_t>();
            var ins = Native.new_lt_ptr_array(Math.Max(1, inputs.Count));
            var outs = Native.new_lt_ptr_array(Math.Max(1, outputs.Count));
            try
            {
                for (int i = 0; i < inputs.Count; ++i)
                {
                    var n = inputs[i].ToNative();
                    natives.Add(n);
                    Native.lt_ptr_array_setitem(ins, i, n);
                }
                for (int i = 0; i < outputs.Count; ++i)
                {
                    var n = outputs[i].ToNative();
                    natives.Add(n);
                    Native.lt_ptr_array_setitem(outs, i, n);
                }
                DnnlException.Check(Native.dnnl_graph_partition_compile(h, cp.h,
                        (ulong)inputs.Count, ins, (ulong)outputs.Count, outs, engine.h),
                        "dnnl_graph_partition_compile");
                return cp;
            }
            catch
            {
                cp.Dispose();
                throw;
            }
            finally
            {
                foreach (var n in natives) n.Dispose();
                Native.delete_lt_ptr_array(ins);
                Native.delete_lt_ptr_array(outs);
            }
        }

        internal override void Release()
        {
            if (h != null) Native.dnnl_graph_partition_destroy(h);
        }
    }

    /// <summary>A partition compiled for concrete shapes.</summary>
    public sealed class CompiledPartition : Handle
    {
        internal readonly SWIGTYPE_p_dnnl_graph_compiled_partition h;

        internal CompiledPartition(Partition partition)
        {
            var p = Native.new_compiled_partition_p();
            try
            {
                DnnlException.Check(Native.dnnl_graph_compiled_partition_create(p, partition.h),
                        "dnnl_graph_compiled_partition_create");
                h = Native.compiled_partition_p_value(p);
            }
            catch
            {
                Dispose();
                throw;
            }
            finally { Native.delete_compiled_partition_p(p); }
        }

        /// <summary>The final description of input or output tid.</summary>
        public LogicalTensor QueryLogicalTensor(long tid)
        {
            EnsureOpen();
            var n = new dnnl_graph_logical_tensor_t();
            var st = Native.dnnl_graph_compiled_partition_query_logical_tensor(h, (ulong)tid, n);
            if (st != Status.SUCCESS) n.Dispose();
            DnnlException.Check(st, "dnnl_graph_compiled_partition_query_logical_tensor");
            return LogicalTensor.FromNative(n);
        }

        /// <summary>Submits the partition to stream (then call stream.Wait()).</summary>
        public void Execute(Stream stream, IList<Tensor> inputs, IList<Tensor> outputs)
        {
            EnsureOpen();
            stream.EnsureOpen();
            var ins = Native.new_tensor_array(Math.Max(1, inputs.Count));
            var outs = Native.new_tensor_array(Math.Max(1, outputs.Count));
            try
            {
                for (int i = 0; i < inputs.Count; ++i)
                {
                    inputs[i].EnsureOpen();
                    Native.tensor_array_setitem(ins, i, inputs[i].h);
                }
                for (int i = 0; i < outputs.Count; ++i)
                {
                    outputs[i].EnsureOpen();
                    Native.tensor_array_setitem(outs, i, outputs[i].h);
                }
                DnnlException.Check(Native.dnnl_graph_compiled_partition_execute(h, stream.h,
                        (ulong)inputs.Count, ins, (ulong)outputs.Count, outs),
                        "dnnl_graph_compiled_partition_execute");
            }
            finally
            {
                Native.delete_tensor_array(ins);
                Native.delete_tensor_array(outs);
            }
        }

        internal override void Release()
        {
            if (h != null) Native.dnnl_graph_compiled_partition_destroy(h);
        }
    }
}
