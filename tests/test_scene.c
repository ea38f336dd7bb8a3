/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The user's scene (issue 33) without the real codes: gravity in the steppers, drop tests (include/impactfit/
 * drop.h), MuJoCo's regulariser ratio in the impedance law, and the DEM mixing rules (include/impactfit/
 * mixing.h), against closed forms and an independent loop written here. (The codes themselves:
 * tests/engines/mujoco_scene.c, ode_scene.c, bullet_scene.cpp, tests/dem/run_mixing.py.) */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "impactfit/code_drop.h"
#include "impactfit/codes.h"
#include "impactfit/drop.h"
#include "impactfit/law.h"
#include "impactfit/mixing.h"
#include "impactfit/stepper.h"
#include "testutil.h"

/* Kelvin–Voigt k x + c u clamped at zero, Euler, under gravity */
static impactfit_stepper kv(double k, double c, double M, double h, double g) {
  impactfit_stepper st;
  memset(&st, 0, sizeof st);
  st.type = impactfit_stepper_euler;
  st.law = impactfit_law_power_make(k, 1.0, c, 0.0);
  st.end = impactfit_transition_C;
  st.mass = M;
  st.dt = h;
  st.gravity = g;
  return st;
}

static void test_fit(void) {
  double h[16];
  for (int k = 0; k <= 15; k++)
    h[k] = 0.8 * pow(0.7, 2.0 * k);
  double h0, r2, e = impactfit_drop_fit_heights(h, 15, &h0, &r2);
  CHECK_REL(e, 0.7, 1e-14, "the fit of an exact geometric sequence");
  CHECK_REL(h0, 0.8, 1e-13, "its intercept");
  CHECK_ABS(r2, 1.0, 1e-14, "its R^2");
  CHECK(isnan(impactfit_drop_fit_heights(h, 0, NULL, NULL)), "no bounce: NaN");
  h[3] = 0.0;
  CHECK(isnan(impactfit_drop_fit_heights(h, 15, NULL, NULL)), "a height of 0: NaN");
}

/* the drop stepped by a loop written here: an impact from the first step with a force to the first step after
 * which the bodies are apart and separating with no force; the apex is the largest gap at a step start between */
static int loop_apexes_f0(double k, double c, double f0, double M, double h, double g, double H, int n, double *apex) {
  double x = -H, u = 0.0, top = 0.0;
  int found = 0, in = 0, pending = 0;
  for (long s = 0; s < 10000000L && found < n; s++) {
    double f = x > 0.0 ? fmax(0.0, k * x + c * u + f0) : 0.0;
    u += h * (g - f / M);
    x += h * u;
    if (!in && f != 0.0) {
      if (pending)
        apex[found++] = top;
      pending = 0;
      in = 1;
    }
    if (in) {
      if (x <= 0.0 && u < 0.0 && f == 0.0) {
        in = 0;
        pending = 1;
        top = -x;
      }
    } else if (pending && -x > top) {
      top = -x;
    }
  }
  return found;
}

static int loop_apexes(double k, double c, double M, double h, double g, double H, int n, double *apex) {
  return loop_apexes_f0(k, c, 0.0, M, h, g, H, n, apex);
}

