/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Option and number parsing for the CLI (error printing, JSON and cli_out: src/tools/tools.c). */
#define _XOPEN_SOURCE 700 /* POSIX 2008 with realpath */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cli_parse_double(const char *what, const char *s, double *out) {
  if (!s || !*s)
    return cli_input_error("%s: expected a number, got an empty string", what);
  if (isspace((unsigned char)s[0]))
    return cli_input_error("%s: expected a number, got '%s'", what, s);
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s || *end != '\0')
    return cli_input_error("%s: expected a number, got '%s'", what, s);
  if (isnan(v) || isinf(v))
    return cli_input_error("%s: expected a finite number, got '%s'", what, s);
  if (errno == ERANGE)
    return cli_input_error("%s: '%s' is outside the range of double precision", what, s);
  *out = v;
  return 0;
}

int cli_parse_int(const char *what, const char *s, long lo, long hi, long *out) {
  if (!s || !*s)
    return cli_input_error("%s: expected an integer, got an empty string", what);
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (end == s || *end != '\0' || isspace((unsigned char)s[0]))
    return cli_input_error("%s: expected an integer, got '%s'", what, s);
  if (errno == ERANGE || v < lo || v > hi)
    return cli_input_error("%s: %s is out of range (%ld..%ld)", what, s, lo, hi);
  *out = v;
  return 0;
}

int cli_parse_grid(const char *what, const char *s, double **values, size_t *count) {
  *values = NULL;
  *count = 0;
  if (!s || !*s)
    return cli_input_error("%s: expected a value, a list a,b,c or a range start:stop:count", what);
  char *copy = strdup(s);
  if (!copy)
    return cli_input_error("out of memory");
  int rc = 0;
  char *colon = strchr(copy, ':');
  if (colon) {
    char *c2 = strchr(colon + 1, ':');
    if (!c2 || strchr(c2 + 1, ':') || strchr(copy, ',')) {
      rc = cli_input_error("%s: a range is start:stop:count, got '%s'", what, s);
      goto done;
    }
    *colon = '\0';
    *c2 = '\0';
    double a, b;
    long n;
    char cwhat[128];
    snprintf(cwhat, sizeof cwhat, "%s: the count of range '%.40s'", what, s);
    if ((rc = cli_parse_double(what, copy, &a)) || (rc = cli_parse_double(what, colon + 1, &b)) ||
        (rc = cli_parse_int(cwhat, c2 + 1, 1, 100000000, &n)))
      goto done;
    if (n == 1 && a != b) {
      rc = cli_input_error("%s: a range with count 1 needs start = stop, got '%s'", what, s);
      goto done;
    }
    *values = malloc((size_t)n * sizeof **values);
    if (!*values) {
      rc = cli_input_error("%s: out of memory for %ld values", what, n);
      goto done;
    }
    for (long i = 0; i < n; i++)
      (*values)[i] = (n == 1) ? a : (i == n - 1 ? b : a + (b - a) * (double)i / (double)(n - 1));
    *count = (size_t)n;
  } else {
    size_t n = 1;
    for (const char *p = copy; *p; p++)
      n += (*p == ',');
    *values = malloc(n * sizeof **values);
    if (!*values) {
      rc = cli_input_error("%s: out of memory", what);
      goto done;
    }
    char *save = NULL, *tok = copy;
    size_t i = 0;
    /* strtok would skip empty fields; walk by hand so that "1,,2" is an error. */
    for (;;) {
      char *comma = strchr(tok, ',');
      if (comma)
        *comma = '\0';
      if ((rc = cli_parse_double(what, tok, &(*values)[i])))
        goto done;
      i++;
      if (!comma)
        break;
      tok = comma + 1;
    }
    (void)save;
    *count = i;
  }
done:
  free(copy);
  if (rc) {
    free(*values);
    *values = NULL;
    *count = 0;
  }
  return rc;
}

/* Edit distance (insertions, deletions, substitutions, transpositions of neighbours), ignoring
 * case, between a[0..la) and b; words longer than 63 characters are not compared (returns a large
 * value). */
