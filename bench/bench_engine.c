/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Cost of one answer of the code registry (include/impactfit/codes.h), which issue 24 wants under 50 ms:
 * for every model of every code (DEM codes and engines, codes.def) at the code's defaults (a 5 mm sphere of
 * 1.309 g on a wall at 1 m/s), the forward answer (the e of the value solved for e = 0.5; an engine's phase
 * statistics and continuous-time e included) and the inverse answer for e = 0.1, 0.5, 0.9 (the search, the
 * naive input's statistics, the paste text), with the impacts each simulated (0 for a continuous-time
 * answer).
 *
 * usage: bench_engine [REPEATS]   (default 3; the best of REPEATS runs is reported)
 * One thread. The machine may be shared: run it on an idle machine for figures worth quoting. The
 * peer here is the engine itself: tests/engines measure what one simulated impact costs in it. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impactfit/impactfit.h"

static double best_ms(const impactfit_code_request *q, int reps, impactfit_code_answer *a, int *st,
                      impactfit_error *err) {
  double best = HUGE_VAL;
  for (int r = 0; r < reps; r++) {
    if (r)
      impactfit_code_answer_free(a);
    double t0 = omp_get_wtime();
    *st = impactfit_code_solve(q, a, err);
    double t = omp_get_wtime() - t0;
    if (t < best)
      best = t;
  }
  return 1e3 * best;
}

/* Representative values for the inputs a model requires (no code default), by the input's name: the
 * settings of the codes' pages (docs/engines/, docs/DEM.md). */
static int example(const impactfit_code_input *in, impactfit_code_setting *s) {
  static const struct {
    const char *name;
    int count;
    double v[2];
  } ex[] = {{.name = "solref", .count = 2, .v = {-2500.0, -10.0}}, /* MuJoCo direct: stiffness, damping */
            {.name = "stiffness", .count = 2, .v = {1e7, 1e9}},    /* Simbody: sphere, plane (Pa) */
            {.name = "kp", .count = 1, .v = {1000.0}},             /* ODE, Bullet: N/m */
            {.name = "kd", .count = 1, .v = {0.1}},                /* N s/m */
            {.name = "cfm", .count = 1, .v = {1e-5}},
            {.name = "erp", .count = 1, .v = {0.2}},
            {.name = "bounce", .count = 2, .v = {0.5, 0.0}},
            {.name = "restitution", .count = 1, .v = {0.5}},
            {.name = "E", .count = 1, .v = {6.3e10}}, /* DEM: glass */
            {.name = "nu", .count = 1, .v = {0.24}},
            {.name = "young_modulus", .count = 1, .v = {6.3e10}}, /* Chrono */
            {.name = "poisson_ratio", .count = 1, .v = {0.24}},
            {.name = "kn", .count = 1, .v = {1e5}},
            {.name = "tc", .count = 1, .v = {1e-5}}};
  for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++)
    if (!strcmp(in->name, ex[i].name)) {
      memset(s, 0, sizeof *s);
      s->name = in->name;
      s->count = ex[i].count < in->count ? ex[i].count : in->count;
      for (int k = 0; k < s->count; k++)
        s->values[k] = ex[i].v[k];
      return 1;
    }
  return 0;
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 3;
  if (reps < 1)
    reps = 1;
  printf("%-8s %-9s %-26s %-9s %-9s %8s %10s %10s %s\n", "code", "versions", "model", "option", "mode", "e", "ms",
         "impacts", "status");
  double worst = 0.0;
  int failed = 0;
  for (size_t i = 0; i < impactfit_code_model_count(); i++) {
    const impactfit_code_model *md = impactfit_code_model_at(i);
    impactfit_code_setting set[IMPACTFIT_CODE_MAX_INPUTS];
    impactfit_code_request base = impactfit_code_request_default();
    base.model = md;
    base.settings = set;
    base.v = 1.0;
    base.bodies.r1 = 0.005;
    base.bodies.m1 = 0.001309;
    if (md->dt_default == 0.0 && md->integrators[0].stepper)
      base.dt = 1e-4; /* an engine without a default step */
    for (int k = 0; k < md->n_inputs; k++)
      if (isnan(md->inputs[k].def[0]) && !md->inputs[k].default_v && base.n_settings < IMPACTFIT_CODE_MAX_INPUTS &&
          example(&md->inputs[k], &set[base.n_settings]))
        base.n_settings++;
    /* inverse for three e, then forward at the value solved for e = 0.5 */
    const double es[] = {0.1, 0.5, 0.9, NAN};
    double v05 = NAN;
    for (int k = 0; k < 4; k++) {
      impactfit_code_request q = base;
      q.e = es[k];
      if (isnan(es[k]))
        q.value = v05;
      impactfit_code_answer a;
      int st;
      impactfit_error err;
      impactfit_error_clear(&err);
      double ms = best_ms(&q, reps, &a, &st, &err);
      if (st == 0)
        worst = fmax(worst, ms);
      else
        failed++;
      if (k == 1 && st == 0 && a.reachable)
        v05 = a.value;
      printf("%-8s %-9.9s %-26s %-9s %-9s %8.2g %10.2f %10ld %s\n", md->code->name, md->versions, md->model, md->option,
             isnan(es[k]) ? "forward" : "inverse", isnan(es[k]) ? a.e : es[k], ms, st ? 0L : a.impacts,
             st ? impactfit_status_name(st) : (a.reachable ? "ok" : "unreachable"));
      if (st)
        printf("    %s\n", err.message);
      impactfit_code_answer_free(&a);
    }
  }
  printf("slowest answer: %.2f ms (issue 24: under 50 ms); %d requests failed\n", worst, failed);
  return 0;
}
