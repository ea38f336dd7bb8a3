/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The audit of the report module (impactfit_report.h): recomputes every topic's figures and
 * targets and compares the figures with the committed expectations in tests/published/; the
 * command `impactfit check` (src/cli/cmd_check.c) is its front end. */
#include <ini.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "embedded_headers.h"
#include "impactfit_report.h"
#include "report.h"
#include "tools.h"

typedef struct expectation {
  char id[64];
  double measured;
  int line; /* order in the file */
} expectation;

typedef struct expectations {
  expectation *e;
  size_t n, cap;
} expectations;

static int expect_handler(void *user, const char *section, const char *name, const char *value) {
  expectations *x = user;
  if (strcmp(name, "measured") != 0)
    return 1;
  if (x->n == x->cap) {
    size_t cap = x->cap ? 2 * x->cap : 32;
    expectation *p = realloc(x->e, cap * sizeof *p);
    if (!p)
      return 0;
    x->e = p;
    x->cap = cap;
  }
  char *end;
  double v = strtod(value, &end);
  if (end == value || *end) /* not a number: reported as a malformed line */
    return 0;
  expectation *e = &x->e[x->n++];
  snprintf(e->id, sizeof e->id, "%s", section);
  e->measured = v;
  e->line = (int)x->n;
  return 1;
}

static const expectation *find(const expectations *x, const char *id) {
  for (size_t i = 0; i < x->n; i++)
    if (strcmp(x->e[i].id, id) == 0)
      return &x->e[i];
  return NULL;
}

/* Stale builds: the generated headers topic `name` compiled in must be the ones committed in
 * SRC/include/impactfit/generated/, byte for byte; a difference is a missed target. */
static void check_embedded(report *r, const char *src, const char *name) {
  for (size_t i = 0; i < cli_embedded_header_count(); i++) {
    const char *topic, *hdr, *text;
    size_t len;
    cli_embedded_header(i, &topic, &hdr, &text, &len);
    if (strcmp(topic, name) != 0)
      continue;
    char path[4096], what[160];
    snprintf(path, sizeof path, "%s/include/impactfit/generated/%s", src, hdr);
    snprintf(what, sizeof what, "%s compiled into this program = the committed one", hdr);
    FILE *f = fopen(path, "rb");
    if (!f) {
      report_target(r, what, 0, "cannot read %s", path);
      continue;
    }
    size_t at = 0, n;
    char buf[65536];
    int same = 1;
    while (same && (n = fread(buf, 1, sizeof buf, f)) > 0) {
      same = at + n <= len && memcmp(buf, text + at, n) == 0;
      at += n;
    }
    same = same && !ferror(f) && at == len;
    fclose(f);
    if (same)
      report_target(r, what, 1, "%zu bytes, identical", len);
    else
      report_target(r, what, 0, "%s differs from the copy built into this program: a stale build, rebuild impactfit",
                    path);
  }
}

static const char *verdict_text(int v) { return v == 1 ? "holds" : v == 0 ? "does not hold" : "-"; }

enum { FIGURE_WIDTH = 66 };

/* One row of the text table; a figure's text longer than its column goes on at a word boundary on
 * the next lines (never cut inside a word). */
static void print_row(const char *topic, const char *what, const char *claimed, const char *measured,
                      const char *verdict, const char *status) {
  size_t len = strlen(what), cut = len;
  if (len > FIGURE_WIDTH) {
    cut = FIGURE_WIDTH;
    while (cut > 0 && what[cut] != ' ')
      cut--;
    if (cut == 0)
      cut = FIGURE_WIDTH;
  }
  printf("%-14s %-*.*s %12s %12s %-14s %s\n", topic, FIGURE_WIDTH, (int)cut, what, claimed, measured, verdict, status);
  for (const char *p = what + cut; *p;) {
    while (*p == ' ')
      p++;
    size_t rest = strlen(p), n = rest;
    if (rest > FIGURE_WIDTH) {
      n = FIGURE_WIDTH;
      while (n > 0 && p[n] != ' ')
        n--;
      if (n == 0)
        n = FIGURE_WIDTH;
    }
    printf("%-14s %.*s\n", "", (int)n, p);
    p += n;
  }
}

/* Reads the expectations of one topic (not when they are to be rewritten). 0 or CLI_INPUT (printed). */
static int read_expectations(const char *path, int write, expectations *x) {
  int ini_rc = write ? 0 : ini_parse(path, expect_handler, x);
  if (ini_rc < 0 && !write)
    return cli_input_error("check: cannot read the expectations %s (write them with "
                           "'impactfit check --write-expectations')",
                           path);
  if (ini_rc > 0)
    return cli_input_error("check: %s:%d: malformed line", path, ini_rc);
  return 0;
}

/* One claim against its expectation (or written to `out`): prints its line or JSON object and
 * returns 1 when it passes, 0 when its figure changed or has no expectation. */
