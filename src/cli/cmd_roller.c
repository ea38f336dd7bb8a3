/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit roller: Jönsson et al.'s vibratory roller under transition conditions A–D, at steady state. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "impactfit/impactfit.h"
#include "roller_table.h"

#define PI 3.14159265358979323846

static const char *help_text =
    "usage: impactfit roller --case I|II|III|IV --transition A|B|C|D [--periods P]\n"
    "                        [--trace FILE.csv [--trace-points N]] [--json]\n\n"
    "The vibratory roller of Jonsson, Bathelt & Broman (2005): a drum (2000 kg) on the soil through\n"
    "the contact element k x + c x', a frame (1000 kg) on the drum through k23 = 1e6 N/m,\n"
    "c23 = 1e4 N s/m, gravity, and the excitation 58.8 kN sin(w t) on the drum, switched on at\n"
    "t = 0 from the static equilibrium. Cases (k N/m, c N s/m, w rad/s): I (5e6, 8e4, 40 pi),\n"
    "II (2e8, 5.06e5, 40 pi), III (2e8, 5.06e5, 80 pi), IV (2e8, 2.53e6, 80 pi).\n"
    "Runs to the periodic steady state (the state sampled once per period repeats after q periods\n"
    "to --tol, scaled by the element's deflection L and V = L max(w, sqrt(k/m_drum)), and the\n"
    "transient's decay shows it is gone), then reports per excitation period: contact losses,\n"
    "contact fraction, time below the undeformed surface, drum acceleration extremes, contact\n"
    "force extremes, and whether a tensile force or a force without touching occurred.\n\n"
    "  --case X         I, II, III, IV, a list such as I,III, or all\n"
    "  --transition X   A: contact while the drum is below the surface; B: while the element force\n"
    "                   is positive; C: from touching until the force falls to zero; D: as C, the\n"
    "                   soil then relaxes by itself and contact restarts on the relaxing surface;\n"
    "                   a list such as C,D, or all\n"
    "  --periods P      steady-state periods described (and traced), default twice the multiplicity\n"
    "  --max-periods N  give up (exit 1) when no steady state appears within N periods, default 20000\n"
    "  --tol TOL        steady-state tolerance (scaled), default 1e-8\n"
    "  --trace FILE     CSV of the described periods (one case and condition): t, x_drum, x_frame,\n"
    "                   v_drum, v_frame, a_drum, force, element, in_contact, event (0 sample,\n"
    "                   1 contact starts, 2 contact ends; each transition gives two rows, before\n"
    "                   and after); positions in m (x up, drum's lowest point, undeformed soil\n"
    "                   surface at 0, frame spring free length 0.5 m), t in s from the\n"
    "                   excitation's start; '-': standard output (the results then go to\n"
    "                   standard error)\n"
    "  --trace-points N samples per excitation period in the trace, default 200\n"
    "  --json           JSON: a summary object per case and condition, then one per period\n\n"
    "Several cases or conditions print one summary row each. Exit status: 0 success, 1 no steady\n"
    "state or a numerical failure (other rows are still printed), 2 invalid input.\n";

static int parse_cases(const char *s, int *cases, int *n) {
  *n = 0;
  if (strcasecmp(s, "all") == 0) {
    for (int i = 0; i < 4; i++)
      cases[(*n)++] = i + 1;
    return 0;
  }
  const char *p = s;
  for (;;) {
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    int found = 0;
    for (int i = 0; i < 4; i++)
      if (len == strlen(roller_case_names[i]) && strncasecmp(p, roller_case_names[i], len) == 0)
        found = i + 1;
    if (!found || *n == 4)
      return cli_input_error("--case: expected I, II, III, IV, a list of them or all, got '%s'", s);
    cases[(*n)++] = found;
    if (!comma)
      break;
    p = comma + 1;
  }
  return 0;
}

