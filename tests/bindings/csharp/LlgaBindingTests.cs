// SPDX-License-Identifier: Apache-2.0
// tests/bindings/csharp/LlgaBindingTests.cs — NUnit 2.6 tests of the C#
// binding: a conv+bias+ReLU graph checked against plain loops, arrays and
// IntPtr memory, exceptions carrying status and message, and leak checks
// through handle counting and the C-side counting allocator.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Runtime.InteropServices;
using Llga;
using NUnit.Framework;

[TestFixture]
public class LlgaBindingTests
{
    const int C = 3, H = 6, W = 6, F = 4, K = 3;

    static float[] Fill(int n, int seed)
    {
        var v = new float[n];
        uint s = (uint)(seed * 7919 + 1);
        for (int i = 0; i < n; ++i)
        {
            s = s * 1103515245u + 12345u;
            v[i] = ((s >> 8) & 0xffff) / 32768.0f - 1.0f;
        }
        return v;
    }

    static float[] Reference(float[] x, float[] w, float[] b)
    {
        var o = new float[F * H * W];
        for (int f = 0; f < F; ++f)
            for (int y = 0; y < H; ++y)
                for (int xx = 0; xx < W; ++xx)
                {
                    double acc = b[f];
                    for (int c = 0; c < C; ++c)
                        for (int ky = 0; ky < K; ++ky)
                            for (int kx = 0; kx < K; ++kx)
                            {
                                int iy = y + ky - 1, ix = xx + kx - 1;
                                if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
                                acc += x[(c * H + iy) * W + ix] * w[((f * C + c) * K + ky) * K + kx];
                            }
                    o[(f * H + y) * W + xx] = (float)Math.Max(acc, 0.0);
                }
        return o;
    }

    static readonly LogicalTensor Src = new LogicalTensor(0, DataType.F32, new long[] { 1, C, H, W }, LayoutType.STRIDED);
    static readonly LogicalTensor Wei = new LogicalTensor(1, DataType.F32, new long[] { F, C, K, K }, LayoutType.STRIDED, TensorProperty.CONSTANT);
    static readonly LogicalTensor Bia = new LogicalTensor(2, DataType.F32, new long[] { F }, LayoutType.STRIDED, TensorProperty.CONSTANT);
    static readonly LogicalTensor Dst = new LogicalTensor(5, DataType.F32, new long[] { 1, F, H, W }, LayoutType.STRIDED);

    static Op ConvOp()
    {
        var convOut = new LogicalTensor(3, DataType.F32, 4, LayoutType.LAYOUT_UNDEF);
        var conv = new Op(0, OpKind.CONVOLUTION, new[] { Src, Wei }, new[] { convOut }, "conv");
        return conv.SetAttr(OpAttr.STRIDES, 1, 1).SetAttr(OpAttr.PADS_BEGIN, 1, 1)
            .SetAttr(OpAttr.PADS_END, 1, 1).SetAttr(OpAttr.DILATIONS, 1, 1)
            .SetAttr(OpAttr.DATA_FORMAT, "NCX").SetAttr(OpAttr.WEIGHTS_FORMAT, "OIX");
    }

    static List<Partition> BuildChain(Graph g)
    {
        var convOut = new LogicalTensor(3, DataType.F32, 4, LayoutType.LAYOUT_UNDEF);
        var biasOut = new LogicalTensor(4, DataType.F32, 4, LayoutType.LAYOUT_UNDEF);
        using (var conv = ConvOp())
        using (var bias = new Op(1, OpKind.BIAS_ADD, new[] { convOut, Bia }, new[] { biasOut }, "bias"))
        using (var relu = new Op(2, OpKind.RELU, new[] { biasOut }, new[] { Dst }, "relu"))
        {
            bias.SetAttr(OpAttr.DATA_FORMAT, "NCX");
            Assert.AreEqual(OpKind.CONVOLUTION, conv.Kind);
            Assert.AreEqual(2, relu.Id);
            g.AddOp(conv).AddOp(bias).AddOp(relu);
        }
        return g.GetPartitions();
    }

