// SPDX-License-Identifier: Apache-2.0
// bindings/java/examples/GettingStarted.java — the Java getting-started
// example of docs/bindings.md (included there verbatim; ctest runs it):
// conv + bias + ReLU built, partitioned, compiled and executed through the
// org.llga binding, checked against plain loops.
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.llga.*;

public class GettingStarted {
    static final int C = 2, H = 5, W = 5, F = 3, K = 3;

    public static void main(String[] args) {
        float[] x = new float[C * H * W], w = new float[F * C * K * K], b = new float[F];
        for (int i = 0; i < x.length; ++i) x[i] = (i % 7) * 0.25f - 0.5f;
        for (int i = 0; i < w.length; ++i) w[i] = (i % 5) * 0.1f - 0.2f;
        for (int i = 0; i < F; ++i) b[i] = 0.1f * i - 0.1f;

        LogicalTensor src = new LogicalTensor(0, DataType.F32, new long[] {1, C, H, W},
                LayoutType.STRIDED);
        LogicalTensor wei = new LogicalTensor(1, DataType.F32, new long[] {F, C, K, K},
                LayoutType.STRIDED, TensorProperty.CONSTANT);
        LogicalTensor bia = new LogicalTensor(2, DataType.F32, new long[] {F},
                LayoutType.STRIDED, TensorProperty.CONSTANT);
        // Produced tensors: rank and layout are left to the library.
        LogicalTensor convOut = new LogicalTensor(3, DataType.F32,
                LogicalTensor.UNKNOWN_NDIMS, LayoutType.LAYOUT_UNDEF);
        LogicalTensor biasOut = new LogicalTensor(4, DataType.F32,
                LogicalTensor.UNKNOWN_NDIMS, LayoutType.LAYOUT_UNDEF);
        LogicalTensor dst = new LogicalTensor(5, DataType.F32,
                LogicalTensor.UNKNOWN_NDIMS, LayoutType.LAYOUT_UNDEF);

        Map<Long, float[]> data = new HashMap<>();
        data.put(0L, x);
        data.put(1L, w);
        data.put(2L, b);
        Map<Long, LogicalTensor> known = new HashMap<>();
        for (LogicalTensor t : new LogicalTensor[] {src, wei, bia}) known.put(t.id(), t);

        try (Engine eng = new Engine(EngineKind.CPU, 0);
                Stream strm = new Stream(eng);
                Graph g = new Graph(EngineKind.CPU)) {
            try (Op conv = new Op(0, OpKind.CONVOLUTION, new LogicalTensor[] {src, wei},
                         new LogicalTensor[] {convOut}, "conv");
                    Op bias = new Op(1, OpKind.BIAS_ADD, new LogicalTensor[] {convOut, bia},
                            new LogicalTensor[] {biasOut}, "bias");
                    Op relu = new Op(2, OpKind.RELU, new LogicalTensor[] {biasOut},
                            new LogicalTensor[] {dst}, "relu")) {
                conv.setAttr(OpAttr.STRIDES, 1, 1).setAttr(OpAttr.PADS_BEGIN, 1, 1)
                        .setAttr(OpAttr.PADS_END, 1, 1).setAttr(OpAttr.DILATIONS, 1, 1)
                        .setAttr(OpAttr.DATA_FORMAT, "NCX").setAttr(OpAttr.WEIGHTS_FORMAT, "OIX");
                bias.setAttr(OpAttr.DATA_FORMAT, "NCX");
                g.addOp(conv).addOp(bias).addOp(relu);
            }
            for (Partition p : g.getPartitions()) {
                try (Partition part = p) {
                    List<LogicalTensor> ins = new ArrayList<>(), outs = new ArrayList<>();
                    for (LogicalTensor port : part.inputPorts()) ins.add(known.get(port.id()));
                    for (LogicalTensor port : part.outputPorts())
                        outs.add(new LogicalTensor(port.id(), DataType.F32,
                                LogicalTensor.UNKNOWN_NDIMS, LayoutType.ANY));
                    try (CompiledPartition cp = part.compile(ins, outs, eng)) {
                        List<Tensor> tin = new ArrayList<>(), tout = new ArrayList<>();
                        for (LogicalTensor lt : ins)
                            tin.add(Tensor.fromArray(lt, eng, data.get(lt.id())));
                        for (LogicalTensor lt : outs) {
                            LogicalTensor q = cp.queryLogicalTensor(lt.id());
                            known.put(q.id(), q);
                            tout.add(Tensor.allocate(q, eng));
                        }
                        cp.execute(strm, tin, tout);
                        strm.waitAll();
                        for (Tensor t : tout) data.put(t.logicalTensor().id(), t.toFloatArray());
                        for (Tensor t : tin) t.close();
                        for (Tensor t : tout) t.close();
                    }
                }
            }
        }

        // The same computation as plain loops.
        float[] got = data.get(5L);
        double maxErr = 0;
        for (int f = 0; f < F; ++f)
            for (int y = 0; y < H; ++y)
                for (int xx = 0; xx < W; ++xx) {
                    double acc = b[f];
                    for (int c = 0; c < C; ++c)
                        for (int ky = 0; ky < K; ++ky)
                            for (int kx = 0; kx < K; ++kx) {
                                int iy = y + ky - 1, ix = xx + kx - 1;
                                if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
                                acc += x[(c * H + iy) * W + ix] * w[((f * C + c) * K + ky) * K + kx];
                            }
                    double want = Math.max(acc, 0.0);
                    maxErr = Math.max(maxErr, Math.abs(got[(f * H + y) * W + xx] - want));
                }
        System.out.printf("conv+bias+relu: %d values, max |error| %.2e%n", got.length, maxErr);
        if (maxErr > 1e-4) throw new AssertionError("result mismatch");
        System.out.println("OK");
    }
}
