/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `simulate --law NAME` and `zhang-alpha --law NAME`: impacts through a force law of law.h with the
 * parameters k, n, c, m (approach-damper: the damper acts only while the bodies approach; power: the
 * element of impact.h through the general engine), and the damping that gives a target e. Both run
 * the library's sweep problems law-impact and law-damping (src/law/prob_law.c) on the grid runner. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "grid.h"
#include "impactfit/impactfit.h"
#include "law_cli.h"

int cli_law_given(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], "--law") == 0 || strncmp(argv[i], "--law=", 6) == 0)
      return 1;
  return 0;
}

/* law and transition: the names the problems accept. */
static int law_names(const char *law, const char *transition, const char *what) {
  if (strcmp(law, "approach-damper") != 0 && strcmp(law, "power") != 0)
    return cli_input_error("--law: expected approach-damper or power, got '%s'", law);
  if (strcmp(transition, "A") != 0 && strcmp(transition, "C") != 0)
    return cli_input_error("%s --law: --transition must be A or C, got '%s'", what, transition);
  return 0;
}

static const char *const unit_options[] = {"k", "mass", "v"}; /* all or none (cli_units) */

/* ---- simulate --law ---- */

enum { SI_N, SI_M, SI_C, SI_K, SI_MASS, SI_V };       /* problem law-impact's parameters */
enum { SO_E, SO_T, SO_DMAX, SO_FMAX, SO_DSEP, SO_Z }; /* and outputs */

static const cli_col sim_cols[] = {
    {.head = "n", .fmt = "%6.3g", .key = "n", .from = CLI_IN(SI_N)},
    {.head = "m", .fmt = "%6.3g", .key = "m", .from = CLI_IN(SI_M)},
    {.head = "c", .fmt = "%10.4g", .key = "c", .from = CLI_IN(SI_C)},
    {.head = "k", .fmt = "%10.4g", .key = "k", .from = CLI_IN(SI_K)},
    {.head = "mass", .fmt = "%9.3g", .key = "mass", .from = CLI_IN(SI_MASS)},
    {.head = "v", .fmt = "%8.3g", .key = "v", .from = CLI_IN(SI_V)},
    {.key = "law", .from = CLI_STRING(0)},
    {.head = "tr", .fmt = " %-2s", .key = "transition", .from = CLI_STRING(1)},
    {.head = "e_out", .fmt = "%-14.12f", .key = "e_out", .from = CLI_OUT(SO_E), .group = CLI_RESULT},
    {.head = "t_contact", .fmt = "%12.6g", .key = "t_contact", .from = CLI_OUT(SO_T), .group = CLI_RESULT},
    {.head = "f_max", .fmt = "%12.6g", .key = "f_max", .from = CLI_OUT(SO_FMAX), .group = CLI_RESULT},
    {.head = "delta_max", .fmt = "%12.6g", .key = "delta_max", .from = CLI_OUT(SO_DMAX), .group = CLI_RESULT},
    {.head = "delta_sep", .fmt = "%12.6g", .key = "delta_sep", .from = CLI_OUT(SO_DSEP), .group = CLI_RESULT},
    {.key = "zeta", .from = CLI_OUT(SO_Z), .group = CLI_RESULT},
    {.head = "evals", .fmt = "%6ld", .key = "rhs_evals", .from = CLI_EVALS, .group = CLI_RESULT},
};

