/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Project Chrono in the code registry (src/codes/chrono.c, formula only): one set of models for the continuous-time
 * e (integrator "continuous", `impactfit dem`) and the e at Chrono's step (`impactfit engine`), with one mass
 * convention (the fixed wall's mass in the damper). Against derivations written here from the source reading:
 *  - the laws: E = 1/((1 − ν1²)/E1 + (1 − ν2²)/E2), M = m1 mw/(m1 + mw) at a wall (the fixed wall's mass counts),
 *    β = ln cr/√(ln² cr + π²), Hertz: K = (4/3) E √R, C = 2 √(5/6) |β| √(2 E √R M); Hooke: K = a (M V²/a)^(1/5),
 *    a = (16/15) √R E, C = √(4 M K/(1 + (π/ln cr)²)); PlainCoulomb: Hertz with R = 1 in √(R δ); kn/gn: Hertz
 *    K = R kn, C = R M gn, Hooke K = kn, C = M gn, PlainCoulomb K = kn, C = gn;
 *  - the step maps (linearized implicit Euler, EULER_EXPLICIT, RUNGE_KUTTA with the stored force) written out;
 *  - the continuous-time e of Hertz by a Runge–Kutta integration written here (long double, steps growing
 *    with t from the singular start δ^(1/4)): the smallest reachable e, at Chrono's clamp cr = ε, is
 *    0.136019 for two spheres and 0.136138 for a 1.309 g sphere on the default 1 kg wall, at every E, R, v;
 *  - the restitution-to-e map is one: the continuous integrator's e equals the stepped answer's continuous e. */
#include <float.h>

#include "codes_test.h"

#define CHRONO_FIND(model, option) ct_find("chrono", NULL, model, option)

static ct_request chrono_request(const char *model, const char *option, double dt) {
  ct_request r = ct_make(CHRONO_FIND(model, option));
  r.q.dt = dt;
  return r;
}

static int kind_is_hooke(const char *model) { return strncmp(model, "hooke", 5) == 0 || !strcmp(model, "flores"); }

/* The laws, derived here from the source reading (docs/engines/CHRONO.md): E = 1/((1 − ν1²)/E1 + (1 − ν2²)/E2),
 * M = m1 mw/(m1 + mw) at a wall (the fixed wall's mass counts), β = ln cr/√(ln² cr + π²),
 *   Hertz: kn δ = (2/3) 2 E √(R δ) δ, gn = −2 √(5/6) β √(2 E √(R δ) M): K = (4/3) E √R, C = 2 √(5/6) |β| √(2 E √R M)
 *   Hooke: K = a (M V²/a)^(1/5), a = (16/15) √R E; C = √(4 M K/(1 + (π/ln cr)²))
 *   PlainCoulomb: Hertz with R = 1 in √(R δ)
 *   kn/gn: Hertz K = R kn, C = R M gn; Hooke K = kn, C = M gn; PlainCoulomb K = kn, C = gn. */
static void test_chrono_laws(void) {
  struct {
    const char *model, *option;
    double n, m;
  } cases[] = {{"hertz", "", 1.5, 0.25},        {"hooke", "", 1.0, 0.0},   {"flores", "", 1.0, 0.0},
               {"plaincoulomb", "", 1.5, 0.25}, {"hertz", "gn", 1.5, 0.5}, {"hooke", "gn", 1.0, 0.0},
               {"plaincoulomb", "gn", 1.5, 0.5}};
  double E1 = 7e7, E2 = 2e9, nu1 = 0.35, nu2 = 0.25, mw = 0.3, Reff = 0.004, V = 2.5, cr = 0.62, kn = 3e6, gn = 55;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const impactfit_code_model *md = CHRONO_FIND(cases[i].model, cases[i].option);
    if (!md)
      return;
    CHECK(md->run_min == 0 && !strcmp(md->integrators[0].name, "euler-implicit-linearized") &&
              !md->integrators[md->n_integrators - 1].stepper,
          "%s: formula only, the default timestepper first, continuous time last", cases[i].model);
    for (int plane = 1; plane >= 0; plane--) {
      ct_request r = ct_make(md);
      r.q.dt = 1e-5;
      if (!plane) {
        r.q.bodies.r2 = 0.01;
        r.q.bodies.m2 = 0.004;
      }
      int mat = !*cases[i].option;
      if (mat) {
        ct_set(&r, "young_modulus", 2, E1, E2);
        ct_set(&r, "poisson_ratio", 2, nu1, nu2);
      } else {
        ct_set1(&r, "kn", kn);
      }
      ct_set1(&r, "wall_mass", mw);
      if (strcmp(cases[i].model, "plaincoulomb") != 0 && !(mat == 0 && !strcmp(cases[i].model, "hooke")))
        ct_set1(&r, "eff_radius", Reff);
      if (mat && kind_is_hooke(cases[i].model))
        ct_set1(&r, "impact_velocity", V);
      impactfit_stepper st;
      impactfit_error err;
      double p = mat ? cr : gn;
      int s = impactfit_code_stepper(ct_q(&r), p, &st, &err);
      CHECK(s == 0, "chrono %s stepper: %s", cases[i].model, s ? err.message : "");
      double Mdyn = plane ? CT_M5 : CT_M5 * 0.004 / (CT_M5 + 0.004);
      double M = plane ? CT_M5 * mw / (CT_M5 + mw) : Mdyn;
      double E = 1.0 / ((1 - nu1 * nu1) / E1 + (1 - nu2 * nu2) / E2);
      double L = log(cr), beta = L / sqrt(L * L + M_PI * M_PI), K = 0, C = 0;
      char mo[32];
      snprintf(mo, sizeof mo, "%s%s", cases[i].model, mat ? "" : " gn");
      if (!strcmp(mo, "hertz")) {
        K = 4.0 / 3.0 * E * sqrt(Reff);
        C = 2 * sqrt(5.0 / 6) * fabs(beta) * sqrt(2 * E * sqrt(Reff) * M);
      } else if (!strcmp(mo, "hooke") || !strcmp(mo, "flores")) {
        double a = 16.0 / 15.0 * sqrt(Reff) * E;
        K = a * pow(M * V * V / a, 0.2);
        C = sqrt(4 * M * K / (1 + (M_PI / L) * (M_PI / L)));
      } else if (!strcmp(mo, "plaincoulomb")) {
        K = 4.0 / 3.0 * E;
        C = 2 * sqrt(5.0 / 6) * fabs(beta) * sqrt(2 * E * M);
      } else if (!strcmp(mo, "hertz gn")) {
        K = Reff * kn;
        C = Reff * M * gn;
      } else if (!strcmp(mo, "hooke gn")) {
        K = kn;
        C = M * gn;
      } else {
        K = kn;
        C = gn;
      }
      CHECK(st.type == impactfit_stepper_euler && st.end == impactfit_transition_C, "%s: euler, clamped", mo);
      CHECK_REL(st.law.p[0], K, 1e-13, "chrono %s plane=%d: K", mo, plane);
      CHECK_REL(st.law.p[2], C, 1e-13, "chrono %s plane=%d: C", mo, plane);
      CHECK(st.law.p[1] == cases[i].n && st.law.p[3] == cases[i].m, "chrono %s: n, m", mo);
      CHECK_REL(st.mass, Mdyn, 1e-15, "chrono %s plane=%d: the bodies' own mass steps", mo, plane);
    }
  }
}


/* versions: 4.0.0 on (3.0.0 had R = 1 m); Flores from 6.0.0 (5.0.x: no normal force) */
static void test_chrono_versions(void) {
  const impactfit_code_model *md;
  impactfit_error err;
  CHECK(impactfit_code_model_find("chrono", "4.0.0", "Hertz", NULL, &md, &err) == 0, "Hertz 4.0.0");
  CHECK(impactfit_code_model_find("chrono", "10.0.0", "hertz", NULL, &md, &err) == 0, "Hertz 10.0.0");
  CHECK(impactfit_code_model_find("chrono", "3.0.0", "Hertz", NULL, &md, &err) == IMPACTFIT_EINVAL, "not 3.0.0");
  CHECK(impactfit_code_model_find("chrono", "5.0.1", "Flores", NULL, &md, &err) == IMPACTFIT_EINVAL, "Flores not "
                                                                                                     "5.0.1");
  CHECK(impactfit_code_model_find("chrono", "6.0.0", "Flores", NULL, &md, &err) == 0, "Flores 6.0.0");
  CHECK(strcmp(impactfit_code_from_name("chrono")->default_version, "10.0.0") == 0, "chrono's newest version read");
  CHECK(impactfit_code_model_find("chrono", NULL, "Hertz", NULL, &md, &err) == 0 && !*md->option, "Hertz default");
  ct_request r = ct_make(md);
  r.q.e = 0.5;
  impactfit_code_answer a = {0};
  CHECK(ct_solve(&r, &a, &err) == 0 && !a.stepped && !strcmp(a.integrator->name, "continuous") && isnan(a.dt),
        "chrono has no default step: no integrator and no dt give the continuous-time answer (%s)", err.message);
  impactfit_code_answer_free(&a);
  r.q.integrator = "euler-implicit-linearized";
  CHECK(ct_solve(&r, &a, &err) == IMPACTFIT_EINVAL && strstr(err.message, "give dt"),
        "a stepped integrator without dt: %s", err.message);
  impactfit_code_answer_free(&a);
}

/* Chrono's timestep as derived from ChTimestepperEulerImplicitLinearized and ChContactSMC (the force of the
 * step's start, stored; v' = v + h F/m; x' = x + h v'), written out here for the Hertz model with
 * material properties, against impactfit_step_impact_at; and the other two maps. */
static double chrono_hertz_force(double x, double u, double E, double R, double M, double cr) {
  double L = log(cr), beta = L / sqrt(L * L + M_PI * M_PI);
  double Sn = 2 * E * sqrt(R * x), kn = 2.0 / 3.0 * Sn, gn = -2 * sqrt(5.0 / 6) * beta * sqrt(Sn * M);
  double f = kn * x + gn * u; /* Fn = kn δ − gn v_n with v_n = −δ' */
  return f < 0 ? 0 : f;
}

static double chrono_impact(int map, double v, double phi, double h, double E, double R, double Mcode, double m,
                            double cr) {
  double x = (phi - 2.0) * v * h, u = v;
  for (long k = 0; k < 10000000L; k++) {
    double f = x > 0 ? chrono_hertz_force(x, u, E, R, Mcode, cr) : 0.0, a = -f / m;
    if (map == 0) { /* linearized implicit Euler */
      u += h * a;
      x += h * u;
    } else if (map == 1) { /* EULER_EXPLICIT */
      x += h * u;
      u += h * a;
    } else { /* RUNGE_KUTTA: the stored force over the step */
      x += h * u + 0.5 * h * h * a;
      u += h * a;
    }
    if (k > 2 && x <= 0 && u < 0 && f == 0)
      return -u / v;
  }
  return NAN;
}

static void test_chrono_steps(void) {
  const char *ints[] = {"euler-implicit-linearized", "euler-explicit", "runge-kutta"};
  double E = 1e7, nu = 0.3, cr = 0.45, h = 2e-5, v = 1.3;
  double Es = 1.0 / (2 * (1 - nu * nu) / E), Mcode = CT_M5 * 1.0 / (CT_M5 + 1.0);
  for (int mi = 0; mi < 3; mi++) {
    ct_request r = chrono_request("hertz", NULL, h);
    r.q.v = v;
    r.q.integrator = ints[mi];
    ct_set(&r, "young_modulus", 2, E, E);
    ct_set(&r, "poisson_ratio", 2, nu, nu);
    impactfit_stepper st;
    impactfit_error err;
    if (impactfit_code_stepper(ct_q(&r), cr, &st, &err)) {
      CHECK(0, "chrono stepper %s: %s", ints[mi], err.message);
      continue;
    }
    for (double phi = 0.05; phi < 1.0; phi += 0.3) {
      impactfit_step_impact im;
      int s = impactfit_step_impact_at(&st, v, phi, &im, &err);
      double want = chrono_impact(mi, v, phi, h, Es, 0.1, Mcode, CT_M5, cr);
      CHECK(s == 0, "chrono %s impact: %s", ints[mi], s ? err.message : "");
      CHECK_ABS(im.e, want, 1e-12, "chrono %s phi=%g: e of the step map", ints[mi], phi);
    }
  }
}

/* forward Euler on a linear spring-dashpot is unstable when h² k/M > h c/M (|λ|² = det = 1 − h b + h² a):
 * Chrono's EULER_EXPLICIT with Hooke kn, gn */
static void test_chrono_explicit_stability(void) {
  double kn = 1e5, h = 1e-5;
  impactfit_code_answer a = {0};
  for (int i = 0; i < 2; i++) {
    double gn = i == 0 ? 0.5 * h * kn / CT_M5 : 4.0 * h * kn / CT_M5; /* b = gn, a = 2 kn/M5: h b below / above h^2 a */
    ct_request r = chrono_request("hooke", "gn", h);
    r.q.integrator = "euler-explicit";
    r.q.bodies.r2 = CT_R5;
    r.q.bodies.m2 = CT_M5; /* two spheres: no wall mass */
    ct_set1(&r, "kn", kn);
    r.q.value = gn;
    impactfit_error err;
    int s = ct_solve(&r, &a, &err);
    CHECK(s == 0, "explicit euler forward: %s", s ? err.message : "");
    CHECK(a.stable == (i == 1), "explicit euler stable = %d for gn = %g (h b %s h^2 a)", a.stable, gn, i ? ">" : "<");
  }
  impactfit_code_answer_free(&a);
}

/* ---------------------------------------------------------------- one answer */

/* The continuous-time e of m δ'' = −max(0, K δ^(3/2) + C δ^(1/4) δ') from δ = 0, δ' = v, ending where the force
 * falls to zero (or δ = 0): classic Runge–Kutta in long double with a step h = min(H, t/64) that grows with t
 * from the singular start, the end located by bisection on the last step. */
typedef struct hz {
  long double K, C, m;
} hz;

static long double hz_force(const hz *p, long double x, long double u) {
  if (x <= 0.0L)
    return 0.0L;
  return p->K * powl(x, 1.5L) + p->C * powl(x, 0.25L) * u;
}

static void hz_step(const hz *p, long double h, long double *x, long double *u) {
  long double x0 = *x, u0 = *u;
  long double k1x = u0, k1u = -hz_force(p, x0, u0) / p->m;
  long double k2x = u0 + 0.5L * h * k1u, k2u = -hz_force(p, x0 + 0.5L * h * k1x, k2x) / p->m;
  long double k3x = u0 + 0.5L * h * k2u, k3u = -hz_force(p, x0 + 0.5L * h * k2x, k3x) / p->m;
  long double k4x = u0 + h * k3u, k4u = -hz_force(p, x0 + h * k3x, k4x) / p->m;
  *x = x0 + h / 6.0L * (k1x + 2.0L * k2x + 2.0L * k3x + k4x);
  *u = u0 + h / 6.0L * (k1u + 2.0L * k2u + 2.0L * k3u + k4u);
}

static double hertz_e(double K, double C, double m, double v) {
  hz p = {K, C, m};
  long double T = powl(2.5L * m * v * v / (2.0L * K), 0.4L) / v; /* δ_m0/v: the contact lasts a few of it */
  long double H = T * 2e-5L, t = T * 1e-14L, x = v * t, u = v;
  for (long k = 0; k < 10000000L; k++) {
    long double h = fminl(H, t / 64.0L), xn = x, un = u;
    hz_step(&p, h, &xn, &un);
    if (xn <= 0.0L || (un < 0.0L && hz_force(&p, xn, un) <= 0.0L)) { /* the end lies in this step */
      long double lo = 0.0L, hi = h;
      for (int i = 0; i < 80; i++) {
        long double mid = 0.5L * (lo + hi), xm = x, um = u;
        hz_step(&p, mid, &xm, &um);
        if (xm <= 0.0L || (um < 0.0L && hz_force(&p, xm, um) <= 0.0L))
          hi = mid;
        else
          lo = mid;
      }
      long double xe = x, ue = u;
      hz_step(&p, hi, &xe, &ue);
      return (double)(-ue / v);
    }
    x = xn;
    u = un;
    t += h;
  }
  return NAN;
}

/* Chrono's Hertz at restitution cr: K = (4/3) E √R, C = 2 √(5/6) |β| √(2 E √R M_code), the motion of mass m */
static double chrono_hertz_e(double cr, double E, double R, double Mcode, double m, double v) {
  double L = cr < DBL_EPSILON ? log(DBL_EPSILON) : log(cr), beta = L / sqrt(L * L + M_PI * M_PI);
  double K = 4.0 / 3.0 * E * sqrt(R), C = 2.0 * sqrt(5.0 / 6.0) * fabs(beta) * sqrt(2.0 * E * sqrt(R) * Mcode);
  return hertz_e(K, C, m, v);
}

static void test_one_answer(void) {
  impactfit_code_answer a = {0}, b = {0};
  impactfit_error err;
  /* the smallest e, derived here: scale-free, so one integration each */
  double mw = 1.0, M_wall = CT_M5 * mw / (CT_M5 + mw);
  double e_pair = chrono_hertz_e(DBL_EPSILON, 1e8, 0.1, 0.5 * CT_M5, 0.5 * CT_M5, 1.0);
  double e_wall = chrono_hertz_e(DBL_EPSILON, 1e8, 0.1, M_wall, CT_M5, 1.0);
  printf("chrono hertz, cr = eps: e = %.9f (two spheres), %.9f (on the 1 kg wall)\n", e_pair, e_wall);
  CHECK_ABS(e_pair, 0.136019, 1e-6, "the smallest e for two spheres, derived here");
  CHECK_ABS(e_wall, 0.136138, 1e-6, "the smallest e on the default 1 kg wall, derived here");
  /* every command answers it, at every E, R, v: the continuous integrator at Chrono's clamp */
  const double Es[3] = {2e5, 1e8, 7e10}, Rs[3] = {0.1, 0.003, 2.0}, vs[3] = {0.05, 1.0, 30.0};
  for (int pair = 0; pair < 2; pair++)
    for (int i = 0; i < 3; i++) {
      ct_request r = chrono_request("hertz", NULL, NAN);
      r.q.integrator = "continuous";
      r.q.v = vs[i];
      if (pair) {
        r.q.bodies.pair = 1;
      }
      ct_set1(&r, "young_modulus", Es[i]);
      ct_set1(&r, "eff_radius", Rs[i]);
      r.q.value = DBL_EPSILON;
      CHECK(ct_solve(&r, &a, &err) == 0 && !a.stepped, "chrono continuous forward: %s", err.message);
      CHECK_ABS(a.e, pair ? e_pair : e_wall, 1e-8, "chrono %s, E %g R %g v %g: cr = eps gives the smallest e",
                pair ? "two spheres" : "wall", Es[i], Rs[i], vs[i]);
      CHECK(a.R == Rs[i], "the answer's R is Chrono's eff_radius %g, not the bodies' (got %g)", Rs[i], a.R);
      r.q.value = NAN;
      r.q.e = 0.1;
      char want[64];
      snprintf(want, sizeof want, "the smallest e it can give is %.6f", pair ? 0.136019 : 0.136138);
      CHECK(ct_solve(&r, &a, &err) == 0 && !a.reachable && strstr(a.note, want),
            "chrono continuous: e = 0.1 unreachable, %s: %.300s", want, a.note);
      /* at a step: the note states the same continuous-time bound */
      r.q.integrator = NULL;
      r.q.dt = 1e-4;
      r.q.e = NAN;
      r.q.value = 0.5;
      snprintf(want, sizeof want, "No restitution gives less than e = %.6f", pair ? 0.136019 : 0.136138);
      /* (E 7e10, R 2 m, v 30 m/s blows up at 1e-4 s: a forward answer then is the error, with the step's limit) */
      int s = ct_solve(&r, &a, &err);
      if (i == 2)
        CHECK(s == IMPACTFIT_ENONFINITE && strstr(err.message, "unstable") && strstr(err.message, "largest step"),
              "chrono at dt, stiff: %d %s", s, s ? err.message : "");
      else
        CHECK(s == 0 && strstr(a.note, want), "chrono at dt: %s: %.300s", want, s ? err.message : a.note);
    }
  /* the restitution-to-e map is one: the continuous integrator's e is the stepped answer's continuous e, and
   * the independent integration's */
  for (int k = 0; k < 3; k++) {
    double cr = 0.1 + 0.4 * k;
    ct_request r = chrono_request("hertz", NULL, NAN);
    ct_set1(&r, "young_modulus", 1e7);
    r.q.value = cr;
    r.q.integrator = "continuous";
    CHECK(ct_solve(&r, &a, &err) == 0, "continuous cr %g", cr);
    r.q.integrator = NULL;
    r.q.dt = 1e-5;
    CHECK(ct_solve(&r, &b, &err) == 0 && b.stepped, "stepped cr %g", cr);
    double want = chrono_hertz_e(cr, 1e7, 0.1, M_wall, CT_M5, 1.0);
    CHECK_ABS(a.e, want, 1e-8, "cr %g: the continuous integrator's e vs the integration here", cr);
    CHECK_ABS(b.e_continuous, a.e, 1e-9, "cr %g: the stepped answer's continuous e is the continuous answer's", cr);
    CHECK(fabs(b.e - a.e) < 1e-2, "cr %g: at dt = 1e-5 the mean e (%g) is near it", cr, b.e);
  }
  impactfit_code_answer_free(&a);
  impactfit_code_answer_free(&b);
}

int main(void) {
  test_chrono_laws();
  test_chrono_versions();
  test_chrono_steps();
  test_chrono_explicit_stability();
  test_one_answer();
  return tu_report("test_chrono");
}
