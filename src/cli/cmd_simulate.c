/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit simulate: impacts through f = k d^n + c d^m d', one point or a grid of points.
 * Every run but --trace is a sweep of the library's problem "impact" (every field of the result, a
 * list of contact-end conditions as the outer axis) run by the library's runner (grid.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "help_texts.h" /* generated from docs/cli/COMMAND.txt */
#include "grid.h"
#include "impactfit/generated/accuracy.h"
#include "impactfit/impactfit.h"
#include "law_cli.h"

static const char *const help_text = cli_help_simulate; /* docs/cli/simulate.txt */

/* One trace sample on the trace file (ctx). */
static int write_point(void *ctx, const impactfit_trace_point *p) {
  FILE *f = ctx;
  fprintf(f, "%.17g,%.17g,%.17g,%.17g,%.17g,%d\n", p->t, p->delta, p->delta_dot, p->force, p->element, p->in_contact);
  return ferror(f) ? IMPACTFIT_EIO : 0;
}

/* ---- rows of the library's sweep problem "impact" (src/impact/prob_impact.c): its parameters and
 * outputs in this order ---- */

enum { P_TR, P_N, P_M, P_C, P_K, P_MASS, P_V, P_ACCEL, P_CONTACTS, P_TMAX, P_COUNT };
enum {
  O_E_OUT,
  O_T_CONTACT,
  O_F_MAX,
  O_T_FMAX,
  O_F_MIN,
  O_DELTA_MAX,
  O_T_DELTA_MAX,
  O_DELTA_START,
  O_DELTA_SEP,
  O_F_START,
  O_F_END,
  O_DAMPING_WORK,
  O_ENERGY_ERROR,
  O_ZETA,
  O_DELTA_M0,
  O_STEPS,
  O_CONTACTS,
  O_COUNT
};
_Static_assert(O_COUNT == IMPACTFIT_IMPACT_ROW, "the outputs of problem impact (impact.h)");

/* The columns of the rows: the text table (n m c k ...), CSV (status before the results) and JSON
 * (every field of the result) in their orders; W_CSV marks what only CSV prints. */
enum { W_CSV = 1u };
#define OUT(key_, idx) /* a result in JSON only */ \
  { .key = key_, .csv = CLI_CSV_NONE, .from = CLI_OUT(idx), .group = CLI_RESULT }
static const cli_col cols[] = {
    {.head = "n", .fmt = "%6.3g", .key = "n", .from = CLI_IN(P_N)},
    {.head = "m", .fmt = "%6.3g", .key = "m", .from = CLI_IN(P_M)},
    {.head = "c", .fmt = "%10.4g", .from = CLI_IN(P_C)},
    {.head = "k", .fmt = "%10.4g", .key = "k", .from = CLI_IN(P_K)},
    {.key = "c", .from = CLI_IN(P_C)},
    {.head = "mass", .fmt = "%9.3g", .key = "mass", .from = CLI_IN(P_MASS)},
    {.head = "v", .fmt = "%8.3g", .key = "v", .from = CLI_IN(P_V)},
    {.head = "tr", .fmt = " %-2s", .key = "transition", .from = CLI_NAME_OF(P_TR)},
    {.key = "status", .from = CLI_STATUS_NAME, .when = W_CSV},
    /* a finite %.12f is >= 14 wide: pads the header only */
    {.head = "e_out", .fmt = "%-14.12f", .key = "e_out", .from = CLI_OUT(O_E_OUT), .group = CLI_RESULT},
    {.head = "t_contact", .fmt = "%12.6g", .key = "t_contact", .from = CLI_OUT(O_T_CONTACT), .group = CLI_RESULT},
    {.head = "f_max", .fmt = "%12.6g", .key = "f_max", .from = CLI_OUT(O_F_MAX), .group = CLI_RESULT},
    OUT("t_fmax", O_T_FMAX),
    OUT("f_min", O_F_MIN),
    {.head = "delta_max", .fmt = "%12.6g", .key = "delta_max", .from = CLI_OUT(O_DELTA_MAX), .group = CLI_RESULT},
    OUT("t_delta_max", O_T_DELTA_MAX),
    OUT("delta_start", O_DELTA_START),
    {.head = "delta_sep", .fmt = "%12.6g", .key = "delta_sep", .from = CLI_OUT(O_DELTA_SEP), .group = CLI_RESULT},
    OUT("f_start", O_F_START),
    OUT("f_end", O_F_END),
    OUT("damping_work", O_DAMPING_WORK),
    {.head = "E_err", .fmt = "%8.1e", .from = CLI_OUT(O_ENERGY_ERROR), .group = CLI_RESULT},
    {.fmt = "%.3g",
     .key = "energy_error",
     .csv = CLI_CSV_TEXT_FORMAT,
     .from = CLI_OUT(O_ENERGY_ERROR),
     .group = CLI_RESULT,
     .when = W_CSV},
    OUT("energy_error", O_ENERGY_ERROR),
    {.key = "zeta", .from = CLI_OUT(O_ZETA), .group = CLI_RESULT},
    OUT("delta_m0", O_DELTA_M0),
    {.head = "evals", .fmt = "%6ld", .key = "rhs_evals", .from = CLI_EVALS, .group = CLI_RESULT},
    {.fmt = "%ld", .key = "steps", .csv = CLI_CSV_NONE, .from = CLI_OUT(O_STEPS), .group = CLI_RESULT},
    {.fmt = "%d", .key = "contacts", .csv = CLI_CSV_NONE, .from = CLI_OUT(O_CONTACTS), .group = CLI_RESULT},
};
#undef OUT

