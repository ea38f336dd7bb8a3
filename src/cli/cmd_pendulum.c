/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit pendulum: two impacting rod pendulums (Poursina & Nikravesh 2020, §6) under three impact models. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "impactfit/impactfit.h"

static const char *help_text =
    "usage: impactfit pendulum --model impulse|copt|flores [--t-end 8] [--e E] [--n N] [--k K]\n"
    "                          [--trace FILE.csv [--trace-dt DT]] [--json]\n\n"
    "Two uniform rods (m1 = 1 kg, L1 = 6 m; m2 = 0.2 kg, L2 = 4 m) hang from pivots a = 2 m apart on\n"
    "one horizontal line, angles from the downward vertical, counter-clockwise positive, rod 2's\n"
    "pivot on the negative side. They start at rest at theta1 = pi/12, theta2 = -pi/2 (pointing away\n"
    "from each other) and swing together; the tip of rod 2 strikes the side of rod 1 (frictionless).\n"
    "These geometric assumptions are ours: the paper's figure is not available in its text.\n"
    "Reports each impact's time and the angular velocities before and after it.\n\n"
    "  --model X    impulse: piecewise impulse-momentum method with restitution e (exact e);\n"
    "               copt: Hertz spring + linear damper k d^n + c d', condition C, with the exact\n"
    "               c_opt of each impact (effective mass and approach speed at the contact point);\n"
    "               flores: Hunt-Crossley k d^n + lambda d^n d' with Flores et al.'s\n"
    "               lambda = 8(1 - e) k / (5 e v); a list such as impulse,copt or all compares them\n"
    "  --t-end T    simulated time in s, default 8\n"
    "  --e E        coefficient of restitution (0 < e <= 1), default 0.3\n"
    "  --n N        Hertz exponent (1 <= n <= 3), default 1.5\n"
    "  --k K        contact stiffness in N/m^n, default 1e8\n"
    "  --trace FILE CSV of the motion (one model): t, theta1, theta2, omega1, omega2, delta,\n"
    "               delta_dot, force, energy, in_contact, event (0 sample, 1 contact starts,\n"
    "               2 contact ends; each transition gives two rows, before and after); '-':\n"
    "               standard output (the results then go to standard error)\n"
    "  --trace-dt DT  sample interval of the trace in s, default 0.001\n"
    "  --json       JSON: one object per impact, then a summary object per model\n\n"
    "Angles in rad, angular velocities in rad/s, delta (penetration of rod 2's tip past rod 1) in m.\n"
    "Exit status: 0 success, 1 a numerical failure, 2 invalid input.\n";

typedef struct trace_ctx {
  FILE *f;
} trace_ctx;

static int write_point(void *vctx, const impactfit_pendulum_point *p) {
  trace_ctx *c = vctx;
  fprintf(c->f, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%d,%d\n", p->t, p->theta1,
          p->theta2, p->omega1, p->omega2, p->delta, p->delta_dot, p->force, p->energy, p->in_contact,
          p->kind);
  return ferror(c->f) ? IMPACTFIT_EIO : 0;
}

#define MAX_SHOWN 64 /* impacts kept per model for the text tables (JSON has them all) */

typedef struct run {
  const impactfit_pendulum_model *model;
  impactfit_pendulum_result r;
  int n;
  impactfit_pendulum_impact imp[MAX_SHOWN];
} run;

static void print_json(const run *R, const impactfit_pendulum_workspace *ws) {
  cli_json j;
  for (int i = 0; i < R->r.n_impacts; i++) {
    impactfit_pendulum_impact imp, *I = &imp;
    impactfit_pendulum_impact_get(ws, i, &imp);
    cli_json_begin(&j, stdout);
    cli_json_str(&j, "record", "impact");
    cli_json_str(&j, "model", R->model->name);
    cli_json_int(&j, "impact", i);
    cli_json_num(&j, "t_start", I->t_start);
    cli_json_num(&j, "t_end", I->t_end);
    cli_json_num(&j, "v_in", I->v_in);
    cli_json_num(&j, "v_out", I->v_out);
    cli_json_num(&j, "e_eff", I->e_eff);
    cli_json_num(&j, "mass", I->mass);
    cli_json_num(&j, "lever", I->lever);
    cli_json_num(&j, "c", I->c);
    cli_json_num(&j, "delta_max", I->delta_max);
    cli_json_num(&j, "f_max", I->f_max);
    cli_json_num(&j, "omega1_before", I->omega1_before);
    cli_json_num(&j, "omega2_before", I->omega2_before);
    cli_json_num(&j, "omega1_after", I->omega1_after);
    cli_json_num(&j, "omega2_after", I->omega2_after);
    cli_json_num(&j, "energy_before", I->energy_before);
    cli_json_num(&j, "energy_after", I->energy_after);
    cli_json_int(&j, "ended", I->ended);
    cli_json_end(&j);
  }
  cli_json_begin(&j, stdout);
  cli_json_str(&j, "record", "summary");
  cli_json_str(&j, "model", R->model->name);
  cli_json_int(&j, "impacts", R->r.n_impacts);
  cli_json_num(&j, "energy_start", R->r.energy_start);
  cli_json_num(&j, "energy_end", R->r.energy_end);
  cli_json_num(&j, "max_energy_drift", R->r.max_energy_drift);
  cli_json_num(&j, "theta1", R->r.theta1);
  cli_json_num(&j, "theta2", R->r.theta2);
  cli_json_num(&j, "omega1", R->r.omega1);
  cli_json_num(&j, "omega2", R->r.omega2);
  cli_json_int(&j, "steps", R->r.steps);
  cli_json_int(&j, "rhs_evals", R->r.rhs_evals);
  cli_json_end(&j);
}