static void test_drop_loop(void) {
  /* 0.5 kg, k 1e5 N/m, c for a damping ratio 0.1, h 1e-4 s (70 steps a contact), 1 m, g 9.81 */
  double M = 0.5, k = 1e5, c = 0.2 * sqrt(k * M), h = 1e-4, g = 9.81;
  impactfit_stepper st = kv(k, c, M, h, g);
  impactfit_drop_params p = impactfit_drop_default_params();
  p.bounces = 12;
  impactfit_drop_result r;
  impactfit_error err;
  int s = impactfit_drop_run(&st, &p, &r, &err);
  CHECK(s == 0, "drop run: %s", err.message);
  double ap[16];
  int n = loop_apexes(k, c, M, h, g, 1.0, 12, ap);
  CHECK(n == 12 && r.n == 12, "12 bounces each (loop %d, library %d)", n, r.n);
  for (int i = 0; i < 12 && i < r.n && i < n; i++)
    CHECK_REL(r.b[i].apex, ap[i], 1e-12, "apex %d against the loop written here", i + 1);
  /* each bounce's e is about the continuous one, exp(-zeta pi/sqrt(1 - zeta^2)) clamped: within the step's and
   * gravity's share (a few 1e-3 here) */
  double z = 0.1, e_kv = exp(-z * M_PI / sqrt(1 - z * z));
  CHECK_ABS(r.e_fit, e_kv, 0.02, "the fit near the Kelvin-Voigt e");
  CHECK(r.end == IMPACTFIT_DROP_COUNTED, "counted to the end");
  /* v_in of the first impact: the free fall of Euler from rest over the steps before it */
  CHECK_REL(r.b[0].v_in, g * h * r.b[0].first_step, 1e-12, "the first impact's speed is g h steps");
  /* a threshold ends the sequence uncounted */
  p.min_height = 0.05;
  s = impactfit_drop_run(&st, &p, &r, &err);
  CHECK(s == 0 && r.end == IMPACTFIT_DROP_LOW && r.low_apex < 0.05 && r.n < 12, "an apex below min_height ends it");
  for (int i = 0; i < r.n; i++)
    CHECK(r.b[i].apex >= 0.05, "counted apexes are above the threshold");
  /* a time bound */
  p.min_height = 0.0;
  p.t_max = 1.0;
  s = impactfit_drop_run(&st, &p, &r, &err);
  CHECK(s == 0 && r.end == IMPACTFIT_DROP_TIME && r.steps == 10000, "t_max: %ld steps", r.steps);
  /* critically damped: the ball rests on the contact after the first bounce */
  p.t_max = 0.0;
  impactfit_stepper dead = kv(k, 2.0 * sqrt(k * M), M, h, g);
  p.rest_steps = 20000;
  s = impactfit_drop_run(&dead, &p, &r, &err);
  CHECK(s == 0 && r.end == IMPACTFIT_DROP_REST && r.n == 1, "a damping ratio of 1 rests (end %d, %d bounces)", r.end,
        r.n);
  /* bad input */
  impactfit_stepper ng = kv(k, c, M, h, 0.0);
  CHECK(impactfit_drop_run(&ng, &p, &r, &err) == IMPACTFIT_EINVAL, "no gravity: EINVAL");
  p.bounces = 0;
  CHECK(impactfit_drop_run(&st, &p, &r, &err) == IMPACTFIT_EINVAL, "no bounces: EINVAL");
}

typedef struct {
  double k, M, h, g;
} fam;

static int build(const void *ctx, double ratio, impactfit_stepper *st, impactfit_error *err) {
  (void)err;
  const fam *f = ctx;
  *st = kv(f->k, 2.0 * ratio * sqrt(f->k * f->M), f->M, f->h, f->g);
  return 0;
}

static void test_drop_solve(void) {
  fam f = {1e5, 0.5, 2e-5, 9.81};
  impactfit_drop_params p = impactfit_drop_default_params();
  p.bounces = 6;
  double ratio;
  impactfit_drop_stats S;
  impactfit_error err;
  int s = impactfit_drop_solve(build, &f, &p, 0, 0.7, 1e-3, 2.0, NAN, 1e-9, &ratio, &S, &err);
  CHECK(s == 0 || s == IMPACTFIT_ENOCONV, "drop solve: %s", err.message);
  CHECK_ABS(S.exact.e_fit, 0.7, s == 0 ? 1e-9 : 1e-4, "the solved release's fit");
  impactfit_stepper st;
  build(&f, ratio, &st, NULL);
  impactfit_drop_result r;
  impactfit_drop_run(&st, &p, &r, &err);
  CHECK_ABS(r.e_fit, S.exact.e_fit, 0.0, "the answer's stepper gives the answer's fit");
  CHECK(S.determined >= 1 && S.determined <= S.exact.n, "determined bounces %d of %d", S.determined, S.exact.n);
  /* the distribution over releases */
  impactfit_drop_stats D;
  s = impactfit_drop_stats_run(&st, &p, 8, &D, &err);
  CHECK(s == 0 && D.samples == 8 && D.e_min <= D.e_mean && D.e_mean <= D.e_max && D.e_sd >= 0.0,
        "the distribution over 8 releases: %g <= %g <= %g", D.e_min, D.e_mean, D.e_max);
  /* out of reach */
  s = impactfit_drop_solve(build, &f, &p, 0, 0.999, 0.3, 2.0, NAN, 1e-9, &ratio, &S, &err);
  CHECK(s == IMPACTFIT_ENOROOT && strstr(err.message, "fits from"), "unreachable: ENOROOT with the range: %s",
        err.message);
}

/* gravity in one impact: the first contact step starts at x = φ v dt with u = v exactly (Euler's free flight run
 * backwards), and a body too slow to leave rests (e = 0) */
