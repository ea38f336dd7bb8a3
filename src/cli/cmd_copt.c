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
#include "grid.h"
#include "impactfit/generated/accuracy.h"
#include "impactfit/impactfit.h"

static const char *help_text =
    "usage: impactfit copt --n N --e E [--k K --mass MASS --v V] [--method bisect|fast|nlopt]\n"
    "                      [--tol T] [--dimensional] [--json | --csv] [--threads T] [--quiet]\n"
    "                      [--from P | --out DIR [--resume]]\n\n"
    "Finds c with |e_out - e| <= tol e for the Hertz spring with a linear damper,\n"
    "  mass d'' + c d' + k d^n = 0,  d(0) = 0, d'(0) = v,\n"
    "separating where the contact force falls to zero (condition C): the c_opt of Poursina &\n"
    "Nikravesh (2020). Solved in the scaled form x'' + zeta x' + ((n+1)/2) x^n = 0 and scaled back,\n"
    "c_opt = zeta mass v / delta_m0 with delta_m0 = [(n+1) mass v^2 / (2k)]^(1/(n+1)).\n"
    "Measured (default tol, random n in [1, 2.5] and e in [0.01, 1)): an independent quad-precision\n"
    "solver gives |e_out - e| <= " IMPACTFIT_ACCURACY_TEXT(
        IMPACTFIT_ACCURACY_COPT) " min(e, 1 - e) at the returned c (docs/ACCURACY.md).\n\n"
                                 "  --n N           spring exponent (> 0), required\n"
                                 "  --e E           target coefficient of restitution, 0 < e <= 1, required (e = 1: c "
                                 "= 0)\n"
                                 "  --k K --mass MASS --v V   stiffness (N/m^n), effective mass (kg), approach "
                                 "velocity (m/s);\n"
                                 "                  default 1 each: without all three the dimensional columns are "
                                 "scaled values\n"
                                 "                  (k = mass = v = 1), and a note on stderr says so\n"
                                 "  --method M      bisect (the paper's, reference), fast (default), nlopt (minimise "
                                 "the misfit)\n"
                                 "  --tol T         relative tolerance on e_out, default 1e-10\n"
                                 "  --dimensional   search c in the user's units instead of the scaled zeta "
                                 "(verification)\n"
                                 "  --json          one JSON object per point; --csv: CSV with a header row\n"
                                 "  --threads T     OpenMP threads, default: OMP_NUM_THREADS or all cores\n"
                                 "  --quiet         no progress line (shown only when stderr is a terminal)\n"
                                 "  --from P        print the points from index P on, without the header (what an "
                                 "interrupted\n"
                                 "                  run says to continue with)\n"
                                 "  --out DIR       write DIR/copt.csv + DIR/copt.json as 'impactfit sweep' does "
                                 "(problem copt:\n"
                                 "                  columns index, n, e, k, mass, v, tol, max_iter, c_opt, zeta, "
                                 "e_out, e_err,\n"
                                 "                  delta_sep, t_contact, iterations, status, rhs_evals), durable; "
                                 "--resume\n"
                                 "                  continues an interrupted run\n\n"
                                 "--n and --e accept a value, a list a,b,c or a range start:stop:count (the sweep's "
                                 "linear axis);\n"
                                 "a grid (n outer, e inner) is a sweep of problem copt run by the library's runner: "
                                 "rows stream in\n"
                                 "grid order as blocks finish (memory grows with the axes, not the points), "
                                 "continuation along e,\n"
                                 "and the output is byte-identical for any thread count. Ctrl-C stops after the points "
                                 "in flight;\n"
                                 "the rows printed are complete and the message gives the --from command that prints "
                                 "the rest.\n\n"
                                 "Columns (table, --csv, --json): n (-), e (-), c_opt (N s/m), e_out (-, the "
                                 "simulated\n"
                                 "restitution), zeta (-, scaled damping c delta_m0/(mass v)), delta_sep (m, "
                                 "penetration at\n"
                                 "separation), t_contact (s, --csv and --json), iterations (simulations), rhs_evals "
                                 "(right-hand-side\n"
                                 "evaluations), status; --json also k (N/m^n), mass (kg), v (m/s), method, error.\n"
                                 "Exit status: 0 success, 1 a point failed numerically (its row says why), 2 invalid "
                                 "input,\n"
                                 "130/143 interrupted.\n";

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
  const char *s_n = NULL, *s_e = NULL, *method = "fast";
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
  /* Validate everything before solving anything (the CLI's own messages). */
  cli_axis_spec ax[] = {
      {"--n", "n", s_n, NULL, 0.0, NAN, CLI_LO_OPEN, "--n: spring exponent must be > 0 (got %.17g)", check_n, {0}},
      {"--e",
       "e",
       s_e,
       NULL,
       0.0,
       1.0,
       CLI_LO_OPEN,
       "--e: the coefficient of restitution must be in (0, 1] (got %.17g)",
       NULL,
       {0}},
  };
  const size_t nax = CLI_COUNT(ax);
  if (!(rc = cli_axes_parse(ax, nax, &o)) && !(tol >= 1e-13 && tol < 0.1))
    rc = cli_input_error("--tol: expected a value in [1e-13, 0.1), got %.17g", tol);
  if (!rc && !(rc = cli_axes_limit("copt", ax, nax))) /* the note after every check (cli_grid_main's passes) */
    cli_note_scaled("copt", opts, CLI_COUNT(opts), "c_opt, delta_sep and t_contact");
  const cli_setting set[] = {{"k", NULL, o.k, NULL, 0},        {"mass", NULL, o.mass, NULL, 0},
                             {"v", NULL, o.v, NULL, 0},        {"tol", NULL, tol, NULL, 0},
                             {"method", rm->name, 0, NULL, 0}, {"dimensional", dimensional ? "1" : "0", 0, NULL, 0}};
  cli_table t = {"copt", cols, CLI_COUNT(cols), 0, json, csv, 2, 0, 0, {rm->name}, copt_derive};
  return cli_grid_main(rc, "copt", "copt", set, CLI_COUNT(set), ax, nax, &go, argc, argv, cli_table_header,
                       cli_table_row, &t);
}
