/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared by the harnesses of the npm engines Rapier, PhysX, cannon-es and Havok (tests/engines/<engine>_impacts.c
 * with tests/engines/js/<engine>_impact.mjs): one case (bodies, speed, step and the engine's own settings as
 * JSON fields), the engine's e at a list of phases (one request to the node script, node_child.h), the
 * comparison with impactfit's stepper phase by phase, the engine's mean over the phase on the Gauss–Legendre
 * nodes of impactfit's pieces (phase_nodes.h), and impactfit's inverse on the mean for a free parameter.
 * The node script converts the free parameter's value into the engine's inputs with the engine's own calls
 * (never impactfit's). The includer defines _POSIX_C_SOURCE 200809L before its first include. */
#ifndef IMPACTFIT_TESTS_ENGINES_NPM_CASES_H
#define IMPACTFIT_TESTS_ENGINES_NPM_CASES_H

#include "harness.h"
#include "node_child.h"
#include "phase_nodes.h"

typedef struct nh_case {
  hz_bodies bodies;
  double v, dt;
  char fields[512]; /* the engine's settings as JSON fields ("\"materials\": \"product\"", ...), "" for none */
} nh_case;

/* impactfit's stepper for the case and the free parameter's value (0 or a message on stderr) */
typedef int (*nh_build_fn)(const nh_case *c, double value, impactfit_stepper *st);

typedef struct nh_engine {
  const char *name;      /* "cannon", ... (messages) */
  nc_child child;        /* the node script */
  const char *value_key; /* the JSON key the script reads the free parameter's value from */
  nh_build_fn build;
  double tol_phase;    /* engine vs impactfit at the same phase */
  long runs, requests; /* engine impacts and requests */
  double worst;        /* the largest |e_engine − e_impactfit| per phase seen */
  double worst_mean;   /* the largest |mean − asked| seen */
  /* 1: compare at the engine's own phase: the script reports the gap at the start of the first step that changed
   * the velocity and that step's index (gact, kact); the model's gap there is (J − k − φ) v dt in free flight,
   * so φ_eff = J − kact − gact/(v dt) is the phase the engine's float32 position has (a float32 engine rounds
   * its position at every step of the approach: 0.04/(v dt) steps inside PhysX's contact distance) */
  int effective_phase;
  double worst_shift; /* the largest |φ_eff − φ| seen */
} nh_engine;

static inline double nh_mass(const hz_bodies *b) {
  return b->b.plane ? b->b.m1 : b->b.m1 * b->b.m2 / (b->b.m1 + b->b.m2);
}

/* The engine's e at n phases (NaN where the script found no rebound) and, when phi_eff is not NULL, the
 * engine's own phases (NaN where the script reports none; n <= 64). Returns 0, or 1 with a message. */
static inline int nh_engine_e_at(nh_engine *E, const nh_case *c, double value, int J, const double *phis, int n,
                                 double *e, long *steps, double *phi_eff) {
  nc_buf b = {0};
  const hz_body_pair *bd = &c->bodies.b;
  nc_printf(&b, "{\"op\": \"impacts\", \"plane\": %d, \"r1\": %.17g, \"m1\": %.17g", bd->plane, bd->r1, bd->m1);
  if (!bd->plane)
    nc_printf(&b, ", \"r2\": %.17g, \"m2\": %.17g", bd->r2, bd->m2);
  nc_printf(&b, ", \"v\": %.17g, \"dt\": %.17g, \"J\": %d, \"%s\": %.17g", c->v, c->dt, J, E->value_key, value);
  if (c->fields[0])
    nc_printf(&b, ", %s", c->fields);
  nc_printf(&b, ", \"phis\": [");
  for (int i = 0; i < n; i++)
    nc_printf(&b, "%s%.17g", i ? ", " : "", phis[i]);
  nc_printf(&b, "]}");
  json_t *a = nc_ask(&E->child, b.s);
  free(b.s);
  E->requests++;
  if (!a) {
    fprintf(stderr, "FAIL %s: %s\n", E->name, E->child.error);
    hz_fail++;
    return 1;
  }
  int got = nc_doubles(json_object_get(a, "e"), e, n);
  if (steps) {
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(a, "steps"), i, v) {
      if ((int)i < n)
        steps[i] = (long)json_integer_value(v);
    }
  }
  if (phi_eff) {
    double ga[64], ka[64];
    int ng = n <= 64 ? nc_doubles(json_object_get(a, "gact"), ga, n) : 0;
    int nk = n <= 64 ? nc_doubles(json_object_get(a, "kact"), ka, n) : 0;
    for (int i = 0; i < n; i++)
      phi_eff[i] = i < ng && i < nk && isfinite(ga[i]) && isfinite(ka[i]) ? J - ka[i] - ga[i] / (c->v * c->dt) : NAN;
  }
  json_decref(a);
  E->runs += n;
  if (got != n) {
    fprintf(stderr, "FAIL %s: %d values for %d phases\n", E->name, got, n);
    hz_fail++;
    return 1;
  }
  return 0;
}

