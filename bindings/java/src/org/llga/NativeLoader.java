// SPDX-License-Identifier: Apache-2.0
// bindings/java/src/org/llga/NativeLoader.java — loads the JNI library of the
// Java binding: from the jar itself (org/llga/native/<os>-<arch>/, extracted
// to a private temporary folder), from the file named by -Dllga.jni.library,
// or from java.library.path, in that order of preference.
package org.llga;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Loads libllga_java.so (and the libllga it links) once per class loader. */
final class NativeLoader {
    private static boolean loaded;

    private NativeLoader() {}

    /** The resource folder for this platform, e.g. "linux-x86_64". */
    static String platform() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        if (os.startsWith("linux")) os = "linux";
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (arch.equals("amd64") || arch.equals("x64")) arch = "x86_64";
        return os + "-" + arch;
    }

    static synchronized void load() {
        if (loaded) return;
        String path = System.getProperty("llga.jni.library");
        if (path != null && !path.isEmpty()) {
            System.load(path);
        } else if (!loadFromJar()) {
            System.loadLibrary("llga_java");
        }
        loaded = true;
    }

    /** Extracts the libraries listed in the jar's "libraries" file for this
     *  platform (in load order) and loads them; false when the jar carries
     *  none for this platform. */
    private static boolean loadFromJar() {
        String dir = "/org/llga/native/" + platform() + "/";
        List<String> names = new ArrayList<>();
        try (InputStream list = NativeLoader.class.getResourceAsStream(dir + "libraries")) {
            if (list == null) return false;
            BufferedReader r = new BufferedReader(new InputStreamReader(list, StandardCharsets.UTF_8));
            for (String line; (line = r.readLine()) != null; ) {
                line = line.trim();
                if (!line.isEmpty()) names.add(line);
            }
        } catch (IOException e) {
            throw new UnsatisfiedLinkError("llga: cannot read " + dir + "libraries: " + e);
        }
        try {
            Path tmp = Files.createTempDirectory("llga-jni");
            tmp.toFile().deleteOnExit();
            List<Path> files = new ArrayList<>();
            for (String name : names) {
                Path f = tmp.resolve(name);
                try (InputStream in = NativeLoader.class.getResourceAsStream(dir + name)) {
                    if (in == null)
                        throw new UnsatisfiedLinkError("llga: " + dir + name + " missing from the jar");
                    Files.copy(in, f, StandardCopyOption.REPLACE_EXISTING);
                }
                f.toFile().deleteOnExit();
                files.add(f);
            }
            // libllga first: the JNI library's dependency is then already
            // loaded (matched by its soname) whatever the system paths hold.
            for (Path f : files) System.load(f.toAbsolutePath().toString());
            return true;
        } catch (IOException e) {
            throw new UnsatisfiedLinkError("llga: cannot extract the native libraries: " + e);
        }
    }
}