static int parse_transitions(const char *s, const impactfit_transition **trs, int *n) {
  *n = 0;
  if (strcasecmp(s, "all") == 0) {
    trs[0] = impactfit_transition_A;
    trs[1] = impactfit_transition_B;
    trs[2] = impactfit_transition_C;
    trs[3] = impactfit_transition_D;
    *n = 4;
    return 0;
  }
  const char *p = s;
  for (;;) {
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    char name[4] = "";
    const impactfit_transition *tr = NULL;
    if (len < sizeof name) {
      memcpy(name, p, len);
      name[len] = '\0';
      tr = impactfit_transition_from_name(name);
    }
    if (!tr || *n == 4)
      return cli_input_error("--transition: expected A, B, C, D, a list of them or all, got '%s'", s);
    trs[(*n)++] = tr;
    if (!comma)
      break;
    p = comma + 1;
  }
  return 0;
}

typedef struct trace_ctx {
  FILE *f;
} trace_ctx;

static int write_point(void *vctx, const impactfit_mb1d_point *p) {
  trace_ctx *c = vctx;
  fprintf(c->f, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%d,%d\n", p->t, p->x[0], p->x[1],
          p->v[0], p->v[1], p->a[0], p->force, p->element, p->in_contact, p->kind);
  return ferror(c->f) ? IMPACTFIT_EIO : 0;
}

typedef roller_run run;

static const double G0 = 9.81; /* accelerations are also printed in units of g = 9.81 m/s² */

static void print_json(const run *R, impactfit_mb1d_workspace *ws) {
  cli_json j;
  cli_json_begin(&j, stdout);
  cli_json_str(&j, "record", "summary");
  cli_json_str(&j, "case", roller_case_names[R->case_no - 1]);
  cli_json_str(&j, "transition", R->tr->name);
  cli_json_num(&j, "k", R->sys.k);
  cli_json_num(&j, "c", R->sys.c);
  cli_json_num(&j, "omega", R->sys.omega);
  cli_json_str(&j, "status", impactfit_status_name(R->status));
  if (R->status) {
    cli_json_str(&j, "error", R->message);
    cli_json_end(&j);
    return;
  }
  const impactfit_mb1d_result *r = &R->r;
  cli_json_int(&j, "multiplicity", r->multiplicity);
  cli_json_int(&j, "transient_periods", r->transient_periods);
  cli_json_num(&j, "distance", r->distance);
  cli_json_num(&j, "error_estimate", r->error_estimate);
  cli_json_num(&j, "period_contrast", r->period_contrast);
  cli_json_int(&j, "periods", r->n_periods);
  cli_json_num(&j, "losses_per_period", r->losses_per_period);
  cli_json_num(&j, "contact_fraction", r->contact_fraction);
  cli_json_num(&j, "touch_fraction", r->touch_fraction);
  cli_json_num(&j, "a_max", r->a_max);
  cli_json_num(&j, "a_min", r->a_min);
  cli_json_num(&j, "f_max", r->f_max);
  cli_json_num(&j, "f_min", r->f_min);
  cli_json_int(&j, "tensile", r->tensile);
  cli_json_int(&j, "untouched_force", r->untouched_force);
  cli_json_num(&j, "delta_min", r->delta_min);
  cli_json_num(&j, "delta_max", r->delta_max);
  cli_json_num(&j, "length_scale", r->length_scale);
  cli_json_num(&j, "velocity_scale", r->velocity_scale);
  cli_json_int(&j, "steps", r->steps);
  cli_json_int(&j, "rhs_evals", r->rhs_evals);
  cli_json_end(&j);
  for (int i = 0; i < r->n_periods; i++) {
    impactfit_mb1d_period P;
    impactfit_mb1d_period_get(ws, i, &P);
    cli_json_begin(&j, stdout);
    cli_json_str(&j, "record", "period");
    cli_json_str(&j, "case", roller_case_names[R->case_no - 1]);
    cli_json_str(&j, "transition", R->tr->name);
    cli_json_int(&j, "period", i);
    cli_json_num(&j, "t_start", P.t_start);
    cli_json_int(&j, "contact_starts", P.contact_starts);
    cli_json_int(&j, "contact_losses", P.contact_losses);
    cli_json_num(&j, "contact_fraction", P.contact_fraction);
    cli_json_num(&j, "touch_fraction", P.touch_fraction);
    cli_json_num(&j, "untouched_force_fraction", P.untouched_force_fraction);
    cli_json_num(&j, "a_max", P.a_max);
    cli_json_num(&j, "a_min", P.a_min);
    cli_json_num(&j, "f_max", P.f_max);
    cli_json_num(&j, "f_min", P.f_min);
    cli_json_num(&j, "delta_max", P.delta_max);
    cli_json_num(&j, "delta_min", P.delta_min);
    cli_json_end(&j);
  }
}

