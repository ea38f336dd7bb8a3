/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit merge: joins the shards of a sweep (impactfit sweep --shard I/N) into the CSV and JSON
 * an unsharded run writes. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "impactfit/impactfit.h"
#include "progress.h"
#include "sweep_out.h"

static const char *help_text =
    "usage: impactfit merge DIR... [--out DIR] [--name NAME] [--quiet]\n\n"
    "Joins the N shards of a sweep, NAME.shard-I-of-N.csv and .json as written by\n"
    "'impactfit sweep FILE --shard I/N' into one or more directories, into DIR/NAME.csv and\n"
    "DIR/NAME.json: the CSV is byte-identical to the one an unsharded run writes, and the JSON its\n"
    "provenance with the failures of all shards and \"merged_shards\": N.\n\n"
    "  --out DIR    output directory (created if missing), default .\n"
    "  --name NAME  the sweep to merge when the directories hold shards of several\n"
    "  --quiet      no progress line (shown only when stderr is a terminal)\n\n"
    "Refused (exit 2, nothing written): a missing, duplicated or unfinished shard (its .csv.part or\n"
    ".journal still there: finish it with --resume), shards of different definitions (hash),\n"
    "impactfit versions, shard counts, block sizes or grids, and rows that are missing, repeated,\n"
    "out of order or torn.\n";

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

typedef struct found {
  shard *v;
  size_t n, cap;
} found;

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

static int scan_dir(const char *dir, const char *want, found *fd, char names[][256], size_t *nnames) {
  DIR *d = opendir(dir);
  if (!d)
    return cli_input_error("merge: cannot read directory %s", dir);
  struct dirent *e;
  int rc = 0;
  while ((e = readdir(d)) && !rc) {
    char name[256];
    size_t i, n;
    if (!parse_name(e->d_name, name, sizeof name, &i, &n))
      continue;
    size_t k = 0;
    while (k < *nnames && strcmp(names[k], name) != 0)
      k++;
    if (k == *nnames && *nnames < 16)
      snprintf(names[(*nnames)++], 256, "%s", name);
    if (want && strcmp(want, name) != 0)
      continue;
    if (fd->n == fd->cap) {
      fd->cap = 2 * fd->cap + 16;
      shard *v = realloc(fd->v, fd->cap * sizeof *v);
      if (!v) {
        rc = cli_input_error("out of memory");
        break;
      }
      fd->v = v;
    }
    shard *sh = &fd->v[fd->n++];
    memset(sh, 0, sizeof *sh);
    snprintf(sh->json, sizeof sh->json, "%s/%s", dir, e->d_name);
    snprintf(sh->csv, sizeof sh->csv, "%s/%.*s.csv", dir, (int)(strlen(e->d_name) - 5), e->d_name);
    sh->index = i;
  }
  closedir(d);
  return rc;
}

static const char *str_of(json_t *j, const char *key) {
  const char *v = json_string_value(json_object_get(j, key));
  return v ? v : "";
}

static long long int_of(json_t *j, const char *key) {
  json_t *v = json_object_get(j, key);
  return json_is_integer(v) ? json_integer_value(v) : -1;
}

/* Reads the next row of a shard; 0 at the end, 1 with a row, −1 for a torn or malformed row. */
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
    size_t l = 2 * i + 1, r = l + 1, m = i;
    if (l < n && h[l]->cur < h[m]->cur)
      m = l;
    if (r < n && h[r]->cur < h[m]->cur)
      m = r;
    if (m == i)
      return;
    shard *t = h[i];
    h[i] = h[m];
    h[m] = t;
    i = m;
  }
}

static int cmp_failure(const void *a, const void *b) {
  size_t x = (size_t)json_integer_value(json_object_get(*(json_t *const *)a, "index"));
  size_t y = (size_t)json_integer_value(json_object_get(*(json_t *const *)b, "index"));
  return x < y ? -1 : x > y;
}

