/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Bullet 3.24 in the code registry (src/codes/bullet.c; the row derived in docs/engines/BULLET.md; the engine
 * itself: tests/engines/bullet_impacts.cpp):
 *  - restitution r on the plane at h = 1e-3 s, v = 1 m/s, 5 mm sphere: with tau = 0.02 √3 r_s/(v h) the breaking
 *    distance in steps, e(φ) = r + erp2 φ for φ < 1 − tau (one row, its ERP term erp2 φ v h/h in the velocity)
 *    and r − (1 − φ) above (the gap row of the step before stops the body at the surface; the next step's
 *    restitution r v minus the ERP-free speed): mean r + erp2 (1 − tau)²/2 − tau²/2, range (r − tau, r + erp2
 *    (1 − tau)); two spheres (no row before touching): e = r + erp2 φ at any h;
 *  - contact stiffness and damping, one step in contact with no clamp: the row's impulse (u + erp x/h)/(1/M +
 *    cfm/h), erp = hk/(hk + c), cfm = 1/(hk + c), is backward Euler of M u' = −k x − c u: u' = (M u − h k x)/(M +
 *    h c + h² k), x' = x + h u';
 *  - dt → 0: the stiffness-damping mean tends to law.h's continuous e of clamped Kelvin–Voigt at first order
 *    (Richardson-extrapolated from three steps). */
#include "codes_test.h"
#include "law/step_internal.h"

static ct_request bullet_request(const char *model, double dt, int plane) {
  ct_request r = ct_make(ct_find("bullet", NULL, model, NULL));
  r.q.dt = dt;
  if (!plane) {
    r.q.bodies.r2 = CT_R5;
    r.q.bodies.m2 = CT_M5;
  }
  return r;
}

/* contact stiffness and damping on the plane at dt with kp 1000, the plane's own stiffness 1e30 and damping 0 (the
 * sphere's alone act) */
static ct_request stiff_request(double dt) {
  ct_request r = bullet_request("contact stiffness damping", dt, 1);
  ct_set1(&r, "kp", 1e3);
  ct_set(&r, "other", 2, 1e30, 0.0);
  return r;
}

/* 12. restitution */
static void test_bullet_restitution(void) {
  impactfit_error err;
  impactfit_stepper st;
  impactfit_step_stats S;
  ct_request rq = bullet_request("restitution", 1e-3, 1);
  for (int k = 0; k < 3; k++) {
    double r = 0.3 + 0.2 * k, tau = 0.02 * sqrt(3.0) * 0.005 / 1e-3;
    CHECK(impactfit_code_stepper(ct_q(&rq), r, &st, &err) == 0, "bullet: restitution stepper");
    for (int i = 1; i < 16; i++) {
      double phi = i / 16.0, want = phi < 1.0 - tau ? r + 0.2 * phi : r - (1.0 - phi);
      impactfit_step_impact o;
      CHECK(impactfit_step_impact_at(&st, 1.0, phi, &o, &err) == 0 && fabs(o.e - want) < 1e-12,
            "bullet: restitution %g, e(%g) = %.15g (closed form %.15g)", r, phi, o.e, want);
    }
    CHECK(impactfit_step_phase_stats(&st, 1.0, &S, &err) == 0, "bullet: restitution stats");
    double mean = r + 0.2 * (1 - tau) * (1 - tau) / 2 - tau * tau / 2;
    CHECK(fabs(S.e_mean - mean) < 1e-11 && fabs(S.e_min - (r - tau)) < 1e-9 &&
              fabs(S.e_max - (r + 0.2 * (1 - tau))) < 1e-9,
          "bullet: restitution %g mean %.15g [%.12g, %.12g] (closed form %.15g [%.12g, %.12g])", r, S.e_mean, S.e_min,
          S.e_max, mean, r - tau, r + 0.2 * (1 - tau));
  }
  /* two spheres: e = r + erp2 phi at h = 1e-4 (no row before touching), mean r + 0.1 */
  rq = bullet_request("restitution", 1e-4, 0);
  CHECK(impactfit_code_stepper(ct_q(&rq), 0.5, &st, &err) == 0 && impactfit_step_phase_stats(&st, 1.0, &S, &err) == 0,
        "bullet: spheres stats");
  CHECK(fabs(S.e_mean - 0.6) < 1e-11 && fabs(S.e_min - 0.5) < 1e-9 && fabs(S.e_max - 0.7) < 1e-9,
        "bullet: two spheres, restitution 0.5 at 1e-4: mean %.15g [%.12g, %.12g] (want 0.6 [0.5, 0.7])", S.e_mean,
        S.e_min, S.e_max);
  /* the plane at 1e-4: the rows before touching stop the sphere (the e = 0) */
  rq = bullet_request("restitution", 1e-4, 1);
  CHECK(impactfit_code_stepper(ct_q(&rq), 0.5, &st, &err) == 0 && impactfit_step_phase_stats(&st, 1.0, &S, &err) == 0 &&
            S.e_max < 1e-12,
        "bullet: the plane at 1e-4, restitution 0.5 gives %.3g", S.e_max);
}

