# SPDX-License-Identifier: Apache-2.0
# tests/bindings/python/test_data_checks.py — the Python binding refuses
# tensor data of the wrong element type, count or shape (naming the tensor),
# refuses closed handles, views numpy arrays without copying where the
# layout allows, and reports llga's own version.
import re
import unittest
from array import array

import llga
from llga import DataType, LayoutType, LogicalTensor, OpKind

try:
    import numpy
except ImportError:  # pragma: no cover
    numpy = None


def relu_run(lt, y, src, dst):
    """Runs ReLU from tensor data src into dst (tensor objects or arrays)."""
    with llga.Engine() as eng, llga.Stream(eng) as s, llga.Graph() as g, \
            llga.Op(0, OpKind.RELU, [lt], [y]) as relu:
        g.add_op(relu)
        parts = g.get_partitions()
        try:
            with parts[0].compile([lt], [y], eng) as cp, \
                    llga.Tensor.from_numpy(lt, eng, src) as ts, \
                    llga.Tensor(y, eng, dst) as td:
                cp.execute(s, [ts], [td])
                s.wait()
        finally:
            for p in parts:
                p.close()


class DataChecks(unittest.TestCase):
    def test_version(self):
        self.assertRegex(llga.__version__, r"^\d+\.\d+\.\d+$")
        major, minor, patch, commit = llga.version()
        self.assertEqual(llga.__version__, "%d.%d.%d" % (major, minor, patch))
        self.assertTrue(commit == "unknown" or re.fullmatch(r"[0-9a-f]{40}", commit))
        self.assertEqual(2, int(llga.EngineKind.GPU))

    def test_wrong_element_type_raises(self):
        lt = LogicalTensor(31, DataType.F32, [2, 4], LayoutType.STRIDED)
        with llga.Engine() as eng:
            with self.assertRaises(TypeError) as ctx:
                llga.Tensor(lt, eng, array("d", range(8)))
            self.assertIn("tensor 31", str(ctx.exception))
            self.assertIn("float64", str(ctx.exception))
            with self.assertRaises(TypeError):
                llga.Tensor(lt, eng, array("i", range(8)))
            with llga.Tensor(lt, eng) as t:
                with self.assertRaises(TypeError):
                    t.write(array("i", range(8)))
                with self.assertRaises(TypeError):
                    t.read_into(array("d", range(8)))
            s32 = LogicalTensor(32, DataType.S32, [8], LayoutType.STRIDED)
            with self.assertRaises(TypeError):
                llga.Tensor(s32, eng, array("f", range(8)))
            # Raw bytes stay accepted for any type when the size is exact.
            with llga.Tensor(lt, eng, bytearray(32)) as t:
                self.assertEqual([0.0] * 8, t.to_list())

    def test_wrong_count_raises(self):
        lt = LogicalTensor(33, DataType.F32, [2, 4], LayoutType.STRIDED)
        with llga.Engine() as eng:
            for n in (3, 7, 9, 16):
                with self.assertRaises(ValueError) as ctx:
                    llga.Tensor(lt, eng, array("f", range(n)))
                self.assertIn("tensor 33", str(ctx.exception))
                self.assertIn("8 elements", str(ctx.exception))
            with self.assertRaises(ValueError):
                llga.Tensor(lt, eng, bytearray(40))  # raw bytes: exact size only
            with llga.Tensor(lt, eng) as t:
                with self.assertRaises(ValueError):
                    t.write(array("f", range(7)))

    def test_closed_handles_raise(self):
        lt = LogicalTensor(34, DataType.F32, [2], LayoutType.STRIDED)
        eng = llga.Engine()
        t = llga.Tensor.from_floats(lt, eng, [1, 2])
        t.close()
        for call in (t.to_list, t.tobytes, lambda: t.write(array("f", [1, 2])),
                     lambda: t.read_into(array("f", [0, 0]))):
            with self.assertRaises(ValueError):
                call()
        g = llga.Graph()
        g.close()
        with self.assertRaises(ValueError):
            g.finalize()
        eng.close()
        with self.assertRaises(ValueError):
            llga.Tensor(lt, eng)
        with self.assertRaises(ValueError):
            llga.Stream(eng)


