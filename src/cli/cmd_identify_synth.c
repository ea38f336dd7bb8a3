/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit identify-synth: synthetic drop-test data (simulated impacts plus seeded noise) in the
 * CSV format that 'impactfit identify' reads. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "identify_cli.h"
#include "impactfit/impactfit.h"

static const char *help_text =
    "usage: impactfit identify-synth --model hc|linear|zhang --params n=N,k=K,lambda=L[,m=M]\n"
    "                                --v LIST --mass MASS [--repeat R] [--noise SIGMA] [--seed S]\n"
    "                                [--columns dt,fmax,mass|none] [--transition X] [--output FILE]\n\n"
    "Writes synthetic drop-test data for 'impactfit identify': for each approach velocity (each\n"
    "repeated R times) the impact with the given parameters is simulated, and e, dt and fmax are\n"
    "multiplied by (1 + SIGMA g), g standard normal (GSL mt19937 seeded with S, drawn in the order\n"
    "e, dt, fmax per row whatever the columns; a noisy e above 1 is redrawn). Values are printed\n"
    "with 10 significant digits. The first lines are '#' comments recording the command.\n\n"
    "  --model X      hc (m = n; n, k, lambda), linear (m = 0; n, k, c), zhang (n, m, k, lambda)\n"
    "  --params LIST  the true parameters, every one of the model's (lambda or c name the damping)\n"
    "  --v LIST       approach velocities in m/s: a value, a list a,b,c or a range start:stop:count\n"
    "  --mass MASS    effective mass in kg (> 0)\n"
    "  --repeat R     rows per velocity, default 1 (1..10000)\n"
    "  --noise SIGMA  relative noise, 0 <= SIGMA <= 0.5, default 0 (exact data)\n"
    "  --seed S       noise seed, default 1\n"
    "  --columns LIST columns besides v and e: any of dt, fmax, mass, or none; default dt,fmax\n"
    "  --transition X contact transition condition, default C\n"
    "  --output FILE  write FILE (a regular file atomically; a FIFO or device in place; '-':\n"
    "                 standard output) instead of standard output\n\n"
    "Columns: v (m/s), e (-), dt (s), fmax (N), mass (kg).\n"
    "Exit status: 0 success, 1 numerical failure, 2 invalid input.\n";

