/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Jolt Physics (npm jolt-physics 1.1.0 = JoltPhysics v5.6.0, WebAssembly, float32; run by node from
 * tests/engines/js/jolt_impact.mjs) as the oracle of impactfit's Jolt step map and entry (src/codes/jolt.c,
 * docs/engines/JOLT.md). This program holds impactfit's side; the script only runs Jolt.
 *
 * A frictionless sphere (5 mm, 1.309 g) on a static plane, or two spheres (5 cm radius with that mass, on a
 * second of 5 cm and the same mass or 8 cm and 4 times it), no gravity; the sphere placed (J − φ) v dt before
 * touching (J = 2 + ceil(0.02/(v dt)): the contact row exists from the speculative distance on), one
 * PhysicsSystem step of dt per update; e = −(relative velocity after)/v when a step leaves the bodies apart,
 * separating, with no impulse. The bodies' mLinearDamping acts in the steps with a contact row (the flight's
 * drag is not the contact's: see src/codes/jolt.c). Checked:
 *  (a) per phase, the engine's e equals impactfit's step map (impactfit__stepper_jolt) within 1e-6: sphere-plane
 *      and two spheres, dt 1/60 (Jolt's samples), 1/240 and 1/30 s, speeds 0.5 (below the restitution threshold
 *      of 1 m/s), 1.5 and 4 m/s, e = 0.1 ... 0.9 with the naive input (mRestitution = e) and impactfit's,
 *      damping 0 and Jolt's default 0.05 1/s;
 *  (b) the engine's mean e over the phase with impactfit's input is the asked e within 1e-5 (Gauss–Legendre on
 *      the pieces of e(φ), phase_nodes.h), or impactfit's search says the e is out of reach (below the threshold:
 *      no mRestitution bounces, and the engine gives e = 0 for mRestitution 0.5 and 1);
 *  (c) Jolt's defaults are those of the step map (PhysicsSettings, BodyCreationSettings);
 *  (d) traps: the threshold is strict (1 m/s: no bounce; 1.001 m/s: a bounce), two bodies' restitutions
 *      combine to the larger, two 5 mm spheres at 4 m/s and dt 1/60 pass through each other (and the note says
 *      so);
 *  (e) a speculative approach of more than 1e4 steps (1.5 m/s, dt 1e-6 s) bounces, per phase as the step map. */
#define _POSIX_C_SOURCE 200809L /* getline, posix_spawn (node_child.h) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codes/jolt_impl.h"
#include "impactfit/stepper.h"
#include "node_child.h"
#include "phase_nodes.h"
#include "testutil.h"

#define NAME "jolt_impacts"
#define TOL_PHASE 1e-6
#define TOL_MEAN 1e-5

static nc_child child;
static long g_impacts;

static const double M1 = 4.0 / 3.0 * M_PI * 0.005 * 0.005 * 0.005 * 2500.0;
static const char *const BODY_NAMES[] = {"sphere-plane", "spheres 1:1", "spheres 1:4"};

static impactfit__jolt_setup setup_make(int bodies, double dt, double damping) {
  impactfit__jolt_setup js = impactfit__jolt_defaults();
  js.dt = dt;
  js.damping = damping;
  js.plane = bodies == 0;
  js.m1 = M1;
  js.r1 = bodies == 0 ? 0.005 : 0.05;
  js.r2 = bodies == 0 ? 0.0 : bodies == 1 ? 0.05 : 0.08;
  js.m2 = bodies == 0 ? 0.0 : bodies == 1 ? M1 : 4.0 * M1;
  return js;
}

static int steps_ahead(const impactfit_stepper *st, double v) {
  return 2 + (int)ceil(st->type->reach(st, v) / (v * st->dt));
}

