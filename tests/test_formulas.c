/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The published ε(e) formulas (include/impactfit/formulas.h) and their audit.
 *
 * Each formula is checked against its expression written out here; Zhang 2020's ε form is
 * checked against Zhang et al. 2021, Eq. (53) taken literally, and against a simulation of their
 * own scaled equation; the audit is checked against values that follow from the formulas and the
 * e → 0 limit of the exact ε (ε = (1 − u)/e with u < 1e-40 at e = 0.01, so ε(0.01) = 100 in
 * double precision), and against a direct recomputation on a small grid. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_errno.h>

#include "impactfit/impactfit.h"
#include "testutil.h"

static impactfit_impact_workspace *ws;

static double zhang_alpha(double e) { return 0.6181 * exp(-3.52 * e) + 0.899 * exp(0.09025 * e); }

static double written_out(const impactfit_formula *f, double e) {
  if (f == impactfit_formula_hunt_crossley)
    return 3 * (1 - e) / 2;
  if (f == impactfit_formula_herbert_mcwhannell)
    return 6 * (1 - e) / ((2 * e - 1) * (2 * e - 1) + 3);
  if (f == impactfit_formula_lee_wang)
    return 3 * (1 - e) / 4;
  if (f == impactfit_formula_gonthier)
    return (1 - e * e) / e;
  if (f == impactfit_formula_zhiying_qishao)
    return 3 * (1 - e * e) * exp(2 * (1 - e)) / 4;
  if (f == impactfit_formula_lankarani_nikravesh)
    return 3 * (1 - e * e) / 4;
  if (f == impactfit_formula_hu_guo)
    return 3 * (1 - e) / (2 * e);
  if (f == impactfit_formula_flores)
    return 8 * (1 - e) / (5 * e);
  if (f == impactfit_formula_zhang_2020)
    return 3 * (1 - e) / (2 * zhang_alpha(e) * e);
  if (f == impactfit_formula_ramaswamy_humbert) {
    double p = 1.381 * (exp(-0.451 * e) - exp(-0.451));
    return (3 + 2 * p) * (1 - e * e) / (2 * e) / ((3 + 2 * p) / (3 - 2 * p) + e);
  }
  return NAN; /* exact: see test_values */
}

static void test_lookup(void) {
  CHECK(impactfit_formula_count() == 11, "eleven formulas");
  const char *names[] = {"hunt-crossley", "herbert-mcwhannell", "lee-wang", "lankarani-nikravesh",
                         "gonthier",      "zhiying-qishao",     "flores",   "hu-guo",
                         "zhang-2020",    "ramaswamy-humbert",  "exact"};
  for (size_t i = 0; i < 11; i++) {
    const impactfit_formula *f = impactfit_formula_at(i);
    CHECK(f && strcmp(f->name, names[i]) == 0, "formula %zu is %s", i, names[i]);
    CHECK(impactfit_formula_from_name(names[i]) == f, "lookup %s", names[i]);
    CHECK(f && f->label[0] && f->expression[0] && f->citation[0], "%s documented", names[i]);
  }
  CHECK(impactfit_formula_at(11) == NULL, "out of range");
  CHECK(impactfit_formula_from_name("EXACT") == impactfit_formula_exact, "'exact' is the exact relation");
  CHECK(impactfit_formula_from_name("gonthier") == impactfit_formula_gonthier &&
            impactfit_formula_gonthier != impactfit_formula_exact,
        "'gonthier' is the closed form, not the exact relation");
  CHECK(impactfit_formula_from_name("Hu-Guo") == impactfit_formula_hu_guo, "case-insensitive");
  CHECK(impactfit_formula_from_name("hu") == NULL && impactfit_formula_from_name("") == NULL &&
            impactfit_formula_from_name(NULL) == NULL && impactfit_formula_from_name("hu-guox") == NULL,
        "unknown names");
}

