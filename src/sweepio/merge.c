/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The merge of a sweep's shards (sweep_io.h, impactfit_sweep_merge): the shards are found by name in
 * the directories, their sidecars checked to be finished shards of one run, and their rows joined by
 * a k-way merge on the index column that must give 0, 1, ..., points - 1. */
#define _GNU_SOURCE /* getline, fsync */
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../common/common_impl.h"
#include "../common/io_impl.h"
#include "sweepio_impl.h"

#define MAX_NAMES 16

typedef struct shard {
  char json[4200], csv[4200];
  size_t index;
  json_t *j;
  FILE *f;
  char *line;
  size_t cap;
  ssize_t len;
  size_t cur; /* index of the row in `line` */
  size_t rows;
} shard;

/* An output written to PATH.tmp.PID, renamed into place by out_commit. */
typedef struct out_file {
  char path[4096], tmp[4200];
  FILE *f;
} out_file;

typedef struct merge {
  shard *v;
  size_t n, cap;
  char names[MAX_NAMES][256];
  size_t nnames;
  char name[256];
  shard **heap, **by_index;
  size_t nh, N, points;
  char *header;
  out_file csv;
  impactfit_error *err;
} merge;

#define FAIL(...) IMPACTFIT__FAIL(m->err, IMPACTFIT_EINVAL, __VA_ARGS__)

