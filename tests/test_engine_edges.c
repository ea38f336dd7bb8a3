/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Every registry model at the extreme time steps (issue 39 item 3): an answer is either an error with a
 * message or finite numbers, never NaN with success. At dt = 1e-9 s a contact that lasts longer than a
 * quarter of the step limit (1e6 steps) is refused as "too small to step through" with the continuous-time
 * e, which the law engine gives independently; at dt = 1 s a step either blows up (an error, with the
 * largest stable step) or gives finite e. MuJoCo's dt = 1e-8 s of the issue (a 0.04 s contact, 4e6 steps)
 * said "the bodies stick" with every e NaN and success. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_integration.h>

#include "impactfit/impactfit.h"
#include "impactfit/engines.h"
#include "impactfit/law.h"
#include "impactfit/stepper.h"
#include "testutil.h"

static void one(const impactfit_engine_model *md, const char *integrator, double dt, int *answers, int *refused) {
  impactfit_engine_request rq = impactfit_engine_default_request();
  rq.model = md;
  rq.integrator = integrator;
  rq.dt = dt;
  rq.v = 1.0;
  rq.bodies.m1 = 0.001309;
  /* the model's required settings (the others keep the engine's defaults) */
  static const struct {
    const char *name;
    double v[2];
  } required[] = {{"kp", {1e3}},   {"kd", {1.0}},          {"erp", {0.2}},
                  {"cfm", {1e-5}}, {"restitution", {0.5}}, {"solref", {-1000.0, -20.0}}};
  for (int i = 0; i < md->n_inputs; i++)
    if (isnan(md->inputs[i].def[0]) && rq.n_settings < IMPACTFIT_ENGINE_MAX_SETTINGS) {
      impactfit_engine_setting *s = &rq.settings[rq.n_settings++];
      s->name = md->inputs[i].name;
      s->count = md->inputs[i].count;
      for (int k = 0; k < s->count; k++)
        s->values[k] = 1.0;
      for (size_t r = 0; r < sizeof required / sizeof required[0]; r++)
        if (strcmp(required[r].name, s->name) == 0)
          for (int k = 0; k < s->count && k < 2; k++)
            s->values[k] = required[r].v[k];
    }
  impactfit_engine_answer a;
  impactfit_error err;
  impactfit_error_clear(&err);
  clock_t c0 = clock();
  int st = impactfit_engine_solve(&rq, &a, &err);
  char what[300];
  snprintf(what, sizeof what, "%s '%s' %s dt %g", md->code, md->model, integrator, dt);
  if (getenv("VERBOSE"))
    fprintf(stderr, "%s: %d %.3f s\n", what, st, (double)(clock() - c0) / CLOCKS_PER_SEC);
  if (st) {
    (*refused)++;
    CHECK(err.message[0] != '\0', "%s: status %d without a message", what, st);
    return;
  }
  (*answers)++;
  CHECK(isfinite(a.e_mean) && isfinite(a.e_min) && isfinite(a.e_max) && a.e_min <= a.e_mean && a.e_mean <= a.e_max,
        "%s: success with e_mean %g in [%g, %g]", what, a.e_mean, a.e_min, a.e_max);
}

static void every_model(void) {
  int answers = 0, refused = 0;
  const double dts[] = {1e-9, 1.0};
  for (size_t i = 0; i < impactfit_engine_model_count(); i++) {
    const impactfit_engine_model *md = impactfit_engine_model_at(i);
    if (md->version_max && md->version_min && md->version_max < md->version_min)
      continue;
    char ints[256];
    snprintf(ints, sizeof ints, "%s", md->integrators ? md->integrators : "");
    for (char *save = NULL, *it = strtok_r(ints, ",", &save); it; it = strtok_r(NULL, ",", &save)) {
      int adaptive = 0;
      if (md->adaptive) {
        char ad[256];
        snprintf(ad, sizeof ad, ",%s,", md->adaptive);
        char key[64];
        snprintf(key, sizeof key, ",%s,", it);
        adaptive = strstr(ad, key) != NULL;
      }
      if (adaptive)
        continue;
      for (size_t k = 0; k < sizeof dts / sizeof dts[0]; k++)
        one(md, it, dts[k], &answers, &refused);
    }
  }
  printf("test_engine_edges: %d answers, %d refused with a message\n", answers, refused);
  CHECK(answers + refused > 50, "the registry's models and integrators (%d)", answers + refused);
}

