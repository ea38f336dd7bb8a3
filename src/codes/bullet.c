/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Bullet's rigid-body contact in the code registry (include/impactfit/codes.h;
 * docs/engines/BULLET.md): its time step as two steppers (restitution on a hard contact row, and
 * the contact stiffness/damping row) and two models.
 *
 * Read in Bullet 3.24 (Debian 12's libbullet-dev; pkg-config bullet-float64 is the double build):
 *   src/BulletDynamics/ConstraintSolver/btSequentialImpulseConstraintSolver.cpp
 *     494-502   restitutionCurve: 0 when |rel_vel| < m_restitutionVelocityThreshold, else
 *               restitution·(−rel_vel); setupContactConstraint (913-917) clamps it at ≥ 0.
 *     816-845   erp = m_erp2, cfm = m_globalCfm, or with BT_CONTACT_FLAG_CONTACT_STIFFNESS_DAMPING
 *               denom = h k + c (at least SIMD_EPSILON), cfm = 1/denom, erp = h k/denom; cfm /= h.
 *     874-876   m_jacDiagABInv = sor/(1/m_A + 1/m_B + cfm/h) (the angular terms vanish for a row through
 *               the centres).
 *     898-980   penetration = distance + m_linearSlop; velocityError = restitution − rel_vel, and for
 *               a positive distance (a gap: the "speculative" row) velocityError −= distance/h with no
 *               positional error; else positionalError = −distance·erp/h; combined into m_rhs unless
 *               m_splitImpulse and penetration ≤ m_splitImpulsePenetrationThreshold (then the
 *               positional part goes to the split-impulse push); warm start with
 *               m_appliedImpulse·m_warmstartingFactor; lower limit 0.
 *     79-101    the row's iteration (scalar reference: the double build has no SIMD path):
 *               Δ = rhs − λ cfm' − (n·Δv) D, λ clamped at ≥ 0.
 *     284-314, 1696-1722   the split-impulse iterations (push velocity, cold start).
 *     1730-1757, 1805-1835 m_numIterations sweeps; write back λ (warm start) and velocities; the push
 *               moves the position (btSolverBody.h:263-282 writebackVelocityAndTransform).
 *   src/BulletDynamics/ConstraintSolver/btContactSolverInfo.h:79-112   defaults: m_erp2 0.2,
 *     m_globalCfm 0, m_sor 1, m_numIterations 10, m_splitImpulse true, threshold −0.04 m,
 *     m_linearSlop 0, m_warmstartingFactor 0.85, m_restitutionVelocityThreshold 0.2 m/s.
 *   btDiscreteDynamicsWorld: internalSingleStepSimulation collides at the step start, solves, then
 *     integrateTransforms x ← x + h v (semi-implicit: the new velocity moves the body);
 *     stepSimulation(dt, maxSubSteps = 1, fixedTimeStep = 1/60) steps at fixedTimeStep.
 *   Contact generation (src/BulletCollision/CollisionDispatch/): btConvexPlaneCollisionAlgorithm.cpp:
 *     118-126 adds a point when distance < the manifold's breaking threshold (before touching);
 *     btSphereSphereCollisionAlgorithm.cpp:62-92 only when len ≤ r0 + r1 (touching), and line 15 defines
 *     CLEAR_MANIFOLD: lines 61-63 clear the manifold every step (no persistence, no warm start between
 *     two spheres); a plane's point stays while its distance ≤ the threshold
 *     (btPersistentManifold.cpp:247-290) and is warm-started; the threshold is
 *     gContactBreakingThreshold (0.02) times the shape's angular motion disc, √3 r for a sphere
 *     (btCollisionShape.cpp:30-55, btSphereShape.cpp:53-59), the smaller of the two bodies'
 *     (btCollisionDispatcher.cpp:74-75); the static plane's is unbounded.
 *   btManifoldResult.cpp:56-75   combined restitution = product, contact damping = sum, contact
 *     stiffness = 1/(1/k0 + 1/k1); btCollisionObject.cpp:36-43 defaults restitution 0, contact
 *     damping 0.1, contact stiffness BT_LARGE_FLOAT (1e30 in double, 1e18 in single).
 * With one frictionless row through the centres the step is, in the approach speed u and the
 * penetration x (−distance): λ = max(0, (r + u + erp x/h)/(1/M + cfm/h)) (x ≥ 0) or
 * max(0, (r + u + x/h)/(1/M + cfm/h)) (a gap, x < 0), u ← u − λ/M, x ← x + h u; with the stiffness
 * and damping row this is backward Euler of f = k δ + c δ' clamped at 0 plus the gap rows. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../common/common_impl.h"
#include "blocks_impl.h"
#include "friction_impl.h"

/* ---------------------------------------------------------------- the steppers */

/* parameters; Q_A and Q_B are erp and cfm (restitution stepper) or k and c (stiffness stepper) */
enum { Q_A, Q_B, Q_REST, Q_VTHR, Q_BREAK, Q_PLANE, Q_SPLIT, Q_SPLITTHR, Q_ITER, Q_SOR, Q_WARM, Q_COORD, Q_COUNT };

static const char *const rest_names[Q_COUNT] = {
    "erp2",       "cfm",   "restitution",         "restitution_velocity_threshold",
    "breaking",   "plane", "split_impulse",       "split_threshold",
    "iterations", "sor",   "warmstarting_factor", "coordinate"};
static const char *const stiff_names[Q_COUNT] = {
    "k",          "c",     "restitution",         "restitution_velocity_threshold",
    "breaking",   "plane", "split_impulse",       "split_threshold",
    "iterations", "sor",   "warmstarting_factor", "coordinate"};
static const char *const rest_units[Q_COUNT] = {"-",   "m/N (s/kg)", "-", "m/s", "m", "0/1",
                                                "0/1", "m",          "-", "-",   "-", "m"};
static const char *const stiff_units[Q_COUNT] = {"N/m", "N s/m", "-", "m/s", "m", "0/1",
                                                 "0/1", "m",     "-", "-",   "-", "m"};

/* branch bits */
enum { B_GAP = 1, B_REST = 2, B_SPLIT = 4, B_CLAMP = 8, B_NEW = 16 };

static int is_stiff(const impactfit_stepper *st);

static int bt_check(const impactfit_stepper *st, impactfit_error *err) {
  const double *p = st->p;
  const char *n = st->type->name;
  if (is_stiff(st)) {
    if (!(p[Q_A] > 0.0 && isfinite(p[Q_A])))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper %s: k must be > 0 (N/m) (got %.17g)", n, p[Q_A]);
    if (!(p[Q_B] >= 0.0 && isfinite(p[Q_B])))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper %s: c must be >= 0 (N s/m) (got %.17g)", n, p[Q_B]);
  } else {
    if (!(p[Q_A] >= 0.0 && isfinite(p[Q_A])))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper %s: erp2 must be >= 0 (got %.17g)", n, p[Q_A]);
    if (!(p[Q_B] >= 0.0 && isfinite(p[Q_B])))
      return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper %s: cfm must be >= 0 (got %.17g)", n, p[Q_B]);
  }
  if (!(p[Q_REST] >= 0.0 && isfinite(p[Q_REST])))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper %s: restitution must be >= 0 (got %.17g)", n, p[Q_REST]);
  if (!(p[Q_VTHR] >= 0.0 && isfinite(p[Q_VTHR])))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "stepper %s: the restitution velocity threshold must be >= 0 (got "
                           "%.17g)",
                           n, p[Q_VTHR]);
  if (!(p[Q_BREAK] >= 0.0 && isfinite(p[Q_BREAK])))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper %s: the contact breaking distance must be >= 0 (got %.17g)",
                           n, p[Q_BREAK]);
  if (!(p[Q_ITER] >= 1.0 && p[Q_ITER] <= 1e6 && p[Q_ITER] == floor(p[Q_ITER])))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper %s: iterations must be a whole number >= 1 (got %.17g)", n,
                           p[Q_ITER]);
  if (!(p[Q_SOR] > 0.0 && p[Q_SOR] < 2.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper %s: sor must lie in (0, 2) (got %.17g)", n, p[Q_SOR]);
  if (!(p[Q_WARM] >= 0.0 && p[Q_WARM] <= 1.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper %s: the warm-starting factor must lie in [0, 1] (got %.17g)",
                           n, p[Q_WARM]);
  if (!(p[Q_COORD] >= 0.0 && isfinite(p[Q_COORD])))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper %s: the coordinate must be >= 0 (m) (got %.17g)", n,
                           p[Q_COORD]);
  if (!isfinite(p[Q_SPLITTHR]))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "stepper %s: the split-impulse threshold must be finite", n);
  return 0;
}