static int ends_with(const char *s, const char *suffix) {
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* NAME.shard-I-of-N.json: the name, I and N; 0 when the file name has another form. */
static int parse_name(const char *file, char *name, size_t size, size_t *i, size_t *n) {
  if (!ends_with(file, ".json"))
    return 0;
  const char *p = strstr(file, ".shard-");
  if (!p)
    return 0;
  for (const char *q = p + 1; (q = strstr(q, ".shard-")); q++)
    p = q; /* the last one */
  unsigned long a, b;
  int used = 0;
  if (sscanf(p, ".shard-%lu-of-%lu.json%n", &a, &b, &used) != 2 || p[used] != '\0')
    return 0;
  if ((size_t)(p - file) >= size)
    return 0;
  snprintf(name, size, "%.*s", (int)(p - file), file);
  *i = a;
  *n = b;
  return 1;
}

static int scan_dir(merge *m, const char *dir, const char *want) {
  DIR *d = opendir(dir);
  if (!d)
    return FAIL("cannot read directory %s", dir);
  struct dirent *e;
  int rc = 0;
  while ((e = readdir(d)) && !rc) {
    char name[256];
    size_t i, n;
    if (!parse_name(e->d_name, name, sizeof name, &i, &n))
      continue;
    size_t k = 0;
    while (k < m->nnames && strcmp(m->names[k], name) != 0)
      k++;
    if (k == m->nnames && m->nnames < MAX_NAMES)
      snprintf(m->names[m->nnames++], 256, "%s", name);
    if (want && strcmp(want, name) != 0)
      continue;
    if (m->n == m->cap) {
      m->cap = 2 * m->cap + 16;
      shard *v = realloc(m->v, m->cap * sizeof *v);
      if (!v) {
        rc = IMPACTFIT__FAIL(m->err, IMPACTFIT_ENOMEM, "out of memory");
        break;
      }
      m->v = v;
    }
    shard *sh = &m->v[m->n++];
    memset(sh, 0, sizeof *sh);
    snprintf(sh->json, sizeof sh->json, "%s/%s", dir, e->d_name);
    snprintf(sh->csv, sizeof sh->csv, "%s/%.*s.csv", dir, (int)(strlen(e->d_name) - 5), e->d_name);
    sh->index = i;
  }
  closedir(d);
  return rc;
}

/* The sweep to merge: one name among the shards found (or the one asked for). */
static int choose_sweep(merge *m, const char *want) {
  if (!want && m->nnames > 1) {
    char list[1024] = "";
    for (size_t k = 0; k < m->nnames; k++)
      snprintf(list + strlen(list), sizeof list - strlen(list), "%s%.60s", k ? ", " : "", m->names[k]);
    return FAIL("the directories hold shards of several sweeps (%s): choose one with --name", list);
  }
  if (m->n == 0)
    return FAIL("no shards (NAME.shard-I-of-N.json) %s%s in the given directories", want ? "named " : "",
                want ? want : "");
  size_t i0, n0;
  const char *b = strrchr(m->v[0].json, '/');
  parse_name(b ? b + 1 : m->v[0].json, m->name, sizeof m->name, &i0, &n0);
  return 0;
}

static const char *str_of(json_t *j, const char *key) {
  const char *v = json_string_value(json_object_get(j, key));
  return v ? v : "";
}

static long long int_of(json_t *j, const char *key) {
  json_t *v = json_object_get(j, key);
  return json_is_integer(v) ? json_integer_value(v) : -1;
}

/* Every shard: a finished shard of an impactfit sweep, numbered as its name says. */
static int load_sidecars(merge *m) {
  for (size_t k = 0; k < m->n; k++) {
    shard *sh = &m->v[k];
    json_error_t je;
    sh->j = json_load_file(sh->json, 0, &je);
    if (!sh->j || strcmp(str_of(sh->j, "generator"), "impactfit sweep") != 0 || int_of(sh->j, "shards") < 1 ||
        int_of(sh->j, "block") < 1 || int_of(sh->j, "points") < 1 || int_of(sh->j, "rows") < 0)
      return FAIL("%s is not the sidecar of an impactfit sweep shard%s%s", sh->json, sh->j ? "" : ": ",
                  sh->j ? "" : je.text);
    char part[4300], journal[4300];
    snprintf(part, sizeof part, "%s.part", sh->csv);
    snprintf(journal, sizeof journal, "%.*s.journal", (int)strlen(sh->csv) - 4, sh->csv);
    struct stat st;
    if (stat(journal, &st) == 0 || stat(part, &st) == 0 || stat(sh->csv, &st) != 0)
      return FAIL("shard %zu of %lld (%s) is not finished: run it again with --resume", sh->index,
                  int_of(sh->j, "shards"), sh->csv);
    if ((long long)sh->index != int_of(sh->j, "shard"))
      return FAIL("%s says it is shard %lld, its name says %zu", sh->json, int_of(sh->j, "shard"), sh->index);
  }
  return 0;
}

/* The shards are of one run: same definition, version, problem, shard count, block and grid. */
static int check_same_run(merge *m) {
  json_t *j0 = m->v[0].j;
  static const char *same_str[] = {"definition_xxh64", "impactfit_version", "problem"};
  static const char *same_int[] = {"shards", "block", "points"};
  for (size_t k = 1; k < m->n; k++) {
    json_t *jk = m->v[k].j;
    for (size_t q = 0; q < 3; q++)
      if (strcmp(str_of(jk, same_str[q]), str_of(j0, same_str[q])) != 0)
        return FAIL("shards of different runs: %s has %s %s, %s has %s", m->v[0].json, same_str[q],
                    str_of(j0, same_str[q]), m->v[k].json, str_of(jk, same_str[q]));
    for (size_t q = 0; q < 3; q++)
      if (int_of(jk, same_int[q]) != int_of(j0, same_int[q]))
        return FAIL("shards of different runs: %s has %s %lld, %s has %lld", m->v[0].json, same_int[q],
                    int_of(j0, same_int[q]), m->v[k].json, int_of(jk, same_int[q]));
  }
  m->N = (size_t)int_of(j0, "shards");
  m->points = (size_t)int_of(j0, "points");
  return 0;
}

/* Each of the N shards exactly once. */
static int index_shards(merge *m) {
  m->by_index = calloc(m->N, sizeof *m->by_index);
  m->heap = calloc(m->N, sizeof *m->heap);
  if (!m->by_index || !m->heap)
    return IMPACTFIT__FAIL(m->err, IMPACTFIT_ENOMEM, "out of memory");
  for (size_t k = 0; k < m->n; k++) {
    shard *sh = &m->v[k];
    if (sh->index >= m->N)
      return FAIL("%s is shard %zu of %zu", sh->json, sh->index, m->N);
    if (m->by_index[sh->index])
      return FAIL("shard %zu of %zu found twice: %s and %s", sh->index, m->N, m->by_index[sh->index]->csv, sh->csv);
    m->by_index[sh->index] = sh;
  }
  char missing[512] = "";
  size_t nmiss = 0;
  for (size_t i = 0; i < m->N; i++)
    if (!m->by_index[i] && nmiss++ < 20)
      snprintf(missing + strlen(missing), sizeof missing - strlen(missing), "%s%zu", nmiss > 1 ? ", " : "", i);
  if (nmiss)
    return FAIL("incomplete shard set: %zu of %zu shards of %s missing (%s%s)", nmiss, m->N, m->name, missing,
                nmiss > 20 ? ", ..." : "");
  return 0;
}

/* Reads the next row of a shard; 0 at the end, 1 with a row, -1 for a torn or malformed row. */
static int next_row(shard *sh) {
  sh->len = getline(&sh->line, &sh->cap, sh->f);
  if (sh->len < 0)
    return 0;
  if (sh->line[sh->len - 1] != '\n' || sh->line[0] < '0' || sh->line[0] > '9')
    return -1;
  char *end;
  unsigned long long v = strtoull(sh->line, &end, 10);
  if (*end != ',')
    return -1;
  sh->cur = (size_t)v;
  sh->rows++;
  return 1;
}

/* Min-heap of shards by the index of their current row. */
static void heap_down(shard **h, size_t n, size_t i) {
  for (;;) {
    size_t l = 2 * i + 1, r = l + 1, k = i;
    if (l < n && h[l]->cur < h[k]->cur)
      k = l;
    if (r < n && h[r]->cur < h[k]->cur)
      k = r;
    if (k == i)
      return;
    shard *t = h[i];
    h[i] = h[k];
    h[k] = t;
    i = k;
  }
}

/* Every shard's header (all equal) and first row; the heap of the shards that have rows. */
static int open_shards(merge *m) {
  size_t hlen = 0;
  for (size_t i = 0; i < m->N; i++) {
    shard *sh = m->by_index[i];
    sh->f = fopen(sh->csv, "r");
    ssize_t hl = sh->f ? getline(&sh->line, &sh->cap, sh->f) : -1;
    if (hl <= 0 || sh->line[hl - 1] != '\n')
      return FAIL("cannot read the header of %s", sh->csv);
    if (!m->header) {
      if (!(m->header = strdup(sh->line)))
        return IMPACTFIT__FAIL(m->err, IMPACTFIT_ENOMEM, "out of memory");
      hlen = (size_t)hl;
    } else if ((size_t)hl != hlen || memcmp(m->header, sh->line, hlen) != 0) {
      return FAIL("%s and %s have different headers", m->by_index[0]->csv, sh->csv);
    }
    int r = next_row(sh);
    if (r < 0)
      return FAIL("%s: row %zu is torn or malformed", sh->csv, sh->rows);
    if (r > 0)
      m->heap[m->nh++] = sh;
  }
  for (size_t i = m->nh / 2; i-- > 0;)
    heap_down(m->heap, m->nh, i);
  return 0;
}

static int out_open(out_file *o, const char *path, impactfit_error *err) {
  if ((size_t)snprintf(o->path, sizeof o->path, "%s", path) >= sizeof o->path)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EIO, "output path too long: %s", path);
  snprintf(o->tmp, sizeof o->tmp, "%s.tmp.%ld", path, (long)getpid());
  o->f = fopen(o->tmp, "w");
  if (!o->f)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EIO, "cannot write %s: %s", path, strerror(errno));
  return 0;
}

