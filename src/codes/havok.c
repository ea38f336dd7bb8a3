/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Havok (npm @babylonjs/havok 1.3.14, a closed WebAssembly binary; float32): MEASURED ONLY. No source is
 * read: the step map below is a law fitted to the engine's own impacts, run here by
 * tests/engines/js/havok_impact.mjs and checked phase by phase by tests/engines/havok_impacts.c. The
 * registry entry says so in every text (docs/engines/HAVOK.md).
 *
 * What was measured (a sphere on a static box or on a second sphere, no friction, HP_World_Step(dt), the
 * bodies' masses set with HP_Body_SetMassProperties; radius 2 mm – 0.5 m, density 100 – 10000 kg/m³, two equal
 * and two unequal spheres, v 0.2 – 8 m/s, dt 1/30 – 2e-3 s, restitution 0.05 – 1, every phase):
 *   - the step whose start gap the approach would close within the step stops the bodies at the surface
 *     (the relative velocity reads 0 after it); the next step leaves with the separation speed
 *       w = q(r) (t(u) − g dt),
 *     u the approach speed before the stop, t(u) that speed with 7 mantissa bits, truncated (1.1 m/s acts as
 *     1.09375, 0.7 as 0.69921875), g the world's gravity magnitude — 9.81 m/s² when the gravity is set
 *     to (0, 0, 0) (any non-zero gravity, 1e-9 m/s² included, uses its own magnitude), whatever the bodies'
 *     gravity factors; e = w/u does not depend on the phase (but see the band below), the masses or the radii;
 *   - an impact that falls within the last 0.4 ms of a step (the phase φ of the first contact step below
 *     0.4 ms/dt) rebounds up to 12 % slower (measured 0.39 – 0.41 ms at 1/60, 1/120 and 1/240 s): not modelled; the
 *     phase mean lies below the law by that band's share (at 1/60 s, 2.4 % of the phases);
 *   - q(r) is the pair's restitution stored with 7 mantissa bits: q(r) = the largest float with 7 mantissa bits
 *     not above r (1 + 2⁻⁸) (for r in [0.5, 1): floor(257 r)/256), and q(1) = 1: a typed 0.9 acts as 231/256 =
 *     0.90234; the pair's r is the two materials' restitutions combined by the larger of their combine modes
 *     (GEOMETRIC_MEAN 0 < MINIMUM 1 < MAXIMUM 2 < ARITHMETIC_MEAN 3 < MULTIPLY 4), and a new shape's material is
 *     (friction 0.5, 0.5, restitution 0, GEOMETRIC_MEAN, GEOMETRIC_MEAN): a ground left at its default makes
 *     sqrt(r · 0) = 0;
 *   - when w is below 0.1 m/s the bodies stay at the surface (e = 0; measured at dt >= 2e-3 s; at smaller
 *     steps the contact pulls a slow rebound back over many steps and e lies between 0 and w/u: not modelled).
 * The model: free flight x ← x + dt u; the stop and the rebound as above; mem[0] holds u, mem[1] the stop. */
#include <math.h>
#include <string.h>

#include "../common/common_impl.h"
#include "../law/stepper_impl.h"
#include "npm_engines_impl.h"

static const char *const havok_names[IMPACTFIT__HAVOK_NPARAMS] = {"restitution", "gravity", "rebound_threshold",
                                                                  "quantize"};
static const char *const havok_units[IMPACTFIT__HAVOK_NPARAMS] = {"-", "m/s^2", "m/s", "0/1"};

/* branch bits: the stop at the surface, the rebound, the rebound below the threshold */
enum { B_STOP = 1, B_REBOUND = 2, B_BELOW = 4 };

/* u with 7 mantissa bits, truncated (the approach speed as Havok's restitution uses it: measured) */
static double havok_trunc7(double u) {
  if (!(u > 0.0) || !isfinite(u))
    return u;
  int k;
  frexp(u, &k);
  double step = ldexp(1.0, k - 8);
  return floor(u / step) * step;
}

double impactfit__havok_quantize(double r) {
  if (!(r > 0.0))
    return 0.0;
  if (r >= 1.0)
    return 1.0;
  /* 7 mantissa bits: r in [2^k, 2^(k+1)) on the grid 2^(k-7) */
  int k;
  frexp(r, &k); /* r = f 2^k, f in [0.5, 1): the binade [2^(k-1), 2^k), grid 2^(k-8) */
  double step = ldexp(1.0, k - 8);
  return floor(r * (1.0 + 1.0 / 256.0) / step) * step;
}

