// SPDX-License-Identifier: Apache-2.0
// bindings/csharp/examples/GettingStarted.cs — the C# getting-started
// example of docs/bindings.md (included there verbatim; ctest runs it):
// conv + bias + ReLU built, partitioned, compiled and executed through the
// Llga binding, checked against plain loops.
using System;
using System.Collections.Generic;
using Llga;

static class GettingStarted
{
    const int C = 2, H = 5, W = 5, F = 3, K = 3;

    static int Main()
    {
        var x = new float[C * H * W];
        var w = new float[F * C * K * K];
        var b = new float[F];
        for (int i = 0; i < x.Length; ++i) x[i] = (i % 7) * 0.25f - 0.5f;
        for (int i = 0; i < w.Length; ++i) w[i] = (i % 5) * 0.1f - 0.2f;
        for (int i = 0; i < F; ++i) b[i] = 0.1f * i - 0.1f;

        var src = new LogicalTensor(0, DataType.F32, new long[] { 1, C, H, W }, LayoutType.STRIDED);
        var wei = new LogicalTensor(1, DataType.F32, new long[] { F, C, K, K }, LayoutType.STRIDED,
                TensorProperty.CONSTANT);
        var bia = new LogicalTensor(2, DataType.F32, new long[] { F }, LayoutType.STRIDED,
                TensorProperty.CONSTANT);
        // Produced tensors: rank and layout are left to the library.
        var convOut = new LogicalTensor(3, DataType.F32, LogicalTensor.UnknownNdims, LayoutType.LAYOUT_UNDEF);
        var biasOut = new LogicalTensor(4, DataType.F32, LogicalTensor.UnknownNdims, LayoutType.LAYOUT_UNDEF);
        var dst = new LogicalTensor(5, DataType.F32, LogicalTensor.UnknownNdims, LayoutType.LAYOUT_UNDEF);

        var data = new Dictionary<long, float[]> { [0] = x, [1] = w, [2] = b };
        var known = new Dictionary<long, LogicalTensor> { [0] = src, [1] = wei, [2] = bia };

        using (var eng = new Engine(EngineKind.CPU, 0))
        using (var strm = new Stream(eng))
        using (var g = new Graph(EngineKind.CPU))
        {
            using (var conv = new Op(0, OpKind.CONVOLUTION, new[] { src, wei }, new[] { convOut }, "conv"))
            using (var bias = new Op(1, OpKind.BIAS_ADD, new[] { convOut, bia }, new[] { biasOut }, "bias"))
            using (var relu = new Op(2, OpKind.RELU, new[] { biasOut }, new[] { dst }, "relu"))
            {
                conv.SetAttr(OpAttr.STRIDES, 1, 1).SetAttr(OpAttr.PADS_BEGIN, 1, 1)
                    .SetAttr(OpAttr.PADS_END, 1, 1).SetAttr(OpAttr.DILATIONS, 1, 1)
                    .SetAttr(OpAttr.DATA_FORMAT, "NCX").SetAttr(OpAttr.WEIGHTS_FORMAT, "OIX");
                bias.SetAttr(OpAttr.DATA_FORMAT, "NCX");
                g.AddOp(conv).AddOp(bias).AddOp(relu);
            }
            foreach (var part in g.GetPartitions())
            {
                using (part)
                {
                    var ins = new List<LogicalTensor>();
                    var outs = new List<LogicalTensor>();
                    foreach (var port in part.InputPorts) ins.Add(known[port.Id]);
                    foreach (var port in part.OutputPorts)
                        outs.Add(new LogicalTensor(port.Id, DataType.F32, LogicalTensor.UnknownNdims,
                                LayoutType.ANY));
                    using (var cp = part.Compile(ins, outs, eng))
                    {
                        var tin = new List<Tensor>();
                        var tout = new List<Tensor>();
                        foreach (var lt in ins) tin.Add(Tensor.FromArray(lt, eng, data[lt.Id]));
                        foreach (var lt in outs)
                        {
                            var q = cp.QueryLogicalTensor(lt.Id);
                            known[q.Id] = q;
                            data[q.Id] = new float[q.MemSize / 4];
                            tout.Add(Tensor.FromArray(q, eng, data[q.Id])); // results land in the array
                        }
                        cp.Execute(strm, tin, tout);
                        strm.Wait();
                        foreach (var t in tin) t.Dispose();
                        foreach (var t in tout) t.Dispose();
                    }
                }
            }
        }

        // The same computation as plain loops.
        var got = data[5];
        double maxErr = 0;
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
                    maxErr = Math.Max(maxErr, Math.Abs(got[(f * H + y) * W + xx] - Math.Max(acc, 0.0)));
                }
        Console.WriteLine("conv+bias+relu: {0} values, max |error| {1:E2}", got.Length, maxErr);
        if (maxErr > 1e-4) return 1;
        Console.WriteLine("OK");
        return 0;
    }
}