/* the row's erp and cfm (before the division of cfm by h) */
static void bt_erp_cfm(const impactfit_stepper *st, double *erp, double *cfm) {
  if (is_stiff(st)) {
    impactfit__row_erp_cfm(st->dt, st->p[Q_A], st->p[Q_B], DBL_EPSILON, erp, cfm);
  } else {
    *erp = st->p[Q_A];
    *cfm = st->p[Q_B];
  }
}

/* sequential-impulse sweeps of one row with lower limit 0: lam starts at lam0 (its velocity change
 * A·lam0 already applied), returns lam and sets *dv to the total normal velocity change A·lam */
static double bt_sweeps(double rhs, double cfmD, double D, double A, double lam0, int iterations, double *dv) {
  double lam = lam0, v = A * lam0;
  for (int k = 0; k < iterations; k++) {
    double delta = rhs - lam * cfmD;
    delta -= v * D;
    double sum = lam + delta;
    if (sum < 0.0) {
      delta = -lam;
      lam = 0.0;
    } else {
      lam = sum;
    }
    v += A * delta;
    if (delta == 0.0) /* the residual is zero: Bullet stops iterating (m_leastSquaresResidualThreshold 0) */
      break;
  }
  *dv = v;
  return lam;
}

/* mem[0]: the applied impulse of the manifold point (warm start); mem[1]: 1 while the point exists */
static int bt_step(const impactfit_stepper *st, impactfit_step_state *s) {
  const double *p = st->p;
  double h = st->dt, x = s->x, u = s->u, distance = -x, thr = p[Q_BREAK];
  /* the plane (convex-plane algorithm): a point from a gap below the breaking distance, kept while the gap is at
   * most that (refreshContactPoints), warm-started; two spheres (sphere-sphere algorithm, CLEAR_MANIFOLD): the
   * manifold is cleared every step, a point exists only while touching and is never warm-started */
  int plane = p[Q_PLANE] != 0.0;
  int had = s->mem[1] != 0.0, created = plane ? distance < thr : distance <= 0.0;
  int exists = created || (plane && had && distance <= thr);
  s->branch = 0;
  s->contact = exists;
  double lam = 0.0, push = 0.0, dv = 0.0, pv = 0.0;
  if (exists) {
    if (!had || !plane)
      s->branch |= B_NEW;
    double erp, cfm;
    bt_erp_cfm(st, &erp, &cfm);
    double A = 1.0 / st->mass, cfmh = cfm * (1.0 / h);
    double D = p[Q_SOR] / (A + cfmh);
    double rel_vel = -u, rest = 0.0;
    if (!(fabs(rel_vel) < p[Q_VTHR]))
      rest = p[Q_REST] * -rel_vel;
    if (rest <= 0.0)
      rest = 0.0;
    else
      s->branch |= B_REST;
    /* the row's velocity includes gravity's impulse, m_externalForceImpulse (setupContactConstraint, 3.24
     * btSequentialImpulseConstraintSolver.cpp:936-947); the restitution does not (:902-913) */
    double penetration = distance, pos_err = 0.0, vel_err = rest - rel_vel;
    if (st->gravity != 0.0)
      vel_err += st->gravity * h;
    /* branch labels are banded (a relative 1e-9) so that rounding at a coincidence (the body stopped exactly at
     * the surface, a row asking exactly for the current speed) does not flip them: only the jumps of e matter */
    if (penetration > 1e-9 * fmax(thr, h * fabs(u)))
      s->branch |= B_GAP;
    if (penetration > 0.0) {
      vel_err -= penetration * (1.0 / h);
    } else {
      pos_err = -penetration * erp * (1.0 / h);
    }
    double pen_imp = pos_err * D, vel_imp = vel_err * D, rhs, rhs_pen;
    if (p[Q_SPLIT] == 0.0 || penetration > p[Q_SPLITTHR]) {
      rhs = pen_imp + vel_imp;
      rhs_pen = 0.0;
    } else {
      rhs = vel_imp;
      rhs_pen = pen_imp;
      s->branch |= B_SPLIT;
    }
    if (vel_err + pos_err < -1e-9 * (fabs(rest) + fabs(u) + fabs(penetration) / h))
      s->branch |= B_CLAMP;
    double cfmD = cfmh * D;
    int iters = (int)p[Q_ITER];
    if (rhs_pen != 0.0)
      push = bt_sweeps(rhs_pen, cfmD, D, A, 0.0, iters, &pv);
    lam = bt_sweeps(rhs, cfmD, D, A, plane && had ? s->mem[0] * p[Q_WARM] : 0.0, iters, &dv);
  }
  s->mem[0] = exists ? lam : 0.0;
  s->mem[1] = exists;
  s->u = u - dv;
  if (st->gravity != 0.0) /* writeBackBodies: m_linearVelocity + m_externalForceImpulse (:1820-1822) */
    s->u += st->gravity * h;
  /* the position as the engine stores it: a coordinate z = R − x (R: the sphere's radius over the plane z = 0,
   * r1 + r2 for two spheres), moved by the push (writebackVelocityAndTransform) and then by h v
   * (integrateTransforms); the gap is read back from z, so it lives on the engine's grid of z */
  double R = p[Q_COORD], z = R - x;
  if (pv != 0.0)
    z = z + pv * h;
  z = z - s->u * h;
  s->x = R - z;
  s->f = (lam + push) / h;
  return 0;
}

