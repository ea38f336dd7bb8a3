/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit dtau-surrogate: builds the Chebyshev surrogate of the Hunt–Crossley impact time
 * Δτ(ε, n), checks it on held-out points by simulation and writes it as a generated C header. */
#include <omp.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "help_texts.h" /* generated from docs/cli/COMMAND.txt */
#include "impactfit/impactfit.h"

static const char *const help_text = cli_help_dtau_surrogate; /* docs/cli/dtau-surrogate.txt */

int impactfit_cmd_dtau_surrogate(int argc, char **argv) {
  impactfit_hc_dtau_surrogate_params sp = impactfit_hc_dtau_surrogate_default_params();
  const char *out = NULL, *name = "ramaswamy_dtau_surrogate";
  int json = 0, help = 0, ce = 201, cn = 51;
  cli_spec opts[] = {
      CLI_STR("out", &out),           CLI_STR("name", &name),       CLI_NUM("eps-max", &sp.eps_max),
      CLI_NUM("n-min", &sp.n_min),    CLI_NUM("n-max", &sp.n_max),  CLI_ANYINT("deg-eps", &sp.deg_eps),
      CLI_ANYINT("deg-n", &sp.deg_n), CLI_ANYINT("check-eps", &ce), CLI_ANYINT("check-n", &cn),
      CLI_FLAG("json", &json),
  };
  int rc = cli_options(argc, argv, opts, CLI_COUNT(opts), help_text, &help, NULL, 0, NULL);
  if (rc || help)
    return rc;
  if (ce < 2 || ce > 100000 || cn < 2 || cn > 100000)
    return cli_input_error("--check-eps and --check-n: must be 2..100000, got %d, %d", ce, cn);
  char path[512];
  if (!out) {
    if ((size_t)snprintf(path, sizeof path, "include/impactfit/generated/%s.h", name) >= sizeof path)
      return cli_input_error("--name: too long");
    out = path;
  }
  impactfit_impact_workspace *ws = impactfit_impact_alloc();
  if (!ws)
    return cli_input_error("out of memory");
  impactfit_error err;
  impactfit_error_clear(&err);
  impactfit_hc_dtau_surrogate *s = NULL;
  impactfit_hc_dtau_stats chk;
  double t0 = omp_get_wtime();
  int st = impactfit_hc_dtau_surrogate_build(ws, &sp, &s, &err);
  double t_build = omp_get_wtime() - t0;
  impactfit_hc_dtau_grid_params gp = impactfit_hc_dtau_grid_default_params();
  gp.eps_max = sp.eps_max;
  gp.n_min = sp.n_min;
  gp.n_max = sp.n_max;
  gp.eps_points = (size_t)ce;
  gp.n_points = (size_t)cn;
  if (!st)
    st = impactfit_hc_dtau_surrogate_error(ws, s, &gp, &chk, &err);
  impactfit_impact_free(ws);
  if (st) {
    impactfit_hc_dtau_surrogate_free(s);
    return cli_status_error(st, &err, "dtau-surrogate");
  }
  if (!(chk.max <= 1e-6)) {
    impactfit_hc_dtau_surrogate_free(s);
    fprintf(stderr,
            "impactfit: error: dtau-surrogate: held-out error %.3e exceeds the 1e-6 target (raise the "
            "degrees); nothing written\n",
            chk.max);
    return CLI_NUMERIC;
  }
  char command[320];
  snprintf(command, sizeof command,
           "impactfit dtau-surrogate --name %s --eps-max %.17g --n-min %.17g --n-max %.17g --deg-eps %d "
           "--deg-n %d --check-eps %d --check-n %d",
           name, sp.eps_max, sp.n_min, sp.n_max, sp.deg_eps, sp.deg_n, ce, cn);
  cli_out o;
  if ((rc = cli_out_open(&o, out))) {
    impactfit_hc_dtau_surrogate_free(s);
    return rc;
  }
  st = impactfit_hc_dtau_surrogate_write_header(s, &chk, name, command, o.f, &err);
  impactfit_hc_dtau_surrogate_free(s);
  if (st) {
    cli_out_abort(&o);
    return cli_status_error(st, &err, "dtau-surrogate");
  }
  if ((rc = cli_out_commit(&o)))
    return rc;
  FILE *rf = stdout; /* standard error when the header went to standard output (cli_out) */
  long solves = impactfit_hc_dtau_surrogate_simulations(&sp);
  if (json) {
    cli_json j;
    cli_json_begin(&j, rf);
    cli_json_str(&j, "surrogate", name);
    cli_json_str(&j, "file", out);
    cli_json_int(&j, "solves", solves);
    cli_json_int(&j, "check_points", (long)chk.points);
    cli_json_num(&j, "max_rel", chk.max);
    cli_json_num(&j, "mean_rel", chk.mean);
    cli_json_num(&j, "eps_at_max", chk.eps_at_max);
    cli_json_num(&j, "n_at_max", chk.n_at_max);
    cli_json_num(&j, "build_seconds", t_build);
    cli_json_end(&j);
  } else {
    fprintf(rf,
            "%s: %ld simulations (%.2f s); %zu held-out points: max relative error %.3e (eps = %.6g, "
            "n = %.6g), mean %.3e -> %s\n",
            name, solves, t_build, chk.points, chk.max, chk.eps_at_max, chk.n_at_max, chk.mean, out);
  }
  return CLI_OK;
}