/* 13. one stiffness-damping step is backward Euler */
static void test_bullet_backward_euler(void) {
  impactfit_error err;
  impactfit_stepper st;
  ct_request rq = stiff_request(1e-3);
  double c = 0.3;
  CHECK(impactfit_code_stepper(ct_q(&rq), c, &st, &err) == 0, "bullet: stiffness stepper");
  double k = 1.0 / (1.0 / 1e3 + 1.0 / 1e30), M = st.mass, h = st.dt;
  impactfit_step_state s;
  memset(&s, 0, sizeof s);
  s.x = 2e-4;
  s.u = 0.7;
  s.mem[1] = 1.0; /* an existing point with no impulse: no warm start */
  double u1 = (M * s.u - h * k * s.x) / (M + h * c + h * h * k), x1 = s.x + h * u1;
  CHECK(st.type->step(&st, &s) == 0 && fabs(s.u - u1) < 1e-14 && fabs(s.x - x1) < 1e-17,
        "bullet: one step (%.17g, %.17g), backward Euler (%.17g, %.17g)", s.x, s.u, x1, u1);
}

/* 14. dt -> 0 */
static void test_bullet_limit(void) {
  impactfit_error err;
  impactfit_stepper st;
  impactfit_step_stats S;
  double em[3];
  for (int i = 0; i < 3; i++) {
    ct_request rq = stiff_request(4e-5 / (1 << i));
    CHECK(impactfit_code_stepper(ct_q(&rq), 0.5, &st, &err) == 0 && impactfit_step_phase_stats(&st, 1.0, &S, &err) == 0,
          "bullet: limit stats");
    em[i] = S.e_mean;
  }
  double ex = (8.0 * em[2] - 6.0 * em[1] + em[0]) / 3.0, d1 = em[1] - S.e_continuous, d2 = em[2] - S.e_continuous;
  CHECK(fabs(d1 / d2 - 2.0) < 0.1, "bullet: first order in h (%.6g %.6g)", d1, d2);
  CHECK(fabs(ex - S.e_continuous) < 3e-5, "bullet: the extrapolated mean %.9g is the continuous e %.9g", ex,
        S.e_continuous);
}

/* 15. An overdamped contact (stiffness 1000, damping 229 at dt 1e-7 s: erp 4.4e-7) ends in a drift out of 2.3e6
 * steps with the impulse clamped to 0, the clamp label's band, 1e-9 (|u| + x/h), keeping the label unset for its
 * first ~5000 steps. In that band the step map is a drift, taken at once (bt_affine) up to the band's end: from a
 * state a third of the way in, the run's end against the same steps one by one (u the same to the bit, x within
 * the coordinate's rounding, ulp(R) a step; every step without force and with the first one's branch), and the
 * label set within 3 steps of it. At 0.1 m/s one impact's work is at most 100 steps (it was 5277: the band's steps
 * and the drift after them were computed one by one). */
static void test_bullet_band_drift(void) {
  impactfit_error err;
  impactfit_stepper st;
  ct_request rq = stiff_request(1e-7);
  double c = 228.823, k = 1.0 / (1.0 / 1e3 + 1.0 / 1e30), h = 1e-7, erp = h * k / (h * k + c);
  CHECK(impactfit_code_stepper(ct_q(&rq), c, &st, &err) == 0, "bullet: stiffness stepper: %s", err.message);
  impactfit_step_state pre, s;
  memset(&pre, 0, sizeof pre);
  pre.x = 5.7e-7;
  pre.u = -erp / h * pre.x * (1.0 + 1e-3); /* -lab = 1e-3 erp x/h: 0.44 of the band */
  pre.mem[1] = 1.0;                        /* an existing point with no impulse */
  s = pre;
  CHECK(st.type->step(&st, &s) == 0 && s.f == 0.0 && s.u == pre.u, "bullet band drift: the first step: f %g", s.f);
  impactfit_step_affine A;
  impactfit_step_state run = s;
  long n = st.type->affine(&st, &pre, &A)
               ? impactfit__step_affine_run(&A, &run, 1000000, 1e-12 * 0.1 * st.mass / h, NULL)
               : 0;
  CHECK(n > 2000, "bullet band drift: the run in the band took %ld steps (want > 2000)", n);
  int branch = s.branch, same = 1;
  for (long i = 0; i < n; i++)
    same &= st.type->step(&st, &s) == 0 && s.f == 0.0 && s.branch == branch;
  double R = 2.0 * 0.005, ulp = nextafter(R, 1.0) - R;
  CHECK(same && s.u == run.u && fabs(s.x - run.x) <= (double)n * ulp,
        "bullet band drift: %ld steps: x %.17g, u %.17g one by one, x %.17g, u %.17g at once (%s)", n, s.x, s.u, run.x,
        run.u, same ? "each without force, one branch" : "a step with force or another branch");
  int flipped = 0;
  for (int i = 0; i < 3 && !flipped; i++) {
    CHECK(st.type->step(&st, &run) == 0, "bullet band drift: step");
    flipped = run.branch != branch;
  }
  CHECK(flipped, "bullet band drift: the run stopped more than 3 steps short of the band's end");
  rq = bullet_request("contact stiffness damping", 1e-7, 1);
  ct_set1(&rq, "kp", 1e3);
  impactfit_step_impact o;
  CHECK(impactfit_code_stepper(ct_q(&rq), c, &st, &err) == 0 && impactfit_step_impact_at(&st, 0.1, 0.5, &o, &err) == 0,
        "bullet band drift: impact: %s", err.message);
  CHECK(o.steps > 2000000 && o.work <= 100 && o.e > 2e-5 && o.e < 3e-5,
        "bullet band drift: %ld steps, work %ld (at most 100), e %.17g", o.steps, o.work, o.e);
}