@unittest.skipIf(numpy is None, "numpy is not installed")
class NumpyInterop(unittest.TestCase):
    def test_float64_for_f32_is_refused(self):
        # The original bug: an f32 MatMul fed float64 data gave wrong numbers.
        lt = LogicalTensor(40, DataType.F32, [2, 3], LayoutType.STRIDED)
        with llga.Engine() as eng:
            with self.assertRaises(TypeError) as ctx:
                llga.Tensor(lt, eng, numpy.ones((2, 3)))
            self.assertIn("tensor 40", str(ctx.exception))
            self.assertIn("f32", str(ctx.exception))
            self.assertIn("float64", str(ctx.exception))
            with self.assertRaises(TypeError):
                llga.Tensor.from_numpy(lt, eng, numpy.ones((2, 3), dtype=numpy.int32))

    def test_wrong_shape_raises(self):
        lt = LogicalTensor(41, DataType.F32, [2, 3], LayoutType.STRIDED)
        with llga.Engine() as eng:
            with self.assertRaises(ValueError) as ctx:
                llga.Tensor(lt, eng, numpy.zeros((3, 2), dtype=numpy.float32))
            self.assertIn("tensor 41", str(ctx.exception))
            self.assertIn("[2, 3]", str(ctx.exception))
            self.assertIn("[3, 2]", str(ctx.exception))
            with self.assertRaises(ValueError):
                llga.Tensor(lt, eng, numpy.zeros((1, 2, 3), dtype=numpy.float32))
            with self.assertRaises(ValueError):
                llga.Tensor(lt, eng, numpy.zeros((2, 4), dtype=numpy.float32))

    def test_views_without_copies(self):
        lt = LogicalTensor(42, DataType.F32, [2, 3], LayoutType.STRIDED)
        a = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
        with llga.Engine() as eng, llga.Tensor(lt, eng, a) as t:
            self.assertEqual((2, 3), t.shape)
            self.assertEqual(numpy.float32, t.dtype)
            v = t.numpy()
            self.assertTrue(numpy.shares_memory(v, a))
            a[1, 2] = 42.0
            self.assertEqual(42.0, v[1, 2])
        # A library-owned buffer viewed as an array, written through numpy.
        with llga.Engine() as eng, llga.Tensor(lt, eng) as t:
            t.numpy()[...] = [[1, 2, 3], [4, 5, 6]]
            self.assertEqual([1, 2, 3, 4, 5, 6], t.to_list())

    def test_strided_layouts(self):
        # A column-major logical tensor takes a Fortran-ordered array as is
        # and a C-ordered one only through a copy.
        col = llga.LogicalTensor.with_strides(43, DataType.F32, [2, 3], [1, 2])
        a = numpy.asfortranarray(numpy.arange(6, dtype=numpy.float32).reshape(2, 3))
        with llga.Engine() as eng:
            with llga.Tensor(col, eng, a) as t:
                self.assertTrue(numpy.shares_memory(t.numpy(), a))
                numpy.testing.assert_array_equal(a, t.numpy())
            c = numpy.ascontiguousarray(a)
            with self.assertRaises(ValueError):
                llga.Tensor(col, eng, c)
            with llga.Tensor.from_numpy(col, eng, c) as t:
                self.assertFalse(numpy.shares_memory(t.numpy(), c))
                numpy.testing.assert_array_equal(c, t.numpy())

    def test_relu_through_numpy(self):
        x = LogicalTensor(44, DataType.F32, [2, 3], LayoutType.STRIDED)
        y = LogicalTensor(45, DataType.F32, [2, 3], LayoutType.STRIDED)
        src = numpy.array([[-1, 2, -3], [4, -5, 6]], dtype=numpy.float32)
        out = numpy.full((2, 3), numpy.nan, dtype=numpy.float32)
        relu_run(x, y, src, out)
        numpy.testing.assert_array_equal([[0, 2, 0], [4, 0, 6]], out)


if __name__ == "__main__":
    unittest.main()
