/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The committed generated headers (include/impactfit/generated/) against a fresh run.
 *
 * For each demonstration fit file, the sweep it names is run in-process, the fit file's stages are
 * fitted to it, and
 *  - the header text generated now must equal the committed file byte for byte (the committed
 *    header is up to date and generation is deterministic);
 *  - the committed header's constants must be the fitted doubles exactly, and its inline
 *    functions, compiled here, must evaluate to impactfit_fit_model_eval at every data point;
 *  - demo_scaling fits t_c = a mass^b k^d to undamped Hertz impacts (n = 1.5, v = 1), where
 *    exactly b = 1/(n+1) = 0.4, d = −0.4 and a = 2 (1.25)^0.4 B(0.4, 1/2)/2.5 (docs/MODEL.md §1:
 *    t_c = 2 (δ_m0/v) B(1/(n+1), 1/2)/(n+1), δ_m0 = [(n+1) mass v²/(2k)]^(1/(n+1))).
 * usage: test_generated SOURCE_DIR */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sf_gamma.h>

#include "impactfit/generated/demo_copt.h"
#include "impactfit/generated/demo_scaling.h"
#include "impactfit/impactfit.h"
#include "testutil.h"
#include "testsweep.h"

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: test_generated SOURCE_DIR\n");
    return 2;
  }
  impactfit_fitfile *f = fit_pipeline(argv[1], "demo_copt", NULL);
  if (f) {
    impactfit_fit_stage per_n, alpha, beta;
    impactfit_fitfile_stage(f, 0, &per_n);
    impactfit_fitfile_stage(f, 1, &alpha);
    impactfit_fitfile_stage(f, 2, &beta);
    CHECK(per_n.n_groups == IMPACTFIT_DEMO_COPT_PER_N_GROUPS, "per_n: group count");
    for (size_t g = 0; g < per_n.n_groups && g < IMPACTFIT_DEMO_COPT_PER_N_GROUPS; g++) {
      const impactfit_fit_result *r = &per_n.results[g];
      CHECK(impactfit_demo_copt_per_n_n[g] == per_n.group_values[g] &&
                impactfit_demo_copt_per_n_alpha[g] == r->value[0] && impactfit_demo_copt_per_n_beta[g] == r->value[1],
            "per_n group %zu: header constants are the fitted doubles", g);
      for (double e = 0.45; e <= 1.0; e += 0.05)
        CHECK_REL(impactfit_demo_copt_per_n(g, e), impactfit_fit_model_eval(per_n.model, r->value, e, 0.0), 1e-15,
                  "per_n group %zu: header function at e = %g", g, e);
    }
    for (double n = 1.0; n <= 2.0; n += 0.125) {
      CHECK_REL(impactfit_demo_copt_alpha(n), impactfit_fit_model_eval(alpha.model, alpha.results[0].value, n, 0.0),
                1e-15, "alpha(%g) from the header", n);
      CHECK_REL(impactfit_demo_copt_beta(n), impactfit_fit_model_eval(beta.model, beta.results[0].value, n, 0.0), 1e-15,
                "beta(%g) from the header", n);
    }
    CHECK(impactfit_demo_copt_alpha_a2 == alpha.results[0].value[2] &&
              impactfit_demo_copt_beta_b == beta.results[0].value[1],
          "alpha and beta constants are the fitted doubles");
    /* the statistics arrays: the fit results' doubles, constants in order */
    int stats_ok = 1;
    for (size_t g = 0; g < per_n.n_groups && g < IMPACTFIT_DEMO_COPT_PER_N_GROUPS; g++) {
      const impactfit_fit_result *r = &per_n.results[g];
      stats_ok &= impactfit_demo_copt_per_n_se[g][0] == r->se[0] && impactfit_demo_copt_per_n_se[g][1] == r->se[1] &&
                  impactfit_demo_copt_per_n_rms[g] == r->rms && impactfit_demo_copt_per_n_max_abs[g] == r->max_abs &&
                  impactfit_demo_copt_per_n_max_rel[g] == r->max_rel && r->se[0] > 0.0;
    }
    CHECK(stats_ok, "per_n: P_se[g][j], P_rms[g], P_max_abs[g], P_max_rel[g] are the fit's doubles");
    CHECK(sizeof impactfit_demo_copt_alpha_se / sizeof impactfit_demo_copt_alpha_se[0] == alpha.results[0].n_params,
          "alpha: one standard error per constant");
    stats_ok = 1;
    for (size_t j = 0; j < alpha.results[0].n_params; j++)
      stats_ok &= impactfit_demo_copt_alpha_se[j] == alpha.results[0].se[j];
    for (size_t j = 0; j < beta.results[0].n_params; j++)
      stats_ok &= impactfit_demo_copt_beta_se[j] == beta.results[0].se[j];
    CHECK(stats_ok && impactfit_demo_copt_alpha_rms == alpha.results[0].rms &&
              impactfit_demo_copt_alpha_max_abs == alpha.results[0].max_abs &&
              impactfit_demo_copt_beta_max_rel == beta.results[0].max_rel,
          "alpha, beta: P_se[j], P_rms, P_max_abs, P_max_rel are the fit's doubles");
    impactfit_fitfile_free(f);
  }
  f = fit_pipeline(argv[1], "demo_scaling", NULL);
  if (f) {
    impactfit_fit_stage tc;
    impactfit_fitfile_stage(f, 0, &tc);
    const impactfit_fit_result *r = &tc.results[0];
    double a = 2.0 * pow(1.25, 0.4) * gsl_sf_beta(0.4, 0.5) / 2.5;
    CHECK_REL(r->value[0], a, 1e-12, "scaling: a = 2 (1.25)^0.4 B(0.4, 1/2)/2.5");
    CHECK_REL(r->value[1], 0.4, 1e-12, "scaling: mass exponent 1/(n+1)");
    CHECK_REL(r->value[2], -0.4, 1e-12, "scaling: stiffness exponent -1/(n+1)");
    CHECK(impactfit_demo_scaling_tc_a == r->value[0] && impactfit_demo_scaling_tc_b == r->value[1] &&
              impactfit_demo_scaling_tc_d == r->value[2],
          "scaling: header constants are the fitted doubles");
    for (double mass = 1e-3; mass <= 10.0; mass *= 3.7)
      for (double k = 1e5; k <= 1e10; k *= 13.0)
        CHECK_REL(impactfit_demo_scaling_tc(mass, k), impactfit_fit_model_eval(tc.model, r->value, mass, k), 1e-15,
                  "scaling: header function at mass %g, k %g", mass, k);
    impactfit_fitfile_free(f);
  }
  return tu_report("test_generated");
}
