/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The sidecar's reader (sweep_io.h, jansson) and the hash-checked load of a fit file's sweep data. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../common/common_impl.h"
#include "../common/io_impl.h"
#include "sweepio_impl.h"

static void copy_str(char *dst, size_t size, json_t *j, const char *key) {
  const char *v = json_string_value(json_object_get(j, key));
  snprintf(dst, size, "%s", v ? v : "");
}

static long long int_of(json_t *j, const char *key) {
  json_t *v = json_object_get(j, key);
  return json_is_integer(v) ? (long long)json_integer_value(v) : -1;
}

static int status_of_name(const char *name) {
#define IMPACTFIT__STATUS_BY_NAME(n, value, msg) \
  if (name && strcmp(name, #n) == 0)             \
    return value;
  IMPACTFIT_STATUS_LIST(IMPACTFIT__STATUS_BY_NAME)
#undef IMPACTFIT__STATUS_BY_NAME
  return IMPACTFIT_EINVAL;
}

static int is_hash(const char *h) {
  if (strlen(h) != 16)
    return 0;
  for (const char *p = h; *p; p++)
    if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f')))
      return 0;
  return 1;
}

void impactfit_sweep_provenance_free(impactfit_sweep_provenance *p) {
  if (!p)
    return;
  for (size_t i = 0; i < p->n_failures; i++)
    free(p->failures[i].message);
  free(p->failures);
  p->failures = NULL;
  p->n_failures = 0;
}

/* The fields of a parsed sidecar object. */
static int from_json(json_t *j, const char *name, impactfit_sweep_provenance *out, impactfit_error *err) {
  if (!json_is_object(j))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "%s: not a JSON object", name);
  copy_str(out->generator, sizeof out->generator, j, "generator");
  copy_str(out->hash, sizeof out->hash, j, "definition_xxh64");
  if (strcmp(out->generator, "impactfit sweep") != 0 || !is_hash(out->hash))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE,
                           "%s is not the sidecar of an impactfit sweep (no \"generator\": \"impactfit sweep\" "
                           "with a \"definition_xxh64\" of 16 hex digits)",
                           name);
  copy_str(out->version, sizeof out->version, j, "impactfit_version");
  copy_str(out->definition, sizeof out->definition, j, "definition");
  copy_str(out->problem, sizeof out->problem, j, "problem");
  copy_str(out->csv, sizeof out->csv, j, "csv");
  static const char *keys[] = {"points",  "rows",  "failed",   "block",     "shard",         "shards",
                               "threads", "ranks", "sessions", "rhs_evals", "merged_shards", "failures_not_listed"};
  long long *vals[] = {&out->points,   &out->rows,      &out->failed,        &out->block,
                       &out->shard,    &out->shards,    &out->threads,       &out->ranks,
                       &out->sessions, &out->rhs_evals, &out->merged_shards, &out->failures_not_listed};
  for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
    *vals[k] = int_of(j, keys[k]);
  out->wall_seconds = json_number_value(json_object_get(j, "wall_seconds"));
  json_t *fl = json_object_get(j, "failures");
  size_t n = json_array_size(fl);
  if (n > IMPACTFIT_SWEEP_MAX_LISTED)
    n = IMPACTFIT_SWEEP_MAX_LISTED;
  if (n && !(out->failures = calloc(n, sizeof *out->failures)))
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  for (size_t i = 0; i < n; i++) {
    json_t *e = json_array_get(fl, i);
    json_t *ix = json_object_get(e, "index");
    const char *msg = json_string_value(json_object_get(e, "message"));
    if (!json_is_integer(ix) || json_integer_value(ix) < 0)
      return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "%s: failure %zu has no index", name, i);
    impactfit_sweep_failure *f = &out->failures[out->n_failures];
    f->index = (size_t)json_integer_value(ix);
    f->status = status_of_name(json_string_value(json_object_get(e, "status")));
    if (!(f->message = strdup(msg ? msg : "")))
      return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
    out->n_failures++;
  }
  return 0;
}

int impactfit_sweep_provenance_parse(const char *text, size_t len, const char *name, impactfit_sweep_provenance *out,
                                     impactfit_error *err) {
  if (!out)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "impactfit_sweep_provenance_parse: NULL argument");
  memset(out, 0, sizeof *out);
  if (!text)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "impactfit_sweep_provenance_parse: NULL argument");
  name = name ? name : "sidecar";
  json_error_t je;
  json_t *j = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
  if (!j)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EPARSE, "%s:%d: %s", name, je.line, je.text);
  int st = from_json(j, name, out, err);
  json_decref(j);
  if (st)
    impactfit_sweep_provenance_free(out);
  return st;
}

