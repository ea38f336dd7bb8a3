/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Havok (npm @babylonjs/havok 1.3.14, measured) in the code registry (src/codes/havok.c; the engine itself:
 * tests/engines/havok_impacts.c), against the measured law written out: e = q(r) (t(v) − g dt)/v with q the 7-bit
 * rounding of the typed restitution, t(v) the speed with 7 mantissa bits, nothing below 0.1 m/s; the registry's
 * inverse goes through the model's own solve (the mean is a step function of r) and gives the rounded r whose law
 * comes nearest the asked e. */
#include "codes/npm_engines_impl.h"
#include "codes_test.h"

static const double M = CT_M5; /* a 5 mm glass sphere */

#define CLOSE(got, want, tol, ...) CHECK_ABS(got, want, tol, __VA_ARGS__)
#define check(ok, what, got, want) CHECK(ok, "%s: got %.17g, want %.17g", what, (double)(got), (double)(want))

static inline double e_at(const impactfit_stepper *st, double v, double phi) {
  impactfit_step_impact o;
  impactfit_error err;
  int s = impactfit_step_impact_at(st, v, phi, &o, &err);
  CHECK(s == 0, "impact at %g: %s", phi, s ? err.message : "");
  return s ? NAN : o.e;
}

static inline double mean_of(const impactfit_stepper *st, double v) {
  impactfit_step_stats S;
  impactfit_error err;
  int s = impactfit_step_phase_stats(st, v, &S, &err);
  CHECK(s == 0, "stats: %s", s ? err.message : "");
  return s ? NAN : S.e_mean;
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

/* the entry: the model's own inverse (impactfit__havok_corrected at the engine's float32 step), the law's e at
 * that value, out of reach above the rebound's largest e */
static void havok_registry(void) {
  impactfit_error err;
  impactfit_code_answer a;
  memset(&a, 0, sizeof a);
  static const double es[3] = {0.3, 0.5, 0.6}, vs[3] = {1.0, 2.5, 0.7};
  for (int k = 0; k < 3; k++) {
    ct_request r = ct_make(ct_find("havok", NULL, NULL, NULL));
    r.q.e = es[k];
    r.q.v = vs[k];
    CHECK(ct_solve(&r, &a, &err) == 0 && a.reachable, "havok: e %g at %g m/s: %s", es[k], vs[k], err.message);
    double h = (double)(float)(1.0 / 60.0), law = NAN, want = impactfit__havok_corrected(es[k], vs[k], h, 9.81, &law);
    CHECK(a.value == want, "havok: the corrected restitution %.17g (got %.17g)", want, a.value);
    CLOSE(a.e, law, 1e-12, "havok: the answer's e is the law's at the rounded value");
    CHECK(fabs(law - es[k]) <= es[k] / 128.0, "havok: the law's %.6g within a rounding step of %g", law, es[k]);
    /* the law by hand: q(r) (t(v) - 9.81 dt)/v */
    double t = vs[k] == 1.0 ? 1.0 : vs[k] == 2.5 ? 2.5 : 0.69921875;
    CLOSE(a.e, impactfit__havok_quantize(a.value) * (t - 9.81 * h) / vs[k], 1e-12, "havok: e by hand at %g m/s", vs[k]);
    /* the nearest step, said first where it is not the asked e (0.3 at 1 m/s: 0.30062) */
    int off = fabs(law - es[k]) > 1e-10;
    CHECK((strstr(a.note, "NEAREST") == a.note) == off, "havok: e %g (law %.10g): the note %s with NEAREST: %.120s",
          es[k], law, off ? "starts" : "does not start", a.note);
  }
  /* an asked e that is a step (the law at restitution 0.5, 1 m/s): met, no NEAREST */
  ct_request x = ct_make(ct_find("havok", NULL, NULL, NULL));
  x.q.v = 1.0;
  x.q.e = 0.5 * (1.0 - 9.81 * (double)(float)(1.0 / 60.0));
  CHECK(ct_solve(&x, &a, &err) == 0 && a.reachable && fabs(a.e - x.q.e) <= 1e-12 && !strstr(a.note, "NEAREST"),
        "havok: e %.17g, a step of the mean: e %.17g, note %.80s", x.q.e, a.e, a.note);
  ct_request u = ct_make(ct_find("havok", NULL, NULL, NULL));
  u.q.e = 0.95;
  CHECK(ct_solve(&u, &a, &err) == 0 && !a.reachable && strstr(a.note, "NOT REACHABLE") == a.note,
        "havok: e 0.95 at 1 m/s above 1 - 9.81 dt: %s", a.note);
  impactfit_code_answer_free(&a);
}

int main(void) {
  havok();
  havok_registry();
  return tu_report("test_havok");
}
