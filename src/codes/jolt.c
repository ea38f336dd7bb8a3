/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Jolt Physics in the registry (docs/engines/JOLT.md): its time step as a stepper type, the operations of
 * its registry entry, and the entry itself (codes.h, issue 32).
 *
 * The version run here: npm jolt-physics 1.1.0, JoltPhysics.js built on JoltPhysics v5.6.0 (JoltPhysics.js
 * CMakeLists.txt:109 at tag 1.1.0, GIT_TAG "v5.6.0"; DOUBLE_PRECISION OFF, :18; ENABLE_SIMD OFF, :22:
 * single precision, the scalar code path). v5.6.0's tag was not available to read here: the source was read
 * at JoltPhysics master 3b47ec39 (2026-06-30, after v5.5.0, before the v5.6.0 release of 2026-07); the
 * engine itself is the check (tests/engines/jolt_impacts.c: per phase within 1e-6). Line numbers below are
 * that commit's. For one frictionless contact of a dynamic sphere with a static plane (or a second dynamic
 * sphere) through their centres, no gravity, one collision step per update:
 *
 *  - the step (Jolt/Physics/PhysicsSystem.cpp:352 ApplyGravity, :319 FindCollisions, :494 SolveVelocity,
 *    :523 IntegrateVelocity, :558 SolvePosition, in that order): every body's velocity is damped,
 *    v *= max(0, 1 − c h) with its mLinearDamping c (Body/MotionProperties.inl:143); the contacts are found
 *    from the positions at the step's start; the velocity constraints are warm-started and iterated; the
 *    positions move with the new velocity (x += h v, symplectic Euler, PhysicsSystem.cpp:1644, :1682); the
 *    position constraints run last;
 *  - a contact exists while the surfaces are closer than mSpeculativeContactDistance (0.02 m,
 *    PhysicsSettings.h:50): penetration > −0.02 (Collision/Shape/PlaneShape.cpp:457);
 *  - its row (Constraints/ContactConstraintManager.cpp:40-134): normal velocity vn = (v2 − v1)·n (< 0
 *    approaching), speculative bias b_s = max(0, gap/h) (:75); with restitution r > 0 and vn <
 *    −mMinVelocityForRestitution (1 m/s, PhysicsSettings.h:92; strict) and vn < −b_s (the bodies would
 *    meet within this step) the bias is r vn (:79-118; the gravity and force term is 0 here), else b_s;
 *  - the solve (ConstraintPart/ContactConstraintPart.h:112-215; ContactConstraintManager.cpp:1684-1761):
 *    K = 1/(1/m1 + 1/m2) (the angular terms vanish through the centres), the accumulated impulse λ is
 *    warm-started with the last step's when the contact point persisted (:1237-1250, within 1 cm), then
 *    mNumVelocitySteps (10) sweeps λ ← max(0, λ + K (n·(v1 − v2) − bias)), stopping when a sweep applies no
 *    impulse (PhysicsSystem.cpp:1530-1536);
 *  - the position constraint (ContactConstraintManager.cpp:1883-1935, ContactConstraintPart.h:218-237): when
 *    the penetration exceeds mPenetrationSlop (0.02 m) the bodies are moved apart by mBaumgarte (0.2) of the
 *    excess (at most mMaxPenetrationDistance 0.2 m of it), mNumPositionSteps (2) times; the velocities stay;
 *  - two bodies' restitutions combine to the larger (ContactConstraintManager.h:555); BodyCreationSettings
 *    (Body/BodyCreationSettings.h:107-110): mFriction 0.2, mRestitution 0, mLinearDamping 0.05.
 * So above 1 m/s one step turns the approach speed into r times it (bounced from wherever the step starts,
 * up to v h before touching), and below 1 m/s the speculative row stops the bodies at the surface: e = 0.
 * Everything is float32 (positions, velocities, masses, r); the step below does its arithmetic in float in
 * the source's order (bit for bit for a sphere on a plane; two spheres' velocities and positions are kept as
 * relative ones, to about 1e-7 in e), and the same map in double for the inverse (but for the damped approach
 * velocity, which it rounds to float as the engine stores it: Jolt's velocities are float in every build). Bodies that stop against
 * each other (below 1 m/s) end at rest once a step without an impulse leaves them within 1e-6 of the approach
 * speed (the engine's float32 residue then decays by the damping, or the bodies sleep: e = 0 either way).
 *
 * The damping: Jolt damps every body in every step, in flight too. The e of a contact is taken over the steps
 * with a contact row (the free flight's loss, c h per step, is the flight's: it is not the contact's), so the
 * step map damps only the steps with a row; tests/engines/jolt_impacts.c runs the engine so (the damping set
 * on the body only in those steps). */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../common/common_impl.h"
#include "codes_impl.h"
#include "jolt_impl.h"
#include "friction_impl.h"

/* ---------------------------------------------------------------- the step map */

static const char *const jolt_names[IMPACTFIT__JOLT_NPARAMS] = {"restitution",
                                                                "min_velocity_for_restitution",
                                                                "speculative_distance",
                                                                "penetration_slop",
                                                                "baumgarte",
                                                                "velocity_steps",
                                                                "position_steps",
                                                                "linear_damping",
                                                                "warm_start",
                                                                "m1",
                                                                "m2",
                                                                "coordinate"};
static const char *const jolt_units[IMPACTFIT__JOLT_NPARAMS] = {"-", "m/s", "m",   "m",  "-",  "-",
                                                                "-", "1/s", "0/1", "kg", "kg", "m"};

/* branch bits */
enum { B_REST = 1, B_SPEC = 2, B_POS = 4, B_WARM = 8 };

static int jolt_check(const impactfit_stepper *st, impactfit_error *err) {
  const double *p = st->p;
  const char *n = st->type->name;
  for (int i = 0; i < IMPACTFIT__JOLT_NPARAMS; i++)
    if (!isfinite(p[i]))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper %s: %s must be finite (got %.17g)", n, jolt_names[i],
                             p[i]);
  if (!(p[IMPACTFIT__JOLT_REST] >= 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper %s: the restitution must be >= 0 (got %.17g)", n,
                           p[IMPACTFIT__JOLT_REST]);
  if (!(p[IMPACTFIT__JOLT_VMIN] > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "stepper %s: mMinVelocityForRestitution must be > 0 (m/s; Jolt: a positive number) (got "
                           "%.17g)",
                           n, p[IMPACTFIT__JOLT_VMIN]);
  if (!(p[IMPACTFIT__JOLT_SPEC] >= 0.0 && p[IMPACTFIT__JOLT_SLOP] >= 0.0 && p[IMPACTFIT__JOLT_BAUM] >= 0.0 &&
        p[IMPACTFIT__JOLT_DAMP] >= 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "stepper %s: the speculative distance, slop, Baumgarte factor and damping must be >= 0", n);
  for (int i = IMPACTFIT__JOLT_VSTEPS; i <= IMPACTFIT__JOLT_PSTEPS; i++)
    if (!(p[i] >= 0.0 && p[i] <= 255.0 && p[i] == floor(p[i])))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper %s: %s must be a whole number in 0..255 (got %.17g)", n,
                             jolt_names[i], p[i]);
  if (!(p[IMPACTFIT__JOLT_M1] > 0.0 && p[IMPACTFIT__JOLT_M2] >= 0.0 && p[IMPACTFIT__JOLT_COORD] > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "stepper %s: the masses must be > 0 (m2 = 0: a static body) and the coordinate > 0", n);
  return 0;
}

/* Every operation the engine does in float32 is rounded to float when the stepper models float32 (a double
 * operation rounded to float is the float operation: 53 >= 2 x 24 + 2 bits), and kept when it models the same
 * map in double (impactfit__stepper_jolt64: e continuous in the restitution, for the inverse) */
typedef struct {
  int f32;
} jolt_fp;

static double rnd(jolt_fp fp, double x) { return fp.f32 ? (double)(float)x : x; }
static double f32(double x) { return (double)(float)x; }

/* ContactConstraintPart::SolveVelocityConstraint for the normal row with lower limit 0: the accumulated impulse
 * *lam, the approach speed *jv = n·(v1 − v2) (v1 −= (δ invm1) n, v2 += (δ invm2) n take δ invm1 and δ invm2 off
 * it). Returns 1 when it applied an impulse. */
static int jolt_sweep(jolt_fp fp, double K, double bias, double *lam, double *jv, double invm1, double invm2) {
  double lambda = rnd(fp, K * rnd(fp, *jv - bias));
  double total = rnd(fp, *lam + lambda);
  total = total > 0.0 ? total : 0.0; /* max(total_lambda, 0.0f) */
  double delta = rnd(fp, total - *lam);
  *lam = total;
  if (delta == 0.0)
    return 0;
  *jv = rnd(fp, *jv - rnd(fp, delta * invm1));
  if (invm2 != 0.0)
    *jv = rnd(fp, *jv - rnd(fp, delta * invm2));
  return 1;
}

/* The state in relative form: mem[0] the accumulated impulse of last step's contact point (0 when there was
 * none: a new point starts at 0); mem[2] the separation coordinate y1 − y2 (body 1 above body 2 or the plane
 * y = 0), in the engine's precision; u = −(v1 − v2) exactly. For a sphere on a plane (v2 = 0, y2 = 0) this is
 * the engine's arithmetic; for two spheres the bodies' velocities and positions are rounded separately in the
 * engine, here together (to about 1e-7 in e). */
static int jolt_step_fp(const impactfit_stepper *st, impactfit_step_state *s, jolt_fp fp) {
  const double *p = st->p;
  double h = rnd(fp, st->dt), coord = rnd(fp, p[IMPACTFIT__JOLT_COORD]);
  int pair = p[IMPACTFIT__JOLT_M2] > 0.0;
  double invm1 = rnd(fp, 1.0 / rnd(fp, p[IMPACTFIT__JOLT_M1]));
  double invm2 = pair ? rnd(fp, 1.0 / rnd(fp, p[IMPACTFIT__JOLT_M2])) : 0.0;
  if (s->mem[1] == 0.0) { /* the first step: the bodies where the state puts them; mem[1] keeps the approach speed */
    s->mem[2] = rnd(fp, p[IMPACTFIT__JOLT_COORD] - s->x);
    s->mem[1] = fabs(s->u) > 0.0 ? fabs(s->u) : 1.0;
  } else if (!fp.f32 && s->x != s->mem[3]) {
    /* a run of steps taken at once (jolt_affine, double only) moved x past the coordinate kept in mem[2] */
    s->mem[2] = p[IMPACTFIT__JOLT_COORD] - s->x;
  }
  double y = s->mem[2], w = rnd(fp, -s->u); /* y1 − y2, v1 − v2 */
  double pen = rnd(fp, coord - y);
  int row = pen > -rnd(fp, p[IMPACTFIT__JOLT_SPEC]);
  double lam = 0.0, lam_prev = s->mem[0];
  s->branch = 0;
  s->contact = row;
  if (row) {
    /* ApplyForceTorqueAndDragInternal: v *= max(0, 1 − c h) on every dynamic body, in float in both maps: the
     * engine's velocities are float even in its double-precision build (Vec3 mLinearVelocity, float
     * mLinearDamping: MotionProperties.h:291, :301, MotionProperties.inl:143 at 3b47ec39; :263, :273, :146 at
     * v5.5.0), so the damped velocity is stored as float each step (the exact 1 − c h misses the engine's
     * rounded product by 2e-4 in e at 1e-6 s; at 1e-7 s the float factor is 1); the double map rounds it only
     * while the bodies approach (the rebound's rounding, half a float ulp of e, would make e a staircase in r) */
    double damp = f32(1.0 - f32(f32(p[IMPACTFIT__JOLT_DAMP]) * f32(st->dt)));
    damp = damp > 0.0 ? damp : 0.0;
    w = fp.f32 || w < 0.0 ? f32(w * damp) : w * damp;
    /* CalculateNonPenetrationConstraintProperties: vn = (v2 − v1)·n with n = −y */
    double nv = w;
    double spec_bias = rnd(fp, -pen / h);
    spec_bias = spec_bias > 0.0 ? spec_bias : 0.0;
    double r = rnd(fp, p[IMPACTFIT__JOLT_REST]), bias = spec_bias;
    if (r > 0.0 && nv < -rnd(fp, p[IMPACTFIT__JOLT_VMIN]) && nv < -spec_bias) {
      bias = rnd(fp, r * nv);
      s->branch |= B_REST;
    } else if (spec_bias > 0.0)
      s->branch |= B_SPEC;
    double inv_k = pair ? rnd(fp, invm1 + invm2) : invm1;
    double K = rnd(fp, 1.0 / inv_k);
    double jv = -nv; /* n·(v1 − v2) */
    /* warm start (ratio 1 at a constant step) */
    if (p[IMPACTFIT__JOLT_WARM] != 0.0 && lam_prev != 0.0) {
      lam = lam_prev;
      jv = rnd(fp, jv - rnd(fp, lam * invm1));
      if (pair)
        jv = rnd(fp, jv - rnd(fp, lam * invm2));
      s->branch |= B_WARM;
    }
    for (int k = 0; k < (int)p[IMPACTFIT__JOLT_VSTEPS]; k++)
      if (!jolt_sweep(fp, K, bias, &lam, &jv, invm1, invm2))
        break;
    w = -jv;
  }
  /* IntegrateVelocity: x += h v */
  y = rnd(fp, y + rnd(fp, w * h));
  /* SolvePositionConstraints: the separation with the slop, at most mMaxPenetrationDistance */
  if (row) {
    for (int k = 0; k < (int)p[IMPACTFIT__JOLT_PSTEPS]; k++) {
      double sep = rnd(fp, -rnd(fp, coord - y) + rnd(fp, p[IMPACTFIT__JOLT_SLOP]));
      sep = sep > -0.2 ? sep : rnd(fp, -0.2);
      if (!(sep < 0.0))
        break;
      double inv_k = pair ? rnd(fp, invm1 + invm2) : invm1;
      double lambda = rnd(fp, rnd(fp, -rnd(fp, 1.0 / inv_k) * rnd(fp, p[IMPACTFIT__JOLT_BAUM])) * sep);
      y = rnd(fp, y + rnd(fp, lambda * invm1));
      if (pair)
        y = rnd(fp, y + rnd(fp, lambda * invm2));
      s->branch |= B_POS;
    }
  }
  /* at rest: a step without an impulse that leaves the bodies closing or parting at under 1e-6 of the approach
   * speed (the float32 residue of a stop) ends at rest (the engine lets that residue decay by the damping, or
   * puts the bodies to sleep after mTimeBeforeSleep): e = 0 */
  if (row && lam == 0.0 && fabs(w) <= 1e-6 * s->mem[1])
    w = 0.0;
  s->mem[0] = row ? lam : 0.0;
  s->mem[2] = y;
  s->u = -w;
  s->x = p[IMPACTFIT__JOLT_COORD] - y;
  s->mem[3] = s->x; /* the x this step left (a later step tells a run taken at once by it) */
  s->f = row ? lam / st->dt : 0.0;
  return 0;
}

/* The double step's affine map (stepper.h: impactfit_step_affine) on the approach through the speculative
 * distance where the float damping factor d = fl(1 − c h) is 1 (c h below 2^-25: the default damping below
 * 6e-7 s) and u is a float (stored so by the last step): the row exists (x > −spec), no warm-start impulse is
 * left, and the speculative bias −x/h exceeds the approach speed u: no restitution branch (it needs u > −x/h), no
 * impulse, no position step (x < 0), not the at-rest residue (u above 1e-6 of the approach speed). Then u' = u and
 * x' = x + h u with no force; the coordinate y = coord − x the step keeps in mem[2] is recomputed from x by the
 * next step (mem[3]). Where d < 1 the float product rounds every step (not affine): stepped. The float32 step has
 * none: its roundings are the engine's. */
static int jolt_affine(const impactfit_stepper *st, const impactfit_step_state *s, impactfit_step_affine *a) {
  const double *p = st->p;
  double h = st->dt, x = s->x, u = s->u;
  double d = f32(1.0 - f32(f32(p[IMPACTFIT__JOLT_DAMP]) * f32(h)));
  if (st->gravity != 0.0 || s->mem[0] != 0.0 || s->mem[1] == 0.0 || !(u > 0.0) || d != 1.0 || u != f32(u) ||
      !(x < 0.0) || s->x != s->mem[3])
    return 0;
  memset(a, 0, sizeof *a);
  a->G[0][0] = 1.0, a->G[0][2] = p[IMPACTFIT__JOLT_SPEC] * (1.0 - 1e-9); /* the row exists */
  a->G[1][0] = -1.0, a->G[1][1] = -h * d * (1.0 + 1e-9);                 /* the bias exceeds d u */
  a->G[2][1] = 1.0, a->G[2][2] = -2e-6 * s->mem[1] / d;                  /* beyond the at-rest residue */
  a->n_forms = 3;
  for (int i = 0; i < 3; i++)
    if (!(a->G[i][0] * x + a->G[i][1] * u + a->G[i][2] > 0.0))
      return 0;
  a->B[0][1] = h; /* d = 1: u' = u */
  return 1;
}

/* The approach through the speculative distance where the damping rounds every step (jolt_affine refuses it):
 * the steps of jolt_step_fp's branch with a row, no warm-start impulse, the speculative bias (B_SPEC) at least the
 * approach speed (no impulse, no restitution), no position step and above the at-rest residue. Its constants in
 * the map's precision: */
typedef struct jolt_approach {
  jolt_fp fp;
  double h, coord, spec, damp, r, vmin, rest, slop;
  int psteps;
} jolt_approach;

/* One step of the approach from (*w, *y) (w = v1 − v2 < 0, y = y1 − y2), in jolt_step_fp's arithmetic: 1 with
 * (*w, *y) advanced and *bias the step's speculative bias, 0 (nothing changed) where the step leaves the approach
 * (no row, no speculative bias, the restitution branch, an impulse, the at-rest residue, a position step, or a
 * step that changes nothing: the caller's at-rest end). */
static int approach_step(const jolt_approach *a, double *w, double *y, double *bias_out) {
  jolt_fp fp = a->fp;
  double pen = rnd(fp, a->coord - *y);
  if (!(pen > -a->spec) || !(*w < 0.0)) /* the row; approaching (the damping rounds only then in the double map) */
    return 0;
  double wd = f32(*w * a->damp), bias = rnd(fp, -pen / a->h);
  if (!(bias > 0.0) || (a->r > 0.0 && wd < -a->vmin && wd < -bias) || rnd(fp, -wd - bias) > 0.0 || fabs(wd) <= a->rest)
    return 0;
  double yn = rnd(fp, *y + rnd(fp, wd * a->h));
  if ((!(rnd(fp, -rnd(fp, a->coord - yn) + a->slop) >= 0.0) && a->psteps) || (yn == *y && wd == *w))
    return 0;
  *w = wd;
  *y = yn;
  *bias_out = bias;
  return 1;
}

/* Runs of the approach taken at once, exactly (approach_jump). Every quantity of a step is on a fixed grid while
 * it stays in its binade: the speed |w| = M 2^E (M an integer of 24 bits), h = H 2^Eh, the step's travel
 * |fl(w h)| = A 2^(s+E+Eh) and y = Y 2^Ey (integers of p bits, p = 24 in float32, 53 in double), the damping
 * factor d = 1 − J 2^-F. While M stays in its binade and the rounding of M d is not a tie, fl(M d) = M − R with
 * R = round(M J 2^-F) constant over a range of M: M_k = M_0 − k R. Then the travel's exact product P_k = M_k H is
 * an arithmetic progression; rounded to p bits (s = bits(P) − p, one binade of P) and added to y (t = Ey − s − E −
 * Eh bits below y's grid), y's step is Y_k = Y_(k−1) − D_k with D_k = floor((P_k + 2^(s−1) + 2^(s+t−1)) / 2^(s+t))
 * (the two roundings to nearest of the same progression nest into one floor), as long as neither rounding is a
 * tie (a tie of P rounds to even by P itself, a tie of the sum by Y's parity: the run stops before either) and Y
 * stays in its binade; for t ≤ 0 the sum is exact, D_k = 2^−t floor((P_k + 2^(s−1)) / 2^s). The sum of such
 * floors over n steps is a floor sum (floor_sum: Euclid's algorithm, O(log) operations), the first tie the first
 * term of the progression modulo 2^(s+t) in an interval (first_hit). Without damping (d = 1: R = 0) the travel
 * is one constant and so is D_k, but at a tie of the sum, which rounds to even: once Y is even it stays so, each
 * step taking D = q + (q mod 2) (q = the travel's whole units of y's grid). Every condition of approach_step is
 * monotone along the run (y falls, pen and the bias fall, |w| falls) but the one against an impulse, |w_k| ≤
 * bias_k, where both fall: the run keeps the bias of its last step at least |w_1|, the largest |w| of the run. The
 * run's first and last steps are taken again by approach_step from the computed states (they must agree to the
 * bit: a run that does not is refused). */
typedef unsigned __int128 jolt_u128;
#define JOLT_ONE ((jolt_u128)1)

/* sum_{i < n} floor((a i + b) / m), m > 0 (a n + b and the sum below 2^127) */
static jolt_u128 floor_sum(jolt_u128 n, jolt_u128 m, jolt_u128 a, jolt_u128 b) {
  jolt_u128 sum = 0;
  for (;;) {
    if (a >= m) {
      sum += (n * (n - 1) / 2) * (a / m);
      a %= m;
    }
    if (b >= m) {
      sum += n * (b / m);
      b %= m;
    }
    jolt_u128 top = a * n + b;
    if (top < m)
      return sum;
    n = top / m;
    b = top % m;
    jolt_u128 t = m;
    m = a;
    a = t;
  }
}

/* The least x >= 0 with l <= (a x) mod m <= r (0 <= l <= r < m <= 2^62), JOLT_NONE when none. Where x = ceil(l/a)
 * misses, x belongs to the least y = floor(a x / m) whose [m y + l, m y + r] holds a multiple of a, which is the same
 * problem for (m mod a, a) (Euclid's steps). */
#define JOLT_NONE UINT64_MAX
static uint64_t first_hit(uint64_t a, uint64_t m, uint64_t l, uint64_t r) {
  if (l == 0)
    return 0;
  a %= m;
  if (a == 0)
    return JOLT_NONE;
  uint64_t x = l / a + (l % a != 0);
  if (a * x <= r) /* a x < l + a < 2^63 */
    return x;
  uint64_t y = first_hit(m % a, a, a - r % a, a - l % a);
  return y == JOLT_NONE ? JOLT_NONE : (uint64_t)(((jolt_u128)m * y + l + a - 1) / a);
}

/* The first k in [1, n] with (X0 − k B) mod m in [L, L + w − 1] (1 <= w, L + w <= m <= 2^62, X0 >= n B), n + 1
 * when none */
static jolt_u128 first_in(jolt_u128 X0, jolt_u128 B, uint64_t m, uint64_t L, uint64_t w, jolt_u128 n) {
  uint64_t a = (uint64_t)((m - B % m) % m), c1 = (uint64_t)((X0 - B) % m); /* the step modulo m, X_1 mod m */
  uint64_t lo = (L + m - c1) % m, hi = lo + (w - 1), x = hi < m ? first_hit(a, m, lo, hi) : 0; /* wrapped: holds 0 */
  return x == JOLT_NONE || x >= n ? n + 1 : (jolt_u128)x + 1;
}

/* 2^e (|e| <= 1022): the runs' scalings by a power of two, exact where the product is a normal double */
static double p2(int e) {
  uint64_t bits = (uint64_t)(e + 1023) << 52;
  double x;
  memcpy(&x, &bits, sizeof x);
  return x;
}

static int bits128(jolt_u128 x) {
  uint64_t hi = (uint64_t)(x >> 64), lo = (uint64_t)x;
  return hi ? 128 - __builtin_clzll(hi) : lo ? 64 - __builtin_clzll(lo) : 0;
}

/* The travel's upper bound over the first j steps of a run, and the largest j in [0, hi] it keeps below a cap */
typedef struct {
  jolt_u128 X0, B;
  int shift, scale;
} jolt_sup;

/* an upper bound of the sum of D_k over k = 1..j: floor(sum X_k / m) 2^scale (D_k <= X_k / m 2^scale) */
static jolt_u128 sup_at(const jolt_sup *u, jolt_u128 j) {
  return ((j * u->X0 - u->B * (j * (j + 1) / 2)) >> u->shift) << u->scale;
}

static jolt_u128 sup_last(const jolt_sup *u, jolt_u128 hi, jolt_u128 cap) {
  if (sup_at(u, hi) <= cap)
    return hi;
  /* the root of the continuous bound (B j^2 / 2 − (X0 − B / 2) j + cap m = 0), then the integer's neighbours */
  double X = (double)u->X0, B = (double)u->B, C = (double)cap * p2(u->shift - u->scale), c = X - 0.5 * B;
  double disc = c * c - 2.0 * B * C, x = disc > 0.0 ? 2.0 * C / (c + sqrt(disc)) : (double)hi;
  jolt_u128 lo = 0, k = x >= (double)hi ? hi - 1 : x > 0.0 ? (jolt_u128)x : 0;
  if (sup_at(u, k) <= cap) {
    if (sup_at(u, k + 1) > cap)
      return k;
    lo = k + 1;
  } else
    hi = k - 1;     /* k > 0: sup_at(0) = 0 */
  while (lo < hi) { /* the estimate missed (never seen): bisection */
    jolt_u128 mid = lo + (hi - lo + 1) / 2;
    if (sup_at(u, mid) <= cap)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

/* the shortest run taken at once (a shorter one costs more than its steps one by one) */
#define JOLT_JUMP_MIN 32

/* What a run of the approach did (impactfit__jolt_run) */
static void work_add(impactfit__jolt_work *wk, long plain, long jumps, int tie, long refused) {
  if (wk) {
    wk->plain += plain;
    wk->jumps += jumps;
    wk->ties_travel += tie == 1;
    wk->ties_sum += tie == 2;
    wk->refused += refused;
  }
}

/* A run's grids (the header comment above): the speed M 2^E falling by R a step, h = H 2^Eh, y = Y0 2^Ey, the
 * travel's progression P0 − k B rounded s bits off and t bits below y's grid; the run's bound n_hi from M's and P's
 * binades and R's range, and Y's thresholds ymin (Y_n) and yend (Y_(n−1)); w1 = |w_1|. */
typedef struct jolt_grid {
  int p, E, Eh, Ey, s, t;
  uint64_t M, H, Y0, ymin, yend;
  jolt_u128 R, n_hi, P0, B;
  double w1;
} jolt_grid;

/* The damping's step of M (R, constant while M J stays within half of R 2^F) and M's bounds: 1 with g->R and
 * g->n_hi, 0 when no run; *next 1 where M d rounds by a tie */
static int grid_damping(double d, uint64_t mrest, jolt_grid *g, long *next) {
  uint64_t M = g->M;
  if (d == 1.0)
    return M >= mrest;
  int F = 23 - ilogb(d); /* d = D 2^-F, D of 24 bits */
  if (F > 60)
    return 0;
  jolt_u128 D = (jolt_u128)(d * p2(F)), J = (JOLT_ONE << F) - D, r0 = (jolt_u128)M * J, half = JOLT_ONE << (F - 1);
  if ((r0 & ((JOLT_ONE << F) - 1)) == half) { /* M d rounds by a tie: one by one */
    *next = 1;
    return 0;
  }
  jolt_u128 R = (r0 + half) >> F;
  if (R == 0 || R >= M)
    return 0;
  /* R stays while the step's M has M J > R 2^F − 2^(F−1); M_n in its binade (the exact M d above its foot), above
   * the at-rest residue */
  jolt_u128 mmin = ((R << F) - half) / J + 1, mlo = (UINT64_C(1) << 23) + 1;
  mlo = mrest > mlo ? mrest : mlo;
  if (mmin > M || mlo > M - R)
    return 0;
  jolt_u128 a1 = (M - mmin) / R + 1, a2 = (M - mlo) / R;
  g->R = R;
  g->n_hi = a1 < g->n_hi ? a1 : g->n_hi;
  g->n_hi = a2 < g->n_hi ? a2 : g->n_hi;
  return 1;
}

/* The grids of a run from (w, y) of up to n_max steps: 1 with *g, 0 when no run is taken from there (*next: the
 * steps to take one by one first) */
static int grid_of(const jolt_approach *ap, double w, double y, long n_max, jolt_grid *g, long *next) {
  const int p = ap->fp.f32 ? 24 : 53;
  double mw = -w, h = ap->h, d = ap->damp;
  *next = 16;
  if (f32(mw) != mw) { /* the speed not yet a float (the run's first step rounds it) */
    *next = 1;
    return 0;
  }
  if (!(mw >= 0x1p-100 && mw <= 0x1p100 && y >= 0x1p-900 && y <= 0x1p100 && h >= 0x1p-200 && h <= 0x1p20 &&
        ap->coord >= 0x1p-900 && ap->coord <= 0x1p100 && d > 0.0 && d <= 1.0 && n_max >= 2 && (double)n_max <= 0x1p40))
    return 0;
  *g = (jolt_grid){.p = p, .E = ilogb(mw) - 23, .Eh = ilogb(h) - (p - 1), .Ey = ilogb(y) - (p - 1)};
  g->M = (uint64_t)(mw * p2(-g->E));
  g->H = (uint64_t)(h * p2(-g->Eh));
  g->Y0 = (uint64_t)(y * p2(-g->Ey));
  g->ymin = (UINT64_C(1) << (p - 1)) + 1; /* Y stays in its binade (the exact sum above its foot) */
  g->n_hi = (jolt_u128)n_max;
  double rm = floor(ap->rest * p2(-g->E)) + 1.0; /* |w_n| above the at-rest residue: M_n >= rm */
  if (g->Y0 <= g->ymin || !grid_damping(d, rm > 0.0 ? (uint64_t)rm : 0, g, next))
    return 0;
  /* the travel: P_k = M_k H rounded to p bits (its binade that of P_1 through P_n) */
  g->P0 = (jolt_u128)g->M * g->H;
  g->B = g->R * g->H;
  int b = bits128(g->P0 - g->B);
  g->s = b - p;
  g->t = g->Ey - (g->s + g->E + g->Eh);
  if (g->s < 1 || g->t > 62 - g->s || g->t < -60)
    return 0;
  if (g->R > 0) {
    jolt_u128 mfoot = ((JOLT_ONE << (b - 1)) + g->H - 1) / g->H; /* M_n H >= 2^(b−1) */
    if (mfoot > g->M - g->R)
      return 0;
    jolt_u128 a3 = (g->M - mfoot) / g->R;
    g->n_hi = a3 < g->n_hi ? a3 : g->n_hi;
  }
  if (g->n_hi < JOLT_JUMP_MIN) { /* a short run (a large damping: R changes every few steps): one by one */
    *next = g->n_hi > 16 ? (long)g->n_hi : 16;
    return 0;
  }
  /* y_(n−1) >= coord + |w_1| h (1 + margin): the last step's bias at least |w_1| */
  g->w1 = (double)(g->M - (uint64_t)g->R) * p2(g->E);
  double yend = ap->coord + g->w1 * h * (ap->fp.f32 ? 1.0 + 1e-6 : 1.0 + 1e-12);
  yend += 4.0 * p2(ilogb(yend) - (p - 1));
  double ye = ceil(yend * p2(-g->Ey));
  if (!(ye < (double)g->Y0))
    return 0;
  g->yend = ye > (double)g->ymin ? (uint64_t)ye : g->ymin;
  return 1;
}

/* A run's end: its length n and Y after n − 1 and n steps, and after the first (tie: 1 where a tie of the travel
 * ended it, 2 one of the sum, or the sum's ties run through without damping) */
typedef struct jolt_end {
  jolt_u128 n, Yn, Yn1, Y1;
  int tie;
} jolt_end;

/* Without damping (R = 0): one travel every step (the machine's product), one decrement of Y. 1 with *e, 0 when
 * no run (*next). */
static int run_const(const jolt_approach *ap, const jolt_grid *g, double mw, jolt_end *e, long *next) {
  double a = rnd(ap->fp, mw * ap->h);
  jolt_u128 A = (jolt_u128)(a * p2(-(g->s + g->E + g->Eh))), Dc;
  int t = g->t;
  e->tie = 0;
  if (t <= 0)
    Dc = A << -t;
  else {
    jolt_u128 q = A >> t, rem = A & ((JOLT_ONE << t) - 1), half = JOLT_ONE << (t - 1);
    if (rem != half)
      Dc = rem > half ? q + 1 : q;
    else if (g->Y0 & 1) { /* a tie of the sum rounds to even: once Y is even it stays so */
      *next = 1;
      return 0;
    } else {
      Dc = q + (q & 1);
      e->tie = 2;
    }
  }
  if (Dc == 0 || g->Y0 - g->ymin < Dc)
    return 0;
  jolt_u128 c1 = (g->Y0 - g->ymin) / Dc, c2 = (g->Y0 - g->yend) / Dc + 1, n = c1 < c2 ? c1 : c2;
  e->n = n < g->n_hi ? n : g->n_hi;
  e->Yn = g->Y0 - e->n * Dc;
  e->Yn1 = e->Yn + Dc;
  e->Y1 = g->Y0 - Dc;
  return e->n >= JOLT_JUMP_MIN;
}

/* With damping (R > 0): the decrements' upper bound gives the run's length within Y's thresholds, the first tie
 * ends it before, and Y_n is a floor sum. 1 with *e, 0 when no run (*next 1: a tie at the first step). */
static int run_progression(const jolt_grid *g, jolt_end *e, long *next) {
  int s = g->s, t = g->t, st = s + (t > 0 ? t : 0);
  jolt_u128 m = JOLT_ONE << st, B = g->B, X0 = g->P0 + (JOLT_ONE << (s - 1)) + (t > 0 ? JOLT_ONE << (st - 1) : 0);
  jolt_sup u = {.X0 = X0, .B = B, .shift = st, .scale = t < 0 ? -t : 0};
  jolt_u128 j1 = sup_last(&u, g->n_hi, g->Y0 - g->ymin), j2 = sup_last(&u, g->n_hi, g->Y0 - g->yend) + 1;
  jolt_u128 n = j1 < j2 ? j1 : j2;
  e->tie = 0;
  if (n < JOLT_JUMP_MIN)
    return 0;
  jolt_u128 kp = first_in(g->P0, B, UINT64_C(1) << s, UINT64_C(1) << (s - 1), 1, n); /* P_k a tie of p bits */
  jolt_u128 ka = t > 0 ? first_in(g->P0 + (JOLT_ONE << (s - 1)), B, (uint64_t)m, UINT64_C(1) << (st - 1),
                                  UINT64_C(1) << s, n)
                       : n + 1; /* A_k a tie of y's grid */
  jolt_u128 k = kp < ka ? kp : ka;
  if (k <= n) {
    n = k - 1;
    *next = 1;
    e->tie = kp < ka ? 1 : 2;
    if (n == 0)
      return 0;
  }
  jolt_u128 Xn = X0 - n * B, S = floor_sum(n, m, B, Xn) << u.scale;
  if (S > g->Y0 - g->ymin)
    return 0;
  e->n = n;
  e->Yn = g->Y0 - S;
  e->Yn1 = e->Yn + ((Xn / m) << u.scale);
  e->Y1 = g->Y0 - (((X0 - B) / m) << u.scale);
  return 1;
}

/* Up to n_max steps of the approach from (*w, *y) at once (the header comment above): the steps taken, 0 when none;
 * *next: the steps to take one by one before the next try (1: a tie) */
static long approach_jump(const jolt_approach *ap, double *w, double *y, long n_max, long *next,
                          impactfit__jolt_work *wk) {
  jolt_grid g;
  jolt_end e = {0};
  if (!grid_of(ap, *w, *y, n_max, &g, next))
    return 0;
  int ok = g.R == 0 ? run_const(ap, &g, -*w, &e, next) : run_progression(&g, &e, next);
  if (!ok) {
    work_add(wk, 0, 0, e.tie, 0);
    return 0;
  }
  /* the first and the last step again, by approach_step */
  jolt_u128 n = e.n;
  double bias, ws = *w, ys = *y, wt = -(double)(g.M - (uint64_t)(g.R * (n - 1))) * p2(g.E);
  double yt = (double)e.Yn1 * p2(g.Ey), wn = -(double)(g.M - (uint64_t)(g.R * n)) * p2(g.E);
  double yn = (double)e.Yn * p2(g.Ey);
  if (!approach_step(ap, &ws, &ys, &bias)) /* the approach ends here: the caller's step says so */
    return 0;
  ok = ws == -g.w1 && ys == (double)e.Y1 * p2(g.Ey);
  ok = ok && approach_step(ap, &wt, &yt, &bias) && wt == wn && yt == yn && bias >= g.w1;
  if (!ok) {
    work_add(wk, 0, 0, 0, 1);
    return 0;
  }
  *w = wn;
  *y = yn;
  if (*next == 16)
    *next = 0;
  work_add(wk, 0, 1, e.tie, 0);
  return (long)n;
}

/* The run from (*w, *y): jumps where approach_jump takes them (jump 1), else one step at a time */
static long approach_run(const jolt_approach *ap, double *w, double *y, long n_max, int jump,
                         impactfit__jolt_work *wk) {
  long n = 0, next = 0, plain = 0;
  double bias;
  while (n < n_max) {
    if (jump && next == 0) {
      long k = approach_jump(ap, w, y, n_max - n, &next, wk);
      n += k;
      if (k > 0)
        continue;
    }
    if (!approach_step(ap, w, y, &bias))
      break;
    n++;
    plain++;
    next -= next > 0;
  }
  work_add(wk, plain, 0, 0, 0);
  return n;
}

long impactfit__jolt_run(const impactfit_stepper *st, impactfit_step_state *s, long n_max, int jump,
                         impactfit__jolt_work *work) {
  const double *p = st->p;
  jolt_fp fp = {.f32 = st->type == &impactfit__stepper_jolt};
  if (s->mem[0] != 0.0 || s->mem[1] == 0.0 || s->branch != B_SPEC || !s->contact || s->x != s->mem[3])
    return 0;
  double damp = f32(1.0 - f32(f32(p[IMPACTFIT__JOLT_DAMP]) * f32(st->dt)));
  jolt_approach ap = {.fp = fp,
                      .h = rnd(fp, st->dt),
                      .coord = rnd(fp, p[IMPACTFIT__JOLT_COORD]),
                      .spec = rnd(fp, p[IMPACTFIT__JOLT_SPEC]),
                      .damp = damp > 0.0 ? damp : 0.0,
                      .r = rnd(fp, p[IMPACTFIT__JOLT_REST]),
                      .vmin = rnd(fp, p[IMPACTFIT__JOLT_VMIN]),
                      .rest = 1e-6 * s->mem[1],
                      .slop = rnd(fp, p[IMPACTFIT__JOLT_SLOP]),
                      .psteps = p[IMPACTFIT__JOLT_PSTEPS] > 0.0};
  double y = s->mem[2], w = rnd(fp, -s->u);
  long n = approach_run(&ap, &w, &y, n_max, jump, work);
  if (n > 0) {
    s->mem[2] = y;
    s->u = -w;
    s->x = p[IMPACTFIT__JOLT_COORD] - y;
    s->mem[3] = s->x;
  }
  return n;
}

static long jolt_run(const impactfit_stepper *st, impactfit_step_state *s, long n_max) {
  return impactfit__jolt_run(st, s, n_max, 1, NULL);
}

static int jolt_step32(const impactfit_stepper *st, impactfit_step_state *s) {
  return jolt_step_fp(st, s, (jolt_fp){.f32 = 1});
}

static int jolt_step64(const impactfit_stepper *st, impactfit_step_state *s) {
  return jolt_step_fp(st, s, (jolt_fp){.f32 = 0});
}

static double jolt_reach(const impactfit_stepper *st, double v) {
  (void)v;
  return st->p[IMPACTFIT__JOLT_SPEC];
}

const impactfit_stepper_type impactfit__stepper_jolt = {
    .name = "jolt",
    .summary = "Jolt Physics v5.6.0 in float32 as the engine computes: a hard contact row found within the speculative "
               "distance, restitution above mMinVelocityForRestitution, sequential impulses with warm start, "
               "symplectic "
               "Euler, Baumgarte position steps past the slop",
    .n_params = IMPACTFIT__JOLT_NPARAMS,
    .param_names = jolt_names,
    .param_units = jolt_units,
    .needs_law = 0,
    .check = jolt_check,
    .step = jolt_step32,
    .reach = jolt_reach,
    .amplification = NULL,
    .continuous = NULL,
    .run = jolt_run,
};

const impactfit_stepper_type impactfit__stepper_jolt64 = {
    .name = "jolt-double",
    .summary = "Jolt Physics v5.6.0's step map (as jolt) in double precision: e continuous in the restitution (the "
               "registry's inverse); the engine's float32 rounds it by about 1e-7",
    .n_params = IMPACTFIT__JOLT_NPARAMS,
    .param_names = jolt_names,
    .param_units = jolt_units,
    .needs_law = 0,
    .check = jolt_check,
    .step = jolt_step64,
    .reach = jolt_reach,
    .amplification = NULL,
    .continuous = NULL,
    .affine = jolt_affine,
    .run = jolt_run,
};

/* ---------------------------------------------------------------- the entry's operations */

impactfit__jolt_setup impactfit__jolt_defaults(void) {
  impactfit__jolt_setup js = {.restitution2 = 0.0,
                              .vmin = 1.0,
                              .spec = 0.02,
                              .slop = 0.02,
                              .baumgarte = 0.2,
                              .vsteps = 10,
                              .psteps = 2,
                              .damping = 0.05,
                              .warm = 1,
                              .plane = 1,
                              .m1 = 4.0 / 3.0 * IMPACTFIT__PI * 0.005 * 0.005 * 0.005 * 2500.0,
                              .m2 = 0.0,
                              .r1 = 0.005,
                              .r2 = 0.0,
                              .dt = 1.0 / 60.0};
  return js;
}

int impactfit__jolt_build(const impactfit__jolt_setup *js, double restitution, int f32, impactfit_stepper *st,
                          impactfit_error *err) {
  memset(st, 0, sizeof *st);
  if (!(restitution >= 0.0 && isfinite(restitution)))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "jolt: mRestitution must be >= 0 (got %.17g)", restitution);
  if (!(js->dt > 0.0 && isfinite(js->dt)))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "jolt: the step must be > 0 (s) (got %.17g)", js->dt);
  if (!(js->m1 > 0.0 && (js->plane || js->m2 > 0.0) && js->r1 > 0.0 && (js->plane || js->r2 > 0.0)))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "jolt: the bodies' masses and radii must be > 0");
  st->type = f32 ? &impactfit__stepper_jolt : &impactfit__stepper_jolt64;
  st->end = impactfit_transition_C;
  st->mass = js->plane ? js->m1 : js->m1 * js->m2 / (js->m1 + js->m2);
  st->dt = js->dt;
  double *p = st->p;
  p[IMPACTFIT__JOLT_REST] = fmax(restitution, js->restitution2); /* ContactConstraintManager.h:555 */
  p[IMPACTFIT__JOLT_VMIN] = js->vmin;
  p[IMPACTFIT__JOLT_SPEC] = js->spec;
  p[IMPACTFIT__JOLT_SLOP] = js->slop;
  p[IMPACTFIT__JOLT_BAUM] = js->baumgarte;
  p[IMPACTFIT__JOLT_VSTEPS] = js->vsteps;
  p[IMPACTFIT__JOLT_PSTEPS] = js->psteps;
  p[IMPACTFIT__JOLT_DAMP] = js->damping;
  p[IMPACTFIT__JOLT_WARM] = js->warm;
  p[IMPACTFIT__JOLT_M1] = js->m1;
  p[IMPACTFIT__JOLT_M2] = js->plane ? 0.0 : js->m2;
  p[IMPACTFIT__JOLT_COORD] = js->plane ? js->r1 : js->r1 + js->r2;
  return impactfit_stepper_check(st, err);
}

static void appendf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void appendf(char *buf, size_t size, const char *fmt, ...) {
  size_t n = strlen(buf);
  if (n + 1 >= size)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + n, size - n, fmt, ap);
  va_end(ap);
}

void impactfit__jolt_input(const impactfit__jolt_setup *js, double restitution, char *buf, size_t size) {
  buf[0] = 0;
  /* float32: nine digits give the float the engine stores */
  appendf(buf, size, "settings.mRestitution = %.9gf;   (JavaScript: settings.mRestitution = %.9g;)", restitution,
          restitution);
  if (js->damping != 0.0)
    appendf(buf, size, "  with settings.mLinearDamping = %.9gf on both bodies as you have it", js->damping);
}

void impactfit__jolt_note(const impactfit__jolt_setup *js, double restitution, double v, char *buf, size_t size) {
  double damp = fmax(0.0, 1.0 - js->damping * js->dt);
  double vn = v * damp; /* the normal speed the contact sees in its first step */
  if (!(vn > js->vmin))
    appendf(buf, size,
            "NO BOUNCE BELOW %.6g m/s: Jolt applies restitution only when the normal speed exceeds "
            "PhysicsSettings::mMinVelocityForRestitution = %.6g m/s (strictly; here %.6g m/s after this step's "
            "damping), whatever mRestitution is: the speculative contact stops the bodies at the surface, e = 0. Set "
            "mMinVelocityForRestitution below %.6g m/s for a bounce. ",
            js->vmin, js->vmin, vn, vn);
  if (js->damping != 0.0)
    appendf(buf, size,
            "mLinearDamping = %.6g 1/s multiplies the velocities by max(0, 1 - c h) = %.9g in every step, before "
            "the contact acts (MotionProperties.inl:143): the rebound is r times the damped speed, and the flight "
            "loses the same fraction per step (0 for none). ",
            js->damping, damp);
  if (restitution < js->restitution2)
    appendf(buf, size,
            "The other body's mRestitution %.6g is larger: Jolt takes the larger of the two "
            "(ContactConstraintManager.h:555), so this value has no effect. ",
            js->restitution2);
  appendf(buf, size,
          "The contact row exists from %.3g m apart (mSpeculativeContactDistance): above the threshold the bodies "
          "bounce in the step that would bring them together, from where that step starts (up to v h = %.3g m "
          "before touching). ",
          js->spec, v * js->dt);
  if (!js->plane && v * js->dt > js->spec + js->r1 + js->r2)
    appendf(buf, size,
            "THE SPHERES CAN PASS THROUGH EACH OTHER: one step moves them v h = %.3g m, more than r1 + r2 + the "
            "speculative distance (%.3g m): without a contact in the step before, the centres cross (use "
            "EMotionQuality::LinearCast or a smaller step). ",
            v * js->dt, js->spec + js->r1 + js->r2);
  if (js->damping != 0.0)
    appendf(buf, size,
            "Jolt computes in float32 (its velocities are float even in a double-precision build): the damped "
            "velocity is rounded to float every step, which at a small dt is not (1 - c h)^n (at 1e-7 s the float "
            "factor is 1: no damping at all); the model rounds it as the engine does: e is the engine's to about "
            "1e-6. ");
  else
    appendf(buf, size, "Jolt computes in float32: e is r to about 1e-7. ");
}

/* ---------------------------------------------------------------- the registry entry (include/impactfit/codes.h) */

/* the setup of a resolved request */
static impactfit__jolt_setup jolt_setup_of(const impactfit_code_ctx *c) {
  impactfit__jolt_setup js = impactfit__jolt_defaults();
  js.restitution2 = impactfit_code_body_value(c, "mRestitution", 2)[0];
  js.damping = impactfit_code_value(c, "mLinearDamping")[0];
  js.vmin = impactfit_code_value(c, "mMinVelocityForRestitution")[0];
  js.spec = impactfit_code_value(c, "mSpeculativeContactDistance")[0];
  js.slop = impactfit_code_value(c, "mPenetrationSlop")[0];
  js.baumgarte = impactfit_code_value(c, "mBaumgarte")[0];
  js.vsteps = (int)impactfit_code_value(c, "mNumVelocitySteps")[0];
  js.psteps = (int)impactfit_code_value(c, "mNumPositionSteps")[0];
  js.warm = impactfit_code_value(c, "mConstraintWarmStart")[0] != 0.0;
  /* the masses and radii (an effective mass or radius alone: the relative motion of a body on a wall) */
  js.plane = c->wall || !isfinite(c->m2) || !isfinite(c->r2);
  js.m1 = js.plane ? c->M : c->m1;
  js.m2 = js.plane ? 0.0 : c->m2;
  js.r1 = js.plane ? (isfinite(c->r1) ? c->r1 : c->R) : c->r1;
  js.r2 = js.plane ? 0.0 : c->r2;
  js.dt = c->dt;
  return js;
}

static int jolt_entry_build(const impactfit_code_ctx *c, double value, impactfit_stepper *st, impactfit_error *err) {
  impactfit__jolt_setup js = jolt_setup_of(c);
  return impactfit__jolt_build(&js, value, c->integrator->stepper == &impactfit__stepper_jolt, st, err);
}

static int jolt_entry_naive(const impactfit_code_ctx *c, double e, double *value, impactfit_text *what,
                            impactfit_error *err) {
  (void)c;
  (void)err;
  *value = e;
  impactfit_text_appendf(what, "mRestitution = e (typed as it is)");
  return 0;
}

static void jolt_entry_input(const impactfit_code_ctx *c, double value, impactfit_text *out) {
  impactfit__jolt_setup js = jolt_setup_of(c);
  char buf[512];
  impactfit__jolt_input(&js, value, buf, sizeof buf);
  impactfit_text_appendf(out, "%s", buf);
  if (impactfit__friction_given(c, "mFriction")) /* yours, as typed */
    impactfit_text_appendf(out,
                           "   friction as you typed it: settings.mFriction = %.9gf; (JavaScript: settings.mFriction = "
                           "%.9g;)",
                           impactfit_code_value(c, "mFriction")[0], impactfit_code_value(c, "mFriction")[0]);
}

static void jolt_entry_note(const impactfit_code_ctx *c, double value, impactfit_text *out) {
  impactfit__jolt_setup js = jolt_setup_of(c);
  char buf[2048] = "";
  impactfit__jolt_note(&js, value, c->v, buf, sizeof buf);
  impactfit_text_appendf(out, "%s", buf);
  impactfit__friction_note(c, "mFriction", NULL, out);
}

/* The inverse below the restitution threshold (ops->solve): where the impact speed is at most
 * mMinVelocityForRestitution (with a margin of 1e-6 for the float rounding of a speed that is not a float), the
 * restitution branch never runs: the damping (a factor <= 1, rounded to the nearest float, which cannot exceed a
 * float speed) and the impulses (>= 0, towards the speculative stop) only slow the approach, and with no gravity
 * nothing speeds it up again, so the step map and every phase's e are the same for every mRestitution (e = 0:
 * the speculative contact stops the bodies at the surface, the row found before they touch: v dt at most the
 * speculative distance). No value reaches an e in (0, 1): ENOROOT at once, without the search on the phase mean
 * (whose every mean is that one e), *value NaN: the answer states the naive value's mean as the means at the
 * range's ends, in the same words as before, without stepping them. Above it,
 * or where the approach through the speculative distance takes more than half the phase statistics' step limit
 * (1e6 steps: an end's statistics could fail, and the answer would lose the ends' means): 1, the search. */
static int jolt_entry_solve(const impactfit_code_ctx *c, double e, double *value, impactfit_error *err) {
  impactfit__jolt_setup js = jolt_setup_of(c);
  if (!(c->req->gravity == 0.0 && c->v * (1.0 + 1e-6) <= js.vmin && c->v * js.dt <= js.spec &&
        js.spec <= 5e5 * c->v * js.dt))
    return 1;
  *value = NAN;
  return IMPACTFIT__FAIL(err, IMPACTFIT_ENOROOT,
                         "below mMinVelocityForRestitution = %.6g m/s no value of mRestitution gives a mean e of "
                         "%.6g: the bodies stop at the surface (e = 0) whatever it is",
                         js.vmin, e);
}

static const impactfit_code_ops jolt_ops = {.build = jolt_entry_build,
                                            .lo = 1e-6,
                                            .hi = 2.0,
                                            .range = NULL,
                                            .naive = jolt_entry_naive,
                                            .input = jolt_entry_input,
                                            .note = jolt_entry_note,
                                            .data = NULL,
                                            .solve = jolt_entry_solve};

static const impactfit_code_input jolt_inputs[] = {
    {.name = "mRestitution",
     .unit = "-",
     .help = "BodyCreationSettings::mRestitution of each body (default 0); the contact takes the larger",
     .count = 1,
     .def = {NAN},
     .def_body2 = (const double[]){0.0},
     .per_body = 1,
     .mix = IMPACTFIT_CODE_MIX_MAX},
    {.name = "mLinearDamping",
     .unit = "1/s",
     .help = "BodyCreationSettings::mLinearDamping (default 0.05): v *= 1 - c dt every step; both bodies alike",
     .count = 1,
     .def = {0.05},
     .per_body = 1,
     .mix = IMPACTFIT_CODE_MIX_SAME},
    {.name = "mMinVelocityForRestitution",
     .unit = "m/s",
     .help = "PhysicsSettings: no restitution unless the normal speed exceeds it (default 1)",
     .count = 1,
     .def = {1.0}},
    {.name = "mSpeculativeContactDistance",
     .unit = "m",
     .help = "PhysicsSettings: contacts exist from this gap on (default 0.02)",
     .count = 1,
     .def = {0.02}},
    {.name = "mPenetrationSlop",
     .unit = "m",
     .help = "PhysicsSettings: penetration the position step leaves alone (default 0.02)",
     .count = 1,
     .def = {0.02}},
    {.name = "mBaumgarte",
     .unit = "-",
     .help = "PhysicsSettings: the position step's fraction (default 0.2)",
     .count = 1,
     .def = {0.2}},
    {.name = "mNumVelocitySteps",
     .unit = "-",
     .help = "PhysicsSettings: velocity iterations (default 10)",
     .count = 1,
     .def = {10.0}},
    {.name = "mNumPositionSteps",
     .unit = "-",
     .help = "PhysicsSettings: position iterations (default 2)",
     .count = 1,
     .def = {2.0}},
    {.name = "mConstraintWarmStart",
     .unit = "0/1",
     .help = "PhysicsSettings: warm start the contact impulses (default 1)",
     .count = 1,
     .def = {1.0}},
    IMPACTFIT__IN_FRICTION("mFriction",
                           "BodyCreationSettings::mFriction of the sphere (Jolt's default 0.2; two bodies: sqrt(f1 "
                           "f2))",
                           0.2),
};

static const impactfit_code_integrator jolt_integrators[] = {
    {.name = "euler",
     .stepper = &impactfit__stepper_jolt64,
     .summary = "PhysicsSystem::Update with one collision step: symplectic Euler, Jolt's contact row; modelled in "
                "double with the damped approach velocity rounded to float every step as the engine stores it "
                "(e within about 1e-6 of the engine's, continuous in the restitution)"},
    {.name = "euler-float32",
     .stepper = &impactfit__stepper_jolt,
     .summary = "the same in float32 as the engine computes it, bit for bit on a plane (forward answers; an inverse "
                "stops at float32's resolution of e, about 6e-8)"},
};

static const impactfit_code_source jolt_sources[] = {
    {.where = "CMakeLists.txt:18, :22, :106-112 (DOUBLE_PRECISION OFF, ENABLE_SIMD OFF, GIT_TAG v5.6.0)",
     .version = "JoltPhysics.js 1.1.0"},
    {.where = "Jolt/Physics/Constraints/ContactConstraintManager.cpp:40-134, :1131-1332, :1684-1761, :1883-1935",
     .version = "JoltPhysics 3b47ec39 (before v5.6.0)"},
    {.where = "Jolt/Physics/Constraints/ConstraintPart/ContactConstraintPart.h:112-237",
     .version = "JoltPhysics 3b47ec39"},
    {.where = "Jolt/Physics/Constraints/ContactConstraintManager.h:554-555", .version = "JoltPhysics 3b47ec39"},
    {.where = "Jolt/Physics/PhysicsSystem.cpp:216-227, :319-558, :746-791, :1386-1565, :1644-1682, :2664-2669",
     .version = "JoltPhysics 3b47ec39"},
    {.where = "Jolt/Physics/PhysicsSettings.h:45-102", .version = "JoltPhysics 3b47ec39"},
    {.where = "Jolt/Physics/Body/MotionProperties.inl:127-149; MotionProperties.cpp:12-33",
     .version = "JoltPhysics 3b47ec39"},
    {.where = "Jolt/Physics/Body/BodyCreationSettings.h:104-114", .version = "JoltPhysics 3b47ec39"},
    {.where = "Jolt/Physics/Collision/Shape/PlaneShape.cpp:435-482; SphereShape.cpp:125-141",
     .version = "JoltPhysics 3b47ec39"},
};

static const impactfit_code_model jolt_models[] = {
    {.code = &impactfit__code_jolt,
     .model = "contact",
     .option = "",
     .default_option = 1,
     .versions = "5.0.0-5.6.0",
     .first_version = "5.0.0",
     .version_min = 5000000,
     .version_max = 5006000,
     .run_min = 5006000,
     .run_max = 5006000,
     .run_versions = "5.6.0 (npm jolt-physics 1.1.0)",
     .law = NULL,
     .n = 0.0,
     .m = 0.0,
     .clamp_default = 1,
     .clamp_switch = NULL,
     .inputs = jolt_inputs,
     .n_inputs = IMPACTFIT__COUNT(jolt_inputs),
     .integrators = jolt_integrators,
     .n_integrators = IMPACTFIT__COUNT(jolt_integrators),
     .dt_default = 1.0 / 60.0,
     .solver = IMPACTFIT_CODE_SOLVE_MEAN,
     .param = "restitution",
     .param_unit = "-",
     .param_input = "mRestitution",
     .param_index = 0,
     .param_scale = 0.0,
     .param_floor = 0.0,
     .param_takes_zero = 1, /* the engine's default restitution is 0 (docs/engines) */
     .takes_e = 0,
     .ops = &jolt_ops,
     .law_text = "a hard contact row from mSpeculativeContactDistance apart: bias r vn when the normal speed vn "
                 "exceeds mMinVelocityForRestitution and the bodies would meet within the step, else the speculative "
                 "gap/dt; 10 sequential-impulse sweeps with warm start, impulse >= 0; symplectic Euler; Baumgarte "
                 "position steps past the slop. Above 1 m/s e = r (times 1 - c dt per step with a contact row); below "
                 "it the bodies stop at the surface, e = 0",
     .end = "C (the row only pushes: max(lambda, 0))",
     .bodies = "the relative motion along the line of centres: K = 1/(1/m1 + 1/m2), e does not depend on the masses "
               "or radii except through the damping and the geometry of the speculative reach",
     .mixing = "the larger of the two bodies' mRestitution (ContactConstraintManager.h:555; a custom "
               "PhysicsSystem::SetCombineRestitution replaces it); friction sqrt(f1 f2) (:554)",
     .traps = "no restitution at or below mMinVelocityForRestitution = 1 m/s (strict), measured after this step's "
              "damping; the bounce happens in the step that would bring the bodies together, from up to v dt apart "
              "(they never touch); mLinearDamping (0.05 by default) scales the rebound by 1 - c dt and damps the "
              "flight; float32; two spheres can pass through each other when v dt exceeds r1 + r2 + 0.02 m "
              "(Discrete motion quality)",
     .assumes = "frictionless (or no tangential motion), no gravity, head-on through the centres, one collision step "
                "per update, Discrete motion quality, no sleeping during the impact",
     .precision = "float32 engine; the default integrator models it in double with the engine's float rounding of "
                  "the damped velocity (per phase within 1.3e-7 of the engine at 1e-6 s), euler-float32 bit for bit",
     .source = "JoltPhysics.js 1.1.0 CMakeLists.txt:109 (v5.6.0); JoltPhysics 3b47ec39 (2026-06-30, before v5.6.0's "
               "tag): ContactConstraintManager.cpp:40-134, :1684-1761, :1883-1935, ContactConstraintPart.h:112-237, "
               "ContactConstraintManager.h:555, PhysicsSystem.cpp:352-558, :1530-1536, :1644-1682, :2664-2669, "
               "PhysicsSettings.h:45-102, "
               "MotionProperties.inl:143; the restitution rule read the same at v5.0.0-v5.5.0 (their gravity term "
               "differs: none here)",
     .sources = jolt_sources,
     .n_sources = IMPACTFIT__COUNT(jolt_sources)},
};

const impactfit_code impactfit__code_jolt = {.name = "jolt",
                                             .display = "Jolt Physics",
                                             .kind = "engine",
                                             .default_version = "5.6.0",
                                             .version_example = "5.6.0",
                                             .version_key = impactfit_code_version_dotted,
                                             .model_prefix = NULL,
                                             .run_versions = "5.6.0 (npm jolt-physics 1.1.0, WebAssembly)",
                                             .models = jolt_models,
                                             .n_models = sizeof jolt_models / sizeof jolt_models[0]};
