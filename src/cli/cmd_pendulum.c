/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit pendulum: two impacting rod pendulums (Poursina & Nikravesh 2020, §6) under three impact models. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "help_texts.h" /* generated from docs/cli/COMMAND.txt */
#include "impactfit/impactfit.h"

static const char *const help_text = cli_help_pendulum; /* docs/cli/pendulum.txt */

/* --trace: one CSV row per sample or transition (ctx: the file) */
static int write_point(void *ctx, const impactfit_pendulum_point *p) {
  FILE *f = ctx;
  fprintf(f, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%d,%d\n", p->t, p->theta1, p->theta2, p->omega1,
          p->omega2, p->delta, p->delta_dot, p->force, p->energy, p->in_contact, p->kind);
  return ferror(f) ? IMPACTFIT_EIO : 0;
}

static const char *const model_names[3] = {"impulse", "copt", "flores"};

#define MAX_SHOWN 64 /* impacts kept per model for the text tables (JSON has them all) */

typedef struct run {
  const impactfit_pendulum_model *model;
  impactfit_pendulum_result r;
  int n;
  impactfit_pendulum_impact imp[MAX_SHOWN];
} run;

#define IMP(f) CLI_FIELD(impactfit_pendulum_impact, f)
static const cli_field impact_fields[] = {IMP(t_start),      IMP(t_end),        IMP(v_in),          IMP(v_out),
                                          IMP(e_eff),        IMP(mass),         IMP(lever),         IMP(c),
                                          IMP(delta_max),    IMP(f_max),        IMP(omega1_before), IMP(omega2_before),
                                          IMP(omega1_after), IMP(omega2_after), IMP(energy_before), IMP(energy_after),
                                          IMP(ended)};
#define SUM(f) CLI_FIELD(impactfit_pendulum_result, f)
static const cli_field summary_fields[] = {CLI_FIELD_AS("impacts", impactfit_pendulum_result, n_impacts),
                                           /* the energy, the final state and the cost */
                                           SUM(energy_start), SUM(energy_end), SUM(max_energy_drift), SUM(theta1),
                                           SUM(theta2), SUM(omega1), SUM(omega2), SUM(steps), SUM(rhs_evals)};

static void print_json(const run *R, const impactfit_pendulum_workspace *ws) {
  cli_json j;
  for (int i = 0; i < R->r.n_impacts; i++) {
    impactfit_pendulum_impact imp;
    impactfit_pendulum_impact_get(ws, i, &imp);
    cli_json_begin(&j, stdout);
    cli_json_str(&j, "record", "impact");
    cli_json_str(&j, "model", R->model->name);
    cli_json_int(&j, "impact", i);
    cli_json_fields(&j, &imp, impact_fields, CLI_COUNT(impact_fields));
    cli_json_end(&j);
  }
  cli_json_begin(&j, stdout);
  cli_json_str(&j, "record", "summary");
  cli_json_str(&j, "model", R->model->name);
  cli_json_fields(&j, &R->r, summary_fields, CLI_COUNT(summary_fields));
  cli_json_end(&j);
}

static void print_detail(const run *R, const impactfit_pendulum_params *p) {
  printf("pendulum, model %s (%s): e = %g, n = %g, k = %g N/m^n, t_end = %g s\n", R->model->name, R->model->summary,
         p->e, p->n, p->k, p->t_end);
  printf("  %d impact(s); energy %.10g J -> %.10g J; largest energy drift between impacts %.2g\n", R->r.n_impacts,
         R->r.energy_start, R->r.energy_end, R->r.max_energy_drift);
  printf("  %2s %12s %10s %9s %10s %10s %10s %10s %10s %11s\n", "#", "t_s", "duration_s", "v_in_m/s", "e_eff",
         "omega1-", "omega2-", "omega1+", "omega2+", "damping");
  for (int i = 0; i < R->n; i++) {
    const impactfit_pendulum_impact *I = &R->imp[i];
    printf("  %2d %12.8f %10.4g %9.5f %10.7f %10.6f %10.6f %10.6f %10.6f %11.5g%s\n", i, I->t_start,
           I->t_end - I->t_start, I->v_in, I->e_eff, I->omega1_before, I->omega2_before, I->omega1_after,
           I->omega2_after, I->c, I->ended ? "" : " (open at t_end)");
  }
  if (R->r.n_impacts > R->n)
    printf("  (%d more impacts not shown)\n", R->r.n_impacts - R->n);
}

