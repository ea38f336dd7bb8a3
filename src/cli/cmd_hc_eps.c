/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit hc-eps: the Hunt–Crossley damping ratio ε(e), exact or by a published formula.
 * Every run is a sweep of the library's problem "eps-formula" (any formula of formulas.h; the hc-eps
 * problem is the exact relation alone) run by the library's runner (grid.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "help_texts.h" /* generated from docs/cli/COMMAND.txt */
#include "grid.h"
#include "impactfit/generated/accuracy.h"
#include "impactfit/impactfit.h"

static const char *const help_text = cli_help_hc_eps; /* docs/cli/hc-eps.txt */

static void print_help(void) {
  fputs(help_text, stdout);
  for (size_t i = 0; i < impactfit_formula_count(); i++) {
    const impactfit_formula *f = impactfit_formula_at(i);
    printf("  %-20s %s\n", f->name, f->expression);
  }
  printf("  ('gonthier' used to name the exact relation; it is now the closed form (1-e^2)/e that\n"
         "  the literature attributes to Gonthier et al. 2004, and the exact relation is 'exact')\n");
}

/* rows of the library's sweep problem "eps-formula" (src/formulas/prob_eps_formula.c) */
enum { P_E, P_K, P_V };
enum { O_EPS, O_LAMBDA };
enum { WITH_K_V = 1u, WITHOUT_K_V = 2u }; /* the columns shown with --k --v, and without */

static const cli_col cols[] = {
    {.key = "formula", .from = CLI_STRING(0)},
    {.head = "e", .fmt = "%-24.17g", .key = "e", .from = CLI_IN(P_E)},
    {.head = "k", .fmt = "%-12.6g", .key = "k", .from = CLI_IN(P_K), .group = CLI_RESULT, .when = WITH_K_V},
    {.head = "v", .fmt = "%-12.6g", .key = "v", .from = CLI_IN(P_V), .group = CLI_RESULT, .when = WITH_K_V},
    {.head = "eps", .fmt = "%-24.17g", .key = "eps", .from = CLI_OUT(O_EPS), .when = WITH_K_V},
    {.head = "eps", .fmt = "%.17g", .key = "eps", .from = CLI_OUT(O_EPS), .when = WITHOUT_K_V},
    {.head = "lambda",
     .fmt = "%.17g",
     .key = "lambda",
     .from = CLI_OUT(O_LAMBDA),
     .group = CLI_RESULT,
     .when = WITH_K_V},
};

static void he_header(void *ctx) {
  const cli_table *t = ctx;
  if (!t->json && !t->csv)
    printf("# eps(e) by %s: %s\n", t->str[1], t->str[2]);
  cli_table_header(ctx);
}

typedef struct he_check {
  const impactfit_formula *f;
  const cli_axis *k, *v; /* NULL without --k --v */
} he_check;

/* every e: the formula evaluates; with --k --v, lambda = eps k / v is representable */
static int check_e(double e, void *ctx) {
  const he_check *c = ctx;
  impactfit_error err;
  impactfit_error_clear(&err);
  double x, lambda;
  int st = impactfit_formula_eps(c->f, e, &x, &err);
  if (st)
    return cli_status_error(st, &err, "hc-eps");
  if (c->k)
    CLI_AXIS_EACH (*c->k, b)
      CLI_AXIS_EACH (*c->v, d) {
        double k = cli_axis_value(c->k, b), v = cli_axis_value(c->v, d);
        if (impactfit_hc_lambda(x, k, v, &lambda, NULL))
          return cli_input_error("hc-eps: lambda = eps k / v is not representable for k = %g, v = %g", k, v);
      }
  return 0;
}

int impactfit_cmd_hc_eps(int argc, char **argv) {
  const char *s_e = NULL, *s_k = NULL, *s_v = NULL, *fname = "exact";
  int json = 0, csv = 0, help = 0;
  cli_grid_opts go = CLI_GRID_OPTS_INIT;
  cli_spec opts[] = {
      CLI_STR_REQ("e", &s_e, "hc-eps: --e is required (coefficient of restitution, 0 < e <= 1)"),
      CLI_STR("k", &s_k),
      CLI_STR("v", &s_v),
      CLI_STR("formula", &fname),
      CLI_FLAG("json", &json),
      CLI_FLAG("csv", &csv),
      CLI_GRID_SPECS(go),
  };
  int rc = cli_options(argc, argv, opts, CLI_COUNT(opts), NULL, &help, NULL, 0, NULL);
  if (rc)
    return rc;
  if (help) {
    print_help();
    return CLI_OK;
  }
  static const char *const unit_options[] = {"k", "v"}; /* lambda = eps k / v: both or neither (cli_units) */
  int dims = 0;
  if ((rc = cli_units("hc-eps", opts, CLI_COUNT(opts), unit_options, 2, &dims)))
    return rc;
  const impactfit_formula *f = impactfit_formula_from_name(fname);
  if (!f)
    return cli_input_error("hc-eps: unknown formula '%s' (see 'impactfit hc-eps --help')", fname);
  if ((rc = cli_json_csv("hc-eps", json, csv)) || (rc = cli_grid_check("hc-eps", &go, json || csv)))
    return rc;
  /* Check every input before any output (a range lies between its ends: those are checked). */
  cli_axis_spec ax[] = {
      CLI_AXIS_IN("--e", "e", s_e, NULL, 0.0, 1.0, CLI_LO_OPEN,
                  "--e: the coefficient of restitution must be in (0, 1], got %.17g", NULL),
      CLI_AXIS_IN("--k", "k", s_k, "1", 0.0, NAN, CLI_LO_OPEN | CLI_IF_SEEN, "--k: must be > 0, got %.17g", NULL),
      CLI_AXIS_IN("--v", "v", s_v, "1", 0.0, NAN, CLI_LO_OPEN | CLI_IF_SEEN, "--v: must be > 0, got %.17g", NULL),
  };
  const size_t nax = CLI_COUNT(ax);
  he_check hc = {f, s_k ? &ax[1].ax : NULL, s_k ? &ax[2].ax : NULL};
  rc = cli_axes_parse(ax, nax, NULL);
  if (!rc) /* then the formula at every e (k and v checked) */
    CLI_AXIS_EACH (ax[0].ax, i)
      if (!rc)
        rc = check_e(cli_axis_value(&ax[0].ax, i), &hc);
  const cli_setting set[] = {CLI_SET_OPTION("formula", f->name)};
  cli_table t = {.what = "hc-eps",
                 .cols = cols,
                 .ncols = CLI_COUNT(cols),
                 .shown = s_k ? WITH_K_V : WITHOUT_K_V,
                 .json = json,
                 .csv = csv,
                 .nwhere = 1,
                 .bare = 1,
                 .str = {f->name, f->label, f->expression}};
  return cli_grid_main(rc, "hc-eps", "eps-formula", set, 1, ax, nax, &go, argc, argv, he_header, cli_table_row, &t);
}
