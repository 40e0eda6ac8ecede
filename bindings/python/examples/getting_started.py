# SPDX-License-Identifier: Apache-2.0
# bindings/python/examples/getting_started.py — the Python getting-started
# example of docs/bindings.md (included there verbatim; ctest runs it):
# conv + bias + ReLU built, partitioned, compiled and executed through the
# llga package, checked against plain loops.
from array import array

import llga
from llga import DataType, LayoutType, LogicalTensor, OpAttr, OpKind, TensorProperty

C, H, W, F, K = 2, 5, 5, 3, 3
x = array("f", [(i % 7) * 0.25 - 0.5 for i in range(C * H * W)])
w = array("f", [(i % 5) * 0.1 - 0.2 for i in range(F * C * K * K)])
b = array("f", [0.1 * i - 0.1 for i in range(F)])

src = LogicalTensor(0, DataType.F32, [1, C, H, W], LayoutType.STRIDED)
wei = LogicalTensor(1, DataType.F32, [F, C, K, K], LayoutType.STRIDED, TensorProperty.CONSTANT)
bia = LogicalTensor(2, DataType.F32, [F], LayoutType.STRIDED, TensorProperty.CONSTANT)
# Produced tensors: rank and layout are left to the library.
conv_out = LogicalTensor(3, DataType.F32, llga.UNKNOWN_NDIMS, LayoutType.UNDEF)
bias_out = LogicalTensor(4, DataType.F32, llga.UNKNOWN_NDIMS, LayoutType.UNDEF)
dst = LogicalTensor(5, DataType.F32, llga.UNKNOWN_NDIMS, LayoutType.UNDEF)

data = {0: x, 1: w, 2: b}
known = {0: src, 1: wei, 2: bia}

with llga.Engine(llga.EngineKind.CPU, 0) as eng, llga.Stream(eng) as strm, \
        llga.Graph(llga.EngineKind.CPU) as g:
    with llga.Op(0, OpKind.CONVOLUTION, [src, wei], [conv_out], "conv", attrs={
            OpAttr.STRIDES: [1, 1], OpAttr.PADS_BEGIN: [1, 1], OpAttr.PADS_END: [1, 1],
            OpAttr.DILATIONS: [1, 1], OpAttr.DATA_FORMAT: "NCX",
            OpAttr.WEIGHTS_FORMAT: "OIX"}) as conv, \
         llga.Op(1, OpKind.BIAS_ADD, [conv_out, bia], [bias_out], "bias",
                 attrs={OpAttr.DATA_FORMAT: "NCX"}) as bias, \
         llga.Op(2, OpKind.RELU, [bias_out], [dst], "relu") as relu:
        g.add_op(conv).add_op(bias).add_op(relu)
    for part in g.get_partitions():
        with part:
            ins = [known[p.id] for p in part.input_ports()]
            outs = [LogicalTensor(p.id, DataType.F32, llga.UNKNOWN_NDIMS, LayoutType.ANY)
                    for p in part.output_ports()]
            with part.compile(ins, outs, eng) as cp:
                tin = [llga.Tensor(lt, eng, data[lt.id]) for lt in ins]  # no copy
                tout = []
                for lt in outs:
                    q = cp.query_logical_tensor(lt.id)
                    known[q.id] = q
                    data[q.id] = array("f", bytes(q.mem_size()))
                    tout.append(llga.Tensor(q, eng, data[q.id]))  # results land here
                cp.execute(strm, tin, tout)
                strm.wait()
                for t in tin + tout:
                    t.close()

# The same computation as plain loops.
got = data[5]
max_err = 0.0
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
            max_err = max(max_err, abs(got[(f * H + y) * W + xx] - max(acc, 0.0)))
print("conv+bias+relu: %d values, max |error| %.2e" % (len(got), max_err))
assert max_err < 1e-4, "result mismatch"
print("OK")
