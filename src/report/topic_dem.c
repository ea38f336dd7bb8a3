/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Topic dem: what the DEM codes really give when e is typed, version by version (the registry of
 * include/impactfit/codes.h), the damping closed forms of include/impactfit/dem.h when the contact
 * ends at δ = 0 (tensile force allowed) or with the force clamped at zero, and the exact prefactors
 * (generated header dem_damping.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tools.h"
#include "dem_headers.h"
#include "impactfit/generated/dem_damping.h"
#include "impactfit/impactfit.h"
#include "report.h"

/* The registry: every restitution-taking model of every code and version, each clamp setting. */
static int registry_table(report *r, size_t points) {
  report_md(r,
            "## DEM codes: what typing e really gives, code by code and version by version\n\n"
            "The registry of include/impactfit/codes.h holds, per code, version and model, the normal force "
            "the code's source computes, F = K δ^n + C δ^m δ', and whether the force is clamped at zero (C) or "
            "may pull at the end (A). For a model that takes the restitution e, the real e does not depend on "
            "the speed, sizes or material; here it is computed for %zu values of e on [0.01, 0.99] (values the "
            "code refuses are left out). The rows of LAMMPS 29Sep2021, LIGGGHTS 3.8.0 and YADE 2023.02a are "
            "checked against the real codes by tests/dem (the topic dem-codes below); the others are known from "
            "their sources only.\n\n"
            "| code | versions | model | contact end | max \\|e_real − e\\| | at e | mean "
            "|\n|---|---|---|---|---|---|---|\n",
            points);
  impactfit_error err;
  impactfit_error_clear(&err);
  double yade_to_09 = NAN, yade_at = NAN;
  for (size_t i = 0; i < impactfit_code_model_count(); i++) {
    const impactfit_code_model *md = impactfit_code_model_at(i);
    if (!md->takes_e || md->solver == IMPACTFIT_CODE_SOLVE_MEAN)
      continue;
    int clamps[2];
    int ncl = impactfit_code_clamps(md, clamps);
    for (int t = 0; t < ncl; t++) {
      int clamp = clamps[t];
      impactfit_code_audit_result a;
      int st = impactfit_code_audit(md, clamp, 0.01, 0.99, points, &a, &err);
      if (st)
        return cli_status_error(st, &err, "dem");
      char end[96];
      if (md->clamp_switch)
        snprintf(end, sizeof end, "%s (`%s` %s)", clamp ? "C" : "A", md->clamp_switch, clamp ? "on" : "off");
      else
        snprintf(end, sizeof end, "%s (always)", clamp ? "C" : "A");
      report_md(r, "| %s | %s | %s%s%s | %s | %.3g | %.3f | %.3g |\n", md->code->name, md->versions, md->model,
                *md->option ? " " : "", md->option, end, a.e_max_error, a.e_at_max, a.e_mean_error);
      claim c;
      memset(&c, 0, sizeof c);
      /* ids stay below inih's 50 characters of a section name: the code, the first year of the versions,
       * the model without "granular " */
      const char *mname = strncmp(md->model, "granular ", 9) ? md->model : md->model + 9;
      /* the first year of a LAMMPS date, the major version of a dotted one */
      long first = md->version_min / (md->code->version_key == impactfit_code_version_date ? 10000 : 1000000);
      snprintf(c.id, sizeof c.id, "%s%ld-%s%s%s-%s", md->code->name, first, mname, *md->option ? "-" : "", md->option,
               clamp ? "C" : "A");
      for (char *q = c.id; *q; q++)
        if (*q == ' ' || *q == '/')
          *q = '_';
      snprintf(c.source, sizeof c.source, "%s %s", md->code->name, md->versions);
      snprintf(c.what, sizeof c.what, "%s %s%s%s, end %s: max |e_real - e| when e is typed (the code intends 0)",
               md->code->name, md->model, *md->option ? " damping " : "", md->option, clamp ? "C" : "A");
      c.claimed = 0.0;
      c.measured = a.e_max_error;
      c.verdict = a.e_max_error <= 1e-6;
      snprintf(c.how, sizeof c.how, "%zu values of e on [0.01, 0.99] (%zu refused by the code); registry of codes.h",
               points, a.refused);
      c.drift_tol = 1e-6;
      c.drift_abs = a.e_max_error < 1e-11 ? 1e-11 : 0.0;
      c.kind = CLAIM_CODE_BEHAVIOUR;
      report_claim(r, &c);
      if (!strcmp(c.id, "yade2023-mindlin-en-C")) { /* the summary: YADE up to e = 0.9 */
        impactfit_code_audit_result a9;
        if (impactfit_code_audit(md, clamp, 0.01, 0.9, 90, &a9, &err) == 0)
          yade_to_09 = a9.e_max_error;
        yade_at = a.e_at_max;
      }
    }
  }
  double lg_a = report_claim_value(r, "liggghts3-hertz-A");
  char lg[64];
  if (lg_a < 1e-12)
    snprintf(lg, sizeof lg, "exact without limitForce");
  else
    snprintf(lg, sizeof lg, "up to %.2g without limitForce", lg_a);
  report_headline(r, "DEM codes: typing e (the codes' force laws, checked in the real codes)", "gives e",
                  "LIGGGHTS 3.8.0 hertz: %s, up to %.2f too much rebound with it; LAMMPS 29Sep2021 tsuji: up to "
                  "%.2f (%.2f with limit_damping); YADE 2023.02a en: %.1g up to e = 0.9, %.2g at %.2f",
                  lg, report_claim_value(r, "liggghts3-hertz-C"),
                  report_claim_value(r, "lammps2021-hertz_material-tsuji-A"),
                  report_claim_value(r, "lammps2021-hertz_material-tsuji-C"), yade_to_09,
                  report_claim_value(r, "yade2023-mindlin-en-C"), yade_at);
  report_md(r, "\nFindings: LAMMPS 29Sep2021 `damping tsuji` applies Tsuji's polynomial without the √2 of "
               "later versions, so typing e gives up to 0.14 too much rebound (0.26 with `limit_damping`); "
               "YADE 2023.02a converts `en` with Thornton et al.'s fit (B6), good to 1e-4 in e up to 0.9 but "
               "0.011 short at e = 0.99, and always clamps the force; the β formula (LIGGGHTS, Chrono, LAMMPS "
               "`coeff_restitution`) is exact only when the contact ends at δ = 0. `impactfit dem` prints the "
               "input that gives the asked e in each of them.\n\n");
  return 0;
}

int topic_dem(const topic_opts *o, report *r) {
  size_t points = o->check ? 50 : o->quick ? 50 : 99;
  int rc0 = registry_table(r, points);
  if (rc0)
    return rc0;
  impactfit_impact_workspace *ws = impactfit_impact_alloc();
  if (!ws)
    return cli_input_error("out of memory");
  const impactfit_transition *trs[2] = {impactfit_transition_A, impactfit_transition_C};
  const char *trname[2] = {"ends at δ = 0, tensile force allowed (A)", "force clamped at zero (C)"};
  char how[200];
  snprintf(how, sizeof how,
           "%zu values of e on [0.01, 0.99]; impacts simulated by the engine (scale-invariant: "
           "no dependence on k, mass, v)",
           points);
  report_md(r,
            "### The damping closed forms\n\n"
            "The closed forms of include/impactfit/dem.h (with the codes and versions that use them), "
            "are simulated on %s. A DEM code either ends the contact at δ = 0 and lets the damper "
            "pull near the end (condition A), or clamps the normal force at zero (LIGGGHTS "
            "`limitForce on`, LAMMPS `limit_damping`, Chrono always), which for a free impact is "
            "condition C.\n\n| formula | codes | contact end | max \\|e_out − e\\| | at e | mean |\n"
            "|---|---|---|---|---|---|\n",
            how);
  FILE *dat = report_data(r, "dem.dat");
  if (dat)
    fprintf(dat, "# e then e_out for each formula under A and C\n");
  impactfit_error err;
  impactfit_error_clear(&err);
  int rc = 0;
  for (size_t i = 0; i < impactfit_dem_formula_count() && !rc; i++)
    for (int t = 0; t < 2 && !rc; t++) {
      const impactfit_dem_formula *f = impactfit_dem_formula_at(i);
      impactfit_dem_audit_row row;
      int st = impactfit_dem_audit(ws, f, trs[t], 0.01, 0.99, points, &row, &err);
      if (st) {
        rc = cli_status_error(st, &err, "dem");
        break;
      }
      report_md(r, "| %s | %s | %s | %.3g | %.3f | %.3g |\n", f->name, f->codes, trname[t], row.e_max, row.e_at_max,
                row.e_mean);
      claim c;
      memset(&c, 0, sizeof c);
      snprintf(c.id, sizeof c.id, "%s-%s", f->name, trs[t]->name);
      snprintf(c.source, sizeof c.source, "%s", f->codes);
      snprintf(c.what, sizeof c.what, "%s, contact %s: max |e_out - e| (the code intends 0)", f->name,
               t == 0 ? "ending at delta = 0" : "with the force clamped at zero");
      c.claimed = 0.0;
      c.measured = row.e_max;
      c.verdict = row.e_max <= 1e-6;
      snprintf(c.how, sizeof c.how, "%s", how);
      /* figures at rounding level (exact cases) may change in their last digits, but not
       * grow beyond 1e-11 */
      c.drift_tol = 1e-6;
      c.drift_abs = row.e_max < 1e-11 ? 1e-11 : 0.0;
      c.kind = CLAIM_CODE_BEHAVIOUR;
      report_claim(r, &c);
    }
  if (rc) {
    if (dat)
      fclose(dat);
    impactfit_impact_free(ws);
    return rc;
  }
  /* curves e_out(e) for the figure */
  if (dat) {
    for (int k = 1; k <= 99; k++) {
      double e = 0.01 * k;
      fprintf(dat, "%.3f", e);
      for (size_t i = 0; i < impactfit_dem_formula_count(); i++)
        for (int t = 0; t < 2; t++) {
          const impactfit_dem_formula *f = impactfit_dem_formula_at(i);
          double z;
          impactfit_dem_zeta(f, e, &z, NULL);
          impactfit_impact_params p = impactfit_impact_scaled_params(f->n, f->m, z);
          p.transition = trs[t];
          p.locate_extrema = 0;
          impactfit_impact_result res;
          fprintf(dat, " %.10f", impactfit_impact_solve(ws, &p, &res, NULL) ? 0.0 : res.e_out);
        }
      fputc('\n', dat);
    }
    fclose(dat);
    report_figure(r, "dem",
                  "Restitution of a simulated impact against the requested e for the DEM damping formulas, "
                  "with the contact ending at δ = 0 (A, solid) and with the force clamped at zero (C, dashed); "
                  "e in steps of 0.01, engine tolerance 1e-13. hertz-beta and linear-log give the same restitution "
                  "(their curves coincide: the markers tell them apart), and under A both lie on e_out = e.",
                  "set xlabel 'requested e'\nset ylabel 'e_{out} of a simulated impact'\n"
                  "plot x w lines lc 'black' lw 1.5 dt 3 t 'e_{out} = e', "
                  "'dem.dat' u 1:2 w l lw 2 lc 1 t 'hertz-beta A', 'dem.dat' u 1:3 w l lw 2 lc 1 dt 2 t 'hertz-beta "
                  "C', "
                  "'dem.dat' u 1:4 w l lw 2 lc 2 t 'tsuji A', 'dem.dat' u 1:5 w l lw 2 lc 2 dt 2 t 'tsuji C', "
                  "'dem.dat' u 1:6 w l lw 2 lc 3 t 'flores A = C', "
                  "'dem.dat' u 1:8 w l lw 2 lc 4 t 'linear-log A', 'dem.dat' u 1:9 w l lw 2 lc 4 dt 2 t 'linear-log "
                  "C'");
  }
  /* the exact prefactors of the committed generated header, checked by simulation */
  unsigned long long s = 777;
  double worst[4] = {0, 0, 0, 0};
  int M = o->check ? 40 : 100;
  for (int q = 0; q < M; q++) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    double e = 0.01 + 0.98 * (double)(s >> 11) / 9007199254740992.0;
    double a[4] = {impactfit_dem_hertz_prefactor_tensile(e), impactfit_dem_hertz_prefactor_clamped(e),
                   impactfit_dem_linear_prefactor_tensile(e), impactfit_dem_linear_prefactor_clamped(e)};
    for (int c = 0; c < 4; c++) {
      double n = c < 2 ? 1.5 : 1.0, m = c < 2 ? 0.25 : 0.0;
      impactfit_impact_params p = impactfit_impact_scaled_params(n, m, a[c] * sqrt(0.5 * (n + 1.0)));
      p.transition = (c % 2) ? impactfit_transition_C : impactfit_transition_A;
      p.locate_extrema = 0;
      impactfit_impact_result res;
      double d = impactfit_impact_solve(ws, &p, &res, NULL) ? 1.0 : fabs(res.e_out - e);
      if (d > worst[c])
        worst[c] = d;
    }
  }
  const char *names[4] = {"Hertz d^(1/4), tensile end", "Hertz d^(1/4), force clamped", "linear, tensile end",
                          "linear, force clamped"};
  report_md(r,
            "\nThe exact prefactor a(e) = c/√(mass k) that gives e_out = e, in closed form in "
            "include/impactfit/generated/dem_damping.h (checked here on %d random e in [0.01, 0.99] by "
            "simulation):\n\n| case | max \\|e_out − e\\| |\n|---|---|\n",
            M);
  for (int c = 0; c < 4; c++) {
    report_md(r, "| %s | %.3g |\n", names[c], worst[c]);
    char what[160];
    snprintf(what, sizeof what, "dem_damping.h (%s) reproduces e to 1e-8", names[c]);
    report_target(r, what, worst[c] <= 1e-8, "max |e_out - e| = %.3g on %d random e", worst[c], M);
  }
  report_md(r, "\nFinding: the β formula of LIGGGHTS, Chrono and later LAMMPS (c = −√5 β √(mass k) with a "
               "δ^(1/4) damper) is exact when the contact ends at δ = 0 with attraction allowed, and gives too "
               "high a restitution when the force is clamped at zero (as Chrono always does); the same holds for "
               "the linear form of MFiX and later LAMMPS hooke. Why: both elements have m = (n − 1)/2, and with "
               "y = δ^((n+1)/2) and ds = δ^((n−1)/2) dt the impact becomes a Kelvin–Voigt oscillator with "
               "damping ratio ξ = a/√(2(n+1)) (include/impactfit/inverse.h); the β formula is that "
               "oscillator's exact inverse when the contact ends at zero displacement, not at zero force.\n\n");
  if (!o->quick && !o->check) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/include/impactfit/generated", o->srcdir);
    if ((rc = dem_write_headers(dir, o->log))) {
      impactfit_impact_free(ws);
      return rc;
    }
  }
  impactfit_impact_free(ws);
  return 0;
}
