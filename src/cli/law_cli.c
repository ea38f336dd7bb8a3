/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `simulate --law NAME` and `zhang-alpha --law NAME`: impacts through any force law of law.h by name,
 * and the value of one of its parameters that gives a target e. The law's parameters become options
 * (--NAME VALUE, or --set NAME=VALUE) and grid axes, their defaults, help and order come from the law's
 * type; both commands run the library's sweep problems law-impact and law-damping (src/law/prob_law.c)
 * on the grid runner, and their columns are the problem's (the law's parameters, then mass and v).
 * Nothing here names a law. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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

enum { MAXP = IMPACTFIT_LAW_MAX_PARAMS, MAX_OPTS = 16 + MAXP, MAX_COLS = MAXP + 16 };

/* A --law command line, parsed. */
typedef struct law_cmd {
  const char *what; /* "simulate", "zhang-alpha" */
  int inverse;      /* zhang-alpha: solve for a parameter */
  const impactfit_law_type *type;
  const char *law, *transition, *solve, *s_mass, *s_v, *s_e, *s_lo, *s_hi;
  const char *text[MAXP];                  /* parameter i's value as given (NULL: its default) */
  char def[MAXP][IMPACTFIT_SHORTEST_SIZE]; /* its default as text ("" when it has none) */
  char opt[MAXP][72];                      /* "--NAME", for the messages */
  int solved;                              /* the parameter solved for (zhang-alpha), -1 */
  int json, csv, help;
  cli_grid_opts go;
  cli_spec opts[MAX_OPTS];
  size_t nopts, first_param; /* opts[first_param ..] are the law's parameters */
  int opt_of[MAXP];          /* parameter i's entry in opts, -1: only --set NAME=V */
  char **argv;               /* argv without the --set arguments */
  int argc;
  const char *sets[MAXP + 4];
  int nsets;
} law_cmd;

/* the value of --law in argv (NULL: none) */
static const char *law_name(int argc, char **argv) {
  for (int i = 2; i < argc; i++) {
    if (strcmp(argv[i], "--law") == 0)
      return i + 1 < argc ? argv[i + 1] : NULL;
    if (strncmp(argv[i], "--law=", 6) == 0)
      return argv[i] + 6;
  }
  return NULL;
}

/* argv without --set NAME=V (which may repeat) into c->argv, the settings into c->sets */
static int take_sets(law_cmd *c, int argc, char **argv) {
  if (!(c->argv = malloc(((size_t)argc + 1) * sizeof *c->argv)))
    return cli_input_error("%s: out of memory", c->what);
  for (int i = 0; i < argc; i++) {
    const char *val = NULL;
    if (i >= 2 && strcmp(argv[i], "--set") == 0) {
      if (i + 1 >= argc)
        return cli_input_error("%s --law: --set needs NAME=VALUE", c->what);
      val = argv[++i];
    } else if (i >= 2 && strncmp(argv[i], "--set=", 6) == 0) {
      val = argv[i] + 6;
    }
    if (!val) {
      c->argv[c->argc++] = argv[i];
      continue;
    }
    if (c->nsets == (int)CLI_COUNT(c->sets))
      return cli_input_error("%s --law: too many --set", c->what);
    c->sets[c->nsets++] = val;
  }
  c->argv[c->argc] = NULL;
  return 0;
}

/* The option table: the command's own options, then one per parameter of the law whose name is not
 * one of them (those only take --set NAME=V). */
static void build_options(law_cmd *c) {
  cli_spec own[] = {
      CLI_STR("law", &c->law),     CLI_STR("transition", &c->transition),
      CLI_STR("mass", &c->s_mass), CLI_STR("v", &c->s_v),
      CLI_FLAG("json", &c->json),  CLI_FLAG("csv", &c->csv),
      CLI_GRID_SPECS(c->go),
  };
  memcpy(c->opts, own, sizeof own);
  c->nopts = CLI_COUNT(own);
  if (c->inverse) {
    c->opts[c->nopts++] = (cli_spec)CLI_STR("e", &c->s_e);
    c->opts[c->nopts++] = (cli_spec)CLI_STR("solve", &c->solve);
    c->opts[c->nopts++] = (cli_spec)CLI_STR("lo", &c->s_lo);
    c->opts[c->nopts++] = (cli_spec)CLI_STR("hi", &c->s_hi);
  }
  c->first_param = c->nopts;
  for (int i = 0; c->type && i < c->type->n_params; i++) {
    const char *name = c->type->param_names[i];
    c->opt_of[i] = -1;
    if (!cli_spec_find(c->opts, c->nopts, name) && c->nopts < MAX_OPTS) {
      c->opt_of[i] = (int)c->nopts;
      c->opts[c->nopts++] = (cli_spec)CLI_STR(name, &c->text[i]);
    }
  }
}

