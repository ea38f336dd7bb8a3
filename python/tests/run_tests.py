# SPDX-License-Identifier: GPL-3.0-or-later
"""ctest entry of the Python tests: pytest on this directory; a missing NumPy or pytest is a skip (77)."""
import sys

missing = []
for mod in ("numpy", "pytest"):
    try:
        __import__(mod)
    except ImportError:
        missing.append(mod)
if missing:
    print("python tests skipped: %s not importable by %s (bash scripts/deps.sh python installs them)"
          % (", ".join(missing), sys.executable))
    sys.exit(77)
import pytest  # noqa: E402

sys.exit(pytest.main(["-q", "-p", "no:cacheprovider"] + sys.argv[1:]))
