/* SPDX-License-Identifier: 0BSD */
/* The generated header of exact DEM damping prefactors, include/impactfit/generated/dem_damping.h
 * (include/impactfit/dem.h, impactfit_dem_damping_header). Its functions are C text here because
 * the header must compile without impactfit (a DEM code copies it); they compute what
 * impactfit_dem_damping_ratio and impactfit_dem_exact_prefactor compute, with the same operations
 * (tests/test_dem.c compares the committed header with them). Licensed 0BSD like the header. */
#include <stddef.h>
#include <stdio.h>

#include "../common/common_impl.h"
#include "impactfit/codegen.h"
#include "impactfit/dem.h"

/* ln e(ξ) under a clamped force, accurate through ξ = 1: the same expression as inverse.c's
 * kv_ln_e_force (for 0 ≤ ξ ≤ 1e150). */
#define KV_LN_E(x, r)                                           \
  "    double s = sqrt(fabs((" x " - 1.0) * (" x " + 1.0)));\n" \
  "    double " r " = " x " < 1.0 ? atan2(s, " x ") / s : (s > 0.0 ? log1p((" x " - 1.0) + s) / s : 1.0);\n"

int impactfit_dem_damping_header(char **text, size_t *len, impactfit_error *err) {
  impactfit_codegen *g;
  int st = impactfit_codegen_begin("dem_damping", "impactfit dem-audit --write-header DIR", &g, err);
  if (st)
    return st;
  impactfit_codegen_text(
      g, "\n"
         "Exact normal damping for DEM contacts from the coefficient of restitution e: a simulated\n"
         "impact with these dampings gives e_out = e (impactfit check verifies it by simulation, to\n"
         "1e-8; measured a few 1e-12).\n"
         "\n"
         "  Hertz spring with a delta^(1/4) damper (LIGGGHTS, Chrono, YADE, LAMMPS convention):\n"
         "      F = k d^(3/2) + a(e) sqrt(mass k) d^(1/4) d'\n"
         "  linear spring-dashpot (MFiX, LAMMPS hooke):  F = k d + a(e) sqrt(mass k) d'\n"
         "\n"
         "Both have m = (n - 1)/2, for which the impact maps exactly onto a Kelvin-Voigt oscillator\n"
         "(y = d^((n+1)/2), ds = d^((n-1)/2) dt; see include/impactfit/inverse.h) with damping ratio\n"
         "xi = a / sqrt(2 (n + 1)): a = sqrt(5) xi for the Hertz element, a = 2 xi for the linear one.\n"
         "  contact ends at d = 0, attraction allowed:  e = exp(-pi xi / sqrt(1 - xi^2)),\n"
         "      xi = -ln e / sqrt(pi^2 + ln^2 e)  -- the codes' own formula, exact in this case;\n"
         "  force clamped at zero (limitForce, limit_damping, Chrono):  e = exp(-2 xi theta / sin theta),\n"
         "      theta = acos xi (xi < 1), exp(-2 xi phi / sinh phi), phi = acosh xi (xi > 1); inverted\n"
         "      here by bisection on that closed form.\n"
         "For Hunt-Crossley (Chrono's Flores model) use the exact eps(e) of impactfit_hc_eps,\n"
         "lambda = eps k / v. All functions return NaN for e outside (0, 1]. The same values from the\n"
         "library: impactfit_dem_damping_ratio and impactfit_dem_exact_prefactor (include/impactfit/dem.h).");
  impactfit_codegen_function(g, "Kelvin-Voigt damping ratio with restitution e when the contact ends at zero force",
                             "double impactfit_dem_xi_clamped(double e)",
                             "  if (!(e > 0.0 && e <= 1.0))\n    return NAN;\n"
                             "  double L = log(e), lo = 0.0, hi = 1.0;\n"
                             "  for (;;) { /* ln e(xi), accurate through xi = 1 */\n" KV_LN_E(
                                 "hi", "r") "    if (-2.0 * hi * r <= L)\n      break;\n    hi *= 2.0;\n  }\n"
                                            "  for (int i = 0; i < 200; i++) {\n"
                                            "    double x = 0.5 * (lo + hi);\n    if (!(x > lo && x < hi))\n      "
                                            "break;\n" KV_LN_E("x", "r") "    if (-2.0 * x * r > L)\n      lo = x;\n   "
                                                                         " else\n      hi = x;\n  }\n"
                                                                         "  return 0.5 * (lo + hi);\n");
  impactfit_codegen_code(g, "\n");
  impactfit_codegen_function(g, "the same when the contact ends at d = 0 (tensile force allowed)",
                             "double impactfit_dem_xi_tensile(double e)",
                             "  if (!(e > 0.0 && e <= 1.0))\n    return NAN;\n"
                             "  double L = log(e);\n"
                             "  return -L / sqrt(3.14159265358979323846 * 3.14159265358979323846 + L * L);\n");
  static const char *const fn[4][3] = {{"hertz", "tensile", "sqrt(5.0)"},
                                       {"hertz", "clamped", "sqrt(5.0)"},
                                       {"linear", "tensile", "2.0"},
                                       {"linear", "clamped", "2.0"}};
  for (int i = 0; i < 4; i++) {
    char sig[96];
    snprintf(sig, sizeof sig, "double impactfit_dem_%s_prefactor_%s(double e)", fn[i][0], fn[i][1]);
    impactfit_codegen_code(g, "\n");
    impactfit_codegen_function(g, NULL, sig, "  double x = impactfit_dem_xi_%s(e);\n  return %s * x;\n", fn[i][1],
                               fn[i][2]);
  }
  return impactfit_codegen_finish(g, text, len, err);
}