int impactfit_sweep_provenance_read(const char *json_path, impactfit_sweep_provenance *out, impactfit_error *err) {
  if (out)
    memset(out, 0, sizeof *out);
  if (!json_path || !out)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "impactfit_sweep_provenance_read: NULL argument");
  FILE *f = fopen(json_path, "rb");
  if (!f)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EIO, "cannot read %s: %s", json_path, strerror(errno));
  /* a sidecar is small: 1000 failures of a few hundred bytes at most */
  size_t cap = 1 << 16, len = 0;
  char *text = malloc(cap);
  while (text) {
    len += fread(text + len, 1, cap - len, f);
    if (len < cap || cap >= ((size_t)64 << 20))
      break;
    char *t = realloc(text, cap *= 2);
    if (!t)
      free(text);
    text = t;
  }
  int bad = ferror(f);
  fclose(f);
  if (!text)
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  int st = bad ? IMPACTFIT__FAIL(err, IMPACTFIT_EIO, "cannot read %s", json_path)
               : impactfit_sweep_provenance_parse(text, len, json_path, out, err);
  free(text);
  return st;
}

int impactfit__mkdir_p(const char *path, impactfit_error *err) {
  char tmp[4096];
  if (!path || !*path)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EIO, "cannot create a directory with an empty name");
  if ((size_t)snprintf(tmp, sizeof tmp, "%s", path) >= sizeof tmp)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EIO, "cannot create %.64s...: path too long", path);
  for (char *p = tmp + 1; *p; p++)
    if (*p == '/') {
      *p = '\0';
      if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
        return IMPACTFIT__FAIL(err, IMPACTFIT_EIO, "cannot create %s: %s", tmp, strerror(errno));
      *p = '/';
    }
  if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EIO, "cannot create %s: %s", tmp, strerror(errno));
  return 0;
}

/* ---- a fit file's data ---- */

size_t impactfit_sweep_output_name(const impactfit_sweep *s, char *buf, size_t size) {
  const char *base = strrchr(impactfit_sweep_name(s), '/');
  base = base ? base + 1 : impactfit_sweep_name(s);
  size_t len = strlen(base);
  if (len > 4 && strcmp(base + len - 4, ".ini") == 0)
    len -= 4;
  if (size)
    snprintf(buf, size, "%.*s", (int)(len < size - 1 ? len : size - 1), base);
  return len;
}

/* 1 when DIR holds NAME.shard-I-of-N.json files (a sharded run, not yet merged) */
static int has_shards(const char *dir, const char *name) {
  DIR *d = opendir(dir);
  if (!d)
    return 0;
  size_t nl = strlen(name);
  int found = 0;
  for (struct dirent *e; !found && (e = readdir(d));) {
    size_t l = strlen(e->d_name);
    found = l > nl + 12 && !strncmp(e->d_name, name, nl) && !strncmp(e->d_name + nl, ".shard-", 7) &&
            !strcmp(e->d_name + l - 5, ".json");
  }
  closedir(d);
  return found;
}

int impactfit_fitfile_load_data(const impactfit_fitfile *f, const char *dir, impactfit_table **out,
                                impactfit_error *err) {
  if (out)
    *out = NULL;
  if (!f || !dir || !out)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "impactfit_fitfile_load_data: NULL argument");
  const impactfit_sweep *s = impactfit_fitfile_sweep(f);
  char name[2048], file[2100], csv[4096], json[4096];
  if (impactfit_sweep_output_name(s, name, sizeof name) >= sizeof name ||
      (snprintf(file, sizeof file, "%s.csv", name), (size_t)impactfit__path_join(csv, sizeof csv, dir, file)) >=
          sizeof csv ||
      (snprintf(file, sizeof file, "%s.json", name), (size_t)impactfit__path_join(json, sizeof json, dir, file)) >=
          sizeof json)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s: path too long", dir);
  /* the data must come from this very definition: the sidecar records its hash */
  impactfit_sweep_provenance pv;
  int st = impactfit_sweep_provenance_read(json, &pv, err);
  if (st == IMPACTFIT_EIO) {
    char sweep[4096];
    impactfit__path_tidy(impactfit_sweep_name(s), sweep, sizeof sweep);
    if (has_shards(dir, name)) /* a sharded run: its shards only need merging */
      return IMPACTFIT__FAIL(err, IMPACTFIT_EIO,
                             "cannot read %s: %s holds the shards of this sweep: merge them first with "
                             "'impactfit merge %s'",
                             json, dir, dir);
    return IMPACTFIT__FAIL(err, IMPACTFIT_EIO, "cannot read %s: run 'impactfit sweep %s --out %s' first", json, sweep,
                           dir);
  }
  if (st && st != IMPACTFIT_EPARSE)
    return st;
  int same = !st && strcmp(pv.hash, impactfit_sweep_hash(s)) == 0;
  impactfit_sweep_provenance_free(&pv);
  if (!same)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "%s was not produced from the current %s (definition hash differs): run the sweep again",
                           csv, impactfit_sweep_name(s));
  return impactfit_table_read_csv(csv, out, err);
}
