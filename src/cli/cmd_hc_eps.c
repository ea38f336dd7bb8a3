/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit hc-eps: the Hunt–Crossley damping ratio ε(e), exact or by a published formula.
 * Every run is a sweep of the library's problem "eps-formula" (any formula of formulas.h; the hc-eps
 * problem is the exact relation alone) run by the library's runner (grid.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "grid.h"
#include "impactfit/generated/accuracy.h"
#include "impactfit/impactfit.h"

static const char *help_text =
    "usage: impactfit hc-eps --e E [--k K --v V] [--formula NAME] [--json] [--threads T]\n"
    "                        [--quiet] [--from P | --out DIR [--resume]]\n\n"
    "Hysteresis damping ratio eps = lambda v / k of the Hunt-Crossley model\n"
    "f = k d^n + lambda d^n d' (damping exponent m = n) that gives the coefficient of restitution\n"
    "e, from the exact relation (1 + eps)/(1 - e eps) = exp(eps (1 + e)) (the same for every n;\n"
    "e = 1 gives 0), or from a published formula. With --k and --v also the damping factor\n"
    "lambda = eps k / v. Measured: the exact relation evaluated in long double at the returned eps\n"
    "gives e within " IMPACTFIT_ACCURACY_TEXT(IMPACTFIT_ACCURACY_HC_EPS) " min(e, 1 - e), for random e in [1e-6, 1) (docs/ACCURACY.md).\n\n"
    "  --e E          coefficient of restitution, 0 < e <= 1 (required)\n"
    "  --k K          stiffness in N/m^n (with --v)\n"
    "  --v V          approach velocity in m/s (with --k)\n"
    "  --formula NAME exact (default) or one of the formulas below\n"
    "  --json         one JSON object per line\n"
    "  --threads T    OpenMP threads, default: OMP_NUM_THREADS or all cores\n"
    "  --quiet        no progress line (shown only when stderr is a terminal)\n"
    "  --from P       print the points from index P on, without the headers (what an interrupted\n"
    "                 run says to continue with)\n"
    "  --out DIR      write DIR/hc-eps.csv + .json as 'impactfit sweep' does, durable; --resume\n"
    "                 continues an interrupted run\n\n"
    "--e, --k and --v accept a value, a list a,b,c or a range start:stop:count (the sweep's linear\n"
    "axis); several values give the product grid (e outermost, then k, v), one row per point, run by\n"
    "the library's sweep runner (streamed, memory bounded by the axes, not the points, the same bytes\n"
    "for any thread count; Ctrl-C keeps the rows printed and gives the --from command that prints the\n"
    "rest).\n\n"
    "Columns: e (-), eps (-, eps = lambda v / k); with --k --v also k (N/m^n), v (m/s), lambda\n"
    "(N s/m^(n+1)); --json also formula. Without --k --v every value printed is dimensionless.\n"
    "Exit status: 0 success, 1 numerical failure, 2 invalid input, 130/143 interrupted.\n\n"
    "formulas (eps as a function of e):\n";

static void print_help(void) {
  fputs(help_text, stdout);
  for (size_t i = 0; i < impactfit_formula_count(); i++) {
    const impactfit_formula *f = impactfit_formula_at(i);
    printf("  %-20s %s\n", f->name, f->expression);
  }
  printf("  (%s is also called 'exact')\n", impactfit_formula_gonthier->name);
}

/* rows of the library's sweep problem "eps-formula" (src/formulas/prob_eps_formula.c) */
enum { P_E, P_K, P_V };
enum { O_EPS, O_LAMBDA };

typedef struct he_print {
  int json, dims;
  const impactfit_formula *f;
} he_print;

static void he_header(void *ctx) {
  const he_print *c = ctx;
  if (c->json)
    return;
  printf("# eps(e) by %s: %s\n", c->f->label, c->f->expression);
  if (c->dims)
    printf("%-24s %-12s %-12s %-24s %s\n", "e", "k", "v", "eps", "lambda");
  else
    printf("%-24s %s\n", "e", "eps");
}

static void he_row(void *ctx, const cli_grid_row *r) {
  const he_print *c = ctx;
  double e = r->in[P_E], k = r->in[P_K], v = r->in[P_V], x = r->out[O_EPS], lambda = c->dims ? r->out[O_LAMBDA] : 0.0;
  if (r->status) { /* inputs are checked first: a formula failing at a valid e is a numerical failure */
    fflush(stdout);
    fprintf(stderr, "impactfit: error: hc-eps: e = %g: %s\n", e, r->message);
    return;
  }
  if (c->json) {
    cli_json j;
    cli_json_begin(&j, stdout);
    cli_json_str(&j, "formula", c->f->name);
    cli_json_num(&j, "e", e);
    cli_json_num(&j, "eps", x);
    if (c->dims) {
      cli_json_num(&j, "k", k);
      cli_json_num(&j, "v", v);
      cli_json_num(&j, "lambda", lambda);
    }
    cli_json_end(&j);
  } else if (c->dims) {
    printf("%-24.17g %-12.6g %-12.6g %-24.17g %.17g\n", e, k, v, x, lambda);
  } else {
    printf("%-24.17g %.17g\n", e, x);
  }
}

