# SPDX-License-Identifier: Apache-2.0
# tests/bindings/python/test_llga.py — unittest tests of the Python binding:
# a conv+bias+ReLU graph checked against plain loops, buffer-protocol data
# (bytes, bytearray, array, memoryview, numpy when installed), exceptions
# carrying status and message, and leak checks through handle counting and
# the C-side counting allocator.
import unittest
from array import array

import llga
from llga import (DataType, DnnlException, LayoutType, LogicalTensor, OpAttr, OpKind,
                  Status, TensorProperty)

try:
    import numpy
except ImportError:
    numpy = None

C, H, W, F, K = 3, 6, 6, 4, 3


def fill(n, seed):
    s = (seed * 7919 + 1) & 0xffffffff
    out = array("f")
    for _ in range(n):
        s = (s * 1103515245 + 12345) & 0xffffffff
        out.append(((s >> 8) & 0xffff) / 32768.0 - 1.0)
    return out


def reference(x, w, b):
    out = []
    for f in range(F):
        for y in range(H):
            for xx in range(W):
                acc = b[f]
                for c in range(C):
                    for ky in range(K):
                        for kx in range(K):
                            iy, ix = y + ky - 1, xx + kx - 1
                            if 0 <= iy < H and 0 <= ix < W:
                                acc += x[(c * H + iy) * W + ix] * w[((f * C + c) * K + ky) * K + kx]
                out.append(max(acc, 0.0))
    return out


SRC = LogicalTensor(0, DataType.F32, [1, C, H, W], LayoutType.STRIDED)
WEI = LogicalTensor(1, DataType.F32, [F, C, K, K], LayoutType.STRIDED, TensorProperty.CONSTANT)
BIA = LogicalTensor(2, DataType.F32, [F], LayoutType.STRIDED, TensorProperty.CONSTANT)
DST = LogicalTensor(5, DataType.F32, [1, F, H, W], LayoutType.STRIDED)
CONV_ATTRS = {OpAttr.STRIDES: [1, 1], OpAttr.PADS_BEGIN: [1, 1], OpAttr.PADS_END: [1, 1],
              OpAttr.DILATIONS: [1, 1], OpAttr.DATA_FORMAT: "NCX", OpAttr.WEIGHTS_FORMAT: "OIX"}


def conv_op(attrs=CONV_ATTRS):
    out = LogicalTensor(3, DataType.F32, 4, LayoutType.UNDEF)
    return llga.Op(0, OpKind.CONVOLUTION, [SRC, WEI], [out], "conv", attrs=attrs)


def build_chain(g):
    conv_out = LogicalTensor(3, DataType.F32, 4, LayoutType.UNDEF)
    bias_out = LogicalTensor(4, DataType.F32, 4, LayoutType.UNDEF)
    with conv_op() as conv, \
            llga.Op(1, OpKind.BIAS_ADD, [conv_out, BIA], [bias_out], "bias",
                    attrs={OpAttr.DATA_FORMAT: "NCX"}) as bias, \
            llga.Op(2, OpKind.RELU, [bias_out], [DST], "relu") as relu:
        assert conv.kind == OpKind.CONVOLUTION and relu.id == 2
        g.add_op(conv).add_op(bias).add_op(relu)
    return g.get_partitions()


def run_chain(eng, x, w, b, library_owned):
    """Runs the chain partition by partition; closes all it creates."""
    data = {0: x, 1: w, 2: b}
    known = {0: SRC, 1: WEI, 2: BIA}
    all_ops = []
    with llga.Stream(eng) as strm, llga.Graph() as g:
        parts = build_chain(g)
        try:
            for p in parts:
                assert p.is_supported()
                all_ops += p.op_ids()
                ins = [known[t.id] for t in p.input_ports()]
                outs = [LogicalTensor(t.id, DataType.F32, llga.UNKNOWN_NDIMS, LayoutType.ANY)
                        for t in p.output_ports()]
                with p.compile(ins, outs, eng) as cp:
                    tin, tout = [], []
                    try:
                        for lt in ins:
                            if library_owned:
                                t = llga.Tensor(lt, eng)
                                tin.append(t)
                                t.write(data[lt.id])
                            else:
                                tin.append(llga.Tensor(lt, eng, data[lt.id]))
                        for lt in outs:
                            q = cp.query_logical_tensor(lt.id)
                            known[q.id] = q
                            tout.append(llga.Tensor(q, eng) if library_owned
                                        else llga.Tensor(q, eng, bytearray(q.mem_size())))
                        cp.execute(strm, tin, tout)
                        strm.wait()
                        for t in tout:
                            data[t.logical_tensor.id] = array("f", t.to_list())
                    finally:
                        for t in tin + tout:
                            t.close()
        finally:
            for p in parts:
                p.close()
    assert sorted(all_ops) == [0, 1, 2]
    assert known[5].dims == (1, F, H, W)
    assert known[5].mem_size() == 4 * F * H * W
    return data[5]


