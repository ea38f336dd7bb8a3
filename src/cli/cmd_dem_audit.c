/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit dem-audit: the restitution real DEM codes give when e is typed (demcodes.h), and the exact prefactors. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "help_texts.h" /* generated from docs/cli/COMMAND.txt */
#include "dem_headers.h"
#include "impactfit/impactfit.h"

static const char *const help_text = cli_help_dem_audit; /* docs/cli/dem-audit.txt */

/* the clamp settings of a model: its switch off and on, or its fixed behaviour */
static int clamp_settings(const impactfit_dem_model *md, int out[2]) {
  if (md->clamp_switch) {
    out[0] = 0;
    out[1] = 1;
    return 2;
  }
  out[0] = md->clamp_default;
  return 1;
}

static const char *end_text(const impactfit_dem_model *md, int clamp, char *buf, size_t size) {
  if (md->clamp_switch)
    snprintf(buf, size, "%s (%s %s)", clamp ? "C" : "A", md->clamp_switch, clamp ? "on" : "off");
  else
    snprintf(buf, size, "%s (always)", clamp ? "C" : "A");
  return buf;
}

static void json_model(cli_json *j, const impactfit_dem_model *md, int clamp) {
  char end[128];
  cli_json_str(j, "code", md->code);
  cli_json_str(j, "versions", md->versions);
  cli_json_str(j, "model", md->model);
  cli_json_str(j, "damping", md->damping);
  cli_json_str(j, "end", clamp ? "C" : "A");
  cli_json_str(j, "switch", end_text(md, clamp, end, sizeof end));
  cli_json_int(j, "run_here", md->run_here);
}

/* --e LIST: the real e of each listed e for one model and clamp setting. */
static int print_listed(const impactfit_dem_model *md, int clamp, const double *es, size_t nes, int json) {
  impactfit_dem_contact ref = impactfit_dem_reference_contact();
  char end[128];
  if (!json)
    printf("%s %s%s%s, end %s [%s]%s:\n", md->code, md->model, *md->damping ? " damping " : "", md->damping,
           end_text(md, clamp, end, sizeof end), md->versions, md->run_here ? "" : " (formula only)");
  for (size_t k = 0; k < nes; k++) {
    double er = NAN;
    impactfit_error e2;
    int st = impactfit_dem_forward(md, &ref, clamp, es[k], 1.0, &er, &e2);
    if (st && !impactfit_status_is_input_error(st))
      return cli_status_error(st, &e2, "dem-audit");
    if (json) {
      cli_json j;
      cli_json_begin(&j, stdout);
      json_model(&j, md, clamp);
      cli_json_num(&j, "e", es[k]);
      cli_json_num(&j, "e_real", st ? NAN : er);
      cli_json_end(&j);
    } else if (st) {
      printf("  e = %-10.6g  refused by the code\n", es[k]);
    } else {
      printf("  e = %-10.6g  e_real = %.8f\n", es[k], er);
    }
  }
  return 0;
}

/* The audit of one model and clamp setting on `points` values of e in [0.01, 0.99]. */
static int print_audited(const impactfit_dem_model *md, int clamp, int points, int json) {
  impactfit_error err;
  impactfit_error_clear(&err);
  impactfit_dem_audit_result a;
  int st = impactfit_dem_model_audit(md, clamp, 0.01, 0.99, (size_t)points, &a, &err);
  if (st)
    return cli_status_error(st, &err, "dem-audit");
  char end[128];
  if (json) {
    cli_json j;
    cli_json_begin(&j, stdout);
    json_model(&j, md, clamp);
    cli_json_num(&j, "e_max_error", a.e_max_error);
    cli_json_num(&j, "e_at_max", a.e_at_max);
    cli_json_num(&j, "e_mean_error", a.e_mean_error);
    cli_json_int(&j, "points", (long)a.points);
    cli_json_int(&j, "refused", (long)a.refused);
    cli_json_end(&j);
  } else {
    printf("%-9s %-26s %-18s %-26s %12.4g %6.3f %10.4g  %s%s\n", md->code, md->model, md->damping,
           end_text(md, clamp, end, sizeof end), a.e_max_error, a.e_at_max, a.e_mean_error, md->versions,
           a.refused ? " (refuses e <= 0.05)" : "");
  }
  return 0;
}