static inline int nh_engine_e(nh_engine *E, const nh_case *c, double value, int J, const double *phis, int n, double *e,
                              long *steps) {
  return nh_engine_e_at(E, c, value, J, phis, n, e, steps, NULL);
}

/* The case's text for messages */
static inline void nh_what(const nh_case *c, const char *what, char *buf, size_t size) {
  snprintf(buf, size, "%s %s v %g dt %g %s", what, c->bodies.name, c->v, c->dt, c->fields);
}

/* Engine vs impactfit at the given phases (those within 1e-7 of a jump of impactfit's e(φ) left out: the
 * engine's rounding may put them on the other side). Returns the largest difference (NaN on failure). */
static inline double nh_per_phase(nh_engine *E, const nh_case *c, double value, const double *phases, int n,
                                  const char *what) {
  impactfit_stepper st;
  if (E->build(c, value, &st)) {
    hz_fail++;
    return NAN;
  }
  int J = hz_steps_ahead(&st, c->v), m = 0;
  double phis[64], em[64], ee[64], pe[64], worst = 0.0;
  for (int i = 0; i < n && m < 64; i++) {
    if (hz_near_jump(&st, c->v, phases[i]))
      continue;
    phis[m++] = phases[i];
  }
  if (m == 0)
    return 0.0;
  if (nh_engine_e_at(E, c, value, J, phis, m, ee, NULL, E->effective_phase ? pe : NULL))
    return NAN;
  for (int i = 0; i < m; i++) {
    double at = phis[i];
    if (E->effective_phase && isfinite(pe[i]) && pe[i] > 0.0 && pe[i] <= 1.0) {
      E->worst_shift = fmax(E->worst_shift, fabs(pe[i] - phis[i]));
      at = pe[i];
      if (hz_near_jump(&st, c->v, at))
        continue;
    }
    em[i] = hz_model_e(&st, c->v, at, NULL);
    char buf[700], w[640];
    nh_what(c, what, w, sizeof w);
    snprintf(buf, sizeof buf, "%s value %.10g phi %.6f (engine's %.9f)", w, value, phis[i], at);
    HZ_CHECK_ABS(ee[i], em[i], E->tol_phase, buf);
    if (isfinite(ee[i]) && isfinite(em[i]))
      worst = fmax(worst, fabs(ee[i] - em[i]));
    else
      worst = INFINITY;
  }
  E->worst = fmax(E->worst, worst);
  return worst;
}

/* The engine's mean e over φ ∈ (0, 1] for the value (NaN on failure) */
static inline double nh_engine_mean(nh_engine *E, const nh_case *c, double value, int sub) {
  impactfit_stepper st;
  if (E->build(c, value, &st))
    return NAN;
  pn_nodes nodes;
  if (pn_make(&st, c->v, sub, &nodes)) {
    pn_free(&nodes);
    return NAN;
  }
  double *e = malloc(sizeof(double) * (size_t)nodes.n);
  double mean = NAN;
  if (e && !nh_engine_e(E, c, value, hz_steps_ahead(&st, c->v), nodes.phi, nodes.n, e, NULL))
    mean = pn_mean(&nodes, e);
  free(e);
  pn_free(&nodes);
  return mean;
}

