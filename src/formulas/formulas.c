/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The published ε(e) formulas for the Hunt–Crossley model and their audit
 * (include/impactfit/formulas.h). */
#include <ctype.h>
#include <math.h>
#include <string.h>

#include "impactfit/formulas.h"
#include "impactfit/hc.h"

#include "../common/common_impl.h"
#include "../hc/hc_impl.h"

static int f_hunt_crossley(double e, double *eps, impactfit_error *err) {
  (void)err;
  *eps = 1.5 * (1.0 - e);
  return IMPACTFIT_OK;
}

static int f_lankarani_nikravesh(double e, double *eps, impactfit_error *err) {
  (void)err;
  *eps = 0.75 * (1.0 - e) * (1.0 + e);
  return IMPACTFIT_OK;
}

static int f_hu_guo(double e, double *eps, impactfit_error *err) {
  (void)err;
  *eps = 1.5 * (1.0 - e) / e;
  return IMPACTFIT_OK;
}

static int f_flores(double e, double *eps, impactfit_error *err) {
  (void)err;
  *eps = 1.6 * (1.0 - e) / e;
  return IMPACTFIT_OK;
}

static int f_herbert_mcwhannell(double e, double *eps, impactfit_error *err) {
  (void)err;
  double u = 2.0 * e - 1.0;
  *eps = 6.0 * (1.0 - e) / (u * u + 3.0);
  return IMPACTFIT_OK;
}

static int f_lee_wang(double e, double *eps, impactfit_error *err) {
  (void)err;
  *eps = 0.75 * (1.0 - e);
  return IMPACTFIT_OK;
}

static int f_gonthier(double e, double *eps, impactfit_error *err) {
  (void)err;
  *eps = (1.0 - e) * (1.0 + e) / e;
  return IMPACTFIT_OK;
}

static int f_zhiying_qishao(double e, double *eps, impactfit_error *err) {
  (void)err;
  *eps = 0.75 * (1.0 - e) * (1.0 + e) * exp(2.0 * (1.0 - e));
  return IMPACTFIT_OK;
}

static int f_exact(double e, double *eps, impactfit_error *err) { return impactfit_hc_eps(e, eps, err); }

static int f_zhang_2020(double e, double *eps, impactfit_error *err) {
  (void)err;
  double alpha = 0.6181 * exp(-3.52 * e) + 0.899 * exp(0.09025 * e);
  *eps = 1.5 * (1.0 - e) / (alpha * e);
  return IMPACTFIT_OK;
}

static int f_ramaswamy_humbert(double e, double *eps, impactfit_error *err) {
  return impactfit_hc_rh_eps(e, IMPACTFIT_HC_RH_ALPHA, IMPACTFIT_HC_RH_BETA, eps, err);
}