/* The step's affine map (stepper.h: impactfit_step_affine) in contact (x > 0) without gravity, where the warm
 * start does not enter (sor 1: the first sweep lands on max(0, rhs) whatever the warm start; or no warm start):
 * with D = 1/(A + cfm/h) and κ = A D, the row asks for erp x/h + (1 + R') u (R' = restitution above the velocity
 * threshold, else 0); without the split impulse (x below its threshold depth) u' = u − κ max(0, that), x' = x + h
 * u'; with it (deeper) the push κ erp x leaves the velocity: u' = u − κ max(0, (1 + R') u), x' = x − κ erp x + h u'.
 * The clamp label's form is erp x/h + (1 + R') u in both (bt_step). The coordinate's rounding (Q_COORD) is not
 * followed: a run is exact arithmetic. */
/* The approach through the plane's breaking distance (bt_affine): the row exists, asks for r + u − g/h and is
 * clamped (the body would not cross the gap g = −x in this step), both labels beyond their bands, no warm start
 * left: the body drifts on. The stored coordinate z = R − x moves by z ← z − fl(u h), rounded to its grid: within
 * one binade of z (ulp q) that is a constant δ, the multiple of q nearest fl(u h) (a tie: not taken), and x = R
 * − z exactly (Sterbenz): x + n δ after n steps, to the bit, once x is on the grid (after a step). */
static int bt_affine_gap(const impactfit_stepper *st, const impactfit_step_state *s, impactfit_step_affine *a) {
  const double *p = st->p;
  double h = st->dt, x = s->x, u = s->u, thr = p[Q_BREAK], R = p[Q_COORD];
  int rest = p[Q_REST] > 0.0 && u >= p[Q_VTHR];
  double ru = rest ? 1.0 + p[Q_REST] : 1.0, band = 1e-9 * fmax(thr, h * fabs(u)), z = R - x;
  if (p[Q_PLANE] == 0.0 || s->mem[1] == 0.0 || s->mem[0] != 0.0 || !(u > 0.0) || !(-x < thr) || !(-x > band) ||
      u == p[Q_VTHR] || !(-(1.0 - 1e-9) / h * x - ru * (1.0 + 1e-9) * u > 0.0) || !(R > 0.0) ||
      !(z >= 0.5 * R && z <= 2.0 * R) || x != R - z)
    return 0;
  int E;
  frexp(z, &E); /* z in [2^(E−1), 2^E) */
  double q = ldexp(1.0, E - 53), d = u * h, M = floor(d / q), r = d - M * q;
  if (r == 0.5 * q)
    return 0;
  memset(a, 0, sizeof *a);
  a->dx = M * q + (r > 0.5 * q ? q : 0.0);
  double lo = ldexp(1.0, E - 1);                                   /* z stays in its binade: z − δ ≥ 2^(E−1) */
  a->G[0][0] = 1.0, a->G[0][2] = thr;                              /* within the breaking distance */
  a->G[1][0] = -1.0, a->G[1][2] = -band;                           /* a gap beyond the gap label's band */
  a->G[2][0] = -(1.0 - 1e-9) / h, a->G[2][1] = -ru * (1.0 + 1e-9); /* clamped beyond the clamp label's band */
  a->G[3][0] = -1.0, a->G[3][2] = R - lo - a->dx;
  a->n_forms = 4;
  return a->dx > 0.0;
}