typedef struct nh_solve_ctx {
  nh_engine *E;
  const nh_case *c;
} nh_solve_ctx;

static inline int nh_build_cb(const void *ctx, double value, impactfit_stepper *st, impactfit_error *err) {
  const nh_solve_ctx *s = (const nh_solve_ctx *)ctx;
  (void)err;
  return s->E->build(s->c, value, st) ? IMPACTFIT_EINVAL : 0;
}

/* impactfit's value of the free parameter in [lo, hi] whose mean e over the phase is e (0, or a status:
 * ENOROOT when out of reach, with the means met in S->e_min, e_max) */
static inline int nh_solve(nh_engine *E, const nh_case *c, double e, double lo, double hi, double *value,
                           impactfit_step_stats *S, impactfit_error *err) {
  nh_solve_ctx s = {.E = E, .c = c};
  return impactfit_step_solve_mean(nh_build_cb, &s, c->v, e, lo, hi, NAN, 1e-10, value, S, err);
}

/* impactfit's phase statistics of the value */
static inline int nh_stats(nh_engine *E, const nh_case *c, double value, impactfit_step_stats *S) {
  impactfit_stepper st;
  impactfit_error err;
  if (E->build(c, value, &st))
    return 1;
  if (impactfit_step_phase_stats(&st, c->v, S, &err)) {
    fprintf(stderr, "FAIL %s stats: %s\n", E->name, err.message);
    hz_fail++;
    return 1;
  }
  return 0;
}

/* a check that is not a difference: ok, with the two numbers it is about */
static inline void nh_require(int ok, const char *what, double a, double b) {
  hz_checks++;
  if (!ok) {
    hz_fail++;
    fprintf(stderr, "FAIL %s: %.12g, %.12g\n", what, a, b);
  }
}

/* The table of a sweep of asked e: its header, and one row (the naive input's statistics N, the corrected value r
 * with its statistics S, the naive and corrected per-phase differences dn, dc). With mean, the engine's mean at r
 * first, checked against e within 1e-5 (Rapier, PhysX and cannon-es alike; each run prints the largest
 * difference it saw). */
static inline void nh_header(const char *title) {
  printf("\n%s\n%-7s %4s %8s %4s | %7s %15s | %11s %7s %15s %10s | %8s %8s\n", title, "bodies", "v", "dt", "e",
         "e_naive", "[min max]", "corrected", "e_mean", "[min max]", "engine", "dnaive", "dcorr");
}

static inline void nh_corrected_row(nh_engine *E, const nh_case *c, double e, const impactfit_step_stats *N, double r,
                                    const impactfit_step_stats *S, int mean, double dn, double dc) {
  double em = NAN;
  if (mean) {
    em = nh_engine_mean(E, c, r, 1);
    char buf[700], w[640];
    nh_what(c, "the engine's mean at the corrected restitution", w, sizeof w);
    snprintf(buf, sizeof buf, "%s e %g", w, e);
    HZ_CHECK_ABS(em, e, 1e-5, buf);
    if (isfinite(em))
      E->worst_mean = fmax(E->worst_mean, fabs(em - e));
  }
  printf("%-7s %4.2f %8.2e %4.2f | %7.4f [%6.4f %6.4f] | %11.8f %7.4f [%6.4f %6.4f] %10.7f | %8.1e %8.1e\n",
         c->bodies.name, c->v, c->dt, e, N->e_mean, N->e_min, N->e_max, r, S->e_mean, S->e_min, S->e_max, em, dn, dc);
}

/* The end of a harness: the node script's exit status and the checks; the process's exit code */
static inline int nh_end(const char *prog, int status) {
  if (status != 0) {
    fprintf(stderr, "%s: the node script exited with %d\n", prog, status);
    return 1;
  }
  if (hz_fail) {
    fprintf(stderr, "%s: %d of %d checks failed\n", prog, hz_fail, hz_checks);
    return 1;
  }
  printf("%s: all %d checks passed\n", prog, hz_checks);
  return 0;
}

#endif
