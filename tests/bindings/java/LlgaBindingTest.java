// SPDX-License-Identifier: Apache-2.0
// tests/bindings/java/LlgaBindingTest.java — JUnit 5 tests of the Java
// binding: a conv+bias+ReLU graph checked against plain loops, zero-copy NIO
// tensors, exceptions carrying status and message, and leak checks through
// handle counting and the C-side counting allocator.
import static org.junit.jupiter.api.Assertions.*;

import java.nio.ByteBuffer;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.llga.*;

public class LlgaBindingTest {
    static final int C = 3, H = 6, W = 6, F = 4, K = 3;

    static float[] fill(int n, int seed) {
        float[] v = new float[n];
        int s = seed * 7919 + 1;
        for (int i = 0; i < n; ++i) {
            s = s * 1103515245 + 12345;
            v[i] = ((s >>> 8) & 0xffff) / 32768.0f - 1.0f;
        }
        return v;
    }

    static float[] reference(float[] x, float[] w, float[] b) {
        float[] out = new float[F * H * W];
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
                    out[(f * H + y) * W + xx] = (float) Math.max(acc, 0.0);
                }
        return out;
    }

    static final LogicalTensor SRC = new LogicalTensor(0, DataType.F32,
            new long[] {1, C, H, W}, LayoutType.STRIDED);
    static final LogicalTensor WEI = new LogicalTensor(1, DataType.F32,
            new long[] {F, C, K, K}, LayoutType.STRIDED, TensorProperty.CONSTANT);
    static final LogicalTensor BIA = new LogicalTensor(2, DataType.F32, new long[] {F},
            LayoutType.STRIDED, TensorProperty.CONSTANT);
    // Fully specified dst so it can be given to the fused partition directly.
    static final LogicalTensor DST = new LogicalTensor(5, DataType.F32,
            new long[] {1, F, H, W}, LayoutType.STRIDED);

    static Op convOp() {
        LogicalTensor convOut = new LogicalTensor(3, DataType.F32, 4, LayoutType.LAYOUT_UNDEF);
        Op conv = new Op(0, OpKind.CONVOLUTION, new LogicalTensor[] {SRC, WEI},
                new LogicalTensor[] {convOut}, "conv");
        return conv.setAttr(OpAttr.STRIDES, 1, 1).setAttr(OpAttr.PADS_BEGIN, 1, 1)
                .setAttr(OpAttr.PADS_END, 1, 1).setAttr(OpAttr.DILATIONS, 1, 1)
                .setAttr(OpAttr.DATA_FORMAT, "NCX").setAttr(OpAttr.WEIGHTS_FORMAT, "OIX");
    }

    /** Builds the chain into g; returns the partitions (caller closes). */
    static List<Partition> buildChain(Graph g) {
        LogicalTensor convOut = new LogicalTensor(3, DataType.F32, 4, LayoutType.LAYOUT_UNDEF);
        LogicalTensor biasOut = new LogicalTensor(4, DataType.F32, 4, LayoutType.LAYOUT_UNDEF);
        try (Op conv = convOp();
                Op bias = new Op(1, OpKind.BIAS_ADD, new LogicalTensor[] {convOut, BIA},
                        new LogicalTensor[] {biasOut}, "bias");
                Op relu = new Op(2, OpKind.RELU, new LogicalTensor[] {biasOut},
                        new LogicalTensor[] {DST}, "relu")) {
            bias.setAttr(OpAttr.DATA_FORMAT, "NCX");
            assertEquals(OpKind.CONVOLUTION, conv.kind());
            assertEquals(2, relu.id());
            g.addOp(conv).addOp(bias).addOp(relu);
        }
        return g.getPartitions();
    }

    /** Runs the chain on eng, partition by partition, and returns the
     *  output. Everything it creates is closed before it returns. */
    static float[] runChain(Engine eng, float[] x, float[] w, float[] b, boolean libraryOwned) {
        Map<Long, float[]> data = new HashMap<>();
        data.put(0L, x);
        data.put(1L, w);
        data.put(2L, b);
        Map<Long, LogicalTensor> known = new HashMap<>();
        for (LogicalTensor t : new LogicalTensor[] {SRC, WEI, BIA}) known.put(t.id(), t);
        try (Stream strm = new Stream(eng); Graph g = new Graph(EngineKind.CPU)) {
            List<Partition> parts = buildChain(g);
            try {
                assertFalse(parts.isEmpty());
                Set<Long> allOps = new TreeSet<>();
                for (Partition p : parts) {
                    assertTrue(p.isSupported());
                    for (long id : p.opIds()) allOps.add(id);
                    List<LogicalTensor> ins = new ArrayList<>(), outs = new ArrayList<>();
                    for (LogicalTensor port : p.inputPorts()) ins.add(known.get(port.id()));
                    for (LogicalTensor port : p.outputPorts())
                        outs.add(new LogicalTensor(port.id(), DataType.F32,
                                LogicalTensor.UNKNOWN_NDIMS, LayoutType.ANY));
                    try (CompiledPartition cp = p.compile(ins, outs, eng)) {
                        List<Tensor> tin = new ArrayList<>(), tout = new ArrayList<>();
                        try {
                            for (LogicalTensor lt : ins) {
                                if (libraryOwned) {
                                    Tensor t = Tensor.allocate(lt, eng);
                                    tin.add(t);
                                    t.write(data.get(lt.id()));
                                } else {
                                    tin.add(Tensor.fromArray(lt, eng, data.get(lt.id())));
                                }
                            }
                            for (LogicalTensor lt : outs) {
                                LogicalTensor q = cp.queryLogicalTensor(lt.id());
                                known.put(q.id(), q);
                                tout.add(libraryOwned ? Tensor.allocate(q, eng)
                                        : new Tensor(q, eng, Tensor.directBuffer(q.memSize())));
                            }
                            cp.execute(strm, tin, tout);
                            strm.waitAll();
                            for (Tensor t : tout) data.put(t.logicalTensor().id(), t.toFloatArray());
                        } finally {
                            for (Tensor t : tin) t.close();
                            for (Tensor t : tout) t.close();
                        }
                    }
                }
                assertEquals(new TreeSet<>(Arrays.asList(0L, 1L, 2L)), allOps);
                LogicalTensor q = known.get(5L);
                assertArrayEquals(new long[] {1, F, H, W}, q.dims());
                assertEquals(4L * F * H * W, q.memSize());
                return data.get(5L);
            } finally {
                for (Partition p : parts) p.close();
            }
        }
    }

    static void assertClose(float[] want, float[] got) {
        assertEquals(want.length, got.length);
        for (int i = 0; i < want.length; ++i)
            assertEquals(want[i], got[i], 1e-4f, "element " + i);
    }

    @Test
    void convBiasReluMatchesPlainLoops() {
        float[] x = fill(C * H * W, 1), w = fill(F * C * K * K, 2), b = fill(F, 3);
        try (Engine eng = new Engine(EngineKind.CPU, 0)) {
            assertEquals(EngineKind.CPU, eng.kind());
            assertClose(reference(x, w, b), runChain(eng, x, w, b, false));
            assertClose(reference(x, w, b), runChain(eng, x, w, b, true));
        }
    }

    @Test
    void nioBuffersAreZeroCopy() {
        LogicalTensor lt = new LogicalTensor(7, DataType.F32, new long[] {2, 3}, LayoutType.STRIDED);
        assertArrayEquals(new long[] {3, 1}, lt.strides());
        assertEquals(24, lt.memSize());
        try (Engine eng = new Engine(EngineKind.CPU, 0)) {
            ByteBuffer bb = Tensor.directBuffer(lt.memSize());
            FloatBuffer fb = bb.asFloatBuffer();
            try (Tensor t = new Tensor(lt, eng, fb)) {
                fb.put(4, 2.5f); // written through Java, seen by the tensor
                assertEquals(2.5f, t.toFloatArray()[4]);
                t.write(new float[] {1, 2, 3, 4, 5, 6}); // written by C, seen in Java
                assertEquals(6f, fb.get(5));
                assertSame(fb, t.buffer());
            }
            // Heap buffers have no stable address: rejected up front.
            assertThrows(IllegalArgumentException.class,
                    () -> new Tensor(lt, eng, ByteBuffer.allocate(64)));
            // Too small.
            assertThrows(IllegalArgumentException.class,
                    () -> new Tensor(lt, eng, Tensor.directBuffer(8)));
        }
    }

    @Test
    void missingAttributeRaisesWithStatusAndMessage() {
        LogicalTensor out = new LogicalTensor(3, DataType.F32, 4, LayoutType.LAYOUT_UNDEF);
        try (Graph g = new Graph(EngineKind.CPU);
                Op conv = new Op(0, OpKind.CONVOLUTION, new LogicalTensor[] {SRC, WEI},
                        new LogicalTensor[] {out}, "conv")) {
            DnnlException e = assertThrows(DnnlException.class, () -> g.addOp(conv));
            assertEquals(Status.INVALID_GRAPH_OP, e.status());
            String detail = Native.llga_last_error_message();
            assertFalse(detail.isEmpty());
            assertTrue(e.getMessage().contains(detail), e.getMessage());
            assertTrue(e.getMessage().contains("strides"), e.getMessage());
        }
    }

    @Test
    void badAttributeValuesRaise() {
        try (Op relu = new Op(9, OpKind.RELU, "relu")) {
            DnnlException e = assertThrows(DnnlException.class,
                    () -> relu.setAttr(OpAttr.DATA_FORMAT, ""));
            assertEquals(Status.INVALID_ARGUMENTS, e.status());
            assertTrue(e.getMessage().contains(Native.llga_last_error_message()));
            assertTrue(e.getMessage().contains("data_format"), e.getMessage());
            e = assertThrows(DnnlException.class, () -> relu.setAttr(OpAttr.AXIS));
            assertEquals(Status.INVALID_ARGUMENTS, e.status());
        }
        // Accepted by the setter, rejected by the Convolution schema.
        try (Graph g = new Graph(EngineKind.CPU); Op conv = convOp()) {
            conv.setAttr(OpAttr.DATA_FORMAT, 1L);
            DnnlException e = assertThrows(DnnlException.class, () -> g.addOp(conv));
            assertEquals(Status.INVALID_GRAPH_OP, e.status());
            assertTrue(e.getMessage().contains(Native.llga_last_error_message()));
        }
    }

    @Test
    void wrongTensorAtExecuteRaises() {
        LogicalTensor a = new LogicalTensor(10, DataType.F32, new long[] {2, 3}, LayoutType.STRIDED);
        LogicalTensor other = new LogicalTensor(10, DataType.F32, new long[] {3, 2}, LayoutType.STRIDED);
        LogicalTensor y = new LogicalTensor(11, DataType.F32, new long[] {2, 3}, LayoutType.STRIDED);
        try (Engine eng = new Engine(EngineKind.CPU, 0); Stream strm = new Stream(eng);
                Graph g = new Graph(EngineKind.CPU);
                Op relu = new Op(0, OpKind.RELU, new LogicalTensor[] {a}, new LogicalTensor[] {y}, "relu")) {
            g.addOp(relu);
            List<Partition> parts = g.getPartitions();
            try (CompiledPartition cp = parts.get(0).compile(Arrays.asList(a), Arrays.asList(y), eng);
                    Tensor ta = Tensor.fromArray(a, eng, new float[] {-1, 2, -3, 4, -5, 6});
                    Tensor tWrong = Tensor.fromArray(other, eng, new float[6]);
                    Tensor ty = Tensor.allocate(y, eng)) {
                cp.execute(strm, Arrays.asList(ta), Arrays.asList(ty));
                strm.waitAll();
                assertArrayEquals(new float[] {0, 2, 0, 4, 0, 6}, ty.toFloatArray());
                // A tensor whose shape differs from the compiled one.
                DnnlException e = assertThrows(DnnlException.class,
                        () -> cp.execute(strm, Arrays.asList(tWrong), Arrays.asList(ty)));
                assertEquals(Status.INVALID_ARGUMENTS, e.status());
                assertTrue(e.getMessage().contains(Native.llga_last_error_message()));
                // Too few inputs.
                e = assertThrows(DnnlException.class,
                        () -> cp.execute(strm, new ArrayList<>(), Arrays.asList(ty)));
                assertEquals(Status.INVALID_ARGUMENTS, e.status());
            } finally {
                for (Partition p : parts) p.close();
            }
        }
    }

    @Test
    void closedHandlesAreRejected() {
        Engine eng = new Engine(EngineKind.CPU, 0);
        eng.close();
        eng.close(); // idempotent
        assertTrue(eng.isClosed());
        assertThrows(IllegalStateException.class, () -> new Stream(eng));
    }

    @Test
    void nothingLeaks() {
        long handlesBefore = Handle.liveHandles();
        long blocksBefore = Allocator.liveBlocks();
        long totalBefore = Allocator.totalBlocks();
        float[] x = fill(C * H * W, 4), w = fill(F * C * K * K, 5), b = fill(F, 6);
        for (int round = 0; round < 3; ++round) {
            Engine eng;
            try (Allocator alloc = Allocator.counting()) {
                eng = new Engine(EngineKind.CPU, 0, alloc);
            }
            try (Engine e = eng) {
                assertClose(reference(x, w, b), runChain(e, x, w, b, true));
                assertTrue(Allocator.liveBlocks() > blocksBefore || Allocator.totalBlocks() > totalBefore);
            }
        }
        assertTrue(Allocator.totalBlocks() > totalBefore, "the counting allocator was used");
        assertEquals(blocksBefore, Allocator.liveBlocks(), "blocks still allocated");
        assertEquals(handlesBefore, Handle.liveHandles(), "handles still open");
    }

    // ---- type and size safety of tensor data --------------------------------

    static void assertMessage(IllegalArgumentException e, String... parts) {
        for (String p : parts)
            assertTrue(e.getMessage().contains(p), "'" + e.getMessage() + "' lacks '" + p + "'");
    }

    @Test
    void wrongElementTypeIsRejected() {
        LogicalTensor lt = new LogicalTensor(21, DataType.F32, new long[] {2, 4}, LayoutType.STRIDED);
        LogicalTensor s32 = new LogicalTensor(22, DataType.S32, new long[] {2, 4}, LayoutType.STRIDED);
        try (Engine eng = new Engine(EngineKind.CPU, 0)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Tensor.fromArray(lt, eng, new int[8]));
            assertMessage(e, "tensor 21", "f32", "int");
            assertThrows(IllegalArgumentException.class, () -> Tensor.fromArray(lt, eng, new double[8]));
            assertThrows(IllegalArgumentException.class, () -> Tensor.fromArray(s32, eng, new float[8]));
            // Typed NIO buffers must have the tensor's element type too.
            ByteBuffer bb = Tensor.directBuffer(64);
            DoubleBuffer db = bb.asDoubleBuffer();
            e = assertThrows(IllegalArgumentException.class, () -> new Tensor(lt, eng, db));
            assertMessage(e, "tensor 21", "f32", "DoubleBuffer");
            IntBuffer ib = Tensor.directBuffer(32).asIntBuffer();
            assertThrows(IllegalArgumentException.class, () -> new Tensor(lt, eng, ib));
            // Reading back as the wrong type.
            try (Tensor t = Tensor.fromArray(lt, eng, new float[8])) {
                assertThrows(IllegalArgumentException.class, t::toIntArray);
                assertThrows(IllegalArgumentException.class, () -> t.write(new int[8]));
            }
            try (Tensor t = Tensor.fromArray(s32, eng, new int[] {1, 2, 3, 4, 5, 6, 7, 8})) {
                assertArrayEquals(new int[] {1, 2, 3, 4, 5, 6, 7, 8}, t.toIntArray());
                assertThrows(IllegalArgumentException.class, t::toFloatArray);
            }
        }
    }

    @Test
    void wrongElementCountIsRejected() {
        LogicalTensor lt = new LogicalTensor(23, DataType.F32, new long[] {2, 4}, LayoutType.STRIDED);
        try (Engine eng = new Engine(EngineKind.CPU, 0)) {
            // Fewer elements used to be zero-padded, more silently ignored.
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Tensor.fromArray(lt, eng, new float[3]));
            assertMessage(e, "tensor 23", "expected 8 elements", "got 3");
            assertThrows(IllegalArgumentException.class, () -> Tensor.fromArray(lt, eng, new float[9]));
            FloatBuffer big = Tensor.directBuffer(36).asFloatBuffer();
            assertThrows(IllegalArgumentException.class, () -> new Tensor(lt, eng, big));
            assertThrows(IllegalArgumentException.class,
                    () -> new Tensor(lt, eng, Tensor.directBuffer(40)));
            try (Tensor t = Tensor.allocate(lt, eng)) {
                assertThrows(IllegalArgumentException.class, () -> t.write(new float[7]));
            }
        }
    }

    @Test
    void wrongShapeIsRejectedAndNestedArraysWork() {
        LogicalTensor lt = new LogicalTensor(24, DataType.F32, new long[] {2, 3}, LayoutType.STRIDED);
        try (Engine eng = new Engine(EngineKind.CPU, 0)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Tensor.fromArray(lt, eng, new float[3][2]));
            assertMessage(e, "tensor 24", "[2, 3]", "[3, 2]");
            assertThrows(IllegalArgumentException.class,
                    () -> Tensor.fromArray(lt, eng, new float[][] {{1, 2, 3}, {4, 5}}));
            try (Tensor t = Tensor.fromArray(lt, eng, new float[][] {{1, 2, 3}, {4, 5, 6}})) {
                assertArrayEquals(new float[] {1, 2, 3, 4, 5, 6}, t.toFloatArray());
                assertArrayEquals(new long[] {2, 3}, t.shape());
                assertEquals(DataType.F32, t.dataType());
            }
            // A column-major logical tensor: elements land by its strides.
            LogicalTensor cm = new LogicalTensor(25, DataType.F32, new long[] {2, 3},
                    new long[] {1, 2}, TensorProperty.VARIABLE);
            try (Tensor t = Tensor.fromArray(cm, eng, new float[][] {{1, 2, 3}, {4, 5, 6}})) {
                assertArrayEquals(new float[] {1, 2, 3, 4, 5, 6}, t.toFloatArray());
            }
        }
    }

    @Test
    void closedHandlesAreRejectedEverywhere() {
        LogicalTensor lt = new LogicalTensor(26, DataType.F32, new long[] {2}, LayoutType.STRIDED);
        Engine eng = new Engine(EngineKind.CPU, 0);
        Tensor t = Tensor.fromArray(lt, eng, new float[] {1, 2});
        t.close();
        assertThrows(IllegalStateException.class, t::toFloatArray);
        assertThrows(IllegalStateException.class, () -> t.write(new float[] {3, 4}));
        Graph g = new Graph(EngineKind.CPU);
        g.close();
        assertThrows(IllegalStateException.class, g::finalizeGraph);
        eng.close();
        assertThrows(IllegalStateException.class, () -> Tensor.allocate(lt, eng));
        assertThrows(IllegalStateException.class, () -> Tensor.fromArray(lt, eng, new float[2]));
    }

    @Test
    void versionAndGpuEngineKind() {
        // llga's own version, not the oneDNN API version.
        llga_version_t v = Native.llga_version();
        assertEquals(0, v.getMajor());
        assertTrue(v.getHash().length() > 0);
        assertEquals(2, EngineKind.GPU.swigValue());
    }
}