/* the engine's e at the phases for body 1's typed restitution; returns 0, or 1 on failure */
static int engine_e(const impactfit__jolt_setup *js, double restitution, double v, int J, const double *phis, int n,
                    double *e, const char *extra) {
  nc_buf b = {0};
  nc_printf(&b,
            "{\"op\":\"impacts\",\"pair\":%d,\"r1\":%.17g,\"r2\":%.17g,\"m1\":%.17g,\"m2\":%.17g,\"dt\":%.17g,"
            "\"v\":%.17g,\"J\":%d,\"restitution\":%.17g,\"restitution2\":%.17g,\"damping\":%.17g,\"settings\":{"
            "\"mMinVelocityForRestitution\":%.17g,\"mSpeculativeContactDistance\":%.17g}%s,\"phis\":[",
            !js->plane, js->r1, js->r2, js->m1, js->m2, js->dt, v, J, restitution, js->restitution2, js->damping,
            js->vmin, js->spec, extra ? extra : "");
  for (int i = 0; i < n; i++)
    nc_printf(&b, "%s%.17g", i ? "," : "", phis[i]);
  nc_printf(&b, "]}");
  json_t *a = nc_ask(&child, b.s);
  free(b.s);
  if (!a) {
    fprintf(stderr, NAME ": %s\n", child.error);
    return 1;
  }
  int got = nc_doubles(json_object_get(a, "e"), e, n);
  json_decref(a);
  g_impacts += n;
  return got != n;
}

/* one impact's e in the model */
static double e_of(const impactfit_stepper *st, double v, double phi) {
  impactfit_step_impact o;
  impactfit_error err;
  return impactfit_step_impact_at(st, v, phi, &o, &err) ? NAN : o.e;
}

static const double PHIS[] = {0.0731, 0.2459, 0.4173, 0.5566, 0.7287, 0.9519};
#define NPHI ((int)(sizeof PHIS / sizeof PHIS[0]))

/* per phase: the engine against the step map for body 1's restitution; returns the largest |de| */
static double agree_map(const impactfit__jolt_setup *js, double restitution, double v, const char *what, int *points,
                        int f32, double tol) {
  impactfit_stepper st;
  impactfit_error err;
  if (impactfit__jolt_build(js, restitution, f32, &st, &err)) {
    CHECK(0, "%s: impactfit builds (%.400s)", what, err.message);
    return INFINITY;
  }
  double e[NPHI], worst = 0.0;
  if (engine_e(js, restitution, v, steps_ahead(&st, v), PHIS, NPHI, e, NULL)) {
    CHECK(0, "%s: the engine runs", what);
    return INFINITY;
  }
  for (int i = 0; i < NPHI; i++) {
    unsigned long s0 = 0, s1 = 0, s2 = 0;
    double want = hz_model_e(&st, v, PHIS[i], &s0);
    hz_model_e(&st, v, PHIS[i] - 1e-7, &s1);
    hz_model_e(&st, v, PHIS[i] + 1e-7, &s2);
    if (s0 != s1 || s0 != s2) /* next to a jump of e(φ): rounding picks the side */
      continue;
    (*points)++;
    worst = fmax(worst, isnan(e[i]) ? INFINITY : fabs(e[i] - want));
    CHECK_ABS(e[i], want, tol, "%s phi %.4f: engine e vs impactfit e(phi) (%s map)", what, PHIS[i],
              f32 ? "float32" : "double");
  }
  return worst;
}

static double agree(const impactfit__jolt_setup *js, double restitution, double v, const char *what, int *points) {
  return agree_map(js, restitution, v, what, points, 1, TOL_PHASE);
}

typedef struct {
  const impactfit__jolt_setup *js;
} build_ctx;

static int build_fn(const void *ctx, double value, impactfit_stepper *st, impactfit_error *err) {
  return impactfit__jolt_build(((const build_ctx *)ctx)->js, value, 0, st, err);
}

/* ---------------------------------------------------------------- (a) and (b) */

