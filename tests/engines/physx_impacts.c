/* SPDX-License-Identifier: GPL-3.0-or-later */
/* PhysX 4.1.1 (npm @cocos/physx 1.0.7, WebAssembly, float32; run by node: js/physx_impact.mjs) as the oracle of
 * impactfit's PhysX step map (src/codes/physx.c): sphere–plane and sphere–sphere impacts (equal and unequal
 * masses), no gravity, frictionless, scene.simulate(dt) + fetchResults(true); checked against impactfit's
 * stepper for the same phase (float32: within TOL_PHASE), the engine's mean over the phase with impactfit's
 * corrected restitution against the asked e (1e-5), or, where no restitution reaches it, the engine's mean at
 * the end of the range (restitution 1: PxMaterial takes [0, 1]), and the traps of docs/engines/PHYSX.md: no
 * bounce below bounceThresholdVelocity (2 m/s), which only PxTolerancesScale.speed moves in this port; the
 * default eAVERAGE with the ground's 0 halves the restitution; the speculative contact slows the body before
 * the bounce. Usage: physx_impacts NODE js/physx_impact.mjs (exit 77: SKIP without node_modules). */
#define _POSIX_C_SOURCE 200809L
#include "npm_cases.h"

#include "codes/npm_engines_impl.h"

/* float32: velocities carry float's 6e-8 relative (the threshold's and the bounce's comparisons too) */
#define TOL_PHASE 1e-6

typedef struct px_settings {
  const char *given; /* how the restitution is typed (js/physx_impact.mjs) */
  double speed;      /* PxTolerancesScale.speed (NaN: 10, not sent) */
} px_settings;

static px_settings cur = {.given = "max", .speed = NAN};

static void set_fields(nh_case *c) {
  int n = snprintf(c->fields, sizeof c->fields, "\"given\": \"%s\"", cur.given);
  if (!isnan(cur.speed))
    snprintf(c->fields + n, sizeof c->fields - (size_t)n, ", \"speed\": %.17g", cur.speed);
}

/* impactfit's model: eAVERAGE of r and the other material's 0 for "sphere-only", eMAX for "max", eAVERAGE of
 * r and r for "both"; bounceThresholdVelocity 0.2 speed (PxSceneDesc.h:972) */
static int build(const nh_case *c, double value, impactfit_stepper *st) {
  double r = strcmp(cur.given, "sphere-only") == 0 ? 0.5 * (value + 0.0) : value;
  impactfit__physx_stepper(st, nh_mass(&c->bodies), c->dt, c->bodies.b.plane, r);
  if (!isnan(cur.speed))
    st->p[IMPACTFIT__PHYSX_THRESHOLD] = 0.2 * cur.speed;
  return 0;
}

static const double phases[5] = {0.0713, 0.2910, 0.5020, 0.7330, 0.9410};
static const double asked[5] = {0.1, 0.3, 0.5, 0.7, 0.9};