static void print_detail(const impactfit_impact_params *p, const impactfit_impact_result *r) {
  printf("impact: n = %g, m = %g, k = %g N/m^n, c = %g, mass = %g kg, v = %g m/s, transition %s\n", p->n, p->m, p->k,
         p->c, p->mass, p->v, p->transition->name);
  printf("  %-22s %.15g\n", "e_out", r->e_out);
  printf("  %-22s %.15g s\n", "t_contact", r->t_contact);
  printf("  %-22s %.15g N at t = %.10g s\n", "f_max", r->f_max, r->t_fmax);
  printf("  %-22s %.15g N\n", "f_min", r->f_min);
  printf("  %-22s %.15g m at t = %.10g s\n", "delta_max", r->delta_max, r->t_delta_max);
  printf("  %-22s %.15g m\n", "delta_start", r->delta_start);
  printf("  %-22s %.15g m\n", "delta_sep", r->delta_sep);
  printf("  %-22s %.15g N / %.15g N\n", "force at start / end", r->f_start, r->f_end);
  printf("  %-22s %.15g J\n", "damping_work", r->damping_work);
  printf("  %-22s %.3g (relative to the initial kinetic energy)\n", "energy_error", r->energy_error);
  printf("  %-22s zeta = %.15g, delta_m0 = %.15g m\n", "scaled problem", r->zeta, r->delta_m0);
  printf("  %-22s %ld RHS evaluations, %ld steps, %d contact(s)\n", "cost", r->rhs_evals, r->steps, r->n_contacts);
}

typedef struct sim_print {
  cli_table t; /* the rows (JSON, CSV or text); t.str: the names of the transitions */
  size_t ntr;  /* their number */
  int detail;  /* one point, no format: the detailed report, or the error alone */
  int single_rc;
} sim_print;

/* "C" or "A,C" into the names of the transitions; 0 or -1. */
static int parse_transitions(const char *list, const char **str, size_t *ntr) {
  static const char *const names[4] = {"A", "B", "C", "D"};
  size_t idx[4];
  if (cli_parse_names(list, names, 4, 0, 1, 4, idx, ntr))
    return -1;
  for (size_t i = 0; i < *ntr; i++)
    str[i] = names[idx[i]];
  return 0;
}

static void to_params(const sim_print *c, const double *in, impactfit_impact_params *p) {
  *p = impactfit_impact_default_params();
  p->transition = impactfit_transition_from_name(c->t.str[(size_t)in[P_TR] < c->ntr ? (size_t)in[P_TR] : 0]);
  p->n = in[P_N];
  p->m = in[P_M];
  p->c = in[P_C];
  p->k = in[P_K];
  p->mass = in[P_MASS];
  p->v = in[P_V];
  p->accel = in[P_ACCEL];
  p->max_contacts = (int)in[P_CONTACTS];
  p->t_max = in[P_TMAX];
}

static void sim_header(void *ctx) {
  sim_print *c = ctx;
  if (!c->detail)
    cli_table_header(&c->t);
}