static void one_case(int b, double dt, double v, double damping, double e_asked, int mean, double *worst) {
  impactfit__jolt_setup js = setup_make(b, dt, damping);
  char what[200];
  snprintf(what, sizeof what, "%s dt 1/%.0f v %g damping %g e %g", BODY_NAMES[b], 1.0 / dt, v, damping, e_asked);
  int points = 0;
  /* the naive input: mRestitution = e */
  double dn = agree(&js, e_asked, v, what, &points);
  impactfit_stepper st;
  impactfit_error err;
  impactfit_step_stats S;
  impactfit__jolt_build(&js, e_asked, 1, &st, &err);
  double e_naive = impactfit_step_phase_stats(&st, v, &S, &err) ? NAN : S.e_mean;
  /* impactfit's input */
  build_ctx bc = {.js = &js};
  double r = NAN;
  int rc = impactfit_step_solve_mean(build_fn, &bc, v, e_asked, 1e-6, 2.0, e_asked, 0.0, &r, &S, &err);
  char note[2048] = "";
  impactfit__jolt_note(&js, isfinite(r) ? r : e_asked, v, note, sizeof note);
  if (rc) {
    /* out of reach: only below the threshold, where the note says so and the engine bounces for no value */
    int below = !(v * fmax(0.0, 1.0 - damping * dt) > js.vmin);
    CHECK(rc == IMPACTFIT_ENOROOT && below && strstr(note, "NO BOUNCE") != NULL,
          "%s: out of reach only below the threshold, and the note says why (rc %d: %.300s)", what, rc, err.message);
    double e1[NPHI], e2[NPHI];
    int J = steps_ahead(&st, v);
    if (engine_e(&js, 0.5, v, J, PHIS, NPHI, e1, NULL) == 0 && engine_e(&js, 1.0, v, J, PHIS, NPHI, e2, NULL) == 0) {
      double mx = 0.0;
      for (int i = 0; i < NPHI; i++)
        mx = fmax(mx, fmax(e1[i], e2[i]));
      CHECK(mx < 1e-6, "%s: below the threshold the engine gives e = 0 for mRestitution 0.5 and 1 (max %g)", what, mx);
      printf("    %-52s naive %9.6f  out of reach: the means met lie in [%.3g, %.3g]; engine e <= %.2g for r 0.5, 1\n",
             what, e_naive, S.e_min, S.e_max, mx);
    }
    *worst = fmax(*worst, dn);
    return;
  }
  /* pasted as the text gives it (nine digits) */
  char text[512];
  impactfit__jolt_input(&js, r, text, sizeof text);
  double typed = atof(strchr(text, '=') + 1);
  CHECK_REL(typed, r, 1e-8, "%s: the pasted text holds the value (%s)", what, text);
  double df = agree(&js, typed, v, what, &points);
  double em = NAN;
  pn_nodes p;
  if (mean && impactfit__jolt_build(&js, typed, 1, &st, &err) == 0 && pn_make(&st, v, 1, &p) == 0) {
    double *e = malloc(sizeof(double) * (size_t)p.n);
    if (e && engine_e(&js, typed, v, steps_ahead(&st, v), p.phi, p.n, e, NULL) == 0)
      em = pn_mean(&p, e);
    free(e);
    pn_free(&p);
    CHECK_ABS(em, e_asked, TOL_MEAN, "%s: the engine's mean e over the phase with impactfit's input", what);
  }
  char mean_text[32] = "-";
  if (mean)
    snprintf(mean_text, sizeof mean_text, "%9.1e", em - e_asked);
  printf("    %-52s naive %9.6f  impactfit r %.9f  max|de| %.1e  engine mean - e %9s  (%d phases)\n", what, e_naive,
         typed, fmax(dn, df), mean_text, points);
  *worst = fmax(*worst, fmax(dn, df));
}

static void part_ab(void) {
  printf("(a, b) per phase (tolerance %g) and the engine's phase mean with impactfit's input (%g)\n", TOL_PHASE,
         TOL_MEAN);
  const double dts[] = {1.0 / 60.0, 1.0 / 240.0, 1.0 / 30.0};
  const double speeds[] = {0.5, 1.5, 4.0};
  const double es[] = {0.1, 0.3, 0.5, 0.7, 0.9};
  double worst = 0.0;
  for (int b = 0; b < 3; b++)
    for (int t = 0; t < 3; t++)
      for (int k = 0; k < 3; k++)
        for (int d = 0; d < 2; d++)
          for (int j = 0; j < 5; j++) {
            /* two 5 cm spheres at 4 m/s and dt 1/30 move 0.13 m a step: they pass through each other */
            if (b > 0 && dts[t] * speeds[k] > 0.1)
              continue;
            int mean = t == 0 || j == 2;
            one_case(b, dts[t], speeds[k], d ? 0.05 : 0.0, es[j], mean, &worst);
          }
  printf("    largest |de| over all: %.2e (tolerance %g)\n", worst, TOL_PHASE);
}