/* The law's parameters, for --help. */
static void print_law_help(const law_cmd *c) {
  if (!c->type) {
    printf("\nforce laws (impactfit %s --law NAME --help lists the parameters of one):", c->what);
    for (size_t i = 0; i < impactfit_law_type_count(); i++)
      printf("%s %s", i ? "," : "", impactfit_law_type_at(i)->name);
    printf("\n");
    return;
  }
  const impactfit_law_type *t = c->type;
  printf("\nlaw %s: %s\nits parameters (--NAME VALUE or --set NAME=VALUE; a value, a list or a range):\n", t->name,
         t->summary ? t->summary : "");
  for (int k = 0; k < t->n_params; k++) {
    int i = impactfit_law_param_at(t, k);
    double d = impactfit_law_param_default(t, i);
    char dt[48] = "required", num[IMPACTFIT_SHORTEST_SIZE];
    if (!isnan(d))
      snprintf(dt, sizeof dt, "default %s", impactfit_format_shortest(d, num));
    printf("  %s%-10s %-14s %s; %s%s%s\n", c->opt_of[i] >= 0 ? "--" : "  ", t->param_names[i],
           t->param_units ? t->param_units[i] : "", t->param_help ? t->param_help[i] : "", dt,
           t->damping && strcmp(t->damping, t->param_names[i]) == 0 ? " (the damping)" : "",
           t->unit_param && strcmp(t->unit_param, t->param_names[i]) == 0 ? " (sets the units with mass and v)" : "");
  }
}

/* --set NAME=V: the law's parameter NAME, given once. */
static int apply_sets(law_cmd *c) {
  for (int s = 0; s < c->nsets; s++) {
    const char *eq = strchr(c->sets[s], '=');
    char name[64];
    size_t len = eq ? (size_t)(eq - c->sets[s]) : 0;
    if (!eq || len == 0 || len >= sizeof name || !eq[1])
      return cli_input_error("%s --law: --set takes NAME=VALUE (got '%s')", c->what, c->sets[s]);
    memcpy(name, c->sets[s], len);
    name[len] = '\0';
    int i = impactfit_law_param_index(c->type, name);
    if (i < 0) {
      impactfit_error err;
      impactfit_law law = {.type = c->type};
      impactfit_law_set(&law, name, 0.0, &err);
      return cli_input_error("%s --law: --set: %s", c->what, err.message);
    }
    if (c->text[i])
      return cli_input_error("%s --law: parameter %s given twice", c->what, name);
    c->text[i] = eq + 1;
    if (c->opt_of[i] >= 0)
      c->opts[c->opt_of[i]].seen = 1; /* given, for the rule on the unit parameters */
  }
  return 0;
}

/* The parameter solved for (zhang-alpha): --solve NAME, default the law's damping. */
static int pick_solved(law_cmd *c) {
  c->solved = -1;
  if (!c->inverse)
    return 0;
  const char *name = c->solve ? c->solve : c->type->damping;
  if (!name)
    return cli_input_error("%s --law %s: the law has no damping parameter: name the one to solve for with --solve",
                           c->what, c->type->name);
  if ((c->solved = impactfit_law_param_index(c->type, name)) < 0) {
    impactfit_error err;
    impactfit_law law = {.type = c->type};
    impactfit_law_set(&law, name, 0.0, &err);
    return cli_input_error("--solve: %s", err.message);
  }
  if (c->text[c->solved])
    return cli_input_error("%s --law: --%s is what is solved for (give the target --e instead)", c->what, name);
  /* the law's damping with a scale is searched over [1e-9, 1e6] times it (prob_law.c); others over --lo, --hi */
  int scaled = c->type->param_scale && c->type->damping && strcmp(c->type->damping, name) == 0;
  if (scaled && (c->s_lo || c->s_hi))
    return cli_input_error("%s --law: the damping %s is searched over [1e-9, 1e6] times its scale; --lo and --hi "
                           "bound the search of another parameter (--solve)",
                           c->what, name);
  return 0;
}

