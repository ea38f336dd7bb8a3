/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Topic hc-formulas: the published ε(e) formulas for Hunt–Crossley (docs/MODEL.md §5) against the
 * exact relation, and their restitution in a simulated impact (library: formulas.h, hc.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tools.h"
#include "impactfit/impactfit.h"
#include "progress.h"
#include "report.h"

int topic_hc_formulas(const topic_opts *o, report *r) {
  impactfit_audit_params ap = impactfit_audit_default_params();
  if (o->quick || o->check)
    ap.points = 199; /* steps of 0.005 */
  impactfit_impact_workspace *ws = impactfit_impact_alloc();
  if (!ws)
    return cli_input_error("out of memory");
  size_t nf = impactfit_formula_count();
  impactfit_audit_row rows[16];
  impactfit_error err;
  impactfit_error_clear(&err);
  char how[200];
  snprintf(how, sizeof how,
           "%zu values of e equally spaced on [%g, %g]; exact eps from the relation; "
           "e_out by the engine (m = n = %g, condition C)",
           ap.points, ap.e_min, ap.e_max, ap.n);
  for (size_t i = 0; i < nf && i < 16; i++) {
    int st = impactfit_formula_audit(ws, impactfit_formula_at(i), &ap, &rows[i], &err);
    cli_progress_tick(o->progress); /* keeps the elapsed time of the progress line ticking */
    if (st) {
      impactfit_impact_free(ws);
      return cli_status_error(st, &err, "hc-formulas");
    }
  }
  report_md(r,
            "## Hunt–Crossley damping: the published ε(e) formulas\n\n"
            "For f = k δ^n + λ δ^n δ' the damping ratio ε = λv/k that gives restitution e follows "
            "exactly from (1 + ε)/(1 − eε) = exp(ε(1 + e)), for every n: the phase-plane first integral of the "
            "impact (Marhefka & Orin 1999; Stronge 2000), written as a relation between e and d = eε by Gonthier "
            "et al. 2004 and in closed form with the Lambert W function by Carvalho & Martins 2019 (row `exact`; "
            "the row `gonthier` is the closed approximation (1 − e²)/e the reviews attribute to Gonthier et al.). "
            "The published closed forms against it, on %s:\n\n"
            "| formula | ε(e) | max rel. error of ε | at e | mean | max \\|e_out − e\\| | at e |\n"
            "|---|---|---|---|---|---|---|\n",
            how);
  for (size_t i = 0; i < nf && i < 16; i++) {
    const impactfit_audit_row *w = &rows[i];
    report_md(r, "| %s | %s | %.4g %% | %.3f | %.4g %% | %.3g | %.3f |\n", w->formula->label, w->formula->expression,
              100 * w->eps_max, w->eps_e_at_max, 100 * w->eps_mean, w->e_max, w->e_e_at_max);
    char id[64], what[256];
    snprintf(id, sizeof id, "%s-eps-max", w->formula->name);
    snprintf(what, sizeof what, "%s: max relative error of eps(e) on [0.01, 1]", w->formula->label);
    double claimed = NAN;
    const char *source = "impactfit";
    if (w->formula == impactfit_formula_ramaswamy_humbert) {
      claimed = 0.062;
      source = "Ramaswamy & Humbert, Sec. 3.2";
    } else if (w->formula == impactfit_formula_hu_guo) {
      claimed = 47.768;
      source = "Ramaswamy & Humbert, Sec. 3.2 (on Hu-Guo)";
    } else if (w->formula == impactfit_formula_flores) {
      claimed = 57.617;
      source = "Ramaswamy & Humbert, Sec. 3.2 (on Flores et al.)";
    }
    report_claim_f(r, id, source, what, claimed, 100 * w->eps_max, "%", REPORT_AT_MOST, 0.0, 0.0, how);
    snprintf(id, sizeof id, "%s-eout-max", w->formula->name);
    snprintf(what, sizeof what, "%s: max |e_out - e| of a simulated impact on [0.01, 1]", w->formula->label);
    if (w->formula == impactfit_formula_exact) /* rounding level: its drift is not a finding */
      report_target(r, "exact eps(e) reproduces e in a simulation to 1e-12", w->e_max <= 1e-12,
                    "max |e_out - e| = %.3g on %zu points", w->e_max, ap.points);
    else
      report_claim_f(r, id, "impactfit", what, NAN, w->e_max, "", REPORT_AT_MOST, 0.0, 0.0, how);
  }
  report_md(r, "\n");
  report_headline(r, "Hu & Guo; Flores et al. (as quoted by Ramaswamy & Humbert)", "47.768 %; 57.617 %",
                  "%.3g %%; %.3g %%", report_claim_value(r, "hu-guo-eps-max"), report_claim_value(r, "flores-eps-max"));
  /* curves for the figures */
  FILE *f = report_data(r, "hc_formulas.dat");
  if (f) {
    fprintf(f, "# e");
    for (size_t i = 0; i < nf; i++)
      fprintf(f, " relerr_%s_percent", impactfit_formula_at(i)->name);
    fputc('\n', f);
    for (int k = 0; k <= 495; k++) {
      double e = 0.01 + 0.002 * k, ex;
      impactfit_hc_eps(e, &ex, NULL);
      fprintf(f, "%.6f", e);
      for (size_t i = 0; i < nf; i++) {
        double v;
        impactfit_formula_eps(impactfit_formula_at(i), e, &v, NULL);
        fprintf(f, " %.6e", 100.0 * fabs(v - ex) / ex);
      }
      fputc('\n', f);
    }
    fclose(f);
    char script[4096];
    int len = snprintf(script, sizeof script,
                       "set logscale y\nset format y '10^{%%L}'\nset xlabel 'e'\n"
                       "set ylabel '|relative error| of ε(e), %%'\nplot");
    int first = 1;
    for (size_t i = 0; i < nf; i++)
      if (impactfit_formula_at(i) != impactfit_formula_exact) {
        len += snprintf(script + len, sizeof script - len, "%s 'hc_formulas.dat' u 1:%zu w l lw 2 t '%s'",
                        first ? "" : ",", i + 2, impactfit_formula_at(i)->label);
        first = 0;
      }
    report_figure(r, "hc_formulas",
                  "Relative error of the published damping ratios ε(e) against the exact Hunt–Crossley "
                  "relation, in % (as the papers state it), for 0.01 ≤ e ≤ 1 (steps of 0.002).",
                  script);
  }
  impactfit_impact_free(ws);
  return 0;
}
