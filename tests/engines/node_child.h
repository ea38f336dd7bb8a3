/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A node process that runs an engine of tests/engines/js/ (a WebAssembly or JavaScript build pinned by
 * tests/engines/js/package-lock.json) for a C harness: one JSON object a line each way. The harness sends a
 * request, the script answers with one line; the first line the script writes says whether the engine
 * loaded ({"ready": ..., "version": ...}) or why not ({"skip": "..."}: node_modules missing). The harness
 * keeps impactfit's side (jansson parses the answers: JSON numbers are the shortest text that reads back as
 * the same double, so nothing is lost either way).
 *
 * Usage: nc_start(&c, node, script) (0, or a message in c.error), nc_ask(&c, "{...}") -> the answer's JSON
 * (json_decref it), nc_stop(&c). */
#ifndef IMPACTFIT_TESTS_ENGINES_NODE_CHILD_H
#define IMPACTFIT_TESTS_ENGINES_NODE_CHILD_H

/* C: the includer defines _POSIX_C_SOURCE 200809L before its first include (getline, posix_spawn) */

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

extern char **environ;

typedef struct nc_child {
  pid_t pid;
  FILE *to;   /* the script's stdin */
  FILE *from; /* its stdout */
  char *line; /* getline's buffer */
  size_t cap;
  long requests;
  char error[512];
} nc_child;

/* Starts `node script` (stderr passes through). Returns 0, or 1 with c->error set. */
static inline int nc_start(nc_child *c, const char *node, const char *script) {
  memset(c, 0, sizeof *c);
  int in[2], out[2];
  if (pipe(in) || pipe(out)) {
    snprintf(c->error, sizeof c->error, "pipe: %s", strerror(errno));
    return 1;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in[0], 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_addclose(&fa, in[1]);
  posix_spawn_file_actions_addclose(&fa, out[0]);
  char *argv[] = {(char *)node, (char *)script, NULL};
  int rc = posix_spawnp(&c->pid, node, &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(in[0]);
  close(out[1]);
  if (rc) {
    snprintf(c->error, sizeof c->error, "cannot run %s: %s", node, strerror(rc));
    close(in[1]);
    close(out[0]);
    return 1;
  }
  signal(SIGPIPE, SIG_IGN);
  c->to = fdopen(in[1], "w");
  c->from = fdopen(out[0], "r");
  if (!c->to || !c->from) {
    snprintf(c->error, sizeof c->error, "fdopen: %s", strerror(errno));
    return 1;
  }
  return 0;
}

/* The next line of the script as JSON (NULL at its end or on a line that is not JSON, with c->error). */
static inline json_t *nc_read(nc_child *c) {
  ssize_t n = getline(&c->line, &c->cap, c->from);
  if (n <= 0) {
    snprintf(c->error, sizeof c->error, "the node script ended without an answer");
    return NULL;
  }
  json_error_t je;
  json_t *j = json_loads(c->line, 0, &je);
  if (!j)
    snprintf(c->error, sizeof c->error, "the node script's answer is not JSON (%s): %.200s", je.text, c->line);
  return j;
}

/* Sends one request (a JSON object on one line) and returns the answer (NULL with c->error set: the
 * script ended, or answered {"error": ...}). */
static inline json_t *nc_ask(nc_child *c, const char *request) {
  c->requests++;
  if (fputs(request, c->to) == EOF || fputc('\n', c->to) == EOF || fflush(c->to)) {
    snprintf(c->error, sizeof c->error, "cannot write to the node script: %s", strerror(errno));
    return NULL;
  }
  json_t *j = nc_read(c);
  if (j && json_object_get(j, "error")) {
    snprintf(c->error, sizeof c->error, "the node script: %.400s", json_string_value(json_object_get(j, "error")));
    json_decref(j);
    return NULL;
  }
  return j;
}

/* Closes its stdin (the script ends at the end of its input) and waits. Returns the exit status. */
static inline int nc_stop(nc_child *c) {
  int status = 0;
  if (c->to)
    fclose(c->to);
  if (c->from)
    fclose(c->from);
  if (c->pid > 0 && waitpid(c->pid, &status, 0) < 0)
    status = -1;
  free(c->line);
  memset(c, 0, sizeof *c);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The harness's start: runs the script, reads its first line; on {"skip": reason} prints "NAME: SKIP: reason"
 * and exits 77 (ctest's SKIP), on a failure to start prints it and exits 1. Returns the first line. */
static inline json_t *nc_start_or_skip(nc_child *c, const char *name, int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "%s: usage: %s NODE SCRIPT.mjs [parts]\n", name, name);
    exit(2);
  }
  if (nc_start(c, argv[1], argv[2])) {
    printf("%s: SKIP: %s (node 20 and bash scripts/deps.sh npm-engines)\n", name, c->error);
    exit(77);
  }
  json_t *hello = nc_read(c);
  if (!hello) {
    fprintf(stderr, "%s: %s\n", name, c->error);
    exit(1);
  }
  const char *skip = json_string_value(json_object_get(hello, "skip"));
  if (skip) {
    printf("%s: SKIP: %s\n", name, skip);
    nc_stop(c);
    exit(77);
  }
  return hello;
}

/* The CPU seconds (user + system) of this program and of the node processes it waited for (after nc_stop). */
static inline void nc_cpu(double *self, double *children) {
  struct rusage a, b;
  getrusage(RUSAGE_SELF, &a);
  getrusage(RUSAGE_CHILDREN, &b);
  *self = (double)a.ru_utime.tv_sec + 1e-6 * (double)a.ru_utime.tv_usec + (double)a.ru_stime.tv_sec +
          1e-6 * (double)a.ru_stime.tv_usec;
  *children = (double)b.ru_utime.tv_sec + 1e-6 * (double)b.ru_utime.tv_usec + (double)b.ru_stime.tv_sec +
              1e-6 * (double)b.ru_stime.tv_usec;
}

/* a growing text buffer for requests */
typedef struct nc_buf {
  char *s;
  size_t n, cap;
} nc_buf;

static inline void nc_printf(nc_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline void nc_printf(nc_buf *b, const char *fmt, ...) {
  for (;;) {
    va_list ap;
    va_start(ap, fmt);
    size_t room = b->cap - b->n;
    int k = vsnprintf(b->s ? b->s + b->n : NULL, b->s ? room : 0, fmt, ap);
    va_end(ap);
    if (k < 0)
      return;
    if (b->s && (size_t)k < room) {
      b->n += (size_t)k;
      return;
    }
    size_t cap = 2 * (b->cap + (size_t)k + 64);
    char *s = realloc(b->s, cap);
    if (!s) {
      fprintf(stderr, "out of memory\n");
      exit(1);
    }
    b->s = s;
    b->cap = cap;
  }
}

/* a JSON string literal of s (quotes and backslashes escaped; s has no control characters) */
static inline void nc_put_string(nc_buf *b, const char *s) {
  nc_printf(b, "\"");
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      nc_printf(b, "\\%c", *s);
    else
      nc_printf(b, "%c", *s);
  }
  nc_printf(b, "\"");
}

static inline void nc_reset(nc_buf *b) {
  b->n = 0;
  if (b->s)
    b->s[0] = 0;
}

/* the doubles of a JSON array (NaN for null: the engine found no rebound); returns the count read */
static inline int nc_doubles(const json_t *arr, double *out, int max) {
  int n = 0;
  size_t i;
  json_t *v;
  json_array_foreach(arr, i, v) {
    if (n >= max)
      break;
    out[n++] = json_is_number(v) ? json_number_value(v) : NAN;
  }
  return n;
}

#endif