/* Under gravity g (bt_step: the row's velocity takes g h, and so does the body's): in contact, without the split
 * impulse, the row pushing beyond its label's band, u' = u − κ (erp x/h + ru u + g h) + g h, x' = x + h u' (the
 * coordinate's rounding not followed, as bt_affine): the fixed point u = 0, x = g h² (1 − κ)/(κ erp), the body at
 * rest on the row. Elsewhere under gravity (the clamp, its band, the split impulse, the gap): stepped. */
static int bt_affine_gravity(const impactfit_stepper *st, const impactfit_step_state *s, impactfit_step_affine *a) {
  const double *p = st->p;
  double h = st->dt, x = s->x, u = s->u, R = p[Q_REST], thr = p[Q_VTHR], gh = st->gravity * h;
  if (!(x > 0.0) || (p[Q_SPLIT] != 0.0 && -x <= p[Q_SPLITTHR]) || (R > 0.0 && u == thr))
    return 0;
  double erp, cfm;
  bt_erp_cfm(st, &erp, &cfm);
  double g = p[Q_SOR] == 1.0 ? 1.0 : 1.0 - pow(1.0 - p[Q_SOR], p[Q_ITER]);
  double D = g / (1.0 / st->mass + cfm / h), k = D / st->mass;
  int rest = R > 0.0 && u >= thr;
  double ru = rest ? 1.0 + R : 1.0, lab = erp / h * x + ru * u + gh;
  if (!(lab > 1e-9 * (fabs(u) + x / h + fabs(gh))) || !(k > 0.0) || !(erp > 0.0))
    return 0;
  memset(a, 0, sizeof *a);
  a->G[0][0] = 1.0; /* penetrating */
  int n = 1;
  if (R > 0.0) { /* the side of the velocity threshold */
    a->G[n][1] = rest ? 1.0 : -1.0, a->G[n][2] = rest ? -thr : thr;
    n++;
  }
  if (p[Q_SPLIT] != 0.0) { /* shallower than the split threshold */
    a->G[n][0] = -1.0, a->G[n][2] = -p[Q_SPLITTHR];
    n++;
  }
  a->G[n][0] = erp / h, a->G[n][1] = ru, a->G[n][2] = gh; /* the row pushes */
  a->n_forms = n + 1;
  a->B[1][1] = -k * ru;
  a->B[1][0] = -k * erp / h;
  a->B[0][0] = h * a->B[1][0];
  a->B[0][1] = h * (1.0 + a->B[1][1]);
  a->F[0] = D * erp / (h * h), a->F[1] = D * ru / h, a->F[2] = D * st->gravity;
  a->X[0] = gh * h * (1.0 - k) / (k * erp);
  return 1;
}

static int bt_affine(const impactfit_stepper *st, const impactfit_step_state *s, impactfit_step_affine *a) {
  const double *p = st->p;
  double h = st->dt, x = s->x, u = s->u, R = p[Q_REST], thr = p[Q_VTHR];
  int warm = p[Q_PLANE] != 0.0 && p[Q_WARM] != 0.0;
  if (warm && p[Q_SOR] != 1.0)
    return 0;
  if (st->gravity != 0.0)
    return bt_affine_gravity(st, s, a);
  if (x < 0.0)
    return bt_affine_gap(st, s, a);
  if (!(x > 0.0))
    return 0;
  double erp, cfm;
  bt_erp_cfm(st, &erp, &cfm);
  /* the sweeps from 0 (sor 1: the first) leave lam = γ rhs/sor, γ = 1 − (1 − sor)^iterations (each stays > 0) */
  double g = p[Q_SOR] == 1.0 ? 1.0 : 1.0 - pow(1.0 - p[Q_SOR], p[Q_ITER]);
  double D = g / (1.0 / st->mass + cfm / h), k = D / st->mass;
  memset(a, 0, sizeof *a);
  a->G[0][0] = 1.0; /* penetrating */
  int n = 1, rest = R > 0.0 && u >= thr, split = p[Q_SPLIT] != 0.0 && -x <= p[Q_SPLITTHR];
  if (R > 0.0) { /* the side of the velocity threshold */
    if (u == thr)
      return 0;
    a->G[n][1] = rest ? 1.0 : -1.0, a->G[n][2] = rest ? -thr : thr;
    n++;
  }
  if (p[Q_SPLIT] != 0.0) { /* the side of the split threshold */
    if (-x == p[Q_SPLITTHR])
      return 0;
    a->G[n][0] = split ? 1.0 : -1.0, a->G[n][2] = split ? p[Q_SPLITTHR] : -p[Q_SPLITTHR];
    n++;
  }
  double ru = rest ? 1.0 + R : 1.0, lab = erp / h * x + ru * u; /* the clamp label's form */
  if (lab > 0.0) {
    a->G[n][0] = erp / h, a->G[n][1] = ru;
  } else if (!(u < 0.0)) { /* clamped: u < 0 (no restitution) */
    return 0;
  } else if (-lab > 1e-9 * (-u + x / h)) { /* beyond the label's band, 1e-9 (|u| + x/h) */
    a->G[n][0] = -(erp + 1e-9) / h, a->G[n][1] = -(1.0 - 1e-9);
  } else {
    /* inside the band (bt_step leaves the clamp label unset): clamped to a relative 1e-12 of the label's terms,
     * the label's side kept (a relative 1e-7 inside its band). With a small erp the band is wide in steps: contact
     * stiffness 1000 and damping 229 at dt 1e-7 s (erp 4.4e-7) drift out through it for 5235 steps. */
    if (!(-lab > 1e-12 * (-u + erp / h * x)) || n + 2 > 4)
      return 0;
    a->G[n][0] = -(1.0 + 1e-12) * erp / h, a->G[n][1] = -(1.0 - 1e-12);
    n++;
    double band = 1e-9 * (1.0 - 1e-7);
    a->G[n][0] = (erp + band) / h, a->G[n][1] = 1.0 - band;
  }
  n++;
  double ask = split ? ru * u : lab; /* what the impulse row asks for */
  int pushes = ask > 0.0;
  if (split && ask != lab) { /* the impulse row's own side */
    if (ask == 0.0 || n >= 4)
      return 0;
    a->G[n][1] = ask > 0.0 ? ru : -ru;
    n++;
  }
  if (!pushes && !(u < 0.0)) /* a clamped row stays clamped only as the body leaves */
    return 0;
  a->n_forms = n;
  double kr = pushes ? k * ru : 0.0; /* u' = u − κ ru u − (unsplit, pushing) κ erp x/h */
  a->B[1][1] = -kr;
  a->B[1][0] = pushes && !split ? -k * erp / h : 0.0;
  a->B[0][0] = h * a->B[1][0] - (split ? k * erp : 0.0);
  a->B[0][1] = h * (1.0 + a->B[1][1]);
  /* the force (lam + push)/h */
  a->F[0] = (pushes && !split ? D * erp / (h * h) : 0.0) + (split ? D * erp / (h * h) : 0.0);
  a->F[1] = pushes ? D * ru / h : 0.0;
  return 1;
}

