/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Rapier (npm @dimforge/rapier3d-compat 0.21.0, WebAssembly, float32; run by node: js/rapier_impact.mjs) as the
 * oracle of impactfit's Rapier step map (src/codes/rapier.c): sphere–plane (a HalfSpace collider on a fixed
 * body) and sphere–sphere impacts (equal and unequal masses), no gravity, frictionless, world.step(); checked
 * against impactfit's stepper for the same phase (float32: within TOL_PHASE, measured below), the engine's mean
 * over the phase with impactfit's corrected input against the asked e (1e-5), and the traps of
 * docs/engines/RAPIER.md: the default Average rule with the ground's default restitution 0 halves the
 * restitution, two dynamic bodies pass through each other when a step's travel exceeds the prediction
 * distance, a penetrating contact (prediction distance 0.002 m) is solved soft. Usage: rapier_impacts NODE
 * js/rapier_impact.mjs (exit 77: SKIP without node_modules). */
#define _POSIX_C_SOURCE 200809L
#include "npm_cases.h"

#include "codes/npm_engines_impl.h"

/* float32: the engine's velocities carry float's 6e-8 relative, its positions 4.7e-10 m near a 5 mm radius
 * (a phase shift of 1e-5 at the smallest v dt here, 5e-6 m, where e does not depend on the phase); measured
 * largest |Δe| per phase: see the summary line */
#define TOL_PHASE 1e-6

typedef struct rp_settings {
  const char *given; /* how the restitution is typed (js/rapier_impact.mjs) */
  double prediction; /* normalizedPredictionDistance (NaN: Rapier's 0.02, not sent) */
  double iterations; /* numSolverIterations (NaN: 4) */
  int awake;         /* 1: setCanSleep(false) on the dynamic bodies */
} rp_settings;

static rp_settings cur = {.given = "max", .prediction = NAN, .iterations = NAN, .awake = 0};

static void set_fields(nh_case *c) {
  int n = snprintf(c->fields, sizeof c->fields, "\"given\": \"%s\"", cur.given);
  if (!isnan(cur.prediction))
    n += snprintf(c->fields + n, sizeof c->fields - (size_t)n, ", \"normalizedPredictionDistance\": %.17g",
                  cur.prediction);
  if (!isnan(cur.iterations))
    n += snprintf(c->fields + n, sizeof c->fields - (size_t)n, ", \"numSolverIterations\": %.17g", cur.iterations);
  if (cur.awake)
    snprintf(c->fields + n, sizeof c->fields - (size_t)n, ", \"canSleep\": false");
}

/* impactfit's model: the pair's restitution from the colliders' values (Average of r and the other's default
 * 0 for "sphere-only"; Max(r, 0) = r for "max"; Average(r, r) = r for "both") */
static int build(const nh_case *c, double value, impactfit_stepper *st) {
  double r = strcmp(cur.given, "sphere-only") == 0 ? 0.5 * (value + 0.0) : value;
  impactfit__rapier_stepper(st, nh_mass(&c->bodies), c->dt, c->bodies.b.plane, r);
  if (!isnan(cur.prediction))
    st->p[IMPACTFIT__RAPIER_PREDICTION] = cur.prediction;
  if (!isnan(cur.iterations))
    st->p[IMPACTFIT__RAPIER_SUBSTEPS] = cur.iterations;
  return 0;
}

static const double phases[5] = {0.0713, 0.2910, 0.5020, 0.7330, 0.9410};
static const double asked[5] = {0.1, 0.3, 0.5, 0.7, 0.9};

static void one(nh_engine *E, nh_case *c, double e, int mean) {
  impactfit_step_stats S, N;
  impactfit_error err;
  double r = NAN;
  /* the naive input: e typed on the sphere's collider, the ground's default restitution (0, Average) */
  cur.given = "sphere-only";
  set_fields(c);
  nh_stats(E, c, e, &N);
  double dn = nh_per_phase(E, c, e, phases, 5, "naive");
  /* the corrected input: the sphere's restitution with the rule Max (the other collider's value does not
   * matter as long as it is smaller) */
  cur.given = "max";
  set_fields(c);
  if (nh_solve(E, c, e, 1e-6, 1.0, &r, &S, &err)) {
    fprintf(stderr, "FAIL rapier solve %s v %g dt %g e %g: %s\n", c->bodies.name, c->v, c->dt, e, err.message);
    hz_fail++;
    return;
  }
  double dc = nh_per_phase(E, c, r, phases, 5, "corrected");
  nh_corrected_row(E, c, e, &N, r, &S, mean, dn, dc);
}

