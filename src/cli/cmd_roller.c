/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit roller: Jönsson et al.'s vibratory roller under transition conditions A–D, at steady state. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "help_texts.h" /* generated from docs/cli/COMMAND.txt */
#include "impactfit/impactfit.h"
#include "roller_table.h"

static const char *const help_text = cli_help_roller; /* docs/cli/roller.txt */

/* --trace: one CSV row per sample or transition (ctx: the file) */
static int write_point(void *ctx, const impactfit_mb1d_point *p) {
  FILE *f = ctx;
  fprintf(f, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%d,%d\n", p->t, p->x[0], p->x[1], p->v[0], p->v[1],
          p->a[0], p->force, p->element, p->in_contact, p->kind);
  return ferror(f) ? IMPACTFIT_EIO : 0;
}

typedef roller_run run;
static const char *const tr_names[4] = {"A", "B", "C", "D"};

#define RES(f) CLI_FIELD(impactfit_mb1d_result, f)
#define RES_AS(key, f) CLI_FIELD_AS(key, impactfit_mb1d_result, f)
static const cli_field summary_fields[] = {
    /* the steady state found */
    RES(multiplicity), RES(transient_periods), RES(distance), RES(error_estimate), RES(period_contrast),
    /* the periods described */
    RES_AS("periods", n_periods), RES(losses_per_period), RES(contact_fraction), RES(touch_fraction), RES(a_max),
    RES(a_min), RES(f_max), RES(f_min), RES(tensile), RES(untouched_force), RES(delta_min), RES(delta_max),
    /* the scales and the cost */
    RES(length_scale), RES(velocity_scale), RES(steps), RES(rhs_evals)};
#define PER(f) CLI_FIELD(impactfit_mb1d_period, f)
static const cli_field period_fields[] = {PER(t_start),        PER(contact_starts),
                                          PER(contact_losses), PER(contact_fraction),
                                          PER(touch_fraction), PER(untouched_force_fraction),
                                          PER(a_max),          PER(a_min),
                                          PER(f_max),          PER(f_min),
                                          PER(delta_max),      PER(delta_min)};

static void json_head(cli_json *j, const char *record, const run *R) {
  cli_json_begin(j, stdout);
  cli_json_str(j, "record", record);
  cli_json_str(j, "case", roller_case_names[R->case_no - 1]);
  cli_json_str(j, "transition", R->tr->name);
}

static void print_json(const run *R, impactfit_mb1d_workspace *ws) {
  cli_json j;
  json_head(&j, "summary", R);
  cli_json_num(&j, "k", R->sys.k);
  cli_json_num(&j, "c", R->sys.c);
  cli_json_num(&j, "omega", R->sys.omega);
  if (cli_json_status(&j, R->status, R->message))
    cli_json_fields(&j, &R->r, summary_fields, CLI_COUNT(summary_fields));
  cli_json_end(&j);
  for (int i = 0; !R->status && i < R->r.n_periods; i++) {
    impactfit_mb1d_period P;
    impactfit_mb1d_period_get(ws, i, &P);
    json_head(&j, "period", R);
    cli_json_int(&j, "period", i);
    cli_json_fields(&j, &P, period_fields, CLI_COUNT(period_fields));
    cli_json_end(&j);
  }
}

static void print_detail(const run *R, impactfit_mb1d_workspace *ws) {
  const impactfit_mb1d_system *S = &R->sys;
  const impactfit_mb1d_result *r = &R->r;
  double T = impactfit_mb1d_excitation_period(S), G0 = S->g; /* accelerations also in units of g */
  printf("roller case %s, transition %s: k = %g N/m, c = %g N s/m, w = %.6g rad/s (%g Hz)\n",
         roller_case_names[R->case_no - 1], R->tr->name, S->k, S->c, S->omega, 1.0 / T);
  printf("  steady state after %d periods (%.4g s): multiplicity %d\n", r->transient_periods, r->transient_periods * T,
         r->multiplicity);
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
  printf("  %6s %11s %6s %8s %8s %8s %9s %9s %11s %11s %11s %11s\n", "period", "t_start_s", "losses", "contact",
         "touch", "no_touch", "a_max_g", "a_min_g", "f_max_N", "f_min_N", "delta_max_m", "delta_min_m");
  for (int i = 0; i < r->n_periods; i++) {
    impactfit_mb1d_period P;
    impactfit_mb1d_period_get(ws, i, &P);
    printf("  %6d %11.6g %6d %8.4f %8.4f %8.4f %9.4f %9.4f %11.5g %11.4g %11.4g %11.4g\n", i, P.t_start,
           P.contact_losses, P.contact_fraction, P.touch_fraction, P.untouched_force_fraction, P.a_max / G0,
           P.a_min / G0, P.f_max, P.f_min, P.delta_max, P.delta_min);
  }
}

static void print_row_header(void) {
  printf("%-4s %-2s %4s %9s %8s %8s %8s %9s %9s %11s %7s %9s\n", "case", "tr", "q", "transient", "loss/T", "contact",
         "touch", "a_max_g", "a_min_g", "f_min_N", "tensile", "no_touch");
}