/* ---------------------------------------------------------------- (c) and (d) */

static void part_c(void) {
  json_t *a = nc_ask(&child, "{\"op\":\"defaults\"}");
  if (!a) {
    CHECK(0, "(c) the engine's defaults: %s", child.error);
    return;
  }
  impactfit__jolt_setup js = impactfit__jolt_defaults();
  struct {
    const char *key;
    double want;
  } d[] = {{"mMinVelocityForRestitution", js.vmin}, {"mSpeculativeContactDistance", js.spec},
           {"mPenetrationSlop", js.slop},           {"mBaumgarte", js.baumgarte},
           {"mNumVelocitySteps", js.vsteps},        {"mNumPositionSteps", js.psteps},
           {"mLinearDamping", js.damping},          {"mRestitution", js.restitution2},
           {"mMaxPenetrationDistance", 0.2}};
  printf("(c) Jolt's defaults:");
  for (size_t i = 0; i < sizeof d / sizeof d[0]; i++) {
    json_t *x = json_object_get(a, d[i].key);
    double got = json_is_number(x) ? json_number_value(x) : NAN;
    printf(" %s %.9g", d[i].key, got);
    CHECK(got == (double)(float)d[i].want, "(c) %s: the engine's default %.9g, impactfit's %.9g", d[i].key, got,
          d[i].want);
  }
  CHECK(json_is_true(json_object_get(a, "mConstraintWarmStart")) && js.warm == 1, "(c) warm start on by default");
  printf("\n");
  json_decref(a);
}

static void part_d(void) {
  printf("(d) traps, measured\n");
  /* the threshold is strict: at 1 m/s no bounce, at 1.001 m/s a bounce */
  impactfit__jolt_setup js = setup_make(0, 1.0 / 60.0, 0.0);
  impactfit_stepper st;
  impactfit_error err;
  const double vs[2] = {1.0, 1.001};
  for (int k = 0; k < 2; k++) {
    impactfit__jolt_build(&js, 0.5, 1, &st, &err);
    double e[NPHI];
    if (engine_e(&js, 0.5, vs[k], steps_ahead(&st, vs[k]), PHIS, NPHI, e, NULL) == 0) {
      double mx = 0.0, mn = INFINITY;
      for (int i = 0; i < NPHI; i++) {
        mx = fmax(mx, e[i]);
        mn = fmin(mn, e[i]);
      }
      printf("    mRestitution 0.5 at %.3f m/s: engine e in [%.6g, %.6g]\n", vs[k], mn, mx);
      CHECK(k ? fabs(mn - 0.5) < 1e-6 && fabs(mx - 0.5) < 1e-6 : mx < 1e-6,
            "(d) the threshold is strict: e %s at %.3f m/s", k ? "= 0.5" : "= 0", vs[k]);
    }
  }
  /* combine: the plane's mRestitution 0.8 and the sphere's 0.3 give 0.8 */
  js.restitution2 = 0.8;
  int points = 0;
  double de = agree(&js, 0.3, 2.0, "(d) sphere 0.3 on a plane of 0.8", &points);
  impactfit__jolt_build(&js, 0.3, 1, &st, &err);
  impactfit_step_stats S;
  impactfit_step_phase_stats(&st, 2.0, &S, &err);
  printf("    mRestitution 0.3 on a plane of 0.8 at 2 m/s: impactfit e %.7f (the larger), engine per phase within "
         "%.1e\n",
         S.e_mean, de);
  CHECK(fabs(S.e_mean - 0.8) < 1e-6, "(d) the larger restitution acts (e %.9g)", S.e_mean);
  /* two 5 mm spheres at 4 m/s, dt 1/60: a step of 67 mm passes the 10 mm spheres and the 20 mm speculative reach */
  impactfit__jolt_setup sm = setup_make(1, 1.0 / 60.0, 0.0);
  sm.r1 = sm.r2 = 0.005;
  impactfit__jolt_build(&sm, 0.5, 1, &st, &err);
  double e[3];
  const double ph[3] = {0.2, 0.5, 0.8};
  char note[2048] = "";
  impactfit__jolt_note(&sm, 0.5, 4.0, note, sizeof note);
  if (engine_e(&sm, 0.5, 4.0, steps_ahead(&st, 4.0), ph, 3, e, NULL) == 0) {
    int passed = 0;
    for (int i = 0; i < 3; i++)
      passed += isnan(e[i]) || e[i] < 0.1;
    printf("    two 5 mm spheres at 4 m/s, dt 1/60: engine e %g %g %g (NaN: no rebound, they passed); note: %s\n", e[0],
           e[1], e[2], strstr(note, "PASS THROUGH") ? "says they pass through" : "silent");
    CHECK(passed > 0 && strstr(note, "PASS THROUGH") != NULL, "(d) the spheres pass through each other at some phase, "
                                                              "and the note says so");
  }
}