static void sweep(nh_engine *E, int mean_every) {
  /* 0.05 m/s: below Rapier's sleep threshold (0.1 m/s for 0.5 s; the approaches here are shorter) */
  static const double speeds[3] = {0.05, 1.0, 2.0};
  static const double dts[4] = {1.0 / 60.0, 1.0 / 240.0, 1e-3, 1e-4};
  int count = 0;
  for (int d = 0; d < 4; d++)
    for (int bi = 0; bi < 3; bi++)
      for (int vi = 0; vi < 3; vi++) {
        /* at 1e-3 and 1e-4 s one speed per body, none below 1 m/s: the sphere spends 0.02/(v dt) steps inside
         * the prediction distance (4000 at 0.05 m/s and 1e-4 s); the slow speed runs at 1/60 and 1/240 s */
        if (d >= 2 && vi != (bi == 2 ? 2 : 1))
          continue;
        nh_case c = {.bodies = hz_make_bodies(bi), .v = speeds[vi], .dt = dts[d]};
        if (!c.bodies.b.plane && c.v * c.dt >= 0.02) {
          printf("%-7s %4.2f %8.2e      | left out: v dt >= the prediction distance 0.02 m: the spheres pass "
                 "through each other at some phases (traps below)\n",
                 c.bodies.name, c.v, c.dt);
          continue;
        }
        /* two spheres below the sleep threshold: the target at rest and the slow sphere both sleep 0.5 s after
         * the start, and a pair found overlapping (the broad phase is late for slow bodies) is still overlapping
         * then: they freeze (traps below); the bodies are kept awake here */
        cur.awake = !c.bodies.b.plane && c.v < 0.1;
        for (int k = 0; k < 5; k++)
          one(E, &c, asked[k], mean_every && count++ % mean_every == 0);
        cur.awake = 0;
      }
}

/* the phases at which the engine lets two spheres pass through each other (e null) */
static void pass_through(nh_engine *E) {
  nh_case c = {.bodies = hz_make_bodies(1), .v = 2.0, .dt = 1.0 / 60.0};
  cur.given = "both";
  set_fields(&c);
  enum { NP = 40 };
  double phis[NP], ee[NP];
  for (int i = 0; i < NP; i++)
    phis[i] = (i + 0.5) / NP;
  impactfit_stepper st;
  build(&c, 0.5, &st);
  if (nh_engine_e(E, &c, 0.5, hz_steps_ahead(&st, c.v), phis, NP, ee, NULL))
    return;
  int through = 0, bounce = 0;
  for (int i = 0; i < NP; i++) {
    through += isnan(ee[i]);
    bounce += !isnan(ee[i]) && fabs(ee[i] - 0.5) < TOL_PHASE;
  }
  /* the first overlap after a step that started beyond the prediction distance: the gap g at that step's start
   * lies in (0.02, v dt) for a fraction (v dt − 0.02)/(v dt) of the phases; the spheres pass through when the
   * overlap v dt − g exceeds r1 + r2, (v dt − 0.02 − (r1 + r2))/(v dt) = 0.1 of them */
  printf("  two 5 mm spheres at 2 m/s, dt 1/60 s (v dt = 0.0333 m): the engine passes through at %d of %d phases "
         "(expected 0.1 of them), bounces with e = 0.5 at %d\n",
         through, NP, bounce);
  nh_require(abs(through - NP / 10) <= 1 && through + bounce == NP, "pass-through phases, bounces", through, bounce);
}

