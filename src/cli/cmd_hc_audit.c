/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit hc-audit: the published Hunt–Crossley damping formulas and the Ramaswamy–Humbert fits
 * measured against the exact solution. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "help_texts.h" /* generated from docs/cli/COMMAND.txt */
#include "impactfit/impactfit.h"

static const char *const help_text = cli_help_hc_audit; /* docs/cli/hc-audit.txt */

/* The JSON objects: what the line is (H: kind and name) and its values (V). */
typedef struct head {
  const char *kind, *name;
} head;
enum { H, V };
#define OF_H(key, f) CLI_FIELD_OF(H, key, head, f)
#define FA(key, f) CLI_FIELD_OF(V, key, impactfit_audit_row, f)
#define RH(key, f) CLI_FIELD_OF(V, key, impactfit_hc_rh_fit, f)
#define DT(key, f) CLI_FIELD_OF(V, key, impactfit_hc_dtau_stats, f)
static const cli_field formula_fields[] = {
    OF_H("kind", kind), OF_H("formula", name),
    /* the relative error in eps, then |e_out - e| */
    FA("eps_err_max", eps_max), FA("eps_err_mean", eps_mean), FA("eps_e_at_max", eps_e_at_max), FA("e_err_max", e_max),
    FA("e_err_mean", e_mean), FA("e_e_at_max", e_e_at_max), FA("points", points)};
static const cli_field rh_fields[] = {
    OF_H("kind", kind),         OF_H("constants", name),      RH("alpha", alpha),         RH("beta", beta),
    RH("eps_err_max", err.max), RH("eps_err_mean", err.mean), RH("eps_err_rms", err.rms), RH("e_at_max", err.e_at_max)};
static const cli_field dtau_fields[] = {
    OF_H("kind", kind),      OF_H("surface", name),        DT("dtau_err_max", max), DT("dtau_err_mean", mean),
    DT("dtau_err_rms", rms), DT("eps_at_max", eps_at_max), DT("n_at_max", n_at_max)};

static void print_json(const char *kind, const char *name, const void *values, const cli_field *f, size_t n) {
  head h = {kind, name};
  const void *objs[] = {&h, values};
  cli_json_object_of(stdout, objs, f, n);
}

/* The published eps(e) formulas against the exact damping ratio. */
static int formulas_part(impactfit_impact_workspace *ws, const impactfit_audit_params *ap, int json,
                         impactfit_error *err) {
  if (!json) {
    printf("eps(e) formulas against the exact damping ratio, %zu values of e on [%g, 1]\n", ap->points, ap->e_min);
    printf("(eps_err: relative error in eps; e_err: |e_out - e| simulated with n = %g, condition C)\n\n", ap->n);
    printf("%-20s %12s %7s %12s   %10s %7s %10s\n", "formula", "eps_err max", "at e", "mean", "e_err max", "at e",
           "mean");
  }
  for (size_t i = 0; i < impactfit_formula_count(); i++) {
    impactfit_audit_row r;
    int st = impactfit_formula_audit(ws, impactfit_formula_at(i), ap, &r, err);
    if (st)
      return st;
    if (json)
      print_json("formula", r.formula->name, &r, formula_fields, CLI_COUNT(formula_fields));
    else
      printf("%-20s %11.4g%% %7.3f %11.4g%%   %10.3g %7.3f %10.3g\n", r.formula->name, 100.0 * r.eps_max,
             r.eps_e_at_max, 100.0 * r.eps_mean, r.e_max, r.e_e_at_max, r.e_mean);
  }
  return 0;
}

/* Ramaswamy–Humbert eps(e): published and refitted constants. */
static int rh_eps_part(const impactfit_hc_rh_fit_params *fp, int json, impactfit_error *err) {
  if (!json)
    printf("\nRamaswamy-Humbert eps(e) form, relative error in eps on the same grid "
           "(claimed: 0.062 %%)\n\n%-10s %-20s %-20s %11s %7s %11s %11s\n",
           "constants", "alpha", "beta", "max", "at e", "mean", "rms");
  for (int k = 0; k < 3; k++) {
    impactfit_hc_rh_fit f;
    const char *name;
    int st;
    if (k == 0) {
      name = "published";
      f.alpha = IMPACTFIT_HC_RH_ALPHA;
      f.beta = IMPACTFIT_HC_RH_BETA;
      st = impactfit_hc_rh_eps_error(f.alpha, f.beta, fp, &f.err, err);
    } else {
      impactfit_hc_objective obj = (k == 1) ? IMPACTFIT_HC_LSQ : IMPACTFIT_HC_MINIMAX;
      name = impactfit_hc_objective_name(obj);
      st = impactfit_hc_rh_eps_refit(fp, obj, &f, err);
    }
    if (st)
      return st;
    if (json)
      print_json("rh_eps_fit", name, &f, rh_fields, CLI_COUNT(rh_fields));
    else
      printf("%-10s %-20.17g %-20.17g %10.4g%% %7.3f %10.4g%% %10.4g%%\n", name, f.alpha, f.beta, 100.0 * f.err.max,
             f.err.e_at_max, 100.0 * f.err.mean, 100.0 * f.err.rms);
  }
  return 0;
}

