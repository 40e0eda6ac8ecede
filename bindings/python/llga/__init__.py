# SPDX-License-Identifier: Apache-2.0
# bindings/python/llga/__init__.py — the Python layer of the llga binding:
# Engine, Stream, LogicalTensor, Op, Graph, Partition, CompiledPartition,
# Tensor and Allocator over the SWIG-generated llga.native module, and tensor
# data through the buffer protocol. The enums, DnnlException and the Handle
# base come from _core.py, the data checks from _data.py.
"""Python binding of llga, an implementation of the oneDNN Graph API.

Every native object is a context manager (``with Engine(...) as eng:``) and
has ``close()``; closing is idempotent. A failing C call raises
:class:`DnnlException` whose ``status`` is the C status code and whose
message includes ``llga_last_error_message()``. Tensor data is any object
exporting a C-contiguous buffer (bytes, bytearray, array.array, memoryview,
numpy arrays): the tensor uses that memory directly, without copying,
after checking its element type, count and shape against the logical tensor.
"""

import array as _array

from . import native as _n
from ._version import __version__
from ._core import (  # noqa: F401 (re-exported)
    UNKNOWN_DIM, UNKNOWN_NDIMS, _MAX_NDIMS, DataType, DnnlException,
    EngineKind, FpMathMode, Handle, LayoutType, OpAttr, OpKind,
    PartitionPolicy, Status, TensorProperty, _check, _out)
from ._data import check_data as _check_data, elem_dtype as _elem_dtype, numpy_module as _numpy


__all__ = [
    "Allocator", "CompiledPartition", "DataType", "DnnlException", "Engine",
    "EngineKind", "FpMathMode", "Graph", "Handle", "LayoutType", "LogicalTensor",
    "Op", "OpAttr", "OpKind", "Partition", "PartitionPolicy", "Status", "Stream",
    "Tensor", "TensorProperty", "UNKNOWN_DIM", "UNKNOWN_NDIMS", "native",
    "version", "__version__",
]

native = _n


def version():
    """llga's own version as (major, minor, patch, git hash), from the
    loaded library (llga_version() in llga.h); __version__ is the package's
    version string, which is the same release."""
    v = _n.llga_version()
    return (v.major, v.minor, v.patch, v.hash)


class Allocator(Handle):
    """A host allocator for engines. Only allocators implemented in C are
    offered (the default one and a counting one from the binding's C glue);
    callbacks written in Python are not supported."""

    def __init__(self, counting=False):
        super().__init__()
        try:
            if counting:
                call = _n.llga_bind_counting_allocator_create
            else:
                def call(p):
                    return _n.dnnl_graph_allocator_create(p, None, None)
            self._h = _out(_n.new_allocator_p, _n.allocator_p_value,
                           _n.delete_allocator_p, call, "dnnl_graph_allocator_create")
        except BaseException:
            self.close()
            raise

    @staticmethod
    def counting():
        """An allocator counting the blocks it hands out."""
        return Allocator(counting=True)

    @staticmethod
    def live_blocks():
        return _n.llga_bind_live_blocks()

    @staticmethod
    def total_blocks():
        return _n.llga_bind_total_blocks()

    def _release(self, h):
        _n.dnnl_graph_allocator_destroy(h)


class Engine(Handle):
    """A device (EngineKind.CPU; EngineKind.GPU where llga has its OpenCL engine) plus its allocator."""

    def __init__(self, kind=EngineKind.CPU, index=0, allocator=None):
        super().__init__()
        self.kind = EngineKind(kind)
        try:
            if allocator is None:
                def call(p):
                    return _n.dnnl_engine_create(p, int(kind), index)
                fn = "dnnl_engine_create"
            else:
                allocator._ensure_open()

                def call(p):
                    return _n.dnnl_graph_make_engine_with_allocator(
                        p, int(kind), index, allocator._h)
                fn = "dnnl_graph_make_engine_with_allocator"
            self._h = _out(_n.new_engine_p, _n.engine_p_value, _n.delete_engine_p, call, fn)
        except BaseException:
            self.close()
            raise

    @staticmethod
    def count(kind=EngineKind.CPU):
        return _n.dnnl_engine_get_count(int(kind))

    def _release(self, h):
        _n.dnnl_engine_destroy(h)