static void test_gravity_impact(void) {
  impactfit_stepper st = kv(1e5, 10.0, 0.5, 1e-4, 9.81);
  impactfit_step_impact o;
  impactfit_error err;
  int s = impactfit_step_impact_at(&st, 1.0, 0.37, &o, &err);
  CHECK(s == 0, "impact with gravity: %s", err.message);
  CHECK_REL(o.x_first, 0.37 * 1.0 * 1e-4, 1e-9, "the first contact step's penetration is phi v dt");
  impactfit_stepper r4 = st;
  r4.type = impactfit_stepper_rk4;
  s = impactfit_step_impact_at(&r4, 1.0, 0.37, &o, &err);
  /* RK4's free step moves x by dt u + g dt^2/2: the last one before contact travels dt (v - g dt) + g dt^2/2 */
  CHECK(s == 0, "RK4 impact with gravity: %s", err.message);
  CHECK_REL(o.x_first, 0.37 * (1e-4 * (1.0 - 9.81e-4) + 0.5 * 9.81e-8), 1e-9, "RK4: phi times the last free travel");
  impactfit_step_impact slow;
  s = impactfit_step_impact_at(&st, 1e-4, 0.5, &slow, &err);
  CHECK(s == IMPACTFIT_EINVAL && strstr(err.message, "too slow"), "v below g dt: EINVAL (%s)", err.message);
  /* a body that cannot leave: overdamped, slow (but above g dt), rests on the contact: e = 0 */
  impactfit_stepper od = kv(1e5, 4.0 * sqrt(1e5 * 0.5), 0.5, 1e-4, 9.81);
  s = impactfit_step_impact_at(&od, 0.01, 0.5, &slow, &err);
  CHECK(s == 0 && slow.e == 0.0, "overdamped at 1 cm/s under gravity: rests (e %g, status %d: %s)", slow.e, s,
        err.message);
  impactfit_stepper bad = st;
  bad.gravity = NAN;
  CHECK(impactfit_step_impact_at(&bad, 1.0, 0.5, &o, &err) == IMPACTFIT_EINVAL, "NaN gravity: EINVAL");
}

/* the impedance law's rscale and g against the formula */
static void test_impedance_cone(void) {
  impactfit_law law = {.type = impactfit_law_impedance};
  double p[10] = {0.01, 100.0, 2e4, 0.9, 0.95, 0.001, 0.5, 2.0, 0.15625, 9.81};
  memcpy(law.p, p, sizeof p);
  impactfit_error err;
  CHECK(impactfit_law_check(&law, &err) == 0, "rscale law checks: %s", err.message);
  double x = 4e-4, u = 0.3, d = impactfit_law_impedance_d(p + 3, x, NULL);
  double want = 0.01 * d / (d + 0.15625 * (1 - d)) * (100.0 * u + 2e4 * d * x + 9.81);
  CHECK_REL(impactfit_law_force(&law, x, u, 0), want, 1e-14, "f = M d/(d + rscale (1 - d)) (B u + K d x + g)");
  /* the derivatives against central differences */
  double fd, fr, hx = 1e-9, hu = 1e-7;
  law.type->force(law.p, x, u, &fd, &fr);
  double nd = (law.type->force(law.p, x + hx, u, NULL, NULL) - law.type->force(law.p, x - hx, u, NULL, NULL)) /
              (2 * hx);
  double nr = (law.type->force(law.p, x, u + hu, NULL, NULL) - law.type->force(law.p, x, u - hu, NULL, NULL)) /
              (2 * hu);
  CHECK_REL(fd, nd, 1e-6, "df/ddelta");
  CHECK_REL(fr, nr, 1e-8, "df/drate");
  law.p[8] = 0.0;
  CHECK(impactfit_law_check(&law, &err) == IMPACTFIT_EINVAL && strstr(err.message, "rscale"), "rscale 0 is refused: %s",
        err.message);
}