static size_t edit_distance(const char *a, size_t la, const char *b) {
  size_t lb = strlen(b);
  if (la > 63 || lb > 63)
    return 1000;
  size_t d[64][64];
  for (size_t i = 0; i <= la; i++)
    d[i][0] = i;
  for (size_t j = 0; j <= lb; j++)
    d[0][j] = j;
  for (size_t i = 1; i <= la; i++)
    for (size_t j = 1; j <= lb; j++) {
      int same = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]);
      size_t best = d[i - 1][j - 1] + !same;
      if (d[i - 1][j] + 1 < best)
        best = d[i - 1][j] + 1;
      if (d[i][j - 1] + 1 < best)
        best = d[i][j - 1] + 1;
      if (i > 1 && j > 1 && tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 2]) &&
          tolower((unsigned char)a[i - 2]) == tolower((unsigned char)b[j - 1]) && d[i - 2][j - 2] + 1 < best)
        best = d[i - 2][j - 2] + 1;
      d[i][j] = best;
    }
  return d[la][lb];
}

const char *cli_suggest(const char *word, size_t len, const char *const *candidates, size_t n) {
  const char *best = NULL;
  size_t bestd = (size_t)-1;
  /* at most 1 edit for short words, 2 from 5 characters on: closer guesses are noise */
  size_t limit = len < 5 ? 1 : 2;
  for (size_t i = 0; i < n; i++) {
    size_t dist = edit_distance(word, len, candidates[i]);
    if (dist < bestd) {
      bestd = dist;
      best = candidates[i];
    }
  }
  return bestd <= limit ? best : NULL;
}

/* The option of opts closest to the mistyped name[0..len), or NULL. */
static const char *suggest_option(const char *name, size_t len, const cli_opt *opts, size_t nopts) {
  const char *names[128];
  size_t n = nopts < 128 ? nopts : 128;
  for (size_t k = 0; k < n; k++)
    names[k] = opts[k].name;
  return cli_suggest(name, len, names, n);
}

int cli_parse(int argc, char **argv, int first, cli_opt *opts, size_t nopts, const char **pos,
              size_t max_pos, size_t *npos, int *help) {
  size_t np = 0;
  for (size_t i = 0; i < nopts; i++)
    opts[i].seen = 0;
  for (int i = first; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      if (help)
        *help = 1;
      continue;
    }
    if (a[0] != '-' || a[1] == '\0') {
      if (np >= max_pos)
        return cli_input_error("unexpected argument '%s'", a);
      pos[np++] = a;
      continue;
    }
    if (a[1] != '-') {
      const char *close = suggest_option(a + 1, strlen(a + 1), opts, nopts);
      if (close)
        return cli_input_error("unknown option '%s' (options are spelled --name; did you mean '--%s'?)", a, close);
      return cli_input_error("unknown option '%s' (options are spelled --name)", a);
    }
    const char *name = a + 2;
    const char *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    cli_opt *o = NULL;
    for (size_t k = 0; k < nopts; k++)
      if (strlen(opts[k].name) == len && strncmp(opts[k].name, name, len) == 0)
        o = &opts[k];
    if (!o) {
      const char *close = suggest_option(name, len, opts, nopts);
      if (close)
        return cli_input_error("unknown option '--%.*s' (did you mean '--%s'?)", (int)len, name, close);
      return cli_input_error("unknown option '--%.*s'", (int)len, name);
    }
    if (o->seen)
      return cli_input_error("option '--%s' given twice", o->name);
    o->seen = 1;
    if (o->type == OPT_FLAG) {
      if (eq)
        return cli_input_error("option '--%s' takes no value", o->name);
      *(int *)o->dest = 1;
      continue;
    }
    const char *val;
    if (eq)
      val = eq + 1;
    else if (i + 1 < argc)
      val = argv[++i];
    else
      return cli_input_error("option '--%s' needs a value", o->name);
    char what[96];
    snprintf(what, sizeof what, "--%s", o->name);
    int rc = 0;
    long iv;
    switch (o->type) {
    case OPT_DOUBLE:
      rc = cli_parse_double(what, val, (double *)o->dest);
      break;
    case OPT_INT:
      rc = cli_parse_int(what, val, -2147483647L, 2147483647L, &iv);
      if (!rc)
        *(int *)o->dest = (int)iv;
      break;
    case OPT_STRING:
      if (!val[0])
        rc = cli_input_error("%s: empty value", what);
      *(const char **)o->dest = val;
      break;
    default:
      break;
    }
    if (rc)
      return rc;
  }
  if (npos)
    *npos = np;
  return 0;
}
