// SPDX-License-Identifier: Apache-2.0
// tests/bindings/csharp/LlgaDataCheckTests.cs — NUnit 2.6 tests: the C#
// binding refuses arrays of the wrong element type, count or shape (naming
// the tensor), refuses disposed handles, and reports llga's own version.
using System;
using Llga;
using NUnit.Framework;

[TestFixture]
public class LlgaDataCheckTests
{
    static void AssertMessage(Exception e, params string[] parts)
    {
        foreach (var p in parts)
            StringAssert.Contains(p, e.Message);
    }

    [Test]
    public void WrongElementTypeIsRejected()
    {
        var lt = new LogicalTensor(51, DataType.F32, new long[] { 2, 4 }, LayoutType.STRIDED);
        var s32 = new LogicalTensor(52, DataType.S32, new long[] { 8 }, LayoutType.STRIDED);
        using (var eng = new Engine(EngineKind.CPU))
        {
            var e = Assert.Throws<ArgumentException>(() => Tensor.FromArray(lt, eng, new int[8]));
            AssertMessage(e, "tensor 51", "f32", "Single[]", "Int32[]");
            Assert.Throws<ArgumentException>(() => Tensor.FromArray(lt, eng, new double[8]));
            Assert.Throws<ArgumentException>(() => Tensor.FromArray(lt, eng, new byte[32]));
            Assert.Throws<ArgumentException>(() => Tensor.FromArray(s32, eng, new float[8]));
            using (var t = Tensor.FromArray(lt, eng, new float[8]))
            {
                Assert.Throws<ArgumentException>(() => t.CopyTo(new int[8]));
                Assert.Throws<ArgumentException>(() => t.CopyFrom(new double[8]));
            }
            using (var t = Tensor.FromArray(s32, eng, new[] { 1, 2, 3, 4, 5, 6, 7, 8 }))
            {
                Assert.Throws<ArgumentException>(() => t.ToFloatArray());
                var back = new int[8];
                t.CopyTo(back);
                CollectionAssert.AreEqual(new[] { 1, 2, 3, 4, 5, 6, 7, 8 }, back);
            }
        }
    }

    [Test]
    public void WrongElementCountIsRejected()
    {
        var lt = new LogicalTensor(53, DataType.F32, new long[] { 2, 4 }, LayoutType.STRIDED);
        using (var eng = new Engine(EngineKind.CPU))
        {
            var e = Assert.Throws<ArgumentException>(() => Tensor.FromArray(lt, eng, new float[3]));
            AssertMessage(e, "tensor 53", "expected 8 elements", "holds 3");
            Assert.Throws<ArgumentException>(() => Tensor.FromArray(lt, eng, new float[9]));
            using (var t = Tensor.Allocate(lt, eng))
            {
                Assert.Throws<ArgumentException>(() => t.CopyFrom(new float[7]));
                Assert.Throws<ArgumentException>(() => t.CopyTo(new float[16]));
            }
        }
    }

    [Test]
    public void WrongShapeIsRejected()
    {
        var lt = new LogicalTensor(54, DataType.F32, new long[] { 2, 3 }, LayoutType.STRIDED);
        using (var eng = new Engine(EngineKind.CPU))
        {
            var e = Assert.Throws<ArgumentException>(() => Tensor.FromArray(lt, eng, new float[3, 2]));
            AssertMessage(e, "tensor 54", "[2,3]", "[3,2]");
            Assert.Throws<ArgumentException>(() => Tensor.FromArray(lt, eng, new float[1, 2, 3]));
            var m = new float[,] { { 1, 2, 3 }, { 4, 5, 6 } };
            using (var t = Tensor.FromArray(lt, eng, m))
            {
                CollectionAssert.AreEqual(new float[] { 1, 2, 3, 4, 5, 6 }, t.ToFloatArray());
                CollectionAssert.AreEqual(new long[] { 2, 3 }, t.Shape);
                Assert.AreEqual(DataType.F32, t.DataType);
            }
        }
    }

    [Test]
    public void DisposedHandlesAreRejected()
    {
        var lt = new LogicalTensor(55, DataType.F32, new long[] { 2 }, LayoutType.STRIDED);
        var eng = new Engine(EngineKind.CPU);
        var t = Tensor.FromArray(lt, eng, new float[] { 1, 2 });
        t.Dispose();
        Assert.Throws<ObjectDisposedException>(() => t.ToFloatArray());
        Assert.Throws<ObjectDisposedException>(() => t.CopyFrom(new float[2]));
        var g = new Graph(EngineKind.CPU);
        g.Dispose();
        Assert.Throws<ObjectDisposedException>(() => g.FinalizeGraph());
        eng.Dispose();
        Assert.Throws<ObjectDisposedException>(() => Tensor.Allocate(lt, eng));
        Assert.Throws<ObjectDisposedException>(() => Tensor.FromArray(lt, eng, new float[2]));
    }

    [Test]
    public void VersionAndGpuEngineKind()
    {
        var v = Native.llga_version();
        Assert.AreEqual(0, v.major);
        Assert.IsTrue(v.hash.Length > 0);
        Assert.AreEqual(2, (int)EngineKind.GPU);
    }
}