static void test_mixing(void) {
  double E = 7e10, nu = 0.25;
  CHECK_REL(impactfit_mix_estar(E, nu, E, nu), E / (2 * (1 - nu * nu)), 1e-15, "E* of one material");
  CHECK_REL(impactfit_mix_gstar(E, nu, E, nu), E / (4 * (2 - nu) * (1 + nu)), 1e-15, "G* of one material");
  CHECK_REL(impactfit_mix_estar(1e8, 0.3, 5e8, 0.2), impactfit_mix_estar(5e8, 0.2, 1e8, 0.3), 1e-15, "symmetric");
  CHECK(isnan(impactfit_mix_estar(1e8, 0.5, 1e8, 0.3)), "nu = 0.5 refused");
  /* the pair_coeff 1 2 material: LAMMPS's own line coefficients of it are the two materials' E* and G* */
  double E12, nu12;
  impactfit_error err;
  int s = impactfit_lammps_pair_material(1e8, 0.3, 5e8, 0.2, &E12, &nu12, &err);
  CHECK(s == 0, "pair material: %s", err.message);
  CHECK_REL(E12 / (2 * (1 - nu12 * nu12)), impactfit_mix_estar(1e8, 0.3, 5e8, 0.2), 1e-14, "its E*");
  CHECK_REL(E12 / (4 * (2 - nu12) * (1 + nu12)), impactfit_mix_gstar(1e8, 0.3, 5e8, 0.2), 1e-14, "its G*");
  s = impactfit_lammps_pair_material(E, nu, E, nu, &E12, &nu12, &err);
  CHECK(s == 0 && fabs(E12 / E - 1) < 1e-14 && fabs(nu12 - nu) < 1e-14, "one material gives itself back");
  for (double c = 0.05; c < 1.0; c += 0.15)
    CHECK_ABS(impactfit_lammps_tsuji_cor(impactfit_lammps_tsuji_alpha(c)), c, 1e-13, "tsuji cor(alpha(%g))", c);
  CHECK(isnan(impactfit_lammps_tsuji_cor(10.0)), "alpha out of range: NaN");
  double li[3] = {1e8, 0.4, 0.3}, lj[3] = {5e8, 0.7, 0.2};
  impactfit_lammps_mixed_pair mp;
  s = impactfit_lammps_mix("hertz/material", "tsuji", li, lj, &mp, &err);
  double ci = 4.0 / 3.0 * 1e8 / (2 * (1 - 0.09)), cj = 4.0 / 3.0 * 5e8 / (2 * (1 - 0.04));
  CHECK(s == 0, "lammps mix: %s", err.message);
  CHECK_REL(mp.kn, sqrt(ci * cj), 1e-14, "mixed kn = sqrt of the lines' 4/3 E*");
  CHECK_REL(mp.eta, sqrt(impactfit_lammps_tsuji_alpha(0.4) * impactfit_lammps_tsuji_alpha(0.7)), 1e-14,
            "mixed eta = sqrt of the alphas");
  CHECK(impactfit_lammps_mix("jkr2", "tsuji", li, lj, &mp, &err) == IMPACTFIT_EINVAL, "unknown model: EINVAL");
  /* tsuji is scale-free: the same e over sizes and speeds */
  const impactfit_code_model *md = NULL;
  s = impactfit_code_model_find("lammps", NULL, "granular hertz/material", "tsuji", &md, &err);
  CHECK(s == 0, "lammps tsuji entry");
  if (md) {
    impactfit_code_request rq = impactfit_code_request_default();
    impactfit_code_setting set[2] = {{.name = "E", .count = 1, .values = {1e8}},
                                     {.name = "nu", .count = 1, .values = {0.3}}};
    rq.model = md;
    rq.settings = set;
    rq.n_settings = 2;
    rq.bodies.pair = 1;
    impactfit_code_spread sp;
    s = impactfit_code_forward_spread(&rq, 0.5, 2500, 2500, 0.002, 0.01, 0.3, 3.0, 3, NAN, &sp, &err);
    CHECK(s == 0 && sp.evaluations == 27, "spread over 3 x 3 x 3: %s", err.message);
    CHECK_ABS(sp.e_max - sp.e_min, 0.0, 1e-10, "tsuji: one e over sizes and speeds");
  }
}


/* a rebound slower than g dt: its flight is one step (apart and separating at the step start, approaching at its
 * end), its apex that step start. ODE's `bounce` entry (dContactBounce, bounce_vel 0.1 m/s) at dt 0.01: from
 * 1.0290682453998345 m, bounce 0.7776355623, 15 apexes (the largest gap at the step starts between the contact
 * steps) measured in ODE 0.16.2 (Debian's libode-dev, dWorldStep, the drop of tests/engines/ode_scene.c); the 13th
 * to 15th follow rebounds of 0.084 m/s or less (g dt = 0.098 m/s): an impact that waits for a separating state
 * after a step without force merged them into one and rested */