static int check_claim(const claim *c, const expectations *x, const char *path, FILE *out, int json) {
  const expectation *e = find(x, c->id);
  double tol = c->drift_tol > 0 ? c->drift_tol : 1e-6;
  char status[512];
  int ok = 1;
  if (out) {
    fprintf(out, "\n[%s]\n# %s: %s\nmeasured = %.17g\n", c->id, c->source, c->what, c->measured);
    snprintf(status, sizeof status, "written");
  } else if (!e) {
    ok = 0;
    snprintf(status, sizeof status, "FAIL: no expectation in %.300s", path);
  } else if (!(fabs(c->measured - e->measured) <= tol * fmax(fabs(e->measured), 1e-300) ||
               fabs(c->measured - e->measured) <= c->drift_abs)) {
    ok = 0;
    snprintf(status, sizeof status, "FAIL: changed from %.10g ([%s] in %.300s)", e->measured, c->id, path);
  } else {
    snprintf(status, sizeof status, "ok");
  }
  if (json) {
    cli_json j;
    cli_json_begin(&j, stdout);
    report_claim_json(&j, c, "-");
    cli_json_str(&j, "expectation", status);
    cli_json_end(&j);
  } else {
    char cl[32], me[32];
    if (isnan(c->claimed))
      snprintf(cl, sizeof cl, "-");
    else
      snprintf(cl, sizeof cl, "%.4g%s", c->claimed, c->unit);
    snprintf(me, sizeof me, "%.4g%s", c->measured, c->unit);
    print_row(c->topic, c->what, cl, me, verdict_text(c->verdict), status);
  }
  return ok;
}

/* Prints the topic's targets; returns the number missed. */
static int print_targets(const report *r, int json) {
  int missed = 0;
  for (size_t i = 0; i < report_target_count(r); i++) {
    const char *tp, *what, *detail;
    int ok = report_target_at(r, i, &tp, &what, &detail);
    missed += !ok;
    if (json) {
      cli_json j;
      cli_json_begin(&j, stdout);
      cli_json_str(&j, "topic", tp);
      cli_json_str(&j, "target", what);
      cli_json_str(&j, "met", ok ? "yes" : "no");
      cli_json_str(&j, "detail", detail);
      cli_json_end(&j);
    } else {
      print_row(tp, what, "target", "", ok ? "met" : "MISSED", detail);
    }
  }
  return missed;
}

/* Runs topic t in check mode and prints its claims and targets; adds its failures to *failures.
 * *header: the text table's header line is printed (after the first topic ran: a --src that is not
 * the repository prints nothing). 0 or an exit code (error printed). */
static int check_topic(size_t t, const impactfit_report_options *opt, int *header, int *failures) {
  const char *name = impactfit_report_topic_name(t);
  report *r = report_open(NULL, 0);
  if (!r)
    return CLI_INPUT;
  report_set_topic(r, name);
  topic_opts o = {.srcdir = opt->src, .check = 1};
  int rc = report_topic_run(t, &o, r);
  if (rc) {
    report_discard(r);
    return rc;
  }
  check_embedded(r, opt->src, name);
  if (!*header) {
    printf("# verdict: the published claim as measured here (\"does not hold\" is a finding, not a failure);\n"
           "# expectation: impactfit's own check, the figure against the committed one in tests/published/\n"
           "# (FAIL fails the command). measured: on check's coarse grids; `impactfit reproduce` measures the\n"
           "# same figures on the full grids quoted in README and the report.\n");
    printf("%-14s %-*s %12s %12s %-14s %s\n", "topic", FIGURE_WIDTH, "figure", "claimed", "coarse", "verdict",
           "expectation");
    *header = 1;
  }
  char path[4096];
  snprintf(path, sizeof path, "%s/tests/published/%s.ini", opt->src, name);
  expectations x = {NULL, 0, 0};
  cli_out out;
  if ((rc = read_expectations(path, opt->write_expectations, &x)) ||
      (opt->write_expectations && (rc = cli_out_open(&out, path)))) {
    free(x.e);
    report_discard(r);
    return rc;
  }
  if (opt->write_expectations)
    fprintf(out.f,
            "# Expected figures of `impactfit check --topic %s`: what impactfit measured when\n"
            "# this file was written (impactfit check --write-expectations). check fails when a\n"
            "# figure drifts from its value here; review the change before rewriting this file.\n",
            name);
  for (size_t i = 0; i < report_claim_count(r); i++)
    *failures += !check_claim(report_claim_at(r, i), &x, path, opt->write_expectations ? out.f : NULL, opt->json);
  *failures += print_targets(r, opt->json);
  free(x.e);
  report_discard(r);
  return opt->write_expectations ? cli_out_commit(&out) : 0;
}

int impactfit_report_check(const impactfit_report_options *opt) {
  int failures = 0, header = opt->json, rc;
  for (size_t t = 0; t < impactfit_report_topic_count(); t++) {
    if (opt->topic && strcmp(impactfit_report_topic_name(t), opt->topic) != 0)
      continue;
    if ((rc = check_topic(t, opt, &header, &failures)))
      return rc;
  }
  if (opt->json) {
    cli_json j;
    cli_json_begin(&j, stdout);
    cli_json_str(&j, "summary", failures ? "fail" : "pass");
    cli_json_int(&j, "failures", failures);
    cli_json_end(&j);
  } else {
    printf("impactfit check: %s (%d failure%s)\n", failures ? "FAIL" : "pass", failures, failures == 1 ? "" : "s");
  }
  if (failures && !opt->json)
    fprintf(stderr, "impactfit: error: check: %d figure%s changed or target%s missed\n", failures,
            failures == 1 ? "" : "s", failures == 1 ? "" : "s");
  return failures ? CLI_NUMERIC : CLI_OK;
}