/* ---------------------------------------------------------------- (e) */

/* A speculative approach longer than 1e4 steps (0.02 m at 1.5 m/s and dt = 1e-6 s: 13 335 steps with a row and no
 * impulse, where the stepper's creep rule once ended the impact at rest, e = 0): per phase, the engine against
 * the float32 step map and against the double map (the registry's default integrator), with and without
 * damping: the double map rounds the damped approach velocity to float each step as the engine stores it (with
 * the exact 1 − c h it gave 0.4996666 against the engine's 0.4994698 at damping 0.05), within 1e-6 per phase
 * (its positions are double: the bounce step moves by a few of the 13 335 steps, c h = 5e-8 of e each) */
static void part_e(void) {
  printf("(e) a long speculative approach: sphere-plane, v 1.5 m/s, dt 1e-6 s, mRestitution 0.5\n");
  for (int d = 0; d < 2; d++) {
    impactfit__jolt_setup js = setup_make(0, 1e-6, d ? 0.05 : 0.0);
    char what[120];
    snprintf(what, sizeof what, "(e) dt 1e-6 v 1.5 damping %g", js.damping);
    int points = 0;
    double de = agree(&js, 0.5, 1.5, what, &points);
    int points64 = 0;
    double de64 = agree_map(&js, 0.5, 1.5, what, &points64, 0, 1e-6);
    impactfit_stepper st;
    impactfit_error err;
    double e32 = NAN, e64 = NAN;
    if (impactfit__jolt_build(&js, 0.5, 1, &st, &err) == 0)
      e32 = e_of(&st, 1.5, 0.5);
    if (impactfit__jolt_build(&js, 0.5, 0, &st, &err) == 0)
      e64 = e_of(&st, 1.5, 0.5);
    CHECK(e32 > 0.49 && e32 <= 0.5, "%s: a bounce (e %.9g at phase 0.5)", what, e32);
    CHECK(fabs(e64 - e32) <= 1e-6, "%s: the double map's e %.9f, the float32 map's %.9f", what, e64, e32);
    printf("    damping %-4g engine vs float32 map per phase within %.1e (%d phases), vs the double map (the default) "
           "within %.1e (%d phases); float32 map e %.9f, double map %.9f\n",
           js.damping, de, points, de64, points64, e32, e64);
  }
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  json_t *hello = nc_start_or_skip(&child, NAME, argc, argv);
  printf(NAME ": %s through %s\n", json_string_value(json_object_get(hello, "version")), argv[2]);
  json_decref(hello);
  const char *parts = argc > 3 ? argv[3] : "abcde";
  if (strchr(parts, 'a'))
    part_ab();
  if (strchr(parts, 'c'))
    part_c();
  if (strchr(parts, 'd'))
    part_d();
  if (strchr(parts, 'e'))
    part_e();
  printf(NAME ": %ld engine impacts, %ld requests\n", g_impacts, child.requests);
  int rc = nc_stop(&child);
  CHECK(rc == 0, "the node script ends cleanly (exit %d)", rc);
  double cpu_self, cpu_node;
  nc_cpu(&cpu_self, &cpu_node);
  printf(NAME ": CPU %.2f s here (impactfit), %.2f s in node (the engine)\n", cpu_self, cpu_node);
  return tu_report(NAME);
}