static void test_values(void) {
  double es[] = {0.01, 0.1, 0.3, 0.5, 0.8, 0.99};
  for (size_t i = 0; i < impactfit_formula_count(); i++) {
    const impactfit_formula *f = impactfit_formula_at(i);
    for (size_t j = 0; j < sizeof es / sizeof es[0]; j++) {
      double x;
      CHECK(impactfit_formula_eps(f, es[j], &x, NULL) == 0, "%s(%g)", f->name, es[j]);
      if (f == impactfit_formula_exact) {
        double e;
        impactfit_hc_e(x, &e, NULL);
        CHECK_REL(e, es[j], 1e-14, "exact(%g) satisfies the exact relation", es[j]);
      } else {
        CHECK_REL(x, written_out(f, es[j]), 1e-13, "%s(%g) as written out", f->name, es[j]);
      }
    }
    double x = -1;
    CHECK(impactfit_formula_eps(f, 1.0, &x, NULL) == 0 && x == 0.0, "%s(1) = 0", f->name);
    double bad[] = {0.0, -0.1, 1.5, NAN, INFINITY};
    for (size_t j = 0; j < sizeof bad / sizeof bad[0]; j++) {
      impactfit_error err;
      impactfit_error_clear(&err);
      CHECK(impactfit_formula_eps(f, bad[j], &x, &err) == IMPACTFIT_EINVAL && err.message[0], "%s(%g): EINVAL", f->name,
            bad[j]);
    }
  }
  impactfit_formula fake = *impactfit_formula_hu_guo;
  double x;
  CHECK(impactfit_formula_eps(&fake, 0.5, &x, NULL) == IMPACTFIT_EINVAL, "a copy is not a formula");
  CHECK(impactfit_formula_eps(NULL, 0.5, &x, NULL) == IMPACTFIT_EINVAL, "NULL formula");
}

/* Zhang et al. 2021, Eq. (53): λ = 3 mass (m+1)(1−e) v/(4α) · [e mass (n+1) v²/(2k)]^(−(m+1)/(n+1)).
 * For m = n: λ = 3(1−e) k/(2αe v), ε = λ v/k = 3(1−e)/(2αe), whatever mass, k, v and n. Their scaled
 * equation (Eqs. 42–46): x'' + k* x^n + λ* x^m x' = 0, x(0) = 0, x'(0) = 1, with
 * k* = e(n+1)/2, λ* = 3(1−e)(m+1)/(4α): the same impact in other units, so the same e_out. */
static void test_zhang(void) {
  double es[] = {0.05, 0.2, 0.5, 0.9};
  double mass = 0.54, k = 2.4144e10, v = 0.3, n = 1.5, m = 1.5;
  for (size_t i = 0; i < sizeof es / sizeof es[0]; i++) {
    double e = es[i], a = zhang_alpha(e);
    double lambda = 3 * mass * (m + 1) * (1 - e) * v / (4 * a) *
                    pow(e * mass * (n + 1) * v * v / (2 * k), -(m + 1) / (n + 1));
    double x;
    impactfit_formula_eps(impactfit_formula_zhang_2020, e, &x, NULL);
    CHECK_REL(x, lambda * v / k, 1e-13, "Zhang 2020 at e = %g: eps from Eq. (53)", e);
    impactfit_impact_params p = impactfit_impact_default_params(), q;
    p.n = n;
    p.m = m;
    p.k = e * (n + 1) / 2;
    p.c = 3 * (1 - e) * (m + 1) / (4 * a);
    q = p;
    q.k = 1.0;
    q.c = x;
    impactfit_impact_result r1, r2;
    CHECK(impactfit_impact_solve(ws, &p, &r1, NULL) == 0 && impactfit_impact_solve(ws, &q, &r2, NULL) == 0,
          "Zhang simulations at e = %g", e);
    CHECK_ABS(r1.e_out, r2.e_out, 1e-13, "Zhang at e = %g: scaled form and eps form agree", e);
  }
}