int cli_simulate_law(int argc, char **argv, const char *help_text) {
  const char *law = "approach-damper", *transition = "C";
  const char *s_n = NULL, *s_c = NULL, *s_m = "0", *s_k = "1", *s_mass = "1", *s_v = "1";
  int json = 0, csv = 0, help = 0;
  cli_grid_opts go = CLI_GRID_OPTS_INIT;
  cli_spec opts[] = {
      CLI_STR("law", &law),    CLI_STR("n", &s_n),       CLI_STR("m", &s_m), CLI_STR("c", &s_c),
      CLI_STR("k", &s_k),      CLI_STR("mass", &s_mass), CLI_STR("v", &s_v), CLI_STR("transition", &transition),
      CLI_FLAG("json", &json), CLI_FLAG("csv", &csv),    CLI_GRID_SPECS(go),
  };
  int rc = cli_options(argc, argv, opts, CLI_COUNT(opts), help_text, &help, NULL, 0, NULL);
  if (rc || help)
    return rc;
  if ((rc = law_names(law, transition, "simulate")))
    return rc;
  if (!s_n || !s_c)
    return cli_input_error("simulate --law: --n and --c are required");
  int dims = 0; /* --k, --mass, --v: all or none, as every command */
  if ((rc = cli_units("simulate", opts, CLI_COUNT(opts), unit_options, 3, &dims)) ||
      (rc = cli_json_csv("simulate", json, csv)) || (rc = cli_grid_check("simulate", &go, json || csv)))
    return rc;
  cli_axis_spec ax[] = {
      CLI_AXIS_IN("--n", "n", s_n, NULL, 0.0, NAN, CLI_LO_OPEN, "--n: spring exponent must be > 0 (got %.17g)", NULL),
      CLI_AXIS_IN("--m", "m", s_m, NULL, 0.0, NAN, 0u, "--m: damping exponent must be >= 0 (got %.17g)", NULL),
      CLI_AXIS_IN("--c", "c", s_c, NULL, 0.0, NAN, 0u, "--c: damping must be >= 0 (got %.17g)", NULL),
      CLI_AXIS_IN("--k", "k", s_k, NULL, 0.0, NAN, CLI_LO_OPEN, "--k: stiffness must be > 0 (got %.17g)", NULL),
      CLI_AXIS_IN("--mass", "mass", s_mass, NULL, 0.0, NAN, CLI_LO_OPEN, "--mass: must be > 0 (got %.17g)", NULL),
      CLI_AXIS_IN("--v", "v", s_v, NULL, 0.0, NAN, CLI_LO_OPEN, "--v: must be > 0 (got %.17g)", NULL),
  };
  const size_t nax = CLI_COUNT(ax);
  rc = cli_axes_parse(ax, nax, NULL);
  const cli_setting set[] = {CLI_SET_OPTION("law", law), CLI_SET_OPTION("transition", transition)};
  cli_table t = {.what = "simulate",
                 .cols = sim_cols,
                 .ncols = CLI_COUNT(sim_cols),
                 .shown = 1,
                 .json = json,
                 .csv = csv,
                 .nwhere = 3,
                 .str = {law, transition}};
  return cli_grid_main(rc, "simulate", "law-impact", set, CLI_COUNT(set), ax, nax, &go, argc, argv, cli_table_header,
                       cli_table_row, &t);
}

/* ---- zhang-alpha --law: the damping for e ---- */

enum { DI_N, DI_M, DI_E, DI_K, DI_MASS, DI_V }; /* problem law-damping's parameters */
enum { DO_C, DO_Z, DO_E, DO_T, DO_DMAX };       /* and outputs */
enum { DX_ALPHA };                              /* Zhang's alpha of the same damping */

static void da_derive(const cli_table *t, const cli_grid_row *r, double *x) {
  (void)t;
  impactfit_zhang_alpha_from_zeta(r->in[DI_N], r->in[DI_M], r->in[DI_E], r->out[DO_Z], &x[DX_ALPHA], NULL, NULL);
}

static const cli_col damp_cols[] = {
    {.head = "n", .fmt = "%6.4g", .key = "n", .from = CLI_IN(DI_N)},
    {.head = "m", .fmt = "%6.4g", .key = "m", .from = CLI_IN(DI_M)},
    {.head = "e", .fmt = "%12.6g", .key = "e", .from = CLI_IN(DI_E)},
    {.key = "law", .from = CLI_STRING(0)},
    {.head = "tr", .fmt = "%2s", .key = "transition", .from = CLI_STRING(1)},
    {.head = "alpha", .fmt = "%20.15g", .key = "alpha", .from = CLI_DERIVED(DX_ALPHA), .group = CLI_RESULT},
    {.head = "lambda", .fmt = "%22.15g", .key = "lambda", .from = CLI_OUT(DO_C), .group = CLI_RESULT},
    {.head = "e_out", .fmt = "%20.15g", .key = "e_out", .from = CLI_OUT(DO_E), .group = CLI_RESULT},
    {.key = "zeta", .from = CLI_OUT(DO_Z), .group = CLI_RESULT},
    {.key = "k", .csv = CLI_CSV_NONE, .from = CLI_IN(DI_K), .group = CLI_RESULT},
    {.key = "mass", .csv = CLI_CSV_NONE, .from = CLI_IN(DI_MASS), .group = CLI_RESULT},
    {.key = "v", .csv = CLI_CSV_NONE, .from = CLI_IN(DI_V), .group = CLI_RESULT},
    {.head = "evals", .fmt = "%7ld", .key = "rhs_evals", .from = CLI_EVALS, .group = CLI_TAIL},
};

