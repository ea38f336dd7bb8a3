/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The step maps of the npm engines (src/codes/rapier.c, physx.c, cannon.c, havok.c) against closed forms derived
 * here by hand from the one-step maps their sources compute (or, for Havok, from the measured law), with no
 * engine: the engines themselves are the oracles of tests/engines/<engine>_impacts.c (ctest -L mbd-engines),
 * which need node and the npm packages; these run everywhere. */
#include <math.h>
#include <stdio.h>

#include "codes/npm_engines_impl.h"
#include "impactfit/stepper.h"

static int fails = 0, checks = 0;

static void check(int ok, const char *what, double got, double want) {
  checks++;
  if (!ok) {
    fails++;
    fprintf(stderr, "FAIL %s: got %.17g, want %.17g\n", what, got, want);
  }
}

#define CLOSE(got, want, tol, what) check(fabs((got) - (want)) <= (tol), what, got, want)

static double e_at(const impactfit_stepper *st, double v, double phi) {
  impactfit_step_impact r;
  impactfit_error err;
  if (impactfit_step_impact_at(st, v, phi, &r, &err)) {
    fprintf(stderr, "FAIL impact at %g: %s\n", phi, err.message);
    fails++;
    return NAN;
  }
  return r.e;
}

static double mean_of(const impactfit_stepper *st, double v) {
  impactfit_step_stats S;
  impactfit_error err;
  if (impactfit_step_phase_stats(st, v, &S, &err)) {
    fprintf(stderr, "FAIL stats: %s\n", err.message);
    fails++;
    return NAN;
  }
  return S.e_mean;
}

static const double M = 0.0013089969389957472; /* a 5 mm glass sphere */

/* cannon-es: with x = phi v h at the first contact step and no damping, one step leaves at
 * e = (b (1 + r) + 4 phi/(1 + 4d))/(1 + M eps) - 1 (a = 4/(h (1 + 4d)), b = 4d/(1 + 4d)), and that step ends the
 * contact when it leaves a gap: phi v h - e v h <= 0, i.e. e >= phi */
static void cannon(void) {
  static const double dts[3] = {1.0 / 60.0, 1e-3, 1e-4};
  for (int k = 0; k < 3; k++) {
    impactfit_stepper st;
    impactfit__cannon_stepper(&st, M, dts[k], 1, 0.5);
    st.p[IMPACTFIT__CANNON_DAMPING] = 0.0;
    double d = 3.0, b = 4.0 * d / (1.0 + 4.0 * d), eps = 4.0 / (dts[k] * dts[k] * 1e7 * (1.0 + 4.0 * d));
    for (int i = 1; i <= 4; i++) {
      double phi = 0.1 * i, want = (b * 1.5 + 4.0 * phi / (1.0 + 4.0 * d)) / (1.0 + M * eps) - 1.0;
      CLOSE(e_at(&st, 1.0, phi), want, 1e-12, "cannon: one contact step");
    }
    /* the same at another speed: e does not depend on v */
    CLOSE(e_at(&st, 0.05, 0.3), e_at(&st, 2.0, 0.3), 1e-12, "cannon: e independent of the speed");
  }
  /* damping, by hand: two free steps, the contact step, the free step that ends the impact, each velocity scaled
   * by (1 - 0.01)^h after the impulse and before the position (World.ts:810-841) */
  impactfit_stepper st;
  impactfit__cannon_stepper(&st, M, 1.0 / 60.0, 1, 0.5);
  double h = 1.0 / 60.0, v = 1.0, phi = 0.3, ld = pow(0.99, h), d = 3.0;
  double a = 4.0 / (h * (1.0 + 4.0 * d)), b = 4.0 * d / (1.0 + 4.0 * d), eps = 4.0 / (h * h * 1e7 * (1.0 + 4.0 * d));
  double x = (phi - 2.0) * v * h, u = v;
  for (int k = 0; k < 2; k++) {
    u *= ld;
    x += h * u;
  }
  double lam = (a * x + b * 1.5 * u) / (1.0 / M + eps);
  u = (u - lam / M) * ld;
  x += h * u;
  check(x <= 0.0 && u < 0.0, "cannon: the contact step ends the contact", x, u);
  u *= ld;
  CLOSE(e_at(&st, v, phi), -u / v, 1e-12, "cannon: linearDamping 0.01 by hand");
}

/* Rapier: the speculative row stops the body at the surface, the restitution pass leaves at r u0: e = r at every
 * phase, speed and step, for a plane and two spheres; soft rows in penetration (a small prediction distance) too */
static void rapier(void) {
  static const double rs[4] = {0.1, 0.3, 0.7, 1.0};
  for (int k = 0; k < 4; k++)
    for (int fixed = 0; fixed < 2; fixed++) {
      impactfit_stepper st;
      impactfit__rapier_stepper(&st, fixed ? M : 0.5 * M, 1.0 / 60.0, fixed, rs[k]);
      for (int i = 1; i <= 5; i++)
        CLOSE(e_at(&st, 1.0, 0.2 * i - 0.05), rs[k], 1e-12, "rapier: e = r");
      CLOSE(mean_of(&st, 1.0), rs[k], 1e-12, "rapier: mean e = r");
      st.p[IMPACTFIT__RAPIER_PREDICTION] = 0.002; /* penetrating first contact steps */
      CLOSE(e_at(&st, 0.5, 0.7), rs[k], 1e-12, "rapier: e = r from a penetrating point");
    }
  /* restitution 0: the speculative row stops the body dead */
  impactfit_stepper st;
  impactfit__rapier_stepper(&st, M, 1.0 / 60.0, 1, 0.0);
  CLOSE(e_at(&st, 1.0, 0.5), 0.0, 1e-12, "rapier: restitution 0");
}

