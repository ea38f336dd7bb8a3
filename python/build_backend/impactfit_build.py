# SPDX-License-Identifier: GPL-3.0-or-later
"""The build backend of the Python package (PEP 517, named in pyproject.toml with backend-path): it
builds the extension impactfit._impactfit with the project's own CMake build (python/CMakeLists.txt,
a static libimpactfit) and writes the wheel itself, so `pip install .` needs nothing but pip, cmake, a
C compiler and the -dev packages: no setuptools, no wheel, nothing from the network. That is why it
is written here instead of using setuptools: a Python from pyenv, conda or a source build has pip but
often no `wheel` package, and offline (or with Debian's pip refusing the system) setuptools' backend
then fails with "invalid command 'bdist_wheel'". The version is the one in CMakeLists.txt's project().

Environment: IMPACTFIT_CMAKE_ARGS (extra cmake arguments), CMAKE_BUILD_PARALLEL_LEVEL (jobs). The
CMake build goes to build-pip/ in the source tree (one at a time: a lock file), and is reused by the
next install from the same tree, also for another Python (only the extension is rebuilt)."""
import base64
import fcntl
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

TOP = Path(__file__).resolve().parents[2]
NAME = "impactfit"
SUMMARY = "Exact damping constants of continuous contact-force models from a coefficient of restitution"
PY_FILES = ("__init__.py", "_impactfit.pyi", "py.typed")


def _version():
    text = (TOP / "CMakeLists.txt").read_text(encoding="utf-8")
    m = re.search(r"project\(\s*impactfit\s+VERSION\s+([0-9][0-9.]*)", text)
    if not m:
        raise RuntimeError("impactfit build: no project(impactfit VERSION ...) in CMakeLists.txt")
    return m.group(1)


def _metadata():
    readme = (TOP / "python" / "README.md").read_text(encoding="utf-8")
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {NAME}",
        f"Version: {_version()}",
        f"Summary: {SUMMARY}",
        "Author: impactfit developers",
        "License: GPL-3.0-or-later",
        "Classifier: Programming Language :: C",
        "Classifier: Programming Language :: Python :: 3",
        "Classifier: License :: OSI Approved :: GNU General Public License v3 or later (GPLv3+)",
        "Classifier: Topic :: Scientific/Engineering :: Physics",
        "Requires-Python: >=3.9",
        "Provides-Extra: arrays",
        'Requires-Dist: numpy; extra == "arrays"',
        "Description-Content-Type: text/markdown",
    ]
    return "\n".join(lines) + "\n\n" + readme


def _tag():
    """The wheel's tag for this interpreter: cpXY-cpXY[d]-PLATFORM (the extension uses the full C API)."""
    impl = {"cpython": "cp", "pypy": "pp"}.get(sys.implementation.name, sys.implementation.name[:2])
    ver = f"{sys.version_info[0]}{sys.version_info[1]}"
    abi = impl + ver + ("d" if sysconfig.get_config_var("Py_DEBUG") else "")
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"{impl}{ver}-{abi}-{plat}"


def _dist_info():
    return f"{NAME}-{_version()}.dist-info"


def _write_dist_info(directory):
    d = Path(directory) / _dist_info()
    d.mkdir(parents=True, exist_ok=True)
    (d / "METADATA").write_text(_metadata(), encoding="utf-8")
    return d


def _build_extension():
    """Runs the CMake build of the extension; returns the path of the built _impactfit*.so."""
    if not shutil.which("cmake"):
        raise RuntimeError("impactfit: building needs cmake and a C compiler (Debian: bash scripts/deps.sh build "
                           "python)")
    build = TOP / "build-pip"
    build.mkdir(exist_ok=True)
    with open(build / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        # FindPython's cache of another interpreter (its headers, its suffix) goes: the library's objects
        # stay, and only the extension is built again for this one
        args = ["cmake", "-U", "Python3_*", "-U", "_Python3_*", "-S", str(TOP), "-B", str(build),
                "-DCMAKE_BUILD_TYPE=Release", "-DBUILD_SHARED_LIBS=OFF",
                "-DIMPACTFIT_BUILD_TESTS=OFF", "-DIMPACTFIT_PYTHON=ON", "-DIMPACTFIT_OCTAVE=OFF",
                "-DPython3_EXECUTABLE=" + sys.executable]
        args += shlex.split(os.environ.get("IMPACTFIT_CMAKE_ARGS", ""))
        subprocess.check_call(args, stdout=subprocess.DEVNULL)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        subprocess.check_call(["cmake", "--build", str(build), "--target", "impactfit_python", "-j", jobs],
                              stdout=subprocess.DEVNULL)
        suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
        built = build / "python" / "impactfit" / ("_impactfit" + suffix)
        if not built.exists():
            raise RuntimeError(f"impactfit: the CMake build made no {built.name} for {sys.executable}")
        return built


def _record_line(arcname, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{arcname},sha256={digest},{len(data)}"


# ---- PEP 517 hooks ----

def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    _write_dist_info(metadata_directory)
    return _dist_info()


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    ext = _build_extension()
    files = [(f"{NAME}/{f}", (TOP / "python" / NAME / f).read_bytes()) for f in PY_FILES]
    files.append((f"{NAME}/{ext.name}", ext.read_bytes()))
    di = _dist_info()
    tag = _tag()
    wheel_meta = f"Wheel-Version: 1.0\nGenerator: impactfit_build\nRoot-Is-Purelib: false\nTag: {tag}\n"
    files.append((f"{di}/METADATA", _metadata().encode("utf-8")))
    files.append((f"{di}/WHEEL", wheel_meta.encode("utf-8")))
    files.append((f"{di}/top_level.txt", f"{NAME}\n".encode("utf-8")))
    record = [_record_line(a, d) for a, d in files] + [f"{di}/RECORD,,"]
    files.append((f"{di}/RECORD", ("\n".join(record) + "\n").encode("utf-8")))
    name = f"{NAME}-{_version()}-{tag}.whl"
    Path(wheel_directory).mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(Path(wheel_directory) / name, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for arc, data in files:
            info = zipfile.ZipInfo(arc, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = (0o755 if arc.endswith(".so") else 0o644) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    return name


def _source_files():
    """The files of an sdist: git's tracked files in a checkout, else the tree without build folders."""
    try:
        out = subprocess.run(["git", "-C", str(TOP), "ls-files", "-z"], capture_output=True, check=True).stdout
        return [f for f in out.decode().split("\0") if f and (TOP / f).is_file()]
    except (OSError, subprocess.CalledProcessError):
        skip = re.compile(r"^(build[^/]*|reports|\.git)(/|$)")
        return [str(p.relative_to(TOP)) for p in TOP.rglob("*") if p.is_file() and not skip.match(
            str(p.relative_to(TOP)))]


def build_sdist(sdist_directory, config_settings=None):
    base = f"{NAME}-{_version()}"
    name = base + ".tar.gz"
    Path(sdist_directory).mkdir(parents=True, exist_ok=True)
    with tarfile.open(Path(sdist_directory) / name, "w:gz", format=tarfile.PAX_FORMAT) as t:
        for f in sorted(_source_files()):
            t.add(str(TOP / f), arcname=f"{base}/{f}", recursive=False)
        pkg_info = _metadata().encode("utf-8")
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        info.size = len(pkg_info)
        import io
        t.addfile(info, io.BytesIO(pkg_info))
    return name