static void test_drop_short_flights(void) {
  static const double ode[15] = {0.6138741966206821,     0.36943684815201649,    0.21868399875895636,
                                 0.12640313390501101,    0.073421706387647806,   0.042458775676231714,
                                 0.024330898183801283,   0.014877189585372916,   0.0077858401696119933,
                                 0.0050097288911298554,  0.0025876017230070658,  0.0010788247309721222,
                                 0.00074599108289748195, 0.00035039577998807747, 3.6061712691548564e-06};
  const impactfit_code_model *md = NULL;
  impactfit_error err;
  int s = impactfit_code_model_find("ode", NULL, "bounce", NULL, &md, &err);
  CHECK(s == 0, "ode bounce entry: %s", err.message);
  if (!md)
    return;
  impactfit_code_setting set[1] = {{.name = "bounce", .count = 2, .values = {0.5, 0.1}}};
  impactfit_code_request q = impactfit_code_request_default();
  q.model = md;
  q.settings = set;
  q.n_settings = 1;
  q.bodies.pair = 0;
  q.bodies.r1 = 0.1;
  q.bodies.m1 = 0.5;
  q.dt = 0.01;
  q.gravity = 9.81;
  impactfit_stepper st;
  s = impactfit_code_stepper(&q, 0.7776355623, &st, &err);
  CHECK(s == 0, "ode bounce stepper: %s", err.message);
  if (s)
    return;
  impactfit_drop_params p = impactfit_drop_default_params();
  p.height = 1.0290682453998345;
  impactfit_drop_result r;
  s = impactfit_drop_run(&st, &p, &r, &err);
  CHECK(s == 0 && r.n == 15 && r.end == IMPACTFIT_DROP_COUNTED, "15 apexes counted (%d, end %d)", r.n, r.end);
  for (int i = 0; i < 15 && i < r.n; i++)
    CHECK_REL(r.b[i].apex, ode[i], 1e-9, "apex %d against ODE 0.16.2's", i + 1);
  /* the one-step flights: v_out = -u after the impact's last step, the apex at the next step start */
  if (r.n == 15) {
    CHECK(r.b[12].v_out < 9.81 * 0.01 && r.b[12].contact_steps == 1, "the 13th: a rebound below g dt (%.9g m/s)",
          r.b[12].v_out);
    CHECK_REL(r.b[13].t_apex - r.b[12].t_apex, 0.03, 1e-9, "the 13th and 14th apexes 3 steps apart");
  }
}

/* the registry's drop answer (impactfit_code_drop: what `impactfit engine --drop` and impactfit.drop print) on
 * MuJoCo's soft contact with a constant impedance (solimp d0 = dwidth = 0.9, condim 1): the law is then
 * f = M d (B u + K d x + g) with B = 2/(dwidth timeconst), K = 1/(dwidth^2 timeconst^2 dampratio^2), and
 * MuJoCo's Euler u += h (g - f/M), x += h u: the loop above with k = M d^2 K, c = M d B, f0 = M d g */