static void one(nh_engine *E, nh_case *c, double e, int mean) {
  impactfit_step_stats S, N;
  impactfit_error err;
  double r = NAN;
  cur.given = "sphere-only"; /* the naive input: e on the sphere's material, the ground's 0, eAVERAGE */
  set_fields(c);
  nh_stats(E, c, e, &N);
  double dn = nh_per_phase(E, c, e, phases, 5, "naive");
  cur.given = "max"; /* the corrected input: the sphere's material with eMAX */
  set_fields(c);
  int s = nh_solve(E, c, e, 1e-6, 1.0, &r, &S, &err);
  if (s == IMPACTFIT_ENOROOT) {
    /* out of reach with a restitution in [0, 1]: below the bounce threshold (e = 0 for any), or the slowing
     * before the bounce keeps the mean below e even at 1; the engine's mean at restitution 1 is the most */
    impactfit_step_stats T;
    nh_stats(E, c, 1.0, &T);
    double d1 = nh_per_phase(E, c, 1.0, phases, 5, "restitution 1");
    double e1 = mean ? nh_engine_mean(E, c, 1.0, 1) : NAN;
    if (mean) {
      char buf[700], w[640];
      nh_what(c, "the engine's mean at restitution 1 (the most)", w, sizeof w);
      snprintf(buf, sizeof buf, "%s", w);
      HZ_CHECK_ABS(e1, T.e_mean, 1e-5, buf);
    }
    nh_require(T.e_mean < e && fabs(T.e_mean - S.e_max) < 1e-9,
               "out of reach: impactfit's mean at restitution 1 is the largest the search met, below e", T.e_mean,
               S.e_max);
    printf("%-7s %4.2f %8.2e %4.2f | %7.4f [%6.4f %6.4f] | out of reach: restitution 1 gives a mean e of %.6f [%.4f "
           "%.4f] (engine %.7f) | %8.1e %8.1e\n",
           c->bodies.name, c->v, c->dt, e, N.e_mean, N.e_min, N.e_max, T.e_mean, T.e_min, T.e_max, e1, dn, d1);
    return;
  }
  if (s) {
    fprintf(stderr, "FAIL physx solve %s v %g dt %g e %g: %s\n", c->bodies.name, c->v, c->dt, e, err.message);
    hz_fail++;
    return;
  }
  double dc = nh_per_phase(E, c, r, phases, 5, "corrected");
  nh_corrected_row(E, c, e, &N, r, &S, mean, dn, dc);
}

static void sweep(nh_engine *E, int mean_every) {
  /* 1 m/s: below bounceThresholdVelocity (2 m/s); 2.5 and 4 m/s above */
  static const double speeds[3] = {1.0, 2.5, 4.0};
  /* the engine's float32 steps (the model steps as far); 2^-10 and 2^-13 s (about 1e-3 and 1e-4 s) are exact in
   * float32 and so is each step's travel v dt (the speeds have few bits), so that the approach of 0.04/(v dt)
   * steps inside the contact distance is free of rounding in the engine too: its phases are the nodes' */
  static const double dts[4] = {1.0 / 60.0, 1.0 / 240.0, 0x1p-10, 0x1p-13};
  int count = 0;
  for (int d = 0; d < 4; d++)
    for (int bi = 0; bi < 3; bi++)
      for (int vi = 0; vi < 3; vi++) {
        /* at 1e-3 and 1e-4 s one speed per body (the sphere spends 0.04/(v dt) steps inside the contact distance) */
        if (d >= 2 && vi != (bi == 0 ? 0 : bi == 1 ? 1 : 2))
          continue;
        nh_case c = {.bodies = hz_make_bodies(bi), .v = speeds[vi], .dt = (float)dts[d]};
        if (!c.bodies.b.plane && c.v * c.dt >= 0.04) {
          printf("%-7s %4.2f %8.2e      | left out: v dt >= the contact distance 0.04 m: the spheres may overlap by "
                 "more than r1 + r2 at the first contact step\n",
                 c.bodies.name, c.v, c.dt);
          continue;
        }
        for (int k = 0; k < 5; k++)
          one(E, &c, asked[k], mean_every && count++ % mean_every == 0);
      }
}