class Stream(Handle):
    """An in-order execution queue on an engine."""

    def __init__(self, engine):
        super().__init__()
        try:
            engine._ensure_open()
            self.engine = engine  # keeps the engine alive
            self._h = _out(_n.new_stream_p, _n.stream_p_value, _n.delete_stream_p,
                           lambda p: _n.dnnl_stream_create(p, engine._h, 1),
                           "dnnl_stream_create")
        except BaseException:
            self.close()
            raise

    def wait(self):
        """Blocks until all submitted work has finished."""
        self._ensure_open()
        _check(_n.dnnl_stream_wait(self._h), "dnnl_stream_wait")

    def _release(self, h):
        _n.dnnl_stream_destroy(h)


class LogicalTensor:
    """Describes a tensor: id, element type, shape, layout and property.

    ``LogicalTensor(id, DataType.F32, [1, 3, 8, 8], LayoutType.STRIDED)``
    gives known dims (dense row-major strides for strided layouts);
    ``LogicalTensor(id, DataType.F32, UNKNOWN_NDIMS, LayoutType.UNDEF)``
    leaves rank and dims to the library. Immutable; holds no native memory.
    """

    __slots__ = ("id", "data_type", "ndims", "dims", "layout_type", "property",
                 "strides", "_layout_id")

    def __init__(self, id, data_type, dims, layout_type,
                 property=TensorProperty.VARIABLE):
        n = _n.dnnl_graph_logical_tensor_t()
        if isinstance(dims, int):
            _check(_n.dnnl_graph_logical_tensor_init(
                n, id, int(data_type), dims, int(layout_type), int(property)),
                "dnnl_graph_logical_tensor_init")
        else:
            dims = list(dims)
            if len(dims) > _MAX_NDIMS:
                raise ValueError("at most %d dimensions" % _MAX_NDIMS)
            arr = _n.new_int64_array(_MAX_NDIMS)
            try:
                for i, d in enumerate(dims):
                    _n.int64_array_setitem(arr, i, int(d))
                _check(_n.dnnl_graph_logical_tensor_init_with_dims(
                    n, id, int(data_type), len(dims), arr, int(layout_type),
                    int(property)), "dnnl_graph_logical_tensor_init_with_dims")
            finally:
                _n.delete_int64_array(arr)
        self._load(n)

    @classmethod
    def with_strides(cls, id, data_type, dims, strides,
                     property=TensorProperty.VARIABLE):
        """A strided logical tensor with explicit strides (in elements), e.g.
        ``[1, 2]`` for a column-major 2x3 matrix."""
        dims, strides = list(dims), list(strides)
        if len(dims) > _MAX_NDIMS or len(strides) != len(dims):
            raise ValueError("dims and strides: same rank, at most %d dimensions" % _MAX_NDIMS)
        n = _n.dnnl_graph_logical_tensor_t()
        d = _n.new_int64_array(_MAX_NDIMS)
        s = _n.new_int64_array(_MAX_NDIMS)
        try:
            for i in range(len(dims)):
                _n.int64_array_setitem(d, i, int(dims[i]))
                _n.int64_array_setitem(s, i, int(strides[i]))
            _check(_n.dnnl_graph_logical_tensor_init_with_strides(
                n, id, int(data_type), len(dims), d, s, int(property)),
                "dnnl_graph_logical_tensor_init_with_strides")
        finally:
            _n.delete_int64_array(d)
            _n.delete_int64_array(s)
        self = cls.__new__(cls)
        self._load(n)
        return self

    def _load(self, n):
        self.id = n.id
        self.data_type = DataType(n.data_type)
        self.ndims = n.ndims
        self.layout_type = LayoutType(n.layout_type)
        self.property = TensorProperty(n.property_type)
        rank = max(0, min(self.ndims, _MAX_NDIMS))
        self.dims = tuple(_n.int64_array_getitem(n.dims, i) for i in range(rank))
        if self.layout_type == LayoutType.STRIDED:
            self.strides = tuple(_n.int64_array_getitem(n.layout.strides, i)
                                 for i in range(rank))
        else:
            self.strides = ()
        self._layout_id = n.layout.layout_id if self.layout_type == LayoutType.OPAQUE else 0

    @classmethod
    def _from_native(cls, n):
        self = cls.__new__(cls)
        self._load(n)
        return self

    def _to_native(self):
        n = _n.dnnl_graph_logical_tensor_t()
        n.id = self.id
        n.data_type = int(self.data_type)
        n.ndims = self.ndims
        n.layout_type = int(self.layout_type)
        n.property_type = int(self.property)
        d = n.dims
        for i in range(_MAX_NDIMS):
            _n.int64_array_setitem(d, i, self.dims[i] if i < len(self.dims) else 0)
        if self.layout_type == LayoutType.OPAQUE:
            n.layout.layout_id = self._layout_id
        else:
            s = n.layout.strides
            for i in range(_MAX_NDIMS):
                _n.int64_array_setitem(s, i, self.strides[i] if i < len(self.strides) else 0)
        return n

    def mem_size(self):
        """Bytes a buffer for this tensor needs."""
        n = self._to_native()
        return _out(_n.new_size_t_p, _n.size_t_p_value, _n.delete_size_t_p,
                    lambda p: _n.dnnl_graph_logical_tensor_get_mem_size(n, p),
                    "dnnl_graph_logical_tensor_get_mem_size")

    def __repr__(self):
        return "LogicalTensor(id=%d, %s, dims=%s, %s, %s)" % (
            self.id, self.data_type.name, list(self.dims), self.layout_type.name,
            self.property.name)


