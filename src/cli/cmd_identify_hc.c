/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit identify-hc: Hunt–Crossley stiffness and damping from one measured impact (e, Δt), or a grid of
 * them: a sweep of the library's problem "identify-hc" run by the library's runner (grid.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "help_texts.h" /* generated from docs/cli/COMMAND.txt */
#include "grid.h"
#include "impactfit/impactfit.h"

static const char *const help_text = cli_help_identify_hc; /* docs/cli/identify-hc.txt */

/* rows of the library's sweep problem "identify-hc" (src/hc/prob_identify_hc.c) */
enum { P_E, P_DT, P_V, P_MASS, P_N };
enum { O_EPS, O_DTAU, O_OMEGA, O_K, O_LAMBDA, O_E_SIM, O_DT_SIM, O_E_RES, O_DT_RES };

static const cli_col cols[] = {
    {.head = "e", .fmt = "%-12.6g", .key = "e", .from = CLI_IN(P_E)},
    {.head = "dt", .fmt = "%-12.6g", .key = "dt", .from = CLI_IN(P_DT)},
    {.head = "v", .fmt = "%-10.4g", .key = "v", .from = CLI_IN(P_V)},
    {.head = "mass", .fmt = "%-10.4g", .key = "mass", .from = CLI_IN(P_MASS)},
    {.head = "n", .fmt = "%-6.4g", .key = "n", .from = CLI_IN(P_N)},
    {.head = "eps", .fmt = "%-22.17g", .key = "eps", .from = CLI_OUT(O_EPS), .group = CLI_RESULT},
    {.head = "dtau", .fmt = "%-22.17g", .key = "dtau", .from = CLI_OUT(O_DTAU), .group = CLI_RESULT},
    {.head = "omega_i", .fmt = "%-22.17g", .key = "omega_i", .from = CLI_OUT(O_OMEGA), .group = CLI_RESULT},
    {.head = "k", .fmt = "%-22.17g", .key = "k", .from = CLI_OUT(O_K), .group = CLI_RESULT},
    {.head = "lambda", .fmt = "%-22.17g", .key = "lambda", .from = CLI_OUT(O_LAMBDA), .group = CLI_RESULT},
    {.key = "e_sim", .from = CLI_OUT(O_E_SIM), .group = CLI_RESULT},
    {.key = "dt_sim", .from = CLI_OUT(O_DT_SIM), .group = CLI_RESULT},
    {.head = "res_e", .fmt = "%-8.1e", .key = "e_residual", .from = CLI_OUT(O_E_RES), .group = CLI_RESULT},
    {.head = "res_dt", .fmt = "%.1e", .key = "dt_residual", .from = CLI_OUT(O_DT_RES), .group = CLI_RESULT},
};

typedef struct ih_print {
  cli_table t;
  int detail; /* one point, as text: the constants one per line */
  int rc;     /* CLI_INPUT when a point's result was out of range */
} ih_print;

static void ih_header(void *ctx) {
  ih_print *c = ctx;
  if (!c->detail)
    cli_table_header(&c->t);
}

static void ih_row(void *ctx, const cli_grid_row *r) {
  ih_print *c = ctx;
  const double *in = r->in, *o = r->out;
  int input = r->status && impactfit_status_is_input_error(r->status);
  if (input)
    c->rc = CLI_INPUT;
  if (!c->detail)
    cli_table_row(&c->t, r);
  else if (input)
    cli_input_error("identify-hc: e = %g, dt = %g, v = %g, mass = %g, n = %g: %s", in[P_E], in[P_DT], in[P_V],
                    in[P_MASS], in[P_N], r->message);
  else if (r->status)
    fprintf(stderr, "impactfit: error: identify-hc: %s\n", r->message);
  else {
    char s[5][IMPACTFIT_SHORTEST_SIZE]; /* the inputs as typed */
    printf("identify-hc: e = %s, dt = %s s, v = %s m/s, mass = %s kg, n = %s\n",
           impactfit_format_shortest(in[P_E], s[0]), impactfit_format_shortest(in[P_DT], s[1]),
           impactfit_format_shortest(in[P_V], s[2]), impactfit_format_shortest(in[P_MASS], s[3]),
           impactfit_format_shortest(in[P_N], s[4]));
    printf("  %-9s %.17g (damping ratio lambda v / k)\n", "eps", o[O_EPS]);
    printf("  %-9s %.17g (dimensionless contact duration)\n", "dtau", o[O_DTAU]);
    printf("  %-9s %.17g 1/s\n", "omega_i", o[O_OMEGA]);
    printf("  %-9s %.17g N/m^n\n", "k", o[O_K]);
    printf("  %-9s %.17g N s/m^(n+1)\n", "lambda", o[O_LAMBDA]);
    printf("  check: simulated e = %.17g, dt = %.17g s (relative residuals %.2g, %.2g)\n", o[O_E_SIM], o[O_DT_SIM],
           o[O_E_RES], o[O_DT_RES]);
  }
}

int impactfit_cmd_identify_hc(int argc, char **argv) {
  int json = 0, csv = 0, help = 0;
  cli_grid_opts go = CLI_GRID_OPTS_INIT;
  /* a range lies between its ends: those are checked */
  cli_axis_spec ax[] = {
      CLI_AXIS_IN("--e", "e", NULL, NULL, 0.0, 1.0, CLI_LO_OPEN,
                  "--e: the coefficient of restitution must be in (0, 1], got %.17g", NULL),
      CLI_AXIS_IN("--dt", "dt", NULL, NULL, 0.0, NAN, CLI_LO_OPEN, "--dt: must be > 0, got %.17g", NULL),
      CLI_AXIS_IN("--v", "v", NULL, NULL, 0.0, NAN, CLI_LO_OPEN, "--v: must be > 0, got %.17g", NULL),
      CLI_AXIS_IN("--mass", "mass", NULL, NULL, 0.0, NAN, CLI_LO_OPEN, "--mass: must be > 0, got %.17g", NULL),
      CLI_AXIS_IN("--n", "n", NULL, NULL, 0.0, NAN, CLI_LO_OPEN, "--n: must be > 0, got %.17g", NULL),
  };
  const size_t nax = CLI_COUNT(ax);
  cli_spec opts[] = {
      CLI_STR("e", &ax[0].text), CLI_STR("dt", &ax[1].text), CLI_STR("v", &ax[2].text), CLI_STR("mass", &ax[3].text),
      CLI_STR("n", &ax[4].text), CLI_FLAG("json", &json),    CLI_FLAG("csv", &csv),     CLI_GRID_SPECS(go),
  };
  int rc = cli_options(argc, argv, opts, CLI_COUNT(opts), help_text, &help, NULL, 0, NULL);
  if (rc || help)
    return rc;
  for (size_t i = 0; i < nax; i++)
    if (!ax[i].text)
      return cli_input_error("identify-hc: %s is required (see 'impactfit identify-hc --help')", ax[i].opt);
  if ((rc = cli_json_csv("identify-hc", json, csv)) || (rc = cli_grid_check("identify-hc", &go, json || csv)))
    return rc;
  rc = cli_axes_parse(ax, nax, NULL);
  ih_print pc = {.t = {.what = "identify-hc",
                       .cols = cols,
                       .ncols = CLI_COUNT(cols),
                       .json = json,
                       .csv = csv,
                       .nwhere = 2,
                       .point = 1},
                 .detail = !rc && cli_axes_total(ax, nax) == 1 && !json && !csv};
  rc = cli_grid_main(rc, "identify-hc", "identify-hc", NULL, 0, ax, nax, &go, argc, argv, ih_header, ih_row, &pc);
  return (pc.rc && (rc == CLI_OK || rc == CLI_NUMERIC)) ? pc.rc : rc;
}