int cli_zhang_alpha_law(int argc, char **argv, const char *help_text) {
  const char *law = "approach-damper", *transition = "C";
  const char *s_n = NULL, *s_m = NULL, *s_e = NULL, *s_k = "1", *s_mass = "1", *s_v = "1";
  int json = 0, csv = 0, help = 0;
  cli_grid_opts go = CLI_GRID_OPTS_INIT;
  cli_spec opts[] = {
      CLI_STR("law", &law),    CLI_STR("n", &s_n),       CLI_STR("m", &s_m), CLI_STR("e", &s_e),
      CLI_STR("k", &s_k),      CLI_STR("mass", &s_mass), CLI_STR("v", &s_v), CLI_STR("transition", &transition),
      CLI_FLAG("json", &json), CLI_FLAG("csv", &csv),    CLI_GRID_SPECS(go),
  };
  int rc = cli_options(argc, argv, opts, CLI_COUNT(opts), help_text, &help, NULL, 0, NULL);
  if (rc || help)
    return rc;
  if ((rc = law_names(law, transition, "zhang-alpha")))
    return rc;
  if (!s_n || !s_m || !s_e)
    return cli_input_error("zhang-alpha --law: --n, --m and --e are required");
  int dims = 0; /* --k, --mass, --v: all or none, as every command */
  if ((rc = cli_units("zhang-alpha", opts, CLI_COUNT(opts), unit_options, 3, &dims)) ||
      (rc = cli_json_csv("zhang-alpha", json, csv)) || (rc = cli_grid_check("zhang-alpha", &go, json || csv)))
    return rc;
  cli_axis_spec ax[] = {
      CLI_AXIS_IN("--n", "n", s_n, NULL, 0.0, NAN, CLI_LO_OPEN, "--n: spring exponent must be > 0 (got %.17g)", NULL),
      CLI_AXIS_IN("--m", "m", s_m, NULL, 0.0, NAN, 0u, "--m: damping exponent must be >= 0 (got %.17g)", NULL),
      CLI_AXIS_IN("--e", "e", s_e, NULL, 0.0, 1.0, CLI_LO_OPEN | CLI_HI_OPEN,
                  "--e: the damping is found for 0 < e < 1 (got %.17g)", NULL),
      CLI_AXIS_IN("--k", "k", s_k, NULL, 0.0, NAN, CLI_LO_OPEN, "--k: stiffness must be > 0 (got %.17g)", NULL),
      CLI_AXIS_IN("--mass", "mass", s_mass, NULL, 0.0, NAN, CLI_LO_OPEN, "--mass: must be > 0 (got %.17g)", NULL),
      CLI_AXIS_IN("--v", "v", s_v, NULL, 0.0, NAN, CLI_LO_OPEN, "--v: must be > 0 (got %.17g)", NULL),
  };
  const size_t nax = CLI_COUNT(ax);
  rc = cli_axes_parse(ax, nax, NULL);
  const cli_setting set[] = {CLI_SET_OPTION("law", law), CLI_SET_OPTION("transition", transition)};
  cli_table t = {.what = "zhang-alpha",
                 .cols = damp_cols,
                 .ncols = CLI_COUNT(damp_cols),
                 .shown = 1,
                 .json = json,
                 .csv = csv,
                 .nwhere = 3,
                 .str = {law, transition},
                 .derive = da_derive};
  return cli_grid_main(rc, "zhang-alpha", "law-damping", set, CLI_COUNT(set), ax, nax, &go, argc, argv,
                       cli_table_header, cli_table_row, &t);
}