/* The issue's command: refused, with the continuous-time e of the law engine in the message. */
static void issue_case(void) {
  const impactfit_engine_model *md;
  impactfit_error err;
  CHECK(impactfit_engine_model_find("mujoco", NULL, "soft contact", &md, &err) == 0, "mujoco soft contact");
  impactfit_engine_request rq = impactfit_engine_default_request();
  rq.model = md;
  rq.dt = 1e-8;
  rq.v = 1.0;
  rq.bodies.m1 = 0.001309;
  impactfit_engine_answer a;
  int st = impactfit_engine_solve(&rq, &a, &err);
  CHECK(st == IMPACTFIT_ENOCONV && strstr(err.message, "too small to step through") && strstr(err.message, "0.1356967"),
        "mujoco dt 1e-8: status %d, '%s'", st, st ? err.message : "");
  /* forward at dt 2e-3 still answers; the inverse at 1e-8 is refused the same way */
  rq.e = 0.5;
  st = impactfit_engine_solve(&rq, &a, &err);
  CHECK(st == IMPACTFIT_ENOCONV && strstr(err.message, "too small to step through"), "inverse at 1e-8: %d '%s'", st,
        st ? err.message : "");
}

/* Issue 39 item 6: Bullet's restitution row between two spheres at a step where the ERP term makes e > 1.
 * The rebound is the restitution R v plus the position correction erp2 φ v of the penetration φ v dt the
 * first contact step starts with (btSequentialImpulseConstraintSolver.cpp:898-980): e(φ) = R + erp2 φ on
 * (0, 1), whose supremum R + erp2 is approached as φ → 1⁻ (e(1) itself starts the next step's sequence, e = R).
 * e_max was the largest sample, 1.32719 at φ = 63.5/64. */
static void bullet_sup(void) {
  const impactfit_engine_model *md;
  impactfit_error err;
  CHECK(impactfit_engine_model_find("bullet", NULL, "restitution", &md, &err) == 0, "bullet restitution");
  impactfit_engine_request rq = impactfit_engine_default_request();
  const double R = 0.7367666339621177, erp2 = 0.5950772480721973;
  rq.model = md;
  rq.v = 0.3380910223074234;
  rq.bodies.plane = 0;
  rq.bodies.m1 = 0.013712344229070863;
  rq.bodies.m2 = 0.09092209028387471;
  rq.bodies.r1 = rq.bodies.r2 = 0.005;
  rq.dt = 0.007321358257017553;
  rq.n_settings = 2;
  rq.settings[0] = (impactfit_engine_setting){.name = "erp2", .count = 1, .values = {erp2}};
  rq.settings[1] = (impactfit_engine_setting){.name = "restitution", .count = 1, .values = {R}};
  impactfit_engine_answer a;
  int st = impactfit_engine_solve(&rq, &a, &err);
  CHECK(st == 0, "bullet two spheres: %s", st ? err.message : "");
  CHECK_ABS(a.e_max, R + erp2, 1e-11, "e_max = the supremum R + erp2");
  CHECK_ABS(a.e_min, R, 1e-12, "e_min = R (phi -> 0+ and phi = 1)");
  CHECK_ABS(a.e_mean, R + 0.5 * erp2, 1e-11, "e_mean = R + erp2/2");
  CHECK(!a.stable, "flagged unstable (e > 1)");
}

/* Issue 39 item 5: the mean over the phase where e(φ) has a fractional power at a piece's end (Chrono's
 * PlainCoulomb damping gn δ^(1/2) δ': the first contact step's force ∝ (φ v dt)^(1/2)). The references: the
 * audit's quad-precision mean 0.3570647667333125, and GSL's qags (its extrapolation handles algebraic end
 * singularities) on pieces whose ends are bisected here on the steps' signatures, not the statistics' quadrature.
 * The mean was 0.3570647665335108 (2.0e-10 off) with Gauss-Legendre in φ. */
typedef struct {
  const impactfit_stepper *st;
  double v;
} qctx;

static double e_at(double phi, void *p) {
  const qctx *c = p;
  impactfit_step_impact o;
  impactfit_error err;
  return impactfit_step_impact_at(c->st, c->v, phi, &o, &err) == 0 ? o.e : NAN;
}

static unsigned long sig_at(const qctx *c, double phi) {
  impactfit_step_impact o;
  impactfit_error err;
  return impactfit_step_impact_at(c->st, c->v, phi, &o, &err) == 0 ? o.signature : 0;
}