static void sim_row(void *ctx, const cli_grid_row *row) {
  sim_print *c = ctx;
  impactfit_impact_params p;
  to_params(c, row->in, &p);
  if (c->detail && row->status) {
    impactfit_error err;
    impactfit_error_clear(&err);
    snprintf(err.message, sizeof err.message, "%s", row->message);
    c->single_rc = cli_status_error(row->status, &err, "simulate");
  } else if (c->detail) {
    impactfit_impact_result r;
    impactfit_impact_result_from_row(row->out, row->rhs_evals, &r);
    print_detail(&p, &r);
  } else {
    cli_table_row(&c->t, row);
    if (row->status)
      cli_row_failed("simulate", row->message, "point %zu (n = %g, c = %g)", row->index, p.n, p.c);
  }
}

/* The axes in grid order after the transition: n, m, c, k, mass, v (the problem's P_N ... P_V). */
enum { A_N, A_M, A_C, A_K, A_MASS, A_V, A_COUNT };

/* The parameters in[P_COUNT] of point idx of the grid (transition outermost, v fastest) with the
 * fixed accel, contacts and t_max of base. */
static void grid_point(const impactfit_impact_params *base, const cli_axis_spec *ax, size_t idx, double *in) {
  for (int i = A_COUNT - 1; i >= 0; i--) {
    in[P_N + i] = cli_axis_value(&ax[i].ax, idx % ax[i].ax.n);
    idx /= ax[i].ax.n;
  }
  in[P_TR] = (double)idx;
  in[P_ACCEL] = base->accel;
  in[P_CONTACTS] = base->max_contacts;
  in[P_TMAX] = base->t_max;
}

/* Invalid parameters are input errors: every point is checked before any output (in grid order,
 * without storing them), by the library's scales of the impact. */
static int check_points(const impactfit_impact_params *base, const sim_print *pc, const cli_axis_spec *ax,
                        size_t total) {
  for (size_t idx = 0; idx < total; idx++) {
    double in[P_COUNT];
    impactfit_impact_params p;
    grid_point(base, ax, idx, in);
    to_params(pc, in, &p);
    impactfit_error err;
    impactfit_error_clear(&err);
    int st = impactfit_impact_scales(&p, NULL, NULL, NULL, NULL, NULL, &err);
    if (st)
      return cli_status_error(st, &err, "simulate");
  }
  return 0;
}

/* --trace: the one point in[] with its trajectory written to FILE, then printed as the format asks. */
static int run_trace(const double *in, const char *trace, int points, sim_print *pc) {
  impactfit_impact_params p;
  impactfit_impact_result r;
  memset(&r, 0, sizeof r);
  to_params(pc, in, &p);
  impactfit_impact_workspace *ws = impactfit_impact_alloc();
  cli_out outf;
  if (!ws)
    return cli_input_error("out of memory");
  int rc = cli_out_open(&outf, trace);
  if (rc) {
    impactfit_impact_free(ws);
    return rc;
  }
  fputs("t,delta,delta_dot,force,element,in_contact\n", outf.f);
  impactfit_error err;
  impactfit_error_clear(&err);
  int st = impactfit_impact_trace(ws, &p, (size_t)points, write_point, outf.f, &r, &err);
  impactfit_impact_free(ws);
  if (st) {
    cli_out_abort(&outf);
    return cli_status_error(st, &err, "simulate");
  }
  if ((rc = cli_out_commit(&outf)))
    return rc;
  if (pc->detail) {
    print_detail(&p, &r);
    return CLI_OK;
  }
  double out[IMPACTFIT_IMPACT_ROW];
  impactfit_impact_result_to_row(&r, out);
  const cli_grid_row row = {.index = 0, .in = in, .out = out, .status = 0, .rhs_evals = r.rhs_evals, .message = ""};
  cli_table_header(&pc->t);
  cli_table_row(&pc->t, &row);
  return CLI_OK;
}

static const char *const unit_options[] = {"k", "mass", "v"}; /* all or none (cli_units) */

