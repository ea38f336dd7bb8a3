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
    {"n", "%8.4g", "n", 1, 'i', IN_N, 0, 0},
    {"e", "%12.6g", "e", 1, 'i', IN_E, 0, 0},
    {NULL, NULL, "k", 0, 'i', IN_K, 0, 0},
    {NULL, NULL, "mass", 0, 'i', IN_MASS, 0, 0},
    {NULL, NULL, "v", 0, 'i', IN_V, 0, 0},
    {NULL, NULL, "method", 0, 's', 0, 0, 0},
    {"c_opt", "%22.15g", "c_opt", 1, 'x', 0, 1, 0},
    {"e_out", "%20.15g", "e_out", 1, 'o', OUT_E_OUT, 1, 0},
    {"zeta", "%20.15g", "zeta", 1, 'o', OUT_ZETA, 1, 0},
    {"delta_sep", "%14.6g", "delta_sep", 1, 'o', OUT_DSEP, 1, 0},
    {NULL, NULL, "t_contact", 1, 'o', OUT_TC, 1, 0},
    {"iter", "%5d", "iterations", 1, 'o', OUT_IT, 2, 0},
    {"evals", "%7ld", "rhs_evals", 1, 'r', 0, 2, 0},
};

/* c from zeta, as the command always printed it (with --dimensional the problem's c_opt is the
 * searched c itself, which can differ from this in the last digit) */
static void copt_derive(const cli_table *t, const cli_grid_row *r, double *x) {
  (void)t;
  impactfit_copt_from_zeta(r->in[IN_N], r->out[OUT_ZETA], r->in[IN_K], r->in[IN_MASS], r->in[IN_V], &x[0], NULL);
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

int impactfit_cmd_copt(int argc, char **argv) {
  const char *s_n = NULL, *s_e = NULL, *method = "fast", *guess = "surrogate";
  copt_opts o = {1.0, 1.0, 1.0};
  double tol = 1e-10;
  int json = 0, csv = 0, help = 0, dimensional = 0;
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
  if ((rc = cli_json_csv("copt", json, csv)) || (rc = cli_grid_check("copt", &go, json || csv)))
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
  if (!rc && !(rc = cli_axes_limit("copt", ax, nax))) /* the note after every check (cli_grid_main's passes) */
    cli_note_scaled("copt", opts, CLI_COUNT(opts), "c_opt, delta_sep and t_contact");
  const cli_setting set[] = {{"k", NULL, o.k, NULL, 0},        {"mass", NULL, o.mass, NULL, 0},
                             {"v", NULL, o.v, NULL, 0},        {"tol", NULL, tol, NULL, 0},
                             {"method", rm->name, 0, NULL, 0}, {"dimensional", dimensional ? "1" : "0", 0, NULL, 0},
                             {"guess", guess, 0, NULL, 0}};
  cli_table t = {"copt", cols, CLI_COUNT(cols), 0, json, csv, 2, 0, 0, {rm->name}, copt_derive};
  return cli_grid_main(rc, "copt", "copt", set, CLI_COUNT(set), ax, nax, &go, argc, argv, cli_table_header,
                       cli_table_row, &t);
}
