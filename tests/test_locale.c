/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Numbers are read and written in the C locale whatever the host program set: a host that calls
 * setlocale(LC_NUMERIC, "de_DE.UTF-8") (decimal comma) gets the same sweep definitions, CSV rows,
 * tables and generated text as one in the "C" locale. The test checks first that the German locale
 * is really in effect (printf writes "1,5"): ctest runs it with LOCPATH pointing at a locale made by
 * localedef (tests/CMakeLists.txt), so a missing locale fails instead of passing vacuously. */
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impactfit/impactfit.h"
#include "testutil.h"

typedef struct text {
  char *p;
  size_t len;
} text;

static int collect(void *ctx, size_t first, size_t count, const char *rows, size_t len) {
  (void)first;
  (void)count;
  text *t = ctx;
  char *np = realloc(t->p, t->len + len + 1);
  if (!np)
    return 1;
  memcpy(np + t->len, rows, len);
  t->len += len;
  np[t->len] = '\0';
  t->p = np;
  return 0;
}

/* The rows of a small simulate sweep defined in text, and its canonical built text. */
static void run(text *rows, char **built, double *second_c) {
  const char *def = "[sweep]\nproblem = simulate\n[fixed]\nm = 0\n[axes]\nn = list 1.5, 2.25\nc = linear 0.125, 0.5, 3\n";
  impactfit_sweep *s = NULL;
  impactfit_error err;
  CHECK(impactfit_sweep_parse(def, strlen(def), "loc.ini", &s, &err) == 0, "parse: %s", err.message);
  if (!s)
    return;
  double in[32];
  impactfit_sweep_point(s, 1, in);
  *second_c = in[3]; /* params n, m, k, c, ... */
  CHECK(impactfit_sweep_run(s, NULL, collect, NULL, rows, NULL, &err) == 0, "run");
  impactfit_sweep_def *d = NULL;
  impactfit_sweep_def_new(impactfit_sweep_get_problem(s), "loc", &d, &err);
  const double ns[2] = {1.5, 2.25};
  impactfit_sweep_def_axis_values(d, "n", ns, 2, &err);
  impactfit_sweep_def_fixed(d, "m", 0.5, &err);
  size_t len;
  CHECK(impactfit_sweep_def_text(d, built, &len, &err) == 0, "def text");
  impactfit_sweep_def_free(d);
  impactfit_sweep_free(s);
}

int main(void) {
  if (!setlocale(LC_NUMERIC, "de_DE.UTF-8")) {
    CHECK(0, "the de_DE.UTF-8 locale is not available (LOCPATH=%s)", getenv("LOCPATH") ? getenv("LOCPATH") : "");
    return tu_report("test_locale");
  }
  char probe[16];
  snprintf(probe, sizeof probe, "%.1f", 1.5);
  CHECK(strcmp(probe, "1,5") == 0, "the German locale is in effect (printf gives '%s')", probe);
  text de = {NULL, 0}, c = {NULL, 0};
  char *built_de = NULL, *built_c = NULL;
  double c_de = 0, c_c = 0;
  run(&de, &built_de, &c_de);
  CHECK(c_de == 0.3125, "under de_DE a definition's 'linear 0.125, 0.5, 3' reads 0.3125 (got %g)", c_de);
  CHECK(de.p && strstr(de.p, "1.5,0,") && !strstr(de.p, "1,5,0,"), "CSV rows print a decimal point");
  CHECK(built_de && strstr(built_de, "n = list 1.5, 2.25") && strstr(built_de, "m = 0.5"),
        "a built definition's text prints a decimal point");
  /* a table read under de_DE */
  impactfit_table *t = NULL;
  const char *csv = "x,y\n1.5,2.25\n";
  CHECK(impactfit_table_parse_csv(csv, strlen(csv), "t.csv", &t, NULL) == 0 && t &&
            impactfit_table_col(t, 0)[0] == 1.5 && impactfit_table_col(t, 1)[0] == 2.25,
        "a CSV table reads 1.5 and 2.25 under de_DE");
  char *out = NULL;
  size_t olen = 0;
  CHECK(t && impactfit_table_to_csv(t, &out, &olen, NULL) == 0 && out && strstr(out, "1.5,2.25"),
        "a table writes 1.5,2.25 under de_DE (got %s)", out ? out : "nothing");
  free(out);
  impactfit_table_free(t);
  /* the same bytes as in the C locale */
  setlocale(LC_NUMERIC, "C");
  run(&c, &built_c, &c_c);
  CHECK(de.p && c.p && de.len == c.len && memcmp(de.p, c.p, de.len) == 0, "the rows are those of the C locale");
  CHECK(built_de && built_c && strcmp(built_de, built_c) == 0, "the built text is that of the C locale");
  free(de.p);
  free(c.p);
  free(built_de);
  free(built_c);
  return tu_report("test_locale");
}
