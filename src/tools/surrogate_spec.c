/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The built-in surrogate specifications with `impactfit surrogate`'s overrides (tools.h), shared by
 * that command and the report's regeneration of the committed surrogates (moved from
 * src/cli/cmd_surrogate.c unchanged). */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tools.h"

/* The built-in specification of the surrogate WHICH with the options' overrides, and the command
 * line that makes it (for the header's banner); see cli.h. */
int cli_surrogate_spec(const char *which, const int deg[4], double drop, int check, impactfit_surrogate_spec *spec,
                       char *command, size_t size) {
  enum { UNSET = INT_MIN };
  if (strcmp(which, "copt") == 0)
    *spec = impactfit_surrogate_copt_spec();
  else if (strcmp(which, "zhang-c") == 0)
    *spec = impactfit_surrogate_zhang_spec(impactfit_transition_C);
  else if (strcmp(which, "zhang-a") == 0)
    *spec = impactfit_surrogate_zhang_spec(impactfit_transition_A);
  else
    return cli_input_error("surrogate: unknown surrogate '%s' (copt, zhang-c, zhang-a)", which);
  if ((deg[0] != UNSET && deg[0] < 0) || (deg[1] != UNSET && deg[1] < 0) || (deg[2] != UNSET && deg[2] < 1) ||
      (deg[3] != UNSET && deg[3] < 1))
    return cli_input_error("surrogate: degrees must be >= 0 in n and m, >= 1 in ln e and ln(1 - e)");
  if (check != UNSET && check < 0)
    return cli_input_error("--check: expected a number of points >= 0, got %d", check);
  if (!isnan(drop) && !(drop >= 0.0 && drop < 1e-3))
    return cli_input_error("--drop: expected a value in [0, 1e-3), got %.17g", drop);
  if (deg[0] > 60 || deg[1] > 60 || deg[2] > 120 || deg[3] > 120)
    return cli_input_error("surrogate: degrees are at most 60 in n and m, 120 in ln e and ln(1 - e)");
  if (check > 1000000)
    return cli_input_error("--check: at most 1000000 points");
  int cl = snprintf(command, size, "impactfit surrogate %s", which);
  if (spec->n_pieces == 0) {
    if (deg[0] >= 0)
      spec->deg_n = deg[0];
    if (deg[1] >= 0)
      spec->deg_m = deg[1];
    if (deg[2] >= 0)
      spec->deg_t = deg[2];
    if (deg[3] >= 0)
      spec->deg_r = deg[3];
    if (!isnan(drop))
      return cli_input_error("--drop: only for the piecewise surrogates zhang-c and zhang-a");
    if (check >= 0)
      spec->check_points = check;
    snprintf(command + cl, size - (size_t)cl, " --deg-n %d --deg-m %d --deg-t %d --deg-r %d --check %d", spec->deg_n,
             spec->deg_m, spec->deg_t, spec->deg_r, spec->check_points);
  } else {
    const char *names[4] = {"deg-n", "deg-m", "deg-t", "deg-r"};
    for (int q = 0; q < 4; q++) {
      if (deg[q] < 0)
        continue;
      for (int j = 0; j < spec->n_pieces; j++)
        for (int P = 0; P < 2; P++) {
          if (q < 2)
            spec->piece[j].deg[P][q] = deg[q];
          else if (q - 2 == P)
            spec->piece[j].deg[P][2] = deg[q];
        }
      cl += snprintf(command + cl, size - (size_t)cl, " --%s %d", names[q], deg[q]);
    }
    if (!isnan(drop)) {
      spec->drop = drop;
      cl += snprintf(command + cl, size - (size_t)cl, " --drop %g", drop);
    }
    if (check >= 0)
      spec->check_points = check;
    snprintf(command + cl, size - (size_t)cl, " --check %d", spec->check_points);
  }
  return 0;
}
