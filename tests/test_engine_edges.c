/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Every registry model at the extreme time steps (issue 39 item 3): an answer is either an error with a
 * message or finite numbers, never NaN with success. At dt = 1e-9 s a contact that lasts longer than a
 * quarter of the step limit (1e6 steps) is refused as "too small to step through" with the continuous-time
 * e, which the law engine gives independently; at dt = 1 s a step either blows up (an error, with the
 * largest stable step) or gives finite e. MuJoCo's dt = 1e-8 s of the issue (a 0.04 s contact, 4e6 steps)
 * said "the bodies stick" with every e NaN and success. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_integration.h>

#include "codes/codes_test.h"
#include "impactfit/impactfit.h"
#include "impactfit/law.h"
#include "impactfit/stepper.h"
#include "testutil.h"

static void one(const impactfit_code_model *md, const char *integrator, double dt, int *answers, int *refused) {
  ct_request r = ct_make(md);
  r.q.integrator = integrator;
  r.q.dt = dt;
  /* the model's required settings (the others keep the code's defaults); the free parameter's too: forward */
  static const struct {
    const char *name;
    double v[2];
  } required[] = {{"kp", {1e3}},   {"kd", {1.0}},          {"erp", {0.2}},
                  {"cfm", {1e-5}}, {"restitution", {0.5}}, {"solref", {-1000.0, -20.0}}};
  for (int i = 0; i < md->n_inputs; i++)
    if (isnan(md->inputs[i].def[0]) && r.q.n_settings < IMPACTFIT_CODE_MAX_INPUTS) {
      impactfit_code_setting *s = &r.set[r.q.n_settings++];
      memset(s, 0, sizeof *s);
      s->name = md->inputs[i].name;
      s->count = md->inputs[i].count;
      for (int k = 0; k < s->count; k++)
        s->values[k] = 0.5;
      for (size_t q = 0; q < sizeof required / sizeof required[0]; q++)
        if (strcmp(required[q].name, s->name) == 0)
          for (int k = 0; k < s->count && k < 2; k++)
            s->values[k] = required[q].v[k];
    }
  impactfit_code_answer a;
  memset(&a, 0, sizeof a);
  impactfit_error err;
  impactfit_error_clear(&err);
  clock_t c0 = clock();
  int st = ct_solve(&r, &a, &err);
  char what[300];
  snprintf(what, sizeof what, "%s '%s' %s %s dt %g", md->code->name, md->model, md->option, integrator, dt);
  if (getenv("VERBOSE"))
    fprintf(stderr, "%s: %d %.3f s\n", what, st, (double)(clock() - c0) / CLOCKS_PER_SEC);
  if (st) {
    (*refused)++;
    CHECK(err.message[0] != '\0', "%s: status %d without a message", what, st);
  } else {
    (*answers)++;
    /* the mean of a constant e(phi) is its quadrature's sum: within a few ulps of the constant */
    double ulps = 8.0 * 2.220446049250313e-16 * fabs(a.e);
    CHECK(isfinite(a.e) && isfinite(a.e_min) && isfinite(a.e_max) && a.e_min - ulps <= a.e && a.e <= a.e_max + ulps,
          "%s: success with e_mean %.17g in [%.17g, %.17g]", what, a.e, a.e_min, a.e_max);
  }
  impactfit_code_answer_free(&a);
}

/* every stepped integrator of every model (the continuous-time ones take no step) */
static void every_model(void) {
  int answers = 0, refused = 0;
  const double dts[] = {1e-9, 1.0};
  for (size_t i = 0; i < impactfit_code_model_count(); i++) {
    const impactfit_code_model *md = impactfit_code_model_at(i);
    for (int k = 0; k < md->n_integrators; k++) {
      if (!md->integrators[k].stepper)
        continue;
      for (size_t d = 0; d < sizeof dts / sizeof dts[0]; d++)
        one(md, md->integrators[k].name, dts[d], &answers, &refused);
    }
  }
  printf("test_engine_edges: %d answers, %d refused with a message\n", answers, refused);
  CHECK(answers + refused > 50, "the registry's models and integrators (%d)", answers + refused);
}