/* Parses the command line into c. Returns the exit status (0: go on; with c->help set: done). */
static int law_cmd_parse(law_cmd *c, int argc, char **argv, const char *help_text) {
  int rc = take_sets(c, argc, argv);
  if (rc)
    return rc;
  c->law = law_name(argc, argv);
  impactfit_error err;
  impactfit_error_clear(&err);
  int lookup = impactfit_law_type_find(c->law ? c->law : "", NULL, 0, &c->type, &err);
  int help = 0;
  for (int i = 2; i < c->argc; i++)
    help |= strcmp(c->argv[i], "--help") == 0 || strcmp(c->argv[i], "-h") == 0;
  if (lookup && !help) /* before the options, which are the law's */
    return cli_input_error("--law: %s", err.message);
  build_options(c);
  rc = cli_options(c->argc, c->argv, c->opts, c->nopts, help_text, &c->help, NULL, 0, NULL);
  if (c->help)
    print_law_help(c);
  if (rc || c->help)
    return rc;
  if ((rc = apply_sets(c)) || (rc = pick_solved(c)))
    return rc;
  if (strcmp(c->transition, "A") != 0 && strcmp(c->transition, "C") != 0)
    return cli_input_error("%s --law: --transition must be A or C, got '%s'", c->what, c->transition);
  char missing[256] = "";
  int nmiss = 0;
  for (int k = 0; k < c->type->n_params; k++) {
    int i = impactfit_law_param_at(c->type, k);
    double d = impactfit_law_param_default(c->type, i);
    if (!isnan(d))
      impactfit_format_shortest(d, c->def[i]);
    if (!c->text[i] && isnan(d) && i != c->solved && strlen(missing) + 40 < sizeof missing) {
      size_t used = strlen(missing);
      snprintf(missing + used, sizeof missing - used, "%s--%s", nmiss ? ", " : "", c->type->param_names[i]);
      nmiss++;
    }
  }
  if (c->inverse && !c->s_e)
    snprintf(missing + strlen(missing), sizeof missing - strlen(missing), "%s--e", nmiss++ ? ", " : "");
  if (nmiss)
    return cli_input_error("%s --law %s: %s %s required", c->what, c->type->name, missing, nmiss > 1 ? "are" : "is");
  if (c->type->unit_param) { /* the unit parameter, --mass, --v: all or none, as every command */
    const char *const unit_options[] = {c->type->unit_param, "mass", "v"};
    int dims = 0;
    if ((rc = cli_units(c->what, c->opts, c->nopts, unit_options, 3, &dims)))
      return rc;
  }
  if ((rc = cli_json_csv(c->what, c->json, c->csv)) || (rc = cli_grid_check(c->what, &c->go, c->json || c->csv)))
    return rc;
  return 0;
}

/* The grid's axes in the problem's order: the law's parameters as shown (the target e in place of the
 * one solved for), then mass and v. Returns their count. */
static size_t build_axes(law_cmd *c, cli_axis_spec *ax) {
  size_t n = 0;
  for (int k = 0; k < c->type->n_params; k++) {
    int i = impactfit_law_param_at(c->type, k);
    if (i == c->solved) {
      ax[n++] = (cli_axis_spec)CLI_AXIS_IN("--e", "e", c->s_e, NULL, 0.0, 1.0, CLI_LO_OPEN | CLI_HI_OPEN,
                                           "--e: the value is found for 0 < e < 1 (got %.17g)", NULL);
      continue;
    }
    snprintf(c->opt[i], sizeof c->opt[i], "--%s", c->type->param_names[i]);
    ax[n++] = (cli_axis_spec)CLI_AXIS(c->opt[i], c->type->param_names[i], c->text[i], c->def[i][0] ? c->def[i] : NULL);
  }
  ax[n++] = (cli_axis_spec)CLI_AXIS_IN("--mass", "mass", c->s_mass, "1", 0.0, NAN, CLI_LO_OPEN,
                                       "--mass: must be > 0 (got %.17g)", NULL);
  ax[n++] = (cli_axis_spec)CLI_AXIS_IN("--v", "v", c->s_v, "1", 0.0, NAN, CLI_LO_OPEN, "--v: must be > 0 (got %.17g)",
                                       NULL);
  if (c->inverse) { /* axes only when given (else the problem's defaults) */
    ax[n++] = (cli_axis_spec)CLI_AXIS_IN("--lo", "lo", c->s_lo, NULL, 0.0, NAN, CLI_LO_OPEN,
                                         "--lo: must be > 0 (got %.17g)", NULL);
    ax[n++] = (cli_axis_spec)CLI_AXIS_IN("--hi", "hi", c->s_hi, NULL, 0.0, NAN, CLI_LO_OPEN,
                                         "--hi: must be > 0 (got %.17g)", NULL);
  }
  return n;
}