static void traps(nh_engine *E) {
  printf("\ntraps (e per phase, engine = impactfit)\n");
  nh_case c = {.bodies = hz_make_bodies(0), .v = 3.0, .dt = (float)(1.0 / 60.0)};
  static const char *const givens[3] = {"sphere-only", "both", "max"};
  for (int g = 0; g < 3; g++) {
    cur.given = givens[g];
    set_fields(&c);
    double d = nh_per_phase(E, &c, 0.6, phases, 5, "given");
    impactfit_step_stats S;
    nh_stats(E, &c, 0.6, &S);
    printf("  3 m/s, restitution 0.6 typed as %-11s: mean e %.7f [%.7f %.7f] (|engine - impactfit| %.1e)\n", givens[g],
           S.e_mean, S.e_min, S.e_max, d);
  }
  /* the threshold moves only with PxTolerancesScale.speed: speed 1 gives 0.2 m/s; the 1 m/s impact */
  cur.given = "max";
  for (int k = 0; k < 2; k++) {
    cur.speed = k ? 1.0 : NAN;
    for (int bi = 0; bi < 3; bi++) {
      c.bodies = hz_make_bodies(bi);
      c.v = 1.0;
      c.dt = (float)(bi ? 1.0 / 240.0 : 1.0 / 60.0);
      set_fields(&c);
      double d = nh_per_phase(E, &c, 0.5, phases, 5, "threshold");
      impactfit_step_stats S;
      nh_stats(E, &c, 0.5, &S);
      printf("  1 m/s, %-7s dt %.4g, restitution 0.5, PxTolerancesScale.speed %-4g (threshold %.1f m/s): mean e %.7f "
             "[%.7f %.7f] (|engine - impactfit| %.1e)\n",
             c.bodies.name, c.dt, k ? 1.0 : 10.0, k ? 0.2 : 2.0, S.e_mean, S.e_min, S.e_max, d);
      if (!k)
        nh_require(S.e_max == 0.0, "below the bounce threshold e = 0 at every phase", S.e_max, 0.0);
    }
  }
  cur.speed = NAN;
  /* the slowing before the bounce: 2.25 m/s at 2^-10 s, e(phi) below r at the phases whose step ends within 0.25
   * v dt of contact without closing it, 0 where that slows the body below 2 m/s */
  c.bodies = hz_make_bodies(0);
  c.v = 2.25;
  c.dt = 0x1p-10;
  set_fields(&c);
  enum { NP = 40 };
  double phis[NP], ee[NP], em[NP], worst = 0.0;
  impactfit_stepper st;
  build(&c, 0.5, &st);
  for (int i = 0; i < NP; i++) {
    phis[i] = (i + 0.5) / NP;
    em[i] = hz_model_e(&st, c.v, phis[i], NULL);
  }
  if (!nh_engine_e(E, &c, 0.5, hz_steps_ahead(&st, c.v), phis, NP, ee, NULL)) {
    int below = 0, zero = 0;
    for (int i = 0; i < NP; i++) {
      if (!hz_near_jump(&st, c.v, phis[i])) {
        HZ_CHECK_ABS(ee[i], em[i], TOL_PHASE, "2.25 m/s at 2^-10 s, 40 phases");
        worst = fmax(worst, fabs(ee[i] - em[i]));
      }
      below += em[i] < 0.5 - 1e-6 && em[i] > 0.0;
      zero += em[i] == 0.0;
    }
    printf("  2.25 m/s, plane, dt 2^-10 s, restitution 0.5: e = 0.5 at %d of %d phases, slowed (0 < e < 0.5) at %d, "
           "e = 0 (slowed below 2 m/s) at %d (|engine - impactfit| %.1e)\n",
           NP - below - zero, NP, below, zero, worst);
    nh_require(below > 0 && zero > 0, "the slowing before the bounce, and below the threshold", below, zero);
  }
}

int main(int argc, char **argv) {
  nh_engine E = {
      .name = "physx", .value_key = "restitution", .build = build, .tol_phase = TOL_PHASE, .effective_phase = 1};
  json_t *hello = nc_start_or_skip(&E.child, "physx_impacts", argc, argv);
  printf("physx_impacts: PhysX %s (@cocos/physx) under node\n", json_string_value(json_object_get(hello, "version")));
  json_decref(hello);
  nh_header("restitution (naive: e on the sphere's material, the ground's 0 and eAVERAGE; corrected: the sphere's "
            "material with eMAX)");
  sweep(&E, 3);
  traps(&E);
  int status = nc_stop(&E.child);
  double cpu_self, cpu_node;
  nc_cpu(&cpu_self, &cpu_node);
  printf("\nphysx_impacts: %ld engine impacts in %ld requests, largest |e_engine - e_impactfit| per phase %.3g (at "
         "the engine's phase, at most %.2g from the node), largest |engine mean - asked e| %.3g, %.2f s of CPU here "
         "and %.2f s in node\n",
         E.runs, E.requests, E.worst, E.worst_shift, E.worst_mean, cpu_self, cpu_node);
  return nh_end("physx_impacts", status);
}