/* 16. a drop under gravity that the rows before touching stop (1e-5 s, 1 m/s, the plane): the body comes to rest
 * at the surface, where Bullet's rows alternate two states (a speed of 0 and -2^-66 m/s); the impact ends there
 * with e = 0 (at_rest), not after the step limit's 1e6 steps a phase (4.1 s for the answer before). The truth:
 * 2e5 more steps of the map, one by one, never leave the surface. */
static void test_bullet_gravity_rest(void) {
  impactfit_error err;
  impactfit_stepper st;
  ct_request rq = bullet_request("restitution", 1e-5, 1);
  rq.q.gravity = 9.81;
  rq.q.bodies.m1 = 0.001309; /* the request that took 4.1 s (CT_M5 = 0.00130900 reaches a fixed point instead) */
  CHECK(impactfit_code_stepper(ct_q(&rq), 0.5, &st, &err) == 0, "bullet gravity: stepper: %s", err.message);
  impactfit_step_impact o;
  int rc = impactfit_step_impact_at(&st, 1.0, 0.3, &o, &err);
  CHECK(rc == 0 && o.e == 0.0 && o.work <= 2000,
        "bullet gravity: at rest: status %d, e %.3g, work %ld (at most 2000): %s", rc, o.e, o.work,
        rc ? err.message : "");
  impactfit_step_state s;
  memset(&s, 0, sizeof s);
  s.x = -(1.0 - 0.3) * 1e-5 - 1e-3;
  s.u = 1.0;
  double umax = 0.0, xmin = 0.0;
  int ok = 1;
  for (long k = 0; k < 200000 && ok; k++) {
    ok = st.type->step(&st, &s) == 0;
    if (k > 1000) {
      umax = fmax(umax, fabs(s.u));
      xmin = fmin(xmin, s.x);
    }
  }
  CHECK(ok && umax <= 1e-15 && xmin >= 0.0, "bullet gravity: stepped on, |u| up to %.3g, x down to %.3g (want 0)", umax,
        xmin);
  impactfit_step_stats S;
  CHECK(impactfit_step_phase_stats(&st, 1.0, &S, &err) == 0 && S.e_max == 0.0,
        "bullet gravity: the phase statistics: e up to %.3g: %s", S.e_max, err.message);
}

/* 17. under gravity, the contact stiffness and damping's row pushing (no split impulse): a run at once about the
 * map's fixed point (x = g h^2 (1 - kappa)/(kappa erp)) against the same steps one by one */
static void test_bullet_gravity_runs(void) {
  static const double hs[2] = {1e-4, 1e-6};
  for (int j = 0; j < 2; j++) {
    ct_request rq = stiff_request(hs[j]);
    long n; /* in contact, an existing point, the row pushing */
    double d = ct_gravity_run(&rq, 1.0, 2e-3, 0.1, 1.0, 2000, &n);
    CHECK(n >= 10 && d <= 1e-12,
          "bullet gravity h %g: %ld steps at once, off the steps by %.3g (want 10 or more, within "
          "1e-12)",
          hs[j], n, d);
  }
}

int main(void) {
  test_bullet_gravity_runs();
  test_bullet_gravity_rest();
  test_bullet_restitution();
  test_bullet_backward_euler();
  test_bullet_limit();
  test_bullet_band_drift();
  return tu_report("test_bullet");
}
