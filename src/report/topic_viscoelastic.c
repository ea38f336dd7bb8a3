/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Topic viscoelastic: viscoelastic spheres (n = 3/2, m = 1/2) in the Pöschel group's scaled damping
 * x = β v^(1/5), and Chatterjee, James & Brogliato's loaded contacts (formulas.h). The published
 * expansion coefficients against the ones the engine measures under end conditions A and C; e(x)
 * exact and as the published series (figure). The table of errors over the whole range of e is in
 * topic formulas. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tools.h"
#include "impactfit/impactfit.h"
#include "report.h"

/* The claim of a published coefficient: holds when the measured one agrees to `rel`. */
static void coeff_claim(report *r, const char *id, const char *source, const char *what, double published,
                        double measured, double rel, const char *how) {
  int ok = fabs(measured - published) <= rel * fabs(published);
  report_claim_f(r, id, source, what, published, measured, "", ok, 1e-6, 0.0, how);
}

static int figure(report *r, impactfit_impact_workspace *ws) {
  FILE *f = report_data(r, "visco.dat");
  if (!f)
    return 0;
  fprintf(f, "# x = beta v^(1/5); exact e under A, under C (0 when the bodies stay together); first and second "
             "order series\n");
  for (int i = 0; i <= 150; i++) {
    double x = 0.01 * i, e[2] = {0.0, 0.0};
    const impactfit_transition *trs[2] = {impactfit_transition_A, impactfit_transition_C};
    for (int t = 0; t < 2; t++) {
      impactfit_impact_params p = impactfit_impact_scaled_params(1.5, 0.5, impactfit_visco_zeta_from_x(x));
      p.transition = trs[t];
      p.locate_extrema = 0;
      impactfit_impact_result res;
      if (impactfit_impact_solve(ws, &p, &res, NULL) == 0)
        e[t] = res.e_out;
    }
    fprintf(f, "%.3f %.12f %.12f %.12f %.12f\n", x, e[0], e[1], impactfit_visco_e_series(1, x),
            impactfit_visco_e_series(2, x));
  }
  fclose(f);
  report_figure(r, "visco",
                "Restitution of viscoelastic spheres (n = 3/2, m = 1/2) against the Pöschel group's scaled damping "
                "x = β v^(1/5), β = (3/2) A (k/mass)^(2/5): exact under A (contact until δ = 0) and C (until the "
                "force vanishes: the \"delayed recovery\"), and the published series of first (Kuwabara & Kono, "
                "Brilliantov et al.) and second order (Ramírez et al., Schwager & Pöschel); x in steps of 0.01.",
                "set xlabel 'x = β v^{1/5}'\nset ylabel 'e'\nset yrange [0:1.05]\n"
                "plot 'visco.dat' u 1:2 w l lw 2 t 'exact, A', '' u 1:3 w l lw 2 dt 2 t 'exact, C', "
                "'' u 1:4 w lp pi 10 pt 6 lw 2 t '1 - C_1 x', '' u 1:5 w lp pi 10 pt 8 lw 2 t '1 - C_1 x + C_2 x^2'");
  return 0;
}