static const impactfit_formula formulas[] = {
    {.name = "hunt-crossley",
     .label = "Hunt-Crossley (1975)",
     .expression = "3(1-e)/2",
     .citation = "K. H. Hunt, F. R. E. Crossley, Coefficient of restitution interpreted as damping in vibroimpact, J. "
                 "Appl. "
                 "Mech. 42(2) (1975) 440-445",
     .eps = f_hunt_crossley},
    {.name = "herbert-mcwhannell",
     .label = "Herbert-McWhannell (1977)",
     .expression = "6(1-e)/((2e-1)^2+3)",
     .citation = "R. G. Herbert, D. C. McWhannell, Shape and frequency composition of pulses from an impact pair, J. "
                 "Eng. Ind. "
                 "99(3) (1977) 513-518",
     .eps = f_herbert_mcwhannell},
    {.name = "lee-wang",
     .label = "Lee-Wang (1983)",
     .expression = "3(1-e)/4",
     .citation = "T. W. Lee, A. C. Wang, On the dynamics of intermittent-motion mechanisms, Part 1: dynamic model and "
                 "response, J. Mech. Transm. Autom. Des. 105(3) (1983) 534-540",
     .eps = f_lee_wang},
    {.name = "lankarani-nikravesh",
     .label = "Lankarani-Nikravesh (1990)",
     .expression = "3(1-e^2)/4",
     .citation = "H. M. Lankarani, P. E. Nikravesh, A contact force model with hysteresis damping for impact analysis "
                 "of "
                 "multibody systems, J. Mech. Des. 112(3) (1990) 369-376",
     .eps = f_lankarani_nikravesh},
    {.name = "gonthier",
     .label = "Gonthier et al. (2004)",
     .expression = "(1-e^2)/e",
     .citation = "Y. Gonthier, J. McPhee, C. Lange, J.-C. Piedboeuf, A regularized contact model with asymmetric "
                 "damping and "
                 "dwell-time dependent friction, Multibody Syst. Dyn. 11(3) (2004) 209-233 (the closed approximation "
                 "d = 1 - e^2 of their exact relation, as the reviews quote it)",
     .eps = f_gonthier},
    {.name = "zhiying-qishao",
     .label = "Zhiying-Qishao (2006)",
     .expression = "3(1-e^2) exp(2(1-e))/4",
     .citation = "Q. Zhiying, L. Qishao, Analysis of impact process based on restitution coefficient, J. Dyn. Control "
                 "4 "
                 "(2006) 294-298",
     .eps = f_zhiying_qishao},
    {.name = "flores",
     .label = "Flores et al. (2011)",
     .expression = "8(1-e)/(5e)",
     .citation = "P. Flores, M. Machado, M. T. Silva, J. M. Martins, On the continuous contact force models for soft "
                 "materials in multibody dynamics, Multibody Syst. Dyn. 25(3) (2011) 357-375; the same form in K. Ye, "
                 "L. Li, "
                 "H. Zhu, Earthq. Eng. Struct. Dyn. 38(9) (2009) 1135-1142",
     .eps = f_flores},
    {.name = "hu-guo",
     .label = "Hu-Guo (2015)",
     .expression = "3(1-e)/(2e)",
     .citation = "S. Hu, X. Guo, A dissipative contact force model for impact analysis in multibody dynamics, "
                 "Multibody "
                 "Syst. Dyn. 35(2) (2015) 131-151",
     .eps = f_hu_guo},
    {.name = "zhang-2020",
     .label = "Zhang et al. (2020)",
     .expression = "3(1-e)/(2 alpha e), alpha = 0.6181 exp(-3.52 e) + 0.899 exp(0.09025 e)",
     .citation = "J. Zhang, W. Li, L. Zhao, G. He, A continuous contact force model for impact analysis in "
                 "multibody dynamics, Mech. Mach. Theory 153 (2020) 103946; as written in J. Zhang et al., "
                 "Mech. Syst. Signal Process. 159 (2021) 107808, Eqs. (48), (53) with m = n",
     .eps = f_zhang_2020},
    {.name = "ramaswamy-humbert",
     .label = "Ramaswamy-Humbert",
     .expression = "(3+2p)(1-e^2)/(2e) / ((3+2p)/(3-2p) + e), p = 1.381 (exp(-0.451 e) - exp(-0.451))",
     .citation = "D. A. Ramaswamy, J. S. Humbert, A continuous contact force model for highly damped impacts of "
                 "arbitrary material and geometry (extended abstract), Eq. (6)",
     .eps = f_ramaswamy_humbert},
    {.name = "exact",
     .label = "exact relation",
     .expression = "(1+eps)/(1-e eps) = exp(eps(1+e)), solved exactly",
     .citation = "the phase-plane first integral of D. W. Marhefka, D. E. Orin, IEEE Trans. Syst. Man Cybern. A 29(6) "
                 "(1999) "
                 "566-572 and W. J. Stronge, Impact Mechanics (2000); written as a relation between e and d = e eps by "
                 "Y. Gonthier et al., Multibody Syst. Dyn. 11(3) (2004) 209-233; in closed form (Lambert W) by A. S. "
                 "Carvalho, J. M. Martins, Mech. Mach. Theory (2019)",
     .eps = f_exact},
};

#define NFORMULAS (sizeof formulas / sizeof formulas[0])

const impactfit_formula *const impactfit_formula_hunt_crossley = &formulas[0];
const impactfit_formula *const impactfit_formula_herbert_mcwhannell = &formulas[1];
const impactfit_formula *const impactfit_formula_lee_wang = &formulas[2];
const impactfit_formula *const impactfit_formula_lankarani_nikravesh = &formulas[3];
const impactfit_formula *const impactfit_formula_gonthier = &formulas[4];
const impactfit_formula *const impactfit_formula_zhiying_qishao = &formulas[5];
const impactfit_formula *const impactfit_formula_flores = &formulas[6];
const impactfit_formula *const impactfit_formula_hu_guo = &formulas[7];
const impactfit_formula *const impactfit_formula_zhang_2020 = &formulas[8];
const impactfit_formula *const impactfit_formula_ramaswamy_humbert = &formulas[9];
const impactfit_formula *const impactfit_formula_exact = &formulas[10];