int impactfit_cmd_merge(int argc, char **argv) {
  const char *out_dir = ".", *want = NULL;
  int help = 0, quiet = 0;
  cli_opt opts[] = {
      {"out", OPT_STRING, &out_dir, 0},
      {"name", OPT_STRING, &want, 0},
      {"quiet", OPT_FLAG, &quiet, 0},
  };
  const char *pos[256];
  size_t npos = 0;
  int rc = cli_parse(argc, argv, 2, opts, sizeof opts / sizeof opts[0], pos, 256, &npos, &help);
  if (rc)
    return rc;
  if (help) {
    fputs(help_text, stdout);
    return CLI_OK;
  }
  if (npos == 0)
    return cli_input_error("merge: expected the directories holding the shards (see 'impactfit merge --help')");
  found fd = {NULL, 0, 0};
  char names[16][256];
  size_t nnames = 0;
  for (size_t i = 0; i < npos && !rc; i++)
    rc = scan_dir(pos[i], want, &fd, names, &nnames);
  shard **heap = NULL, **by_index = NULL;
  cli_out out;
  out.f = NULL;
  char name[256] = "";
  json_t *merged = NULL;
  if (rc)
    goto done;
  if (!want && nnames > 1) {
    char list[1024] = "";
    for (size_t k = 0; k < nnames; k++)
      snprintf(list + strlen(list), sizeof list - strlen(list), "%s%.60s", k ? ", " : "", names[k]);
    rc = cli_input_error("merge: the directories hold shards of several sweeps (%s): choose one with --name", list);
    goto done;
  }
  if (fd.n == 0) {
    rc = cli_input_error("merge: no shards (NAME.shard-I-of-N.json) %s%s in the given directories",
                         want ? "named " : "", want ? want : "");
    goto done;
  }
  {
    size_t i0, n0;
    const char *b = strrchr(fd.v[0].json, '/');
    parse_name(b ? b + 1 : fd.v[0].json, name, sizeof name, &i0, &n0);
  }
  /* every shard: a finished shard of one and the same sweep */
  for (size_t k = 0; k < fd.n; k++) {
    shard *sh = &fd.v[k];
    json_error_t je;
    sh->j = json_load_file(sh->json, 0, &je);
    if (!sh->j || strcmp(str_of(sh->j, "generator"), "impactfit sweep") != 0 || int_of(sh->j, "shards") < 1 ||
        int_of(sh->j, "block") < 1 || int_of(sh->j, "points") < 1 || int_of(sh->j, "rows") < 0) {
      rc = cli_input_error("merge: %s is not the sidecar of an impactfit sweep shard%s%s", sh->json, sh->j ? "" : ": ",
                           sh->j ? "" : je.text);
      goto done;
    }
    char part[4300], journal[4300];
    snprintf(part, sizeof part, "%s.part", sh->csv);
    snprintf(journal, sizeof journal, "%.*s.journal", (int)strlen(sh->csv) - 4, sh->csv);
    struct stat st;
    if (stat(journal, &st) == 0 || stat(part, &st) == 0 || stat(sh->csv, &st) != 0) {
      rc = cli_input_error("merge: shard %zu of %lld (%s) is not finished: run it again with --resume", sh->index,
                           int_of(sh->j, "shards"), sh->csv);
      goto done;
    }
    if ((long long)sh->index != int_of(sh->j, "shard")) {
      rc = cli_input_error("merge: %s says it is shard %lld, its name says %zu", sh->json, int_of(sh->j, "shard"),
                           sh->index);
      goto done;
    }
  }
  json_t *j0 = fd.v[0].j;
  size_t N = (size_t)int_of(j0, "shards"), points = (size_t)int_of(j0, "points");
  static const char *same_str[] = {"definition_xxh64", "impactfit_version", "problem"};
  static const char *same_int[] = {"shards", "block", "points"};
  for (size_t k = 1; k < fd.n; k++) {
    for (size_t q = 0; q < 3; q++)
      if (strcmp(str_of(fd.v[k].j, same_str[q]), str_of(j0, same_str[q])) != 0) {
        rc = cli_input_error("merge: shards of different runs: %s has %s %s, %s has %s", fd.v[0].json, same_str[q],
                             str_of(j0, same_str[q]), fd.v[k].json, str_of(fd.v[k].j, same_str[q]));
        goto done;
      }
    for (size_t q = 0; q < 3; q++)
      if (int_of(fd.v[k].j, same_int[q]) != int_of(j0, same_int[q])) {
        rc = cli_input_error("merge: shards of different runs: %s has %s %lld, %s has %lld", fd.v[0].json, same_int[q],
                             int_of(j0, same_int[q]), fd.v[k].json, int_of(fd.v[k].j, same_int[q]));
        goto done;
      }
  }
  by_index = calloc(N, sizeof *by_index);
  heap = calloc(N, sizeof *heap);
  if (!by_index || !heap) {
    rc = cli_input_error("out of memory");
    goto done;
  }
  for (size_t k = 0; k < fd.n; k++) {
    shard *sh = &fd.v[k];
    if (sh->index >= N) {
      rc = cli_input_error("merge: %s is shard %zu of %zu", sh->json, sh->index, N);
      goto done;
    }
    if (by_index[sh->index]) {
      rc = cli_input_error("merge: shard %zu of %zu found twice: %s and %s", sh->index, N, by_index[sh->index]->csv,
                           sh->csv);
      goto done;
    }
    by_index[sh->index] = sh;
  }
  {
    char missing[512] = "";
    size_t nmiss = 0;
    for (size_t i = 0; i < N; i++)
      if (!by_index[i] && nmiss++ < 20)
        snprintf(missing + strlen(missing), sizeof missing - strlen(missing), "%s%zu", nmiss > 1 ? ", " : "", i);
    if (nmiss) {
      rc = cli_input_error("merge: incomplete shard set: %zu of %zu shards of %s missing (%s%s)", nmiss, N, name,
                           missing, nmiss > 20 ? ", ..." : "");
      goto done;
    }
  }
  /* headers, then a k-way merge by index that must give 0, 1, ..., points−1 */
  char *header = NULL;
  size_t hcap = 0;
  size_t nh = 0;
  for (size_t i = 0; i < N; i++) {
    shard *sh = by_index[i];
    sh->f = fopen(sh->csv, "r");
    ssize_t hl = sh->f ? getline(&sh->line, &sh->cap, sh->f) : -1;
    if (hl <= 0 || sh->line[hl - 1] != '\n') {
      rc = cli_input_error("merge: cannot read the header of %s", sh->csv);
      free(header);
      goto done;
    }
    if (!header) {
      header = strdup(sh->line);
      hcap = (size_t)hl;
    } else if ((size_t)hl != hcap || memcmp(header, sh->line, hcap) != 0) {
      rc = cli_input_error("merge: %s and %s have different headers", by_index[0]->csv, sh->csv);
      free(header);
      goto done;
    }
    int r = next_row(sh);
    if (r < 0) {
      rc = cli_input_error("merge: %s: row %zu is torn or malformed", sh->csv, sh->rows);
      free(header);
      goto done;
    }
    if (r > 0)
      heap[nh++] = sh;
  }
  for (size_t i = nh / 2; i-- > 0;)
    heap_down(heap, nh, i);
  char csv_path[4096];
  snprintf(csv_path, sizeof csv_path, "%s/%s.csv", out_dir, name);
  if ((rc = cli_mkdir_p(out_dir)) || (rc = cli_out_open(&out, csv_path))) {
    free(header);
    goto done;
  }
  fputs(header, out.f);
  free(header);
  cli_progress prog;
  char label[300];
  snprintf(label, sizeof label, "merge %s", name);
  cli_progress_start(&prog, label, "rows", points, 0, quiet);
  size_t expected = 0;
  while (nh) {
    shard *sh = heap[0];
    if (sh->cur != expected) {
      cli_progress_end(&prog);
      rc = cli_input_error("merge: row %zu is %s (next row found: %zu in %s)", expected,
                           sh->cur < expected ? "repeated or out of order" : "missing", sh->cur, sh->csv);
      goto done;
    }
    fwrite(sh->line, 1, (size_t)sh->len, out.f);
    expected++;
    if ((expected & 0xffff) == 0)
      cli_progress_update(&prog, expected, 0);
    int r = next_row(sh);
    if (r < 0) {
      cli_progress_end(&prog);
      rc = cli_input_error("merge: %s: row %zu is torn or malformed", sh->csv, sh->rows);
      goto done;
    }
    if (r == 0)
      heap[0] = heap[--nh];
    heap_down(heap, nh, 0);
  }
  cli_progress_end(&prog);
  if (expected != points) {
    rc = cli_input_error("merge: the shards hold %zu rows, the grid has %zu points", expected, points);
    goto done;
  }
  for (size_t i = 0; i < N; i++)
    if ((long long)by_index[i]->rows != int_of(by_index[i]->j, "rows")) {
      rc = cli_input_error("merge: %s holds %zu rows, its JSON says %lld", by_index[i]->csv, by_index[i]->rows,
                           int_of(by_index[i]->j, "rows"));
      goto done;
    }
  /* the JSON: shard 0's provenance with the totals and failures of all shards */
  merged = json_deep_copy(j0);
  json_t *fails = json_array();
  long long failed = 0, rhs = 0, sessions = 0;
  double wall = 0.0;
  for (size_t i = 0; i < N; i++) {
    json_t *ji = by_index[i]->j;
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
  for (size_t k = 0; fv && k < nf && k < SWEEP_OUT_MAX_LISTED; k++)
    json_array_append(listed, fv[k]);
  free(fv);
  json_decref(fails);
  json_object_set_new(merged, "csv", json_string(csv_path));
  json_object_set_new(merged, "rows", json_integer((json_int_t)points));
  json_object_set_new(merged, "failed", json_integer(failed));
  json_object_set_new(merged, "shard", json_integer(0));
  json_object_set_new(merged, "shards", json_integer(1));
  json_object_set_new(merged, "merged_shards", json_integer((json_int_t)N));
  json_object_set_new(merged, "sessions", json_integer(sessions));
  json_object_set_new(merged, "wall_seconds", json_real(wall));
  json_object_set_new(merged, "rhs_evals", json_integer(rhs));
  json_object_set_new(merged, "failures", listed);
  json_object_set_new(merged, "failures_not_listed", json_integer(failed - (long long)json_array_size(listed)));
  if ((rc = cli_out_commit(&out)))
    goto done;
  out.f = NULL;
  cli_out js;
  char json_path[4096];
  snprintf(json_path, sizeof json_path, "%s/%s.json", out_dir, name);
  if ((rc = cli_out_open(&js, json_path)))
    goto done;
  json_dumpf(merged, js.f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
  fputc('\n', js.f);
  if ((rc = cli_out_commit(&js)))
    goto done;
  printf("merge %s: %zu shards, %zu rows, %lld failed -> %s\n", name, N, points, failed, csv_path);
done:
  if (out.f && rc)
    cli_out_abort(&out);
  json_decref(merged);
  for (size_t k = 0; k < fd.n; k++) {
    if (fd.v[k].f)
      fclose(fd.v[k].f);
    free(fd.v[k].line);
    json_decref(fd.v[k].j);
  }
  free(fd.v);
  free(heap);
  free(by_index);
  return rc;
}
