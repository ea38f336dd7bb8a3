/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The engine registry (include/impactfit/engines.h) against independent derivations: the adaptive
 * (continuous) stepper, Simbody's Hunt–Crossley contact (against hc.h's exact relation
 * (1 + ε)/(1 − e ε) = exp(ε (1 + e)) with ε = (3/2) c v), and Chrono's SMC models (the laws and the
 * step maps derived here from the source reading of src/engines/chrono.c, not from its code). The
 * engines themselves run in tests/engines/. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "impactfit/demcodes.h"
#include "impactfit/engines.h"
#include "impactfit/hc.h"
#include "impactfit/impact.h"
#include "impactfit/law.h"
#include "impactfit/stepper.h"
#include "testutil.h"

#define R5 0.005
#define M5 (4.0 / 3.0 * M_PI * R5 * R5 * R5 * 2500.0)

static const impactfit_engine_model *find(const char *code, const char *version, const char *model) {
  const impactfit_engine_model *md = NULL;
  impactfit_error err;
  int s = impactfit_engine_model_find(code, version, model, &md, &err);
  CHECK(s == 0 && md, "find %s %s %s: %s", code, version ? version : "(default)", model ? model : "(first)",
        s ? err.message : "");
  return md;
}

static void set(impactfit_engine_request *r, const char *name, int count, double a, double b) {
  impactfit_engine_setting *s = &r->settings[r->n_settings++];
  s->name = name;
  s->count = count;
  s->values[0] = a;
  s->values[1] = b;
}

/* ---------------------------------------------------------------- the adaptive stepper */

/* Kelvin–Voigt f = k δ + c δ' under A: e = exp(−ζ π/√(1 − ζ²)), ζ = c/(2 √(k M)) */
static void test_adaptive(void) {
  impactfit_stepper st;
  memset(&st, 0, sizeof st);
  st.type = impactfit_stepper_continuous;
  double k = 1e4, M = 0.01, zeta = 0.3;
  st.law = impactfit_law_power_make(k, 1.0, 2.0 * zeta * sqrt(k * M), 0.0);
  st.end = impactfit_transition_A;
  st.mass = M;
  st.dt = NAN; /* not used */
  double exact = exp(-zeta * M_PI / sqrt(1.0 - zeta * zeta));
  impactfit_step_stats S;
  impactfit_error err;
  int s = impactfit_step_phase_stats(&st, 2.0, &S, &err);
  CHECK(s == 0, "adaptive phase stats: %s", s ? err.message : "");
  CHECK_REL(S.e_mean, exact, 1e-10, "adaptive: e_mean = Kelvin-Voigt e");
  CHECK(S.e_min == S.e_mean && S.e_max == S.e_mean && S.e_continuous == S.e_mean, "adaptive: min = max = mean");
  CHECK(S.stable == 1 && S.pieces == 1 && S.impacts == 1, "adaptive: one stable piece");
  impactfit_step_impact im;
  s = impactfit_step_impact_at(&st, 2.0, 0.37, &im, &err);
  CHECK(s == 0 && im.e == S.e_mean, "adaptive: the same e at every phase");
  double dtmax = 0.0;
  s = impactfit_step_max_stable_dt(&st, 2.0, &dtmax, &err);
  CHECK(s == 0 && isinf(dtmax), "adaptive: no step to bound");
  /* a fixed-step stepper still needs dt */
  st.type = impactfit_stepper_euler;
  CHECK(impactfit_step_phase_stats(&st, 2.0, &S, &err) == IMPACTFIT_EINVAL, "euler refuses dt = NaN");
  CHECK(impactfit_stepper_type_from_name("continuous") == impactfit_stepper_continuous, "registered by name");
  CHECK(impactfit_stepper_type_from_name("explicit-euler") && impactfit_stepper_type_from_name("frozen-force"),
        "Chrono's step maps are registered");
}

/* ---------------------------------------------------------------- Simbody */