/* Every value of every parameter axis makes a valid law with the others at their first values (the
 * law's own check; the sweep checks every point again when it is built). */
static int check_axes(const law_cmd *c, const cli_axis_spec *ax, size_t n) {
  impactfit_law base = impactfit_law_make(c->type);
  for (size_t k = 0; k < n; k++) {
    int i = impactfit_law_param_index(c->type, ax[k].param);
    if (i >= 0 && ax[k].ax.n)
      base.p[i] = cli_axis_value(&ax[k].ax, 0);
  }
  if (c->solved >= 0) { /* a placeholder the law accepts: its default, or 1 */
    double d = impactfit_law_param_default(c->type, c->solved);
    base.p[c->solved] = isnan(d) ? 1.0 : d;
  }
  for (size_t k = 0; k < n; k++) {
    int i = impactfit_law_param_index(c->type, ax[k].param);
    if (i < 0)
      continue;
    CLI_AXIS_EACH (ax[k].ax, j) {
      impactfit_law law = base;
      law.p[i] = cli_axis_value(&ax[k].ax, j);
      impactfit_error err;
      if (impactfit_law_check(&law, &err))
        return cli_input_error("%s: %s", ax[k].opt, err.message);
    }
  }
  return 0;
}

/* Parses the command line, the axes and their values; builds the sweep of problem (NULL with help). */
static int law_cmd_sweep(law_cmd *c, int argc, char **argv, const char *help_text, const char *problem,
                         cli_axis_spec *ax, size_t *nax, impactfit_sweep **s) {
  *s = NULL;
  *nax = 0;
  int rc = law_cmd_parse(c, argc, argv, help_text);
  if (rc || c->help)
    return rc;
  *nax = build_axes(c, ax);
  if ((rc = cli_axes_parse(ax, *nax, NULL)) || (rc = check_axes(c, ax, *nax)) ||
      (rc = cli_axes_limit(c->what, ax, *nax)))
    return rc;
  cli_setting set[3] = {CLI_SET_OPTION("law", c->type->name), CLI_SET_OPTION("transition", c->transition)};
  size_t nset = 2;
  if (c->inverse)
    set[nset++] = (cli_setting)CLI_SET_OPTION("solve", c->type->param_names[c->solved]);
  return cli_grid_sweep(c->what, problem, set, nset, ax, *nax, s);
}

static int find_name(const char *const *names, size_t n, const char *name) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(names[i], name) == 0)
      return (int)i;
  return -1;
}

static int param_of(const impactfit_sweep_problem *pr, const char *name) {
  for (size_t i = 0; i < pr->n_params; i++)
    if (strcmp(pr->params[i].name, name) == 0)
      return (int)i;
  return -1;
}

/* A column's text format: dimensionless parameters narrow (%6.3g, wider for a long name), others
 * wide; into buf. */
static const char *param_format(const law_cmd *c, const char *name, const char *narrow, const char *wide, char *buf,
                                size_t size) {
  int i = impactfit_law_param_index(c->type, name);
  int dimless = i >= 0 && c->type->param_units && strcmp(c->type->param_units[i], "-") == 0;
  const char *f = dimless ? narrow : wide;
  int w = atoi(f + 1);
  if ((int)strlen(name) > w) { /* "%6.3g" with w the name's length */
    snprintf(buf, size, "%%%d%s", (int)strlen(name), strchr(f, '.'));
    return buf;
  }
  return f;
}

typedef struct out_col {
  const char *name, *head, *fmt;
  int json_only;
} out_col;

