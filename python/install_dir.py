# SPDX-License-Identifier: GPL-3.0-or-later
"""Where `cmake --install` puts the Python package for a prefix (python/CMakeLists.txt runs this at install
time, with the interpreter the package was built for): the first directory under PREFIX that this
interpreter searches for packages (its sys.path and its user site-packages: /usr/lib/python3/dist-packages
for Debian's python3 and /usr, /usr/local/lib/python3.X/dist-packages for /usr/local, ~/.local/lib/
python3.X/site-packages for ~/.local, the site-packages of a virtual environment or a conda prefix), else
PREFIX/lib/python3.X/site-packages. Prints the directory on the first line and "on-path" or "not-on-path"
on the second.
usage: python3 install_dir.py PREFIX"""
import os
import site
import sys

prefix = os.path.realpath(os.path.expanduser(sys.argv[1]))
paths = [p for p in sys.path if p]
try:
    paths.append(site.getusersitepackages())
except AttributeError:
    pass
for p in paths:
    rp = os.path.realpath(p)
    rel = os.path.relpath(rp, prefix)
    if (rel.split(os.sep)[0] in ("lib", "lib64") and not rel.startswith("..") and
            os.path.basename(rp) in ("site-packages", "dist-packages")):
        print(rp)
        print("on-path")
        break
else:
    print(os.path.join(prefix, "lib", "python%d.%d" % sys.version_info[:2], "site-packages"))
    print("not-on-path")
