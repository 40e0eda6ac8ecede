# SPDX-License-Identifier: Apache-2.0
# bindings/python/llga/_core.py — what every class of the llga Python package
# stands on: the enums built from the C constants (through SWIG), the
# dimension sentinels, DnnlException and the status check of each C call,
# and Handle, the context-managed owner of a native object.

import enum as _enum
import threading as _threading

from . import native as _n


UNKNOWN_NDIMS = -1
UNKNOWN_DIM = -(2 ** 63)
_MAX_NDIMS = 12


def _consts(prefix, exclude=(), names=None):
    """{SHORT_NAME: value} for the C enum constants starting with prefix."""
    out = {}
    for key, value in vars(_n).items():
        if not key.startswith(prefix) or not isinstance(value, int):
            continue
        if any(key.startswith(e) for e in exclude):
            continue
        short = key[len(prefix):]
        if names is not None and short not in names:
            continue
        out[short.upper()] = value
    return out


# Enums: values always come from the C headers (through SWIG).
Status = _enum.IntEnum("Status", _consts("dnnl_", names=(
    "success", "out_of_memory", "invalid_arguments", "unimplemented",
    "last_impl_reached", "runtime_error", "not_required", "invalid_graph",
    "invalid_graph_op", "invalid_shape", "invalid_data_type")))
DataType = _enum.IntEnum("DataType", dict(
    _consts("dnnl_", names=(
        "f16", "bf16", "f32", "s32", "s8", "u8", "f64", "boolean", "f8_e5m2",
        "f8_e4m3", "s4", "u4", "e8m0", "f4_e2m1", "f4_e3m0")),
    **_consts("dnnl_data_type_")))
EngineKind = _enum.IntEnum("EngineKind", {
    "ANY": _n.dnnl_any_engine, "CPU": _n.dnnl_cpu, "GPU": _n.dnnl_gpu})
FpMathMode = _enum.IntEnum("FpMathMode", _consts("dnnl_fpmath_mode_"))
LayoutType = _enum.IntEnum("LayoutType", _consts("dnnl_graph_layout_type_"))
TensorProperty = _enum.IntEnum("TensorProperty", _consts("dnnl_graph_tensor_property_"))
PartitionPolicy = _enum.IntEnum("PartitionPolicy", _consts("dnnl_graph_partition_policy_"))
OpKind = _enum.IntEnum("OpKind", _consts("dnnl_graph_op_", exclude=("dnnl_graph_op_attr_",)))
OpAttr = _enum.IntEnum("OpAttr", _consts("dnnl_graph_op_attr_"))


class DnnlException(Exception):
    """A failed llga call; ``status`` is the C status (a :class:`Status`)."""

    def __init__(self, status, message):
        super().__init__(message)
        try:
            self.status = Status(status)
        except ValueError:
            self.status = status


def _check(status, function):
    if status != _n.dnnl_success:
        detail = _n.llga_last_error_message()
        try:
            name = Status(status).name
        except ValueError:
            name = str(status)
        raise DnnlException(status, "%s failed with %s%s" % (
            function, name, ": " + detail if detail else ""))


def _out(new, value, delete, call, function):
    """Calls call(p) with a fresh out-parameter p and returns *p."""
    p = new()
    try:
        _check(call(p), function)
        return value(p)
    finally:
        delete(p)


class Handle:
    """Base of every class owning a native llga object."""

    _live = 0
    _lock = _threading.Lock()

    def __init__(self):
        self._h = None
        with Handle._lock:
            Handle._live += 1
        self._open = True

    @staticmethod
    def live_handles():
        """Handles created and not yet closed (for leak checks)."""
        return Handle._live

    @property
    def closed(self):
        return not getattr(self, "_open", False)

    def close(self):
        """Releases the native object; further calls do nothing."""
        if not getattr(self, "_open", False):
            return
        self._open = False
        with Handle._lock:
            Handle._live -= 1
        h, self._h = self._h, None
        if h is not None:
            self._release(h)

    def _ensure_open(self):
        if self.closed:
            raise ValueError("%s is closed" % type(self).__name__)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __del__(self):
        # Safety net only: close() or a with block is the way to release.
        try:
            self.close()
        except Exception:
            pass
