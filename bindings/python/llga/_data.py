# SPDX-License-Identifier: Apache-2.0
# bindings/python/llga/_data.py — the checks of tensor data against a logical
# tensor for the llga Python package: element type (struct format of the
# buffer), element count (byte size for opaque layouts and raw byte buffers),
# shape and strides; and the element-type table shared with Tensor.dtype.


def elem_dtype(type_name):
    """The numpy dtype name for a DataType member name, or None."""
    elem = _ELEM.get(type_name)
    return elem[1] if elem else None


# Element types of tensor data. Each data type maps to the struct format of
# a typed buffer (array.array, memoryview, numpy) and the numpy dtype name;
# bf16 and the 8-bit float/e8m0 types have no native Python/numpy type and
# travel as their raw bits (uint16 / uint8). The packed 4-bit types take raw
# bytes only.
_ELEM = {
    "F32": ("f", "float32"), "F16": ("e", "float16"), "BF16": ("H", "uint16"),
    "F64": ("d", "float64"), "S32": ("i", "int32"), "S8": ("b", "int8"),
    "U8": ("B", "uint8"), "BOOLEAN": ("?", "bool"), "F8_E5M2": ("B", "uint8"),
    "F8_E4M3": ("B", "uint8"), "E8M0": ("B", "uint8"),
}


def _fmt_name(view):
    """A readable element type of a memoryview ('float64', 'int32', ...)."""
    names = {"f": "float32", "d": "float64", "e": "float16", "b": "int8",
             "B": "uint8", "h": "int16", "H": "uint16", "?": "bool"}
    code = view.format.lstrip("@=<>!")
    if code in ("i", "l", "q", "I", "L", "Q"):
        return ("u" if code.isupper() else "") + "int%d" % (8 * view.itemsize)
    return names.get(code, "'%s'" % view.format)


def _is_raw_bytes(view):
    return view.ndim == 1 and view.format.lstrip("@=<>!") in ("B", "c")


def check_data(lt, view, what):
    """Checks a buffer (memoryview) against the logical tensor lt: element
    type, element count (byte size for opaque layouts or raw byte buffers)
    and shape. Returns True when the buffer's strides are lt's (so its memory
    can be used as the tensor's memory without copying)."""
    dt = lt.data_type
    tid = lt.id
    need = lt.mem_size()
    if _is_raw_bytes(view):
        # Untyped memory (bytes, bytearray, uint8 buffers): exact byte size.
        if view.nbytes != need:
            raise ValueError("tensor %d: %s holds %d bytes, the %s tensor needs %d"
                             % (tid, what, view.nbytes, dt.name.lower(), need))
        if not view.c_contiguous:
            raise ValueError("tensor %d: %s must be C-contiguous" % (tid, what))
        return True
    want = _ELEM.get(dt.name)
    got = _fmt_name(view)
    if want is None or view.format.lstrip("@=<>!") != want[0] \
            or view.itemsize != _np_itemsize(want[1]):
        raise TypeError("tensor %d: expected %s data (%s elements), got %s elements"
                        % (tid, dt.name.lower(), want[1] if want else "raw bytes", got))
    if lt.layout_type.name == "OPAQUE":
        if view.nbytes != need:
            raise ValueError("tensor %d: %s holds %d bytes, the opaque tensor needs %d"
                             % (tid, what, view.nbytes, need))
        if not view.c_contiguous:
            raise ValueError("tensor %d: %s must be C-contiguous" % (tid, what))
        return True
    count = 1
    for d in lt.dims:
        count *= d
    given = 1
    for d in view.shape:
        given *= d
    if any(d < 0 for d in lt.dims) or lt.ndims < 0:
        raise ValueError("tensor %d: its shape is not known yet (query the compiled "
                         "partition for the final logical tensor)" % tid)
    if given != count:
        raise ValueError("tensor %d: expected %d elements (shape %s), %s has %d (shape %s)"
                         % (tid, count, list(lt.dims), what, given, list(view.shape)))
    if view.ndim <= 1 and view.ndim != lt.ndims:
        # A flat buffer holding the right number of elements: its memory is
        # the tensor's buffer when it is contiguous and exactly that large.
        if not view.c_contiguous or view.nbytes != need:
            raise ValueError("tensor %d: a flat %s must be contiguous and hold %d bytes"
                             % (tid, what, need))
        return True
    if tuple(view.shape) != tuple(lt.dims):
        raise ValueError("tensor %d: expected shape %s, %s has shape %s"
                         % (tid, list(lt.dims), what, list(view.shape)))
    want_strides = tuple(s * view.itemsize for s in lt.strides)
    return tuple(view.strides) == want_strides or count <= 1


def _np_itemsize(name):
    return {"float32": 4, "float16": 2, "uint16": 2, "float64": 8, "int32": 4,
            "int8": 1, "uint8": 1, "bool": 1}[name]


def numpy_module():
    try:
        import numpy
        return numpy
    except ImportError:
        return None
