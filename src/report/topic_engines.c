/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Topic engines: the multibody and robotics engines of the registry (include/impactfit/engines.h) at
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

/* the first model of each engine, in registry order */
static size_t first_models(const impactfit_engine_model **out, size_t max) {
  size_t n = 0;
  for (size_t i = 0; i < impactfit_engine_model_count() && n < max; i++) {
    const impactfit_engine_model *md = impactfit_engine_model_at(i);
    int seen = 0;
    for (size_t j = 0; j < n; j++)
      seen |= strcmp(out[j]->code, md->code) == 0;
    if (!seen)
      out[n++] = md;
  }
  return n;
}

static impactfit_engine_request request(const impactfit_engine_model *md, double e, double dt) {
  impactfit_engine_request q = impactfit_engine_default_request();
  q.model = md;
  q.e = e;
  q.dt = dt;
  q.v = 1.0;
  return q;
}

int topic_engines(const topic_opts *o, report *r) {
  const impactfit_engine_model *mods[32];
  size_t nm = first_models(mods, 32);
  report_md(r, "## Multibody and robotics engines at their own time step\n\n");
  report_md(r, "A 5 mm sphere of 1.309 g hits a fixed plane at 1 m/s, head-on, without gravity or friction. Each "
               "engine "
               "is run at its default step and integrator with its default contact settings, and e is asked for. At "
               "these steps e depends on where the first contact step falls (φ = penetration there / (v dt)): "
               "*mean* is e averaged over φ (an impact from a random height), *one impact* its range. *naive* is the "
               "input users type (the engine's restitution where it has one, else the usual damping-ratio formula); "
               "*impactfit* the model's free parameter solved so that the mean is the asked e at that step; "
               "*continuous* what that input gives as dt → 0. Engines marked *formula only* are modelled from their "
               "source; the others are proven in the engine by `ctest -L mbd-engines` (tests/engines/).\n\n");
  report_md(r, "| engine | model | integrator, dt | e asked | naive input | its e: mean [one impact] | impactfit input "
               "| "
               "its e: mean [one impact] | continuous |\n|---|---|---|---|---|---|---|---|---|\n");
  int worst_fail = 0;
  double worst = 0.0;
  /* the summary row: the naive input's largest miss of the asked e (mean over φ, and one impact) */
  double naive_worst = 0.0, naive_worst_one = 0.0, naive_asked = NAN;
  const impactfit_engine_model *naive_md = NULL;
  for (size_t m = 0; m < nm; m++) {
    const impactfit_engine_model *md = mods[m];
    for (size_t k = 0; k < NE; k++) {
      impactfit_engine_request q = request(md, ES[k], NAN);
      impactfit_engine_answer a;
      impactfit_error err;
      int st = impactfit_engine_solve(&q, &a, &err);
      if (o->progress)
        cli_progress_tick(o->progress);
      if (st) {
        report_md(r, "| %s | %s | | %.2g | failed: %s | | | | |\n", md->code, md->model, ES[k], err.message);
        worst_fail = 1;
        continue;
      }
      char naive[96] = "—", naive_e[96] = "—", corr[96] = "not reachable", corr_e[96] = "—";
      if (!isnan(a.naive_value)) {
        snprintf(naive, sizeof naive, "%s = %.4g", md->param, a.naive_value);
        if (isnan(a.e_naive))
          snprintf(naive_e, sizeof naive_e, "unstable");
        else {
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
        snprintf(corr_e, sizeof corr_e, "%.6f [%.4f, %.4f]%s", a.e_mean, a.e_min, a.e_max, a.stable ? "" : " unstable");
        worst = fmax(worst, fabs(a.e_mean - ES[k]));
      }
      report_md(r, "| %s%s | %s | %s, %.3g s | %.2g | %s | %s | %s | %s | %.4f |\n", md->code,
                md->run_here ? "" : " (formula only)", md->model, a.integrator, a.dt, ES[k], naive, naive_e, corr,
                corr_e, a.e_continuous);
    }
  }
  report_md(r, "\n");
  if (naive_md)
    report_headline(
        r, "Multibody and robotics engines: the input users type for e, at the engine's default step", "gives e",
        "up to %.2f off on average over where the first contact step falls (%s %s %s, e = %.1f asked), "
        "one impact up to %.2f; impactfit's input: the asked mean e within %.1e",
        naive_worst, naive_md->code, naive_md->versions, naive_md->model, naive_asked, naive_worst_one, worst);
  report_target(r, "engines: impactfit's input gives the asked mean e at the engine's default step",
                !worst_fail && worst <= 1e-9, "max |mean e - e| = %.3g over %zu engines x %zu e", worst, nm, NE);
  /* e against dt: the naive input for e = 0.5 at the engine's defaults */
  FILE *dat = report_data(r, "engines_dt.dat");
  if (dat) {
    fprintf(dat, "# per engine (blocks): dt, mean e, min, max, continuous e of the naive input for e = 0.5\n");
    int npts = o->quick ? 9 : 25;
    for (size_t m = 0; m < nm; m++) {
      fprintf(dat, "# %s %s\n", mods[m]->code, mods[m]->model);
      for (int i = 0; i < npts; i++) {
        double dt = 1e-5 * pow(1e3, (double)i / (npts - 1));
        impactfit_engine_request q = request(mods[m], 0.5, dt);
        impactfit_engine_answer a;
        if (impactfit_engine_solve(&q, &a, NULL) == 0 && !isnan(a.e_naive))
          fprintf(dat, "%.6g %.10g %.10g %.10g %.10g\n", dt, a.e_naive, a.e_naive_min, a.e_naive_max, a.e_continuous);
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
                      m, m + 1, m, m + 1, mods[m]->code, mods[m]->model);
    report_figure(r, "engines_dt",
                  "Restitution that the naive input for e = 0.5 gives in each engine against the time step, at the "
                  "engine's default integrator and contact settings (5 mm sphere of 1.309 g on a plane at 1 m/s): "
                  "the line is the mean over the phase of the first contact step, the band one impact's range.",
                  script);
  }
  return 0;
}
