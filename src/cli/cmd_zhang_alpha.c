/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit zhang-alpha: the modification parameter alpha of Zhang et al. (2021), solved exactly.
 * Every run is a sweep of the library's problem "zhang-alpha" built in memory and run by the
 * library's runner (grid.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "help_texts.h" /* generated from docs/cli/COMMAND.txt */
#include "grid.h"
#include "impactfit/generated/accuracy.h"
#include "impactfit/impactfit.h"
#include "law_cli.h"

static const char *const help_text = cli_help_zhang_alpha; /* docs/cli/zhang-alpha.txt */

enum { IN_N, IN_M, IN_E, IN_K, IN_MASS, IN_V }; /* problem zhang-alpha's parameters */
enum { OUT_E_OUT = 2, OUT_ZETA, OUT_IT = 5 };   /* and the outputs used */
enum { X_ALPHA, X_LS, X_LAMBDA };               /* computed from zeta */
enum { WITH_DIMS = 1u };                        /* the columns shown with --k --mass --v */

static const cli_col cols[] = {
    {.head = "n", .fmt = "%6.4g", .key = "n", .from = CLI_IN(IN_N)},
    {.head = "m", .fmt = "%6.4g", .key = "m", .from = CLI_IN(IN_M)},
    {.head = "e", .fmt = "%12.6g", .key = "e", .from = CLI_IN(IN_E)},
    {.head = "tr", .fmt = "%2s", .key = "transition", .from = CLI_STRING(0)},
    {.key = "method", .csv = CLI_CSV_NONE, .from = CLI_STRING(1)},
    {.head = "alpha", .fmt = "%20.15g", .key = "alpha", .from = CLI_DERIVED(X_ALPHA), .group = CLI_RESULT},
    {.head = "lambda_star", .fmt = "%20.15g", .key = "lambda_star", .from = CLI_DERIVED(X_LS), .group = CLI_RESULT},
    {.head = "e_out", .fmt = "%20.15g", .key = "e_out", .from = CLI_OUT(OUT_E_OUT), .group = CLI_RESULT},
    {.key = "zeta", .from = CLI_OUT(OUT_ZETA), .group = CLI_RESULT},
    {.key = "k", .csv = CLI_CSV_NONE, .from = CLI_IN(IN_K), .group = CLI_RESULT, .when = WITH_DIMS},
    {.key = "mass", .csv = CLI_CSV_NONE, .from = CLI_IN(IN_MASS), .group = CLI_RESULT, .when = WITH_DIMS},
    {.key = "v", .csv = CLI_CSV_NONE, .from = CLI_IN(IN_V), .group = CLI_RESULT, .when = WITH_DIMS},
    {.key = "lambda", .from = CLI_DERIVED(X_LAMBDA), .group = CLI_RESULT, .when = WITH_DIMS},
    {.head = "iter", .fmt = "%5d", .key = "iterations", .from = CLI_OUT(OUT_IT), .group = CLI_TAIL},
    {.head = "evals", .fmt = "%7ld", .key = "rhs_evals", .from = CLI_EVALS, .group = CLI_TAIL},
    {.head = "lambda", .fmt = "%22.15g", .from = CLI_DERIVED(X_LAMBDA), .group = CLI_RESULT, .when = WITH_DIMS},
};

/* alpha, lambda_star and (with --k --mass --v) lambda from zeta, as the command always computed them */
static void za_derive(const cli_table *t, const cli_grid_row *r, double *x) {
  const double *in = r->in, zeta = r->out[OUT_ZETA];
  impactfit_zhang_alpha_from_zeta(in[IN_N], in[IN_M], in[IN_E], zeta, &x[X_ALPHA], &x[X_LS], NULL);
  if (t->shown)
    impactfit_lambda_from_zeta(in[IN_N], in[IN_M], zeta, in[IN_K], in[IN_MASS], in[IN_V], &x[X_LAMBDA], NULL);
}

typedef struct za_dims {
  int have;
  double k, mass, v;
  const cli_axis *m;
} za_dims;

/* with --k --mass --v: lambda representable for every n and m (ends of ranges) */
static int check_dims(double n, void *ctx) {
  const za_dims *c = ctx;
  impactfit_error err;
  impactfit_error_clear(&err);
  double lam;
  CLI_AXIS_EACH (*c->m, j)
    if (impactfit_lambda_from_zeta(n, cli_axis_value(c->m, j), 1.0, c->k, c->mass, c->v, &lam, &err))
      return cli_status_error(IMPACTFIT_EINVAL, &err, "zhang-alpha");
  return 0;
}

static const char *const unit_options[] = {"k", "mass", "v"}; /* all or none (cli_units) */

