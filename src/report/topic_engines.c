/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Topic engines: the multibody and robotics engines of the registry (include/impactfit/codes.h) at
 * their own defaults: for a 5 mm sphere of 1.309 g hitting a fixed plane at 1 m/s, what the naive input
 * gives for e = 0.1 ... 0.9 at the engine's default step and integrator (the mean over the phase of the
 * first contact step, and one impact's range), impactfit's corrected input and its e, the
 * continuous-time e; and a figure of e against dt. The engines themselves are the oracle of these
 * predictions in tests/engines (ctest -L mbd-engines), which runs every engine Debian 12 ships. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "impactfit/impactfit.h"
#include "progress.h"
#include "report.h"
#include "tools.h"

static const double ES[] = {0.1, 0.3, 0.5, 0.7, 0.9};
#define NE (sizeof ES / sizeof ES[0])

/* 1 when every input of the model has a default (the free parameter aside) */
static int all_defaults(const impactfit_code_model *md) {
  for (int i = 0; i < md->n_inputs; i++)
    for (int j = 0; j < md->inputs[i].count; j++)
      if (isnan(md->inputs[i].def[j]) &&
          !(md->param_input && strcmp(md->inputs[i].name, md->param_input) == 0 && j == md->param_index))
        return 0;
  return 1;
}

/* a model answered at a time step (an engine's: not a DEM code's continuous-time model) */
static int engine_model(const impactfit_code_model *md) {
  for (int i = 0; i < md->n_integrators; i++)
    if (md->integrators[i].stepper)
      return 1;
  return md->solver == IMPACTFIT_CODE_SOLVE_MEAN;
}

/* one model per engine, in the order of the engines (MuJoCo, Simbody, ODE, Bullet, Chrono): its first model
 * that runs on defaults alone (ODE's spring-damper needs the user's spring; its bounce model is the default
 * contact), else its first */
static size_t first_models(const impactfit_code_model **out, size_t max) {
  static const char *const order[] = {"mujoco", "simbody", "ode", "bullet", "chrono"};
  size_t n = 0;
  for (size_t k = 0; k < sizeof order / sizeof order[0]; k++)
    for (size_t i = 0; i < impactfit_code_model_count() && n < max; i++) {
      const impactfit_code_model *md = impactfit_code_model_at(i);
      if (strcmp(md->code->name, order[k]) != 0 || !engine_model(md))
        continue;
      size_t seen = n;
      for (size_t j = 0; j < n; j++)
        if (out[j]->code == md->code)
          seen = j;
      if (seen == n)
        out[n++] = md;
      else if (!all_defaults(out[seen]) && all_defaults(md))
        out[seen] = md;
    }
  return n;
}

/* The step of the table: the engine's default; an engine without one (Chrono) at TABLE_DT; none for an
 * engine whose integrators control their error (Simbody). */
#define TABLE_DT 1e-4
static double table_dt(const impactfit_code_model *md) {
  if (!md->integrators[0].stepper)
    return NAN;
  return md->dt_default > 0.0 ? md->dt_default : TABLE_DT;
}

static impactfit_code_request request(const impactfit_code_model *md, double e, double dt) {
  impactfit_code_request q = impactfit_code_request_default();
  q.bodies.pair = 0;
  q.bodies.r1 = 0.005;
  q.bodies.m1 = impactfit_code_sphere_mass(0.005, 2500.0);
  q.model = md;
  q.e = e;
  q.dt = dt;
  q.v = 1.0;
  return q;
}

