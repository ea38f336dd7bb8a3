/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit copt: the optimal damping coefficient of Poursina & Nikravesh (2020), solved exactly.
 * Every run, one point or a grid, is a sweep of the library's problem "copt" built in memory and run
 * by the library's runner (grid.h): streamed rows, bounded memory, the same bytes for any thread
 * count, progress, SIGINT with --from, --out DIR with --resume. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "help_texts.h" /* generated from docs/cli/COMMAND.txt */
#include "grid.h"
#include "impactfit/generated/accuracy.h"
#include "impactfit/impactfit.h"

static const char *const help_text = cli_help_copt; /* docs/cli/copt.txt */

enum { IN_N, IN_E, IN_K, IN_MASS, IN_V };                                     /* problem copt's parameters */
enum { OUT_C_OPT, OUT_ZETA, OUT_E_OUT, OUT_E_ERR, OUT_DSEP, OUT_TC, OUT_IT }; /* and outputs */

static const cli_col cols[] = {
    {.head = "n", .fmt = "%8.4g", .key = "n", .from = CLI_IN(IN_N)},
    {.head = "e", .fmt = "%12.6g", .key = "e", .from = CLI_IN(IN_E)},
    {.key = "k", .csv = CLI_CSV_NONE, .from = CLI_IN(IN_K)},
    {.key = "mass", .csv = CLI_CSV_NONE, .from = CLI_IN(IN_MASS)},
    {.key = "v", .csv = CLI_CSV_NONE, .from = CLI_IN(IN_V)},
    {.key = "method", .csv = CLI_CSV_NONE, .from = CLI_STRING(0)},
    {.head = "c_opt", .fmt = "%22.15g", .key = "c_opt", .from = CLI_DERIVED(0), .group = CLI_RESULT},
    {.head = "e_out", .fmt = "%20.15g", .key = "e_out", .from = CLI_OUT(OUT_E_OUT), .group = CLI_RESULT},
    {.head = "zeta", .fmt = "%20.15g", .key = "zeta", .from = CLI_OUT(OUT_ZETA), .group = CLI_RESULT},
    {.head = "delta_sep", .fmt = "%14.6g", .key = "delta_sep", .from = CLI_OUT(OUT_DSEP), .group = CLI_RESULT},
    {.key = "t_contact", .from = CLI_OUT(OUT_TC), .group = CLI_RESULT},
    {.head = "iter", .fmt = "%5d", .key = "iterations", .from = CLI_OUT(OUT_IT), .group = CLI_TAIL},
    {.head = "evals", .fmt = "%7ld", .key = "rhs_evals", .from = CLI_EVALS, .group = CLI_TAIL},
};

/* c from zeta, as the command always printed it (with --dimensional the problem's c_opt is the
 * searched c itself, which can differ from this in the last digit) */
static void copt_derive(const cli_table *t, const cli_grid_row *r, double *x) {
  (void)t;
  impactfit_copt_from_zeta(r->in[IN_N], r->out[OUT_ZETA], r->in[IN_K], r->in[IN_MASS], r->in[IN_V], &x[0], NULL);
}

/* without --dimensional the problem's c_opt is that c already: impactfit_copt_from_zeta of the same
 * arguments (prob_copt.c), the same double */
static void copt_derive_scaled(const cli_table *t, const cli_grid_row *r, double *x) {
  (void)t;
  x[0] = r->out[OUT_C_OPT];
}

typedef struct copt_opts {
  double k, mass, v;
} copt_opts;

/* every n: c_opt representable for the given k, mass, v */
static int check_n(double n, void *ctx) {
  const copt_opts *o = ctx;
  impactfit_error err;
  impactfit_error_clear(&err);
  double c;
  if (impactfit_copt_from_zeta(n, 1.0, o->k, o->mass, o->v, &c, &err))
    return cli_status_error(IMPACTFIT_EINVAL, &err, "copt");
  return 0;
}

