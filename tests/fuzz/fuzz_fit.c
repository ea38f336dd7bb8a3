/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fuzz harness: fit files (src/fit/fitfile.c: inih, stage keys, where-filters, start lists, and the
 * formula parsers of formula.c and libmatheval). Seeds: the files in fits/ and tests/fuzz/corpus/fit. The
 * sweep a fit file names is served from memory: the repository's sweeps/ by base name (read once at
 * start), anything else is "cannot read". Checked: a refusal is an input error naming the file; an
 * accepted file has stages whose models print as C (the generated header's expressions). */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>

#include "fit/fit_impl.h"
#include "fit/fitfile_impl.h"
#include "fuzz.h"
#include "sweep/sweep_impl.h"

#ifndef IMPACTFIT_SOURCE_DIR
#error "IMPACTFIT_SOURCE_DIR must name the repository (for sweeps/)"
#endif

#define MAX_SWEEPS 64

static struct {
  char name[256];
  char *text;
  size_t len;
} sweeps[MAX_SWEEPS];
static size_t n_sweeps;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  fuzz_init();
  const char *dir = IMPACTFIT_SOURCE_DIR "/sweeps";
  DIR *d = opendir(dir);
  FUZZ_ASSERT(d != NULL, "cannot open %s", dir);
  struct dirent *e;
  while ((e = readdir(d)) && n_sweeps < MAX_SWEEPS) {
    size_t l = strlen(e->d_name);
    if (l < 5 || l >= sizeof sweeps[0].name || strcmp(e->d_name + l - 4, ".ini") != 0)
      continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    impactfit_error err;
    FUZZ_ASSERT(impactfit__read_file(path, &sweeps[n_sweeps].text, &sweeps[n_sweeps].len, &err) == 0, "%s",
                err.message);
    strcpy(sweeps[n_sweeps].name, e->d_name);
    n_sweeps++;
  }
  closedir(d);
  FUZZ_ASSERT(n_sweeps > 0, "no sweeps in %s", dir);
  return 0;
}

static int load(void *ctx, const char *path, impactfit_sweep **out, impactfit_error *err) {
  (void)ctx;
  *out = NULL;
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  for (size_t i = 0; i < n_sweeps; i++)
    if (strcmp(sweeps[i].name, base) == 0)
      return impactfit_sweep_parse(sweeps[i].text, sweeps[i].len, path, out, err);
  impactfit_error_clear(err);
  err->status = IMPACTFIT_EIO;
  snprintf(err->message, sizeof err->message, "cannot read %s: No such file or directory", path);
  return IMPACTFIT_EIO;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  impactfit_fitfile *f = NULL;
  impactfit_error err;
  impactfit_error_clear(&err);
  int st = impactfit__fitfile_parse((const char *)data, size, "fits/fuzz.ini", load, NULL, &f, &err);
  if (st) {
    FUZZ_ASSERT(f == NULL, "a refused fit file returned an object");
    fuzz_check_refusal(st, &err, "fits/fuzz.ini");
    return 0;
  }
  size_t n = impactfit_fitfile_stage_count(f);
  FUZZ_ASSERT(n >= 1 && impactfit_fitfile_sweep(f) != NULL && impactfit_fitfile_name(f) != NULL, "stages");
  for (size_t i = 0; i < n; i++) {
    impactfit_fit_stage s;
    FUZZ_ASSERT(impactfit_fitfile_stage(f, i, &s) == 0 && s.model && s.x && s.y && s.data, "stage %zu", i);
    const impactfit_fit_model *m = s.model;
    size_t p = impactfit_fit_model_param_count(m);
    FUZZ_ASSERT(p >= 1 && p <= IMPACTFIT_FIT_MAX_PARAMS, "stage %zu: %zu constants", i, p);
    const char *names[IMPACTFIT_FIT_MAX_PARAMS];
    for (size_t j = 0; j < p; j++)
      names[j] = m->names[j];
    char buf[8192];
    /* too long for the buffer is a refusal (-1), never an overflow */
    int len = impactfit__fit_model_to_c(m, "x", "x2", names, buf, sizeof buf);
    FUZZ_ASSERT(len < 0 || (size_t)len == strlen(buf), "stage %zu: C expression length", i);
    double par[IMPACTFIT_FIT_MAX_PARAMS];
    for (size_t j = 0; j < p; j++)
      par[j] = 0.5 + 0.25 * (double)j;
    (void)impactfit_fit_model_eval(m, par, 0.7, 1.3);
    if (m->fx) { /* a formula: also our own syntax tree and libmatheval's derivatives */
      double v[2 + IMPACTFIT_FIT_MAX_PARAMS] = {0.7, 1.3};
      memcpy(v + m->nvars, par, p * sizeof *par);
      (void)impactfit__formula_eval_tree(m->fx, v);
      for (size_t j = 0; j < p; j++)
        (void)impactfit__formula_deriv(m->fx, j, v);
    }
  }
  impactfit_fitfile_free(f);
  return 0;
}
