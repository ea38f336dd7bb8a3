/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit dem-audit: the restitution real DEM codes give when e is typed (codes.h), and the exact prefactors. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "help_texts.h" /* generated from docs/cli/COMMAND.txt */
#include "dem_headers.h"
#include "impactfit/impactfit.h"

static const char *const help_text = cli_help_dem_audit; /* docs/cli/dem-audit.txt */

static const char *end_text(const impactfit_code_model *md, int clamp, char *buf, size_t size) {
  if (md->clamp_switch)
    snprintf(buf, size, "%s (%s %s)", clamp ? "C" : "A", md->clamp_switch, clamp ? "on" : "off");
  else
    snprintf(buf, size, "%s (always)", clamp ? "C" : "A");
  return buf;
}

/* The JSON objects: the model (M), one clamp setting of it and a listed e (R), and the audit (A). */
typedef struct row {
  const char *code, *end;
  char sw[128];
  double e, e_real;
  int run_here;
} row;
enum { M, R, A };
#define OF_M(f) CLI_FIELD_OF(M, #f, impactfit_code_model, f)
#define OF_R(key, f) CLI_FIELD_OF(R, key, row, f)
#define OF_A(f) CLI_FIELD_OF(A, #f, impactfit_code_audit_result, f)
static const cli_field model_fields[] = {OF_R("code", code),
                                         OF_M(versions),
                                         OF_M(model),
                                         CLI_FIELD_OF(M, "damping", impactfit_code_model, option),
                                         OF_R("end", end),
                                         OF_R("switch", sw),
                                         OF_R("run_here", run_here)};
static const cli_field listed_fields[] = {OF_R("e", e), OF_R("e_real", e_real)};
static const cli_field audited_fields[] = {OF_A(e_max_error), OF_A(e_at_max), OF_A(e_mean_error), OF_A(points),
                                           OF_A(refused)};

/* One object: the model's members, then n more from f. */
static void print_json(const impactfit_code_model *md, const row *r, const impactfit_code_audit_result *a,
                       const cli_field *f, size_t n) {
  const void *objs[] = {md, r, a};
  cli_json j;
  cli_json_begin(&j, stdout);
  cli_json_fields_of(&j, objs, model_fields, CLI_COUNT(model_fields));
  cli_json_fields_of(&j, objs, f, n);
  cli_json_end(&j);
}

/* --e LIST: the real e of each listed e for one model and clamp setting. */
static int print_listed(const impactfit_code_model *md, int clamp, const double *es, size_t nes, int json) {
  impactfit_code_setting set[IMPACTFIT_CODE_MAX_INPUTS];
  impactfit_code_request ref = impactfit_code_audit_request(md, set);
  ref.clamp = clamp;
  ref.integrator = "continuous";
  row r = {.code = md->code->name,
           .end = clamp ? "C" : "A",
           .sw = "",
           .e = NAN,
           .e_real = NAN,
           .run_here = md->run_min != 0};
  end_text(md, clamp, r.sw, sizeof r.sw);
  if (!json)
    printf("%s %s%s%s, end %s [%s]%s:\n", md->code->name, md->model, *md->option ? " damping " : "", md->option, r.sw,
           md->versions, r.run_here ? "" : " (formula only)");
  for (size_t k = 0; k < nes; k++) {
    impactfit_error e2;
    r.e = es[k];
    int st = impactfit_code_forward(&ref, es[k], 1.0, &r.e_real, &e2);
    if (st && !impactfit_status_is_input_error(st))
      return cli_status_error(st, &e2, "dem-audit");
    if (st)
      r.e_real = NAN;
    if (json)
      print_json(md, &r, NULL, listed_fields, CLI_COUNT(listed_fields));
    else if (st)
      printf("  e = %-10.6g  refused by the code\n", es[k]);
    else
      printf("  e = %-10.6g  e_real = %.8f\n", es[k], r.e_real);
  }
  return 0;
}

/* The audit of one model and clamp setting on `points` values of e in [0.01, 0.99]. */
static int print_audited(const impactfit_code_model *md, int clamp, int points, int json) {
  impactfit_error err;
  impactfit_error_clear(&err);
  impactfit_code_audit_result a;
  int st = impactfit_code_audit(md, clamp, 0.01, 0.99, (size_t)points, &a, &err);
  if (st)
    return cli_status_error(st, &err, "dem-audit");
  row r = {.code = md->code->name,
           .end = clamp ? "C" : "A",
           .sw = "",
           .e = NAN,
           .e_real = NAN,
           .run_here = md->run_min != 0};
  end_text(md, clamp, r.sw, sizeof r.sw);
  if (json)
    print_json(md, &r, &a, audited_fields, CLI_COUNT(audited_fields));
  else
    printf("%-9s %-26s %-18s %-26s %12.4g %6.3f %10.4g  %s%s\n", md->code->name, md->model, md->option, r.sw,
           a.e_max_error, a.e_at_max, a.e_mean_error, md->versions, a.refused ? " (refuses e <= 0.05)" : "");
  return 0;
}

/* The exact prefactors a = c/sqrt(mass k) at sample e beside the published formulas. */
typedef struct prefactors {
  double e, hertz_beta, tsuji, exact[4];
} prefactors;
#define PF(key, f) CLI_FIELD_AS(key, prefactors, f)
static const cli_field prefactor_fields[] = {PF("e", e), PF("hertz_beta", hertz_beta), PF("tsuji", tsuji),
                                             /* exact: Hertz and linear, tensile end (A) and clamped force (C) */
                                             PF("hertz_exact_tensile", exact[0]), PF("hertz_exact_clamped", exact[1]),
                                             PF("linear_exact_tensile", exact[2]),
                                             PF("linear_exact_clamped", exact[3])};

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
    prefactors p = {es[k], hb->prefactor(es[k]), ts->prefactor(es[k]), {0}};
    impactfit_error err;
    impactfit_error_clear(&err);
    int st = impactfit_dem_exact_prefactors(iv, p.e, p.exact, &err);
    if (st) {
      rc = cli_status_error(st, &err, "dem-audit");
    } else if (json) {
      const void *objs[] = {&p};
      cli_json_object_of(stdout, objs, prefactor_fields, CLI_COUNT(prefactor_fields));
    } else {
      printf("%6.2f %12.8f %12.8f %12.8f %12.8f %12.8f %12.8f\n", p.e, p.hertz_beta, p.tsuji, p.exact[0], p.exact[1],
             p.exact[2], p.exact[3]);
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
  const impactfit_code *cd = NULL;
  impactfit_error err;
  impactfit_error_clear(&err);
  if (code && impactfit_code_lookup(code, &cd, &err))
    return cli_status_error(IMPACTFIT_EINVAL, &err, "dem-audit");
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
  for (size_t i = 0; i < impactfit_code_model_count() && !rc; i++) {
    const impactfit_code_model *md = impactfit_code_model_at(i);
    if (!md->takes_e || md->solver == IMPACTFIT_CODE_SOLVE_MEAN || (cd && cd != md->code))
      continue;
    int cl[2], ncl = impactfit_code_clamps(md, cl);
    for (int t = 0; t < ncl && !rc; t++)
      rc = elist ? print_listed(md, cl[t], es, nes, json) : print_audited(md, cl[t], points, json);
  }
  free(es);
  if (rc || elist)
    return rc;
  return print_prefactors(json);
}