static void print_row(const run *R) {
  printf("%-4s %-2s", roller_case_names[R->case_no - 1], R->tr->name);
  if (R->status) {
    printf(" %s\n", impactfit_status_name(R->status));
    return;
  }
  const impactfit_mb1d_result *r = &R->r;
  const double G0 = R->sys.g;
  printf(" %4d %9d %8.3g %8.4f %8.4f %9.4f %9.4f %11.4g %7s %9s\n", r->multiplicity, r->transient_periods,
         r->losses_per_period, r->contact_fraction, r->touch_fraction, r->a_max / G0, r->a_min / G0, r->f_min,
         r->tensile ? "yes" : "no", r->untouched_force ? "yes" : "no");
}

/* Runs every case x condition pair, printing each as it finishes. */
static int run_all(const size_t *ci, size_t ncase, const size_t *ti, size_t ntr, roller_settings s, int json,
                   const char *trace) {
  int total = (int)(ncase * ntr), rc = CLI_OK;
  run runs[16];
  for (int i = 0; i < total; i++) {
    impactfit_error err;
    const impactfit_transition *tr = impactfit_transition_from_name(tr_names[ti[i % (int)ntr]]);
    int st = roller_setup(&runs[i], (int)ci[i / (int)ntr] + 1, tr, &err);
    if (st)
      return cli_status_error(st, &err, "roller");
  }
  impactfit_mb1d_workspace *ws = impactfit_mb1d_alloc();
  cli_out out;
  if (!ws)
    return cli_input_error("out of memory");
  if (trace && (rc = cli_out_open(&out, trace))) {
    impactfit_mb1d_free(ws);
    return rc;
  }
  if (trace) {
    fputs("t,x_drum,x_frame,v_drum,v_frame,a_drum,force,element,in_contact,event\n", out.f);
    s.fn = write_point;
    s.ctx = out.f;
  } else {
    s.trace_points = 0;
  }
  if (total > 1 && !json)
    print_row_header();
  for (int i = 0; i < total; i++) {
    run *R = &runs[i];
    impactfit_error err;
    if (roller_solve(ws, R, &s, &err)) {
      if (trace)
        cli_out_abort(&out);
      if (total == 1) {
        rc = cli_status_error(R->status, &err, "roller");
        break;
      }
      fprintf(stderr, "impactfit: error: roller: case %s, transition %s: %s\n", roller_case_names[R->case_no - 1],
              R->tr->name, R->message);
      rc = impactfit_status_is_input_error(R->status) ? CLI_INPUT : CLI_NUMERIC;
    }
    if (json)
      print_json(R, ws);
    else if (total > 1)
      print_row(R);
    else
      print_detail(R, ws);
  }
  impactfit_mb1d_free(ws);
  if (trace && runs[0].status == 0) {
    int c = cli_out_commit(&out);
    if (c)
      rc = c;
  }
  return rc;
}

int impactfit_cmd_roller(int argc, char **argv) {
  const char *s_case = NULL, *s_tr = NULL, *trace = NULL;
  roller_settings def = roller_default_settings(); /* the same defaults as the multibody topic */
  int json = 0, help = 0;
  def.trace_points = 200;
  cli_spec opts[] = {
      CLI_STR_REQ("case", &s_case, "roller: --case is required (I, II, III, IV or all)"),
      CLI_STR_REQ("transition", &s_tr, "roller: --transition is required (A, B, C, D or all)"),
      CLI_ANYINT("periods", &def.periods),
      CLI_ANYINT("max-periods", &def.max_periods),
      CLI_NUM("tol", &def.tol),
      CLI_STR("trace", &trace),
      CLI_ANYINT("trace-points", &def.trace_points),
      CLI_FLAG("json", &json),
  };
  const size_t nopt = CLI_COUNT(opts);
  int rc = cli_options(argc, argv, opts, nopt, help_text, &help, NULL, 0, NULL);
  if (rc || help)
    return rc;
  size_t ci[4], ti[4], ncase, ntr;
  if (cli_parse_names(s_case, roller_case_names, 4, 1, 1, 4, ci, &ncase))
    return cli_input_error("--case: expected I, II, III, IV, a list of them or all, got '%s'", s_case);
  if (cli_parse_names(s_tr, tr_names, 4, 1, 1, 4, ti, &ntr))
    return cli_input_error("--transition: expected A, B, C, D, a list of them or all, got '%s'", s_tr);
  if (cli_given(opts, nopt, "periods") && (def.periods < 1 || def.periods > IMPACTFIT_MB1D_MAX_RECORD))
    return cli_input_error("--periods: expected 1..%d, got %d", IMPACTFIT_MB1D_MAX_RECORD, def.periods);
  if (def.max_periods < 1 || def.max_periods > 10000000)
    return cli_input_error("--max-periods: expected 1..10000000, got %d", def.max_periods);
  if (!(def.tol > 0.0 && def.tol < 1.0))
    return cli_input_error("--tol: expected a number in (0, 1), got %.17g", def.tol);
  if (cli_given(opts, nopt, "trace-points") && !trace)
    return cli_input_error("--trace-points needs --trace FILE");
  if (def.trace_points < 1 || def.trace_points > 100000)
    return cli_input_error("--trace-points: expected 1..100000, got %d", def.trace_points);
  if (trace && ncase * ntr > 1)
    return cli_input_error("roller: --trace needs one case and one condition, got %d pairs", (int)(ncase * ntr));
  return run_all(ci, ncase, ti, ntr, def, json, trace);
}
