/* SPDX-License-Identifier: Apache-2.0 */
/* bindings/swig/llga.i -- the one SWIG interface shared by the Java, C# and
 * Python bindings of llga.
 *
 * Owns: the module name, the wrapping of the public C headers
 * (dnnl_common_types.h, dnnl_common.h, dnnl_graph_types.h, dnnl_graph.h,
 * llga.h) as plain functions returning the raw status, the enum naming used
 * by Java and C#, the pointer/array helpers that stand in for C out
 * parameters and arrays, and the small C glue (a counting allocator and
 * copies to and from library-owned tensors) the bindings and their tests use.
 * Everything language-specific (buffers, library loading, class modifiers)
 * lives in bindings/<language>/llga_<language>.i, included from here.
 *
 * Statuses are returned as-is: the thin hand-written layer in each language
 * turns a non-success status into its DnnlException, adding
 * llga_last_error_message().
 */

#if defined(SWIGPYTHON)
%module(package="llga") native
#else
%module Native
#endif

%{
#include <stdlib.h>
#include <string.h>
#include "oneapi/dnnl/dnnl_graph.h"
#include "oneapi/dnnl/llga.h"
%}

/* The public headers are read one by one (no -includeall); their macros that
 * only matter to C compilers are blanked here. */
#define DNNL_API
#define DNNL_DEPRECATED

%include <stdint.i>
%include <cpointer.i>
%include <carrays.i>

/* ---- language sections (typemaps must precede the headers) ------------- */
#if defined(SWIGJAVA)
%include "llga_java.i"
#elif defined(SWIGCSHARP)
%include "llga_csharp.i"
#elif defined(SWIGPYTHON)
%include "llga_python.i"
#endif

/* ---- naming --------------------------------------------------------------
 * Java and C# get real enum types with short upper-case members
 * (DataType.F32, OpKind.CONVOLUTION, OpAttr.STRIDES, LayoutType.STRIDED,
 * Status.INVALID_GRAPH_OP). SWIG keeps enum members of C enums in one global
 * scope, so members that would clash keep a distinguishing prefix
 * (DataType.DATA_TYPE_UNDEF, LayoutType.LAYOUT_UNDEF, OpAttr.ATTR_END, and
 * the FPMATH_MODE_ / ACCUMULATION_MODE_ members). Python keeps the C names
 * as module constants; its layer builds IntEnums from them. */
#if defined(SWIGJAVA) || defined(SWIGCSHARP)
%rename(Status) dnnl_status_t;
%rename(DataType) dnnl_data_type_t;
%rename(FpMathMode) dnnl_fpmath_mode_t;
%rename(AccumulationMode) dnnl_accumulation_mode_t;
%rename(EngineKind) dnnl_engine_kind_t;
%rename(LayoutType) dnnl_graph_layout_type_t;
%rename(TensorProperty) dnnl_graph_tensor_property_t;
%rename(PartitionPolicy) dnnl_graph_partition_policy_t;
%rename(OpKind) dnnl_graph_op_kind_t;
%rename(OpAttr) dnnl_graph_op_attr_t;
/* (SWIG 4.1 silently mangles longer regex renames, hence the compact form.) */
%rename("%(regex:/^dnnl_(graph_)?(op_attr_|op_|[a-z]+_type_|[a-z]+_(property|policy)_)?(.*)$/\\U\\4/)s", %$isenumitem) "";
%rename(DATA_TYPE_UNDEF) dnnl_data_type_undef;
%rename(DATA_TYPE_MAX) dnnl_data_type_max;
%rename(LAYOUT_UNDEF) dnnl_graph_layout_type_undef;
%rename(PROPERTY_UNDEF) dnnl_graph_tensor_property_undef;
%rename(ATTR_UNDEF) dnnl_graph_op_attr_undef;
%rename(ATTR_END) dnnl_graph_op_attr_end;
#endif

/* Version structs are read-only (their strings belong to the library). */
%immutable dnnl_version_t::hash;
%immutable llga_version_t::hash;

/* Stream flags are plain `unsigned` in the API; the enum adds nothing. */
%ignore dnnl_stream_flags_t;
%ignore dnnl_stream_in_order;
%ignore dnnl_stream_out_of_order;
%ignore dnnl_stream_default_flags;
%ignore dnnl_stream_flags_max;
/* Macros whose values SWIG cannot express; each layer defines its own. */
%ignore DNNL_GRAPH_UNKNOWN_DIM;
%ignore DNNL_MEMORY_NONE;
%ignore DNNL_MEMORY_ALLOCATE;

/* ---- the public C API ---------------------------------------------------- */
%include "oneapi/dnnl/dnnl_common_types.h"
%include "oneapi/dnnl/dnnl_common.h"
%include "oneapi/dnnl/dnnl_graph_types.h"
%include "oneapi/dnnl/dnnl_graph.h"
%include "oneapi/dnnl/llga.h"

/* ---- out parameters and arrays ------------------------------------------
 * new_X_p() / X_p_value(p) / delete_X_p(p) stand in for `T *out`;
 * new_X_array(n) / X_array_getitem / X_array_setitem / delete_X_array for
 * C arrays. They are the same in every language, so each layer uses them
 * the same way. */