class Op(Handle):
    """One operation: kind, inputs, outputs and attributes."""

    def __init__(self, id, kind, inputs=(), outputs=(), name=None, attrs=None):
        super().__init__()
        try:
            kind = OpKind(kind)
            self._h = _out(_n.new_op_p, _n.op_p_value, _n.delete_op_p,
                           lambda p: _n.dnnl_graph_op_create(
                               p, id, int(kind), name or kind.name.lower()),
                           "dnnl_graph_op_create")
            for t in inputs:
                self.add_input(t)
            for t in outputs:
                self.add_output(t)
            for k, v in (attrs or {}).items():
                self.set_attr(k, v)
        except BaseException:
            self.close()
            raise

    def add_input(self, lt):
        self._ensure_open()
        _check(_n.dnnl_graph_op_add_input(self._h, lt._to_native()), "dnnl_graph_op_add_input")
        return self

    def add_output(self, lt):
        self._ensure_open()
        _check(_n.dnnl_graph_op_add_output(self._h, lt._to_native()), "dnnl_graph_op_add_output")
        return self

    def set_attr(self, name, value):
        """Sets an attribute; the C setter is chosen from the value's type:
        bool, int or a sequence of ints (s64), float or a sequence of floats
        (f32), str."""
        self._ensure_open()
        name = int(name)
        if isinstance(value, bool):
            arr = _n.new_uint8_array(1)
            try:
                _n.uint8_array_setitem(arr, 0, 1 if value else 0)
                _check(_n.dnnl_graph_op_set_attr_bool(self._h, name, arr, 1),
                       "dnnl_graph_op_set_attr_bool")
            finally:
                _n.delete_uint8_array(arr)
        elif isinstance(value, str):
            _check(_n.dnnl_graph_op_set_attr_str(
                self._h, name, value, len(value.encode("utf-8"))),
                "dnnl_graph_op_set_attr_str")
        else:
            values = [value] if isinstance(value, (int, float)) else list(value)
            if any(isinstance(v, float) for v in values):
                new, setitem, delete, call, fn = (
                    _n.new_float_array, _n.float_array_setitem, _n.delete_float_array,
                    _n.dnnl_graph_op_set_attr_f32, "dnnl_graph_op_set_attr_f32")
            else:
                new, setitem, delete, call, fn = (
                    _n.new_int64_array, _n.int64_array_setitem, _n.delete_int64_array,
                    _n.dnnl_graph_op_set_attr_s64, "dnnl_graph_op_set_attr_s64")
            arr = new(max(1, len(values)))
            try:
                for i, v in enumerate(values):
                    setitem(arr, i, v)
                # An empty list passes no array: a scalar attribute then
                # fails (the C setters read one value whatever the count).
                _check(call(self._h, name, arr if values else None, len(values)), fn)
            finally:
                delete(arr)
        return self

    @property
    def id(self):
        self._ensure_open()
        return _out(_n.new_size_t_p, _n.size_t_p_value, _n.delete_size_t_p,
                    lambda p: _n.dnnl_graph_op_get_id(self._h, p), "dnnl_graph_op_get_id")

    @property
    def kind(self):
        self._ensure_open()
        return OpKind(_out(_n.new_op_kind_p, _n.op_kind_p_value, _n.delete_op_kind_p,
                           lambda p: _n.dnnl_graph_op_get_kind(self._h, p),
                           "dnnl_graph_op_get_kind"))

    def _release(self, h):
        _n.dnnl_graph_op_destroy(h)