int topic_viscoelastic(const topic_opts *o, report *r) {
  (void)o;
  impactfit_impact_workspace *ws = impactfit_impact_alloc();
  if (!ws)
    return cli_input_error("out of memory");
  impactfit_error err;
  impactfit_error_clear(&err);
  double cA[3], cC[3];
  int st = impactfit_visco_expansion(ws, impactfit_transition_A, cA, &err);
  if (!st)
    st = impactfit_visco_expansion(ws, impactfit_transition_C, cC, &err);
  /* Chatterjee et al.'s first-order coefficients at α = β = 3/2 and α = β = 1 (Kelvin–Voigt) */
  static const double ab[2][2] = {{1.5, 1.5}, {1.0, 1.0}};
  static const double loads[2] = {0.0, 0.1};
  double slope[2][2][2]; /* [case][load][A, C] */
  impactfit_cjb_coeffs co[2][2];
  for (int k = 0; k < 2 && !st; k++)
    for (int g = 0; g < 2 && !st; g++) {
      st = impactfit_cjb_coefficients(ab[k][0], ab[k][1], loads[g], &co[k][g], &err);
      for (int t = 0; t < 2 && !st; t++)
        st = impactfit_cjb_slope(ws, ab[k][0], ab[k][1], loads[g], t ? impactfit_transition_C : impactfit_transition_A,
                                 &slope[k][g][t], &err);
    }
  if (st) {
    impactfit_impact_free(ws);
    return cli_status_error(st, &err, "viscoelastic");
  }
  double c1 = impactfit_visco_c1(), c2 = impactfit_visco_c2();
  const char *how = "engine at rtol 1e-14, 16 values of x on [5e-4, 1e-2], (1 - e)/x fitted with 1, x, x^1.5, x^2, "
                    "x^2.5, x^3 (impactfit_visco_expansion)";
  report_md(r,
            "## Viscoelastic spheres and loaded contacts: the series measured\n\n"
            "Viscoelastic spheres (Kuwabara & Kono 1987, Brilliantov et al. 1996): F = ρ(δ^(3/2) + (3/2)A δ^(1/2) "
            "δ'), i.e. n = 3/2, m = 1/2, c = (3/2)Aρ. The Pöschel group writes e as a function of one scaled "
            "damping, x = β v^(1/5) with β = (3/2) A (ρ/mass)^(2/5); impactfit's scaled damping is ζ = "
            "(5/4)^(3/5) x exactly (formulas.h, impactfit_visco_x). The published coefficients of e = 1 − C₁x + "
            "C₂x² + …, against the expansion of the exact e the engine measures:\n\n"
            "| coefficient | published | measured, A | measured, C |\n|---|---|---|---|\n"
            "| C₁ (Brilliantov et al. 1996: Γ(3/5)√π/(2^(1/5)5^(2/5)Γ(21/10))) | %.10f | %.10f | %.10f |\n"
            "| C₂ (Ramírez et al. 1999: (3/5)C₁²; Chatterjee et al.'s toolbox: 0.7982665553) | %.10f | %.10f | "
            "%.10f |\n"
            "| coefficient of x^(5/2) (the end at zero force, Schwager & Pöschel 2008) | — | %.4f | %.4f |\n\n",
            c1, cA[0], cC[0], c2, cA[1], cC[1], cA[2], cC[2]);
  coeff_claim(r, "c1-A", "Brilliantov et al. 1996", "first-order coefficient C1 = 1.1534..., condition A", c1, cA[0],
              1e-8, how);
  coeff_claim(r, "c1-C", "Brilliantov et al. 1996", "first-order coefficient C1, condition C", c1, cC[0], 1e-8, how);
  coeff_claim(r, "c2-A", "Ramirez et al. 1999", "second-order coefficient C2 = (3/5) C1^2, condition A", c2, cA[1],
              1e-5, how);
  coeff_claim(r, "c2-C", "Schwager & Poschel 2008", "second-order coefficient C2, condition C (delayed recovery)", c2,
              cC[1], 1e-5, how);
  report_claim_f(r, "x52-A", "impactfit", "coefficient of x^(5/2) in e(x), condition A", NAN, cA[2], "", -1, 0.0, 1e-3,
                 how);
  report_claim_f(r, "x52-C", "impactfit", "coefficient of x^(5/2) in e(x), condition C (delayed recovery)", NAN, cC[2],
                 "", -1, 1e-3, 0.0, how);
  report_md(r,
            "Both published coefficients hold, under either end condition: the end at zero force (C) first "
            "changes e at order x^(5/2), by +%.3f x^(5/2) (more rebound; the x^(5/2) coefficient under A is %.1e, "
            "zero within the fit). Their truncated series are asymptotic: good to 0.01 in e only near e = 1 (topic "
            "formulas gives the range), and the second order overshoots badly at strong damping (figure).\n\n",
            cC[2], cA[2]);
  report_headline(r, "Brilliantov et al. 1996 C₁; Ramírez et al. 1999 C₂ = (3/5)C₁² (viscoelastic spheres)",
                  "exact expansion coefficients of e(x)",
                  "C₁ to %.1e and C₂ to %.1e under A, %.1e and %.1e under C; the end at zero force adds %+.3f "
                  "x^(5/2)",
                  fabs(cA[0] - c1) / c1, fabs(cA[1] - c2) / c2, fabs(cC[0] - c1) / c1, fabs(cC[1] - c2) / c2, cC[2]);
  report_md(r, "Chatterjee, James & Brogliato (2022) extend the first order to any n = α, m = β − 1 and a constant "
               "load (gravity and a compressive force, impactfit's `accel`): in their scaled variables u'' + γ(u^β)' "
               "+ u^α = g̃, 1 − e = β I(g̃) γ + O(γ²), with the linear approximation β I(g̃) ≈ C₀ + C₁ g̃. The exact "
               "slope lim (1 − e)/γ measured by the engine (impactfit_cjb_slope; under C with the load, e where the "
               "body crosses δ = 0) against their quadrature β I(g̃) and their linear C₀ + C₁ g̃:\n\n"
               "| α, β | g̃ | β I(g̃) | C₀ + C₁ g̃ | measured, A | measured, C |\n|---|---|---|---|---|---|\n");
  for (int k = 0; k < 2; k++)
    for (int g = 0; g < 2; g++) {
      const impactfit_cjb_coeffs *c = &co[k][g];
      double bI = ab[k][1] * c->I;
      report_md(r, "| %g, %g | %g | %.9f | %.9f | %.9f | %.9f |\n", ab[k][0], ab[k][1], loads[g], bI,
                c->C0 + loads[g] * c->C1, slope[k][g][0], slope[k][g][1]);
      char id[64], what[200];
      snprintf(id, sizeof id, "cjb-slope-%g-%g-g%g-A", ab[k][0], ab[k][1], loads[g]);
      for (char *q = id; *q; q++)
        if (*q == '.')
          *q = '_';
      snprintf(what, sizeof what, "first-order coefficient beta I(g~) at alpha = %g, beta = %g, g~ = %g, condition A",
               ab[k][0], ab[k][1], loads[g]);
      coeff_claim(r, id, "Chatterjee, James & Brogliato 2022", what, bI, slope[k][g][0], 1e-6,
                  "engine at rtol 1e-14, 10 values of gamma on [1e-4, 1e-2], extrapolated (impactfit_cjb_slope)");
    }
  report_md(r,
            "\nTheir β I(g̃) is the exact first-order coefficient under both end conditions (to the measurement's "
            "1e-7); the linear C₀ + C₁ g̃ of their first-order formula is its tangent at g̃ = 0 and falls short by "
            "%.1f %% at g̃ = 0.1 (α = β = 3/2).\n\n",
            100.0 * (1.0 - (co[0][1].C0 + 0.1 * co[0][1].C1) / (ab[0][1] * co[0][1].I)));
  int rc = figure(r, ws);
  impactfit_impact_free(ws);
  return rc;
}