static int out_commit(out_file *o, impactfit_error *err) {
  int bad = fflush(o->f) != 0 || ferror(o->f) || fsync(fileno(o->f)) != 0, e = errno;
  if (fclose(o->f) != 0 && !bad) {
    bad = 1;
    e = errno;
  }
  o->f = NULL;
  if (bad || rename(o->tmp, o->path) != 0) {
    e = bad ? (e ? e : EIO) : errno;
    remove(o->tmp);
    return IMPACTFIT__FAIL(err, IMPACTFIT_EIO, "cannot write %s: %s", o->path, strerror(e));
  }
  return 0;
}

static void out_abort(out_file *o) {
  if (o->f) {
    fclose(o->f);
    remove(o->tmp);
  }
  o->f = NULL;
}

/* The k-way merge into the output: rows 0, 1, ..., points - 1, each from one shard. */
static int merge_rows(merge *m, impactfit_sweep_merge_progress_fn progress, void *ctx) {
  size_t expected = 0;
  if (progress)
    progress(ctx, m->name, 0, m->points);
  while (m->nh) {
    shard *sh = m->heap[0];
    if (sh->cur != expected)
      return FAIL("row %zu is %s (next row found: %zu in %s)", expected,
                  sh->cur < expected ? "repeated or out of order" : "missing", sh->cur, sh->csv);
    fwrite(sh->line, 1, (size_t)sh->len, m->csv.f);
    expected++;
    if (progress && (expected & 0xffff) == 0)
      progress(ctx, m->name, expected, m->points);
    int r = next_row(sh);
    if (r < 0)
      return FAIL("%s: row %zu is torn or malformed", sh->csv, sh->rows);
    if (r == 0)
      m->heap[0] = m->heap[--m->nh];
    heap_down(m->heap, m->nh, 0);
  }
  if (expected != m->points)
    return FAIL("the shards hold %zu rows, the grid has %zu points", expected, m->points);
  for (size_t i = 0; i < m->N; i++)
    if ((long long)m->by_index[i]->rows != int_of(m->by_index[i]->j, "rows"))
      return FAIL("%s holds %zu rows, its JSON says %lld", m->by_index[i]->csv, m->by_index[i]->rows,
                  int_of(m->by_index[i]->j, "rows"));
  return 0;
}

