#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# tests/inputs/parity/make_graphs.py — writes the JSON graphs of the oneDNN
# v3.9 parity families (docs/fusion.md, "Parity with oneDNN v3.9"): the
# weight-compressed gated MLP, attention with layout ops inside the block
# (JAX MQA), SDPA training backward in mixed precision, and int8 depthwise
# convolution with weights prepared in the graph. Each graph forms one
# partition; `cases` runs them through llga-run strictly. Rerun after
# editing: python3 make_graphs.py (writes next to itself).
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def strides(shape):
    s, acc = [], 1
    for d in reversed(shape):
        s.append(acc)
        acc *= max(d, 1)
    return list(reversed(s))


class Graph:
    def __init__(self, fpmath="strict", apply_to_int=False):
        self.ops, self.lts, self.next_op = [], {}, 0
        self.fpmath, self.apply_to_int = fpmath, apply_to_int

    def lt(self, tid, dt, shape, prop="undef", st=None):
        self.lts[tid] = {"id": tid, "dtype": dt, "shape": list(shape),
                         "stride": st or strides(shape),
                         "layout_type": "strided", "property_type": prop}
        return tid

    def op(self, kind, ins, outs, name=None, **attrs):
        a = {}
        for k, v in attrs.items():
            if isinstance(v, bool):
                a[k] = {"type": "bool", "value": int(v)}
            elif isinstance(v, int):
                a[k] = {"type": "s64", "value": v}
            elif isinstance(v, float):
                a[k] = {"type": "f32", "value": v}
            elif isinstance(v, str):
                a[k] = {"type": "string", "value": v}
            elif v and isinstance(v[0], float):
                a[k] = {"type": "f32[]", "value": v}
            else:
                a[k] = {"type": "s64[]", "value": v}
        self.ops.append({"id": self.next_op, "name": name or kind.lower(),
                         "kind": kind, "attrs": a,
                         "inputs": [dict(self.lts[i]) for i in ins],
                         "outputs": [dict(self.lts[o]) for o in outs]})
        self.next_op += 1

    def write(self, name):
        produced = {o["id"] for op in self.ops for o in op["outputs"]}
        consumed = {i["id"] for op in self.ops for i in op["inputs"]}
        ins = []
        for op in self.ops:
            for i in op["inputs"]:
                if i["id"] not in produced and i["id"] not in ins:
                    ins.append(i["id"])
        outs = [t for t in sorted(produced) if t not in consumed]
        d = {"version": "3.9.0", "engine_kind": "cpu",
             "fpmath_mode": self.fpmath,
             "fpmath_mode_apply_to_int": "true" if self.apply_to_int else "false",
             "input_ports": ins, "output_ports": outs, "graph": self.ops}
        # One op per line: small files that still diff well.
        head = {k: v for k, v in d.items() if k != "graph"}
        text = json.dumps(head)[:-1] + ', "graph": [\n'
        text += ",\n".join(json.dumps(op) for op in self.ops) + "\n]}\n"
        with open(os.path.join(HERE, name), "w") as f:
            f.write(text)
        return name