/* PhysX: above the threshold the bounce gives r u at the step whose start gap closes within it; below it the
 * speculative bias closes 0.8 of the gap per step: e = 0; a step starting inside the contact distance with
 * u h < gap < 1.25 u h slows the body to 0.8 gap/h, which bounces next: e = r 0.8 gap/(h v) */
static void physx(void) {
  impactfit_stepper st;
  impactfit__physx_stepper(&st, M, 1.0 / 60.0, 1, 0.6);
  for (int i = 1; i <= 5; i++) {
    CLOSE(e_at(&st, 3.0, 0.2 * i - 0.05), 0.6, 1e-12, "physx: e = r above the threshold");
    CLOSE(e_at(&st, 1.0, 0.2 * i - 0.05), 0.0, 1e-12, "physx: e = 0 below the threshold");
  }
  /* the slowed branch: v = 2.25, h = 2^-10 (v h = 2.197e-3); a step start gap g = (J - k - phi) v h in
   * [v h, 1.25 v h) exists for phi in (0.75, 1) (g = (1 + 1 - phi)... the step two before touching) */
  impactfit__physx_stepper(&st, M, 0x1p-10, 1, 0.5);
  double v = 2.25, h = 0x1p-10;
  for (int i = 0; i < 3; i++) {
    double phi = 0.8 + 0.05 * i, g = (2.0 - phi) * v * h, slowed = 0.8 * g / h;
    /* the slowed speed bounces when it exceeds 2 m/s */
    double want = slowed > 2.0 ? 0.5 * slowed / v : 0.0;
    CLOSE(e_at(&st, v, phi), want, 1e-12, "physx: the slowed branch");
  }
  /* the threshold moves with PxTolerancesScale.speed: 0.2 speed */
  impactfit__physx_stepper(&st, M, 1.0 / 60.0, 0, 0.5);
  st.p[IMPACTFIT__PHYSX_THRESHOLD] = 0.2;
  CLOSE(e_at(&st, 1.0, 0.5), 0.5, 1e-12, "physx: speed 1 lowers the threshold to 0.2 m/s");
}

/* Havok (measured): q(r) and e = q(r) (t(v) - g dt)/v, nothing below 0.1 m/s */
static void havok(void) {
  CLOSE(impactfit__havok_quantize(0.9), 231.0 / 256.0, 0.0, "havok: q(0.9)");
  CLOSE(impactfit__havok_quantize(0.7), 179.0 / 256.0, 0.0, "havok: q(0.7)");
  CLOSE(impactfit__havok_quantize(0.3), 154.0 / 512.0, 0.0, "havok: q(0.3)");
  CLOSE(impactfit__havok_quantize(0.2), 205.0 / 1024.0, 0.0, "havok: q(0.2)");
  CLOSE(impactfit__havok_quantize(1.0), 1.0, 0.0, "havok: q(1)");
  impactfit_stepper st;
  impactfit__havok_stepper(&st, M, 1.0 / 60.0, 0.9);
  for (int i = 1; i <= 5; i++) {
    CLOSE(e_at(&st, 1.0, 0.2 * i - 0.05), (231.0 / 256.0) * (1.0 - 9.81 / 60.0), 1e-12, "havok: the law at 1 m/s");
    CLOSE(e_at(&st, 1.1, 0.2 * i - 0.05), (231.0 / 256.0) * (1.09375 - 9.81 / 60.0) / 1.1, 1e-12,
          "havok: the approach speed with 7 bits");
  }
  impactfit__havok_stepper(&st, M, 1.0 / 60.0, 0.1); /* rebound 0.1 (1 - 0.1635) = 0.084 m/s: none */
  CLOSE(e_at(&st, 1.0, 0.5), 0.0, 1e-12, "havok: no rebound below 0.1 m/s");
  double law = NAN, r = impactfit__havok_corrected(0.5, 1.0, 1.0 / 60.0, 9.81, &law);
  impactfit__havok_stepper(&st, M, 1.0 / 60.0, r);
  CLOSE(e_at(&st, 1.0, 0.5), law, 1e-12, "havok: the corrected restitution gives the law's nearest e");
  check(fabs(law - 0.5) <= 0.5 / 256.0, "havok: the nearest e within half a rounding step", law, 0.5);
}

int main(void) {
  cannon();
  rapier();
  physx();
  havok();
  if (fails) {
    fprintf(stderr, "test_npm_engines: %d of %d checks failed\n", fails, checks);
    return 1;
  }
  printf("test_npm_engines: all %d checks passed\n", checks);
  return 0;
}
