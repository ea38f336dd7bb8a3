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
    "solver gives |e_out - e| <= " IMPACTFIT_ACCURACY_TEXT(IMPACTFIT_ACCURACY_COPT) " min(e, 1 - e) at the returned c (docs/ACCURACY.md).\n\n"
    "  --n N           spring exponent (> 0), required\n"
    "  --e E           target coefficient of restitution, 0 < e <= 1, required (e = 1: c = 0)\n"
    "  --k K --mass MASS --v V   stiffness (N/m^n), effective mass (kg), approach velocity (m/s);\n"
    "                  default 1 each: without all three the dimensional columns are scaled values\n"
    "                  (k = mass = v = 1), and a note on stderr says so\n"
    "  --method M      bisect (the paper's, reference), fast (default), nlopt (minimise the misfit)\n"
    "  --tol T         relative tolerance on e_out, default 1e-10\n"
    "  --dimensional   search c in the user's units instead of the scaled zeta (verification)\n"
    "  --json          one JSON object per point; --csv: CSV with a header row\n"
    "  --threads T     OpenMP threads, default: OMP_NUM_THREADS or all cores\n"
    "  --quiet         no progress line (shown only when stderr is a terminal)\n"
    "  --from P        print the points from index P on, without the header (what an interrupted\n"
    "                  run says to continue with)\n"
    "  --out DIR       write DIR/copt.csv + DIR/copt.json as 'impactfit sweep' does (problem copt:\n"
    "                  columns index, n, e, k, mass, v, tol, max_iter, c_opt, zeta, e_out, e_err,\n"
    "                  delta_sep, t_contact, iterations, status, rhs_evals), durable; --resume\n"
    "                  continues an interrupted run\n\n"
    "--n and --e accept a value, a list a,b,c or a range start:stop:count (the sweep's linear axis);\n"
    "a grid (n outer, e inner) is a sweep of problem copt run by the library's runner: rows stream in\n"
    "grid order as blocks finish (memory grows with the axes, not the points), continuation along e,\n"
    "and the output is byte-identical for any thread count. Ctrl-C stops after the points in flight;\n"
    "the rows printed are complete and the message gives the --from command that prints the rest.\n\n"
    "Columns (table, --csv, --json): n (-), e (-), c_opt (N s/m), e_out (-, the simulated\n"
    "restitution), zeta (-, scaled damping c delta_m0/(mass v)), delta_sep (m, penetration at\n"
    "separation), t_contact (s, --csv and --json), iterations (simulations), rhs_evals (right-hand-side\n"
    "evaluations), status; --json also k (N/m^n), mass (kg), v (m/s), method, error.\n"
    "Exit status: 0 success, 1 a point failed numerically (its row says why), 2 invalid input,\n"
    "130/143 interrupted.\n";

typedef struct copt_print {
  int json, csv;
  double k, mass, v;
  const char *method;
} copt_print;

enum { IN_N, IN_E };                                                       /* problem copt's parameters */
enum { OUT_C_OPT, OUT_ZETA, OUT_E_OUT, OUT_E_ERR, OUT_DSEP, OUT_TC, OUT_IT }; /* and outputs */

static void copt_header(void *ctx) {
  const copt_print *c = ctx;
  if (c->csv)
    puts("n,e,c_opt,e_out,zeta,delta_sep,t_contact,iterations,rhs_evals,status");
  else if (!c->json)
    printf("%8s %12s %22s %20s %20s %14s %5s %7s\n", "n", "e", "c_opt", "e_out", "zeta", "delta_sep", "iter",
           "evals");
}