class Graph(Handle):
    """A set of connected ops, split into partitions once finalized."""

    def __init__(self, kind=EngineKind.CPU):
        super().__init__()
        try:
            self._h = _out(_n.new_graph_p, _n.graph_p_value, _n.delete_graph_p,
                           lambda p: _n.dnnl_graph_graph_create(p, int(kind)),
                           "dnnl_graph_graph_create")
        except BaseException:
            self.close()
            raise

    def add_op(self, op):
        """Adds a copy of op after checking it against its schema."""
        self._ensure_open()
        op._ensure_open()
        _check(_n.dnnl_graph_add_op(self._h, op._h), "dnnl_graph_add_op")
        return self

    def finalize(self):
        self._ensure_open()
        _check(_n.dnnl_graph_graph_finalize(self._h), "dnnl_graph_graph_finalize")

    def is_finalized(self):
        self._ensure_open()
        return bool(_out(_n.new_uint8_p, _n.uint8_p_value, _n.delete_uint8_p,
                         lambda p: _n.dnnl_graph_graph_is_finalized(self._h, p),
                         "dnnl_graph_graph_is_finalized"))

    def get_partitions(self, policy=PartitionPolicy.FUSION):
        """Finalizes the graph if needed and returns its partitions (each a
        handle the caller closes)."""
        if not self.is_finalized():
            self.finalize()
        _check(_n.dnnl_graph_graph_filter(self._h, int(policy)), "dnnl_graph_graph_filter")
        num = _out(_n.new_size_t_p, _n.size_t_p_value, _n.delete_size_t_p,
                   lambda p: _n.dnnl_graph_graph_get_partition_num(self._h, p),
                   "dnnl_graph_graph_get_partition_num")
        arr = _n.new_partition_array(max(1, num))
        try:
            _check(_n.dnnl_graph_graph_get_partitions(self._h, num, arr),
                   "dnnl_graph_graph_get_partitions")
            return [Partition(_n.partition_array_getitem(arr, i)) for i in range(num)]
        finally:
            _n.delete_partition_array(arr)

    def _release(self, h):
        _n.dnnl_graph_graph_destroy(h)


