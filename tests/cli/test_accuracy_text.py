#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every accuracy figure impactfit states is a measured one (issue 19).

The figures come from what `impactfit reproduce` measures and writes:
  - include/impactfit/generated/accuracy.h (topic accuracy: the engine and the inverse commands against
    the quad-precision reference), which the --help texts are compiled with;
  - the generated surrogate headers' own maxima ("max |e_out - e| = X", "max relative error X",
    written by the surrogate builders);
  - reports/claims.json (the held-out maxima of the Zhang surrogates, topic zhang).
This test checks that README, docs/ACCURACY.md, docs/INVERSE.md, docs/HUNT_CROSSLEY.md,
include/impactfit/impact.h, include/impactfit/law.h and the
built program's --help quote exactly those figures, rounded up to two significant digits.
usage: test_accuracy_text.py SRC_DIR IMPACTFIT_EXE
"""
import json
import math
import re
import subprocess
import sys

src, exe = sys.argv[1], sys.argv[2]
failures = []


def read(path):
    with open(f"{src}/{path}", encoding="utf-8") as f:
        return f.read()


def flat(text):
    """the text as one line: comment continuations (" * ") and line breaks are spaces"""
    return re.sub(r"\s+", " ", re.sub(r"\n\s*\*(?!/)", " ", text))


def up2(x):
    """x rounded up to two significant digits, as the topic prints it (%.1e)."""
    if x <= 0:
        return "0"
    p = 10.0 ** (math.floor(math.log10(x)) - 1)
    r = math.ceil(x / p * (1 - 1e-12)) * p
    t = f"{r:.1e}"
    if float(t) < x:
        t = f"{r + p:.1e}"
    return t


def expect(where, text, needle):
    if needle not in text:
        failures.append(f"{where}: does not say {needle!r}")


# ---- the figures ----------------------------------------------------------------------------------
acc = dict(re.findall(r"#define IMPACTFIT_ACCURACY_(\w+) (\S+)", read("include/impactfit/generated/accuracy.h")))
for k in ("E_OUT", "T_CONTACT", "F_MAX", "T_FMAX", "DELTA_MAX", "T_DELTA_MAX", "DELTA_SEP", "F_MIN", "COPT",
          "ZHANG_ALPHA", "HC_EPS", "IMPACT_TIME", "ENGINE_CASES", "EDGE_CASES", "INVERSE_CASES", "LAW_E_OUT",
          "LAW_T_CONTACT", "LAW_DELTA_MAX", "LAW_F_MAX", "LAW_DELTA_SEP"):
    if k not in acc:
        failures.append(f"accuracy.h: no IMPACTFIT_ACCURACY_{k}")
m = re.search(r"max \|e_out - e\| = ([0-9.e+-]+)", read("include/impactfit/generated/copt_surrogate.h"))
copt_sur = up2(float(m.group(1))) if m else None
m = re.search(r"max relative error ([0-9.e+-]+)", read("include/impactfit/generated/ramaswamy_dtau_surrogate.h"))
dtau_sur = up2(float(m.group(1))) if m else None
claims = {}
with open(f"{src}/reports/claims.json", encoding="utf-8") as f:
    for line in f:
        c = json.loads(line)
        claims[(c["topic"], c["id"])] = c["measured"]
zc = up2(claims[("zhang", "surrogate-c-held-out")])
za = up2(claims[("zhang", "surrogate-a-held-out")])

if not failures:
    # ---- docs/ACCURACY.md: one row per figure, the stated figure in its own cell ----------------
    doc = read("docs/ACCURACY.md")
    rows = {"e_out": "E_OUT", "t_contact": "T_CONTACT", "f_max": "F_MAX", "t of f_max": "T_FMAX",
            "δ_max": "DELTA_MAX", "t of δ_max": "T_DELTA_MAX", "δ_sep": "DELTA_SEP", "f_min": "F_MIN",
            "copt (": "COPT", "zhang-alpha (": "ZHANG_ALPHA", "hc-eps (": "HC_EPS", "impact-time (": "IMPACT_TIME",
            "law e_out": "LAW_E_OUT", "law t_contact": "LAW_T_CONTACT", "law δ_max": "LAW_DELTA_MAX",
            "law f_max": "LAW_F_MAX", "law δ_sep": "LAW_DELTA_SEP"}
    for label, key in rows.items():
        lines = [l for l in doc.splitlines() if l.startswith("| " + label if label.endswith("(") else
                                                             "| " + label + " |")]
        if len(lines) != 1:
            failures.append(f"docs/ACCURACY.md: {len(lines)} table rows for {label!r} (want 1)")
        elif f"| {acc[key]} |" not in lines[0]:
            failures.append(f"docs/ACCURACY.md: the row {label!r} does not state {acc[key]}: {lines[0]}")
    expect("docs/ACCURACY.md", flat(doc), f"over {acc['ENGINE_CASES']} random cases and the {acc['EDGE_CASES']} directed ones")
    lh = flat(read("include/impactfit/law.h"))
    for needle in (f"|Δe_out| ≤ {acc['LAW_E_OUT']} max(e, 0.01)",
                   f"|Δt_contact| ≤ {acc['LAW_T_CONTACT']} (t_contact + L/(v e_out))",
                   f"δ_max ≤ {acc['LAW_DELTA_MAX']} and f_max ≤ {acc['LAW_F_MAX']} relative",
                   f"|Δδ_sep| ≤ {acc['LAW_DELTA_SEP']} δ_max"):
        expect("include/impactfit/law.h", lh, needle)
    # ---- impact.h, README, docs/INVERSE.md ------------------------------------------------------
    h = flat(read("include/impactfit/impact.h"))
    for needle in (f"|Δe_out| ≤ {acc['E_OUT']} max(e, 0.01)", f"t_contact ≤ {acc['T_CONTACT']} (1 + ζ/e)",
                   f"f_max ≤ {acc['F_MAX']}", f"f_min ≤ {acc['F_MIN']}", f"δ_max ≤ {acc['DELTA_MAX']}",
                   f"δ_sep ≤ {acc['DELTA_SEP']} (1 + ζ)"):
        expect("include/impactfit/impact.h", h, needle)
    readme = flat(read("README.md"))
    expect("README.md", readme, f"e_out within {acc['E_OUT']}·max(e, 0.01)")
    expect("README.md", readme, f"the inverse commands within {max(acc['COPT'], acc['ZHANG_ALPHA'], key=float)}·min(e, 1 − e)")
    expect("README.md", readme, f"c_opt with |e_out − e| ≤ {copt_sur}")
    hc = flat(read("docs/HUNT_CROSSLEY.md"))
    expect("docs/HUNT_CROSSLEY.md", hc, f"gives back e within {acc['HC_EPS']}·min(e, 1 − e)")
    expect("docs/HUNT_CROSSLEY.md", hc, f"within {acc['IMPACT_TIME']} relative for n ∈ [1, 3] and ε ∈ [1e-4, 20] (random, and a grid")
    expect("docs/HUNT_CROSSLEY.md", hc, f"{dtau_sur} relative maximum error on 201 × 51 held-out points")
    expect("docs/HUNT_CROSSLEY.md", hc, f"Δτ to {dtau_sur}, ε ≤ 100")
    inv = flat(read("docs/INVERSE.md"))
    expect("docs/INVERSE.md", inv, f"max |e_out − e| = {copt_sur}")
    expect("docs/INVERSE.md", inv, f"max |e_out − e| = {zc} (C) and {za} (A)")
    # ---- the built program's --help (compiled with accuracy.h) ---------------------------------
    def help_of(cmd):
        return flat(subprocess.run([exe, cmd, "--help"], capture_output=True, text=True).stdout)
    sim = help_of("simulate")
    for needle in (f"within {acc['E_OUT']} max(e, 0.01)", f"within {acc['T_CONTACT']} (1 + zeta/e)",
                   f"f_max within {acc['F_MAX']}", f"f_min within {acc['F_MIN']}",
                   f"delta_max within {acc['DELTA_MAX']}", f"delta_sep within {acc['DELTA_SEP']} (1 + zeta)"):
        expect("impactfit simulate --help", sim, needle)
    for needle in (f"e_out within {acc['LAW_E_OUT']} max(e, 0.01)", f"t_contact within {acc['LAW_T_CONTACT']} (t_contact + L/(v e_out))",
                   f"delta_max within {acc['LAW_DELTA_MAX']} and f_max within {acc['LAW_F_MAX']} relative"):
        expect("impactfit simulate --help (--law)", sim, needle)
    expect("impactfit copt --help", help_of("copt"), f"|e_out - e| <= {acc['COPT']} min(e, 1 - e)")
    expect("impactfit zhang-alpha --help", help_of("zhang-alpha"), f"|e_out - e| <= {acc['ZHANG_ALPHA']} min(e, 1 - e)")
    expect("impactfit hc-eps --help", help_of("hc-eps"), f"within {acc['HC_EPS']} min(e, 1 - e)")
    expect("impactfit impact-time --help", help_of("impact-time"), f"within {acc['IMPACT_TIME']} relative")
    expect("impactfit dtau-surrogate --help", help_of("dtau-surrogate"), f"The defaults give {dtau_sur} relative at most")

for f in failures:
    print("FAIL:", f)
print(f"test_accuracy_text: {len(failures)} failure(s)" if failures else
      "test_accuracy_text: every stated figure is the measured one")
sys.exit(1 if failures else 0)
