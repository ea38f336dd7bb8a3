/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit identify-synth: synthetic drop-test data (simulated impacts plus seeded noise) in the
 * CSV format that 'impactfit identify' reads. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "help_texts.h" /* generated from docs/cli/COMMAND.txt */
#include "identify_cli.h"
#include "impactfit/impactfit.h"

static const char *const help_text = cli_help_identify_synth; /* docs/cli/identify-synth.txt */

/* --params: the model's true parameters into value[] = (n, m, k, c), m by the model's rule. */
static int parse_values(const impactfit_identify_model *M, const char *params, double value[4]) {
  identify_assign a[5] = {{"n", 0, ""}, {"m", 0, ""}, {"k", 0, ""}, {"c", 0, ""}, {"lambda", 0, ""}};
  int rc = identify_cli_assignments("--params", params, a, 5);
  if (rc)
    return rc;
  if (a[3].seen && a[4].seen)
    return cli_input_error("--params: c and lambda name the same damping coefficient: give one");
  if (a[3].seen)
    a[4] = a[3];
  if (a[1].seen && M->m_rule != 2)
    return cli_input_error("--params: m is set by the %s model (m = %s)", M->name, M->m_rule == 0 ? "n" : "0");
  for (int s = 0; s < 4; s++) {
    const identify_assign *x = s == 3 ? &a[4] : &a[s];
    if (s == 1 && M->m_rule != 2)
      continue;
    if (!x->seen)
      return cli_input_error("--params: %s is missing (the %s model needs n,%s k, %s)",
                             s == 3 ? M->damping_name : impactfit_identify_param_name(s), M->name,
                             M->m_rule == 2 ? " m," : "", M->damping_name);
    char what[64];
    snprintf(what, sizeof what, "--params %s", x->name);
    if ((rc = cli_parse_double(what, x->value, &value[s])))
      return rc;
  }
  impactfit_error err; /* m by the model's rule, the values in the library's domain */
  impactfit_error_clear(&err);
  int st = impactfit_identify_model_values(M, value, &err);
  return st ? cli_status_error(st, &err, "--params") : 0;
}

/* --columns: "none" or a list of dt, fmax, mass (the assignment parser with "=1" appended to each). */
static int parse_columns(const char *columns, unsigned *cols) {
  *cols = 0;
  if (strcmp(columns, "none") == 0)
    return 0;
  identify_assign ca[3] = {{"dt", 0, ""}, {"fmax", 0, ""}, {"mass", 0, ""}};
  char buf[256], *o = buf;
  size_t left = sizeof buf;
  for (const char *p = columns;;) {
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    int w = snprintf(o, left, "%.*s=1%s", (int)len, p, comma ? "," : "");
    if (w < 0 || (size_t)w >= left)
      return cli_input_error("--columns: too long: '%s'", columns);
    o += w, left -= (size_t)w;
    if (len == 0)
      return cli_input_error("--columns: empty item in '%s' (dt, fmax, mass or none)", columns);
    if (!comma)
      break;
    p = comma + 1;
  }
  int rc = identify_cli_assignments("--columns", buf, ca, 3);
  if (!rc)
    *cols = (ca[0].seen ? IMPACTFIT_IDENTIFY_COL_DT : 0u) | (ca[1].seen ? IMPACTFIT_IDENTIFY_COL_FMAX : 0u) |
            (ca[2].seen ? IMPACTFIT_IDENTIFY_COL_MASS : 0u);
  return rc;
}

/* The rows at the speeds of --v (each repeated), simulated with noise by the library. */
static int make_data(const char *vs, int repeat, double mass, const double value[4], const impactfit_transition *tr,
                     double noise, long seed, impactfit_identify_data **d) {
  double *v = NULL;
  size_t nv = 0;
  int rc = cli_parse_grid("--v", vs, &v, &nv);
  if (rc)
    return rc;
  for (size_t i = 0; i < nv && !rc; i++)
    if (!(v[i] > 0.0))
      rc = cli_input_error("--v: approach velocities must be > 0, got %.17g", v[i]);
  impactfit_error err;
  impactfit_error_clear(&err);
  int st = rc ? 0 : impactfit_identify_data_speeds(v, nv, (size_t)repeat, mass, d, &err);
  free(v);
  if (rc || st)
    return rc                       ? rc
           : st == IMPACTFIT_ENOMEM ? cli_input_error("identify-synth: out of memory")
                                    : cli_status_error(st, &err, "identify-synth");
  impactfit_identify_workspace *ws = impactfit_identify_alloc();
  if (!ws)
    return cli_input_error("identify-synth: out of memory");
  st = impactfit_identify_synth(ws, *d, value, tr, noise, (unsigned long)seed, &err);
  impactfit_identify_free(ws);
  return st ? cli_status_error(st, &err, "identify-synth") : 0;
}