static void test_code_drop(void) {
  const impactfit_code_model *md = NULL;
  impactfit_error err;
  int s = impactfit_code_model_find("mujoco", NULL, "soft contact", NULL, &md, &err);
  CHECK(s == 0, "mujoco entry: %s", err.message);
  if (!md)
    return;
  impactfit_code_setting set[2] = {{.name = "solimp", .count = 5, .values = {0.9, 0.9, 0.001, 0.5, 2}},
                                   {.name = "condim", .count = 1, .values = {1}}};
  impactfit_code_request q = impactfit_code_request_default();
  q.model = md;
  q.settings = set;
  q.n_settings = 2;
  q.bodies.pair = 0;
  q.bodies.r1 = 0.1;
  q.bodies.m1 = 0.5;
  q.dt = 0.002;
  q.e = 0.75;
  impactfit_drop_params p = impactfit_drop_default_params();
  p.bounces = 8;
  p.min_height = 0.002;
  impactfit_code_drop_answer a;
  s = impactfit_code_drop(&q, &p, 8, &a, &err);
  CHECK(s == 0 && a.reachable && a.gravity == 9.81, "code drop: %s", err.message);
  if (s == 0 && a.reachable) {
    const impactfit_drop_result *R = &a.stats.exact;
    double d = 0.9, tc = 0.02, M = 0.5, B = 2.0 / (d * tc), K = 1.0 / (d * d * tc * tc * a.value * a.value);
    double ap[IMPACTFIT_DROP_MAX_BOUNCES];
    int n = loop_apexes_f0(M * d * d * K, M * d * B, M * d * 9.81, M, 0.002, 9.81, 1.0, R->n, ap);
    CHECK(n == R->n && R->n >= 3, "the loop counts the answer's %d bounces (%d)", R->n, n);
    /* the loop's arithmetic differs from the stepper's by rounding only: the first apex within 1e-12, the
     * determined ones within drop.h's 1e-6 (the later ones are the chaotic sequence's own draw: 2.3e-8 at the 6th
     * apex, 1.5e-5 at the 8th here) */
    CHECK(a.stats.determined >= 2 && a.stats.determined < R->n, "code drop: %d of %d bounces determined",
          a.stats.determined, R->n);
    CHECK_REL(R->b[0].apex, ap[0], 1e-12, "code drop: the first apex against the loop written here");
    for (int i = 0; i < n && i < a.stats.determined; i++)
      CHECK_REL(R->b[i].apex, ap[i], 1e-6, "code drop: determined apex %d against the loop written here", i + 1);
    double h[IMPACTFIT_DROP_MAX_BOUNCES + 1] = {1.0};
    for (int i = 0; i < R->n; i++)
      h[i + 1] = R->b[i].apex;
    CHECK_REL(R->e_fit, impactfit_drop_fit_heights(h, R->n, NULL, NULL), 1e-14, "code drop: the fit of its apexes");
    double want = a.on == IMPACTFIT_CODE_DROP_RELEASE ? R->e_fit : a.stats.e_mean;
    CHECK_ABS(want, 0.75, a.jump ? 0.01 : 1e-9, "code drop: the fit it was solved on is the asked e (on %d)", a.on);
    CHECK(strstr(a.input, "solref=\"0.02 ") != NULL, "code drop: the paste text: %s", a.input);
  }
  impactfit_code_drop_free(&a);
  /* a sequence that ends at rest names the speed of the impact that rested: ODE's bounce acts only above
   * bounce_vel = 0.1 m/s, and the last rebound (the speed that impact came in at) is below it */
  s = impactfit_code_model_find("ode", NULL, "bounce", NULL, &md, &err);
  impactfit_code_setting ob = {.name = "bounce", .count = 2, .values = {0.5, 0.1}};
  impactfit_code_request qo = q;
  qo.model = md;
  qo.settings = &ob;
  qo.n_settings = 1;
  qo.bodies.r1 = 0.005;
  qo.bodies.m1 = 0.001309;
  qo.dt = 0.01;
  qo.e = 0.5;
  impactfit_drop_params po = impactfit_drop_default_params();
  s = s ? s : impactfit_code_drop(&qo, &po, 8, &a, &err);
  CHECK(s == 0 && a.reachable, "ode drop: %s", err.message);
  if (s == 0 && a.reachable) {
    const impactfit_drop_result *R = &a.stats.exact;
    char want[96];
    snprintf(want, sizeof want, "that impact came in at about %.6g m/s", R->n ? R->b[R->n - 1].v_out : NAN);
    CHECK(R->end == IMPACTFIT_DROP_REST && R->n >= 2 && R->b[R->n - 1].v_out < 0.1 && R->b[R->n - 2].v_out > 0.1 &&
              strstr(a.note, want),
          "ode drop: rests after the last rebound below bounce_vel (end %d, %d bounces): %s", R->end, R->n, a.note);
  }
  impactfit_code_drop_free(&a);
  /* a model that does not model gravity, a continuous-time integrator, bad parameters */
  s = impactfit_code_model_find("dart", NULL, NULL, NULL, &md, &err);
  q.model = md;
  q.n_settings = 0;
  s = impactfit_code_drop(&q, &p, 8, &a, &err);
  CHECK(s == IMPACTFIT_EINVAL && strstr(err.message, "does not model gravity"), "dart: %s", err.message);
  impactfit_code_drop_free(&a);
  p.height = -1.0;
  s = impactfit_code_drop(&q, &p, 8, &a, &err);
  CHECK(s == IMPACTFIT_EINVAL && strstr(err.message, "height"), "height -1: %s", err.message);
  impactfit_code_drop_free(&a);
}

int main(void) {
  test_fit();
  test_drop_loop();
  test_drop_short_flights();
  test_drop_solve();
  test_code_drop();
  test_gravity_impact();
  test_impedance_cone();
  test_mixing();
  return tu_report("test_scene");
}
