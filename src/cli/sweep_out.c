/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Durable, resumable sweep output: the part file and its journal (sweep_out.h). */
#define _GNU_SOURCE /* flock */
#include "sweep_out.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "cli.h"
#include "progress.h"

#define MAGIC "impactfit-sweep-journal 1"

/* ---- small I/O helpers ---- */

static int write_all(int fd, const char *p, size_t n) {
  while (n) {
    ssize_t w = write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR)
        continue;
      return -1;
    }
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

/* fsync of a directory, so that a created or renamed entry survives a power loss. */
static void sync_dir(const char *dir) {
  int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    fsync(fd);
    close(fd);
  }
}

static int set_error(sweep_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int set_error(sweep_out *o, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(o->error, sizeof o->error, fmt, ap);
  va_end(ap);
  return IMPACTFIT_EIO;
}

/* Appends one checksummed journal line "TEXT #XXH64\n" to the buffer. */
static int pend_line(sweep_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int pend_line(sweep_out *o, const char *fmt, ...) {
  char line[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof line - 24, fmt, ap);
  va_end(ap);
  if (n < 0)
    return -1;
  if ((size_t)n >= sizeof line - 24)
    n = (int)(sizeof line - 25);
  /* no newline or '#' inside a record: messages are one line */
  for (int i = 0; i < n; i++)
    if ((unsigned char)line[i] < 0x20 || line[i] == '#')
      line[i] = ' ';
  n += snprintf(line + n, sizeof line - (size_t)n, " #%016llx\n", (unsigned long long)XXH64(line, (size_t)n, 0));
  if (o->pend_len + (size_t)n > o->pend_cap) {
    size_t cap = 2 * (o->pend_cap + (size_t)n);
    char *p = realloc(o->pend, cap);
    if (!p)
      return -1;
    o->pend = p;
    o->pend_cap = cap;
  }
  memcpy(o->pend + o->pend_len, line, (size_t)n);
  o->pend_len += (size_t)n;
  return 0;
}

/* Checks a journal line (without its '\n'); on success cuts it at " #" and returns 1. */
static int line_ok(char *line) {
  char *h = strrchr(line, '#');
  if (!h || h == line || h[-1] != ' ' || strlen(h + 1) != 16)
    return 0;
  char want[17];
  snprintf(want, sizeof want, "%016llx", (unsigned long long)XXH64(line, (size_t)(h - 1 - line), 0));
  if (strcmp(want, h + 1) != 0)
    return 0;
  h[-1] = '\0';
  return 1;
}

static void add_failure(sweep_out *o, size_t index, int status, const char *message) {
  if (o->nfail >= SWEEP_OUT_MAX_LISTED)
    return;
  sweep_failure *f = &o->fail[o->nfail];
  f->index = index;
  f->status = status;
  f->message = strdup(message ? message : "");
  if (f->message)
    o->nfail++;
}

static int write_header_line(sweep_out *o, const impactfit_sweep *s) {
  return pend_line(o, MAGIC " version=%s definition=%s block=%zu shard=%zu/%zu points=%zu header=%zu",
                   impactfit_version(), o->hash, o->block, o->shard, o->shards, o->points,
                   strlen(impactfit_sweep_csv_header(s)));
}

static int flush_pending(sweep_out *o) {
  if (write_all(o->jfd, o->pend, o->pend_len) != 0 || fdatasync(o->jfd) != 0)
    return set_error(o, "cannot write %s: %s", o->journal, strerror(errno));
  o->pend_len = 0;
  return 0;
}

double sweep_out_wall(const sweep_out *o) { return o->wall_before + (cli_now() - o->t_start); }

int sweep_out_commit(sweep_out *o) {
  if (fdatasync(o->part_fd) != 0)
    return set_error(o, "cannot write %s: %s", o->part, strerror(errno));
  if (pend_line(o, "commit %zu %llu %zu %zu %lld %.6f", o->next, o->bytes, o->rows, o->failed, o->rhs,
                sweep_out_wall(o)))
    return set_error(o, "out of memory");
  int st = flush_pending(o);
  o->last_sync = cli_now();
  return st;
}

/* ---- callbacks ---- */

int sweep_out_rows(void *ctx, size_t first, size_t count, const char *rows, size_t len) {
  sweep_out *o = ctx;
  if (first != o->next) {
    set_error(o, "internal error: rows from point %zu delivered after point %zu", first, o->next);
    return IMPACTFIT_EIO;
  }
  if (write_all(o->part_fd, rows, len) != 0) {
    set_error(o, "cannot write %s: %s", o->part, strerror(errno));
    return IMPACTFIT_EIO;
  }
  /* rows and right-hand-side evaluations: the last column of each row */
  for (const char *p = rows, *end = rows + len; p < end;) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    if (!nl)
      break;
    const char *c = nl;
    while (c > p && c[-1] != ',')
      c--;
    o->rhs += strtoll(c, NULL, 10);
    o->rows++;
    p = nl + 1;
  }
  o->bytes += len;
  o->next = first + count;
  if (cli_now() - o->last_sync >= o->sync)
    return sweep_out_commit(o) ? IMPACTFIT_EIO : 0;
  return 0;
}

void sweep_out_failure(void *ctx, size_t index, int status, const char *message) {
  sweep_out *o = ctx;
  o->failed++;
  if (o->nfail < SWEEP_OUT_MAX_LISTED) {
    add_failure(o, index, status, message);
    pend_line(o, "fail %zu %d %s", index, status, message ? message : "");
  }
}

/* ---- open ---- */

static int file_exists(const char *p) {
  struct stat st;
  return stat(p, &st) == 0;
}

/* --resume without a journal: is DIR/NAME.csv with its JSON already this sweep's result? */
static int already_complete(sweep_out *o, const char *json_path, int block_given) {
  if (!file_exists(o->csv))
    return 0;
  json_t *j = json_load_file(json_path, 0, NULL);
  if (!j)
    return 0;
  const char *h = json_string_value(json_object_get(j, "definition_xxh64"));
  json_t *ver = json_object_get(j, "impactfit_version"), *sh = json_object_get(j, "shards");
  json_t *idx = json_object_get(j, "shard"), *blk = json_object_get(j, "block"), *fl = json_object_get(j, "failed");
  int same = h && strcmp(h, o->hash) == 0 && json_is_string(ver) &&
             strcmp(json_string_value(ver), impactfit_version()) == 0 &&
             (sh ? (size_t)json_integer_value(sh) : 1) == o->shards &&
             (!idx || (size_t)json_integer_value(idx) == o->shard) &&
             (!block_given || (size_t)json_integer_value(blk) == o->block) && json_is_integer(fl);
  if (same)
    o->failed = (size_t)json_integer_value(fl);
  json_decref(j);
  return same;
}

static int lock_part(sweep_out *o) {
  if (flock(o->part_fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK)
    return cli_input_error("sweep: %s is being written by another impactfit process", o->part);
  return 0;
}

/* A fresh run: new part file (header) and journal. */
static int start_fresh(sweep_out *o, const impactfit_sweep *s) {
  o->part_fd = open(o->part, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (o->part_fd < 0)
    return cli_input_error("sweep: cannot write %s: %s", o->part, strerror(errno));
  int rc = lock_part(o);
  if (rc)
    return rc;
  const char *hdr = impactfit_sweep_csv_header(s);
  if (ftruncate(o->part_fd, 0) != 0 || write_all(o->part_fd, hdr, strlen(hdr)) != 0 || fdatasync(o->part_fd) != 0)
    return cli_input_error("sweep: cannot write %s: %s", o->part, strerror(errno));
  o->bytes = strlen(hdr);
  o->jfd = open(o->journal, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
  if (o->jfd < 0)
    return cli_input_error("sweep: cannot write %s: %s", o->journal, strerror(errno));
  o->sessions = 1;
  if (write_header_line(o, s) || pend_line(o, "session 1") || flush_pending(o))
    return cli_input_error("sweep: cannot write %s: %s", o->journal, strerror(errno));
  sync_dir(o->dir);
  return 0;
}

typedef struct journal_state {
  size_t block, shard, shards, points, header;
  char version[64], hash[32];
  int have_commit;
  size_t next, rows, failed, sessions;
  unsigned long long bytes;
  long long rhs;
  double wall;
} journal_state;

/* Reads the journal: the header and the last good commit (with the failures before it). */
static int read_journal(sweep_out *o, journal_state *js) {
  memset(js, 0, sizeof *js);
  FILE *f = fopen(o->journal, "r");
  if (!f)
    return cli_input_error("sweep: cannot read %s: %s", o->journal, strerror(errno));
  char line[2048];
  int n = 0, bad = 0;
  size_t committed_fail = 0, sessions = 0;
  while (fgets(line, sizeof line, f)) {
    size_t l = strlen(line);
    if (l == 0 || line[l - 1] != '\n') /* torn last line */
      break;
    line[l - 1] = '\0';
    if (!line_ok(line))
      break;
    if (n++ == 0) {
      if (sscanf(line, MAGIC " version=%63s definition=%31s block=%zu shard=%zu/%zu points=%zu header=%zu", js->version,
                 js->hash, &js->block, &js->shard, &js->shards, &js->points, &js->header) != 7) {
        bad = 1;
        break;
      }
      continue;
    }
    size_t idx, next, rows, failed;
    int status, off = 0;
    unsigned long long bytes;
    long long rhs;
    double wall;
    if (sscanf(line, "fail %zu %d %n", &idx, &status, &off) == 2 && off > 0) {
      add_failure(o, idx, status, line + off);
    } else if (sscanf(line, "commit %zu %llu %zu %zu %lld %lf", &next, &bytes, &rows, &failed, &rhs, &wall) == 6) {
      js->have_commit = 1;
      js->next = next;
      js->bytes = bytes;
      js->rows = rows;
      js->failed = failed;
      js->rhs = rhs;
      js->wall = wall;
      committed_fail = o->nfail;
    } else if (strncmp(line, "session ", 8) == 0) {
      sessions++;
    } else {
      break; /* an unknown record: treat as the end */
    }
  }
  fclose(f);
  if (n == 0 || bad)
    return cli_input_error("sweep: %s is not a journal of impactfit sweep (or its first line is damaged): delete it "
                           "and %s to start the sweep over",
                           o->journal, o->part);
  /* failures recorded after the last commit belong to rows that were not committed */
  while (o->nfail > committed_fail) {
    o->nfail--;
    free(o->fail[o->nfail].message);
  }
  js->sessions = sessions;
  return 0;
}

static int resume(sweep_out *o, const impactfit_sweep *s, size_t block, int block_given) {
  journal_state js;
  int rc = read_journal(o, &js);
  if (rc)
    return rc;
  const char *how = "; delete it and the .csv.part file to start over";
  if (strcmp(js.hash, o->hash) != 0)
    return cli_input_error("sweep: cannot resume: %s has changed since the interrupted run (definition hash %s, the "
                           "journal %s has %s)%s",
                           impactfit_sweep_name(s), o->hash, o->journal, js.hash, how);
  if (strcmp(js.version, impactfit_version()) != 0)
    return cli_input_error("sweep: cannot resume: %s was written by impactfit %s, this is %s (rows could differ)%s",
                           o->journal, js.version, impactfit_version(), how);
  if (js.shard != o->shard || js.shards != o->shards)
    return cli_input_error("sweep: cannot resume: %s is shard %zu/%zu, not %zu/%zu%s", o->journal, js.shard, js.shards,
                           o->shard, o->shards, how);
  if (block_given && js.block != block)
    return cli_input_error("sweep: cannot resume with --block %zu: the interrupted run used blocks of %zu points "
                           "(rows depend on it); omit --block",
                           block, js.block);
  if (js.points != o->points || js.header != strlen(impactfit_sweep_csv_header(s)))
    return cli_input_error("sweep: cannot resume: %s describes another grid%s", o->journal, how);
  o->block = js.block;
  o->part_fd = open(o->part, O_RDWR | O_CLOEXEC);
  struct stat st;
  if (o->part_fd < 0 && errno == ENOENT && js.have_commit && js.next == o->points && stat(o->csv, &st) == 0 &&
      (unsigned long long)st.st_size == js.bytes) {
    /* killed after the part file became the CSV: only the journal's removal was left */
    if (unlink(o->journal) != 0)
      return cli_input_error("sweep: cannot remove %s: %s", o->journal, strerror(errno));
    sync_dir(o->dir);
    o->failed = js.failed;
    return SWEEP_OUT_COMPLETE;
  }
  if (o->part_fd < 0 && !(errno == ENOENT && !js.have_commit))
    return cli_input_error("sweep: cannot resume: cannot open %s: %s%s", o->part, strerror(errno), how);
  if (o->part_fd >= 0 && (rc = lock_part(o)))
    return rc;
  if (!js.have_commit) { /* killed before the first commit: start over, same journal identity */
    if (o->part_fd >= 0)
      close(o->part_fd);
    o->part_fd = -1;
    return start_fresh(o, s);
  }
  const char *hdr = impactfit_sweep_csv_header(s);
  size_t hl = strlen(hdr);
  char *head = malloc(hl + 1);
  char last = 0;
  int ok = head && fstat(o->part_fd, &st) == 0 && (unsigned long long)st.st_size >= js.bytes && js.bytes >= hl &&
           pread(o->part_fd, head, hl, 0) == (ssize_t)hl && memcmp(head, hdr, hl) == 0 &&
           pread(o->part_fd, &last, 1, (off_t)js.bytes - 1) == 1 && last == '\n';
  free(head);
  if (!ok)
    return cli_input_error("sweep: cannot resume: %s does not hold the %llu bytes of rows its journal committed%s",
                           o->part, js.bytes, how);
  /* drop rows written after the last commit (and a torn row) */
  if (ftruncate(o->part_fd, (off_t)js.bytes) != 0 || fdatasync(o->part_fd) != 0 ||
      lseek(o->part_fd, 0, SEEK_END) != (off_t)js.bytes)
    return cli_input_error("sweep: cannot write %s: %s", o->part, strerror(errno));
  o->next = js.next;
  o->bytes = js.bytes;
  o->rows = js.rows;
  o->failed = js.failed;
  o->rhs = js.rhs;
  o->wall_before = js.wall;
  o->sessions = js.sessions + 1;
  /* rewrite the journal compactly (header, failures, the commit) and atomically */
  char tmp[4300];
  snprintf(tmp, sizeof tmp, "%s.tmp", o->journal);
  int tfd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (tfd < 0)
    return cli_input_error("sweep: cannot write %s: %s", tmp, strerror(errno));
  o->pend_len = 0;
  int bad = write_header_line(o, s);
  for (size_t i = 0; i < o->nfail && !bad; i++)
    bad = pend_line(o, "fail %zu %d %s", o->fail[i].index, o->fail[i].status, o->fail[i].message);
  for (size_t k = 0; k < o->sessions && !bad; k++)
    bad = pend_line(o, "session %zu", k + 1);
  bad = bad || pend_line(o, "commit %zu %llu %zu %zu %lld %.6f", o->next, o->bytes, o->rows, o->failed, o->rhs,
                         o->wall_before);
  if (bad || write_all(tfd, o->pend, o->pend_len) != 0 || fsync(tfd) != 0 || close(tfd) != 0 ||
      rename(tmp, o->journal) != 0) {
    unlink(tmp);
    return cli_input_error("sweep: cannot write %s: %s", o->journal, strerror(errno));
  }
  o->pend_len = 0;
  sync_dir(o->dir);
  o->jfd = open(o->journal, O_WRONLY | O_APPEND | O_CLOEXEC);
  if (o->jfd < 0)
    return cli_input_error("sweep: cannot write %s: %s", o->journal, strerror(errno));
  return 0;
}

int sweep_out_open(sweep_out *o, const impactfit_sweep *s, const char *csv_path, size_t block, int block_given,
                   size_t shard, size_t shards, int resume_run, double sync_seconds) {
  memset(o, 0, sizeof *o);
  o->part_fd = o->jfd = -1;
  if (strlen(csv_path) >= sizeof o->csv)
    return cli_input_error("sweep: output path too long");
  snprintf(o->csv, sizeof o->csv, "%s", csv_path);
  snprintf(o->part, sizeof o->part, "%s.part", csv_path);
  size_t cl = strlen(csv_path);
  snprintf(o->journal, sizeof o->journal, "%.*s.journal", (int)(cl > 4 ? cl - 4 : cl), csv_path);
  snprintf(o->dir, sizeof o->dir, "%s", csv_path);
  char *slash = strrchr(o->dir, '/');
  if (slash)
    *slash = '\0';
  else
    snprintf(o->dir, sizeof o->dir, ".");
  snprintf(o->hash, sizeof o->hash, "%s", impactfit_sweep_hash(s));
  o->block = block;
  o->shard = shard;
  o->shards = shards;
  o->points = impactfit_sweep_point_count(s);
  o->sync = sync_seconds;
  o->t_start = o->last_sync = cli_now();
  o->fail = calloc(SWEEP_OUT_MAX_LISTED, sizeof *o->fail);
  if (!o->fail)
    return cli_input_error("out of memory");
  int rc;
  if (file_exists(o->journal)) {
    if (!resume_run)
      return cli_input_error("sweep: %s holds an interrupted run of this output: continue it with --resume, or delete "
                             "it and %s to start over",
                             o->journal, o->part);
    rc = resume(o, s, block, block_given);
    if (rc == SWEEP_OUT_COMPLETE)
      return rc;
  } else {
    if (resume_run) {
      char json[4200];
      snprintf(json, sizeof json, "%.*s.json", (int)(cl > 4 ? cl - 4 : cl), csv_path);
      if (already_complete(o, json, block_given))
        return SWEEP_OUT_COMPLETE;
    }
    rc = start_fresh(o, s);
  }
  o->start_next = o->next;
  o->start_rows = o->rows;
  return rc;
}

/* ---- finish and close ---- */

int sweep_out_finish(sweep_out *o, const char *json_path, void (*write_json)(void *ctx, void *file), void *ctx) {
  if (sweep_out_commit(o))
    return cli_status_error(IMPACTFIT_EIO, NULL, o->error);
  /* the JSON through a temporary file of a fixed name (a killed finish leaves no stray file: the
   * next finish overwrites it; this process holds the lock on the part file) */
  char tmp[4300];
  snprintf(tmp, sizeof tmp, "%s.part", json_path);
  FILE *f = fopen(tmp, "w");
  if (!f)
    return cli_input_error("sweep: cannot write %s: %s", tmp, strerror(errno));
  write_json(ctx, f);
  int bad = fflush(f) != 0 || ferror(f) || fsync(fileno(f)) != 0;
  if (fclose(f) != 0 || bad || rename(tmp, json_path) != 0) {
    int e = errno;
    unlink(tmp);
    return cli_input_error("sweep: cannot write %s: %s", json_path, strerror(e));
  }
  if (rename(o->part, o->csv) != 0)
    return cli_input_error("sweep: cannot rename %s to %s: %s", o->part, o->csv, strerror(errno));
  sync_dir(o->dir);
  if (unlink(o->journal) != 0)
    return cli_input_error("sweep: cannot remove %s: %s", o->journal, strerror(errno));
  sync_dir(o->dir);
  return 0;
}

void sweep_out_close(sweep_out *o) {
  if (o->part_fd >= 0)
    close(o->part_fd);
  if (o->jfd >= 0)
    close(o->jfd);
  o->part_fd = o->jfd = -1;
  for (size_t i = 0; i < o->nfail; i++)
    free(o->fail[i].message);
  free(o->fail);
  free(o->pend);
  o->fail = NULL;
  o->pend = NULL;
  o->nfail = 0;
}