int impactfit_cmd_simulate(int argc, char **argv) {
  if (cli_law_given(argc, argv)) /* a force law of law.h (law_cli.c) */
    return cli_simulate_law(argc, argv, help_text);
  impactfit_impact_params base = impactfit_impact_default_params();
  const char *s_n = NULL, *s_c = NULL, *s_m = "0", *s_k = "1", *s_mass = "1", *s_v = "1";
  const char *transition = "C", *trace = NULL;
  int json = 0, csv = 0, help = 0, contacts = 1, points = 401;
  cli_grid_opts go = CLI_GRID_OPTS_INIT;
  cli_spec opts[] = {
      CLI_STR("n", &s_n),
      CLI_STR("m", &s_m),
      CLI_STR("c", &s_c),
      CLI_STR("k", &s_k),
      CLI_STR("mass", &s_mass),
      CLI_STR("v", &s_v),
      CLI_NUM("accel", &base.accel),
      CLI_ANYINT("contacts", &contacts),
      CLI_NUM("t-max", &base.t_max),
      CLI_STR("transition", &transition),
      CLI_STR("trace", &trace),
      CLI_ANYINT("trace-points", &points),
      CLI_FLAG("json", &json),
      CLI_FLAG("csv", &csv),
      CLI_GRID_SPECS(go),
  };
  const size_t nopt = CLI_COUNT(opts);
  int rc = cli_options(argc, argv, opts, nopt, help_text, &help, NULL, 0, NULL);
  if (rc || help)
    return rc;
  if (!s_n)
    return cli_input_error("simulate: --n is required (spring exponent, > 0)");
  if (cli_given(opts, nopt, "t-max") && !(base.t_max > 0.0))
    return cli_input_error("--t-max: expected a time bound > 0, got %.17g", base.t_max);
  if (!s_c)
    return cli_input_error("simulate: --c is required (damping coefficient, >= 0)");
  int dims = 0;
  if ((rc = cli_units("simulate", opts, nopt, unit_options, 3, &dims)) || (rc = cli_json_csv("simulate", json, csv)) ||
      (rc = cli_grid_check("simulate", &go, json || csv || trace)))
    return rc;
  base.max_contacts = contacts;
  /* --transition: one condition or a comma list (the outermost grid axis). */
  sim_print pc = {.t = {.cols = cols, .ncols = CLI_COUNT(cols), .shown = csv ? W_CSV : 0u, .json = json, .csv = csv}};
  if (parse_transitions(transition, pc.t.str, &pc.ntr))
    return cli_input_error("--transition: expected A, B, C, D or a list of them, got '%s'", transition);
  if (trace && (points < 2 || points > 10000000))
    return cli_input_error("--trace-points: expected 2..10000000, got %d", points);
  if (!trace && cli_given(opts, nopt, "trace-points"))
    return cli_input_error("--trace-points needs --trace FILE");

  cli_axis_spec ax[A_COUNT] = {
      CLI_AXIS("--n", "n", s_n, NULL), CLI_AXIS("--m", "m", s_m, NULL),          CLI_AXIS("--c", "c", s_c, NULL),
      CLI_AXIS("--k", "k", s_k, NULL), CLI_AXIS("--mass", "mass", s_mass, NULL), CLI_AXIS("--v", "v", s_v, NULL),
  };
  impactfit_sweep *s = NULL;
  double total = (double)pc.ntr * cli_axes_total(ax, 0);
  if (!(rc = cli_axes_parse(ax, A_COUNT, NULL))) {
    total = (double)pc.ntr * cli_axes_total(ax, A_COUNT);
    if (total > 1e8)
      rc = cli_input_error("simulate: the grid has %.0f points (at most 1e8)", total);
    else if (trace && total > 1)
      rc = cli_input_error("simulate: --trace needs a single point, the grid has %.0f", total);
    else
      rc = check_points(&base, &pc, ax, (size_t)total);
  }
  pc.detail = total == 1 && !json && !csv;
  if (!rc) {
    if (!dims)
      cli_note_scaled("simulate", "times, forces, lengths and energies");
    if (trace) {
      double in[P_COUNT];
      grid_point(&base, ax, 0, in);
      rc = run_trace(in, trace, points, &pc);
    } else {
      static const double idx[4] = {0, 1, 2, 3};
      const cli_setting set[] = {CLI_SET_OPTION("transitions", transition), CLI_SET_FIXED("accel", base.accel),
                                 CLI_SET_FIXED("contacts", (double)base.max_contacts),
                                 CLI_SET_FIXED("t_max", base.t_max), CLI_SET_LIST("transition_index", idx, pc.ntr)};
      rc = cli_grid_sweep("simulate", "impact", set, CLI_COUNT(set), ax, A_COUNT, &s);
    }
  }
  if (!rc && s) {
    rc = cli_grid_exec("simulate", s, &go, argc, argv, sim_header, sim_row, &pc);
    if (pc.detail && pc.single_rc)
      rc = pc.single_rc;
  }
  impactfit_sweep_free(s);
  cli_axes_free(ax, A_COUNT);
  return rc;
}
