/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The shared support of impactfit's programs (static library impactfit_tools, not installed): exit
 * codes, error printing, JSON lines and the output-file writer cli_out, used by the user program
 * (src/cli) and by the report module (src/report). Moved here unchanged from src/cli/cli.c. */
#define _XOPEN_SOURCE 700 /* POSIX 2008 with realpath */
#include "tools.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cli_input_error(const char *fmt, ...) {
  char msg[4096];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  impactfit_shorten_numbers(msg); /* a number as typed: "got 0.6", not 0.59999999999999998 */
  fprintf(stderr, "impactfit: error: %s\n", msg);
  return CLI_INPUT;
}

int cli_status_error(int status, const impactfit_error *err, const char *context) {
  const char *msg = (err && err->message[0]) ? err->message : impactfit_strerror(status);
  size_t cl = context ? strlen(context) : 0;
  /* a message that names its context already ("engine: bounce must be > 0") keeps it once */
  if (cl && strncmp(msg, context, cl) == 0 && msg[cl] == ':' && msg[cl + 1] == ' ')
    fprintf(stderr, "impactfit: error: %s\n", msg);
  else if (cl)
    fprintf(stderr, "impactfit: error: %s: %s\n", context, msg);
  else
    fprintf(stderr, "impactfit: error: %s\n", msg);
  return impactfit_status_is_input_error(status) ? CLI_INPUT : CLI_NUMERIC;
}

void cli_json_begin(cli_json *j, FILE *f) {
  j->f = f;
  j->first = 1;
  fputc('{', f);
}

static void json_key(cli_json *j, const char *key) { /* key NULL: an array element */
  fputs(j->first ? "" : ",", j->f);
  if (key) { /* fputs, not fprintf: a grid's JSON line has a dozen keys */
    fputc('"', j->f);
    fputs(key, j->f);
    fputs("\":", j->f);
  }
  j->first = 0;
}

void cli_json_num(cli_json *j, const char *key, double v) {
  json_key(j, key);
  char buf[IMPACTFIT_SHORTEST_SIZE];
  if (isfinite(v))
    fputs(impactfit_format_shortest(v, buf), j->f);
  else
    fputs("null", j->f);
}

void cli_json_num_g17(cli_json *j, const char *key, double v) {
  json_key(j, key);
  if (isfinite(v))
    fprintf(j->f, "%.17g", v);
  else
    fputs("null", j->f);
}

void cli_json_int(cli_json *j, const char *key, long v) {
  json_key(j, key);
  fprintf(j->f, "%ld", v);
}

void cli_json_str(cli_json *j, const char *key, const char *v) {
  json_key(j, key);
  fputc('"', j->f);
  for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
    if (*p == '"' || *p == '\\')
      fprintf(j->f, "\\%c", *p);
    else if (*p < 0x20)
      fprintf(j->f, "\\u%04x", *p);
    else
      fputc(*p, j->f);
  }
  fputc('"', j->f);
}

void cli_json_end(cli_json *j) { fputs("}\n", j->f); }

int cli_json_status(cli_json *j, int status, const char *message) {
  cli_json_str(j, "status", impactfit_status_name(status));
  if (status)
    cli_json_str(j, "error", message);
  return status == 0;
}

void cli_json_range(cli_json *j, const char *key, double lo, double hi) {
  json_key(j, key);
  cli_json a = {j->f, 1};
  fputc('[', j->f);
  cli_json_num(&a, NULL, lo);
  cli_json_num(&a, NULL, hi);
  fputc(']', j->f);
}

static void json_field(cli_json *j, const void *obj, const cli_field *f) {
  const void *p = (const char *)obj + f->off;
  switch (f->kind) {
  case CLI_JSON_DOUBLE:
    cli_json_num(j, f->key, *(const double *)p);
    break;
  case CLI_JSON_INT:
    cli_json_int(j, f->key, *(const int *)p);
    break;
  case CLI_JSON_LONG:
    cli_json_int(j, f->key, *(const long *)p);
    break;
  case CLI_JSON_SIZE:
    cli_json_int(j, f->key, (long)*(const size_t *)p);
    break;
  case CLI_JSON_CHARS:
    cli_json_str(j, f->key, p);
    break;
  case CLI_JSON_RANGE:
    cli_json_range(j, f->key, ((const double *)p)[0], ((const double *)p)[1]);
    break;
  case CLI_JSON_STRING:
    cli_json_str(j, f->key, *(const char *const *)p);
    break;
  }
}

void cli_json_fields(cli_json *j, const void *obj, const cli_field *f, size_t n) {
  for (size_t i = 0; i < n; i++)
    json_field(j, obj, &f[i]);
}

void cli_json_fields_of(cli_json *j, const void *const *objs, const cli_field *f, size_t n) {
  for (size_t i = 0; i < n; i++)
    json_field(j, objs[f[i].obj], &f[i]);
}

void cli_json_object_of(FILE *out, const void *const *objs, const cli_field *f, size_t n) {
  cli_json j;
  cli_json_begin(&j, out);
  cli_json_fields_of(&j, objs, f, n);
  cli_json_end(&j);
}

int cli_out_is_stdout(const char *path) { return path && strcmp(path, "-") == 0; }

/* /dev/... and /proc/... name streams and devices, whatever they resolve to (/dev/stdout may be a
 * link to a regular file the shell opened: replacing that file would lose the output). */
