/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit surrogate: builds and writes the generated surrogate headers of the inverse solution. */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "impactfit/impactfit.h"

static const char *help_text =
    "usage: impactfit surrogate copt|zhang-c|zhang-a [--out FILE] [--deg-n N] [--deg-m M]\n"
    "                           [--deg-t T] [--deg-r R] [--drop D] [--check P] [--json]\n\n"
    "Builds a Chebyshev surrogate of the exact scaled damping zeta(n, m, e) (see surrogate.h)\n"
    "from exact solves, checks it on P held-out points and on the edges and seams of its box by\n"
    "simulating with its zeta (the header states the measured maximum), and writes a\n"
    "self-contained C header (default include/impactfit/generated/<name>_surrogate.h).\n\n"
    "  copt     m = 0, condition C, n in [1, 2], e in [1e-4, 1]  (the c_opt problem)\n"
    "  zhang-c  m in [0, 2], condition C, n in [1, 2], e in [0.01, 1]  (Zhang et al.'s alpha);\n"
    "           pieces m in [0, n] (nodes graded towards m = n) and [n, 2]\n"
    "  zhang-a  the same under condition A\n"
    "  --deg-n/--deg-m/--deg-t/--deg-r  polynomial degrees in n, m, ln e (e <= 1/2) and ln(1 - e)\n"
    "           (e > 1/2); for copt 14/0/36/64 by default; for zhang-c/-a each block has its own\n"
    "           degrees (listed in the header) and an option sets that degree in every block\n"
    "  --drop D  zhang-c/-a: per block, drop trailing coefficients summing to at most D in\n"
    "           |ln zeta| (default 1e-9; 0 keeps all)\n"
    "  --check P   held-out check points (default copt 400, zhang 2000)\n"
    "  --out FILE  where to write the header ('-' for standard output, the report then goes to\n"
    "              standard error)\n"
    "  --json      print the build report as one JSON object\n\n"
    "Exit status: 0 success, 1 a solve or the check failed, 2 invalid input.\n";

#define REP(f, kind) CLI_FIELD(impactfit_surrogate_report, f, kind)
static const cli_field report_fields[] = {
    REP(solves, 'l'),       REP(coefficients, 'l'),
    REP(check_points, 'i'), REP(max_e_error, 'd'),
    REP(edge_points, 'i'),  REP(max_zeta_rel, 'd'),
    REP(worst_n, 'd'),      REP(worst_m, 'd'),
    REP(worst_e, 'd'),      CLI_FIELD_AS("seconds", impactfit_surrogate_report, build_seconds, 'd')};

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
