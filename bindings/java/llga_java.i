/* SPDX-License-Identifier: Apache-2.0 */
/* bindings/java/llga_java.i -- Java-only part of the llga SWIG interface
 * (included by bindings/swig/llga.i before the public headers).
 *
 * Owns: proper Java enums, no finalizers, the hook that loads the JNI
 * library (NativeLoader.java), and
 * the mapping of the C `void *handle` data parameters to direct NIO buffers
 * (zero copy: the C side sees the buffer's own memory).
 */

%include <enums.swg>
%javaconst(1);

/* Native memory is released only by close()/delete(), never by the GC. */
%typemap(javafinalize) SWIGTYPE ""

/* The JNI library comes from the jar itself (NativeLoader: extracted to a
 * temporary folder with the libllga it links), from the file named by the
 * system property llga.jni.library, or from java.library.path. */
%pragma(java) jniclasscode=%{
  static {
    NativeLoader.load();
  }
%}

/* void *handle  <->  java.nio.Buffer (direct, or null for "no buffer"). The
 * buffer's base address is used; position and limit are ignored. */
%typemap(jni) void *handle "jobject"
%typemap(jtype) void *handle "java.nio.Buffer"
%typemap(jstype) void *handle "java.nio.Buffer"
%typemap(javain) void *handle "$javainput"
%typemap(in) void *handle {
  $1 = NULL;
  if ($input) {
    $1 = (*jenv)->GetDirectBufferAddress(jenv, $input);
    if (!$1) {
      SWIG_JavaThrowException(jenv, SWIG_JavaIllegalArgumentException,
          "llga: tensor data must be a direct NIO buffer");
      return $null;
    }
  }
}
