/* impactfit dem-audit: the restitution DEM codes' damping formulas really give. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "dem_cli.h"
#include "impactfit/impactfit.h"

static const char *help_text =
    "usage: impactfit dem-audit [--json] [--points N] [--write-header DIR]\n\n"
    "For each DEM damping closed form (see include/impactfit/dem.h: hertz-beta of LIGGGHTS, Chrono,\n"
    "YADE and LAMMPS coeff_restitution; LAMMPS tsuji; Chrono's Flores; MFiX's linear form), the\n"
    "restitution a simulated impact really gives for requested e in [0.01, 0.99], when the contact\n"
    "ends at delta = 0 with a tensile force allowed (condition A) and when the force is clamped at\n"
    "zero (condition C), and the exact prefactor that gives e_out = e in each case.\n\n"
    "  --points N          grid of e on [0.01, 0.99] (default 99)\n"
    "  --write-header DIR  write DIR/dem_damping.h (the exact prefactors, closed forms)\n"
    "  --json              one JSON object per formula and condition, then one per sample e\n\n"
    "Units: every value printed is dimensionless (restitutions, prefactors, their errors).\n";

int impactfit_cmd_dem_audit(int argc, char **argv) {
  int json = 0, help = 0, points = 99;
  const char *dir = NULL;
  cli_opt opts[] = {
      {"json", OPT_FLAG, &json, 0},
      {"points", OPT_INT, &points, 0},
      {"write-header", OPT_STRING, &dir, 0},
  };
  int rc = cli_parse(argc, argv, 2, opts, sizeof opts / sizeof opts[0], NULL, 0, NULL, &help);
  if (rc)
    return rc;
  if (help) {
    fputs(help_text, stdout);
    return CLI_OK;
  }
  if (points < 2 || points > 100000)
    return cli_input_error("--points: expected 2..100000, got %d", points);
  if (dir && (rc = dem_write_headers(dir, stderr)))
    return rc;
  impactfit_impact_workspace *ws = impactfit_impact_alloc();
  impactfit_inverse_workspace *iv = impactfit_inverse_alloc();
  if (!ws || !iv) {
    impactfit_impact_free(ws);
    impactfit_inverse_free(iv);
    return cli_input_error("out of memory");
  }
  const impactfit_transition *trs[2] = {impactfit_transition_A, impactfit_transition_C};
  const char *trname[2] = {"tensile end (A)", "force clamped (C)"};
  impactfit_error err;
  impactfit_error_clear(&err);
  if (!json)
    printf("%-11s %-18s %14s %8s %12s %8s\n", "formula", "contact end", "max|e_out-e|", "at e", "mean", "no sep.");
  for (size_t i = 0; i < impactfit_dem_formula_count() && !rc; i++)
    for (int t = 0; t < 2 && !rc; t++) {
      const impactfit_dem_formula *f = impactfit_dem_formula_at(i);
      impactfit_dem_audit_row row;
      int st = impactfit_dem_audit(ws, f, trs[t], 0.01, 0.99, (size_t)points, &row, &err);
      if (st) {
        rc = cli_status_error(st, &err, "dem-audit");
        break;
      }
      if (json) {
        cli_json j;
        cli_json_begin(&j, stdout);
        cli_json_str(&j, "formula", f->name);
        cli_json_str(&j, "codes", f->codes);
        cli_json_str(&j, "transition", trs[t]->name);
        cli_json_num(&j, "e_max_error", row.e_max);
        cli_json_num(&j, "e_at_max", row.e_at_max);
        cli_json_num(&j, "e_mean_error", row.e_mean);
        cli_json_int(&j, "no_separation", (long)row.failures);
        cli_json_int(&j, "points", (long)row.points);
        cli_json_end(&j);
      } else {
        printf("%-11s %-18s %14.4g %8.3f %12.4g %8zu\n", f->name, trname[t], row.e_max, row.e_at_max, row.e_mean,
               row.failures);
      }
    }
  /* exact prefactors at sample e: a = c/sqrt(mass k) for the Hertz delta^(1/4) and linear dampers */
  if (!rc && !json)
    printf("\n%6s %12s %12s %12s %12s %12s %12s\n", "e", "hertz-beta", "tsuji", "exact A", "exact C",
           "linear A", "linear C");
  double es[] = {0.01, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99};
  for (size_t k = 0; k < sizeof es / sizeof es[0] && !rc; k++) {
    double e = es[k], ex[4];
    const impactfit_dem_formula *hb = impactfit_dem_formula_from_name("hertz-beta");
    const impactfit_dem_formula *ts = impactfit_dem_formula_from_name("tsuji");
    const impactfit_dem_formula *li = impactfit_dem_formula_from_name("linear-log");
    for (int c = 0; c < 4 && !rc; c++) {
      impactfit_inverse_params p = impactfit_inverse_default_params();
      p.n = (c < 2) ? 1.5 : 1.0;
      p.m = (c < 2) ? 0.25 : 0.0;
      p.transition = trs[c % 2];
      impactfit_inverse_result r;
      int st = impactfit_inverse_solve(iv, &p, e, 0.0, &r, &err);
      if (st) {
        rc = cli_status_error(st, &err, "dem-audit");
        break;
      }
      ex[c] = impactfit_dem_prefactor_from_zeta(c < 2 ? hb : li, r.zeta);
    }
    if (rc)
      break;
    if (json) {
      cli_json j;
      cli_json_begin(&j, stdout);
      cli_json_num(&j, "e", e);
      cli_json_num(&j, "hertz_beta", hb->prefactor(e));
      cli_json_num(&j, "tsuji", ts->prefactor(e));
      cli_json_num(&j, "hertz_exact_tensile", ex[0]);
      cli_json_num(&j, "hertz_exact_clamped", ex[1]);
      cli_json_num(&j, "linear_exact_tensile", ex[2]);
      cli_json_num(&j, "linear_exact_clamped", ex[3]);
      cli_json_end(&j);
    } else {
      printf("%6.2f %12.8f %12.8f %12.8f %12.8f %12.8f %12.8f\n", e, hb->prefactor(e), ts->prefactor(e), ex[0],
             ex[1], ex[2], ex[3]);
    }
  }
  impactfit_impact_free(ws);
  impactfit_inverse_free(iv);
  return rc;
}