class LlgaBindingTest(unittest.TestCase):
    def assert_close(self, want, got):
        self.assertEqual(len(want), len(got))
        for i, (a, b) in enumerate(zip(want, got)):
            self.assertAlmostEqual(a, b, delta=1e-4, msg="element %d" % i)

    def test_conv_bias_relu_matches_plain_loops(self):
        x, w, b = fill(C * H * W, 1), fill(F * C * K * K, 2), fill(F, 3)
        with llga.Engine() as eng:
            self.assertEqual(llga.EngineKind.CPU, eng.kind)
            self.assert_close(reference(x, w, b), run_chain(eng, x, w, b, False))
            self.assert_close(reference(x, w, b), run_chain(eng, x, w, b, True))

    def test_enums_come_from_the_c_headers(self):
        self.assertEqual(llga.native.dnnl_f32, DataType.F32)
        self.assertEqual(llga.native.dnnl_graph_op_convolution, OpKind.CONVOLUTION)
        self.assertEqual(llga.native.dnnl_graph_op_attr_strides, OpAttr.STRIDES)
        self.assertEqual(llga.native.dnnl_graph_layout_type_strided, LayoutType.STRIDED)
        self.assertEqual(8, Status.INVALID_GRAPH_OP)
        self.assertNotIn("ATTR_STRIDES", OpKind.__members__)

    def test_buffer_protocol_is_zero_copy(self):
        lt = LogicalTensor(7, DataType.F32, [2, 3], LayoutType.STRIDED)
        self.assertEqual((3, 1), lt.strides)
        self.assertEqual(24, lt.mem_size())
        with llga.Engine() as eng:
            buf = bytearray(24)
            with llga.Tensor(lt, eng, buf) as t:
                mv = memoryview(buf).cast("f")
                mv[4] = 2.5  # written from Python, seen by the tensor
                self.assertEqual(2.5, t.to_list()[4])
                t.write(array("f", [1, 2, 3, 4, 5, 6]))  # written by C, seen in Python
                self.assertEqual(6.0, mv[5])
                mv.release()
                with self.assertRaises(BufferError):
                    buf.extend(b"1234")  # pinned while the tensor uses it
            arr = array("f", [1, 2, 3, 4, 5, 6])
            with llga.Tensor.from_floats(lt, eng, arr) as t:
                self.assertEqual([1, 2, 3, 4, 5, 6], t.to_list())
            with llga.Tensor(lt, eng, bytes(24)) as t:  # read-only is fine for inputs
                self.assertTrue(t.readonly)
            with self.assertRaises(ValueError):
                llga.Tensor(lt, eng, bytearray(8))  # too small
            with self.assertRaises(ValueError):
                llga.Tensor(lt, eng, memoryview(bytearray(48))[::2])  # not contiguous

    @unittest.skipIf(numpy is None, "numpy is not installed")
    def test_numpy_arrays(self):
        lt = LogicalTensor(7, DataType.F32, [2, 3], LayoutType.STRIDED)
        y = LogicalTensor(8, DataType.F32, [2, 3], LayoutType.STRIDED)
        a = numpy.array([[-1, 2, -3], [4, -5, 6]], dtype=numpy.float32)
        out = numpy.zeros((2, 3), dtype=numpy.float32)
        with llga.Engine() as eng, llga.Stream(eng) as s, llga.Graph() as g, \
                llga.Op(0, OpKind.RELU, [lt], [y]) as relu:
            g.add_op(relu)
            parts = g.get_partitions()
            with parts[0].compile([lt], [y], eng) as cp, llga.Tensor(lt, eng, a) as ta, \
                    llga.Tensor(y, eng, out) as ty:
                cp.execute(s, [ta], [ty])
                s.wait()
            for p in parts:
                p.close()
        self.assertEqual([[0, 2, 0], [4, 0, 6]], out.tolist())

    def test_missing_attribute_raises_with_status_and_message(self):
        with llga.Graph() as g, conv_op(attrs={}) as conv:
            with self.assertRaises(DnnlException) as ctx:
                g.add_op(conv)
            self.assertEqual(Status.INVALID_GRAPH_OP, ctx.exception.status)
            detail = llga.native.llga_last_error_message()
            self.assertTrue(detail)
            self.assertIn(detail, str(ctx.exception))
            self.assertIn("strides", str(ctx.exception))

    def test_bad_attribute_values_raise(self):
        with llga.Op(9, OpKind.RELU) as relu:
            with self.assertRaises(DnnlException) as ctx:
                relu.set_attr(OpAttr.DATA_FORMAT, "")
            self.assertEqual(Status.INVALID_ARGUMENTS, ctx.exception.status)
            self.assertIn(llga.native.llga_last_error_message(), str(ctx.exception))
            self.assertIn("data_format", str(ctx.exception))
            with self.assertRaises(DnnlException) as ctx:
                relu.set_attr(OpAttr.AXIS, [])
            self.assertEqual(Status.INVALID_ARGUMENTS, ctx.exception.status)
        attrs = dict(CONV_ATTRS)
        attrs[OpAttr.DATA_FORMAT] = 1  # accepted by the setter, rejected by the schema
        with llga.Graph() as g, conv_op(attrs) as conv:
            with self.assertRaises(DnnlException) as ctx:
                g.add_op(conv)
            self.assertEqual(Status.INVALID_GRAPH_OP, ctx.exception.status)

    def test_wrong_tensor_at_execute_raises(self):
        a = LogicalTensor(10, DataType.F32, [2, 3], LayoutType.STRIDED)
        other = LogicalTensor(10, DataType.F32, [3, 2], LayoutType.STRIDED)
        y = LogicalTensor(11, DataType.F32, [2, 3], LayoutType.STRIDED)
        with llga.Engine() as eng, llga.Stream(eng) as s, llga.Graph() as g, \
                llga.Op(0, OpKind.RELU, [a], [y]) as relu:
            g.add_op(relu)
            parts = g.get_partitions()
            try:
                with parts[0].compile([a], [y], eng) as cp, \
                        llga.Tensor.from_floats(a, eng, [-1, 2, -3, 4, -5, 6]) as ta, \
                        llga.Tensor(other, eng, bytearray(24)) as wrong, \
                        llga.Tensor(y, eng) as ty, \
                        llga.Tensor(y, eng, bytes(24)) as readonly:
                    cp.execute(s, [ta], [ty])
                    s.wait()
                    self.assertEqual([0, 2, 0, 4, 0, 6], ty.to_list())
                    with self.assertRaises(DnnlException) as ctx:
                        cp.execute(s, [wrong], [ty])
                    self.assertEqual(Status.INVALID_ARGUMENTS, ctx.exception.status)
                    self.assertIn(llga.native.llga_last_error_message(), str(ctx.exception))
                    with self.assertRaises(DnnlException) as ctx:
                        cp.execute(s, [], [ty])
                    self.assertEqual(Status.INVALID_ARGUMENTS, ctx.exception.status)
                    with self.assertRaises(ValueError):
                        cp.execute(s, [ta], [readonly])
            finally:
                for p in parts:
                    p.close()

    def test_closed_handles_are_rejected(self):
        eng = llga.Engine()
        eng.close()
        eng.close()  # idempotent
        self.assertTrue(eng.closed)
        with self.assertRaises(ValueError):
            llga.Stream(eng)

    def test_nothing_leaks(self):
        handles = llga.Handle.live_handles()
        blocks = llga.Allocator.live_blocks()
        total = llga.Allocator.total_blocks()
        x, w, b = fill(C * H * W, 4), fill(F * C * K * K, 5), fill(F, 6)
        for _ in range(3):
            with llga.Allocator.counting() as alloc:
                eng = llga.Engine(llga.EngineKind.CPU, 0, alloc)
            with eng:
                self.assert_close(reference(x, w, b), run_chain(eng, x, w, b, True))
        self.assertGreater(llga.Allocator.total_blocks(), total)
        self.assertEqual(blocks, llga.Allocator.live_blocks())
        self.assertEqual(handles, llga.Handle.live_handles())


if __name__ == "__main__":
    unittest.main()