static void traps(nh_engine *E) {
  printf("\ntraps (e per phase, engine = impactfit)\n");
  nh_case c = {.bodies = hz_make_bodies(0), .v = 1.0, .dt = 1.0 / 60.0};
  static const char *const givens[3] = {"sphere-only", "both", "max"};
  for (int g = 0; g < 3; g++) {
    cur.given = givens[g];
    set_fields(&c);
    double d = nh_per_phase(E, &c, 0.5, phases, 5, "given");
    impactfit_step_stats S;
    nh_stats(E, &c, 0.5, &S);
    printf("  restitution 0.5 typed as %-11s: mean e %.7f [%.7f %.7f] (|engine - impactfit| %.1e)\n", givens[g],
           S.e_mean, S.e_min, S.e_max, d);
  }
  /* restitution 1 bounces on every step in contact (an old point bounces only when restitution >= 1), 0 stops */
  cur.given = "both";
  for (int bi = 0; bi < 3; bi++)
    for (int k = 0; k < 2; k++) {
      c.bodies = hz_make_bodies(bi);
      set_fields(&c);
      double r = k ? 1.0 : 1e-9, d = nh_per_phase(E, &c, r, phases, 5, "restitution 1 or ~0");
      impactfit_step_stats S;
      nh_stats(E, &c, r, &S);
      printf("  restitution %-5g %-7s: mean e %.7f (|engine - impactfit| %.1e)\n", r, c.bodies.name, S.e_mean, d);
    }
  /* the engine's default restitution 0 at 1.5 and 5 m/s (issue 34: forward mode refused it, its statistics took
   * 35 s and 213 s at 1e-300): every phase ends at a rounding-level speed in impactfit's model */
  c.bodies = hz_make_bodies(0);
  for (int k = 0; k < 2; k++) {
    c.v = k ? 5.0 : 1.5;
    set_fields(&c);
    double d = nh_per_phase(E, &c, 0.0, phases, 5, "restitution 0");
    impactfit_step_stats S;
    nh_stats(E, &c, 0.0, &S);
    HZ_CHECK_ABS(S.e_max, 0.0, 1e-15, "restitution 0: impactfit's largest e");
    printf("  restitution 0 at %g m/s: mean e %.3g, largest %.3g (|engine - impactfit| %.1e)\n", c.v, S.e_mean, S.e_max,
           d);
  }
  /* restitution 0 at the small steps (1 m/s): the soft row's position correction after the impact leaves the body
   * in a penetration of 1e-37 m at a rounding-level speed, decaying by 3e-4 a step at 1e-4 s (the model stepped
   * 1.3e5 steps a phase, 0.9 s an answer, and at 1e-5 s refused it: "the bodies stick"); settled (stepper.c's
   * at_rest), every phase ends there at a rounding-level speed, in the engine too */
  c.v = 1.0;
  for (int k = 0; k < 2; k++) {
    c.dt = k ? 1e-5 : 1e-4;
    set_fields(&c);
    double d = nh_per_phase(E, &c, 0.0, phases, 5, "restitution 0, small dt");
    impactfit_step_stats S;
    nh_stats(E, &c, 0.0, &S);
    HZ_CHECK_ABS(S.e_max, 0.0, 1e-15, "restitution 0, small dt: impactfit's largest e");
    printf("  restitution 0 at dt %g s: mean e %.3g, largest %.3g (|engine - impactfit| %.1e)\n", c.dt, S.e_mean,
           S.e_max, d);
  }
  c.dt = 1.0 / 60.0;
  pass_through(E);
  /* a long approach: 0.1 m/s at dt 1e-5 s spends 2e4 steps in the prediction distance with a contact point and
   * no impulse, more than the 1e4 steps of the creep rule (taken at once by the model; the model's flight of
   * 2e6 steps at 1e-7 s, once refused, is checked against the closed form e = r in test_rapier: the engine
   * would take 40 s for it; at 1e-6 s, 2e5 steps a phase, it agrees within 4.5e-8, 7.6 s in node) */
  cur.given = "max";
  c.bodies = hz_make_bodies(0);
  c.v = 0.1;
  c.dt = 1e-5;
  cur.awake = 1;
  set_fields(&c);
  static const double long_phases[2] = {0.2910, 0.7330};
  double dl = nh_per_phase(E, &c, 0.5, long_phases, 2, "long approach");
  printf("  restitution 0.5 at 0.1 m/s, dt 1e-5 s (2e4 steps of approach): |engine - impactfit| %.1e\n", dl);
  cur.awake = 0;
  /* penetrating contacts: prediction distance 0.002 m, so that the first contact step starts inside the body;
   * the soft row (30 Hz, or 60 Hz against the fixed plane; ζ = 10) and its bias then act */
  cur.prediction = 0.002;
  cur.given = "both";
  for (int bi = 0; bi < 3; bi++)
    for (int k = 0; k < 3; k++) {
      static const double rs[3] = {0.02, 0.1, 0.5};
      c.bodies = hz_make_bodies(bi);
      c.v = 0.5;
      c.dt = 1.0 / 60.0;
      set_fields(&c);
      double d = nh_per_phase(E, &c, rs[k], phases, 5, "penetrating");
      impactfit_step_stats S;
      nh_stats(E, &c, rs[k], &S);
      printf("  prediction 0.002 m, 0.5 m/s, dt 1/60 s, %-7s restitution %.2f: mean e %.7f [%.7f %.7f] "
             "(|engine - impactfit| %.1e)\n",
             c.bodies.name, rs[k], S.e_mean, S.e_min, S.e_max, d);
    }
  /* one substep instead of four */
  cur.prediction = NAN;
  cur.iterations = 1.0;
  for (int bi = 0; bi < 3; bi++) {
    c.bodies = hz_make_bodies(bi);
    c.v = 1.0;
    c.dt = 1e-3;
    set_fields(&c);
    double d = nh_per_phase(E, &c, 0.3, phases, 5, "one substep");
    printf("  numSolverIterations 1, %-7s restitution 0.3: |engine - impactfit| %.1e\n", c.bodies.name, d);
  }
  cur.iterations = NAN;
  cur.given = "max";
}

int main(int argc, char **argv) {
  nh_engine E = {.name = "rapier", .value_key = "restitution", .build = build, .tol_phase = TOL_PHASE};
  json_t *hello = nc_start_or_skip(&E.child, "rapier_impacts", argc, argv);
  printf("rapier_impacts: Rapier %s under node\n", json_string_value(json_object_get(hello, "version")));
  json_decref(hello);
  nh_header("restitution (naive: e on the sphere, the ground's default 0 and rule Average; corrected: the sphere's "
            "restitution with CoefficientCombineRule.Max)");
  sweep(&E, 3);
  traps(&E);
  int status = nc_stop(&E.child);
  double cpu_self, cpu_node;
  nc_cpu(&cpu_self, &cpu_node);
  printf("\nrapier_impacts: %ld engine impacts in %ld requests, largest |e_engine - e_impactfit| per phase %.3g, "
         "largest |engine mean - asked e| %.3g, %.2f s of CPU here and %.2f s in node\n",
         E.runs, E.requests, E.worst, E.worst_mean, cpu_self, cpu_node);
  return nh_end("rapier_impacts", status);
}
