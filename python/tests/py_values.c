/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Reference values for the Python tests, computed in C without the binding: the committed surrogates
 * evaluated by their generated headers' own static inline functions (compiled here, not through the
 * library), printed with %.17g. usage: py_values copt N E | zhang C|A N M E | dtau EPS N | rh lsq|minimax E */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impactfit/generated/copt_surrogate.h"
#include "impactfit/generated/ramaswamy_dtau_surrogate.h"
#include "impactfit/generated/ramaswamy_eps.h"
#include "impactfit/generated/zhang_a_surrogate.h"
#include "impactfit/generated/zhang_c_surrogate.h"

int main(int argc, char **argv) {
  if (argc >= 4 && !strcmp(argv[1], "copt")) {
    printf("%.17g\n", impactfit_copt_zeta(atof(argv[2]), atof(argv[3])));
  } else if (argc >= 6 && !strcmp(argv[1], "zhang")) {
    double n = atof(argv[3]), m = atof(argv[4]), e = atof(argv[5]);
    if (!strcmp(argv[2], "C"))
      printf("%.17g %.17g\n", impactfit_zhang_c_zeta(n, m, e), impactfit_zhang_c_alpha(n, m, e));
    else
      printf("%.17g %.17g\n", impactfit_zhang_a_zeta(n, m, e), impactfit_zhang_a_alpha(n, m, e));
  } else if (argc >= 4 && !strcmp(argv[1], "dtau")) {
    printf("%.17g\n", impactfit_ramaswamy_dtau_surrogate(atof(argv[2]), atof(argv[3])));
  } else if (argc >= 4 && !strcmp(argv[1], "rh")) {
    double e = atof(argv[3]);
    printf("%.17g\n", !strcmp(argv[2], "lsq") ? impactfit_ramaswamy_eps_lsq(e) : impactfit_ramaswamy_eps_minimax(e));
  } else {
    fputs("usage: py_values copt N E | zhang C|A N M E | dtau EPS N | rh lsq|minimax E\n", stderr);
    return 2;
  }
  return 0;
}