/* The issue's command: refused, with the continuous-time e of the law engine in the message. */
static void issue_case(void) {
  ct_request r = ct_make(ct_find("mujoco", NULL, "soft contact", NULL));
  r.q.dt = 1e-8;
  impactfit_code_answer a;
  memset(&a, 0, sizeof a);
  impactfit_error err;
  int st = ct_solve(&r, &a, &err);
  CHECK(st == IMPACTFIT_ENOCONV && strstr(err.message, "too small to step through") && strstr(err.message, "0.1356967"),
        "mujoco dt 1e-8: status %d, '%s'", st, st ? err.message : "");
  /* forward at dt 2e-3 still answers; the inverse at 1e-8 is refused the same way */
  r.q.e = 0.5;
  st = ct_solve(&r, &a, &err);
  CHECK(st == IMPACTFIT_ENOCONV && strstr(err.message, "too small to step through"), "inverse at 1e-8: %d '%s'", st,
        st ? err.message : "");
  impactfit_code_answer_free(&a);
}

/* Issue 39 item 6: Bullet's restitution row between two spheres at a step where the ERP term makes e > 1.
 * The rebound is the restitution R v plus the position correction erp2 φ v of the penetration φ v dt the
 * first contact step starts with (btSequentialImpulseConstraintSolver.cpp:898-980): e(φ) = R + erp2 φ on
 * (0, 1), whose supremum R + erp2 is approached as φ → 1⁻ (e(1) itself starts the next step's sequence, e = R).
 * e_max was the largest sample, 1.32719 at φ = 63.5/64. */
static void bullet_sup(void) {
  ct_request r = ct_make(ct_find("bullet", NULL, "restitution", NULL));
  const double R = 0.7367666339621177, erp2 = 0.5950772480721973;
  r.q.v = 0.3380910223074234;
  r.q.bodies.m1 = 0.013712344229070863;
  r.q.bodies.m2 = 0.09092209028387471;
  r.q.bodies.r1 = r.q.bodies.r2 = 0.005;
  r.q.dt = 0.007321358257017553;
  ct_set1(&r, "erp2", erp2);
  ct_set1(&r, "restitution", R);
  impactfit_code_answer a;
  memset(&a, 0, sizeof a);
  impactfit_error err;
  int st = ct_solve(&r, &a, &err);
  CHECK(st == 0 && !a.wall, "bullet two spheres: %s", st ? err.message : "");
  CHECK_ABS(a.e_max, R + erp2, 1e-11, "e_max = the supremum R + erp2");
  CHECK_ABS(a.e_min, R, 1e-12, "e_min = R (phi -> 0+ and phi = 1)");
  CHECK_ABS(a.e, R + 0.5 * erp2, 1e-11, "e_mean = R + erp2/2");
  CHECK(!a.stable, "flagged unstable (e > 1)");
  impactfit_code_answer_free(&a);
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

static uint64_t sig_at(const qctx *c, double phi) {
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
  uint64_t prev = sig_at(&c, pphi);
  for (int i = 1; i <= NS; i++) {
    double phi = (double)i / NS;
    uint64_t sg = sig_at(&c, phi);
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
  impactfit_error err;
  ct_request r = ct_make(ct_find("chrono", NULL, "plaincoulomb", "gn"));
  r.q.v = 0.6689112501197397;
  r.q.bodies.m1 = 0.0022368269438602867;
  r.q.bodies.m2 = 0.009771015049488855;
  r.q.bodies.r1 = 0.005;
  r.q.bodies.r2 = 0.006;
  r.q.integrator = "euler-implicit-linearized";
  r.q.dt = 4.235275214500041e-05;
  ct_set1(&r, "kn", 81557318.37817894);
  impactfit_stepper st;
  impactfit_step_stats S;
  CHECK(impactfit_code_stepper(ct_q(&r), 5093.733184219927, &st, &err) == 0 &&
            impactfit_step_phase_stats(&st, r.q.v, &S, &err) == 0,
        "PlainCoulomb stats");
  double ae, q = qags_mean(&st, r.q.v, &ae);
  printf("test_engine_edges: PlainCoulomb mean %.16f, qags %.16f (+- %.1e), audit 0.3570647667333125\n", S.e_mean, q,
         ae);
  CHECK_ABS(S.e_mean, 0.3570647667333125, 1e-13, "PlainCoulomb: the audit's quad-precision mean");
  CHECK_ABS(S.e_mean, q, 1e-13 + ae, "PlainCoulomb: qags");
  /* Chrono's Hertz damping delta^(1/4) delta' at dt 1e-5 (0.436 the restitution; 1.309 g on Chrono's default
   * fixed wall of 1 kg, 1 m/s) */
  r = ct_make(ct_find("chrono", NULL, "hertz", NULL));
  r.q.bodies.m1 = 0.001309;
  r.q.dt = 1e-5;
  r.q.integrator = "euler-implicit-linearized";
  CHECK(impactfit_code_stepper(ct_q(&r), 0.436, &st, &err) == 0 && impactfit_step_phase_stats(&st, 1.0, &S, &err) == 0,
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