int impactfit_cmd_zhang_alpha(int argc, char **argv) {
  if (cli_law_given(argc, argv)) /* a force law of law.h (law_cli.c) */
    return cli_zhang_alpha_law(argc, argv, help_text);
  const char *s_n = NULL, *s_m = NULL, *s_e = NULL, *method = "fast", *transition = "C", *guess = "surrogate";
  za_dims dm = {.have = 0, .k = NAN, .mass = NAN, .v = NAN};
  double tol = 1e-10;
  int json = 0, csv = 0, help = 0;
  cli_grid_opts go = CLI_GRID_OPTS_INIT;
  cli_spec opts[] = {
      CLI_STR("n", &s_n),         CLI_STR("m", &s_m),      CLI_STR("e", &s_e),    CLI_STR("transition", &transition),
      CLI_STR("method", &method), CLI_NUM("tol", &tol),    CLI_NUM("k", &dm.k),   CLI_NUM("mass", &dm.mass),
      CLI_NUM("v", &dm.v),        CLI_FLAG("json", &json), CLI_FLAG("csv", &csv), CLI_STR("guess", &guess),
      CLI_GRID_SPECS(go),
  };
  int rc = cli_options(argc, argv, opts, CLI_COUNT(opts), help_text, &help, NULL, 0, NULL);
  if (rc || help)
    return rc;
  if (!s_n || !s_m || !s_e)
    return cli_input_error("zhang-alpha: --n, --m and --e are required");
  if ((rc = cli_json_csv("zhang-alpha", json, csv)) || (rc = cli_grid_check("zhang-alpha", &go, json || csv)))
    return rc;
  if ((rc = cli_units("zhang-alpha", opts, CLI_COUNT(opts), unit_options, 3, &dm.have)))
    return rc;
  const impactfit_root_method *rm = impactfit_root_method_from_name(method);
  if (!rm)
    return cli_input_error("--method: expected bisect, fast or nlopt, got '%s'", method);
  const impactfit_transition *tr = impactfit_transition_from_name(transition);
  if (tr != impactfit_transition_C && tr != impactfit_transition_A)
    return cli_input_error("--transition: expected C or A, got '%s'", transition);
  if (strcmp(guess, "surrogate") && strcmp(guess, "closed"))
    return cli_input_error("--guess: expected surrogate or closed, got '%s'", guess);
  cli_axis_spec ax[] = {
      CLI_AXIS_IN("--n", "n", s_n, NULL, 0.0, NAN, CLI_LO_OPEN, "--n: spring exponent must be > 0 (got %.17g)", NULL),
      CLI_AXIS_IN("--m", "m", s_m, NULL, 0.0, NAN, 0u, "--m: damping exponent must be >= 0 (got %.17g)", NULL),
      CLI_AXIS_IN("--e", "e", s_e, NULL, 0.0, 1.0, CLI_LO_OPEN | CLI_HI_OPEN,
                  "--e: alpha is defined for 0 < e < 1 (got %.17g)", NULL),
  };
  const size_t nax = CLI_COUNT(ax);
  rc = cli_axes_parse(ax, nax, NULL);
  if (!rc && !(tol >= 1e-13 && tol < 0.1))
    rc = cli_input_error("--tol: expected a value in [1e-13, 0.1), got %.17g", tol);
  if (!rc && dm.have) {
    dm.m = &ax[1].ax;
    CLI_AXIS_EACH (ax[0].ax, i)
      if (!rc)
        rc = check_dims(cli_axis_value(&ax[0].ax, i), &dm);
  }
  cli_setting set[7] = {
      CLI_SET_FIXED("k", dm.k),      CLI_SET_FIXED("mass", dm.mass),         CLI_SET_FIXED("v", dm.v),
      CLI_SET_FIXED("tol", tol),     CLI_SET_OPTION("transition", tr->name), CLI_SET_OPTION("method", rm->name),
      CLI_SET_OPTION("guess", guess)};
  const size_t skip = dm.have ? 0 : 3; /* k, mass, v only when given */
  cli_table t = {.what = "zhang-alpha",
                 .cols = cols,
                 .ncols = CLI_COUNT(cols),
                 .shown = dm.have ? WITH_DIMS : 0u,
                 .json = json,
                 .csv = csv,
                 .nwhere = 3,
                 .str = {tr->name, rm->name},
                 .derive = za_derive};
  return cli_grid_main(rc, "zhang-alpha", "zhang-alpha", set + skip, CLI_COUNT(set) - skip, ax, nax, &go, argc, argv,
                       cli_table_header, cli_table_row, &t);
}