/* Comparison: one row per impact index, the models side by side. */
static void print_compare(const run *runs, int nr) {
  int most = 0;
  for (int k = 0; k < nr; k++)
    if (runs[k].n > most)
      most = runs[k].n;
  printf("%-8s %2s %12s %10s %10s %10s\n", "model", "#", "t_s", "e_eff", "omega1+", "omega2+");
  for (int i = 0; i < most; i++)
    for (int k = 0; k < nr; k++) {
      if (i >= runs[k].n)
        continue;
      const impactfit_pendulum_impact *I = &runs[k].imp[i];
      printf("%-8s %2d %12.8f %10.7f %10.6f %10.6f\n", runs[k].model->name, i, I->t_start, I->e_eff, I->omega1_after,
             I->omega2_after);
    }
  for (int k = 0; k < nr; k++)
    printf("%-8s impacts: %d, energy at t_end: %.8g J\n", runs[k].model->name, runs[k].r.n_impacts,
           runs[k].r.energy_end);
}

/* Simulates each model, printing as it goes (JSON, or the detail of a single model). */
static int run_models(impactfit_pendulum_params base, const size_t *idx, int nm, const char *trace, int json) {
  run runs[3];
  memset(runs, 0, sizeof runs);
  impactfit_pendulum_workspace *ws = impactfit_pendulum_alloc();
  if (!ws)
    return cli_input_error("out of memory");
  cli_out out;
  int rc;
  if (trace && (rc = cli_out_open(&out, trace))) {
    impactfit_pendulum_free(ws);
    return rc;
  }
  if (trace) {
    fputs("t,theta1,theta2,omega1,omega2,delta,delta_dot,force,energy,in_contact,event\n", out.f);
    base.fn = write_point;
    base.ctx = out.f;
  }
  for (int k = 0; k < nm; k++) {
    impactfit_pendulum_params p = base;
    p.model = runs[k].model = impactfit_pendulum_model_from_name(model_names[idx[k]]);
    impactfit_error err;
    impactfit_error_clear(&err);
    int st = impactfit_pendulum_simulate(ws, &p, &runs[k].r, &err);
    if (st) {
      if (trace)
        cli_out_abort(&out);
      impactfit_pendulum_free(ws);
      return cli_status_error(st, &err, "pendulum");
    }
    runs[k].n = runs[k].r.n_impacts < MAX_SHOWN ? runs[k].r.n_impacts : MAX_SHOWN;
    for (int i = 0; i < runs[k].n; i++)
      impactfit_pendulum_impact_get(ws, i, &runs[k].imp[i]);
    if (json) /* every model's parameters passed the library's checks with the first one */
      print_json(&runs[k], ws);
    else if (nm == 1)
      print_detail(&runs[k], &base);
  }
  impactfit_pendulum_free(ws);
  if (trace && (rc = cli_out_commit(&out)) != 0)
    return rc;
  if (!json && nm > 1)
    print_compare(runs, nm);
  return CLI_OK;
}

int impactfit_cmd_pendulum(int argc, char **argv) {
  impactfit_pendulum_params base = impactfit_pendulum_default_params();
  const char *s_model = NULL, *trace = NULL;
  double dt = 1e-3;
  int json = 0, help = 0;
  cli_spec opts[] = {
      CLI_STR_REQ("model", &s_model, "pendulum: --model is required (impulse, copt, flores or all)"),
      CLI_NUM("t-end", &base.t_end),
      CLI_NUM("e", &base.e),
      CLI_NUM("n", &base.n),
      CLI_NUM("k", &base.k),
      CLI_STR("trace", &trace),
      CLI_NUM("trace-dt", &dt),
      CLI_FLAG("json", &json),
  };
  int rc = cli_options(argc, argv, opts, CLI_COUNT(opts), help_text, &help, NULL, 0, NULL);
  if (rc || help)
    return rc;
  size_t idx[3] = {0, 1, 2}, nm = 3;
  if (strcmp(s_model, "all") != 0 && cli_parse_names(s_model, model_names, 3, 0, 0, 3, idx, &nm))
    return cli_input_error("--model: expected impulse, copt, flores, a list of them or all, got '%s'", s_model);
  if (cli_given(opts, CLI_COUNT(opts), "trace-dt") && !trace)
    return cli_input_error("--trace-dt needs --trace FILE");
  if (trace && nm > 1)
    return cli_input_error("pendulum: --trace needs one model, got %d", (int)nm);
  if (trace) {
    if (!(dt > 0.0) || base.t_end / dt > 1e7)
      return cli_input_error("--trace-dt: expected a positive interval giving at most 1e7 samples, got %.17g", dt);
    base.sample_dt = dt;
  }
  return run_models(base, idx, (int)nm, trace, json);
}