    // Runs the chain partition by partition; everything created is disposed.
    static float[] RunChain(Engine eng, float[] x, float[] w, float[] b, bool libraryOwned)
    {
        var data = new Dictionary<long, float[]> { [0] = x, [1] = w, [2] = b };
        var known = new Dictionary<long, LogicalTensor> { [0] = Src, [1] = Wei, [2] = Bia };
        using (var strm = new Stream(eng))
        using (var g = new Graph(EngineKind.CPU))
        {
            var parts = BuildChain(g);
            try
            {
                var allOps = new SortedSet<long>();
                foreach (var p in parts)
                {
                    Assert.IsTrue(p.IsSupported);
                    foreach (var id in p.OpIds) allOps.Add(id);
                    var ins = p.InputPorts.Select(t => known[t.Id]).ToList();
                    var outs = p.OutputPorts.Select(t => new LogicalTensor(t.Id, DataType.F32,
                            LogicalTensor.UnknownNdims, LayoutType.ANY)).ToList();
                    using (var cp = p.Compile(ins, outs, eng))
                    {
                        var tin = new List<Tensor>();
                        var tout = new List<Tensor>();
                        try
                        {
                            foreach (var lt in ins)
                            {
                                if (libraryOwned)
                                {
                                    var t = Tensor.Allocate(lt, eng);
                                    tin.Add(t);
                                    t.CopyFrom(data[lt.Id]);
                                }
                                else
                                {
                                    tin.Add(Tensor.FromArray(lt, eng, data[lt.Id]));
                                }
                            }
                            foreach (var lt in outs)
                            {
                                var q = cp.QueryLogicalTensor(lt.Id);
                                known[q.Id] = q;
                                tout.Add(libraryOwned ? Tensor.Allocate(q, eng)
                                        : Tensor.FromArray(q, eng, new float[q.MemSize / 4]));
                            }
                            cp.Execute(strm, tin, tout);
                            strm.Wait();
                            foreach (var t in tout) data[t.LogicalTensor.Id] = t.ToFloatArray();
                        }
                        finally
                        {
                            foreach (var t in tin) t.Dispose();
                            foreach (var t in tout) t.Dispose();
                        }
                    }
                }
                CollectionAssert.AreEqual(new long[] { 0, 1, 2 }, allOps.ToArray());
                CollectionAssert.AreEqual(new long[] { 1, F, H, W }, known[5].Dims);
                Assert.AreEqual(4L * F * H * W, known[5].MemSize);
                return data[5];
            }
            finally
            {
                foreach (var p in parts) p.Dispose();
            }
        }
    }

    static void AssertClose(float[] want, float[] got)
    {
        Assert.AreEqual(want.Length, got.Length);
        for (int i = 0; i < want.Length; ++i) Assert.AreEqual(want[i], got[i], 1e-4, "element " + i);
    }

    [Test]
    public void ConvBiasReluMatchesPlainLoops()
    {
        float[] x = Fill(C * H * W, 1), w = Fill(F * C * K * K, 2), b = Fill(F, 3);
        using (var eng = new Engine(EngineKind.CPU, 0))
        {
            Assert.AreEqual(EngineKind.CPU, eng.Kind);
            AssertClose(Reference(x, w, b), RunChain(eng, x, w, b, false));
            AssertClose(Reference(x, w, b), RunChain(eng, x, w, b, true));
        }
    }

    [Test]
    public void ArraysAndIntPtrShareMemory()
    {
        var lt = new LogicalTensor(7, DataType.F32, new long[] { 2, 3 }, LayoutType.STRIDED);
        CollectionAssert.AreEqual(new long[] { 3, 1 }, lt.Strides);
        Assert.AreEqual(24, lt.MemSize);
        using (var eng = new Engine(EngineKind.CPU))
        {
            var arr = new float[6];
            using (var t = Tensor.FromArray(lt, eng, arr))
            {
                arr[4] = 2.5f; // the tensor sees the pinned array itself
                Assert.AreEqual(2.5f, t.ToFloatArray()[4]);
                t.CopyFrom(new float[] { 1, 2, 3, 4, 5, 6 });
                Assert.AreEqual(6f, arr[5]);
            }
            IntPtr mem = Marshal.AllocHGlobal(24);
            try
            {
                using (var t = new Tensor(lt, eng, mem))
                {
                    t.CopyFrom(new float[] { 9, 8, 7, 6, 5, 4 });
                    var back = new float[6];
                    Marshal.Copy(mem, back, 0, 6);
                    CollectionAssert.AreEqual(new float[] { 9, 8, 7, 6, 5, 4 }, back);
                }
            }
            finally { Marshal.FreeHGlobal(mem); }
            Assert.Throws<ArgumentException>(() => Tensor.FromArray(lt, eng, new float[2]));
        }
    }

    [Test]
    public void MissingAttributeRaisesWithStatusAndMessage()
    {
        var o = new LogicalTensor(3, DataType.F32, 4, LayoutType.LAYOUT_UNDEF);
        using (var g = new Graph(EngineKind.CPU))
        using (var conv = new Op(0, OpKind.CONVOLUTION, new[] { Src, Wei }, new[] { o }, "conv"))
        {
            var e = Assert.Throws<DnnlException>(() => g.AddOp(conv));
            Assert.AreEqual(Status.INVALID_GRAPH_OP, e.Status);
            string detail = Native.llga_last_error_message();
            Assert.IsNotEmpty(detail);
            StringAssert.Contains(detail, e.Message);
            StringAssert.Contains("strides", e.Message);
        }
    }