/* The law of HuntCrossleyForce and of the compliant contact subsystem: K = (4/3) √R k^(3/2) with the
 * surfaces' stiffness^(2/3) in series, n = m = 3/2, λ = (3/2) c K (from the source, Simbody 3.7). */
static void test_simbody_law(void) {
  const char *models[] = {"HuntCrossleyForce", "CompliantContactSubsystem"};
  for (int mi = 0; mi < 2; mi++) {
    const impactfit_engine_model *md = find("simbody", NULL, models[mi]);
    if (!md)
      return;
    CHECK(md->run_here == 1 && md->adaptive && strstr(md->adaptive, "rkmerson"), "%s: run here, adaptive", models[mi]);
    for (int plane = 1; plane >= 0; plane--) {
      impactfit_engine_request r = impactfit_engine_default_request();
      r.model = md;
      r.bodies.plane = plane;
      r.bodies.r2 = 0.012;
      r.bodies.m2 = 0.02;
      double E1 = 2e9, E2 = 5e7, c = 0.37;
      set(&r, "stiffness", 2, E1, E2);
      impactfit_stepper st;
      impactfit_error err;
      int s = impactfit_engine_stepper(&r, c, &st, &err);
      CHECK(s == 0, "%s stepper: %s", models[mi], s ? err.message : "");
      double R = plane ? R5 : R5 * 0.012 / (R5 + 0.012), M = plane ? M5 : M5 * 0.02 / (M5 + 0.02);
      double kc = 1.0 / (pow(E1, -2.0 / 3.0) + pow(E2, -2.0 / 3.0)); /* k1 k2/(k1 + k2), ki = Ei^(2/3) */
      double K = 4.0 / 3.0 * sqrt(R) * pow(kc, 1.5);
      CHECK(st.type == impactfit_stepper_continuous && st.law.type == impactfit_law_power, "%s: continuous, power",
            models[mi]);
      CHECK_REL(st.law.p[0], K, 1e-13, "%s plane=%d: K", models[mi], plane);
      CHECK(st.law.p[1] == 1.5 && st.law.p[3] == 1.5, "%s: n = m = 3/2", models[mi]);
      CHECK_REL(st.law.p[2], 1.5 * c * K, 1e-13, "%s plane=%d: lambda = 1.5 c K", models[mi], plane);
      CHECK_REL(st.mass, M, 1e-15, "%s plane=%d: M", models[mi], plane);
      CHECK(st.end == impactfit_transition_C, "%s: clamped at zero", models[mi]);
    }
  }
}

/* The inverse against hc.h: c = ε(e)/(1.5 v), e independent of the stiffness, the masses and the radii;
 * the naive c = (1 − e)/v gives e(ε = 1.5 (1 − e)). */