int impactfit_cmd_identify_synth(int argc, char **argv) {
  const char *model = NULL, *params = NULL, *vs = NULL, *columns = "dt,fmax", *transition = "C";
  const char *output = NULL, *seed_s = "1";
  double mass = 0.0, noise = 0.0;
  int repeat = 1, help = 0;
  cli_opt opts[] = {
      {"model", OPT_STRING, &model, 0},   {"params", OPT_STRING, &params, 0},
      {"v", OPT_STRING, &vs, 0},          {"mass", OPT_DOUBLE, &mass, 0},
      {"repeat", OPT_INT, &repeat, 0},    {"noise", OPT_DOUBLE, &noise, 0},
      {"seed", OPT_STRING, &seed_s, 0},   {"columns", OPT_STRING, &columns, 0},
      {"transition", OPT_STRING, &transition, 0}, {"output", OPT_STRING, &output, 0},
  };
  int rc = cli_parse(argc, argv, 2, opts, sizeof opts / sizeof opts[0], NULL, 0, NULL, &help);
  if (rc)
    return rc;
  if (help) {
    fputs(help_text, stdout);
    return CLI_OK;
  }
  if (!model || !params || !vs || !opts[3].seen)
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
  if ((rc = cli_parse_int("--seed", seed_s, 0, 2147483647L, &seed)))
    return rc;
  /* parameters */
  identify_assign a[5] = {{"n", 0, ""}, {"m", 0, ""}, {"k", 0, ""}, {"c", 0, ""}, {"lambda", 0, ""}};
  if ((rc = identify_cli_assignments("--params", params, a, 5)))
    return rc;
  if (a[3].seen && a[4].seen)
    return cli_input_error("--params: c and lambda name the same damping coefficient: give one");
  if (a[3].seen)
    a[4] = a[3];
  if (a[1].seen && M->m_rule != 2)
    return cli_input_error("--params: m is set by the %s model (m = %s)", M->name, M->m_rule == 0 ? "n" : "0");
  double value[4] = {0, 0, 0, 0};
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
  value[1] = M->m_rule == 0 ? value[0] : (M->m_rule == 1 ? 0.0 : value[1]);
  if (!(value[0] > 0.0 && value[0] <= 10.0 && value[1] >= 0.0 && value[1] <= 10.0 && value[2] > 0.0 &&
        value[3] >= 0.0))
    return cli_input_error("--params: need 0 < n <= 10, 0 <= m <= 10, k > 0, %s >= 0", M->damping_name);
  /* columns */
  unsigned cols = 0;
  if (strcmp(columns, "none") != 0) {
    identify_assign ca[3] = {{"dt", 0, ""}, {"fmax", 0, ""}, {"mass", 0, ""}};
    /* reuse the assignment parser by appending "=1" to every item */
    char buf[256], *o = buf;
    size_t left = sizeof buf;
    const char *p = columns;
    for (;;) {
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
    if ((rc = identify_cli_assignments("--columns", buf, ca, 3)))
      return rc;
    cols = (ca[0].seen ? IMPACTFIT_IDENTIFY_COL_DT : 0u) | (ca[1].seen ? IMPACTFIT_IDENTIFY_COL_FMAX : 0u) |
           (ca[2].seen ? IMPACTFIT_IDENTIFY_COL_MASS : 0u);
  }
  double *v = NULL;
  size_t nv = 0;
  if ((rc = cli_parse_grid("--v", vs, &v, &nv)))
    return rc;
  for (size_t i = 0; i < nv; i++)
    if (!(v[i] > 0.0)) {
      double bad = v[i];
      free(v);
      return cli_input_error("--v: approach velocities must be > 0, got %.17g", bad);
    }
  if (nv * (size_t)repeat > IMPACTFIT_IDENTIFY_MAX_ROWS) {
    free(v);
    return cli_input_error("identify-synth: %zu rows, at most %d", nv * (size_t)repeat,
                           IMPACTFIT_IDENTIFY_MAX_ROWS);
  }
  impactfit_identify_data d;
  memset(&d, 0, sizeof d);
  d.rows = nv * (size_t)repeat;
  d.row = calloc(d.rows, sizeof *d.row);
  impactfit_identify_workspace *ws = impactfit_identify_alloc();
  if (!d.row || !ws) {
    free(v);
    free(d.row);
    impactfit_identify_free(ws);
    return cli_input_error("identify-synth: out of memory");
  }
  for (size_t i = 0; i < nv; i++)
    for (int r = 0; r < repeat; r++) {
      d.row[i * (size_t)repeat + (size_t)r].v = v[i];
      d.row[i * (size_t)repeat + (size_t)r].mass = mass;
    }
  free(v);
  impactfit_error err;
  impactfit_error_clear(&err);
  int st = impactfit_identify_synth(ws, &d, value, tr, noise, (unsigned long)seed, &err);
  impactfit_identify_free(ws);
  if (st) {
    free(d.row);
    return cli_status_error(st, &err, "identify-synth");
  }
  cli_out out;
  FILE *f = stdout;
  if (output) {
    if ((rc = cli_out_open(&out, output))) {
      free(d.row);
      return rc;
    }
    f = out.f;
  }
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
  fprintf(f, "\n# true parameters: model %s, n = %.17g, m = %.17g, k = %.17g, %s = %.17g, transition %s\n",
          M->name, value[0], value[1], value[2], M->damping_name, value[3], tr->name);
  fprintf(f, "# relative noise %g (seed %ld) on e, dt, fmax\n", noise, seed);
  fprintf(f, "v,e%s%s%s\n", (cols & IMPACTFIT_IDENTIFY_COL_DT) ? ",dt" : "",
          (cols & IMPACTFIT_IDENTIFY_COL_FMAX) ? ",fmax" : "", (cols & IMPACTFIT_IDENTIFY_COL_MASS) ? ",mass" : "");
  for (size_t i = 0; i < d.rows; i++) {
    const impactfit_identify_row *r = &d.row[i];
    fprintf(f, "%.10g,%.10g", r->v, r->e);
    if (cols & IMPACTFIT_IDENTIFY_COL_DT)
      fprintf(f, ",%.10g", r->dt);
    if (cols & IMPACTFIT_IDENTIFY_COL_FMAX)
      fprintf(f, ",%.10g", r->fmax);
    if (cols & IMPACTFIT_IDENTIFY_COL_MASS)
      fprintf(f, ",%.10g", r->mass);
    fprintf(f, "\n");
  }
  free(d.row);
  if (output)
    return cli_out_commit(&out);
  return ferror(stdout) ? cli_input_error("identify-synth: write error") : CLI_OK;
}
