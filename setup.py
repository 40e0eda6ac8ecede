# SPDX-License-Identifier: Apache-2.0
# setup.py — builds the llga Python package for pyproject.toml: takes the
# package CMake builds (bindings/python: __init__.py, _core.py, _data.py,
# the generated native.py and _version.py, the _native extension and a copy
# of libllga.so.N next to it, found through RPATH $ORIGIN) from an llga build
# tree and puts it into the wheel, which is therefore platform-specific.
#
# LLGA_BUILD_DIR=<dir>  use that configured and built llga tree (ctest does);
#                       otherwise CMake configures and builds the library and
#                       the Python binding only, in build-python/ (or
#                       $LLGA_PY_BUILD_DIR), for the running interpreter.
import os
import re
import shutil
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

ROOT = os.path.dirname(os.path.abspath(__file__))


def _version():
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        m = re.search(r"project\(llga VERSION ([0-9.]+)", f.read())
    return m.group(1)


def _build_tree():
    given = os.environ.get("LLGA_BUILD_DIR")
    if given:
        return os.path.abspath(given)
    build = os.path.abspath(os.environ.get("LLGA_PY_BUILD_DIR",
                                           os.path.join(ROOT, "build-python")))
    gen = ["-G", "Ninja"] if shutil.which("ninja") else []
    subprocess.check_call(
        ["cmake", "-S", ROOT, "-B", build] + gen + [
            "-DCMAKE_BUILD_TYPE=Release", "-DLLGA_BUILD_TESTS=OFF",
            "-DLLGA_BUILD_TOOLS=OFF", "-DLLGA_BINDINGS_JAVA=OFF",
            "-DLLGA_BINDINGS_CSHARP=OFF", "-DPython3_EXECUTABLE=" + sys.executable])
    jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 2))
    subprocess.check_call(["cmake", "--build", build, "--target", "llga_python_pkg",
                           "-j", jobs])
    return build


class BuildPyFromCMake(build_py):
    """Copies the CMake-built package (with its native libraries)."""

    def run(self):
        src = os.path.join(_build_tree(), "bindings", "python", "llga")
        if not os.path.isfile(os.path.join(src, "_native.so")):
            raise SystemExit("llga: %s holds no built Python package (build the "
                             "llga_python_pkg target first)" % src)
        dst = os.path.join(self.build_lib, "llga")
        os.makedirs(dst, exist_ok=True)
        for name in sorted(os.listdir(src)):
            if name.endswith(".py") or name == "_native.so" or name.startswith("libllga.so."):
                self.copy_file(os.path.join(src, name), os.path.join(dst, name))


class BinaryDistribution(Distribution):
    def has_ext_modules(self):
        return True


setup(version=_version(), cmdclass={"build_py": BuildPyFromCMake},
      distclass=BinaryDistribution,
      # setuptools' own scratch files stay out of a CMake build/ folder.
      options={"build": {"build_base": os.path.join("build-python", "setuptools")}})