static const char *const unit_options[] = {"k", "mass", "v"}; /* all or none (cli_units) */

int impactfit_cmd_copt(int argc, char **argv) {
  const char *s_n = NULL, *s_e = NULL, *method = "fast", *guess = "surrogate";
  copt_opts o = {1.0, 1.0, 1.0};
  double tol = 1e-10;
  int json = 0, csv = 0, help = 0, dimensional = 0, dims = 0;
  cli_grid_opts go = CLI_GRID_OPTS_INIT;
  cli_spec opts[] = {
      CLI_STR_REQ("n", &s_n, "copt: --n is required (spring exponent, > 0)"),
      CLI_STR_REQ("e", &s_e, "copt: --e is required (coefficient of restitution, 0 < e <= 1)"),
      CLI_NUM("k", &o.k),
      CLI_NUM("mass", &o.mass),
      CLI_NUM("v", &o.v),
      CLI_STR("method", &method),
      CLI_STR("guess", &guess),
      CLI_NUM("tol", &tol),
      CLI_FLAG("dimensional", &dimensional),
      CLI_FLAG("json", &json),
      CLI_FLAG("csv", &csv),
      CLI_GRID_SPECS(go),
  };
  int rc = cli_options(argc, argv, opts, CLI_COUNT(opts), help_text, &help, NULL, 0, NULL);
  if (rc || help)
    return rc;
  if ((rc = cli_units("copt", opts, CLI_COUNT(opts), unit_options, 3, &dims)) ||
      (rc = cli_json_csv("copt", json, csv)) || (rc = cli_grid_check("copt", &go, json || csv)))
    return rc;
  const impactfit_root_method *rm = impactfit_root_method_from_name(method);
  if (!rm)
    return cli_input_error("--method: expected bisect, fast or nlopt, got '%s'", method);
  if (strcmp(guess, "surrogate") && strcmp(guess, "closed"))
    return cli_input_error("--guess: expected surrogate or closed, got '%s'", guess);
  /* Validate everything before solving anything (the CLI's own messages). */
  cli_axis_spec ax[] = {
      CLI_AXIS_IN("--n", "n", s_n, NULL, 0.0, NAN, CLI_LO_OPEN, "--n: spring exponent must be > 0 (got %.17g)",
                  check_n),
      CLI_AXIS_IN("--e", "e", s_e, NULL, 0.0, 1.0, CLI_LO_OPEN,
                  "--e: the coefficient of restitution must be in (0, 1] (got %.17g)", NULL),
  };
  const size_t nax = CLI_COUNT(ax);
  if (!(rc = cli_axes_parse(ax, nax, &o)) && !(tol >= 1e-13 && tol < 0.1))
    rc = cli_input_error("--tol: expected a value in [1e-13, 0.1), got %.17g", tol);
  if (!rc && !(rc = cli_axes_limit("copt", ax, nax)) && !dims) /* the note after every check */
    cli_note_scaled("copt", "c_opt, delta_sep and t_contact");
  const cli_setting set[] = {CLI_SET_FIXED("k", o.k),
                             CLI_SET_FIXED("mass", o.mass),
                             CLI_SET_FIXED("v", o.v),
                             CLI_SET_FIXED("tol", tol),
                             CLI_SET_OPTION("method", rm->name),
                             CLI_SET_OPTION("dimensional", dimensional ? "1" : "0"),
                             CLI_SET_OPTION("guess", guess)};
  cli_table t = {.what = "copt",
                 .cols = cols,
                 .ncols = CLI_COUNT(cols),
                 .json = json,
                 .csv = csv,
                 .nwhere = 2,
                 .str = {rm->name},
                 .derive = dimensional ? copt_derive : copt_derive_scaled};
  return cli_grid_main(rc, "copt", "copt", set, CLI_COUNT(set), ax, nax, &go, argc, argv, cli_table_header,
                       cli_table_row, &t);
}
