/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Topic dem-codes: the real DEM codes installed on this machine (LAMMPS, LIGGGHTS, YADE from Debian 12)
 * run on head-on collisions with the restitution typed as it is (naive) and with the input of
 * `impactfit dem` (corrected); the measured e against impactfit's prediction and the asked e. The runs
 * are made by tests/dem/test_dem_codes.py (the same script as the ctest label dem-codes), which writes
 * every collision to dem_codes.json; this topic tabulates it and draws the figure. Quick and check runs
 * leave it out (a minute or two of the codes' time, the three side by side): the full reproduction and `ctest -L dem-codes` run it. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "progress.h"
#include "report.h"
#include "tools.h"

typedef struct group {
  char key[200];
  const char *code, *model, *damping, *limit;
  int takes_e, n;
  double naive_max, corr_max;
  double ex_asked, ex_naive, ex_typed, ex_corr; /* an example: equal spheres */
  int has_ex, alternative;
  double asked[8], measured[8]; /* naive collisions (models that take e): mean measured e per asked e */
  int count[8], nasked;
  int series; /* index of the figure's series this group is drawn in, −1: none */
} group;

static const char *jstr(json_t *o, const char *k) {
  const char *s = json_string_value(json_object_get(o, k));
  return s ? s : "";
}
static double jnum(json_t *o, const char *k) {
  json_t *v = json_object_get(o, k);
  return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Groups the collisions by code, model, damping and clamp: counts, largest deviations, an example
 * (equal spheres), the naive points per asked e and the corrected collisions (written to `corr`).
 * Returns the number of collisions outside the tolerance. */
static int group_rows(json_t *rows, group *g, size_t *ngp, FILE *corr) {
  int failed = 0;
  size_t nrows = json_array_size(rows), ng = *ngp;
  for (size_t i = 0; i < nrows; i++) {
    json_t *row = json_array_get(rows, i);
    char k[200];
    snprintf(k, sizeof k, "%s|%s|%s|%s", jstr(row, "code"), jstr(row, "model"), jstr(row, "damping"),
             jstr(row, "limit"));
    size_t j = 0;
    while (j < ng && strcmp(g[j].key, k))
      j++;
    if (j == ng) {
      memset(&g[ng], 0, sizeof g[ng]);
      snprintf(g[ng].key, sizeof g[ng].key, "%s", k);
      g[ng].code = jstr(row, "code");
      g[ng].model = jstr(row, "model");
      g[ng].damping = jstr(row, "damping");
      g[ng].limit = jstr(row, "limit");
      g[ng].takes_e = json_is_true(json_object_get(row, "takes_e")) || jnum(row, "takes_e") == 1;
      ng++;
    }
    group *q = &g[j];
    int naive = !strcmp(jstr(row, "kind"), "naive");
    double d = fabs(jnum(row, "diff")), asked = jnum(row, "e_asked"), meas = jnum(row, "measured");
    failed += !json_is_true(json_object_get(row, "ok"));
    q->n++;
    if (naive && d > q->naive_max)
      q->naive_max = d;
    if (!naive && d > q->corr_max)
      q->corr_max = d;
    int equal = !strcmp(jstr(row, "geometry"), "equal");
    if (equal && naive && !q->has_ex) {
      q->ex_asked = asked;
      q->ex_naive = meas;
      q->has_ex = 1;
    }
    if (naive && q->takes_e) {
      int a = 0;
      while (a < q->nasked && q->asked[a] != asked)
        a++;
      if (a == q->nasked && a < 8) {
        q->asked[a] = asked;
        q->nasked++;
      }
      if (a < 8) {
        q->measured[a] += meas;
        q->count[a]++;
      }
    }
    if (!naive && corr)
      fprintf(corr, "%.6f %.10f\n", asked, meas);
  }
  *ngp = ng;
  return failed;
}

/* The corrected collision of each group's example. */
static void find_examples(json_t *rows, group *g, size_t ng) {
  size_t nrows = json_array_size(rows);
  for (size_t i = 0; i < nrows; i++) {
    json_t *row = json_array_get(rows, i);
    char k[200];
    snprintf(k, sizeof k, "%s|%s|%s|%s", jstr(row, "code"), jstr(row, "model"), jstr(row, "damping"),
             jstr(row, "limit"));
    for (size_t j = 0; j < ng; j++)
      if (!strcmp(g[j].key, k) && g[j].has_ex && !strcmp(jstr(row, "kind"), "corrected") &&
          !strcmp(jstr(row, "geometry"), "equal") && jnum(row, "e_asked") == g[j].ex_asked) {
        g[j].ex_typed = jnum(row, "typed");
        g[j].ex_corr = jnum(row, "measured");
        g[j].alternative = json_is_true(json_object_get(row, "alternative"));
      }
  }
}

/* Runs `sh -c cmd` as system() does, with the progress protocol of tests/dem/test_dem_codes.py on a
 * pipe (IMPACTFIT_PROGRESS_FD=3 in its environment: "step TOTAL UNIT WHAT", "done COUNT"), shown as
 * steps of the progress line. Returns the wait status, or -1 when it could not start. */
static int run_with_progress(const topic_opts *o, const char *cmd) {
  int fds[2];
  if (pipe(fds) != 0)
    return system(cmd);
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return -1;
  }
  if (pid == 0) {
    close(fds[0]);
    if (fds[1] != 3) {
      dup2(fds[1], 3);
      close(fds[1]);
    }
    setenv("IMPACTFIT_PROGRESS_FD", "3", 1);
    execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
    _exit(127);
  }
  close(fds[1]);
  FILE *in = fdopen(fds[0], "r");
  char line[512];
  while (in && fgets(line, sizeof line, in)) {
    unsigned long long total, done;
    char unit[32];
    int at = 0;
    if (sscanf(line, "step %llu %31s %n", &total, unit, &at) == 2 && at > 0) {
      line[strcspn(line, "\n")] = '\0';
      cli_progress_step(o->progress, line + at, unit, (size_t)total);
    } else if (sscanf(line, "done %llu", &done) == 1) {
      cli_progress_step_update(o->progress, (size_t)done);
    }
  }
  if (in)
    fclose(in);
  else
    close(fds[0]);
  cli_progress_step_end(o->progress);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return -1;
  return status;
}

/* The naive groups as the figure's series: groups of one code whose measured e agree at every asked e
 * (within 1e-4: the same force law under two names, e.g. granular hertz/material and hertz) share a
 * series. Writes each series' points as one block of `dat` (index i) and its gnuplot plot element to
 * `plot` (one colour per series, one hollow marker per code, sized so that coinciding points of
 * different codes stay visible). Returns the number of series. */
static int figure_series(group *g, size_t ng, FILE *dat, char *plot, size_t cap) {
  int ns = 0;
  size_t len = 0;
  for (size_t j = 0; j < ng; j++)
    g[j].series = -1;
  for (size_t j = 0; j < ng; j++) {
    if (!g[j].takes_e || !g[j].nasked || g[j].series >= 0)
      continue;
    g[j].series = ns;
    for (int a = 0; a < g[j].nasked; a++)
      g[j].measured[a] /= g[j].count[a];
    /* later groups of the same code, clamp and damping with the same curve */
    char models[200];
    snprintf(models, sizeof models, "%s", strncmp(g[j].model, "granular ", 9) ? g[j].model : g[j].model + 9);
    for (size_t k = j + 1; k < ng; k++) {
      if (!g[k].takes_e || g[k].series >= 0 || g[k].nasked != g[j].nasked || strcmp(g[k].code, g[j].code) ||
          strcmp(g[k].limit, g[j].limit) || strcmp(g[k].damping, g[j].damping))
        continue;
      int same = 1;
      for (int a = 0; a < g[j].nasked && same; a++) {
        int b = 0;
        while (b < g[k].nasked && g[k].asked[b] != g[j].asked[a])
          b++;
        same = b < g[k].nasked && fabs(g[k].measured[b] / g[k].count[b] - g[j].measured[a]) <= 1e-4;
      }
      if (!same)
        continue;
      g[k].series = ns;
      const char *m = strncmp(g[k].model, "granular ", 9) ? g[k].model : g[k].model + 9;
      size_t ml = strlen(models);
      snprintf(models + ml, sizeof models - ml, ", %s", m);
    }
    if (dat) {
      fprintf(dat, "%s# series %d: %s %s %s %s: asked e, measured e (mean over geometries and speeds)\n",
              ns ? "\n\n" : "", ns, g[j].code, models, g[j].damping, g[j].limit);
      for (int a = 0; a < g[j].nasked; a++)
        fprintf(dat, "%.6f %.10f\n", g[j].asked[a], g[j].measured[a]);
    }
    int lammps = !strcmp(g[j].code, "lammps"), liggghts = !strcmp(g[j].code, "liggghts");
    const char *code = lammps ? "LAMMPS" : liggghts ? "LIGGGHTS" : "YADE";
    int on = !strcmp(g[j].limit, "on");
    char clamp[40] = "";
    if (lammps && on) /* "\\_": an underscore, not a subscript, in gnuplot's enhanced text */
      snprintf(clamp, sizeof clamp, " + limit\\_damping");
    else if (liggghts && on)
      snprintf(clamp, sizeof clamp, " + limitForce");
    /* the palette's colours without its black (linetype 7), which the diagonal and the corrected
     * collisions use */
    static const int colour[] = {1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13};
    len += (size_t)snprintf(plot + len, len < cap ? cap - len : 0,
                            ", 'dem_codes.dat' index %d u 1:2 w p lc %d pt %d ps %.1f lw 1.5 t '%s %s%s%s%s'", ns,
                            colour[ns % 12],
                            lammps     ? 6
                            : liggghts ? 4
                                       : 8,
                            lammps     ? 1.1
                            : liggghts ? 1.7
                                       : 1.4,
                            code, models, *g[j].damping ? ": " : "", g[j].damping, clamp);
    ns++;
  }
  return ns;
}

int topic_dem_codes(const topic_opts *o, report *r) {
  if (o->quick || o->check || !report_writes_files(r)) {
    report_md(r, "## DEM codes run: LAMMPS, LIGGGHTS and YADE against impactfit dem\n\n"
                 "Left out of quick runs and of `check`: the full reproduction runs the installed codes "
                 "(and so does `ctest -L dem-codes`).\n\n");
    return 0;
  }
  char self[4096], script[4600], table[4600], cmd[14000];
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len <= 0)
    return cli_input_error("dem-codes: cannot find the impactfit program itself (/proc/self/exe)");
  self[len] = 0;
  snprintf(script, sizeof script, "%s/tests/dem/test_dem_codes.py", o->srcdir);
  snprintf(table, sizeof table, "%s/dem_codes.json", o->outdir);
  if (access(script, R_OK) != 0)
    return cli_input_error("dem-codes: %s not found (reproduce --src must name the repository)", script);
  /* the three codes side by side (--jobs 3): each code's runs are those of a code run alone, so the table
   * does not depend on it; a code's runs are serial and wait on process starts, so three fill two cores */
  snprintf(cmd, sizeof cmd, "python3 '%s' '%s' --table '%s' --jobs 3 >'%s/dem_codes.log' 2>&1", script, self, table,
           o->outdir);
  if (o->log)
    fprintf(o->log, "dem-codes: running LAMMPS, LIGGGHTS and YADE side by side (tests/dem/test_dem_codes.py; a minute "
                    "or two)\n");
  int st = run_with_progress(o, cmd);
  int status = st >= 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  json_error_t jerr;
  json_t *root = json_load_file(table, 0, &jerr);
  if (!root)
    return cli_input_error("dem-codes: the codes' run wrote no table (%s: %s; see %s/dem_codes.log)", table, jerr.text,
                           o->outdir);
  json_t *rows = json_object_get(root, "rows"), *vers = json_object_get(root, "versions");
  double tol = jnum(root, "tol");
  report_md(r,
            "## DEM codes run: LAMMPS, LIGGGHTS and YADE against impactfit dem\n\n"
            "The codes Debian 12 ships, run on head-on collisions (two equal spheres R = 5 mm, ρ = 2500 kg/m³; "
            "unequal spheres 5 and 3 mm, 2500 and 7800 kg/m³; a sphere on a wall; E = 1e8 Pa, ν = 0.3; 0.5, 1 and "
            "2 m/s; e = 0.1 … 0.9), by tests/dem/test_dem_codes.py with a time step of about t_contact/10⁵. "
            "*Naive*: the code's parameter typed as it is (e itself, or half the exact damping constant); the "
            "measured e is compared with impactfit's prediction (`impactfit dem --value`). *Corrected*: the "
            "input printed by `impactfit dem` (its alternative where the model cannot reach e); the measured e "
            "is compared with the asked e. Tolerance %.0e.\n\n",
            tol);
  const char *key;
  json_t *val;
  json_object_foreach(vers, key, val) report_md(r, "- %s: %s\n", key, json_string_value(val));
  report_md(r, "\n| code | model | clamp | collisions | max \\|measured − predicted\\| naive | max \\|measured − "
               "asked\\| "
               "corrected | example (equal spheres): asked → typing it gives → typing impactfit's value gives |\n"
               "|---|---|---|---|---|---|---|\n");
  size_t nrows = json_array_size(rows), ng = 0;
  group *g = calloc(nrows ? nrows : 1, sizeof *g);
  if (!g) {
    json_decref(root);
    return cli_input_error("out of memory");
  }
  FILE *corr = report_data(r, "dem_codes_corrected.dat");
  int failed = group_rows(rows, g, &ng, corr);
  if (corr)
    fclose(corr);
  find_examples(rows, g, ng);
  for (size_t j = 0; j < ng; j++) {
    char ex[200] = "";
    if (g[j].has_ex && g[j].takes_e)
      snprintf(ex, sizeof ex, "%.2f → %.5f → %.5f%s", g[j].ex_asked, g[j].ex_naive, g[j].ex_corr,
               g[j].alternative ? " (another model)" : "");
    report_md(r, "| %s | %s%s%s | %s | %d | %.2g | %.2g | %s |\n", g[j].code, g[j].model, *g[j].damping ? " " : "",
              g[j].damping, g[j].limit, g[j].n, g[j].naive_max, g[j].corr_max, ex);
  }
  report_md(r, "\n%zu collisions, %d outside the tolerance%s.\n\n", nrows, failed,
            status == 0 ? "" : " (the run's log: dem_codes.log)");
  report_target(r, "the real DEM codes give impactfit's predictions and, with impactfit dem's input, the asked e",
                status == 0 && failed == 0, "%zu collisions, %d outside %.0e", nrows, failed, tol);
  FILE *dat = report_data(r, "dem_codes.dat");
  char plot[6000];
  plot[0] = 0;
  figure_series(g, ng, dat, plot, sizeof plot);
  if (dat)
    fclose(dat);
  char fig[7000];
  snprintf(fig, sizeof fig,
           "set xlabel 'asked e'\nset ylabel 'e measured in the code'\nset xrange [0:1]\nset yrange [0:1]\n"
           "set key Left reverse width -6\n"
           "plot x w lines lc 'black' dt 3 t 'measured = asked'%s, "
           "'dem_codes_corrected.dat' u 1:2 w p pt 7 ps 0.5 lc 'black' t 'impactfit dem input (all)'",
           plot);
  report_figure(r, "dem_codes",
                "Restitution measured in the real codes against the asked e. Hollow markers: e typed as it is, one "
                "colour per model and clamp setting (circles LAMMPS 29Sep2021, squares LIGGGHTS 3.8.0, triangles "
                "YADE 2023.02a; models with the same force law share an entry); each point is the mean over the "
                "geometries and speeds, which differ by less than 1e-5. Black dots: the value impactfit dem prints "
                "typed instead (every model, geometry and speed); all of them lie on the diagonal.",
                fig);
  free(g);
  json_decref(root);
  return 0;
}