int impactfit_cmd_identify_synth(int argc, char **argv) {
  const char *model = NULL, *params = NULL, *vs = NULL, *columns = "dt,fmax", *transition = "C";
  const char *output = NULL, *seed_s = "1";
  double mass = 0.0, noise = 0.0;
  int repeat = 1, help = 0;
  cli_spec opts[] = {
      CLI_STR("model", &model),   CLI_STR("params", &params),    CLI_STR("v", &vs),
      CLI_NUM("mass", &mass),     CLI_ANYINT("repeat", &repeat), CLI_NUM("noise", &noise),
      CLI_STR("seed", &seed_s),   CLI_STR("columns", &columns),  CLI_STR("transition", &transition),
      CLI_STR("output", &output),
  };
  int rc = cli_options(argc, argv, opts, CLI_COUNT(opts), help_text, &help, NULL, 0, NULL);
  if (rc || help)
    return rc;
  if (!model || !params || !vs || !cli_given(opts, CLI_COUNT(opts), "mass"))
    return cli_input_error("identify-synth: --model, --params, --v and --mass are required "
                           "(see 'impactfit identify-synth --help')");
  const impactfit_identify_model *M = impactfit_identify_model_from_name(model);
  if (!M)
    return cli_input_error("--model: unknown model '%s' (hc, linear, zhang)", model);
  const impactfit_transition *tr = impactfit_transition_from_name(transition);
  if (!tr)
    return cli_input_error("--transition: unknown condition '%s' (A, B, C, D)", transition);
  if (!(mass > 0.0))
    return cli_input_error("--mass: the effective mass must be > 0, got %.17g", mass);
  if (repeat < 1 || repeat > 10000)
    return cli_input_error("--repeat: must be in 1..10000, got %d", repeat);
  if (!(noise >= 0.0 && noise <= 0.5))
    return cli_input_error("--noise: must be in [0, 0.5], got %.17g", noise);
  long seed;
  double value[4] = {0, 0, 0, 0};
  unsigned cols = 0;
  if ((rc = cli_parse_int("--seed", seed_s, 0, 2147483647L, &seed)) || (rc = parse_values(M, params, value)) ||
      (rc = parse_columns(columns, &cols)))
    return rc;
  impactfit_identify_data *d = NULL;
  if ((rc = make_data(vs, repeat, mass, value, tr, noise, seed, &d))) {
    impactfit_identify_data_free(d);
    return rc;
  }
  char *csv = NULL;
  impactfit_error err;
  impactfit_error_clear(&err);
  int st = impactfit_identify_data_format(d, cols, 10, &csv, NULL, &err);
  impactfit_identify_data_free(d);
  if (st)
    return cli_status_error(st, &err, "identify-synth");
  cli_out out;
  FILE *f = stdout;
  if (output && (rc = cli_out_open(&out, output))) {
    free(csv);
    return rc;
  }
  if (output)
    f = out.f;
  /* The command itself, without --output (so that the file names how to regenerate it). */
  fprintf(f, "# synthetic drop-test data, written by:\n#   impactfit");
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--output") == 0) {
      i++;
      continue;
    }
    if (strncmp(argv[i], "--output=", 9) != 0)
      fprintf(f, " %s", argv[i]);
  }
  fprintf(f, "\n# true parameters: model %s, n = %.17g, m = %.17g, k = %.17g, %s = %.17g, transition %s\n", M->name,
          value[0], value[1], value[2], M->damping_name, value[3], tr->name);
  fprintf(f, "# relative noise %g (seed %ld) on e, dt, fmax\n%s", noise, seed, csv);
  free(csv);
  if (output)
    return cli_out_commit(&out);
  return ferror(stdout) ? cli_input_error("identify-synth: write error") : CLI_OK;
}
