// SPDX-License-Identifier: Apache-2.0
// bindings/csharp/src/TensorData.cs — the checks of C# arrays against a
// logical tensor: element type, exact element count (byte size for opaque
// layouts) and, for multi-dimensional arrays, shape.
using System;
using System.Linq;

namespace Llga
{
    static class TensorData
    {
        /// <summary>The C# element type carrying values of t (null: none).</summary>
        internal static Type ClrType(DataType t)
        {
            switch (t)
            {
                case DataType.F32: return typeof(float);
                case DataType.S32: return typeof(int);
                case DataType.F64: return typeof(double);
                case DataType.F16: case DataType.BF16: return typeof(ushort);
                case DataType.S8: return typeof(sbyte);
                case DataType.U8: case DataType.BOOLEAN: case DataType.F8_E5M2:
                case DataType.F8_E4M3: case DataType.E8M0: return typeof(byte);
                default: return null;
            }
        }

        static ArgumentException Fail(LogicalTensor lt, string msg) =>
            new ArgumentException("tensor " + lt.Id + " (" + lt.DataType.ToString().ToLowerInvariant()
                    + ", shape [" + string.Join(",", lt.Dims) + "]): " + msg);

        static string Shape(Array a) =>
            "[" + string.Join(",", Enumerable.Range(0, a.Rank).Select(i => a.GetLength(i))) + "]";

        /// <summary>Throws ArgumentException unless data can be the memory (or
        /// the contents) of a tensor described by lt.</summary>
        internal static void Check(LogicalTensor lt, Array data, string what)
        {
            if (data == null) throw new ArgumentNullException(what);
            var elem = data.GetType().GetElementType();
            long need = lt.MemSize;
            long bytes = (long)Buffer.ByteLength(data);
            var want = ClrType(lt.DataType);
            if (lt.LayoutType == LayoutType.OPAQUE)
            {
                if (elem != typeof(byte) && elem != want)
                    throw Fail(lt, "an opaque tensor takes byte[] or " + (want?.Name ?? "raw bytes")
                            + " data, got " + elem.Name + "[]");
                if (bytes != need)
                    throw Fail(lt, "expected " + need + " bytes, " + what + " holds " + bytes);
                return;
            }
            if (elem != want)
                throw Fail(lt, "expected " + (want == null ? "no array type" : want.Name + "[]")
                        + " data, got " + elem.Name + "[]");
            long count = 1;
            foreach (var d in lt.Dims)
            {
                if (d < 0) throw Fail(lt, "its shape is not known yet (query the compiled partition)");
                count *= d;
            }
            if (lt.Ndims < 0) throw Fail(lt, "its rank is not known yet");
            if (data.LongLength != count)
                throw Fail(lt, "expected " + count + " elements, " + what + " holds "
                        + data.LongLength + " (shape " + Shape(data) + ")");
            if (data.Rank > 1)
            {
                bool same = data.Rank == lt.Ndims;
                var dims = lt.Dims;
                for (int i = 0; same && i < data.Rank; ++i) same = data.GetLength(i) == dims[i];
                if (!same)
                    throw Fail(lt, "expected shape [" + string.Join(",", dims) + "], " + what
                            + " has shape " + Shape(data));
            }
            if (bytes != need)
                throw Fail(lt, "its layout needs " + need + " bytes, " + what + " holds " + bytes
                        + " (use an IntPtr buffer for padded layouts)");
        }
    }
}