static int havok_check(const impactfit_stepper *st, impactfit_error *err) {
  const double *p = st->p;
  if (!(p[IMPACTFIT__HAVOK_RESTITUTION] >= 0.0 && p[IMPACTFIT__HAVOK_RESTITUTION] <= 1.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "stepper havok-measured: the restitution must lie in [0, 1] (got %.17g)",
                           p[IMPACTFIT__HAVOK_RESTITUTION]);
  if (!(p[IMPACTFIT__HAVOK_GRAVITY] >= 0.0 && isfinite(p[IMPACTFIT__HAVOK_GRAVITY])))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "stepper havok-measured: the gravity magnitude must be >= 0 (m/s^2) (got %.17g)",
                           p[IMPACTFIT__HAVOK_GRAVITY]);
  if (!(p[IMPACTFIT__HAVOK_THRESHOLD] >= 0.0 && isfinite(p[IMPACTFIT__HAVOK_THRESHOLD])))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "stepper havok-measured: the rebound threshold must be >= 0 (m/s) (got %.17g)",
                           p[IMPACTFIT__HAVOK_THRESHOLD]);
  return 0;
}

static int havok_step(const impactfit_stepper *st, impactfit_step_state *s) {
  const double *p = st->p;
  double dt = st->dt, x = s->x, u = s->u;
  s->branch = 0;
  s->contact = 0;
  s->f = 0.0;
  if (s->mem[1] != 0.0) { /* the step after the stop: the rebound */
    double r = p[IMPACTFIT__HAVOK_QUANTIZE] != 0.0 ? impactfit__havok_quantize(p[IMPACTFIT__HAVOK_RESTITUTION])
                                                   : p[IMPACTFIT__HAVOK_RESTITUTION];
    double w = r * (havok_trunc7(s->mem[0]) - p[IMPACTFIT__HAVOK_GRAVITY] * dt);
    s->contact = 1;
    s->branch |= B_REBOUND;
    if (!(w >= p[IMPACTFIT__HAVOK_THRESHOLD])) {
      w = 0.0;
      s->branch |= B_BELOW;
    }
    s->f = st->mass * (w + u) / dt;
    s->u = -w;
    s->x = x - dt * w;
    s->mem[0] = s->mem[1] = 0.0;
    return 0;
  }
  if (u > 0.0 && x + dt * u > 0.0) { /* the gap closes within this step: stopped at the surface */
    s->mem[0] = u;
    s->mem[1] = 1.0;
    s->contact = 1;
    s->branch |= B_STOP;
    s->f = st->mass * u / dt;
    s->u = 0.0;
    s->x = 0.0;
    return 0;
  }
  s->x = x + dt * u;
  return 0;
}

/* the contact acts in the step that would close the gap: one step ahead */
static double havok_reach(const impactfit_stepper *st, double v) { return v * st->dt; }

const impactfit_stepper_type impactfit__stepper_havok = {
    .name = "havok-measured",
    .summary = "Havok 1.3.14 (closed binary), MEASURED ONLY: the step that would close the gap stops the bodies at "
               "the surface, the next leaves at q(r)(t(u) - g dt) (q, t: restitution and speed with 7 mantissa bits, g "
               "9.81 "
               "m/s^2 with zero gravity), or stays when that is below 0.1 m/s",
    .n_params = IMPACTFIT__HAVOK_NPARAMS,
    .param_names = havok_names,
    .param_units = havok_units,
    .needs_law = 0,
    .check = havok_check,
    .step = havok_step,
    .reach = havok_reach,
    .amplification = NULL,
    .continuous = NULL,
};

void impactfit__havok_stepper(impactfit_stepper *st, double M, double dt, double restitution) {
  memset(st, 0, sizeof *st);
  st->type = &impactfit__stepper_havok;
  st->end = impactfit_transition_C;
  st->mass = M;
  st->dt = dt;
  st->p[IMPACTFIT__HAVOK_RESTITUTION] = restitution;
  st->p[IMPACTFIT__HAVOK_GRAVITY] = 9.81;
  st->p[IMPACTFIT__HAVOK_THRESHOLD] = 0.1;
  st->p[IMPACTFIT__HAVOK_QUANTIZE] = 1.0;
}
