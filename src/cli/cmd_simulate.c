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

static const char *const help_text = cli_help_simulate; /* docs/cli/simulate.txt */

typedef struct trace_ctx {
  FILE *f;
} trace_ctx;

static int write_point(void *vctx, const impactfit_trace_point *p) {
  trace_ctx *c = vctx;
  fprintf(c->f, "%.17g,%.17g,%.17g,%.17g,%.17g,%d\n", p->t, p->delta, p->delta_dot, p->force, p->element,
          p->in_contact);
  return ferror(c->f) ? IMPACTFIT_EIO : 0;
}

typedef struct point {
  impactfit_impact_params p;
  impactfit_impact_result r;
  int status;
  const char *message;
} point;

/* The result's JSON members; the first O_STEPS of them are also the problem's outputs, in order. */
#define RES(f) CLI_FIELD(impactfit_impact_result, f, 'd')
static const cli_field result_fields[] = {RES(e_out),
                                          RES(t_contact),
                                          RES(f_max),
                                          RES(t_fmax),
                                          RES(f_min),
                                          RES(delta_max),
                                          RES(t_delta_max),
                                          RES(delta_start),
                                          RES(delta_sep),
                                          RES(f_start),
                                          RES(f_end),
                                          RES(damping_work),
                                          RES(energy_error),
                                          RES(zeta),
                                          RES(delta_m0),
                                          CLI_FIELD(impactfit_impact_result, rhs_evals, 'l'),
                                          CLI_FIELD(impactfit_impact_result, steps, 'l'),
                                          CLI_FIELD_AS("contacts", impactfit_impact_result, n_contacts, 'i')};

static void print_json(const point *pt) {
  const impactfit_impact_params *p = &pt->p;
  cli_json j;
  cli_json_begin(&j, stdout);
  cli_json_num(&j, "n", p->n);
  cli_json_num(&j, "m", p->m);
  cli_json_num(&j, "k", p->k);
  cli_json_num(&j, "c", p->c);
  cli_json_num(&j, "mass", p->mass);
  cli_json_num(&j, "v", p->v);
  cli_json_str(&j, "transition", p->transition->name);
  if (cli_json_status(&j, pt->status, pt->message))
    cli_json_fields(&j, &pt->r, result_fields, CLI_COUNT(result_fields));
  cli_json_end(&j);
}

static const char *csv_header = "n,m,k,c,mass,v,transition,status,e_out,t_contact,f_max,delta_max,"
                                "delta_sep,energy_error,zeta,rhs_evals";

static void print_csv(const point *pt) {
  const impactfit_impact_params *p = &pt->p;
  const impactfit_impact_result *r = &pt->r;
  printf("%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%s,%s", p->n, p->m, p->k, p->c, p->mass, p->v, p->transition->name,
         impactfit_status_name(pt->status));
  if (pt->status)
    printf(",,,,,,,,\n");
  else
    printf(",%.17g,%.17g,%.17g,%.17g,%.17g,%.3g,%.17g,%ld\n", r->e_out, r->t_contact, r->f_max, r->delta_max,
           r->delta_sep, r->energy_error, r->zeta, r->rhs_evals);
}

static void print_row(const point *pt) {
  const impactfit_impact_params *p = &pt->p;
  const impactfit_impact_result *r = &pt->r;
  printf("%6.3g %6.3g %10.4g %10.4g %9.3g %8.3g  %-2s", p->n, p->m, p->c, p->k, p->mass, p->v, p->transition->name);
  if (pt->status)
    printf(" %s\n", impactfit_status_name(pt->status));
  else
    printf(" %.12f %12.6g %12.6g %12.6g %12.6g %8.1e %6ld\n", r->e_out, r->t_contact, r->f_max, r->delta_max,
           r->delta_sep, r->energy_error, r->rhs_evals);
}