/* ---- simulate --law ---- */

int cli_simulate_law(int argc, char **argv, const char *help_text) {
  law_cmd c = {.what = "simulate", .transition = "C", .solved = -1, .go = CLI_GRID_OPTS_INIT};
  cli_axis_spec ax[MAXP + 5];
  size_t nax = 0;
  impactfit_sweep *s = NULL;
  int rc = law_cmd_sweep(&c, argc, argv, help_text, "law-impact", ax, &nax, &s);
  if (!rc && s) {
    const impactfit_sweep_problem *pr = impactfit_sweep_get_problem(s);
    static const out_col outs[] = {
        {.name = "e_out", .head = "e_out", .fmt = "%-14.12f"},
        {.name = "t_contact", .head = "t_contact", .fmt = "%12.6g"},
        {.name = "f_max", .head = "f_max", .fmt = "%12.6g"},
        {.name = "delta_max", .head = "delta_max", .fmt = "%12.6g"},
        {.name = "delta_sep", .head = "delta_sep", .fmt = "%12.6g"},
        {.name = "zeta", .json_only = 1},
    };
    cli_col cols[MAX_COLS];
    char fmts[MAXP + 2][16];
    size_t nc = 0;
    for (size_t j = 0; j < pr->n_params; j++) {
      const char *name = pr->params[j].name, *fmt;
      if (strcmp(name, "mass") == 0)
        fmt = "%9.3g";
      else if (strcmp(name, "v") == 0)
        fmt = "%8.3g";
      else
        fmt = param_format(&c, name, "%6.3g", "%10.4g", fmts[j], sizeof fmts[j]);
      cols[nc++] = (cli_col){.head = name, .fmt = fmt, .key = name, .from = CLI_IN((int)j)};
    }
    cols[nc++] = (cli_col){.key = "law", .from = CLI_STRING(0)};
    cols[nc++] = (cli_col){.head = "tr", .fmt = " %-2s", .key = "transition", .from = CLI_STRING(1)};
    for (size_t k = 0; k < CLI_COUNT(outs); k++) {
      int o = find_name(pr->outputs, pr->n_outputs, outs[k].name);
      if (o >= 0)
        cols[nc++] = (cli_col){.head = outs[k].json_only ? NULL : outs[k].head,
                               .fmt = outs[k].fmt,
                               .key = outs[k].name,
                               .from = CLI_OUT(o),
                               .group = CLI_RESULT};
    }
    cols[nc++] = (cli_col){.head = "evals", .fmt = "%6ld", .key = "rhs_evals", .from = CLI_EVALS, .group = CLI_RESULT};
    /* a failed point names the parameters that decide e: all but the unit parameter, mass and v */
    size_t nwhere = (size_t)c.type->n_params - (c.type->unit_param ? 1u : 0u);
    cli_table t = {.what = "simulate",
                   .cols = cols,
                   .ncols = nc,
                   .shown = 1,
                   .json = c.json,
                   .csv = c.csv,
                   .nwhere = nwhere,
                   .str = {c.type->name, c.transition}};
    rc = cli_grid_exec("simulate", s, &c.go, argc, argv, cli_table_header, cli_table_row, &t);
  }
  impactfit_sweep_free(s);
  cli_axes_free(ax, nax);
  free(c.argv);
  return rc;
}

/* ---- zhang-alpha --law: the value of a parameter for e ---- */

typedef struct za_table {
  cli_table t; /* first: the printers get &t */
  int i_n, i_m, i_e, o_zeta;
} za_table;

/* Zhang's alpha of the same damping, for the laws k δ^n + c δ^m δ' (parameters n and m) */
static void za_derive(const cli_table *t, const cli_grid_row *r, double *x) {
  const za_table *z = (const za_table *)t;
  impactfit_zhang_alpha_from_zeta(r->in[z->i_n], r->in[z->i_m], r->in[z->i_e], r->out[z->o_zeta], &x[0], NULL, NULL);
}

/* the columns of a law-damping sweep: the parameters that decide e (text, CSV, JSON), law, tr, alpha
 * (laws with n and m, solving their damping), the value found ("lambda" for the damping), e_out, zeta,
 * then the unit parameter, mass and v (JSON only) */