static void test_simbody_solve(void) {
  const impactfit_engine_model *md = find("simbody", "3.7", "HuntCrossleyForce");
  if (!md)
    return;
  double es[] = {0.1, 0.3, 0.5, 0.7, 0.9}, vs[] = {0.3, 1.0, 3.0};
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < 3; j++) {
      impactfit_engine_request r = impactfit_engine_default_request();
      r.model = md;
      r.e = es[i];
      r.v = vs[j];
      if (j == 1) { /* two unequal spheres, other stiffnesses */
        r.bodies.plane = 0;
        r.bodies.r2 = 0.02;
        r.bodies.m2 = 0.05;
        set(&r, "stiffness", 2, 3e9, 2e6);
      }
      impactfit_engine_answer a;
      impactfit_error err;
      int s = impactfit_engine_solve(&r, &a, &err);
      CHECK(s == 0 && a.reachable, "simbody solve e=%g v=%g: %s", es[i], vs[j], s ? err.message : "");
      double eps, e_naive;
      impactfit_hc_eps(es[i], &eps, NULL);
      impactfit_hc_e(1.5 * (1.0 - es[i]), &e_naive, NULL);
      CHECK_REL(a.value, eps / (1.5 * vs[j]), 1e-8, "simbody c for e=%g v=%g = eps(e)/(1.5 v)", es[i], vs[j]);
      CHECK_ABS(a.e_mean, es[i], 1e-9, "simbody e_mean");
      CHECK(a.e_min == a.e_mean && a.e_max == a.e_mean && a.e_continuous == a.e_mean && isnan(a.dt),
            "simbody: adaptive answer (min = max = mean = continuous, dt NaN)");
      CHECK_REL(a.naive_value, (1.0 - es[i]) / vs[j], 1e-15, "simbody naive c = (1 - e)/v");
      CHECK_ABS(a.e_naive, e_naive, 2e-10, "simbody naive e = e_HC(1.5 (1 - e)) for e=%g", es[i]);
    }
  /* the figures of the literature's c typed in at 1 m/s (Hunt-Crossley; Lankarani-Nikravesh
   * c = (1 - e^2)/(2 v)), from hc.h: 0.516/0.663/0.909 and 0.665/0.725/0.913 to 3 digits */
  double hc_fig[] = {0.516, 0.663, 0.909}, ln_fig[] = {0.665, 0.725, 0.913}, e3[] = {0.1, 0.5, 0.9};
  for (int i = 0; i < 3; i++) {
    double eh, el;
    impactfit_hc_e(1.5 * (1.0 - e3[i]), &eh, NULL);
    impactfit_hc_e(0.75 * (1.0 - e3[i] * e3[i]), &el, NULL);
    CHECK_ABS(eh, hc_fig[i], 5e-4, "Hunt-Crossley's c typed in for e = %g", e3[i]);
    CHECK_ABS(el, ln_fig[i], 5e-4, "Lankarani-Nikravesh's c typed in for e = %g", e3[i]);
  }
  /* an adaptive integrator takes no dt; unknown integrators are listed */
  impactfit_engine_request r = impactfit_engine_default_request();
  r.model = md;
  r.e = 0.5;
  r.dt = 1e-4;
  impactfit_engine_answer a;
  impactfit_error err;
  CHECK(impactfit_engine_solve(&r, &a, &err) == IMPACTFIT_EINVAL && strstr(err.message, "takes no time step"),
        "simbody refuses a dt: %s", err.message);
  r.dt = NAN;
  r.integrator = "rk4";
  CHECK(impactfit_engine_solve(&r, &a, &err) == IMPACTFIT_EINVAL && strstr(err.message, "rkmerson"),
        "simbody lists its integrators: %s", err.message);
  /* RungeKuttaFeldberg's note gives e = 1/(1.5 c v) */
  r.integrator = "rkfeldberg";
  CHECK(impactfit_engine_solve(&r, &a, &err) == 0 && strstr(a.note, "1/(1.5 c v)"), "rkfeldberg note: %.900s", a.note);
  /* the compliant contact subsystem has no default stiffness */
  r.model = find("simbody", NULL, "CompliantContactSubsystem");
  r.integrator = NULL;
  CHECK(impactfit_engine_solve(&r, &a, &err) == IMPACTFIT_EINVAL && strstr(err.message, "stiffness"),
        "ContactMaterial needs a stiffness: %s", err.message);
  /* forward: the user's dissipation */
  r.model = md;
  r.e = NAN;
  set(&r, "dissipation", 1, 0.5, 0.0);
  CHECK(impactfit_engine_solve(&r, &a, &err) == 0, "simbody forward: %s", err.message);
  double e05;
  impactfit_hc_e(0.75, &e05, NULL);
  CHECK_ABS(a.e_mean, e05, 2e-10, "simbody forward dissipation 0.5 at 1 m/s");
}

/* ---------------------------------------------------------------- Chrono */

static int kind_is_hooke(const char *model) { return strncmp(model, "Hooke", 5) == 0 || !strcmp(model, "Flores"); }

