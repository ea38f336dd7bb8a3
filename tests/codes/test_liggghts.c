/* SPDX-License-Identifier: GPL-3.0-or-later */
/* LIGGGHTS in the code registry (src/codes/liggghts.c) against results derived independently:
 *  - hertz without limitForce: its β conversion, C = √5 |β| √(M K), is the exact inverse of the Hertz δ^(1/4)
 *    damper ending at δ = 0 (dem.h; inverse.h's scale-invariant family), so typing e gives e at every speed;
 *  - hertz with limitForce on: the restitutions measured in the real LIGGGHTS 3.8.0 (Debian 12; 5 digits);
 *  - hooke's characteristic velocity defaults to the design speed; the code refuses e <= 0.05. */
#include "codes_test.h"

static void test_hertz(void) {
  ct_request r = ct_dem(ct_find("liggghts", NULL, "hertz", NULL), 0);
  const double e_in[3] = {0.1, 0.5, 0.9}, lig_C[3] = {0.25273, 0.55028, 0.90203};
  for (int i = 0; i < 3; i++) {
    CHECK_REL(ct_forward(&r, 0, e_in[i], 1.0), e_in[i], 1e-12, "liggghts hertz limitForce off, e = %g", e_in[i]);
    CHECK_ABS(ct_forward(&r, 1, e_in[i], 1.0), lig_C[i], 6e-6, "liggghts hertz limitForce on, e = %g vs LIGGGHTS 3.8.0",
              e_in[i]);
  }
  /* the forward answer: the typed e is the real e, at one speed when no range is given */
  impactfit_code_answer a = {0};
  r.q.v = 1.3;
  r.q.value = 0.5;
  CHECK(ct_solve(&r, &a, NULL) == 0 && a.forward && !a.stepped, "forward request");
  CHECK_REL(a.e, 0.5, 1e-9, "liggghts hertz A: typed e is the real e");
  CHECK(a.e_speed_min == a.e && a.e_speed_max == a.e && a.v_min == 1.3 && a.v_max == 1.3, "one speed when no range");
  CHECK(a.end == impactfit_transition_A && a.value == 0.5 && strstr(a.input, "hertz"), "end A, input");
  r.q.clamp = 1;
  CHECK(ct_solve(&r, &a, NULL) == 0 && a.end == impactfit_transition_C && a.e > 0.5,
        "limitForce on: the clamped force gives a higher e (%.17g)", a.e);
  /* e <= 0.05 is refused by the code: the naive input has no e, the inverse still answers */
  impactfit_error err;
  r.q.value = 0.04;
  CHECK(ct_solve(&r, &a, &err) == IMPACTFIT_EINVAL && strstr(err.message, "refuses e <= 0.05"), "e 0.04: %s",
        err.message);
  r.q.value = NAN;
  r.q.e = 0.3;
  r.q.clamp = 0;
  CHECK(ct_solve(&r, &a, &err) == 0 && a.reachable && !isnan(a.e_naive), "e 0.3 solves");
  impactfit_code_answer_free(&a);
  CHECK(impactfit_code_from_name("liggghts")->version_key("3.8.0") == 3008000, "version key 3.8.0");
}

/* hooke takes the characteristic velocity; without one it is the design speed */
static void test_hooke_vchar(void) {
  ct_request r = ct_dem(ct_find("liggghts", NULL, "hooke", NULL), 0);
  ct_request w = r;
  r.q.n_settings = 2; /* E, nu: no vchar */
  r.q.v = 2.0;
  ct_set1(&w, "vchar", 2.0);
  double e1 = ct_forward(&r, -1, 0.3, 2.0), e2 = ct_forward(&w, -1, 0.3, 2.0);
  CHECK(isfinite(e1) && e1 == e2, "v_char defaults to v (%.17g, %.17g)", e1, e2);
  impactfit_code_answer a = {0};
  r.q.e = 0.3;
  CHECK(ct_solve(&r, &a, NULL) == 0 && a.input && strstr(a.input, "characteristicVelocity scalar 2\n"),
        "the paste text: %s", a.input ? a.input : "(none)");
  impactfit_code_answer_free(&a);
}

int main(void) {
  test_hertz();
  test_hooke_vchar();
  return tu_report("test_liggghts");
}