int impactfit_cmd_hc_eps(int argc, char **argv) {
  const char *s_e = NULL, *s_k = NULL, *s_v = NULL, *fname = "exact";
  int json = 0, help = 0;
  cli_grid_opts go = CLI_GRID_OPTS_INIT;
  cli_opt opts[] = {
      {"e", OPT_STRING, &s_e, 0},          {"k", OPT_STRING, &s_k, 0},
      {"v", OPT_STRING, &s_v, 0},          {"formula", OPT_STRING, &fname, 0},
      {"json", OPT_FLAG, &json, 0},
      CLI_GRID_OPTS(go),
  };
  int rc = cli_parse(argc, argv, 2, opts, sizeof opts / sizeof opts[0], NULL, 0, NULL, &help);
  if (rc)
    return rc;
  if (help) {
    print_help();
    return CLI_OK;
  }
  if (!s_e)
    return cli_input_error("hc-eps: --e is required (coefficient of restitution, 0 < e <= 1)");
  if (!s_k != !s_v)
    return cli_input_error("hc-eps: --k and --v go together (lambda = eps k / v)");
  const impactfit_formula *f = impactfit_formula_from_name(fname);
  if (!f)
    return cli_input_error("hc-eps: unknown formula '%s' (see 'impactfit hc-eps --help')", fname);
  if ((rc = cli_grid_check("hc-eps", &go, json)))
    return rc;
  static const char *const names[3] = {"--e", "--k", "--v"};
  const char *specs[3] = {s_e, s_k ? s_k : "1", s_v ? s_v : "1"};
  cli_axis ax[3];
  memset(ax, 0, sizeof ax);
  for (int i = 0; i < 3 && !rc; i++)
    rc = cli_axis_parse(names[i], specs[i], &ax[i]);
  /* Check every input before any output (a range lies between its ends: those are checked). */
  if (!rc)
    CLI_AXIS_EACH(ax[0], i) if (!rc && !(cli_axis_value(&ax[0], i) > 0.0 && cli_axis_value(&ax[0], i) <= 1.0))
      rc = cli_input_error("--e: the coefficient of restitution must be in (0, 1], got %.17g", cli_axis_value(&ax[0], i));
  for (size_t a = 1; a < 3 && !rc && s_k; a++)
    CLI_AXIS_EACH(ax[a], i) if (!rc && !(cli_axis_value(&ax[a], i) > 0.0))
      rc = cli_input_error("%s: must be > 0, got %.17g", names[a], cli_axis_value(&ax[a], i));
  if (!rc)
    CLI_AXIS_EACH(ax[0], i) {
      impactfit_error err;
      impactfit_error_clear(&err);
      double x;
      int st = rc ? 0 : impactfit_formula_eps(f, cli_axis_value(&ax[0], i), &x, &err);
      if (st)
        rc = cli_status_error(st, &err, "hc-eps");
      if (s_k)
        CLI_AXIS_EACH(ax[1], b) CLI_AXIS_EACH(ax[2], c) if (!rc && !isfinite(x * cli_axis_value(&ax[1], b) / cli_axis_value(&ax[2], c)))
          rc = cli_input_error("hc-eps: lambda = eps k / v is not representable for k = %g, v = %g",
                               cli_axis_value(&ax[1], b), cli_axis_value(&ax[2], c));
    }
  double total = (double)ax[0].n * (double)ax[1].n * (double)ax[2].n;
  if (!rc && total > 1e8)
    rc = cli_input_error("hc-eps: the grid has %.0f points (at most 1e8)", total);
  impactfit_sweep_def *d = NULL;
  impactfit_sweep *s = NULL;
  impactfit_error err;
  impactfit_error_clear(&err);
  if (!rc) {
    static const char *const params[3] = {"e", "k", "v"};
    int st = impactfit_sweep_def_new(impactfit_sweep_problem_from_name("eps-formula"), "hc-eps", &d, &err);
    if (!st)
      st = impactfit_sweep_def_option(d, "formula", f->name, &err);
    for (int i = 0; i < 3 && !st; i++)
      st = cli_axis_add(d, params[i], &ax[i], &err);
    if (!st)
      st = impactfit_sweep_def_build(d, &s, &err);
    impactfit_sweep_def_free(d);
    if (st)
      rc = cli_status_error(st, &err, "hc-eps");
  }
  if (!rc) {
    he_print pc = {json, s_k != NULL, f};
    rc = cli_grid_exec("hc-eps", s, &go, argc, argv, he_header, he_row, &pc);
  }
  impactfit_sweep_free(s);
  for (int i = 0; i < 3; i++)
    cli_axis_free(&ax[i]);
  return rc;
}