/* dtau(eps, n): the published surface and the surrogate against simulation. */
static int dtau_part(impactfit_impact_workspace *ws, const impactfit_hc_dtau_grid_params *gp, int json,
                     impactfit_error *err) {
  impactfit_hc_dtau_stats sts[2];
  impactfit_hc_dtau_surrogate_params sp = impactfit_hc_dtau_surrogate_default_params();
  int st = impactfit_hc_dtau_audit(ws, gp, &sp, sts, err);
  if (st)
    return st;
  static const char *const names[2] = {"rh-published", "surrogate"};
  if (!json)
    printf("\ndtau(eps, n) against simulation on %zu x %zu points of [0, %g] x [1, 2] "
           "(claimed for the published surface: 0.237 %%)\n\n%-13s %11s %8s %6s %11s %11s\n",
           gp->eps_points, gp->n_points, gp->eps_max, "surface", "max", "at eps", "n", "mean", "rms");
  for (int k = 0; k < 2; k++) {
    if (json)
      print_json("dtau", names[k], &sts[k], dtau_fields, CLI_COUNT(dtau_fields));
    else
      printf("%-13s %10.4g%% %8.4g %6.3f %10.4g%% %10.4g%%\n", names[k], 100.0 * sts[k].max, sts[k].eps_at_max,
             sts[k].n_at_max, 100.0 * sts[k].mean, 100.0 * sts[k].rms);
  }
  if (!json)
    printf("(surrogate: Chebyshev series of ln dtau, degrees %d x %d on [0, %g] x [%g, %g])\n", sp.deg_eps, sp.deg_n,
           sp.eps_max, sp.n_min, sp.n_max);
  return 0;
}

int impactfit_cmd_hc_audit(int argc, char **argv) {
  impactfit_audit_params ap = impactfit_audit_default_params();
  impactfit_hc_dtau_grid_params gp = impactfit_hc_dtau_grid_default_params();
  int points = (int)ap.points, dpoints = (int)gp.eps_points, dnpoints = (int)gp.n_points;
  int json = 0, help = 0;
  cli_spec opts[] = {
      CLI_DBL("e-min", &ap.e_min, 0.0, 1.0, CLI_LO_OPEN | CLI_HI_OPEN, "--e-min: must be in (0, 1), got %.17g"),
      CLI_INT("points", &points, 2, 1000000, 0u, "--points: must be 2..1000000, got %d"),
      CLI_DBL("n", &ap.n, 0.0, NAN, CLI_LO_OPEN, "--n: the spring exponent must be > 0, got %.17g"),
      CLI_DBL("dtau-eps-max", &gp.eps_max, 0.0, 100.0, CLI_LO_OPEN, "--dtau-eps-max: must be in (0, 100], got %.17g"),
      CLI_ANYINT("dtau-points", &dpoints),
      CLI_ANYINT("dtau-n-points", &dnpoints),
      CLI_FLAG("json", &json),
  };
  int rc = cli_options(argc, argv, opts, CLI_COUNT(opts), help_text, &help, NULL, 0, NULL);
  if (rc || help)
    return rc;
  if (dpoints < 2 || dpoints > 100000 || dnpoints < 2 || dnpoints > 100000)
    return cli_input_error("--dtau-points and --dtau-n-points: must be 2..100000, got %d, %d", dpoints, dnpoints);
  ap.points = (size_t)points;
  gp.eps_points = (size_t)dpoints;
  gp.n_points = (size_t)dnpoints;
  impactfit_hc_rh_fit_params fp = impactfit_hc_rh_fit_default_params();
  fp.e_min = ap.e_min;
  fp.points = ap.points;
  impactfit_impact_workspace *ws = impactfit_impact_alloc();
  if (!ws)
    return cli_input_error("out of memory");
  impactfit_error err;
  impactfit_error_clear(&err);
  int st = formulas_part(ws, &ap, json, &err);
  if (!st)
    st = rh_eps_part(&fp, json, &err);
  if (!st)
    st = dtau_part(ws, &gp, json, &err);
  impactfit_impact_free(ws);
  if (st) {
    fflush(stdout);
    return cli_status_error(st, &err, "hc-audit");
  }
  return CLI_OK;
}