static void print_detail(const point *pt) {
  const impactfit_impact_params *p = &pt->p;
  const impactfit_impact_result *r = &pt->r;
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

typedef struct sim_state {
  const impactfit_transition *trs[4];
  size_t ntr;
} sim_state;

/* "C" or "A,C" into transitions; 0 or -1. */
static int parse_transitions(const char *list, const impactfit_transition **trs, size_t *ntr) {
  static const char *const names[4] = {"A", "B", "C", "D"};
  size_t idx[4];
  if (cli_parse_names(list, names, 4, 0, 1, 4, idx, ntr))
    return -1;
  for (size_t i = 0; i < *ntr; i++)
    trs[i] = impactfit_transition_from_name(names[idx[i]]);
  return 0;
}

static void to_params(const sim_state *st, const double *in, impactfit_impact_params *p) {
  *p = impactfit_impact_default_params();
  p->transition = st->trs[(size_t)in[P_TR] < st->ntr ? (size_t)in[P_TR] : 0];
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

typedef struct sim_print {
  int json, csv, detail;
  sim_state tr; /* the transitions (no workspace) */
  int single_rc;
} sim_print;

static void sim_header(void *ctx) {
  const sim_print *c = ctx;
  if (c->detail)
    return;
  if (c->csv)
    puts(csv_header);
  else if (!c->json)
    printf("%6s %6s %10s %10s %9s %8s  %-2s %-14s %12s %12s %12s %12s %8s %6s\n", "n", "m", "c", "k", "mass", "v", "tr",
           "e_out", "t_contact", "f_max", "delta_max", "delta_sep", "E_err", "evals");
}

static void print_detail(const point *pt);

static void sim_row(void *ctx, const cli_grid_row *row) {
  sim_print *c = ctx;
  point pt;
  memset(&pt, 0, sizeof pt);
  to_params(&c->tr, row->in, &pt.p);
  const double *o = row->out;
  pt.status = row->status;
  pt.message = row->message;
  if (!row->status) {
    for (size_t k = 0; k < O_STEPS; k++)
      *(double *)((char *)&pt.r + result_fields[k].off) = o[k];
    pt.r.steps = (long)o[O_STEPS];
    pt.r.n_contacts = (int)o[O_CONTACTS];
    pt.r.rhs_evals = row->rhs_evals;
  }
  if (c->detail) { /* one point, no format: the detailed report, or the error alone */
    if (pt.status) {
      impactfit_error err;
      impactfit_error_clear(&err);
      snprintf(err.message, sizeof err.message, "%s", pt.message);
      c->single_rc = cli_status_error(pt.status, &err, "simulate");
    } else {
      print_detail(&pt);
    }
    return;
  }
  if (c->json)
    print_json(&pt);
  else if (c->csv)
    print_csv(&pt);
  else
    print_row(&pt);
  if (pt.status)
    cli_row_failed("simulate", pt.message, "point %zu (n = %g, c = %g)", row->index, pt.p.n, pt.p.c);
}

/* The axes in grid order after the transition: n, m, c, k, mass, v. */
enum { A_N, A_M, A_C, A_K, A_MASS, A_V, A_COUNT };

/* The point idx of the grid (transition outermost, v fastest) on top of base. */
static void grid_point(const impactfit_impact_params *base, const sim_state *trl, const cli_axis_spec *ax, size_t idx,
                       impactfit_impact_params *p) {
  size_t r = idx, ii[A_COUNT];
  for (int i = A_COUNT - 1; i >= 0; i--) {
    ii[i] = r % ax[i].ax.n;
    r /= ax[i].ax.n;
  }
  *p = *base;
  p->transition = trl->trs[r];
  p->n = cli_axis_value(&ax[A_N].ax, ii[A_N]);
  p->m = cli_axis_value(&ax[A_M].ax, ii[A_M]);
  p->c = cli_axis_value(&ax[A_C].ax, ii[A_C]);
  p->k = cli_axis_value(&ax[A_K].ax, ii[A_K]);
  p->mass = cli_axis_value(&ax[A_MASS].ax, ii[A_MASS]);
  p->v = cli_axis_value(&ax[A_V].ax, ii[A_V]);
}

/* Invalid parameters are input errors: every point is checked before any output (in grid order,
 * without storing them), by the library's scales of the impact. */
static int check_points(const impactfit_impact_params *base, const sim_state *trl, const cli_axis_spec *ax,
                        size_t total) {
  for (size_t idx = 0; idx < total; idx++) {
    impactfit_impact_params p;
    grid_point(base, trl, ax, idx, &p);
    impactfit_error err;
    impactfit_error_clear(&err);
    int st = impactfit_impact_scales(&p, NULL, NULL, NULL, NULL, NULL, &err);
    if (st)
      return cli_status_error(st, &err, "simulate");
  }
  return 0;
}

/* --trace: the one point with its trajectory written to FILE, then printed as the format asks. */
static int run_trace(const impactfit_impact_params *p0, const char *trace, int points, int json, int csv,
                     const sim_state *trl) {
  point pt;
  memset(&pt, 0, sizeof pt);
  pt.p = *p0;
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
  trace_ctx tc = {outf.f};
  impactfit_error err;
  impactfit_error_clear(&err);
  pt.status = impactfit_impact_trace(ws, &pt.p, (size_t)points, write_point, &tc, &pt.r, &err);
  impactfit_impact_free(ws);
  if (pt.status) {
    cli_out_abort(&outf);
    return cli_status_error(pt.status, &err, "simulate");
  }
  if ((rc = cli_out_commit(&outf)))
    return rc;
  if (!json && !csv) {
    print_detail(&pt);
    return CLI_OK;
  }
  sim_print pc = {json, csv, 0, *trl, 0};
  sim_header(&pc);
  if (json)
    print_json(&pt);
  else
    print_csv(&pt);
  return CLI_OK;
}

int impactfit_cmd_simulate(int argc, char **argv) {
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
  if ((rc = cli_json_csv("simulate", json, csv)) || (rc = cli_grid_check("simulate", &go, json || csv || trace)))
    return rc;
  base.max_contacts = contacts;
  /* --transition: one condition or a comma list (the outermost grid axis). */
  sim_state trl;
  memset(&trl, 0, sizeof trl);
  if (parse_transitions(transition, trl.trs, &trl.ntr))
    return cli_input_error("--transition: expected A, B, C, D or a list of them, got '%s'", transition);
  base.transition = trl.trs[0];
  if (trace && (points < 2 || points > 10000000))
    return cli_input_error("--trace-points: expected 2..10000000, got %d", points);
  if (!trace && cli_given(opts, nopt, "trace-points"))
    return cli_input_error("--trace-points needs --trace FILE");

  cli_axis_spec ax[A_COUNT] = {
      CLI_AXIS("--n", "n", s_n, NULL), CLI_AXIS("--m", "m", s_m, NULL),          CLI_AXIS("--c", "c", s_c, NULL),
      CLI_AXIS("--k", "k", s_k, NULL), CLI_AXIS("--mass", "mass", s_mass, NULL), CLI_AXIS("--v", "v", s_v, NULL),
  };
  impactfit_sweep *s = NULL;
  double total = (double)trl.ntr * cli_axes_total(ax, 0);
  if (!(rc = cli_axes_parse(ax, A_COUNT, NULL))) {
    total = (double)trl.ntr * cli_axes_total(ax, A_COUNT);
    if (total > 1e8)
      rc = cli_input_error("simulate: the grid has %.0f points (at most 1e8)", total);
    else if (trace && total > 1)
      rc = cli_input_error("simulate: --trace needs a single point, the grid has %.0f", total);
    else
      rc = check_points(&base, &trl, ax, (size_t)total);
  }
  if (!rc) {
    cli_note_scaled("simulate", opts, nopt, "times, forces, lengths and energies");
    if (trace) {
      impactfit_impact_params p0;
      grid_point(&base, &trl, ax, 0, &p0);
      rc = run_trace(&p0, trace, points, json, csv, &trl);
    } else {
      static const double idx[4] = {0, 1, 2, 3};
      const cli_setting set[] = {{"transitions", transition, 0, NULL, 0},
                                 {"accel", NULL, base.accel, NULL, 0},
                                 {"contacts", NULL, (double)base.max_contacts, NULL, 0},
                                 {"t_max", NULL, base.t_max, NULL, 0},
                                 {"transition_index", NULL, 0, idx, trl.ntr}};
      rc = cli_grid_sweep("simulate", "impact", set, CLI_COUNT(set), ax, A_COUNT, &s);
    }
  }
  if (!rc && s) {
    sim_print pc = {json, csv, total == 1 && !json && !csv, trl, 0};
    rc = cli_grid_exec("simulate", s, &go, argc, argv, sim_header, sim_row, &pc);
    if (pc.detail && pc.single_rc)
      rc = pc.single_rc;
  }
  impactfit_sweep_free(s);
  cli_axes_free(ax, A_COUNT);
  return rc;
}