static void test_audit(void) {
  impactfit_audit_params p = impactfit_audit_default_params();
  CHECK(p.e_min == 0.01 && p.e_max == 1.0 && p.points == 991 && p.n == 1.5, "audit defaults");
  p.points = 100; /* steps of 0.01 */
  impactfit_audit_row r;
  impactfit_error err;
  /* Values at e = 0.01, where the exact ε is 100 to double precision. */
  struct {
    const impactfit_formula *f;
    double eps_err; /* |ε_f(0.01) − 100|/100 */
  } at001[] = {
      {impactfit_formula_hunt_crossley, 1 - 1.485 / 100},
      {impactfit_formula_lankarani_nikravesh, 1 - 0.75 * 0.9999 / 100},
      {impactfit_formula_hu_guo, 0.485},
      {impactfit_formula_flores, 0.584},
  };
  for (size_t i = 0; i < sizeof at001 / sizeof at001[0]; i++) {
    CHECK(impactfit_formula_audit(ws, at001[i].f, &p, &r, &err) == 0, "audit %s", at001[i].f->name);
    CHECK(r.formula == at001[i].f && r.points == 100, "audit %s: row", at001[i].f->name);
    CHECK_REL(r.eps_max, at001[i].eps_err, 1e-13, "audit %s: largest eps error (at e = 0.01)", at001[i].f->name);
    CHECK(r.eps_e_at_max == 0.01, "audit %s: at e = 0.01", at001[i].f->name);
    /* the simulated restitution at e = 0.01 is e(ε_f(0.01)) from the exact relation */
    double x, e1;
    impactfit_formula_eps(at001[i].f, 0.01, &x, NULL);
    impactfit_hc_e(x, &e1, NULL);
    CHECK(r.e_max >= fabs(e1 - 0.01) * (1 - 1e-10), "audit %s: e error max >= its value at 0.01", at001[i].f->name);
  }
  /* The exact formula: no error in eps, and the engine returns e to its accuracy. */
  CHECK(impactfit_formula_audit(ws, impactfit_formula_exact, &p, &r, &err) == 0, "audit exact");
  CHECK(r.eps_max == 0.0, "audit exact: eps exact");
  CHECK_ABS(r.e_max, 0.0, 1e-12, "audit exact: |e_out - e|");
  /* Recomputed directly on 11 points, e_i = 0.01 + 0.99 i/10. */
  p.points = 11;
  CHECK(impactfit_formula_audit(ws, impactfit_formula_ramaswamy_humbert, &p, &r, &err) == 0, "audit RH");
  double mx = 0, sum = 0, emx = 0, esum = 0, at = 0, eat = 0;
  for (int i = 0; i < 11; i++) {
    double e = (i == 10) ? 1.0 : 0.01 + 0.99 * i / 10, ee = (e == 1.0) ? 1 - 1.0 / 67108864 : e;
    double x, f, fe;
    impactfit_hc_eps(ee, &x, NULL);
    impactfit_formula_eps(impactfit_formula_ramaswamy_humbert, ee, &f, NULL);
    impactfit_formula_eps(impactfit_formula_ramaswamy_humbert, e, &fe, NULL);
    double rel = fabs(f - x) / x, eo;
    impactfit_hc_e(fe, &eo, NULL);
    double de = fabs(eo - e);
    sum += rel;
    esum += de;
    if (rel > mx)
      mx = rel, at = e;
    if (de > emx)
      emx = de, eat = e;
  }
  CHECK_REL(r.eps_max, mx, 1e-12, "audit RH: eps max recomputed");
  CHECK_REL(r.eps_mean, sum / 11, 1e-12, "audit RH: eps mean recomputed");
  CHECK(r.eps_e_at_max == at && r.e_e_at_max == eat, "audit RH: where the maxima are");
  CHECK_REL(r.e_max, emx, 1e-9, "audit RH: e max recomputed (engine against the exact e)");
  CHECK_REL(r.e_mean, esum / 11, 1e-9, "audit RH: e mean recomputed");
  /* At e = 1 the relative error is the limit: Flores/exact → (8/5)/(3/2) = 16/15. */
  p.e_min = p.e_max = 1.0;
  p.points = 1;
  CHECK(impactfit_formula_audit(ws, impactfit_formula_flores, &p, &r, &err) == 0, "audit at e = 1");
  CHECK_REL(r.eps_max, 1.0 / 15.0, 1e-7, "Flores at e = 1: relative error -> 1/15");
  CHECK_ABS(r.e_max, 0.0, 1e-14, "eps = 0 at e = 1: undamped, e_out = 1");
  /* invalid */
  impactfit_audit_params bad[5];
  for (int i = 0; i < 5; i++)
    bad[i] = impactfit_audit_default_params();
  bad[0].e_min = 0.0;
  bad[1].e_max = 1.5;
  bad[2].points = 0;
  bad[3].n = 0.0;
  bad[4].e_min = 0.5, bad[4].e_max = 0.4;
  for (int i = 0; i < 5; i++)
    CHECK(impactfit_formula_audit(ws, impactfit_formula_hu_guo, &bad[i], &r, &err) == IMPACTFIT_EINVAL,
          "audit invalid parameters %d", i);
  CHECK(impactfit_formula_audit(ws, NULL, &p, &r, &err) == IMPACTFIT_EINVAL, "audit NULL formula");
  CHECK(impactfit_formula_audit(NULL, impactfit_formula_hu_guo, &p, &r, &err) == IMPACTFIT_EINVAL, "audit NULL "
                                                                                                   "workspace");
}

int main(void) {
  gsl_set_error_handler_off();
  ws = impactfit_impact_alloc();
  if (!ws)
    return 2;
  test_lookup();
  test_values();
  test_zhang();
  test_audit();
  impactfit_impact_free(ws);
  return tu_report("test_formulas");
}
