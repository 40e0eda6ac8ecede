// SPDX-License-Identifier: Apache-2.0
// bindings/java/src/org/llga/TensorData.java — the checks of Java tensor data
// against a logical tensor (element type, exact element count or byte size,
// shape) and the copies between Java arrays and tensor memory laid out by
// the logical tensor's strides.
package org.llga;

import java.lang.reflect.Array;
import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

final class TensorData {
    private TensorData() {}

    private static String name(DataType t) {
        return t.toString().toLowerCase();
    }

    /** The Java element class carrying values of {@code t} (null: none). */
    static Class<?> javaType(DataType t) {
        switch (t) {
            case F32: return float.class;
            case S32: return int.class;
            case F64: return double.class;
            case F16: case BF16: return short.class;
            case S8: case U8: case F8_E5M2: case F8_E4M3: case E8M0: return byte.class;
            case BOOLEAN: return boolean.class;
            default: return null;
        }
    }

    private static IllegalArgumentException fail(LogicalTensor lt, String msg) {
        return new IllegalArgumentException("tensor " + lt.id() + " (" + name(lt.dataType())
                + ", shape " + Arrays.toString(lt.dims()) + "): " + msg);
    }

    /** Element count of a strided tensor with known dims. */
    private static long knownCount(LogicalTensor lt) {
        long n = lt.elementCount();
        if (n < 0)
            throw fail(lt, "its shape is not known yet (query the compiled partition)");
        if (lt.layoutType() != LayoutType.STRIDED)
            throw fail(lt, "layout " + lt.layoutType() + " has no element order; use a ByteBuffer of "
                    + lt.memSize() + " bytes");
        return n;
    }

    /** The element count of {@code lt}, checking that it holds {@code want}. */
    static int count(LogicalTensor lt, DataType want, String what) {
        if (lt.dataType() != want)
            throw fail(lt, "cannot be read as " + what + " (" + name(want) + ")");
        long n = knownCount(lt);
        if (n > Integer.MAX_VALUE) throw fail(lt, "too many elements for a Java array");
        return (int) n;
    }

    /** Checks a direct buffer against {@code lt}. */
    static void checkBuffer(LogicalTensor lt, Buffer data) {
        long elem;
        ByteOrder order;
        Class<?> type;
        if (data instanceof ByteBuffer) { elem = 1; order = ((ByteBuffer) data).order(); type = null; }
        else if (data instanceof FloatBuffer) { elem = 4; order = ((FloatBuffer) data).order(); type = float.class; }
        else if (data instanceof IntBuffer) { elem = 4; order = ((IntBuffer) data).order(); type = int.class; }
        else if (data instanceof ShortBuffer) { elem = 2; order = ((ShortBuffer) data).order(); type = short.class; }
        else if (data instanceof DoubleBuffer) { elem = 8; order = ((DoubleBuffer) data).order(); type = double.class; }
        else if (data instanceof LongBuffer) { elem = 8; order = ((LongBuffer) data).order(); type = long.class; }
        else throw fail(lt, "unsupported buffer " + data.getClass().getSimpleName());
        if (order != ByteOrder.nativeOrder())
            throw fail(lt, "data must be in native byte order");
        long need = lt.memSize();
        long bytes = data.capacity() * elem;
        if (type == null || lt.layoutType() == LayoutType.OPAQUE) {
            if (type != null && type != javaType(lt.dataType()))
                throw fail(lt, "expected " + name(lt.dataType()) + " data, got a "
                        + data.getClass().getSimpleName());
            if (bytes != need)
                throw fail(lt, "expected a buffer of " + need + " bytes, got " + bytes);
            return;
        }
        if (type != javaType(lt.dataType()))
            throw fail(lt, "expected " + name(lt.dataType()) + " data, got a "
                    + data.getClass().getSimpleName() + " (" + type + " elements)");
        long n = knownCount(lt);
        if (data.capacity() != n)
            throw fail(lt, "expected " + n + " elements, the buffer holds " + data.capacity());
        if (bytes != need)
            throw fail(lt, "its strided layout needs " + need + " bytes; use a ByteBuffer");
    }

    /** Shape and element class of a (possibly nested) Java array. */
    private static Class<?> shapeOf(Object a, List<Long> shape) {
        Class<?> c = a.getClass();
        while (c.isArray()) {
            shape.add((long) Array.getLength(a));
            c = c.getComponentType();
            if (c.isArray()) {
                if (Array.getLength(a) == 0) {
                    while (c.isArray()) { shape.add(0L); c = c.getComponentType(); }
                    break;
                }
                a = Array.get(a, 0);
            }
        }
        return c;
    }