static void copt_row(void *ctx, const cli_grid_row *r) {
  const copt_print *c = ctx;
  double n = r->in[IN_N], e = r->in[IN_E];
  const double *o = r->out;
  int it = (int)o[OUT_IT];
  /* c from zeta, as the command always printed it (with --dimensional the problem's c_opt is the
   * searched c itself, which can differ from this in the last digit) */
  double c_opt = 0.0;
  if (!r->status)
    impactfit_copt_from_zeta(n, o[OUT_ZETA], c->k, c->mass, c->v, &c_opt, NULL);
  if (c->json) {
    cli_json j;
    cli_json_begin(&j, stdout);
    cli_json_num(&j, "n", n);
    cli_json_num(&j, "e", e);
    cli_json_num(&j, "k", c->k);
    cli_json_num(&j, "mass", c->mass);
    cli_json_num(&j, "v", c->v);
    cli_json_str(&j, "method", c->method);
    cli_json_str(&j, "status", impactfit_status_name(r->status));
    if (r->status) {
      cli_json_str(&j, "error", r->message);
    } else {
      cli_json_num(&j, "c_opt", c_opt);
      cli_json_num(&j, "e_out", o[OUT_E_OUT]);
      cli_json_num(&j, "zeta", o[OUT_ZETA]);
      cli_json_num(&j, "delta_sep", o[OUT_DSEP]);
      cli_json_num(&j, "t_contact", o[OUT_TC]);
    }
    cli_json_int(&j, "iterations", it);
    cli_json_int(&j, "rhs_evals", r->rhs_evals);
    cli_json_end(&j);
  } else if (c->csv) {
    if (r->status)
      printf("%.17g,%.17g,,,,,,%d,%ld,%s\n", n, e, it, r->rhs_evals, impactfit_status_name(r->status));
    else
      printf("%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%d,%ld,OK\n", n, e, c_opt, o[OUT_E_OUT], o[OUT_ZETA],
             o[OUT_DSEP], o[OUT_TC], it, r->rhs_evals);
  } else if (r->status) {
    printf("%8.4g %12.6g %s\n", n, e, impactfit_status_name(r->status));
  } else {
    printf("%8.4g %12.6g %22.15g %20.15g %20.15g %14.6g %5d %7ld\n", n, e, c_opt, o[OUT_E_OUT], o[OUT_ZETA],
           o[OUT_DSEP], it, r->rhs_evals);
  }
  if (r->status) {
    fflush(stdout);
    fprintf(stderr, "impactfit: error: copt: n = %g, e = %g: %s\n", n, e, r->message);
  }
}