/* The laws, derived here from the source reading (docs/engines/CHRONO.md): E = 1/((1 − ν1²)/E1 + (1 − ν2²)/E2),
 * M = m1 mw/(m1 + mw) at a wall (the fixed wall's mass counts), β = ln cr/√(ln² cr + π²),
 *   Hertz: kn δ = (2/3) 2 E √(R δ) δ, gn = −2 √(5/6) β √(2 E √(R δ) M): K = (4/3) E √R, C = 2 √(5/6) |β| √(2 E √R M)
 *   Hooke: K = a (M V²/a)^(1/5), a = (16/15) √R E; C = √(4 M K/(1 + (π/ln cr)²))
 *   PlainCoulomb: Hertz with R = 1 in √(R δ)
 *   kn/gn: Hertz K = R kn, C = R M gn; Hooke K = kn, C = M gn; PlainCoulomb K = kn, C = gn. */
static void test_chrono_laws(void) {
  struct {
    const char *model;
    double n, m;
  } cases[] = {{"Hertz", 1.5, 0.25},
               {"Hooke", 1.0, 0.0},
               {"Flores", 1.0, 0.0},
               {"PlainCoulomb", 1.5, 0.25},
               {"Hertz kn/gn", 1.5, 0.5},
               {"Hooke kn/gn", 1.0, 0.0},
               {"PlainCoulomb kn/gn", 1.5, 0.5}};
  double E1 = 7e7, E2 = 2e9, nu1 = 0.35, nu2 = 0.25, mw = 0.3, Reff = 0.004, V = 2.5, cr = 0.62, kn = 3e6, gn = 55;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const impactfit_engine_model *md = find("chrono", NULL, cases[i].model);
    if (!md)
      return;
    CHECK(md->run_here == 0 && strstr(md->integrators, "euler-implicit-linearized") == md->integrators,
          "%s: formula only, the default timestepper first", cases[i].model);
    for (int plane = 1; plane >= 0; plane--) {
      impactfit_engine_request r = impactfit_engine_default_request();
      r.model = md;
      r.dt = 1e-5;
      r.bodies.plane = plane;
      r.bodies.r2 = 0.01;
      r.bodies.m2 = 0.004;
      int mat = strstr(cases[i].model, "kn/gn") == NULL;
      if (mat) {
        set(&r, "young_modulus", 2, E1, E2);
        set(&r, "poisson_ratio", 2, nu1, nu2);
      } else {
        set(&r, "kn", 1, kn, 0);
      }
      set(&r, "wall_mass", 1, mw, 0);
      if (strncmp(cases[i].model, "PlainCoulomb", 12) != 0 && strcmp(cases[i].model, "Hooke kn/gn") != 0)
        set(&r, "eff_radius", 1, Reff, 0);
      if (mat && kind_is_hooke(cases[i].model))
        set(&r, "impact_velocity", 1, V, 0);
      impactfit_stepper st;
      impactfit_error err;
      double p = mat ? cr : gn;
      int s = impactfit_engine_stepper(&r, p, &st, &err);
      CHECK(s == 0, "chrono %s stepper: %s", cases[i].model, s ? err.message : "");
      double Mdyn = plane ? M5 : M5 * 0.004 / (M5 + 0.004);
      double M = plane ? M5 * mw / (M5 + mw) : Mdyn;
      double E = 1.0 / ((1 - nu1 * nu1) / E1 + (1 - nu2 * nu2) / E2);
      double L = log(cr), beta = L / sqrt(L * L + M_PI * M_PI), K = 0, C = 0;
      const char *mo = cases[i].model;
      if (!strcmp(mo, "Hertz")) {
        K = 4.0 / 3.0 * E * sqrt(Reff);
        C = 2 * sqrt(5.0 / 6) * fabs(beta) * sqrt(2 * E * sqrt(Reff) * M);
      } else if (!strcmp(mo, "Hooke") || !strcmp(mo, "Flores")) {
        double a = 16.0 / 15.0 * sqrt(Reff) * E;
        K = a * pow(M * V * V / a, 0.2);
        C = sqrt(4 * M * K / (1 + (M_PI / L) * (M_PI / L)));
      } else if (!strcmp(mo, "PlainCoulomb")) {
        K = 4.0 / 3.0 * E;
        C = 2 * sqrt(5.0 / 6) * fabs(beta) * sqrt(2 * E * M);
      } else if (!strcmp(mo, "Hertz kn/gn")) {
        K = Reff * kn;
        C = Reff * M * gn;
      } else if (!strcmp(mo, "Hooke kn/gn")) {
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
  const impactfit_engine_model *md;
  impactfit_error err;
  CHECK(impactfit_engine_model_find("chrono", "4.0.0", "Hertz", &md, &err) == 0, "Hertz 4.0.0");
  CHECK(impactfit_engine_model_find("chrono", "10.0.0", "Hertz", &md, &err) == 0, "Hertz 10.0.0");
  CHECK(impactfit_engine_model_find("chrono", "3.0.0", "Hertz", &md, &err) == IMPACTFIT_EINVAL, "not 3.0.0");
  CHECK(impactfit_engine_model_find("chrono", "5.0.1", "Flores", &md, &err) == IMPACTFIT_EINVAL, "Flores not 5.0.1");
  CHECK(impactfit_engine_model_find("chrono", "6.0.0", "Flores", &md, &err) == 0, "Flores 6.0.0");
  CHECK(strcmp(impactfit_engine_default_version("chrono"), "10.0.0") == 0, "chrono's newest version read");
  CHECK(impactfit_engine_model_find("chrono", NULL, "Hertz", &md, &err) == 0, "Hertz default");
  impactfit_engine_request r = impactfit_engine_default_request();
  r.model = md;
  r.e = 0.5;
  impactfit_engine_answer a;
  CHECK(impactfit_engine_solve(&r, &a, &err) == IMPACTFIT_EINVAL && strstr(err.message, "give dt"),
        "chrono has no default step: %s", err.message);
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
  const impactfit_engine_model *md = find("chrono", NULL, "Hertz");
  if (!md)
    return;
  const char *ints[] = {"euler-implicit-linearized", "euler-explicit", "runge-kutta"};
  double E = 1e7, nu = 0.3, cr = 0.45, h = 2e-5, v = 1.3;
  double Es = 1.0 / (2 * (1 - nu * nu) / E), Mcode = M5 * 1.0 / (M5 + 1.0);
  for (int mi = 0; mi < 3; mi++) {
    impactfit_engine_request r = impactfit_engine_default_request();
    r.model = md;
    r.dt = h;
    r.v = v;
    r.integrator = ints[mi];
    set(&r, "young_modulus", 2, E, E);
    set(&r, "poisson_ratio", 2, nu, nu);
    impactfit_stepper st;
    impactfit_error err;
    if (impactfit_engine_stepper(&r, cr, &st, &err)) {
      CHECK(0, "chrono stepper %s: %s", ints[mi], err.message);
      continue;
    }
    for (double phi = 0.05; phi < 1.0; phi += 0.3) {
      impactfit_step_impact im;
      int s = impactfit_step_impact_at(&st, v, phi, &im, &err);
      double want = chrono_impact(mi, v, phi, h, Es, 0.1, Mcode, M5, cr);
      CHECK(s == 0, "chrono %s impact: %s", ints[mi], s ? err.message : "");
      CHECK_ABS(im.e, want, 1e-12, "chrono %s phi=%g: e of the step map", ints[mi], phi);
    }
  }
  /* dt -> 0: the default map's mean e tends to the continuous-time e of the law, which the DEM registry
   * gives too (chrono hertz, e typed = cr, R_eff = 0.1) when the wall is heavy; with the default wall of
   * 1 kg the damper carries sqrt(M_code) = sqrt(m1 mw/(m1 + mw)) while the sphere moves with m1: the DEM
   * e of the typed value whose beta is beta(cr) sqrt(M_code/m1) (ln p = beta pi/sqrt(1 - beta^2)). */
  for (int heavy = 1; heavy >= 0; heavy--) {
    double mw = heavy ? 1e12 : 1.0, Mc = M5 * mw / (M5 + mw);
    impactfit_engine_request r = impactfit_engine_default_request();
    r.model = md;
    r.v = v;
    r.dt = 1e-7;
    set(&r, "young_modulus", 2, E, E);
    set(&r, "poisson_ratio", 2, nu, nu);
    set(&r, "restitution", 1, cr, 0);
    set(&r, "wall_mass", 1, mw, 0);
    impactfit_engine_answer a;
    impactfit_error err;
    int s = impactfit_engine_solve(&r, &a, &err);
    CHECK(s == 0, "chrono forward: %s", s ? err.message : "");
    double L = log(cr), beta = L / sqrt(L * L + M_PI * M_PI) * sqrt(Mc / M5);
    double p = exp(beta * M_PI / sqrt(1.0 - beta * beta));
    const impactfit_dem_model *dm;
    double e_dem = NAN;
    if (impactfit_dem_model_find("chrono", NULL, "hertz", NULL, &dm, &err) == 0) {
      impactfit_dem_contact c = impactfit_dem_contact_default();
      c.geometry = IMPACTFIT_DEM_SPHERE_WALL;
      c.E = E;
      c.nu = nu;
      c.R_eff = 0.1;
      c.M_eff = M5;
      impactfit_dem_forward(dm, &c, -1, p, v, &e_dem, &err);
    }
    CHECK_ABS(a.e_continuous, e_dem, 1e-9, "chrono hertz continuous e = the DEM registry's (wall %g kg)", mw);
    CHECK_ABS(a.e_mean, a.e_continuous, 2e-4, "chrono hertz at dt = 1e-7 close to the continuous e");
  }
  impactfit_engine_request r = impactfit_engine_default_request();
  r.model = md;
  r.v = v;
  set(&r, "young_modulus", 2, E, E);
  set(&r, "poisson_ratio", 2, nu, nu);
  impactfit_engine_answer a;
  impactfit_error err;
  int s;
  /* the smallest reachable e: cr at the machine epsilon; e = 0.1 is out of reach */
  r.e = 0.1;
  r.dt = 1e-5;
  s = impactfit_engine_solve(&r, &a, &err);
  CHECK(s == 0 && !a.reachable && a.e_reach_min > 0.13 && strstr(a.note, "No restitution gives less than"),
        "chrono hertz cannot give e = 0.1: %.900s", a.note);
}

/* forward Euler on a linear spring-dashpot is unstable when h² k/M > h c/M (|λ|² = det = 1 − h b + h² a):
 * Chrono's EULER_EXPLICIT with Hooke kn, gn */
static void test_chrono_explicit_stability(void) {
  const impactfit_engine_model *md = find("chrono", NULL, "Hooke kn/gn");
  if (!md)
    return;
  double kn = 1e5, h = 1e-5;
  for (int i = 0; i < 2; i++) {
    double gn = i == 0 ? 0.5 * h * kn / M5 : 4.0 * h * kn / M5; /* b = gn, a = 2 kn/M5: h b below / above h^2 a */
    impactfit_engine_request r = impactfit_engine_default_request();
    r.model = md;
    r.dt = h;
    r.integrator = "euler-explicit";
    r.bodies.plane = 0;
    r.bodies.r2 = R5;
    r.bodies.m2 = M5; /* two spheres: no wall mass */
    set(&r, "kn", 1, kn, 0);
    r.value = gn;
    impactfit_engine_answer a;
    impactfit_error err;
    int s = impactfit_engine_solve(&r, &a, &err);
    CHECK(s == 0, "explicit euler forward: %s", s ? err.message : "");
    CHECK(a.stable == (i == 1), "explicit euler stable = %d for gn = %g (h b %s h^2 a)", a.stable, gn, i ? ">" : "<");
  }
}

int main(void) {
  test_adaptive();
  test_simbody_law();
  test_simbody_solve();
  test_chrono_laws();
  test_chrono_versions();
  test_chrono_steps();
  test_chrono_explicit_stability();
  return tu_report("test_engines");
}