static double bt_reach(const impactfit_stepper *st, double v) {
  (void)v;
  return st->p[Q_PLANE] != 0.0 ? st->p[Q_BREAK] : 0.0;
}

/* stiffness and damping without restitution tend to Kelvin–Voigt clamped at zero as h → 0 */
static int bt_continuous(const impactfit_stepper *st, impactfit_law *law, const impactfit_transition **end) {
  if (!is_stiff(st) || st->p[Q_REST] > 0.0)
    return IMPACTFIT_EINVAL;
  impactfit__row_kv_limit(st->p[Q_A], st->p[Q_B], law, end);
  return 0;
}

static const impactfit_stepper_type bt_restitution = {
    .name = "bullet-restitution",
    .summary = "Bullet 3.24 sequential impulse, one hard contact row (erp2, cfm) with restitution above the velocity "
               "threshold, rows before touching within the breaking distance, split impulse, warm start",
    .n_params = Q_COUNT,
    .param_names = rest_names,
    .param_units = rest_units,
    .needs_law = 0,
    .check = bt_check,
    .step = bt_step,
    .reach = bt_reach,
    .amplification = NULL,
    .continuous = bt_continuous,
    .affine = bt_affine,
};

static const impactfit_stepper_type bt_stiffness = {
    .name = "bullet-stiffness-damping",
    .summary = "Bullet 3.24 sequential impulse with contact stiffness k and damping c (erp = h k/(h k + c), cfm = "
               "1/(h k + c)): backward Euler of clamped Kelvin-Voigt with the rows before touching",
    .n_params = Q_COUNT,
    .param_names = stiff_names,
    .param_units = stiff_units,
    .needs_law = 0,
    .check = bt_check,
    .step = bt_step,
    .reach = bt_reach,
    .amplification = NULL,
    .continuous = bt_continuous,
    .affine = bt_affine,
};

static int is_stiff(const impactfit_stepper *st) { return st->type == &bt_stiffness; }

/* ---------------------------------------------------------------- the models */

#define BT_SOLVER_INPUTS                                                                                             \
  IMPACTFIT__IN_FRICTION("friction", "setFriction on the sphere (Bullet's default 0.5; two bodies' multiply)", 0.5), \
      {.name = "restitutionVelocityThreshold",                                                                       \
       .unit = "m/s",                                                                                                \
       .help = "btContactSolverInfo::m_restitutionVelocityThreshold: no restitution below this approach speed",      \
       .count = 1,                                                                                                   \
       .def = {0.2}},                                                                                                \
      {.name = "splitImpulse",                                                                                       \
       .unit = "0/1, m",                                                                                             \
       .help = "m_splitImpulse and m_splitImpulsePenetrationThreshold (the push acts below this negative distance)", \
       .count = 2,                                                                                                   \
       .def = {1.0, -0.04}},                                                                                         \
      {.name = "solver",                                                                                             \
       .unit = "-, -, -",                                                                                            \
       .help = "m_numIterations, m_sor, m_warmstartingFactor (0: SOLVER_USE_WARMSTARTING off)",                      \
       .count = 3,                                                                                                   \
       .def = {10.0, 1.0, 0.85}},                                                                                    \
  {                                                                                                                  \
    .name = "gContactBreakingThreshold", .unit = "-",                                                                \
    .help = "the global factor of the breaking distance (times sqrt(3) r for a sphere, the smaller body's)",         \
    .count = 1, .def = {                                                                                             \
      0.02                                                                                                           \
    }                                                                                                                \
  }

