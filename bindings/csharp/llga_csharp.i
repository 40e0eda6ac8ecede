/* SPDX-License-Identifier: Apache-2.0 */
/* bindings/csharp/llga_csharp.i -- C#-only part of the llga SWIG interface
 * (included by bindings/swig/llga.i before the public headers).
 *
 * Owns: the C# mapping of data pointers (`void *` <-> System.IntPtr, so
 * callers pass pinned arrays or unmanaged memory) and of size_t (ulong
 * instead of SWIG's default uint, which would truncate on 64-bit).
 */

%apply void *VOID_INT_PTR { void * }
%apply unsigned long long { size_t }
%apply unsigned long long { const size_t }
