#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every command of README.md and docs/**/*.md runs as written, and shows what the program prints.

The commands are read from the code blocks (indented, or fenced without a language or as sh / bash /
console): a line is a command when its first word (after VAR=value assignments and an optional "$ "
prompt) is a program (impactfit, python3, octave-cli, bash, cmake, ...) or a path into build*/, scripts/
or bench/; "# ..." lines are comments; a line ending in "\\" continues on the next. What a block shows as
output is checked against what the command prints:
  - after a "$ command" line, every line up to the next "$ " line;
  - after a command without "$ ", the lines that follow it until the next blank line, comment or command;
  - a trailing comment that is one number ("impactfit hc-eps --e 0.5   # 1.432750533271375").
Shown output lines must appear in the command's output in the same order (other lines may come between);
within a line the words must be the same, "..." or "…" stands for any words, and a shown number matches
the printed one when they agree to the digits shown (half a unit of the last digit). Python sessions
(">>> " blocks) run with doctest, with impactfit imported.

The commands run in a scratch copy of the repository (never in the checkout), one copy per document (a
document's commands run in order in the same copy: a pipeline's later lines see its earlier ones' files),
set up as `bash scripts/main.sh` leaves the repository: `build` is the build directory under test and
./impactfit its program; `impactfit` on PATH is the build's program, `python3` the interpreter the package
was built for, and the package is in that interpreter's user site-packages (as main.sh's install into
~/.local puts it); HOME is an empty directory (a fresh account) otherwise. Each command must
exit 0.

A few commands cannot run in a test; SKIP lists each with its reason (a SKIP entry that matches no command
fails the test, so that the list stays true). XFAIL lists commands that are known to disagree with the
program until an open issue is fixed: such a command must still fail (when it passes, the entry must go).

