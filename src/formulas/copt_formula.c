/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The published closed forms of c_opt (formulas.h): Poursina & Nikravesh (2020), Eqs. 46–47, 49,
 * 52 and 57. */
#include <math.h>

#include "impactfit/formulas.h"

static const impactfit_copt_formula poursina2020 = {
    .name = "poursina2020",
    .citation = "M. Poursina, P. E. Nikravesh, Optimal damping coefficient for a class of continuous contact models, "
                "Multibody System Dynamics 50 (2020) 169-195, doi:10.1007/s11044-020-09746-y",
    .alpha_coef = {1.794, -2.306, 3.077, -1.48, 0.3331},
    .beta_coef = {1.285, 0.2553, -1.725},
    .n_min = 1.0,
    .n_max = 2.0,
    .eq52 = {.label = "Eq. (52)", .n = 1.5, .alpha = 1.95, .beta = -0.3},
    .eq57 = {.label = "Eq. (57)", .n = 1.0, .alpha = 1.4181, .beta = -0.44},
};
const impactfit_copt_formula *const impactfit_copt_formula_poursina2020 = &poursina2020;

double impactfit_copt_formula_alpha(const impactfit_copt_formula *f, double n) {
  const double *a = f->alpha_coef;
  return (((a[4] * n + a[3]) * n + a[2]) * n + a[1]) * n + a[0];
}

double impactfit_copt_formula_beta(const impactfit_copt_formula *f, double n) {
  return f->beta_coef[0] * pow(n, f->beta_coef[1]) + f->beta_coef[2];
}

double impactfit_copt_closed_c(double alpha, double beta, double n, double e, double k, double mass, double v) {
  return alpha * (pow(e, beta) - 1.0) * exp((log(k) + (n - 1.0) * log(v) + n * log(mass)) / (n + 1.0));
}