%pointer_functions(size_t, size_t_p);
%pointer_functions(uint8_t, uint8_p);
%pointer_functions(int, int_p);
%pointer_functions(dnnl_engine_kind_t, engine_kind_p);
%pointer_functions(dnnl_graph_op_kind_t, op_kind_p);
%pointer_functions(dnnl_engine_t, engine_p);
%pointer_functions(dnnl_stream_t, stream_p);
%pointer_functions(dnnl_graph_allocator_t, allocator_p);
%pointer_functions(dnnl_graph_op_t, op_p);
%pointer_functions(dnnl_graph_graph_t, graph_p);
%pointer_functions(dnnl_graph_partition_t, partition_p);
%pointer_functions(dnnl_graph_compiled_partition_t, compiled_partition_p);
%pointer_functions(dnnl_graph_tensor_t, tensor_p);

%array_functions(int64_t, int64_array);
%array_functions(float, float_array);
%array_functions(uint8_t, uint8_array);
%array_functions(size_t, size_t_array);
%array_functions(dnnl_graph_logical_tensor_t, lt_array);
%array_functions(const dnnl_graph_logical_tensor_t *, lt_ptr_array);
%array_functions(const_dnnl_graph_tensor_t, tensor_array);
%array_functions(dnnl_graph_partition_t, partition_array);

/* ---- C glue used by the bindings ---------------------------------------- */
%{
/* Live and total block counts of the counting allocator (all threads). */
static long long llga_bind_live = 0;
static long long llga_bind_total = 0;

static void *llga_bind_count_malloc(size_t size, size_t alignment) {
    void *p = NULL;
    size_t a = alignment < sizeof(void *) ? sizeof(void *) : alignment;
    if ((a & (a - 1)) != 0) a = 64;
    if (posix_memalign(&p, a, size ? size : 1) != 0) return NULL;
    __atomic_add_fetch(&llga_bind_live, 1, __ATOMIC_SEQ_CST);
    __atomic_add_fetch(&llga_bind_total, 1, __ATOMIC_SEQ_CST);
    return p;
}

/* dnnl_invalid_arguments unless `bytes` fits in the tensor's buffer. */
static dnnl_status_t llga_bind_check_size(
        const_dnnl_graph_tensor_t tensor, size_t bytes) {
    dnnl_graph_logical_tensor_t lt;
    size_t size = 0;
    dnnl_status_t st = dnnl_graph_tensor_get_logical_tensor(tensor, &lt);
    if (st == dnnl_success) st = dnnl_graph_logical_tensor_get_mem_size(&lt, &size);
    if (st == dnnl_success && bytes > size) st = dnnl_invalid_arguments;
    return st;
}

static void llga_bind_count_free(void *p) {
    if (!p) return;
    __atomic_sub_fetch(&llga_bind_live, 1, __ATOMIC_SEQ_CST);
    free(p);
}
%}

%inline %{
/* Creates an allocator whose callbacks are implemented here in C and count
 * the blocks they hand out (see llga_bind_live_blocks). Host callbacks
 * written in Java, C# or Python are not supported. */
dnnl_status_t llga_bind_counting_allocator_create(
        dnnl_graph_allocator_t *allocator) {
    return dnnl_graph_allocator_create(
            allocator, llga_bind_count_malloc, llga_bind_count_free);
}

/* Blocks obtained from counting allocators and not yet released. */
long long llga_bind_live_blocks(void) {
    return __atomic_load_n(&llga_bind_live, __ATOMIC_SEQ_CST);
}

/* Blocks ever obtained from counting allocators. */
long long llga_bind_total_blocks(void) {
    return __atomic_load_n(&llga_bind_total, __ATOMIC_SEQ_CST);
}

/* dnnl_graph_tensor_create with DNNL_MEMORY_ALLOCATE: the library allocates
 * (through the engine's allocator) and owns the buffer. */
dnnl_status_t llga_bind_tensor_create_allocated(dnnl_graph_tensor_t *tensor,
        const dnnl_graph_logical_tensor_t *logical_tensor,
        dnnl_engine_t engine) {
    return dnnl_graph_tensor_create(
            tensor, logical_tensor, engine, DNNL_MEMORY_ALLOCATE);
}

/* The address of the tensor's buffer as an integer (0 on failure or when it
 * has none), for views of library-owned memory (Python's Tensor.numpy()). */
unsigned long long llga_bind_tensor_address(const_dnnl_graph_tensor_t tensor) {
    void *p = NULL;
    if (dnnl_graph_tensor_get_data_handle(tensor, &p) != dnnl_success) return 0;
    return (unsigned long long)(uintptr_t)p;
}

/* Copies `bytes` bytes from the tensor's buffer into `handle`. */
dnnl_status_t llga_bind_tensor_read(
        const_dnnl_graph_tensor_t tensor, void *handle, size_t bytes) {
    void *src = NULL;
    dnnl_status_t st = llga_bind_check_size(tensor, bytes);
    if (st == dnnl_success) st = dnnl_graph_tensor_get_data_handle(tensor, &src);
    if (st != dnnl_success) return st;
    if (!src || !handle) return dnnl_invalid_arguments;
    memcpy(handle, src, bytes);
    return dnnl_success;
}

/* Copies `bytes` bytes from `handle` into the tensor's buffer. */
dnnl_status_t llga_bind_tensor_write(
        dnnl_graph_tensor_t tensor, void *handle, size_t bytes) {
    void *dst = NULL;
    dnnl_status_t st = llga_bind_check_size(tensor, bytes);
    if (st == dnnl_success)
        st = dnnl_graph_tensor_get_data_handle(tensor, &dst);
    if (st != dnnl_success) return st;
    if (!dst || !handle) return dnnl_invalid_arguments;
    memcpy(dst, handle, bytes);
    return dnnl_success;
}
%}