    private static int flatten(LogicalTensor lt, Object a, long[] shape, int depth, double[] out, int at) {
        int n = Array.getLength(a);
        if (n != shape[depth]) throw fail(lt, "the nested array is ragged");
        if (depth + 1 < shape.length) {
            for (int i = 0; i < n; ++i) at = flatten(lt, Array.get(a, i), shape, depth + 1, out, at);
            return at;
        }
        if (a instanceof float[]) for (float v : (float[]) a) out[at++] = v;
        else if (a instanceof int[]) for (int v : (int[]) a) out[at++] = v;
        else if (a instanceof double[]) System.arraycopy(a, 0, out, at, n);
        else if (a instanceof short[]) for (short v : (short[]) a) out[at++] = v;
        else if (a instanceof byte[]) for (byte v : (byte[]) a) out[at++] = v;
        else if (a instanceof boolean[]) for (boolean v : (boolean[]) a) out[at++] = v ? 1 : 0;
        if (a instanceof double[]) at += n;
        return at;
    }

    /** Byte offset of the element with row-major index {@code i}. */
    private static long offset(long[] dims, long[] strides, long i, int elemBytes) {
        long off = 0;
        for (int d = dims.length - 1; d >= 0; --d) {
            long idx = i % dims[d];
            i /= dims[d];
            off += idx * strides[d];
        }
        return off * elemBytes;
    }

    private static int elemBytes(DataType t) {
        Class<?> c = javaType(t);
        return c == double.class ? 8 : c == float.class || c == int.class ? 4 : c == short.class ? 2 : 1;
    }

    /** Checks {@code data} (a Java array) against {@code lt} and writes its
     *  elements into {@code dst} (the tensor's memory layout). */
    static void scatter(LogicalTensor lt, Object data, ByteBuffer dst) {
        if (data == null || !data.getClass().isArray())
            throw fail(lt, "data must be a Java array");
        List<Long> sl = new ArrayList<>();
        Class<?> base = shapeOf(data, sl);
        long[] shape = new long[sl.size()];
        for (int i = 0; i < shape.length; ++i) shape[i] = sl.get(i);
        DataType t = lt.dataType();
        if (lt.layoutType() == LayoutType.OPAQUE) {
            if (base != byte.class || shape.length != 1)
                throw fail(lt, "an opaque tensor takes raw bytes (byte[]), got " + base + " elements");
            if (shape[0] != dst.capacity())
                throw fail(lt, "expected " + dst.capacity() + " bytes, got " + shape[0]);
            ByteBuffer d = dst.duplicate();
            d.position(0);
            d.put((byte[]) data);
            return;
        }
        if (base != javaType(t))
            throw fail(lt, "expected " + (javaType(t) == null ? "no" : javaType(t).toString())
                    + " elements for " + name(t) + " data, got " + base + " elements");
        long n = knownCount(lt);
        long given = 1;
        for (long d : shape) given *= d;
        if (given != n)
            throw fail(lt, "expected " + n + " elements, got " + given
                    + " (shape " + Arrays.toString(shape) + ")");
        if (shape.length > 1 && !Arrays.equals(shape, lt.dims()))
            throw fail(lt, "expected shape " + Arrays.toString(lt.dims()) + ", got "
                    + Arrays.toString(shape));
        double[] flat = new double[(int) n];
        flatten(lt, data, shape, 0, flat, 0);
        long[] dims = lt.dims(), strides = lt.strides();
        int eb = elemBytes(t);
        for (int i = 0; i < n; ++i) {
            int off = (int) offset(dims, strides, i, eb);
            double v = flat[i];
            switch (eb) {
                case 8: dst.putDouble(off, v); break;
                case 4: if (t == DataType.F32) dst.putFloat(off, (float) v); else dst.putInt(off, (int) v); break;
                case 2: dst.putShort(off, (short) v); break;
                default: dst.put(off, (byte) v); break;
            }
        }
    }

    static void gather(LogicalTensor lt, ByteBuffer src, float[] out) {
        long[] dims = lt.dims(), strides = lt.strides();
        for (int i = 0; i < out.length; ++i) out[i] = src.getFloat((int) offset(dims, strides, i, 4));
    }

    static void gather(LogicalTensor lt, ByteBuffer src, int[] out) {
        long[] dims = lt.dims(), strides = lt.strides();
        for (int i = 0; i < out.length; ++i) out[i] = src.getInt((int) offset(dims, strides, i, 4));
    }
}