static size_t za_columns(const law_cmd *c, const impactfit_sweep_problem *pr, za_table *z, cli_col *cols,
                         char (*fmts)[16]) {
  size_t nc = 0;
  const char *unit = c->type->unit_param;
  for (size_t j = 0; j < pr->n_params; j++) {
    const char *name = pr->params[j].name;
    if (unit && (strcmp(name, unit) == 0 || strcmp(name, "mass") == 0 || strcmp(name, "v") == 0))
      continue;
    const char *fmt = strcmp(name, "e") == 0 ? "%12.6g" : param_format(c, name, "%6.4g", "%12.6g", fmts[j], 16);
    cols[nc++] = (cli_col){.head = name, .fmt = fmt, .key = name, .from = CLI_IN((int)j)};
  }
  cols[nc++] = (cli_col){.key = "law", .from = CLI_STRING(0)};
  cols[nc++] = (cli_col){.head = "tr", .fmt = "%2s", .key = "transition", .from = CLI_STRING(1)};
  const char *solved = c->type->param_names[c->solved];
  int damping = c->type->damping && strcmp(c->type->damping, solved) == 0;
  z->o_zeta = find_name(pr->outputs, pr->n_outputs, "zeta");
  z->i_n = param_of(pr, "n");
  z->i_m = param_of(pr, "m");
  z->i_e = param_of(pr, "e");
  if (damping && z->o_zeta >= 0 && z->i_n >= 0 && z->i_m >= 0) {
    cols[nc++] =
        (cli_col){.head = "alpha", .fmt = "%20.15g", .key = "alpha", .from = CLI_DERIVED(0), .group = CLI_RESULT};
    z->t.derive = za_derive;
  }
  cols[nc++] = (cli_col){.head = damping ? "lambda" : solved,
                         .fmt = "%22.15g",
                         .key = damping ? "lambda" : solved,
                         .from = CLI_OUT(find_name(pr->outputs, pr->n_outputs, solved)),
                         .group = CLI_RESULT};
  cols[nc++] = (cli_col){.head = "e_out",
                         .fmt = "%20.15g",
                         .key = "e_out",
                         .from = CLI_OUT(find_name(pr->outputs, pr->n_outputs, "e_out")),
                         .group = CLI_RESULT};
  if (z->o_zeta >= 0)
    cols[nc++] = (cli_col){.key = "zeta", .from = CLI_OUT(z->o_zeta), .group = CLI_RESULT};
  for (size_t j = 0; unit && j < pr->n_params; j++) {
    const char *name = pr->params[j].name;
    if (strcmp(name, unit) == 0 || strcmp(name, "mass") == 0 || strcmp(name, "v") == 0)
      cols[nc++] = (cli_col){.key = name, .csv = CLI_CSV_NONE, .from = CLI_IN((int)j), .group = CLI_RESULT};
  }
  cols[nc++] = (cli_col){.head = "evals", .fmt = "%7ld", .key = "rhs_evals", .from = CLI_EVALS, .group = CLI_TAIL};
  return nc;
}

int cli_zhang_alpha_law(int argc, char **argv, const char *help_text) {
  law_cmd c = {.what = "zhang-alpha", .inverse = 1, .transition = "C", .solved = -1, .go = CLI_GRID_OPTS_INIT};
  cli_axis_spec ax[MAXP + 5];
  size_t nax = 0;
  impactfit_sweep *s = NULL;
  int rc = law_cmd_sweep(&c, argc, argv, help_text, "law-damping", ax, &nax, &s);
  if (!rc && s) {
    const impactfit_sweep_problem *pr = impactfit_sweep_get_problem(s);
    cli_col cols[MAX_COLS];
    char fmts[MAXP + 3][16];
    za_table z = {
        .t = {.what = "zhang-alpha", .shown = 1, .json = c.json, .csv = c.csv, .str = {c.type->name, c.transition}}};
    z.t.ncols = za_columns(&c, pr, &z, cols, fmts);
    z.t.cols = cols;
    z.t.nwhere = (size_t)c.type->n_params - (c.type->unit_param ? 1u : 0u);
    rc = cli_grid_exec("zhang-alpha", s, &c.go, argc, argv, cli_table_header, cli_table_row, &z.t);
  }
  impactfit_sweep_free(s);
  cli_axes_free(ax, nax);
  free(c.argv);
  return rc;
}