static void print_detail(const run *R, impactfit_mb1d_workspace *ws) {
  const impactfit_mb1d_system *S = &R->sys;
  const impactfit_mb1d_result *r = &R->r;
  double T = 2.0 * PI / S->omega;
  printf("roller case %s, transition %s: k = %g N/m, c = %g N s/m, w = %.6g rad/s (%g Hz)\n",
         roller_case_names[R->case_no - 1], R->tr->name, S->k, S->c, S->omega, S->omega / (2.0 * PI));
  printf("  steady state after %d periods (%.4g s): multiplicity %d\n", r->transient_periods,
         r->transient_periods * T, r->multiplicity);
  printf("    (scaled distance %.2g, estimated distance from the orbit %.2g; consecutive periods\n"
         "     differ by %.3g; scales L = %.4g m, V = %.4g m/s)\n",
         r->distance, r->error_estimate, r->period_contrast, r->length_scale, r->velocity_scale);
  printf("  over %d steady-state periods:\n", r->n_periods);
  printf("    %-36s %.4g\n", "contact losses per period", r->losses_per_period);
  printf("    %-36s %.4f\n", "contact fraction (element active)", r->contact_fraction);
  printf("    %-36s %.4f\n", "touch fraction (drum below surface)", r->touch_fraction);
  printf("    %-36s %.6g m/s^2 (%.4g g) / %.6g m/s^2 (%.4g g)\n", "drum acceleration max / min", r->a_max,
         r->a_max / G0, r->a_min, r->a_min / G0);
  printf("    %-36s %.6g N / %.6g N\n", "contact force max / min", r->f_max, r->f_min);
  printf("    %-36s %.6g m / %.6g m\n", "penetration max / min", r->delta_max, r->delta_min);
  printf("    %-36s %s\n", "tensile contact force", r->tensile ? "yes" : "no");
  printf("    %-36s %s\n", "contact force without touching", r->untouched_force ? "yes" : "no");
  printf("  %6s %11s %6s %8s %8s %8s %9s %9s %11s %11s %11s %11s\n", "period", "t_start_s", "losses",
         "contact", "touch", "no_touch", "a_max_g", "a_min_g", "f_max_N", "f_min_N", "delta_max_m",
         "delta_min_m");
  for (int i = 0; i < r->n_periods; i++) {
    impactfit_mb1d_period P;
    impactfit_mb1d_period_get(ws, i, &P);
    printf("  %6d %11.6g %6d %8.4f %8.4f %8.4f %9.4f %9.4f %11.5g %11.4g %11.4g %11.4g\n", i, P.t_start,
           P.contact_losses, P.contact_fraction, P.touch_fraction, P.untouched_force_fraction,
           P.a_max / G0, P.a_min / G0, P.f_max, P.f_min, P.delta_max, P.delta_min);
  }
}

static void print_row_header(void) {
  printf("%-4s %-2s %4s %9s %8s %8s %8s %9s %9s %11s %7s %9s\n", "case", "tr", "q", "transient",
         "loss/T", "contact", "touch", "a_max_g", "a_min_g", "f_min_N", "tensile", "no_touch");
}

static void print_row(const run *R) {
  printf("%-4s %-2s", roller_case_names[R->case_no - 1], R->tr->name);
  if (R->status) {
    printf(" %s\n", impactfit_status_name(R->status));
    return;
  }
  const impactfit_mb1d_result *r = &R->r;
  printf(" %4d %9d %8.3g %8.4f %8.4f %9.4f %9.4f %11.4g %7s %9s\n", r->multiplicity,
         r->transient_periods, r->losses_per_period, r->contact_fraction, r->touch_fraction,
         r->a_max / G0, r->a_min / G0, r->f_min, r->tensile ? "yes" : "no",
         r->untouched_force ? "yes" : "no");
}

