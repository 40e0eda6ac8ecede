// SPDX-License-Identifier: Apache-2.0
// bindings/java/src/org/llga/Tensor.java — Java wrapper of
// dnnl_graph_tensor_t: a logical tensor bound to memory, either a direct NIO
// buffer owned by Java (zero copy) or a buffer the library allocates.
package org.llga;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Data for one input or output of a compiled partition. */
public final class Tensor extends Handle {
    final SWIGTYPE_p_dnnl_graph_tensor h;
    private final LogicalTensor lt;
    private final Buffer buffer; // keeps the Java-owned memory reachable

    /** Wraps {@code data} without copying. It must be a direct buffer in
     *  native byte order (see {@link #directBuffer}) that matches the
     *  logical tensor: a ByteBuffer of exactly {@code lt.memSize()} bytes
     *  (raw memory, any element type), or a typed buffer of the tensor's
     *  element type (FloatBuffer for f32, IntBuffer for s32, ShortBuffer for
     *  f16/bf16, DoubleBuffer for f64) holding exactly its element count.
     *  It must stay unchanged in size while the tensor is used. */
    public Tensor(LogicalTensor lt, Engine engine, Buffer data) {
        this(lt, engine, checked(lt, data), false);
    }

    private Tensor(LogicalTensor lt, Engine engine, Buffer data, boolean libraryOwned) {
        this.lt = lt;
        this.buffer = data;
        SWIGTYPE_p_p_dnnl_graph_tensor out = Native.new_tensor_p();
        dnnl_graph_logical_tensor_t n = lt.toNative();
        try {
            engine.ensureOpen();
            Status st = libraryOwned
                    ? Native.llga_bind_tensor_create_allocated(out, n, engine.h)
                    : Native.dnnl_graph_tensor_create(out, n, engine.h, data);
            DnnlException.check(st, "dnnl_graph_tensor_create");
            h = Native.tensor_p_value(out);
        } catch (RuntimeException e) {
            super.close();
            throw e;
        } finally {
            n.delete();
            Native.delete_tensor_p(out);
        }
    }

    /** A tensor whose buffer the library allocates (through the engine's
     *  allocator) and frees on close(). */
    public static Tensor allocate(LogicalTensor lt, Engine engine) {
        return new Tensor(lt, engine, null, true);
    }

    /** A tensor over a new direct buffer holding a copy of {@code data}: an
     *  array of the tensor's element type (float[] for f32, int[] for s32,
     *  short[] for f16/bf16 bits, double[] for f64, byte[] for s8/u8/the
     *  8-bit float types, boolean[] for boolean), flat with exactly the
     *  tensor's element count, or nested (float[][]...) with exactly its
     *  shape. Throws IllegalArgumentException naming the tensor otherwise. */
    public static Tensor fromArray(LogicalTensor lt, Engine engine, Object data) {
        engine.ensureOpen();
        ByteBuffer b = directBuffer(lt.memSize());
        TensorData.scatter(lt, data, b);
        return new Tensor(lt, engine, b);
    }

    /** {@link #fromArray(LogicalTensor, Engine, Object)} for float[]. */
    public static Tensor fromArray(LogicalTensor lt, Engine engine, float[] data) {
        return fromArray(lt, engine, (Object) data);
    }

    /** {@link #fromArray(LogicalTensor, Engine, Object)} for int[]. */
    public static Tensor fromArray(LogicalTensor lt, Engine engine, int[] data) {
        return fromArray(lt, engine, (Object) data);
    }

    /** A zero-filled direct buffer of {@code bytes} bytes in native order. */
    public static ByteBuffer directBuffer(long bytes) {
        if (bytes < 0 || bytes > Integer.MAX_VALUE)
            throw new IllegalArgumentException("buffer size " + bytes);
        return ByteBuffer.allocateDirect((int) bytes).order(ByteOrder.nativeOrder());
    }

    public LogicalTensor logicalTensor() {
        return lt;
    }

    /** The Java buffer given at creation (null if the library owns it). */
    public Buffer buffer() {
        return buffer;
    }

    /** The logical tensor's dims. */
    public long[] shape() {
        return lt.dims();
    }

    public DataType dataType() {
        return lt.dataType();
    }

    /** Copies the contents of an f32 tensor into a new float[] (logical
     *  row-major order). */
    public float[] toFloatArray() {
        float[] out = new float[TensorData.count(lt, DataType.F32, "float[]")];
        TensorData.gather(lt, read(), out);
        return out;
    }

    /** Copies the contents of an s32 tensor into a new int[] (logical
     *  row-major order). */
    public int[] toIntArray() {
        int[] out = new int[TensorData.count(lt, DataType.S32, "int[]")];
        TensorData.gather(lt, read(), out);
        return out;
    }

    /** Copies {@code data} (checked as for {@link #fromArray(LogicalTensor,
     *  Engine, Object)}) into the tensor's buffer. */
    public void write(Object data) {
        ensureOpen();
        ByteBuffer b = directBuffer(lt.memSize());
        TensorData.scatter(lt, data, b);
        DnnlException.check(Native.llga_bind_tensor_write(h, b, b.capacity()),
                "llga_bind_tensor_write");
    }

    /** {@link #write(Object)} for float[]. */
    public void write(float[] data) {
        write((Object) data);
    }

    private ByteBuffer read() {
        ensureOpen();
        long bytes = lt.memSize();
        ByteBuffer b = directBuffer(bytes);
        DnnlException.check(Native.llga_bind_tensor_read(h, b, bytes), "llga_bind_tensor_read");
        return b;
    }

    private static Buffer checked(LogicalTensor lt, Buffer data) {
        if (data == null) throw new IllegalArgumentException("data is null");
        if (!data.isDirect())
            throw new IllegalArgumentException("tensor " + lt.id()
                    + ": data must be a direct NIO buffer");
        TensorData.checkBuffer(lt, data);
        return data;
    }

    @Override
    void release() {
        if (h != null) Native.dnnl_graph_tensor_destroy(h);
    }
}