static void print_detail(const run *R, const impactfit_pendulum_params *p) {
  printf("pendulum, model %s (%s): e = %g, n = %g, k = %g N/m^n, t_end = %g s\n", R->model->name,
         R->model->summary, p->e, p->n, p->k, p->t_end);
  printf("  %d impact(s); energy %.10g J -> %.10g J; largest energy drift between impacts %.2g\n",
         R->r.n_impacts, R->r.energy_start, R->r.energy_end, R->r.max_energy_drift);
  printf("  %2s %12s %10s %9s %10s %10s %10s %10s %10s %11s\n", "#", "t_s", "duration_s", "v_in_m/s",
         "e_eff", "omega1-", "omega2-", "omega1+", "omega2+", "damping");
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
      printf("%-8s %2d %12.8f %10.7f %10.6f %10.6f\n", runs[k].model->name, i, I->t_start, I->e_eff,
             I->omega1_after, I->omega2_after);
    }
  for (int k = 0; k < nr; k++)
    printf("%-8s impacts: %d, energy at t_end: %.8g J\n", runs[k].model->name, runs[k].r.n_impacts,
           runs[k].r.energy_end);
}

int impactfit_cmd_pendulum(int argc, char **argv) {
  impactfit_pendulum_params base = impactfit_pendulum_default_params();
  const char *s_model = NULL, *trace = NULL;
  double dt = 1e-3;
  int json = 0, help = 0;
  cli_opt opts[] = {
      {"model", OPT_STRING, &s_model, 0},   {"t-end", OPT_DOUBLE, &base.t_end, 0},
      {"e", OPT_DOUBLE, &base.e, 0},        {"n", OPT_DOUBLE, &base.n, 0},
      {"k", OPT_DOUBLE, &base.k, 0},        {"trace", OPT_STRING, &trace, 0},
      {"trace-dt", OPT_DOUBLE, &dt, 0},     {"json", OPT_FLAG, &json, 0},
  };
  int rc = cli_parse(argc, argv, 2, opts, sizeof opts / sizeof opts[0], NULL, 0, NULL, &help);
  if (rc)
    return rc;
  if (help) {
    fputs(help_text, stdout);
    return CLI_OK;
  }
  if (!s_model)
    return cli_input_error("pendulum: --model is required (impulse, copt, flores or all)");
  const impactfit_pendulum_model *models[3];
  int nm = 0;
  if (strcmp(s_model, "all") == 0) {
    models[0] = impactfit_pendulum_impulse;
    models[1] = impactfit_pendulum_copt;
    models[2] = impactfit_pendulum_flores;
    nm = 3;
  } else {
    const char *p = s_model;
    for (;;) {
      const char *comma = strchr(p, ',');
      size_t len = comma ? (size_t)(comma - p) : strlen(p);
      char name[16] = "";
      const impactfit_pendulum_model *m = NULL;
      if (len < sizeof name) {
        memcpy(name, p, len);
        name[len] = '\0';
        m = impactfit_pendulum_model_from_name(name);
      }
      if (!m || nm == 3)
        return cli_input_error("--model: expected impulse, copt, flores, a list of them or all, got '%s'",
                               s_model);
      models[nm++] = m;
      if (!comma)
        break;
      p = comma + 1;
    }
  }
  if (opts[6].seen && !trace)
    return cli_input_error("--trace-dt needs --trace FILE");
  if (trace && nm > 1)
    return cli_input_error("pendulum: --trace needs one model, got %d", nm);
  if (trace) {
    if (!(dt > 0.0) || base.t_end / dt > 1e7)
      return cli_input_error("--trace-dt: expected a positive interval giving at most 1e7 samples, got %.17g", dt);
    base.sample_dt = dt;
  }
  run runs[3];
  memset(runs, 0, sizeof runs);
  impactfit_pendulum_workspace *ws = impactfit_pendulum_alloc();
  if (!ws)
    return cli_input_error("out of memory");
  cli_out out;
  trace_ctx tc = {NULL};
  if (trace) {
    if ((rc = cli_out_open(&out, trace))) {
      impactfit_pendulum_free(ws);
      return rc;
    }
    fputs("t,theta1,theta2,omega1,omega2,delta,delta_dot,force,energy,in_contact,event\n", out.f);
    tc.f = out.f;
    base.fn = write_point;
    base.ctx = &tc;
  }
  rc = CLI_OK;
  for (int k = 0; k < nm; k++) {
    impactfit_pendulum_params p = base;
    p.model = models[k];
    runs[k].model = models[k];
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
  return rc;
}