    [Test]
    public void BadAttributeValuesRaise()
    {
        using (var relu = new Op(9, OpKind.RELU, "relu"))
        {
            var e = Assert.Throws<DnnlException>(() => relu.SetAttr(OpAttr.DATA_FORMAT, ""));
            Assert.AreEqual(Status.INVALID_ARGUMENTS, e.Status);
            StringAssert.Contains(Native.llga_last_error_message(), e.Message);
            StringAssert.Contains("data_format", e.Message);
            e = Assert.Throws<DnnlException>(() => relu.SetAttr(OpAttr.AXIS, new long[0]));
            Assert.AreEqual(Status.INVALID_ARGUMENTS, e.Status);
        }
        using (var g = new Graph(EngineKind.CPU))
        using (var conv = ConvOp())
        {
            conv.SetAttr(OpAttr.DATA_FORMAT, 1L); // accepted here, rejected by the schema
            var e = Assert.Throws<DnnlException>(() => g.AddOp(conv));
            Assert.AreEqual(Status.INVALID_GRAPH_OP, e.Status);
            StringAssert.Contains(Native.llga_last_error_message(), e.Message);
        }
    }

    [Test]
    public void WrongTensorAtExecuteRaises()
    {
        var a = new LogicalTensor(10, DataType.F32, new long[] { 2, 3 }, LayoutType.STRIDED);
        var other = new LogicalTensor(10, DataType.F32, new long[] { 3, 2 }, LayoutType.STRIDED);
        var y = new LogicalTensor(11, DataType.F32, new long[] { 2, 3 }, LayoutType.STRIDED);
        using (var eng = new Engine(EngineKind.CPU))
        using (var strm = new Stream(eng))
        using (var g = new Graph(EngineKind.CPU))
        using (var relu = new Op(0, OpKind.RELU, new[] { a }, new[] { y }, "relu"))
        {
            g.AddOp(relu);
            var parts = g.GetPartitions();
            try
            {
                using (var cp = parts[0].Compile(new[] { a }, new[] { y }, eng))
                using (var ta = Tensor.FromArray(a, eng, new float[] { -1, 2, -3, 4, -5, 6 }))
                using (var tWrong = Tensor.FromArray(other, eng, new float[6]))
                using (var ty = Tensor.Allocate(y, eng))
                {
                    cp.Execute(strm, new[] { ta }, new[] { ty });
                    strm.Wait();
                    CollectionAssert.AreEqual(new float[] { 0, 2, 0, 4, 0, 6 }, ty.ToFloatArray());
                    var e = Assert.Throws<DnnlException>(() => cp.Execute(strm, new[] { tWrong }, new[] { ty }));
                    Assert.AreEqual(Status.INVALID_ARGUMENTS, e.Status);
                    StringAssert.Contains(Native.llga_last_error_message(), e.Message);
                    e = Assert.Throws<DnnlException>(() => cp.Execute(strm, new Tensor[0], new[] { ty }));
                    Assert.AreEqual(Status.INVALID_ARGUMENTS, e.Status);
                }
            }
            finally
            {
                foreach (var p in parts) p.Dispose();
            }
        }
    }

    [Test]
    public void DisposedHandlesAreRejected()
    {
        var eng = new Engine(EngineKind.CPU);
        eng.Dispose();
        eng.Dispose(); // idempotent
        Assert.IsTrue(eng.IsDisposed);
        Assert.Throws<ObjectDisposedException>(() => new Stream(eng));
    }

    [Test]
    public void NothingLeaks()
    {
        long handlesBefore = Handle.LiveHandles;
        long blocksBefore = Allocator.LiveBlocks;
        long totalBefore = Allocator.TotalBlocks;
        float[] x = Fill(C * H * W, 4), w = Fill(F * C * K * K, 5), b = Fill(F, 6);
        for (int round = 0; round < 3; ++round)
        {
            Engine eng;
            using (var alloc = Allocator.Counting())
                eng = new Engine(EngineKind.CPU, 0, alloc);
            using (eng)
                AssertClose(Reference(x, w, b), RunChain(eng, x, w, b, true));
        }
        Assert.Greater(Allocator.TotalBlocks, totalBefore, "the counting allocator was used");
        Assert.AreEqual(blocksBefore, Allocator.LiveBlocks, "blocks still allocated");
        Assert.AreEqual(handlesBefore, Handle.LiveHandles, "handles still open");
    }
}