class Partition(Handle):
    """A group of ops compiled and executed as one unit."""

    def __init__(self, h):
        super().__init__()
        self._h = h

    def _size(self, fn, name):
        self._ensure_open()
        return _out(_n.new_size_t_p, _n.size_t_p_value, _n.delete_size_t_p,
                    lambda p: fn(self._h, p), name)

    @property
    def id(self):
        return self._size(_n.dnnl_graph_partition_get_id, "dnnl_graph_partition_get_id")

    def is_supported(self):
        self._ensure_open()
        return bool(_out(_n.new_uint8_p, _n.uint8_p_value, _n.delete_uint8_p,
                         lambda p: _n.dnnl_graph_partition_is_supported(self._h, p),
                         "dnnl_graph_partition_is_supported"))

    def op_ids(self):
        num = self._size(_n.dnnl_graph_partition_get_op_num, "dnnl_graph_partition_get_op_num")
        arr = _n.new_size_t_array(max(1, num))
        try:
            _check(_n.dnnl_graph_partition_get_ops(self._h, num, arr),
                   "dnnl_graph_partition_get_ops")
            return [_n.size_t_array_getitem(arr, i) for i in range(num)]
        finally:
            _n.delete_size_t_array(arr)

    def _ports(self, count_fn, get_fn, name):
        num = self._size(count_fn, name + "_num")
        arr = _n.new_lt_array(max(1, num))
        try:
            _check(get_fn(self._h, num, arr), name)
            return [LogicalTensor._from_native(_n.lt_array_getitem(arr, i)) for i in range(num)]
        finally:
            _n.delete_lt_array(arr)

    def input_ports(self):
        return self._ports(_n.dnnl_graph_partition_get_input_ports_num,
                           _n.dnnl_graph_partition_get_input_ports,
                           "dnnl_graph_partition_get_input_ports")

    def output_ports(self):
        return self._ports(_n.dnnl_graph_partition_get_output_ports_num,
                           _n.dnnl_graph_partition_get_output_ports,
                           "dnnl_graph_partition_get_output_ports")

    def compile(self, inputs, outputs, engine):
        """Compiles for engine with concrete input (and possibly incomplete
        output) descriptions."""
        self._ensure_open()
        engine._ensure_open()
        inputs, outputs = list(inputs), list(outputs)
        cp = CompiledPartition(self, engine)
        natives = [t._to_native() for t in inputs + outputs]
        ins = _n.new_lt_ptr_array(max(1, len(inputs)))
        outs = _n.new_lt_ptr_array(max(1, len(outputs)))
        try:
            for i, n in enumerate(natives[:len(inputs)]):
                _n.lt_ptr_array_setitem(ins, i, n)
            for i, n in enumerate(natives[len(inputs):]):
                _n.lt_ptr_array_setitem(outs, i, n)
            _check(_n.dnnl_graph_partition_compile(
                self._h, cp._h, len(inputs), ins, len(outputs), outs, engine._h),
                "dnnl_graph_partition_compile")
            return cp
        except BaseException:
            cp.close()
            raise
        finally:
            _n.delete_lt_ptr_array(ins)
            _n.delete_lt_ptr_array(outs)

    def _release(self, h):
        _n.dnnl_graph_partition_destroy(h)


class CompiledPartition(Handle):
    """A partition compiled for concrete shapes."""

    def __init__(self, partition, engine):
        super().__init__()
        try:
            self.engine = engine  # keeps the engine alive
            self._h = _out(_n.new_compiled_partition_p, _n.compiled_partition_p_value,
                           _n.delete_compiled_partition_p,
                           lambda p: _n.dnnl_graph_compiled_partition_create(p, partition._h),
                           "dnnl_graph_compiled_partition_create")
        except BaseException:
            self.close()
            raise

    def query_logical_tensor(self, tid):
        """The final description of the input or output with id tid."""
        self._ensure_open()
        n = _n.dnnl_graph_logical_tensor_t()
        _check(_n.dnnl_graph_compiled_partition_query_logical_tensor(self._h, tid, n),
               "dnnl_graph_compiled_partition_query_logical_tensor")
        return LogicalTensor._from_native(n)

    def execute(self, stream, inputs, outputs):
        """Submits to stream (then call stream.wait()); tensors are in the
        order of the logical tensors given at compilation."""
        self._ensure_open()
        stream._ensure_open()
        inputs, outputs = list(inputs), list(outputs)
        for t in outputs:
            if t.readonly:
                raise ValueError("output tensor %d wraps a read-only buffer" % t.logical_tensor.id)
        ins = _n.new_tensor_array(max(1, len(inputs)))
        outs = _n.new_tensor_array(max(1, len(outputs)))
        try:
            for i, t in enumerate(inputs):
                t._ensure_open()
                _n.tensor_array_setitem(ins, i, t._h)
            for i, t in enumerate(outputs):
                t._ensure_open()
                _n.tensor_array_setitem(outs, i, t._h)
            _check(_n.dnnl_graph_compiled_partition_execute(
                self._h, stream._h, len(inputs), ins, len(outputs), outs),
                "dnnl_graph_compiled_partition_execute")
        finally:
            _n.delete_tensor_array(ins)
            _n.delete_tensor_array(outs)

    def _release(self, h):
        _n.dnnl_graph_compiled_partition_destroy(h)


