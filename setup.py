# SPDX-License-Identifier: GPL-3.0-or-later
"""Builds the Python package impactfit for pip (pyproject.toml): the extension impactfit._impactfit is
made by the project's CMake build (python/CMakeLists.txt) with a static libimpactfit, so one build
system makes the library for the program, the bindings and pip alike. The version is the one in
CMakeLists.txt's project() (the only place it is kept).

Environment: IMPACTFIT_CMAKE_ARGS (extra cmake arguments), CMAKE_BUILD_PARALLEL_LEVEL (jobs)."""
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

TOP = Path(__file__).resolve().parent


def version():
    text = (TOP / "CMakeLists.txt").read_text(encoding="utf-8")
    m = re.search(r"project\(\s*impactfit\s+VERSION\s+([0-9][0-9.]*)", text)
    if not m:
        raise RuntimeError("setup.py: no project(impactfit VERSION ...) in CMakeLists.txt")
    return m.group(1)


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    """Configures and builds the target impactfit_python in a build directory of its own."""

    def build_extension(self, ext):
        if not shutil.which("cmake"):
            raise RuntimeError("impactfit: building needs cmake and a C compiler (Debian: bash scripts/deps.sh "
                               "build python)")
        build = Path(self.build_temp).resolve() / "cmake"
        build.mkdir(parents=True, exist_ok=True)
        args = ["cmake", "-S", str(TOP), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release", "-DBUILD_SHARED_LIBS=OFF",
                "-DIMPACTFIT_BUILD_TESTS=OFF", "-DIMPACTFIT_PYTHON=ON", "-DIMPACTFIT_OCTAVE=OFF",
                "-DPython3_EXECUTABLE=" + sys.executable]
        args += shlex.split(os.environ.get("IMPACTFIT_CMAKE_ARGS", ""))
        subprocess.check_call(args, stdout=subprocess.DEVNULL)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        subprocess.check_call(["cmake", "--build", str(build), "--target", "impactfit_python", "-j", jobs])
        built = sorted((build / "python" / "impactfit").glob("_impactfit*.so"))
        if not built:
            raise RuntimeError("impactfit: the CMake build made no _impactfit extension")
        dest = Path(self.get_ext_fullpath(ext.name))
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built[0], dest)


(TOP / "build-pip").mkdir(exist_ok=True)
setup(
    version=version(),
    ext_modules=[CMakeExtension("impactfit._impactfit")],
    cmdclass={"build_ext": CMakeBuild},
    # not build/: that is the CMake build of scripts/main.sh
    options={"build": {"build_base": "build-pip"}, "egg_info": {"egg_base": "build-pip"}},
)