static const impactfit_code_input rest_inputs[] = {
    {.name = "restitution",
     .unit = "-",
     .help = "the combined restitution: the product of the two bodies' setRestitution values",
     .count = 1,
     .def = {NAN}},
    {.name = "erp2", .unit = "-", .help = "btContactSolverInfo::m_erp2 (contact ERP)", .count = 1, .def = {0.2}},
    {.name = "globalCfm", .unit = "m/N (s/kg)", .help = "btContactSolverInfo::m_globalCfm", .count = 1, .def = {0.0}},
    BT_SOLVER_INPUTS,
};

static const impactfit_code_input stiff_inputs[] = {
    {.name = "kp",
     .unit = "N/m",
     .help = "the contact stiffness of setContactStiffnessAndDamping on the sphere",
     .count = 1,
     .def = {NAN}},
    {.name = "kd",
     .unit = "N s/m",
     .help = "the contact damping of setContactStiffnessAndDamping on the sphere",
     .count = 1,
     .def = {NAN}},
    {.name = "other",
     .unit = "N/m, N s/m",
     .help = "the other body's (plane's) contact stiffness and damping (defaults when it was never set: 1e30, 0.1)",
     .count = 2,
     .def = {1e30, 0.1}},
    {.name = "restitution",
     .unit = "-",
     .help = "the combined restitution (product of the bodies' values; 0 by default)",
     .count = 1,
     .def = {0.0}},
    BT_SOLVER_INPUTS,
};

/* the settings every Bullet stepper shares */
static int bt_common(const impactfit_code_ctx *c, const impactfit_stepper_type *type, impactfit_stepper *st) {
  memset(st, 0, sizeof *st);
  st->type = type;
  st->end = impactfit_transition_C;
  st->mass = c->M;
  st->dt = c->dt;
  st->gravity = c->req->gravity; /* a sphere on a plane under gravity (drop tests) */
  double rmin = c->wall ? c->r1 : fmin(c->r1, c->r2);
  st->p[Q_VTHR] = impactfit_code_value(c, "restitutionVelocityThreshold")[0];
  st->p[Q_BREAK] = impactfit_code_value(c, "gContactBreakingThreshold")[0] * sqrt(3.0) * rmin;
  st->p[Q_PLANE] = c->wall ? 1.0 : 0.0;
  st->p[Q_COORD] = c->wall ? c->r1 : c->r1 + c->r2;
  const double *sp = impactfit_code_value(c, "splitImpulse"), *so = impactfit_code_value(c, "solver");
  st->p[Q_SPLIT] = sp[0];
  st->p[Q_SPLITTHR] = sp[1];
  st->p[Q_ITER] = so[0];
  st->p[Q_SOR] = so[1];
  st->p[Q_WARM] = so[2];
  return 0;
}

static int rest_build(const impactfit_code_ctx *c, double restitution, impactfit_stepper *st, impactfit_error *err) {
  bt_common(c, &bt_restitution, st);
  st->p[Q_A] = impactfit_code_value(c, "erp2")[0];
  st->p[Q_B] = impactfit_code_value(c, "globalCfm")[0];
  st->p[Q_REST] = restitution;
  return impactfit_stepper_check(st, err);
}

/* the combined stiffness and damping of the two bodies (btManifoldResult) */
static void stiff_combined(const impactfit_code_ctx *c, double kd, double *k, double *cd) {
  double kp = impactfit_code_value(c, "kp")[0];
  const double *o = impactfit_code_value(c, "other");
  *k = 1.0 / (1.0 / kp + 1.0 / o[0]);
  *cd = kd + o[1];
}

