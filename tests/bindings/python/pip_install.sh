#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# tests/bindings/python/pip_install.sh — the Python package as users get it:
# `pip install .` (offline, no build isolation) into a fresh virtual
# environment that sees Debian's numpy, then the getting-started example and
# a numpy check run from outside the source tree with no PYTHONPATH; and
# `python3 -m build --wheel` makes a wheel that carries libllga.so.N.
# Usage: pip_install.sh <python3> <source dir> <llga build dir> <scratch dir>
set -euo pipefail
py=$1 src=$2 build=$3 work=$4
rm -rf "$work"
mkdir -p "$work"
unset PYTHONPATH
export PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONDONTWRITEBYTECODE=1
export LLGA_BUILD_DIR=$build

# The venv gets no pip of its own (ensurepip takes ~15 s); the system pip
# installs into it (pip >= 22.3: --python).
"$py" -m venv --system-site-packages --without-pip "$work/venv"
"$py" -m pip --python "$work/venv/bin/python" install -q --no-build-isolation \
  --no-deps "$src"

cd "$work"
"$work/venv/bin/python" "$src/bindings/python/examples/getting_started.py"
"$work/venv/bin/python" - <<'PY'
import os, llga, numpy
pkg = os.path.dirname(llga.__file__)
assert "venv" in pkg, pkg
libs = [f for f in os.listdir(pkg) if f.startswith("libllga.so.")]
assert libs, os.listdir(pkg)
assert llga.__version__ == "%d.%d.%d" % llga.version()[:3], llga.__version__
lt = llga.LogicalTensor(1, llga.DataType.F32, [2, 2], llga.LayoutType.STRIDED)
with llga.Engine() as eng, llga.Tensor(lt, eng, numpy.eye(2, dtype=numpy.float32)) as t:
    assert t.shape == (2, 2) and t.dtype == numpy.float32
print("installed llga", llga.__version__, "from", pkg, "with", libs[0])
PY

"$py" -m build --no-isolation --wheel --outdir "$work/dist" "$src" > "$work/build.log" 2>&1 \
  || { cat "$work/build.log"; exit 1; }
"$py" - "$work"/dist/*.whl <<'PY'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
need = ["llga/__init__.py", "llga/_native.so", "llga/native.py", "llga/_version.py"]
missing = [n for n in need if n not in names]
assert not missing, missing
assert any(n.startswith("llga/libllga.so.") for n in names), names
assert "linux" in sys.argv[1], sys.argv[1]
print("wheel", sys.argv[1].rsplit("/", 1)[-1], "carries", len(names), "files incl. libllga")
PY
echo "pip install: OK"