int impactfit_cmd_roller(int argc, char **argv) {
  const char *s_case = NULL, *s_tr = NULL, *trace = NULL;
  roller_settings def = roller_default_settings(); /* the same defaults as the multibody topic */
  int periods = def.periods, max_periods = def.max_periods, points = 200, json = 0, help = 0;
  double tol = def.tol;
  cli_opt opts[] = {
      {"case", OPT_STRING, &s_case, 0},          {"transition", OPT_STRING, &s_tr, 0},
      {"periods", OPT_INT, &periods, 0},         {"max-periods", OPT_INT, &max_periods, 0},
      {"tol", OPT_DOUBLE, &tol, 0},              {"trace", OPT_STRING, &trace, 0},
      {"trace-points", OPT_INT, &points, 0},     {"json", OPT_FLAG, &json, 0},
  };
  int rc = cli_parse(argc, argv, 2, opts, sizeof opts / sizeof opts[0], NULL, 0, NULL, &help);
  if (rc)
    return rc;
  if (help) {
    fputs(help_text, stdout);
    return CLI_OK;
  }
  if (!s_case)
    return cli_input_error("roller: --case is required (I, II, III, IV or all)");
  if (!s_tr)
    return cli_input_error("roller: --transition is required (A, B, C, D or all)");
  int cases[4], ncase;
  const impactfit_transition *trs[4];
  int ntr;
  if ((rc = parse_cases(s_case, cases, &ncase)) || (rc = parse_transitions(s_tr, trs, &ntr)))
    return rc;
  if (opts[2].seen && (periods < 1 || periods > IMPACTFIT_MB1D_MAX_RECORD))
    return cli_input_error("--periods: expected 1..%d, got %d", IMPACTFIT_MB1D_MAX_RECORD, periods);
  if (max_periods < 1 || max_periods > 10000000)
    return cli_input_error("--max-periods: expected 1..10000000, got %d", max_periods);
  if (!(tol > 0.0 && tol < 1.0))
    return cli_input_error("--tol: expected a number in (0, 1), got %.17g", tol);
  if (opts[6].seen && !trace)
    return cli_input_error("--trace-points needs --trace FILE");
  if (points < 1 || points > 100000)
    return cli_input_error("--trace-points: expected 1..100000, got %d", points);
  if (trace && ncase * ntr > 1)
    return cli_input_error("roller: --trace needs one case and one condition, got %d pairs", ncase * ntr);

  int total = ncase * ntr;
  run runs[16];
  memset(runs, 0, sizeof runs);
  for (int i = 0; i < total; i++) {
    run *R = &runs[i];
    impactfit_error err;
    impactfit_error_clear(&err);
    int st = roller_setup(R, cases[i / ntr], trs[i % ntr], &err);
    if (st)
      return cli_status_error(st, &err, "roller");
  }
  impactfit_mb1d_workspace *ws = impactfit_mb1d_alloc();
  if (!ws)
    return cli_input_error("out of memory");
  cli_out out;
  trace_ctx tc = {NULL};
  if (trace) {
    if ((rc = cli_out_open(&out, trace))) {
      impactfit_mb1d_free(ws);
      return rc;
    }
    fputs("t,x_drum,x_frame,v_drum,v_frame,a_drum,force,element,in_contact,event\n", out.f);
    tc.f = out.f;
  }
  if (total > 1 && !json)
    print_row_header();
  rc = CLI_OK;
  for (int i = 0; i < total; i++) {
    run *R = &runs[i];
    roller_settings s = def;
    s.max_periods = max_periods;
    s.tol = tol;
    s.periods = periods;
    if (trace) {
      s.trace_points = points;
      s.fn = write_point;
      s.ctx = &tc;
    }
    impactfit_error err;
    if (roller_solve(ws, R, &s, &err)) {
      if (trace)
        cli_out_abort(&out);
      if (total == 1) {
        rc = cli_status_error(R->status, &err, "roller");
        break;
      }
      fprintf(stderr, "impactfit: error: roller: case %s, transition %s: %s\n",
              roller_case_names[R->case_no - 1], R->tr->name, R->message);
      rc = impactfit_status_is_input_error(R->status) ? CLI_INPUT : CLI_NUMERIC;
    }
    if (json)
      print_json(R, ws);
    else if (total > 1)
      print_row(R);
    else
      print_detail(R, ws);
  }
  if (trace && runs[0].status == 0 && (rc = cli_out_commit(&out)) != 0) {
    impactfit_mb1d_free(ws);
    return rc;
  }
  impactfit_mb1d_free(ws);
  return rc;
}