/* pieces: where the step sequence (the signature) changes, bisected to 1e-15 here; qags on each */
static double qags_mean(const impactfit_stepper *st, double v, double *abserr) {
  qctx c = {st, v};
  enum { NS = 2048 };
  double br[NS + 2];
  int nb = 0;
  br[nb++] = 0.0;
  double pphi = 0x1p-40;
  unsigned long prev = sig_at(&c, pphi);
  for (int i = 1; i <= NS; i++) {
    double phi = (double)i / NS;
    unsigned long sg = sig_at(&c, phi);
    if (sg != prev) {
      double lo = pphi, hi = phi;
      while (hi - lo > 1e-15 * fmax(1.0, hi)) {
        double m = 0.5 * (lo + hi);
        if (sig_at(&c, m) == prev)
          lo = m;
        else
          hi = m;
      }
      br[nb++] = 0.5 * (lo + hi);
    }
    prev = sg;
    pphi = phi;
  }
  br[nb++] = 1.0;
  gsl_integration_workspace *w = gsl_integration_workspace_alloc(2000);
  gsl_function F = {e_at, &c};
  double mean = 0.0;
  *abserr = 0.0;
  for (int i = 0; i + 1 < nb; i++) {
    double r, ae;
    gsl_integration_qags(&F, br[i], br[i + 1], 1e-15, 1e-13, 2000, w, &r, &ae);
    mean += r;
    *abserr += ae;
  }
  gsl_integration_workspace_free(w);
  return mean;
}

static void chrono_mean(void) {
  const impactfit_engine_model *md;
  impactfit_error err;
  CHECK(impactfit_engine_model_find("chrono", NULL, "PlainCoulomb kn/gn", &md, &err) == 0, "PlainCoulomb kn/gn");
  impactfit_engine_request rq = impactfit_engine_default_request();
  rq.model = md;
  rq.v = 0.6689112501197397;
  rq.bodies.plane = 0;
  rq.bodies.m1 = 0.0022368269438602867;
  rq.bodies.m2 = 0.009771015049488855;
  rq.bodies.r1 = 0.005;
  rq.bodies.r2 = 0.006;
  rq.integrator = "euler-implicit-linearized";
  rq.dt = 4.235275214500041e-05;
  rq.n_settings = 1;
  rq.settings[0] = (impactfit_engine_setting){.name = "kn", .count = 1, .values = {81557318.37817894}};
  impactfit_stepper st;
  impactfit_step_stats S;
  CHECK(impactfit_engine_stepper(&rq, 5093.733184219927, &st, &err) == 0 &&
            impactfit_step_phase_stats(&st, rq.v, &S, &err) == 0,
        "PlainCoulomb stats");
  double ae, q = qags_mean(&st, rq.v, &ae);
  printf("test_engine_edges: PlainCoulomb mean %.16f, qags %.16f (+- %.1e), audit 0.3570647667333125\n", S.e_mean, q,
         ae);
  CHECK_ABS(S.e_mean, 0.3570647667333125, 1e-13, "PlainCoulomb: the audit's quad-precision mean");
  CHECK_ABS(S.e_mean, q, 1e-13 + ae, "PlainCoulomb: qags");
  /* Chrono's Hertz damping delta^(1/4) delta' at dt 1e-5 (0.436 the restitution; 1.309 g on a plane, 1 m/s) */
  CHECK(impactfit_engine_model_find("chrono", NULL, "Hertz", &md, &err) == 0, "Hertz");
  rq = impactfit_engine_default_request();
  rq.model = md;
  rq.v = 1.0;
  rq.bodies.m1 = 0.001309;
  rq.dt = 1e-5;
  CHECK(impactfit_engine_stepper(&rq, 0.436, &st, &err) == 0 && impactfit_step_phase_stats(&st, 1.0, &S, &err) == 0,
        "Hertz stats");
  q = qags_mean(&st, 1.0, &ae);
  printf("test_engine_edges: Chrono Hertz dt 1e-5 mean %.16f, qags %.16f (+- %.1e)\n", S.e_mean, q, ae);
  CHECK_ABS(S.e_mean, q, 1e-13 + ae, "Chrono Hertz: qags");
  /* its e_min lies inside a smooth piece (phi ~ 0.178): a 4096-point scan and golden sections here. The
   * samples and quadrature nodes alone gave 5.7e-9 above it. */
  qctx c = {&st, 1.0};
  double best = 2.0, at = 0.5;
  for (int i = 1; i < 4096; i++) {
    double phi = i / 4096.0, e = e_at(phi, &c);
    if (e < best)
      best = e, at = phi;
  }
  double a = at - 1.0 / 4096, b = at + 1.0 / 4096, g = 0.5 * (sqrt(5.0) - 1.0);
  for (int it = 0; it < 80 && b - a > 1e-13; it++) {
    double x1 = b - g * (b - a), x2 = a + g * (b - a);
    if (e_at(x1, &c) < e_at(x2, &c))
      b = x2;
    else
      a = x1;
  }
  double ref = e_at(0.5 * (a + b), &c);
  printf("test_engine_edges: Chrono Hertz dt 1e-5 e_min %.16f at %.6f, golden section %.16f at %.6f\n", S.e_min,
         S.phi_min, ref, 0.5 * (a + b));
  CHECK_ABS(S.e_min, ref, 1e-13, "Chrono Hertz: e_min at its interior minimum");
}

int main(void) {
  chrono_mean();
  bullet_sup();
  issue_case();
  every_model();
  return tu_report("test_engine_edges");
}