int impactfit_cmd_copt(int argc, char **argv) {
  const char *s_n = NULL, *s_e = NULL, *method = "fast";
  double k = 1.0, mass = 1.0, v = 1.0, tol = 1e-10;
  int json = 0, csv = 0, help = 0, dimensional = 0;
  cli_grid_opts go = CLI_GRID_OPTS_INIT;
  cli_opt opts[] = {
      {"n", OPT_STRING, &s_n, 0},        {"e", OPT_STRING, &s_e, 0},
      {"k", OPT_DOUBLE, &k, 0},          {"mass", OPT_DOUBLE, &mass, 0},
      {"v", OPT_DOUBLE, &v, 0},          {"method", OPT_STRING, &method, 0},
      {"tol", OPT_DOUBLE, &tol, 0},      {"dimensional", OPT_FLAG, &dimensional, 0},
      {"json", OPT_FLAG, &json, 0},      {"csv", OPT_FLAG, &csv, 0},
      CLI_GRID_OPTS(go),
  };
  int rc = cli_parse(argc, argv, 2, opts, sizeof opts / sizeof opts[0], NULL, 0, NULL, &help);
  if (rc)
    return rc;
  if (help) {
    fputs(help_text, stdout);
    return CLI_OK;
  }
  if (!s_n)
    return cli_input_error("copt: --n is required (spring exponent, > 0)");
  if (!s_e)
    return cli_input_error("copt: --e is required (coefficient of restitution, 0 < e <= 1)");
  if (json && csv)
    return cli_input_error("copt: --json and --csv exclude each other");
  if ((rc = cli_grid_check("copt", &go, json || csv)))
    return rc;
  const impactfit_root_method *rm = impactfit_root_method_from_name(method);
  if (!rm)
    return cli_input_error("--method: expected bisect, fast or nlopt, got '%s'", method);
  cli_axis an, ae;
  memset(&ae, 0, sizeof ae);
  if ((rc = cli_axis_parse("--n", s_n, &an)) || (rc = cli_axis_parse("--e", s_e, &ae))) {
    cli_axis_free(&an);
    return rc;
  }
  impactfit_error err;
  impactfit_error_clear(&err);
  /* Validate everything before solving anything (the CLI's own messages). */
  for (size_t i = 0; i < an.n && !rc; i++) {
    double c, n = cli_axis_value(&an, i);
    if (!(n > 0.0))
      rc = cli_input_error("--n: spring exponent must be > 0 (got %.17g)", n);
    else if (impactfit_copt_from_zeta(n, 1.0, k, mass, v, &c, &err))
      rc = cli_status_error(IMPACTFIT_EINVAL, &err, "copt");
    if (an.range && i == 0 && an.n > 2)
      i = an.n - 2; /* a range lies between its ends */
  }
  for (size_t i = 0; i < ae.n && !rc; i++) {
    double e = cli_axis_value(&ae, i);
    if (!(e > 0.0 && e <= 1.0))
      rc = cli_input_error("--e: the coefficient of restitution must be in (0, 1] (got %.17g)", e);
    if (ae.range && i == 0 && ae.n > 2)
      i = ae.n - 2;
  }
  if (!rc && !(tol >= 1e-13 && tol < 0.1))
    rc = cli_input_error("--tol: expected a value in [1e-13, 0.1), got %.17g", tol);
  if (!rc && (double)an.n * (double)ae.n > 1e8)
    rc = cli_input_error("copt: the grid has %.0f points (at most 1e8)", (double)an.n * (double)ae.n);
  if (rc)
    goto out;
  if (!opts[2].seen || !opts[3].seen || !opts[4].seen)
    fprintf(stderr, "impactfit: note: copt: %s%s%s not given (1 used): c_opt, delta_sep and t_contact are "
                    "scaled values, for k = 1 N/m^n, mass = 1 kg, v = 1 m/s\n",
            opts[2].seen ? "" : "--k ", opts[3].seen ? "" : "--mass ", opts[4].seen ? "" : "--v");

  impactfit_sweep_def *d = NULL;
  impactfit_sweep *s = NULL;
  int st = impactfit_sweep_def_new(impactfit_sweep_problem_from_name("copt"), "copt", &d, &err);
  if (!st)
    st = impactfit_sweep_def_fixed(d, "k", k, &err);
  if (!st)
    st = impactfit_sweep_def_fixed(d, "mass", mass, &err);
  if (!st)
    st = impactfit_sweep_def_fixed(d, "v", v, &err);
  if (!st)
    st = impactfit_sweep_def_fixed(d, "tol", tol, &err);
  if (!st)
    st = impactfit_sweep_def_option(d, "method", rm->name, &err);
  if (!st)
    st = impactfit_sweep_def_option(d, "dimensional", dimensional ? "1" : "0", &err);
  if (!st)
    st = cli_axis_add(d, "n", &an, &err);
  if (!st)
    st = cli_axis_add(d, "e", &ae, &err);
  if (!st)
    st = impactfit_sweep_def_build(d, &s, &err);
  impactfit_sweep_def_free(d);
  if (st) {
    rc = cli_status_error(st, &err, "copt");
    goto out;
  }
  copt_print pc = {json, csv, k, mass, v, rm->name};
  rc = cli_grid_exec("copt", s, &go, argc, argv, copt_header, copt_row, &pc);
  impactfit_sweep_free(s);
out:
  cli_axis_free(&an);
  cli_axis_free(&ae);
  return rc;
}