static int cmp_failure(const void *a, const void *b) {
  size_t x = (size_t)json_integer_value(json_object_get(*(json_t *const *)a, "index"));
  size_t y = (size_t)json_integer_value(json_object_get(*(json_t *const *)b, "index"));
  return x < y ? -1 : x > y;
}

/* The sidecar: shard 0's provenance with the totals and failures of all shards. */
static json_t *merged_sidecar(merge *m, const char *csv_path, long long *failed_out) {
  json_t *merged = json_deep_copy(m->by_index[0]->j);
  json_t *fails = json_array();
  long long failed = 0, rhs = 0, sessions = 0;
  double wall = 0.0;
  for (size_t i = 0; i < m->N; i++) {
    json_t *ji = m->by_index[i]->j;
    failed += int_of(ji, "failed");
    rhs += int_of(ji, "rhs_evals");
    sessions += int_of(ji, "sessions");
    wall += json_number_value(json_object_get(ji, "wall_seconds"));
    json_t *fl = json_object_get(ji, "failures");
    for (size_t k = 0; k < json_array_size(fl); k++)
      json_array_append(fails, json_array_get(fl, k));
  }
  size_t nf = json_array_size(fails);
  json_t **fv = malloc((nf ? nf : 1) * sizeof *fv);
  json_t *listed = json_array();
  for (size_t k = 0; fv && k < nf; k++)
    fv[k] = json_array_get(fails, k);
  if (fv)
    qsort(fv, nf, sizeof *fv, cmp_failure);
  for (size_t k = 0; fv && k < nf && k < IMPACTFIT_SWEEP_MAX_LISTED; k++)
    json_array_append(listed, fv[k]);
  free(fv);
  json_decref(fails);
  json_object_set_new(merged, "csv", json_string(csv_path));
  json_object_set_new(merged, "rows", json_integer((json_int_t)m->points));
  json_object_set_new(merged, "failed", json_integer(failed));
  json_object_set_new(merged, "shard", json_integer(0));
  json_object_set_new(merged, "shards", json_integer(1));
  json_object_set_new(merged, "merged_shards", json_integer((json_int_t)m->N));
  json_object_set_new(merged, "sessions", json_integer(sessions));
  json_object_set_new(merged, "wall_seconds", json_real(wall));
  json_object_set_new(merged, "rhs_evals", json_integer(rhs));
  json_object_set_new(merged, "failures", listed);
  json_object_set_new(merged, "failures_not_listed", json_integer(failed - (long long)json_array_size(listed)));
  *failed_out = failed;
  return merged;
}

