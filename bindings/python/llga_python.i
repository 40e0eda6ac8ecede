/* SPDX-License-Identifier: Apache-2.0 */
/* bindings/python/llga_python.i -- Python-only part of the llga SWIG
 * interface (included by bindings/swig/llga.i before the public headers).
 *
 * Owns: the mapping of the C `void *handle` data parameters to Python
 * objects: None (no buffer), an int (a raw address) or any object exporting
 * a C-contiguous buffer (bytes, bytearray, array.array, memoryview, numpy
 * arrays). The address is used without copying; the caller (the llga
 * package) keeps the object alive and pinned for as long as the tensor uses
 * it.
 */

%typemap(in) void *handle {
  $1 = NULL;
  if ($input == Py_None) {
    $1 = NULL;
  } else if (PyLong_Check($input)) {
    $1 = PyLong_AsVoidPtr($input);
    if (PyErr_Occurred()) SWIG_fail;
  } else {
    Py_buffer view;
    if (PyObject_GetBuffer($input, &view, PyBUF_SIMPLE) != 0) SWIG_fail;
    $1 = view.buf;
    PyBuffer_Release(&view);
  }
}
%typemap(typecheck, precedence=SWIG_TYPECHECK_POINTER) void *handle {
  $1 = ($input == Py_None || PyLong_Check($input)
        || PyObject_CheckBuffer($input)) ? 1 : 0;
}

/* The logical tensor's `property` member would shadow Python's builtin
 * property() inside the generated class. */
%rename(property_type) property;