# ---- weight-compressed gated MLP ------------------------------------------
def gated_mlp(act, wdt, group_dim, M, K, N, G, zps=True, act_op="swish"):
    g = Graph(fpmath=act if act != "f32" else "strict", apply_to_int=act != "f32")
    x = g.lt(0, act, [M, K])
    t = [100]

    def ddq(w_shape, name):
        wid, sid, zid, oid = t[0], t[0] + 1, t[0] + 2, t[0] + 3
        t[0] += 4
        gs = [G, 1] if group_dim == 0 else [1, G]
        s_shape = [w_shape[0] // gs[0], w_shape[1] // gs[1]]
        g.lt(wid, wdt, w_shape, "constant")
        g.lt(sid, act, s_shape, "constant")
        ins = [wid, sid]
        if zps:
            g.lt(zid, "u8", s_shape, "constant")
            ins.append(zid)
        g.lt(oid, act, w_shape)
        g.op("DynamicDequantize", ins, [oid], name, qtype="per_group",
             group_shape=gs, axis=group_dim)
        return oid

    wg, wu, wd = ddq([K, N], "dq_gate"), ddq([K, N], "dq_up"), ddq([N, K], "dq_down")
    gate, up = g.lt(1, act, [M, N]), g.lt(2, act, [M, N])
    g.op("MatMul", [x, wg], [gate], "fc_gate")
    g.op("MatMul", [x, wu], [up], "fc_up")
    if act_op == "swish":
        sig, sw = g.lt(3, act, [M, N]), g.lt(4, act, [M, N])
        g.op("Sigmoid", [gate], [sig], "swish/sigmoid")
        g.op("Multiply", [gate, sig], [sw], "swish/multiply")
    else:
        sw = g.lt(4, act, [M, N])
        g.op(act_op, [gate], [sw], "act")
    h, y = g.lt(5, act, [M, N]), g.lt(6, act, [M, K])
    g.op("Multiply", [sw, up], [h], "mul")
    g.op("MatMul", [h, wd], [y], "fc_down")
    zp = "" if zps else "_nozp"
    return g.write(f"gmlp_{wdt}_{act}_g{group_dim}_{M}x{K}x{N}_{act_op}{zp}.json")


# ---- JAX-style MQA: layout ops around the mask Add and SoftMax -------------
def jax_mqa(dt, B, H, Sq, Sk, D, mask_heads=1):
    g = Graph()
    k = g.lt(0, dt, [B, Sk, D])           # one shared K head
    qt = g.lt(1, dt, [B, D, H * Sq])      # queries, heads folded
    s = g.lt(2, dt, [B, Sk, H * Sq])
    g.op("MatMul", [k, qt], [s], "matmul_qk")
    r = g.lt(3, dt, [B, Sk, H, Sq])
    g.op("StaticReshape", [s], [r], "reshape1", shape=[B, Sk, H, Sq],
         special_zero=False)
    tr = g.lt(4, dt, [B, H, Sq, Sk])
    g.op("StaticTranspose", [r], [tr], "transpose1", order=[0, 2, 3, 1])
    m = g.lt(5, dt, [B, mask_heads, Sq, Sk])
    a = g.lt(6, dt, [B, H, Sq, Sk])
    g.op("Add", [tr, m], [a], "mask_add", auto_broadcast="numpy")
    p = g.lt(7, dt, [B, H, Sq, Sk])
    g.op("SoftMax", [a], [p], "softmax", axis=-1)
    pt = g.lt(8, dt, [B, Sk, H, Sq])
    g.op("StaticTranspose", [p], [pt], "transpose2", order=[0, 3, 1, 2])
    pr = g.lt(9, dt, [B, Sk, H * Sq])
    g.op("StaticReshape", [pt], [pr], "reshape2", shape=[B, Sk, H * Sq],
         special_zero=False)
    v = g.lt(10, dt, [B, D, Sk])          # one shared V head
    o = g.lt(11, dt, [B, D, H * Sq])
    g.op("MatMul", [v, pr], [o], "matmul_v")
    return g.write(f"jax_mqa_{dt}_{B}x{H}x{Sq}x{Sk}x{D}_m{mask_heads}.json")


# ---- SDPA training backward, mixed precision -------------------------------
def sdpa_bwd(dt, N, H, S, D, scale_op="Multiply", mask=True, smb_reads_f32=False):
    g = Graph()
    q, k, v = g.lt(0, dt, [N, H, S, D]), g.lt(1, dt, [N, H, S, D]), g.lt(2, dt, [N, H, S, D])
    do = g.lt(3, dt, [N, H, S, D])
    stats = g.lt(4, "f32", [N, H, S, 1])
    sc = g.lt(5, "f32", [1])
    s = g.lt(10, "f32", [N, H, S, S])
    g.op("MatMul", [q, k], [s], "bmm_qk", transpose_b=True)
    cur = g.lt(11, "f32", [N, H, S, S])
    g.op(scale_op, [s, sc], [cur], "scale", auto_broadcast="numpy")
    if mask:
        mk = g.lt(6, "f32", [N, 1, S, S])
        m2 = g.lt(12, "f32", [N, H, S, S])
        g.op("Add", [cur, mk], [m2], "mask", auto_broadcast="numpy")
        cur = m2
    sub = g.lt(13, "f32", [N, H, S, S])
    g.op("Subtract", [cur, stats], [sub], "sub_stats", auto_broadcast="numpy")
    p32 = g.lt(14, "f32", [N, H, S, S])
    g.op("Exp", [sub], [p32], "exp")
    p = p32
    if dt != "f32":
        p = g.lt(15, dt, [N, H, S, S])
        g.op("TypeCast", [p32], [p], "tc_p")
    dv = g.lt(20, dt, [N, H, S, D])
    g.op("MatMul", [p, do], [dv], "bmm_dv", transpose_a=True)
    dp = g.lt(21, "f32", [N, H, S, S])
    g.op("MatMul", [do, v], [dp], "bmm_dp", transpose_b=True)
    ds = g.lt(22, "f32", [N, H, S, S])
    g.op("SoftMaxBackward", [dp, p32 if smb_reads_f32 else p], [ds], "softmax_bwd",
         axis=-1)
    ds2 = g.lt(23, "f32", [N, H, S, S])
    g.op(scale_op, [ds, sc], [ds2], "scale_ds", auto_broadcast="numpy")
    dsl = ds2
    if dt != "f32":
        dsl = g.lt(24, dt, [N, H, S, S])
        g.op("TypeCast", [ds2], [dsl], "tc_ds")
    dq, dk = g.lt(25, dt, [N, H, S, D]), g.lt(26, dt, [N, H, S, D])
    g.op("MatMul", [dsl, k], [dq], "bmm_dq")
    g.op("MatMul", [dsl, q], [dk], "bmm_dk", transpose_a=True)
    tag = ("_mask" if mask else "") + ("_smbf32" if smb_reads_f32 else "")
    return g.write(f"sdpa_bwd_{dt}_{scale_op.lower()}_{N}x{H}x{S}x{D}{tag}.json")


# ---- int8 depthwise convolution, weights prepared in the graph -------------
def dw_conv(N, C, H, W, K, mult=1, nxc=True, post="ReLU", per_channel=True):
    g = Graph()
    OC = C * mult
    src_shape = [N, H, W, C] if nxc else [N, C, H, W]
    x = g.lt(0, "u8", src_shape)
    xf = g.lt(1, "f32", src_shape)
    g.op("Dequantize", [x], [xf], "dq_src", qtype="per_tensor", scales=[0.5],
         zps=[2], axis=1)
    # TensorFlow keeps depthwise weights as [KH, KW, C, mult].
    w = g.lt(2, "f32", [K, K, C, mult], "constant")
    wr = g.lt(3, "f32", [K, K, 1, OC])
    g.op("StaticReshape", [w], [wr], "reshape_w", shape=[K, K, 1, OC],
         special_zero=False)
    sc = [0.125 * (1 + i % 3) for i in range(OC)] if per_channel else [0.25]
    qt = "per_channel" if per_channel else "per_tensor"
    wq = g.lt(4, "s8", [K, K, 1, OC])
    g.op("Quantize", [wr], [wq], "q_w", qtype=qt, scales=sc,
         zps=[0] * len(sc), axis=3)
    wd = g.lt(5, "f32", [K, K, 1, OC])
    g.op("Dequantize", [wq], [wd], "dq_w", qtype=qt, scales=sc,
         zps=[0] * len(sc), axis=3)
    wg = g.lt(6, "f32", [K, K, 1, OC])
    g.op("StaticReshape", [wd], [wg], "reshape_wg", shape=[K, K, 1, OC],
         special_zero=False)
    OH, OW = H - K + 1, W - K + 1
    out_shape = [N, OH, OW, OC] if nxc else [N, OC, OH, OW]
    y = g.lt(7, "f32", out_shape)
    g.op("Convolution", [xf, wg], [y], "dwconv", strides=[1, 1],
         dilations=[1, 1], pads_begin=[0, 0], pads_end=[0, 0], groups=C,
         data_format="NXC" if nxc else "NCX", weights_format="XIO",
         auto_pad="None")
    cur = y
    if post:
        z = g.lt(8, "f32", out_shape)
        g.op(post, [cur], [z], "post")
        cur = z
    q = g.lt(9, "u8", out_shape)
    g.op("Quantize", [cur], [q], "q_out", qtype="per_tensor", scales=[0.25],
         zps=[3], axis=1)
    tag = ("nxc" if nxc else "ncx") + f"_m{mult}" + (f"_{post.lower()}" if post else "") \
        + ("" if per_channel else "_pt")
    return g.write(f"dwconv_int8_{tag}_{N}x{C}x{H}x{W}_k{K}.json")


# ---- MatMul written straight into heads -----------------------------------
def mm_heads(dt, B, S, H, D, tail="reshape", bias=True, int8=False):
    g = Graph()
    K, N = H * D, H * D
    cdt = "f32" if int8 else dt
    if int8:
        xq, wq = g.lt(0, "u8", [B, S, K]), g.lt(1, "s8", [K, N], "constant")
        x, w = g.lt(2, "f32", [B, S, K]), g.lt(3, "f32", [K, N])
        g.op("Dequantize", [xq], [x], "dq_x", qtype="per_tensor", scales=[0.5],
             zps=[1], axis=1)
        g.op("Dequantize", [wq], [w], "dq_w", qtype="per_channel",
             scales=[0.25 * (1 + i % 2) for i in range(N)], zps=[0] * N, axis=1)
    else:
        x, w = g.lt(0, dt, [B, S, K]), g.lt(1, dt, [K, N], "constant")
    y = g.lt(4, cdt, [B, S, N])
    if bias:
        b = g.lt(5, cdt, [N])
        g.op("MatMul", [x, w, b], [y], "proj")
    else:
        g.op("MatMul", [x, w], [y], "proj")
    if tail == "reorder":
        t = g.lt(6, cdt, [B, N, S])
        g.op("StaticTranspose", [y], [t], "transpose", order=[0, 2, 1])
        o = g.lt(7, cdt, [B, N, S])
        g.op("Reorder", [t], [o], "reorder")
    else:
        r = g.lt(6, cdt, [B, S, H, D])
        g.op("StaticReshape", [y], [r], "reshape_in", shape=[B, S, H, D],
             special_zero=False)
        t = g.lt(7, cdt, [B, H, S, D])
        g.op("StaticTranspose", [r], [t], "transpose", order=[0, 2, 1, 3])
        o = t
        if tail == "reshape":
            o = g.lt(8, cdt, [B * H, S, D])
            g.op("StaticReshape", [t], [o], "reshape_out", shape=[B * H, S, D],
                 special_zero=False)
    if int8:
        q = g.lt(9, "u8", g.lts[o]["shape"])
        g.op("Quantize", [o], [q], "q_out", qtype="per_tensor", scales=[0.5],
             zps=[2], axis=1)
    name = "int8" if int8 else dt
    return g.write(f"mm_heads_{name}_{tail}{'_bias' if bias else ''}_{B}x{S}x{H}x{D}.json")


# ---- Convolution → one op → swish → up to four more post-ops -------------
def conv_swish(dt, N, C, H, W, O, posts):
    g = Graph()
    x, w = g.lt(0, dt, [N, H, W, C]), g.lt(1, dt, [3, 3, C, O], "constant")
    y = g.lt(2, dt, [N, H, W, O])
    g.op("Convolution", [x, w], [y], "conv", strides=[1, 1], dilations=[1, 1],
         pads_begin=[1, 1], pads_end=[1, 1], groups=1, data_format="NXC",
         weights_format="XIO", auto_pad="None")
    b, a = g.lt(3, dt, [1, 1, 1, O]), g.lt(4, dt, [N, H, W, O])
    g.op("Add", [y, b], [a], "add", auto_broadcast="numpy")
    s, m = g.lt(5, dt, [N, H, W, O]), g.lt(6, dt, [N, H, W, O])
    g.op("Sigmoid", [a], [s], "swish/sigmoid")
    g.op("Multiply", [a, s], [m], "swish/multiply", auto_broadcast="numpy")
    cur, t = m, 7
    for k in posts:
        o = g.lt(t, dt, [N, H, W, O])
        g.op(k, [cur], [o], k.lower())
        cur, t = o, t + 1
    return g.write(f"conv_swish_{dt}_{len(posts)}posts_{N}x{C}x{H}x{W}x{O}.json")


if __name__ == "__main__":
    names = []
    for act in ("f16", "bf16"):
        names += [gated_mlp(act, "u4", 0, 4, 64, 96, 32),
                  gated_mlp(act, "s4", 1, 2, 128, 64, 16),
                  gated_mlp(act, "u4", 1, 1, 64, 128, 32, zps=False),
                  gated_mlp(act, "s4", 0, 3, 96, 64, 32, act_op="GELU")]
    names += [gated_mlp("f32", "u4", 0, 4, 64, 96, 32)]
    for dt in ("f32", "bf16", "f16"):
        names += [jax_mqa(dt, 2, 4, 8, 16, 32), jax_mqa(dt, 1, 8, 16, 16, 64, 8)]
    # Mixed precision: bf16/f16 MatMuls, f32 scores and statistics; the
    # SoftMaxBackward reads the f32 probabilities (its data types must
    # agree), the dV MatMul their cast.
    for dt in ("bf16", "f16"):
        names += [sdpa_bwd(dt, 1, 2, 16, 32, "Multiply", True, True),
                  sdpa_bwd(dt, 2, 2, 8, 16, "Divide", True, True),
                  sdpa_bwd(dt, 1, 4, 8, 16, "Divide", False, True)]
    names += [sdpa_bwd("f32", 1, 2, 16, 32, "Multiply", True),
              sdpa_bwd("f32", 2, 2, 8, 16, "Divide", False)]
    names += [dw_conv(1, 8, 7, 7, 3), dw_conv(2, 16, 6, 5, 3, nxc=False),
              dw_conv(1, 4, 5, 5, 3, mult=2), dw_conv(1, 8, 6, 6, 2, post=None),
              dw_conv(1, 8, 6, 6, 3, post="Tanh", per_channel=False)]
    for dt in ("f32", "bf16", "f16"):
        names += [mm_heads(dt, 2, 8, 4, 16), mm_heads(dt, 1, 16, 2, 32, "none", False),
                  mm_heads(dt, 2, 4, 2, 8, "reorder")]
    names += [mm_heads("f32", 2, 8, 4, 16, int8=True),
              mm_heads("f32", 1, 4, 2, 8, "reorder", False, int8=True)]
    for dt in ("f32", "bf16", "f16"):
        names += [conv_swish(dt, 1, 4, 6, 6, 8, ["ReLU", "Tanh", "Abs", "Sigmoid"]),
                  conv_swish(dt, 2, 3, 5, 4, 4, ["GELU"])]
    with open(os.path.join(HERE, "cases"), "w") as f:
        f.write("# tests/inputs/parity/cases — written by make_graphs.py: every\n"
                "# graph forms one partition (strict) and matches the reference.\n")
        for n in names:
            f.write(f"--reset --expected-n-partitions=1 --case=parity/{n}\n")
    print("\n".join(names))
