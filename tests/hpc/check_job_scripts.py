#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every Slurm job script shown in README.md and docs/*.md is one of the files of docs/slurm/, byte for
byte, and every file there is shown in docs/HPC.md: the scripts the documents show are the ones that
tests/hpc/test_slurm.sh submits to a real cluster (ctest hpc_slurm), so they cannot drift.
usage: check_job_scripts.py SOURCE_DIR"""
import glob
import os
import sys


def blocks(text):
    """The code blocks of a Markdown text (indented by 4 spaces, or fenced), each as its text."""
    out, cur, fence = [], None, False
    for line in text.splitlines():
        if line.strip().startswith("```"):
            if fence:
                out.append("\n".join(cur) + "\n")
                cur, fence = None, False
            else:
                cur, fence = [], True
            continue
        if fence:
            cur.append(line)
        elif line.startswith("    ") or (cur is not None and not line.strip()):
            if cur is None:
                cur = []
            cur.append(line[4:])
        else:
            if cur is not None:
                out.append("\n".join(cur).rstrip("\n") + "\n")
            cur = None
    if cur is not None:
        out.append("\n".join(cur).rstrip("\n") + "\n")
    return out


def main():
    src = sys.argv[1]
    scripts = {}
    for path in sorted(glob.glob(os.path.join(src, "docs", "slurm", "*.sbatch"))):
        with open(path) as f:
            scripts[os.path.relpath(path, src)] = f.read()
    bad = 0
    if not scripts:
        print("FAIL: no job scripts in docs/slurm/")
        return 1
    shown_in_hpc = set()
    docs = [os.path.join(src, "README.md")] + sorted(glob.glob(os.path.join(src, "docs", "*.md")))
    checked = 0
    for doc in docs:
        with open(doc) as f:
            text = f.read()
        for b in blocks(text):
            if not (b.startswith("#!/bin/bash") and "#SBATCH" in b):
                continue
            checked += 1
            same = [p for p, t in scripts.items() if t == b]
            if not same:
                print(f"FAIL: {os.path.relpath(doc, src)}: a job script that is none of docs/slurm/*.sbatch:\n{b}")
                bad += 1
            elif doc.endswith(os.path.join("docs", "HPC.md")):
                shown_in_hpc.update(same)
    for p in scripts:
        if p not in shown_in_hpc:
            print(f"FAIL: {p} is not shown in docs/HPC.md")
            bad += 1
    print(f"check_job_scripts: {checked} job scripts in the documents, {len(scripts)} files, {bad} failures")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