/* The exact prefactors a = c/sqrt(mass k) at sample e beside the published formulas. */
static int print_prefactors(int json) {
  impactfit_inverse_workspace *iv = impactfit_inverse_alloc();
  if (!iv)
    return cli_input_error("out of memory");
  if (!json)
    printf("\nexact prefactors a = c/sqrt(mass k); hertz-beta: LIGGGHTS/Chrono; sqrt2-tsuji: LAMMPS 2Sep2026 tsuji\n"
           "(29Sep2021 types the polynomial without sqrt 2: a / sqrt 2)\n%6s %12s %12s %12s %12s %12s %12s\n",
           "e", "hertz-beta", "sqrt2-tsuji", "exact A", "exact C", "linear A", "linear C");
  static const double es[] = {0.01, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99};
  const impactfit_dem_formula *hb = impactfit_dem_formula_from_name("hertz-beta");
  const impactfit_dem_formula *ts = impactfit_dem_formula_from_name("tsuji");
  int rc = 0;
  for (size_t k = 0; k < sizeof es / sizeof es[0] && !rc; k++) {
    double e = es[k], ex[4];
    impactfit_error err;
    impactfit_error_clear(&err);
    int st = impactfit_dem_exact_prefactors(iv, e, ex, &err);
    if (st) {
      rc = cli_status_error(st, &err, "dem-audit");
    } else if (json) {
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
      printf("%6.2f %12.8f %12.8f %12.8f %12.8f %12.8f %12.8f\n", e, hb->prefactor(e), ts->prefactor(e), ex[0], ex[1],
             ex[2], ex[3]);
    }
  }
  impactfit_inverse_free(iv);
  return rc;
}

int impactfit_cmd_dem_audit(int argc, char **argv) {
  int json = 0, help = 0, points = 99;
  const char *dir = NULL, *elist = NULL, *code = NULL;
  cli_spec opts[] = {
      CLI_FLAG("json", &json),       CLI_INT("points", &points, 2, 100000, 0u, "--points: expected 2..100000, got %d"),
      CLI_STR("write-header", &dir), CLI_STR("e", &elist),
      CLI_STR("code", &code),
  };
  int rc = cli_options(argc, argv, opts, CLI_COUNT(opts), help_text, &help, NULL, 0, NULL);
  if (rc || help)
    return rc;
  if (code && !impactfit_dem_default_version(code))
    return cli_input_error("dem-audit: unknown DEM code '%s' (known: lammps, liggghts, yade, chrono)", code);
  double *es = NULL;
  size_t nes = 0;
  if (elist && (rc = cli_parse_grid("--e", elist, &es, &nes)))
    return rc;
  for (size_t i = 0; i < nes && !rc; i++)
    if (!(es[i] > 0.0 && es[i] <= 1.0))
      rc = cli_input_error("--e: the coefficient of restitution must be in (0, 1], got %.17g", es[i]);
  if (!rc && dir)
    rc = dem_write_headers(dir, stderr);
  if (!rc && !json && !elist)
    printf("%-9s %-26s %-18s %-26s %12s %6s %10s  %s\n", "code", "model", "damping", "contact end", "max|e_real-e|",
           "at e", "mean", "versions");
  for (size_t i = 0; i < impactfit_dem_model_count() && !rc; i++) {
    const impactfit_dem_model *md = impactfit_dem_model_at(i);
    if (!md->takes_e || (code && strcmp(code, md->code)))
      continue;
    int cl[2], ncl = clamp_settings(md, cl);
    for (int t = 0; t < ncl && !rc; t++)
      rc = elist ? print_listed(md, cl[t], es, nes, json) : print_audited(md, cl[t], points, json);
  }
  free(es);
  if (rc || elist)
    return rc;
  return print_prefactors(json);
}