static int stiff_build(const impactfit_code_ctx *c, double kd, impactfit_stepper *st, impactfit_error *err) {
  double kp = impactfit_code_value(c, "kp")[0];
  const double *o = impactfit_code_value(c, "other");
  if (!(kp > 0.0 && isfinite(kp)) || !(o[0] > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "bullet contact stiffness damping: kp and the other body's stiffness must be > 0 (N/m) (got "
                           "%.17g, %.17g)",
                           kp, o[0]);
  if (!(kd >= 0.0 && isfinite(kd)) || !(o[1] >= 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "bullet contact stiffness damping: kd and the other body's damping must be >= 0 (N s/m) "
                           "(got %.17g, %.17g)",
                           kd, o[1]);
  bt_common(c, &bt_stiffness, st);
  stiff_combined(c, kd, &st->p[Q_A], &st->p[Q_B]);
  st->p[Q_REST] = impactfit_code_value(c, "restitution")[0];
  return impactfit_stepper_check(st, err);
}

static int rest_naive(const impactfit_code_ctx *c, double e, double *value, impactfit_text *what,
                      impactfit_error *err) {
  (void)c, (void)err;
  *value = e;
  impactfit_text_appendf(what, "restitution = e (Bullet's restitution, the product of the two bodies' values)");
  return 0;
}

static int stiff_naive(const impactfit_code_ctx *c, double e, double *value, impactfit_text *what,
                       impactfit_error *err) {
  (void)err;
  return impactfit__naive_kd(c, e, impactfit_code_value(c, "kp")[0], value, what);
}

static void world_text(const impactfit_code_ctx *c, impactfit_text *out) {
  impactfit_text_appendf(out, "world->stepSimulation(%.12g, 1, %.12g);", c->dt, c->dt);
  const double *sp = impactfit_code_value(c, "splitImpulse"), *so = impactfit_code_value(c, "solver");
  (void)sp;
  (void)so;
}

/* the user's friction, when typed, on the sphere (C++ and PyBullet); nothing otherwise: yours stays */
static void bt_friction(const impactfit_code_ctx *c, int python, impactfit_text *out) {
  if (!impactfit__friction_given(c, "friction"))
    return;
  double f = impactfit_code_value(c, "friction")[0];
  if (python)
    impactfit_text_appendf(out, ", lateralFriction=%.12g", f);
  else
    impactfit_text_appendf(out, "%s->setFriction(%.12g); ", c->wall ? "sphere" : "sphereA", f);
}

static void rest_input(const impactfit_code_ctx *c, double r, impactfit_text *out) {
  if (c->wall)
    impactfit_text_appendf(out, "sphere->setRestitution(%.12g); ground->setRestitution(1.0); ", r);
  else
    impactfit_text_appendf(out, "sphereA->setRestitution(%.12g); sphereB->setRestitution(1.0); ", r);
  bt_friction(c, 0, out);
  world_text(c, out);
  impactfit_text_appendf(out, "   (PyBullet: p.changeDynamics(sphereId, -1, restitution=%.12g", r);
  bt_friction(c, 1, out);
  impactfit_text_appendf(out, "); p.changeDynamics(%s, -1, restitution=1.0))", c->wall ? "planeId" : "otherId");
}

static void stiff_input(const impactfit_code_ctx *c, double kd, impactfit_text *out) {
  double kp = impactfit_code_value(c, "kp")[0];
  impactfit_text_appendf(out, "%s->setContactStiffnessAndDamping(%.12g, %.12g); ", c->wall ? "sphere" : "sphereA", kp,
                         kd);
  bt_friction(c, 0, out);
  world_text(c, out);
  impactfit_text_appendf(
      out, "   (PyBullet: p.changeDynamics(sphereId, -1, contactStiffness=%.12g, contactDamping=%.12g", kp, kd);
  bt_friction(c, 1, out);
  impactfit_text_appendf(out, "))");
}

static void bt_note_common(const impactfit_code_ctx *c, impactfit_text *out) {
  double rmin = c->wall ? c->r1 : fmin(c->r1, c->r2);
  double thr = impactfit_code_value(c, "gContactBreakingThreshold")[0] * sqrt(3.0) * rmin;
  if (c->wall)
    impactfit_text_appendf(out,
                           "The plane's contact exists from a gap of %.4g m (0.02 sqrt(3) r): a row acts before "
                           "touching whenever the sphere would cross the gap within the step. ",
                           thr);
  else
    impactfit_text_appendf(out,
                           "Two spheres get their contact point only when touching; it stays while the gap is below "
                           "%.4g m. ",
                           thr);
  impactfit_text_appendf(out,
                         "Step with stepSimulation(dt, 1, dt): the default fixedTimeStep is 1/60 s whatever dt you "
                         "pass. PyBullet's bodies are btMultiBody (another solver path, default step 1/240 s): its "
                         "keywords are given, its e was not measured here. ");
  impactfit__friction_note(c, "setFriction",
                           "measured in Bullet 3.24: friction 0.5 and 1, rolling friction 0.1 give the same bounce "
                           "heights bit for bit, tests/engines/bullet_scene.cpp",
                           out);
}

static void rest_note(const impactfit_code_ctx *c, double value, impactfit_text *out) {
  (void)value;
  double vt = impactfit_code_value(c, "restitutionVelocityThreshold")[0];
  impactfit_text_appendf(out,
                         "Bullet multiplies the two bodies' restitutions (the ground's default 0 gives 0): set the "
                         "other body's to 1. No restitution below the approach speed %g m/s; the ERP correction "
                         "adds erp2 phi v to the rebound. ",
                         vt);
  if (c->v < vt)
    impactfit_text_appendf(out, "At v = %g m/s < %g m/s restitution never acts. ", c->v, vt);
  bt_note_common(c, out);
}

static void stiff_note(const impactfit_code_ctx *c, double value, impactfit_text *out) {
  (void)value;
  const double *o = impactfit_code_value(c, "other");
  impactfit_text_appendf(out,
                         "Bullet adds the two bodies' contact damping: the other body's %g N s/m (its default 0.1 "
                         "unless you set it) is added to kd; stiffnesses combine in series. ",
                         o[1]);
  bt_note_common(c, out);
}

static const impactfit_code_ops rest_ops = {
    .build = rest_build, .lo = 1e-6, .hi = 1.0, .naive = rest_naive, .input = rest_input, .note = rest_note};
/* kd from 1e-6 to 100 times the critical 2 sqrt(k M) of the combined stiffness */
static void stiff_range(const impactfit_code_ctx *c, double *lo, double *hi) {
  double k, cd;
  stiff_combined(c, 0.0, &k, &cd);
  impactfit__range_critical(k, c->M, 1e-6, 1e2, lo, hi);
}

static const impactfit_code_ops stiff_ops = {.build = stiff_build,
                                             .lo = 1e-9,
                                             .hi = 1e9,
                                             .range = stiff_range,
                                             .naive = stiff_naive,
                                             .input = stiff_input,
                                             .note = stiff_note};

#define BT_SOURCE                                                                                             \
  "Bullet 3.24 src/BulletDynamics/ConstraintSolver/btSequentialImpulseConstraintSolver.cpp:79-101 (row "      \
  "iteration), 494-502 (restitutionCurve), 796-980 (setupContactConstraint: erp2/cfm or stiffness-damping, "  \
  "positive-distance rows, split impulse, warm start), 1696-1757 (iterations); btContactSolverInfo.h:79-112 " \
  "(defaults); btConvexPlaneCollisionAlgorithm.cpp:118-126, btSphereSphereCollisionAlgorithm.cpp:62-92, "     \
  "btSphereSphereCollisionAlgorithm.cpp:15,61-63 (CLEAR_MANIFOLD: no warm start between spheres), "           \
  "btPersistentManifold.cpp:247-290, btCollisionShape.cpp:30-55, btCollisionDispatcher.cpp:74-75 (contact "   \
  "points and the breaking distance); btManifoldResult.cpp:56-75 (combination rules)"
#define BT_BODIES                                                                                                   \
  "one row through the centres: 1/M = 1/m1 + 1/m2 (a static plane has inverse mass 0); the breaking distance is "   \
  "0.02 sqrt(3) times the smaller radius; restitution is the product of the bodies' values, contact damping their " \
  "sum, contact stiffness 1/(1/k1 + 1/k2)"

static const impactfit_code_integrator bt_rest_integrators[] = {
    {.name = "sequential-impulse",
     .stepper = &bt_restitution,
     .summary = "btSequentialImpulseConstraintSolver with a hard row (erp2, cfm) and restitution"},
};
static const impactfit_code_integrator bt_stiff_integrators[] = {
    {.name = "sequential-impulse",
     .stepper = &bt_stiffness,
     .summary = "btSequentialImpulseConstraintSolver with the contact stiffness and damping row"},
};

#define BT_ENTRY                                                                                                      \
  .code = &impactfit__code_bullet, .option = "", .versions = "3.24", .first_version = "3.24", .version_min = 3024000, \
  .version_max = 3024000, .run_min = 3024000, .run_max = 3024000, .run_versions = "3.24 (Debian 12, bullet-float64)", \
  .law = NULL, .clamp_default = 1, .dt_default = 1.0 / 60.0, .solver = IMPACTFIT_CODE_SOLVE_MEAN,                     \
  .end = "C (the impulse is >= 0)", .bodies = BT_BODIES, .source = BT_SOURCE,                                         \
  .mixing = "restitution: the product of the two bodies' values; contact damping: the sum; contact "                  \
            "stiffness: 1/(1/k1 + 1/k2) (btManifoldResult.cpp:56-75)",                                                \
  .assumes = "a head-on impact through the centres with no tangential motion (friction is yours: measured, it does "  \
             "not change the normal response), gravity along the normal as the request gives it (0: none)",           \
  .precision = "float64 (the double build, pkg-config bullet-float64; Debian's default bullet is float32)"

static const impactfit_code_model models[] = {
    IMPACTFIT__ENTRY(
        BT_ENTRY, .model = "restitution", .integrators = bt_rest_integrators,
        .n_integrators = IMPACTFIT__COUNT(bt_rest_integrators), .param = "restitution", .param_unit = "-",
        .param_input = "restitution", .param_index = 0, .param_takes_zero = 1,
        .law_text = "a hard row (erp2 0.2, cfm 0) asking for the separating speed r + erp2 delta/h, r = restitution u "
                    "when "
                    "u >= the velocity threshold (0.2 m/s), else 0; at a gap g below the breaking distance the row "
                    "asks "
                    "for "
                    "r - g/h (acts when the body would cross the gap in this step); impulse P = max(0, ...)/(1/M + "
                    "cfm/h), "
                    "u <- u - P/M, x <- x + h u",
        .traps = "three thresholds decide: the velocity threshold (no restitution below 0.2 m/s), the breaking "
                 "distance "
                 "(rows before touching: at small steps they stop the sphere before contact, e = 0 at h = 1e-4 s for a "
                 "5 mm sphere at 1 m/s), the split-impulse threshold (-0.04 m: shallower penetrations feed the ERP "
                 "correction into the rebound velocity, e = r + 0.2 phi: between two spheres e is never r, whatever "
                 "h); "
                 "the product rule makes e = 0 when the ground "
                 "keeps its default restitution 0; the default fixedTimeStep is 1/60 s",
        .n_inputs = IMPACTFIT__COUNT(rest_inputs), .inputs = rest_inputs, .ops = &rest_ops),
    IMPACTFIT__ENTRY(
        BT_ENTRY, .model = "contact stiffness damping", .integrators = bt_stiff_integrators,
        .n_integrators = IMPACTFIT__COUNT(bt_stiff_integrators), .param = "kd", .param_unit = "N s/m",
        .param_input = "kd", .param_index = 0,
        .law_text = "setContactStiffnessAndDamping(k, c): erp = h k/(h k + c), cfm = 1/(h k + c); impulse P = max(0, "
                    "(u + "
                    "erp delta/h)/(1/M + cfm/h)) in contact (backward Euler of k delta + c delta' clamped at 0), P = "
                    "max(0, "
                    "(u - g/h)/(1/M + cfm/h)) at a gap g below the breaking distance; u <- u - P/M, x <- x + h u",
        .traps = "first order in h (backward Euler plus the rows before touching); the damping-ratio formula for kd "
                 "assumes the contact ends at delta = 0 and gives e = 0.253/0.550/0.902 for 0.1/0.5/0.9 even as h -> 0 "
                 "(the row only pushes: the contact ends where the force falls to zero); the other body's default "
                 "contact damping 0.1 N s/m is added",
        .n_inputs = IMPACTFIT__COUNT(stiff_inputs), .inputs = stiff_inputs, .ops = &stiff_ops),
};

const impactfit_code impactfit__code_bullet = {
    .name = "bullet",
    .display = "Bullet",
    .kind = "engine",
    .default_version = "3.24",
    .version_example = "3.24",
    .version_key = impactfit_code_version_dotted,
    .model_prefix = NULL,
    .run_versions = "3.24 (Debian 12)",
    .models = models,
    .n_models = sizeof models / sizeof models[0],
};