usage: test_doc_commands.py BUILD_DIR SOURCE_DIR [DOC.md ...]
"""
import doctest
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

PROGRAMS = {"impactfit", "python3", "octave-cli", "bash", "sh", "cmake", "ctest", "sudo", "cc", "c++", "gcc",
            "mex", "srun", "mpirun", "sbatch", "export", "jq", "git", "make", "man", "valgrind", "pkg-config", "node"}

# (document, regular expression searched in the command, reason)
SKIP = [
    ("docs/ADDING.md", r"--code toy", "the worked example's entry (src/codes/toy.c) is not in the program: adding it "
                                      "is the example"),
    ("README.md", r"^sudo apt-get install", "installs system packages (scripts/deps.sh does it for the tests)"),
    ("README.md", r"^cmake ", "builds and installs the program: the test runs against that build"),
    ("README.md", r"^sudo cmake --install", "installs into the system (the ctests install_consumer and examples "
                                             "install into a prefix)"),
    ("README.md", r"^python3 -m venv .*pip install", "pip install . with its build (half a minute): the ctest "
                                                     "package_pip runs these lines in a throw-away venv"),
    ("README.md", r"^impactfit check( +#.*)?$", "every published figure recomputed: the ctest check_published runs "
                                              "this command (the other lines show its options)"),
    ("README.md", r"^bash scripts/main\.sh", "the main job itself (minutes; it is what CI runs)"),
    ("README.md", r"^bash scripts/test\.sh", "the whole test suite, which runs this test"),
    ("README.md", r"^sbatch ", "submits a Slurm job (the ctest hpc_slurm submits these scripts to a real cluster)"),
    ("docs/ACCURACY.md", r"^cmake ", "a second build (RelWithDebInfo) of the same sources"),
    ("docs/ACCURACY.md", r"^build-dev/", "needs the build-dev directory of the line above (the same programs "
                                         "run from build/ in the other lines' tests)"),
    ("docs/ACCURACY.md", r"^ctest ", "runs ctests of build-dev"),
    ("docs/ACCURACY.md", r"^scripts/reference_long\.sh", "4000 reference cases: hours"),
    ("docs/ACCURACY.md", r"^REF_ONLY=", "SEED stands for the seed a failure names"),
    ("docs/BENCHMARKS.md", r"^bash bench/", "benchmarks: minutes each, measured on an idle machine"),
    ("docs/BENCHMARKS.md", r"^node bench/web_load\.js", "a benchmark: Chromium opens the page seven times"),
    ("docs/EMBEDDING.md", r"^cc |^c\+\+ ", "main.c / main.cpp stand for the user's program (the ctest "
                                             "install_consumer builds such programs with pkg-config)"),
    ("docs/HARDENING.md", r"^bash scripts/fuzz\.sh", "fuzzing runs for minutes (clang, its own build)"),
    ("docs/WEB.md", r"^bash scripts/deps\.sh", "installs system packages (the test command's deps stage does)"),
    ("docs/WEB.md", r"^bash scripts/wasm\.sh", "the WebAssembly build (minutes; the ctest web_module runs it)"),
    ("docs/HUNT_CROSSLEY.md", r"^impactfit reproduce --topic ramaswamy --out", "a full topic (the main job's work); "
                                                                              "the ctest cli_reproduce runs it"),
    ("docs/REPRODUCTION.md", r"^impactfit reproduce --topic (zhang|copt) --out", "a full topic, the main job's work "
                                                                                "(ctest reproduce_quick runs its code "
                                                                                "on coarse grids)"),
    ("docs/HPC.md", r"SLURM_|^srun ", "a Slurm job script"),
    ("docs/HPC.md", r"^impactfit merge results", "merges the shards of the Slurm job above"),
    ("docs/IDENTIFICATION.md", r"identify DATA\.csv", "DATA.csv stands for the user's measurements"),
    ("docs/OCTAVE.md", r"^mex ", "MATLAB's mex (not installed here)"),
    ("docs/PYTHON.md", r"bench/bench_python\.py", "a benchmark (minutes)"),
    ("docs/PACKAGING.md", r"^python3 -m venv", "pip install . with its build (minutes): the ctest package_pip runs "
                                               "these lines in a throw-away venv"),
    ("docs/PACKAGING.md", r"^octave-cli (--no-history )?--eval \"pkg|^cmake --build build --target octave-pkg",
     "pkg install into the user's Octave (and the library installed first): the ctest package_octave runs these "
     "lines in a throw-away prefix"),
    ("docs/PACKAGING.md", r"^cmake |^sudo apt-get install", "builds and installs the Debian package into the system: "
                                                            "the ctest package_deb runs these lines with dpkg --root"),
    ("docs/PYTHON.md", r"\[TABLE\.csv\]", "[TABLE.csv] stands for an optional file of the user's"),
    ("docs/TESTING.md", r"^bash scripts/test\.sh$", "the whole test suite, which runs this test"),
    ("docs/TESTING.md", r"^bash scripts/test\.sh [a-z]", "stages of the test suite (minutes; builds of their own)"),
    ("docs/TESTING.md", r"^ctest ", "ctests of build-test/, the test suite's build (minutes; not in the copy)"),
    ("docs/TESTING.md", r"under_load\.sh", "a ctest of build-test/ with every CPU busy (minutes)"),
]

# (document, regular expression, what is wrong): known disagreements, each with the issue that fixes it
XFAIL = []

NUM = re.compile(r"^[-+−]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$")


def is_command(line):
    s = line.strip()
    if s.startswith("$ "):
        return True
    words = s.split()
    i = 0
    while i < len(words) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=\S*", words[i]):
        i += 1
    if i >= len(words):
        return False
    w = words[i]
    # a program, or a file to run (a directory, "bench/", is a listing's entry, not a command)
    return w in PROGRAMS or bool(re.match(r"(\./|build[-\w]*/|scripts/|bench/)", w)) and not w.endswith("/")


def code_blocks(text):
    """(first line number, lines) of every code block that may hold commands."""
    lines = text.split("\n")
    blocks, i, prev_blank = [], 0, True
    while i < len(lines):
        line = lines[i]
        m = re.match(r"^(```+|~~~+)\s*(\S*)", line)
        if m:
            fence, lang = m.group(1), m.group(2)
            j = i + 1
            while j < len(lines) and not lines[j].startswith(fence):
                j += 1
            if lang in ("", "sh", "bash", "console", "shell"):
                blocks.append((i + 2, lines[i + 1:j]))
            i, prev_blank = j + 1, False
            continue
        if line.startswith("    ") and prev_blank and line.strip():
            j, body = i, []
            while j < len(lines) and (lines[j].startswith("    ") or not lines[j].strip()):
                body.append(lines[j][4:])
                j += 1
            while body and not body[-1].strip():
                body.pop()
            blocks.append((i + 1, body))
            i, prev_blank = j, True
            continue
        prev_blank = not line.strip()
        i += 1
    return blocks


class Item:
    def __init__(self, doc, line, cmd, prompt):
        self.doc, self.line, self.cmd, self.prompt = doc, line, cmd, prompt
        self.shown = []      # output lines the document shows
        self.value = None    # a number shown as a trailing comment

    def where(self):
        return f"{self.doc}:{self.line}"


def commands(doc, text):
    """The shell commands (Item) and Python sessions ((line, text)) of a document."""
    items, sessions = [], []
    for first, body in code_blocks(text):
        if any(l.startswith(">>> ") for l in body):
            sessions.append((first, "\n".join(body) + "\n"))
            continue
        if not any(is_command(l) for l in body):
            continue
        cur, k, transcript = None, 0, False
        while k < len(body):
            raw, ln = body[k], first + k
            k += 1
            s = raw.strip()
            if transcript and cur is not None and not s.startswith("$ "):
                cur.shown.append(raw)
                continue
            if s.startswith("#") or not s:
                cur = None  # a blank line or a comment ends the output shown after a command
                continue
            if is_command(raw):
                text_ = s
                while text_.endswith("\\") and k < len(body):
                    text_ = text_[:-1] + " " + body[k].strip()
                    k += 1
                prompt = text_.startswith("$ ")
                if prompt:
                    text_ = text_[2:]
                transcript = prompt
                cur = Item(doc, ln, text_, prompt)
                m = re.search(r"\s#\s*(\S+)\s*$", text_)
                if m and NUM.match(m.group(1)):
                    cur.value = m.group(1)
                items.append(cur)
            elif cur is not None:
                cur.shown.append(raw)
    return items, sessions


def number(tok):
    t = tok.replace("−", "-")
    return float(t) if NUM.match(t) else None


def half_unit(tok):
    """Half a unit of the last digit shown in a number token."""
    t = tok.replace("−", "-").lstrip("+-")
    mant, _, exp = t.lower().partition("e")
    dec = len(mant.split(".")[1]) if "." in mant else 0
    return 0.5 * 10.0 ** (-dec + (int(exp) if exp else 0))


def tok_match(want, got):
    if want == got:
        return True
    a, b = number(want), number(got)
    if a is None or b is None:
        return False
    return abs(a - b) <= half_unit(want) * (1 + 1e-9) + 1e-300


def line_match(want, got):
    w, g = want.split(), got.split()

    def rec(i, j):
        if i == len(w):
            return j == len(g)
        if w[i] in ("...", "…"):
            return any(rec(i + 1, jj) for jj in range(j, len(g) + 1))
        return j < len(g) and tok_match(w[i], g[j]) and rec(i + 1, j + 1)

    return rec(0, 0)


def check_output(item, out):
    """None when the shown output and value agree with `out`, else what differs."""
    got = out.split("\n")
    j = 0
    for want in (l for l in item.shown if l.strip()):
        while j < len(got) and not line_match(want, got[j]):
            j += 1
        if j == len(got):
            return f"shown line not printed (in this order): {want.strip()!r}"
        j += 1
    if item.value is not None:
        toks = [t.strip("(),;[]") for t in out.split()]
        if not any(tok_match(item.value, t) for t in toks):
            return f"the comment's value {item.value} is not printed"
    return None


def listed(table, item):
    for doc, pat, why in table:
        if doc == item.doc and re.search(pat, item.cmd):
            return (doc, pat, why)
    return None


def scratch_copy(src, dst):
    try:
        files = subprocess.run(["git", "-C", src, "ls-files", "-z"], capture_output=True, check=True).stdout
        names = [f for f in files.decode().split("\0") if f]
    except (subprocess.CalledProcessError, FileNotFoundError):
        names = None
    if names is None:
        shutil.copytree(src, dst, symlinks=True, ignore=shutil.ignore_patterns("build*", ".git"))
        return
    for n in names:
        s = os.path.join(src, n)
        if not os.path.lexists(s):
            continue  # deleted in the work tree
        d = os.path.join(dst, n)
        os.makedirs(os.path.dirname(d), exist_ok=True)
        shutil.copy2(s, d, follow_symlinks=False)


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    build, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    cli = os.path.join(build, "src", "cli", "impactfit")
    if not os.access(cli, os.X_OK):
        print(f"FAIL: no program {cli}")
        return 1
    docs = sys.argv[3:] or ["README.md"] + sorted(
        os.path.relpath(p, src) for p in glob.glob(os.path.join(src, "docs", "**", "*.md"), recursive=True))
    failures, ran, skipped, used_skip, used_xfail = [], 0, 0, set(), set()
    tmp = tempfile.mkdtemp(prefix="impactfit-doc-commands.")
    try:
        base = os.path.join(tmp, "base")
        scratch_copy(src, base)
        binpath = os.path.join(tmp, "bin")
        os.makedirs(binpath)
        os.symlink(cli, os.path.join(binpath, "impactfit"))
        # `python3` is the interpreter the package was built for (python/CMakeLists.txt picks the first
        # python3 that imports NumPy; docs/PYTHON.md says so): a python3 without NumPy earlier on PATH
        # would fail the array examples for a reason the documents already state
        cache = os.path.join(build, "CMakeCache.txt")
        if os.path.exists(cache):
            m = re.search(r"^Python3_EXECUTABLE:FILEPATH=(.+)$", open(cache, encoding="utf-8").read(), re.M)
            if m and os.access(m.group(1), os.X_OK):
                os.symlink(m.group(1), os.path.join(binpath, "python3"))
        home = os.path.join(tmp, "home")
        os.makedirs(home)
        env = dict(os.environ, PATH=binpath + os.pathsep + os.environ.get("PATH", ""), HOME=home,
                   OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "2"))
        env.pop("PYTHONPATH", None)
        # scripts/main.sh installs into ~/.local: the Python package in the user site-packages of the
        # interpreter it was built for (here a link to the build's package, the same files)
        if os.path.isdir(os.path.join(build, "python", "impactfit")):
            py = os.path.join(binpath, "python3") if os.path.exists(os.path.join(binpath, "python3")) else "python3"
            usersite = subprocess.run([py, "-c", "import site; print(site.getusersitepackages())"], env=env,
                                      capture_output=True, text=True, check=True).stdout.strip()
            os.makedirs(usersite, exist_ok=True)
            os.symlink(os.path.join(build, "python", "impactfit"), os.path.join(usersite, "impactfit"))
        have_octave = bool(glob.glob(os.path.join(build, "octave", "impactfit_copt.mex*")))
        have_python = os.path.isdir(os.path.join(build, "python", "impactfit"))
        for doc in docs:
            text = open(os.path.join(src, doc), encoding="utf-8").read()
            items, sessions = commands(doc, text)
            if not items and not sessions:
                continue
            # the document's own copy: hard links to the base copy (files are replaced, not rewritten in
            # place, by the commands that write them), set up as scripts/main.sh leaves a checkout
            repo = os.path.join(tmp, doc.replace("/", "_"))
            subprocess.run(["cp", "-al", base, repo], check=True)
            os.symlink(build, os.path.join(repo, "build"))
            # ./impactfit is the program (scripts/main.sh links it)
            os.symlink(os.path.join("build", "src", "cli", "impactfit"), os.path.join(repo, "impactfit"))
            for item in items:
                sk = listed(SKIP, item)
                if sk:
                    used_skip.add(sk[:2])
                    skipped += 1
                    print(f"skip {item.where()}: {item.cmd}  -- {sk[2]}")
                    continue
                # a build without a binding cannot run its examples (CMake says why it left it out)
                if "octave-cli" in item.cmd and not have_octave:
                    skipped += 1
                    print(f"skip {item.where()}: {item.cmd}  -- this build has no Octave functions")
                    continue
                if re.search(r"\bpython3\b", item.cmd) and not have_python:
                    skipped += 1
                    print(f"skip {item.where()}: {item.cmd}  -- this build has no Python package")
                    continue
                xf = listed(XFAIL, item)
                t0 = time.monotonic()
                try:
                    r = subprocess.run(["bash", "-c", "set -o pipefail; " + item.cmd], cwd=repo, env=env,
                                       stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=900)
                    out, rc = r.stdout + r.stderr, r.returncode
                except subprocess.TimeoutExpired:
                    out, rc = "", "timeout (900 s)"
                ran += 1
                problem = f"exit {rc}" if rc != 0 else check_output(item, out)
                if xf:
                    used_xfail.add(xf[:2])
                    if problem:
                        print(f"xfail {item.where()}: {item.cmd}  -- {xf[2]} ({problem})")
                    else:
                        failures.append(f"{item.where()}: {item.cmd}: listed in XFAIL ({xf[2]}) but agrees "
                                        "with the program now: remove the entry")
                    continue
                if problem:
                    tail = "\n".join("    | " + l for l in out.strip().split("\n")[-12:])
                    failures.append(f"{item.where()}: {item.cmd}: {problem}\n{tail}")
                else:
                    print(f"ok {item.where()} ({time.monotonic() - t0:.1f} s): {item.cmd}")
            for line, session in sessions:
                if not have_python:
                    skipped += 1
                    print(f"skip {doc}:{line}: Python session  -- this build has no Python package")
                    continue
                ran += 1
                prog = ("import doctest, sys, impactfit\n"
                        "t = doctest.DocTestParser().get_doctest(sys.stdin.read(), {'impactfit': impactfit}, "
                        "%r, %r, %d)\n"
                        "r = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)\n"
                        "r.run(t)\nsys.exit(1 if r.failures else 0)\n" % (doc, doc, line - 1))
                py = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
                r = subprocess.run([py, "-c", prog], input=session, cwd=repo, env=env, capture_output=True,
                                   text=True, timeout=900)
                if r.returncode != 0:
                    failures.append(f"{doc}:{line}: Python session:\n" + "\n".join(
                        "    | " + l for l in (r.stdout + r.stderr).strip().split("\n")[-30:]))
                else:
                    print(f"ok {doc}:{line}: Python session ({session.count('>>> ')} statements)")
        if len(docs) > 1 or not sys.argv[3:]:
            for doc, pat, why in SKIP:
                if (doc, pat) not in used_skip:
                    failures.append(f"SKIP entry matches no command: {doc} /{pat}/ ({why})")
            for doc, pat, why in XFAIL:
                if (doc, pat) not in used_xfail:
                    failures.append(f"XFAIL entry matches no command: {doc} /{pat}/ ({why})")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for f in failures:
        print("FAIL:", f)
    print(f"test_doc_commands.py: {ran} commands run, {skipped} skipped (listed with reasons), "
          f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
