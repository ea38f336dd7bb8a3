/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit surrogate: builds and writes the generated surrogate headers of the inverse solution. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "help_texts.h" /* generated from docs/cli/COMMAND.txt */
#include "impactfit/impactfit.h"

static const char *const help_text = cli_help_surrogate; /* docs/cli/surrogate.txt */

#define REP(f) CLI_FIELD(impactfit_surrogate_report, f)
static const cli_field report_fields[] = {
    REP(solves),       REP(coefficients),
    REP(check_points), REP(max_e_error),
    REP(edge_points),  REP(max_zeta_rel),
    REP(worst_n),      REP(worst_m),
    REP(worst_e),      CLI_FIELD_AS("seconds", impactfit_surrogate_report, build_seconds)};

int impactfit_cmd_surrogate(int argc, char **argv) {
  const char *pos[1] = {NULL}, *out = NULL;
  size_t npos = 0;
  enum { UNSET = INT_MIN }; /* not given (cli_parse_int cannot return it) */
  int help = 0, json = 0, dn = UNSET, dm = UNSET, dt = UNSET, dr = UNSET, check = UNSET;
  double drop = NAN; /* NAN: not given */
  cli_spec opts[] = {
      CLI_NUM("drop", &drop),   CLI_STR("out", &out),     CLI_ANYINT("deg-n", &dn),    CLI_ANYINT("deg-m", &dm),
      CLI_ANYINT("deg-t", &dt), CLI_ANYINT("deg-r", &dr), CLI_ANYINT("check", &check), CLI_FLAG("json", &json),
  };
  int rc = cli_options(argc, argv, opts, CLI_COUNT(opts), help_text, &help, pos, 1, &npos);
  if (rc || help)
    return rc;
  if (npos != 1)
    return cli_input_error("surrogate: name which surrogate to build: copt, zhang-c or zhang-a");
  impactfit_surrogate_spec spec;
  char command[256];
  const int deg[4] = {dn, dm, dt, dr};
  if ((rc = cli_surrogate_spec(pos[0], deg, drop, check, &spec, command, sizeof command)))
    return rc;
  char path[512];
  if (!out) {
    snprintf(path, sizeof path, "include/impactfit/generated/%s_surrogate.h", spec.name);
    out = path;
  }
  /* the output opened first: an unwritable path fails at once, not after seconds of solves */
  cli_out o;
  if ((rc = cli_out_open(&o, out)))
    return rc;
  impactfit_surrogate *s = NULL;
  impactfit_surrogate_report rep;
  impactfit_error err;
  impactfit_error_clear(&err);
  int st = impactfit_surrogate_build(&spec, &s, &rep, &err);
  if (st) {
    cli_out_abort(&o);
    return cli_status_error(st, &err, "surrogate");
  }
  st = impactfit_surrogate_write_header(s, &rep, command, o.f, &err);
  impactfit_surrogate_free(s);
  if (st) {
    cli_out_abort(&o);
    return cli_status_error(st, &err, "surrogate");
  }
  if ((rc = cli_out_commit(&o)))
    return rc;
  FILE *rf = stdout; /* standard error when the header went to standard output (cli_out) */
  if (json) {
    cli_json j;
    cli_json_begin(&j, rf);
    cli_json_str(&j, "surrogate", spec.name);
    cli_json_str(&j, "file", out);
    cli_json_fields(&j, &rep, report_fields, CLI_COUNT(report_fields));
    cli_json_end(&j);
  } else {
    fprintf(rf,
            "%s: %ld exact solves, %ld coefficients, %d held-out + %d edge and seam points: max |e_out - e| = "
            "%.3e (n = %.4f, m = %.4f, e = %.4g), max |zeta/zeta_exact - 1| = %.3e, %.2f s -> %s\n",
            spec.name, rep.solves, rep.coefficients, rep.check_points, rep.edge_points, rep.max_e_error, rep.worst_n,
            rep.worst_m, rep.worst_e, rep.max_zeta_rel, rep.build_seconds, out);
  }
  return CLI_OK;
}
