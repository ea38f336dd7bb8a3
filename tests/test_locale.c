/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Numbers are read and written in the C locale whatever the host program set: a host that calls
 * setlocale(LC_NUMERIC, "de_DE.UTF-8") (decimal comma) gets the same sweep definitions, CSV rows,
 * tables and generated text as one in the "C" locale. The test checks first that the German locale
 * is really in effect (printf writes "1,5"): ctest runs it with LOCPATH pointing at a locale made by
 * localedef (tests/CMakeLists.txt), so a missing locale fails instead of passing vacuously. */
#define _GNU_SOURCE /* mkdtemp */
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
  const char *def = "[sweep]\nproblem = simulate\n[fixed]\nm = 0\n[axes]\nn = list 1.5, 2.25\nc = linear 0.125, 0.5, "
                    "3\n";
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

/* A sweep's output under the current locale: the journal's commit (WALL, %.6f) and the JSON sidecar
 * (wall_seconds, %.6g, and the fixed parameters, %.17g) must be written with a decimal point, or a
 * resume and every JSON reader would misread them. */
static void output_files(void) {
  const char *def = "[sweep]\nproblem = simulate\n[fixed]\nm = 0.5\n[axes]\nn = list 1.5, 2.25\n";
  impactfit_sweep *s = NULL;
  impactfit_error err;
  char dir[] = "/tmp/test_locale.XXXXXX", csv[64], journal[64], json[64];
  CHECK(impactfit_sweep_parse(def, strlen(def), "loc.ini", &s, &err) == 0 && mkdtemp(dir), "parse, tmp dir");
  if (!s)
    return;
  snprintf(csv, sizeof csv, "%s/loc.csv", dir);
  snprintf(journal, sizeof journal, "%s/loc.journal", dir);
  snprintf(json, sizeof json, "%s/loc.json", dir);
  impactfit_sweep_output *o = NULL;
  CHECK(impactfit_sweep_output_open(s, csv, NULL, &o, &err) == 0, "open: %s", err.message);
  CHECK(o &&
            impactfit_sweep_run(s, NULL, impactfit_sweep_output_rows, impactfit_sweep_output_failure, o, NULL, &err) ==
                0 &&
            impactfit_sweep_output_commit(o, &err) == 0,
        "run into the output");
  /* the commit line's last field before " #": WALL */
  FILE *f = fopen(journal, "r");
  char line[1024], wall[64] = "";
  while (f && fgets(line, sizeof line, f))
    if (strncmp(line, "commit ", 7) == 0)
      sscanf(line, "commit %*s %*s %*s %*s %*s %63s", wall);
  if (f)
    fclose(f);
  CHECK(strchr(wall, '.') && !strchr(wall, ','), "the journal's WALL has a decimal point (got '%s')", wall);
  impactfit_sweep_output_run run = {1, 1, NULL};
  CHECK(o && impactfit_sweep_output_finish(o, &run, &err) == 0, "finish: %s", err.message);
  impactfit_sweep_output_close(o);
  impactfit_sweep_provenance p;
  CHECK(impactfit_sweep_provenance_read(json, &p, &err) == 0 && p.rows == 2 && p.wall_seconds > 0,
        "the sidecar written under de_DE is JSON: %s", err.message);
  impactfit_sweep_provenance_free(&p);
  f = fopen(json, "r");
  char buf[8192] = "";
  size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
  buf[n] = '\0';
  if (f)
    fclose(f);
  CHECK(strstr(buf, "\"m\": 0.5") != NULL, "the sidecar's fixed m is 0.5");
  unlink(csv);
  unlink(json);
  rmdir(dir);
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
  CHECK(built_de && strstr(built_de, "n = list 1.5, 2.25") && strstr(built_de, "m = 0.5"), "a built definition's text "
                                                                                           "prints a decimal point");
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
  output_files();
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