int topic_engines(const topic_opts *o, report *r) {
  const impactfit_code_model *mods[32];
  size_t nm = first_models(mods, 32);
  report_md(r, "## Multibody and robotics engines at their own time step\n\n");
  report_md(r, "A 5 mm sphere of 1.309 g hits a fixed plane at 1 m/s, head-on, without gravity or friction. Each "
               "engine "
               "is run at its default step and integrator with its default contact settings, and e is asked for. At "
               "these steps e depends on where the first contact step falls (φ = penetration there / (v dt)): "
               "*mean* is e averaged over φ (an impact from a random height), *one impact* its range. *naive* is the "
               "input users type (the engine's restitution where it has one, else the usual damping-ratio formula); "
               "*impactfit* the model's free parameter solved so that the mean is the asked e at that step; "
               "*continuous* what that input gives as dt → 0. An engine without a default step (Chrono) is shown at "
               "1e-4 s; an engine whose integrators control their error (Simbody: *adaptive*) has no step, and its "
               "e is the continuous one at the accuracy its note names. *not reachable* gives the range of mean e the "
               "parameter reaches (Chrono's Hertz law clamps ln cr at machine epsilon). Engines marked *formula only* "
               "are modelled "
               "from their source; the others are proven in the engine by `ctest -L mbd-engines` "
               "(tests/engines/).\n\n");
  report_md(r, "| engine | model | integrator, dt | e asked | naive input | its e: mean [one impact] | impactfit input "
               "| "
               "its e: mean [one impact] | continuous |\n|---|---|---|---|---|---|---|---|---|\n");
  int worst_fail = 0;
  double worst = 0.0;
  size_t answered = 0, unreachable = 0;
  /* the summary row: the naive input's largest miss of the asked e (mean over φ, and one impact) */
  double naive_worst = 0.0, naive_worst_one = 0.0, naive_asked = NAN;
  const impactfit_code_model *naive_md = NULL;
  for (size_t m = 0; m < nm; m++) {
    const impactfit_code_model *md = mods[m];
    for (size_t k = 0; k < NE; k++) {
      impactfit_code_request q = request(md, ES[k], table_dt(md));
      impactfit_code_answer a;
      impactfit_error err;
      int st = impactfit_code_solve(&q, &a, &err);
      if (o->progress)
        cli_progress_tick(o->progress);
      if (st) {
        report_md(r, "| %s | %s | | %.2g | failed: %s | | | | |\n", md->code->name, md->model, ES[k], err.message);
        worst_fail = 1;
        impactfit_code_answer_free(&a);
        continue;
      }
      char naive[96] = "—", naive_e[96] = "—", corr[96] = "not reachable", corr_e[96] = "—";
      if (!isnan(a.naive_value)) {
        snprintf(naive, sizeof naive, "%s = %.4g", md->param, a.naive_value);
        if (isnan(a.e_naive))
          snprintf(naive_e, sizeof naive_e, "unstable");
        else {
          if (isnan(a.dt)) /* adaptive: no phase, one e */
            snprintf(naive_e, sizeof naive_e, "%.4f", a.e_naive);
          else /* a time step: one impact's range over the phase */
            snprintf(naive_e, sizeof naive_e, "%.4f [%.4f, %.4f]", a.e_naive, a.e_naive_min, a.e_naive_max);
          if (fabs(a.e_naive - ES[k]) > naive_worst) {
            naive_worst = fabs(a.e_naive - ES[k]);
            naive_md = md;
            naive_asked = ES[k];
          }
          naive_worst_one = fmax(naive_worst_one, fmax(fabs(a.e_naive_min - ES[k]), fabs(a.e_naive_max - ES[k])));
        }
      }
      if (a.reachable) {
        snprintf(corr, sizeof corr, "%s = %.6g", md->param, a.value);
        if (isnan(a.dt))
          snprintf(corr_e, sizeof corr_e, "%.6f", a.e);
        else
          snprintf(corr_e, sizeof corr_e, "%.6f [%.4f, %.4f]%s", a.e, a.e_min, a.e_max, a.stable ? "" : " unstable");
        worst = fmax(worst, fabs(a.e - ES[k]));
        answered++;
      } else {
        unreachable++;
        snprintf(corr, sizeof corr, "not reachable: e in [%.4g, %.4g]", a.e_reach_min, a.e_reach_max);
      }
      char step[48];
      if (isnan(a.dt))
        snprintf(step, sizeof step, "adaptive");
      else
        snprintf(step, sizeof step, "%.3g s", a.dt);
      char cont[32] = "—";
      if (!isnan(a.e_continuous))
        snprintf(cont, sizeof cont, "%.4f", a.e_continuous);
      report_md(r, "| %s%s | %s | %s, %s | %.2g | %s | %s | %s | %s | %s |\n", md->code->name,
                a.run_here ? "" : " (formula only)", md->model, a.integrator->name, step, ES[k], naive, naive_e, corr,
                corr_e, cont);
      impactfit_code_answer_free(&a);
    }
  }
  report_md(r, "\n");
  for (size_t m = 0; m < nm; m++)
    if (!isnan(table_dt(mods[m])) && !(mods[m]->dt_default > 0.0))
      report_md(r, "%s has no default step (the caller gives it); its rows use dt = %g s.\n\n", mods[m]->code->name,
                TABLE_DT);
  if (naive_md)
    report_headline(r, "Multibody and robotics engines: the usual input for e at the default step", "gives e",
                    "mean e over the contact phase up to %.2f off (%s %s %s, e = %.1f), one impact %.2f; impactfit's "
                    "input: within %.1e",
                    naive_worst, naive_md->code->name, naive_md->versions, naive_md->model, naive_asked,
                    naive_worst_one, worst);
  report_target(r, "engines: impactfit's input gives the asked mean e at the engine's default step",
                !worst_fail && worst <= 1e-9 && answered > 0,
                "max |mean e - e| = %.3g over %zu answers (%zu engines x %zu e; %zu not reachable, said so)", worst,
                answered, nm, NE, unreachable);
  /* e against dt: the naive input for e = 0.5 at the engine's defaults */
  FILE *dat = report_data(r, "engines_dt.dat");
  if (dat) {
    fprintf(dat, "# per engine (blocks): dt, mean e, min, max, continuous e of the naive input for e = 0.5\n");
    int npts = o->quick ? 9 : 25;
    for (size_t m = 0; m < nm; m++) {
      fprintf(dat, "# %s %s\n", mods[m]->code->name, mods[m]->model);
      for (int i = 0; i < npts; i++) {
        double dt = 1e-5 * pow(1e3, (double)i / (npts - 1));
        /* an adaptive engine takes no step: its e (continuous) is the same at every dt */
        impactfit_code_request q = request(mods[m], 0.5, isnan(table_dt(mods[m])) ? NAN : dt);
        impactfit_code_answer a;
        if (impactfit_code_solve(&q, &a, NULL) == 0 && !isnan(a.e_naive))
          fprintf(dat, "%.6g %.10g %.10g %.10g %.10g\n", dt, a.e_naive, a.e_naive_min, a.e_naive_max, a.e_continuous);
        impactfit_code_answer_free(&a);
        if (o->progress)
          cli_progress_tick(o->progress);
      }
      fprintf(dat, "\n\n");
    }
    fclose(dat);
    char script[4096];
    int len = snprintf(script, sizeof script,
                       "set logscale x\nset xrange [1e-5:1e-2]\nset format x '10^{%%T}'\nset xlabel 'time step dt "
                       "(s)'\nset ylabel "
                       "'restitution of "
                       "the naive input for e = 0.5'\nset key inside left bottom\nset yrange [0:1]\n"
                       "plot 0.5 w lines lc 'black' dt 3 t 'asked'");
    for (size_t m = 0; m < nm && len < (int)sizeof script - 300; m++)
      len += snprintf(script + len, sizeof script - (size_t)len,
                      ", 'engines_dt.dat' index %zu u 1:3:4 w filledcurves fs transparent solid 0.2 lc %zu notitle, "
                      "'' index %zu u 1:2 w lines lw 2 lc %zu t '%s %s'",
                      m, m + 1, m, m + 1, mods[m]->code->name, mods[m]->model);
    report_figure(r, "engines_dt",
                  "Restitution that the naive input for e = 0.5 gives in each engine against the time step, at the "
                  "engine's default integrator and contact settings (5 mm sphere of 1.309 g on a plane at 1 m/s): "
                  "the line is the mean over the phase of the first contact step, the band one impact's range. "
                  "Simbody's integrators control their error and take no fixed step: its line is its continuous-time "
                  "e, the same at every dt.",
                  script);
  }
  return 0;
}