static int special_path(const char *p) { return strncmp(p, "/dev/", 5) == 0 || strncmp(p, "/proc/", 6) == 0; }

int cli_out_open(cli_out *o, const char *path) {
  memset(o, 0, sizeof *o);
  if (strlen(path) >= sizeof o->path)
    return cli_input_error("output path too long: %s", path);
  strcpy(o->path, path);
  struct stat ls, st, so;
  int have_l = lstat(path, &ls) == 0, have = stat(path, &st) == 0;
  /* "-", or a path naming the file our standard output already is (/dev/stdout, /proc/self/fd/1,
   * or the file it was redirected to): one open file, no second offset that would overwrite it */
  if (cli_out_is_stdout(path) ||
      (have && fstat(STDOUT_FILENO, &so) == 0 && so.st_dev == st.st_dev && so.st_ino == st.st_ino)) {
    /* the data on a duplicate of fd 1; fd 1 itself to stderr for the command's messages */
    fflush(stdout);
    int fd = dup(STDOUT_FILENO);
    if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
      if (fd >= 0)
        close(fd);
      return cli_input_error("cannot write to standard output: %s", strerror(errno));
    }
    dup2(STDERR_FILENO, STDOUT_FILENO);
    o->mode = CLI_OUT_STDOUT;
    return 0;
  }
  char *real = have ? realpath(path, NULL) : NULL;
  if (special_path(path) || (have && !S_ISREG(st.st_mode)) || (real && special_path(real)) ||
      (have_l && S_ISLNK(ls.st_mode) && !have)) {
    /* written in place: a device, FIFO or socket (or a link to one), /dev and /proc paths, and a
     * dangling symlink (its target is created) */
    free(real);
    o->mode = CLI_OUT_IN_PLACE;
    o->f = fopen(path, "w");
    if (!o->f)
      return cli_input_error("cannot write %s: %s", path, strerror(errno));
    return 0;
  }
  o->mode = CLI_OUT_ATOMIC;
  const char *target = (have_l && S_ISLNK(ls.st_mode) && real) ? real : path;
  if (strlen(target) >= sizeof o->target) {
    free(real);
    return cli_input_error("output path too long: %s", target);
  }
  strcpy(o->target, target);
  free(real);
  snprintf(o->tmp, sizeof o->tmp, "%s.tmp.%ld", o->target, (long)getpid());
  o->f = fopen(o->tmp, "w");
  if (!o->f)
    return cli_input_error("cannot write %s: %s", path, strerror(errno));
  return 0;
}

int cli_out_commit(cli_out *o) {
  int bad = ferror(o->f), e = errno;
  if (fclose(o->f) != 0) {
    bad = 1;
    e = errno;
  }
  o->f = NULL;
  if (o->mode != CLI_OUT_ATOMIC) {
    if (bad)
      return cli_input_error("cannot write %s: %s", o->mode == CLI_OUT_STDOUT ? "to standard output" : o->path,
                             strerror(e ? e : EIO));
    return 0;
  }
  if (bad || rename(o->tmp, o->target) != 0) {
    e = bad ? (e ? e : EIO) : errno;
    remove(o->tmp);
    return cli_input_error("cannot write %s: %s", o->path, strerror(e));
  }
  return 0;
}

void cli_out_abort(cli_out *o) {
  if (o->f)
    fclose(o->f);
  o->f = NULL;
  if (o->mode == CLI_OUT_ATOMIC)
    remove(o->tmp);
}

int cli_read_input(const char *path, char **text, size_t *len) {
  int in = cli_out_is_stdout(path);
  FILE *f = in ? stdin : fopen(path, "rb");
  if (!f)
    return cli_input_error("cannot read %s: %s", path, strerror(errno));
  size_t cap = 65536, n = 0;
  char *buf = malloc(cap);
  while (buf) {
    n += fread(buf + n, 1, cap - n - 1, f);
    if (n < cap - 1)
      break;
    char *b = realloc(buf, cap * 2);
    if (!b) {
      free(buf);
      buf = NULL;
      break;
    }
    buf = b;
    cap *= 2;
  }
  int bad = ferror(f);
  if (!in)
    fclose(f);
  if (!buf)
    return cli_input_error("cannot read %s: out of memory", in ? "standard input" : path);
  if (bad) {
    free(buf);
    return cli_input_error("cannot read %s: read error", in ? "standard input" : path);
  }
  buf[n] = '\0';
  *text = buf;
  *len = n;
  return 0;
}

int cli_mkdir_p(const char *path) {
  char tmp[4096];
  if (!path || !*path)
    return cli_input_error("cannot create a directory with an empty name");
  if ((size_t)snprintf(tmp, sizeof tmp, "%s", path) >= sizeof tmp)
    return cli_input_error("cannot create %.64s...: path too long", path);
  for (char *p = tmp + 1; *p; p++)
    if (*p == '/') {
      *p = '\0';
      if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
        return cli_input_error("cannot create %s: %s", tmp, strerror(errno));
      *p = '/';
    }
  if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
    return cli_input_error("cannot create %s: %s", tmp, strerror(errno));
  return 0;
}

const char *cli_trim_dir(const char *dir, char *buf, size_t size) {
  size_t n = strlen(dir);
  while (n > 1 && dir[n - 1] == '/')
    n--;
  snprintf(buf, size, "%.*s", (int)n, dir);
  return buf;
}
