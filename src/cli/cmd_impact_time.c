/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit impact-time: the Hunt–Crossley contact duration Δτ(ε, n), and Δt with k, mass, v. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "help_texts.h" /* generated from docs/cli/COMMAND.txt */
#include "grid.h"
#include "impactfit/generated/accuracy.h"
#include "impactfit/impactfit.h"

static const char *const help_text = cli_help_impact_time; /* docs/cli/impact-time.txt */

enum { IN_EPS, IN_N, IN_K, IN_MASS, IN_V };              /* problem impact-time's parameters */
enum { OUT_DTAU, OUT_E, OUT_OMEGA, OUT_DT, OUT_LAMBDA }; /* and outputs */
enum { WITH_DIMS = 1u };                                 /* the columns shown with --k --mass --v */

static const cli_col cols[] = {
    {.head = "eps", .fmt = "%-10.6g", .key = "eps", .from = CLI_IN(IN_EPS)},
    {.head = "n", .fmt = "%-6.4g", .key = "n", .from = CLI_IN(IN_N)},
    {.head = "dtau", .fmt = "%-22.17g", .key = "dtau", .from = CLI_OUT(OUT_DTAU), .group = CLI_RESULT},
    {.head = "e", .fmt = "%-22.17g", .key = "e", .from = CLI_OUT(OUT_E), .group = CLI_RESULT},
    {.head = "k", .fmt = "%-10.4g", .key = "k", .from = CLI_IN(IN_K), .when = WITH_DIMS},
    {.head = "mass", .fmt = "%-10.4g", .key = "mass", .from = CLI_IN(IN_MASS), .when = WITH_DIMS},
    {.head = "v", .fmt = "%-10.4g", .key = "v", .from = CLI_IN(IN_V), .when = WITH_DIMS},
    {.head = "omega_i",
     .fmt = "%-22.17g",
     .key = "omega_i",
     .from = CLI_OUT(OUT_OMEGA),
     .group = CLI_RESULT,
     .when = WITH_DIMS},
    {.head = "dt", .fmt = "%-22.17g", .key = "dt", .from = CLI_OUT(OUT_DT), .group = CLI_RESULT, .when = WITH_DIMS},
    {.head = "lambda",
     .fmt = "%.17g",
     .key = "lambda",
     .from = CLI_OUT(OUT_LAMBDA),
     .group = CLI_RESULT,
     .when = WITH_DIMS},
};

/* with --k --mass --v: omega_i and lambda representable at the ends of every axis */
static int check_dims(const cli_axis_spec *ax) {
  impactfit_error err;
  impactfit_error_clear(&err);
  double w, lambda;
  CLI_AXIS_EACH (ax[1].ax, a)
    CLI_AXIS_EACH (ax[2].ax, b)
      CLI_AXIS_EACH (ax[3].ax, c)
        CLI_AXIS_EACH (ax[4].ax, d) {
          double n = cli_axis_value(&ax[1].ax, a), k = cli_axis_value(&ax[2].ax, b),
                 mass = cli_axis_value(&ax[3].ax, c), v = cli_axis_value(&ax[4].ax, d);
          int st = impactfit_hc_omega(k, v, mass, n, &w, &err);
          if (st)
            return cli_status_error(st, &err, "impact-time");
          CLI_AXIS_EACH (ax[0].ax, e)
            if (impactfit_hc_lambda(cli_axis_value(&ax[0].ax, e), k, v, &lambda, NULL))
              return cli_input_error("impact-time: lambda = eps k / v is not representable");
        }
  return 0;
}

static const char *const unit_options[] = {"k", "mass", "v"}; /* all or none (cli_units) */

int impactfit_cmd_impact_time(int argc, char **argv) {
  const char *s_eps = NULL, *s_n = NULL, *s_k = NULL, *s_mass = NULL, *s_v = NULL;
  int json = 0, csv = 0, help = 0;
  cli_grid_opts go = CLI_GRID_OPTS_INIT;
  cli_spec opts[] = {
      CLI_STR_REQ("eps", &s_eps, "impact-time: --eps is required (damping ratio, >= 0)"),
      CLI_STR_REQ("n", &s_n, "impact-time: --n is required (spring exponent, > 0)"),
      CLI_STR("k", &s_k),
      CLI_STR("mass", &s_mass),
      CLI_STR("v", &s_v),
      CLI_FLAG("json", &json),
      CLI_FLAG("csv", &csv),
      CLI_GRID_SPECS(go),
  };
  int rc = cli_options(argc, argv, opts, CLI_COUNT(opts), help_text, &help, NULL, 0, NULL);
  if (rc || help)
    return rc;
  int dims = 0;
  if ((rc = cli_units("impact-time", opts, CLI_COUNT(opts), unit_options, 3, &dims)) ||
      (rc = cli_json_csv("impact-time", json, csv)) || (rc = cli_grid_check("impact-time", &go, json || csv)))
    return rc;
  /* Check every input before any output (a range lies between its ends: those are checked). */
  cli_axis_spec ax[] = {
      CLI_AXIS_IN("--eps", "eps", s_eps, NULL, 0.0, 1e7, 0u, "--eps: the damping ratio must be in [0, 1e7], got %.17g",
                  NULL),
      CLI_AXIS_IN("--n", "n", s_n, NULL, 0.0, NAN, CLI_LO_OPEN, "--n: the spring exponent must be > 0, got %.17g",
                  NULL),
      CLI_AXIS("--k", "k", s_k, "1"),
      CLI_AXIS("--mass", "mass", s_mass, "1"),
      CLI_AXIS("--v", "v", s_v, "1"),
  };
  const size_t nax = CLI_COUNT(ax);
  rc = cli_axes_parse(ax, nax, NULL);
  if (!rc && dims)
    rc = check_dims(ax);
  cli_table t = {.what = "impact-time",
                 .cols = cols,
                 .ncols = CLI_COUNT(cols),
                 .shown = dims ? WITH_DIMS : 0u,
                 .json = json,
                 .csv = csv,
                 .nwhere = 2};
  return cli_grid_main(rc, "impact-time", "impact-time", NULL, 0, ax, nax, &go, argc, argv, cli_table_header,
                       cli_table_row, &t);
}