size_t impactfit_formula_count(void) { return NFORMULAS; }

const impactfit_formula *impactfit_formula_at(size_t i) { return (i < NFORMULAS) ? &formulas[i] : NULL; }

static int same_name(const char *a, const char *b) {
  for (; *a && *b; a++, b++)
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
      return 0;
  return *a == *b;
}

const impactfit_formula *impactfit_formula_from_name(const char *name) {
  if (!name)
    return NULL;
  for (size_t i = 0; i < NFORMULAS; i++)
    if (same_name(name, formulas[i].name))
      return &formulas[i];
  return NULL;
}

static int known(const impactfit_formula *f) {
  for (size_t i = 0; i < NFORMULAS; i++)
    if (f == &formulas[i])
      return 1;
  return 0;
}

int impactfit_formula_eps(const impactfit_formula *f, double e, double *eps, impactfit_error *err) {
  if (!f || !known(f))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "unknown formula");
  if (!eps)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no output given");
  if (!(isfinite(e) && e > 0.0 && e <= 1.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "coefficient of restitution e must be in (0, 1] (got %.17g)", e);
  double v;
  int st = f->eps(e, &v, err);
  if (st)
    return st;
  if (!isfinite(v))
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENONFINITE, "%s: non-finite damping ratio at e = %g", f->name, e);
  *eps = v;
  return IMPACTFIT_OK;
}

/* ---- audit ---- */

impactfit_audit_params impactfit_audit_default_params(void) {
  impactfit_audit_params p;
  p.e_min = 0.01;
  p.e_max = 1.0;
  p.points = 991;
  p.n = 1.5;
  return p;
}

static int eps_adapter(double e, void *ctx, double *eps, impactfit_error *err) {
  return impactfit_formula_eps((const impactfit_formula *)ctx, e, eps, err);
}

int impactfit_formula_audit(impactfit_impact_workspace *ws, const impactfit_formula *f, const impactfit_audit_params *p,
                            impactfit_audit_row *row, impactfit_error *err) {
  if (!ws || !p || !row)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no workspace, parameters or output given");
  if (!f || !known(f))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "unknown formula");
  if (!(isfinite(p->e_min) && isfinite(p->e_max) && p->e_min > 0.0 && p->e_max <= 1.0 && p->e_min <= p->e_max))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "the e range must satisfy 0 < e_min <= e_max <= 1 (got %.17g, %.17g)",
                           p->e_min, p->e_max);
  if (p->points < 1 || p->points > 10000000 || ((p->points == 1) != (p->e_min == p->e_max)))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "grid points must be 1..1e7 (1 exactly when e_min = e_max; got %zu)",
                           p->points);
  if (!(isfinite(p->n) && p->n > 0.0))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "spring exponent n must be > 0 (got %.17g)", p->n);
  impactfit_audit_row r;
  memset(&r, 0, sizeof r);
  r.formula = f;
  r.points = p->points;
  r.eps_e_at_max = r.e_e_at_max = p->e_min;
  double se = 0.0, sx = 0.0;
  for (size_t i = 0; i < p->points; i++) {
    double e = impactfit__grid(p->e_min, p->e_max, p->points, i), rel, ef;
    int st = impactfit__eps_rel_error(eps_adapter, (void *)f, e, &rel, err);
    if (st)
      return st;
    if ((st = impactfit_formula_eps(f, e, &ef, err)))
      return st;
    impactfit_impact_params ip = impactfit_impact_scaled_params(p->n, p->n, 0.0);
    ip.k = ip.mass = ip.v = 1.0; /* then c = λ = ε */
    ip.c = ef;
    ip.locate_extrema = 0;
    impactfit_impact_result res;
    if ((st = impactfit_impact_solve(ws, &ip, &res, err)))
      return st;
    double de = fabs(res.e_out - e);
    se += rel;
    sx += de;
    if (rel > r.eps_max) {
      r.eps_max = rel;
      r.eps_e_at_max = e;
    }
    if (de > r.e_max) {
      r.e_max = de;
      r.e_e_at_max = e;
    }
  }
  r.eps_mean = se / (double)p->points;
  r.e_mean = sx / (double)p->points;
  *row = r;
  return IMPACTFIT_OK;
}