/* Writes the CSV (rows merged) and then the sidecar, each through a temporary file. */
static int write_outputs(merge *m, const char *out_dir, impactfit_sweep_merge_progress_fn progress, void *ctx,
                         impactfit_sweep_merge_result *res) {
  char csv_path[4096], json_path[4096];
  char file[600];
  snprintf(file, sizeof file, "%s.csv", m->name);
  impactfit__path_join(csv_path, sizeof csv_path, out_dir, file);
  snprintf(file, sizeof file, "%s.json", m->name);
  impactfit__path_join(json_path, sizeof json_path, out_dir, file);
  int rc = impactfit__mkdir_p(out_dir, m->err);
  if (rc || (rc = out_open(&m->csv, csv_path, m->err)))
    return rc;
  fputs(m->header, m->csv.f);
  if ((rc = merge_rows(m, progress, ctx)))
    return rc;
  long long failed = 0;
  json_t *merged = merged_sidecar(m, csv_path, &failed);
  if (!merged)
    return IMPACTFIT__FAIL(m->err, IMPACTFIT_ENOMEM, "out of memory");
  out_file js = {{0}, {0}, NULL};
  if (!(rc = out_commit(&m->csv, m->err)) && !(rc = out_open(&js, json_path, m->err))) {
    json_dumpf(merged, js.f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fputc('\n', js.f);
    rc = out_commit(&js, m->err);
  }
  json_decref(merged);
  if (!rc && res) {
    snprintf(res->name, sizeof res->name, "%s", m->name);
    res->shards = m->N;
    res->rows = m->points;
    res->failed = failed;
    snprintf(res->csv, sizeof res->csv, "%s", csv_path);
    snprintf(res->json, sizeof res->json, "%s", json_path);
  }
  return rc;
}

int impactfit_sweep_merge(const char *const *dirs, size_t n, const char *name, const char *out_dir,
                          impactfit_sweep_merge_progress_fn progress, void *ctx, impactfit_sweep_merge_result *res,
                          impactfit_error *err) {
  if (res)
    memset(res, 0, sizeof *res);
  if (!dirs || !out_dir)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "impactfit_sweep_merge: NULL argument");
  merge mm;
  memset(&mm, 0, sizeof mm);
  merge *m = &mm;
  m->err = err;
  int rc = 0;
  for (size_t i = 0; i < n && !rc; i++)
    rc = scan_dir(m, dirs[i], name);
  if (!rc)
    rc = choose_sweep(m, name);
  if (!rc)
    rc = load_sidecars(m);
  if (!rc)
    rc = check_same_run(m);
  if (!rc)
    rc = index_shards(m);
  if (!rc)
    rc = open_shards(m);
  if (!rc)
    rc = write_outputs(m, out_dir, progress, ctx, res);
  out_abort(&m->csv);
  for (size_t k = 0; k < m->n; k++) {
    if (m->v[k].f)
      fclose(m->v[k].f);
    free(m->v[k].line);
    json_decref(m->v[k].j);
  }
  free(m->v);
  free(m->heap);
  free(m->by_index);
  free(m->header);
  return rc;
}