class Tensor(Handle):
    """Data for one input or output of a compiled partition.

    ``Tensor(lt, engine, data)`` uses the memory of ``data`` without copying.
    ``data`` is a numpy array or any other object exporting a buffer
    (array.array, memoryview, bytes, bytearray). It must match ``lt``:

    - element type: ``float32`` for f32, ``float16`` for f16, ``int32`` for
      s32, ``int8``/``uint8``/``bool``, ``float64``; bf16 as ``uint16`` bits
      and the 8-bit float types as ``uint8`` bits. Untyped 1-D byte buffers
      (bytes, bytearray, uint8) are taken as raw memory of exactly
      ``lt.mem_size()`` bytes for any type;
    - element count: exactly the product of ``lt.dims``;
    - shape: a multi-dimensional array must have exactly ``lt.dims``, and its
      strides must be ``lt.strides`` (a C-contiguous array matches a dense
      row-major logical tensor); a 1-D buffer is taken as the flat contents.

    A mismatch raises TypeError (element type) or ValueError (count, shape,
    layout) naming the tensor id. :meth:`from_numpy` copies when the strides
    differ. The tensor keeps the object alive (a bytearray cannot be resized
    meanwhile). ``Tensor(lt, engine)`` lets the library allocate the buffer
    through the engine's allocator.
    """

    def __init__(self, lt, engine, data=None):
        super().__init__()
        try:
            engine._ensure_open()
            self.logical_tensor = lt
            self.engine = engine  # keeps the engine alive
            self._view = None
            self._owner = None
            n = lt._to_native()
            if data is None:
                def call(p):
                    return _n.llga_bind_tensor_create_allocated(p, n, engine._h)
            else:
                view = memoryview(data)
                if not _check_data(lt, view, "the buffer"):
                    raise ValueError(
                        "tensor %d: the array's strides %s (bytes) are not the logical "
                        "tensor's %s; use Tensor.from_numpy() (copies) or a C-contiguous array"
                        % (lt.id, list(view.strides),
                           [s * view.itemsize for s in lt.strides]))
                self._view = view
                self._owner = data
                if view.c_contiguous:
                    handle = view
                else:
                    # Strided like lt but not C-contiguous (a transposed
                    # numpy view): pass the address of element [0, ...].
                    handle = data.__array_interface__["data"][0]

                def call(p):
                    return _n.dnnl_graph_tensor_create(p, n, engine._h, handle)
            self._h = _out(_n.new_tensor_p, _n.tensor_p_value, _n.delete_tensor_p,
                           call, "dnnl_graph_tensor_create")
        except BaseException:
            self.close()
            raise

    @classmethod
    def from_floats(cls, lt, engine, values):
        """An f32 tensor over a new array('f') holding values."""
        return cls(lt, engine, _array.array("f", values))

    @classmethod
    def from_numpy(cls, lt, engine, array):
        """A tensor over ``array`` (numpy), without copying when its strides
        are the logical tensor's, else over a copy laid out as ``lt`` says
        (use the copy only as an input). Element type and shape are checked
        as for the constructor."""
        np = _numpy()
        view = memoryview(array)
        if _check_data(lt, view, "the array"):
            return cls(lt, engine, array)
        itemsize = view.itemsize
        raw = np.zeros(lt.mem_size(), dtype=np.uint8)
        dst = np.lib.stride_tricks.as_strided(
            raw.view(array.dtype), shape=tuple(lt.dims),
            strides=tuple(s * itemsize for s in lt.strides))
        dst[...] = array
        return cls(lt, engine, dst)

    @property
    def readonly(self):
        return self._view is not None and self._view.readonly

    @property
    def data(self):
        """The memoryview of the caller's buffer (None if library-owned)."""
        return self._view

    @property
    def shape(self):
        """The logical tensor's dims, as a tuple."""
        return tuple(self.logical_tensor.dims)

    @property
    def dtype(self):
        """The numpy dtype of the elements (see the class notes for bf16 and
        the 8-bit float types); None for the packed 4-bit types."""
        np = _numpy()
        name = _elem_dtype(self.logical_tensor.data_type.name)
        if name is None:
            return None
        return np.dtype(name) if np is not None else name

    def numpy(self):
        """A numpy array viewing the tensor's memory (no copy), with the
        logical tensor's shape and strides. Valid until the tensor is
        closed."""
        self._ensure_open()
        np = _numpy()
        if np is None:
            raise ImportError("numpy is not installed")
        lt = self.logical_tensor
        dt = self.dtype
        if dt is None:
            raise TypeError("tensor %d: %s has no numpy element type"
                            % (lt.id, lt.data_type.name.lower()))
        if lt.layout_type != LayoutType.STRIDED:
            raise ValueError("tensor %d: only strided tensors can be viewed as arrays" % lt.id)
        addr = _n.llga_bind_tensor_address(self._h)
        if not addr:
            raise ValueError("tensor %d has no buffer" % lt.id)
        import ctypes
        size = lt.mem_size()
        raw = np.frombuffer((ctypes.c_char * max(1, size)).from_address(addr), dtype=np.uint8)
        return np.lib.stride_tricks.as_strided(
            raw[:size].view(dt), shape=tuple(lt.dims),
            strides=tuple(s * dt.itemsize for s in lt.strides))

    def read_into(self, buf):
        """Copies the tensor's contents into the writable buffer buf (checked
        like the constructor's data; it must be C-contiguous)."""
        self._ensure_open()
        view = memoryview(buf)
        if view.readonly:
            raise ValueError("destination is read-only")
        _check_data(self.logical_tensor, view, "the destination")
        if not view.c_contiguous:
            raise ValueError("tensor %d: the destination must be C-contiguous"
                             % self.logical_tensor.id)
        _check(_n.llga_bind_tensor_read(self._h, view, view.nbytes), "llga_bind_tensor_read")

    def write(self, buf):
        """Copies the contents of buf into the tensor's buffer (checked like
        the constructor's data; it must be C-contiguous)."""
        self._ensure_open()
        view = memoryview(buf)
        _check_data(self.logical_tensor, view, "the source")
        if not view.c_contiguous:
            raise ValueError("tensor %d: the source must be C-contiguous"
                             % self.logical_tensor.id)
        _check(_n.llga_bind_tensor_write(self._h, view, view.nbytes), "llga_bind_tensor_write")

    def tobytes(self):
        self._ensure_open()
        out = bytearray(self.logical_tensor.mem_size())
        self.read_into(out)
        return bytes(out)

    def to_list(self):
        """The contents as a flat list of Python numbers (f32, f64, s32, s8,
        u8 and boolean tensors)."""
        self._ensure_open()
        dt = self.logical_tensor.data_type
        code = {"F32": "f", "F64": "d", "S32": "i", "S8": "b", "U8": "B"}.get(dt.name)
        raw = self.tobytes()
        if dt.name == "BOOLEAN":
            return [b != 0 for b in raw]
        if code is None:
            raise TypeError("tensor %d: to_list() does not support %s"
                            % (self.logical_tensor.id, dt.name.lower()))
        out = _array.array(code)
        out.frombytes(raw)
        return out.tolist()

    def _release(self, h):
        _n.dnnl_graph_tensor_destroy(h)
        self._view = None
        self._owner = None
