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
#include <strings.h>
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
  if (end != s && *end && (isalpha((unsigned char)*end) || *end == '/'))
    return cli_input_error("%s: expected a number, got '%s' (numbers only, in SI units: m, kg, s, Pa)", what, s);
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

int cli_parse_range(const char *what, const char *s, double *a, double *b, long *n) {
  char *copy = strdup(s);
  if (!copy)
    return cli_input_error("out of memory");
  char *c1 = strchr(copy, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
  int rc;
  if (!c2 || strchr(c2 + 1, ':') || strchr(copy, ',')) {
    rc = cli_input_error("%s: a range is start:stop:count, got '%s'", what, s);
  } else {
    *c1 = *c2 = '\0';
    char cwhat[128];
    snprintf(cwhat, sizeof cwhat, "%s: the count of range '%.40s'", what, s);
    if (!(rc = cli_parse_double(what, copy, a)) && !(rc = cli_parse_double(what, c1 + 1, b)) &&
        !(rc = cli_parse_int(cwhat, c2 + 1, 1, 100000000, n)) && *n == 1 && *a != *b)
      rc = cli_input_error("%s: a range with count 1 needs start = stop, got '%s'", what, s);
  }
  free(copy);
  return rc;
}

void cli_warn_decimal_comma(const char *what, const char *text, size_t count) {
  const char *c = strchr(text, ',');
  if (count != 2 || !c || strchr(c + 1, ','))
    return;
  size_t a = strspn(text, "0123456789"), b = strspn(c + 1, "0123456789");
  if (a > 0 && text + a == c && b > 0 && c[1 + b] == 0)
    fprintf(stderr, "impactfit: warning: %s %s is read as two values (%.*s and %s): a decimal comma? write %.*s.%s\n",
            what, text, (int)a, text, c + 1, (int)a, text, c + 1);
}

/* A list "A,B" of two bare integers that is more likely a decimal comma than a list of a grid's values: B
 * written with a leading zero (1,05) or with two digits or more (1,25), or B at least A + 3 (1,5: a grid
 * of n or k lists neighbours such as 1,2). "0,B" never: 0,1 is the usual pair of switches (--m 0,1). The
 * settings of a code (--nu 0,3, --E 1,5) warn on every such pair (cli_warn_decimal_comma). */
static int grid_comma_suspect(const char *s) {
  size_t a = strspn(s, "0123456789");
  if (a == 0 || s[a] != ',' || s[0] == '0')
    return 0;
  const char *b = s + a + 1;
  size_t nb = strspn(b, "0123456789");
  if (nb == 0 || b[nb] != 0)
    return 0;
  return b[0] == '0' || nb >= 2 || (a == 1 && b[0] - s[0] >= 3); /* B one digit: A must be one too */
}

int cli_parse_grid(const char *what, const char *s, double **values, size_t *count) {
  *values = NULL;
  *count = 0;
  if (!s || !*s)
    return cli_input_error("%s: expected a value, a list a,b,c or a range start:stop:count", what);
  const char *sp = strpbrk(s, " \t");
  if (sp && sp > s && sp[strspn(sp, " \t")] && strspn(s, " \t") == 0) /* "0.3 0.5": a list typed with spaces */
    return cli_input_error("%s: use commas between values (got '%s'; a list is a,b,c)", what, s);
  if (strchr(s, ':')) {
    double a, b;
    long n;
    int rc = cli_parse_range(what, s, &a, &b, &n);
    if (rc)
      return rc;
    if (!(*values = malloc((size_t)n * sizeof **values)))
      return cli_input_error("%s: out of memory for %ld values", what, n);
    /* ((b − a)·i)/(n − 1), the order these lists always had (identify-synth --v, dem-audit --e print
     * them); a grid axis holds a range as its ends and takes the sweep's values (cli_axis_value) */
    for (long i = 0; i < n; i++)
      (*values)[i] = (n == 1) ? a : (i == n - 1 ? b : a + (b - a) * (double)i / (double)(n - 1));
    *count = (size_t)n;
    return 0;
  }
  char *copy = strdup(s);
  size_t n = 1;
  for (const char *p = s; *p; p++)
    n += (*p == ',');
  if (!copy || !(*values = malloc(n * sizeof **values))) {
    free(copy);
    return cli_input_error("%s: out of memory", what);
  }
  /* strtok would skip empty fields; walk by hand so that "1,,2" is an error. */
  int rc = 0;
  size_t i = 0;
  for (char *tok = copy;; i++) {
    char *comma = strchr(tok, ',');
    if (comma)
      *comma = '\0';
    if (!*tok && n > 1) {
      rc = cli_input_error("%s: empty item in the list '%s'", what, s);
      break;
    }
    if ((rc = cli_parse_double(what, tok, &(*values)[i])) || !comma) {
      if (!rc && i == 1 && grid_comma_suspect(s))
        cli_warn_decimal_comma(what, s, i + 1);
      break;
    }
    tok = comma + 1;
  }
  free(copy);
  if (rc) {
    free(*values);
    *values = NULL;
    return rc;
  }
  *count = i + 1;
  return 0;
}

const char *cli_suggest(const char *word, size_t len, const char *const *candidates, size_t n) {
  char w[64];
  if (len >= sizeof w)
    return NULL;
  memcpy(w, word, len);
  w[len] = '\0';
  return impactfit_closest_name(w, candidates, n);
}

/* The option of opts closest to the mistyped name[0..len), or NULL. */
static const char *suggest_option(const char *name, size_t len, const cli_spec *opts, size_t nopts) {
  const char *names[128];
  size_t n = nopts < 128 ? nopts : 128;
  for (size_t k = 0; k < n; k++)
    names[k] = opts[k].name;
  return cli_suggest(name, len, names, n);
}

/* Parses argv[first..argc) into opts (sets `seen`); positional arguments into pos (up to max_pos).
 * Prints the error and returns CLI_INPUT on unknown, duplicated or malformed options, 0 otherwise;
 * "--help"/"-h" sets *help. */
static int parse_args(int argc, char **argv, int first, cli_spec *opts, size_t nopts, const char **pos, size_t max_pos,
                      size_t *npos, int *help, cli_rest *rest, size_t max_rest, size_t *nrest) {
  size_t np = 0, nr = 0;
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
    cli_spec *o = NULL;
    for (size_t k = 0; k < nopts; k++)
      if (strlen(opts[k].name) == len && strncmp(opts[k].name, name, len) == 0)
        o = &opts[k];
    if (!o && rest) { /* the command matches it later */
      if (nr >= max_rest)
        return cli_input_error("too many options (at most %zu besides the command's own)", max_rest);
      const char *val = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
      if (!val)
        return cli_input_error("option '--%.*s' needs a value", (int)len, name);
      rest[nr++] = (cli_rest){.name = name, .len = len, .value = val};
      continue;
    }
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
  if (nrest)
    *nrest = nr;
  return 0;
}
/* ---- declarative option tables ---- */

int cli_out_of_range(double v, double lo, double hi, unsigned flags) {
  int lo_ok = isnan(lo) || ((flags & CLI_LO_OPEN) ? v > lo : v >= lo);
  int hi_ok = isnan(hi) || ((flags & CLI_HI_OPEN) ? v < hi : v <= hi);
  return !(lo_ok && hi_ok);
}

static int spec_check(const cli_spec *s) {
  if (!s->msg)
    return 0;
  if (!s->seen) {
    if (s->flags & CLI_REQUIRED)
      return cli_input_error("%s", s->msg);
    if (s->flags & CLI_IF_SEEN)
      return 0;
  }
  if (s->type == OPT_DOUBLE) {
    double v = *(const double *)s->dest;
    if (cli_out_of_range(v, s->lo, s->hi, s->flags))
      return cli_input_error(s->msg, v);
  } else if (s->type == OPT_INT) {
    int v = *(const int *)s->dest;
    if (cli_out_of_range((double)v, s->lo, s->hi, s->flags))
      return cli_input_error(s->msg, v);
  }
  return 0;
}

static int options(int argc, char **argv, cli_spec *spec, size_t n, const char *help_text, int *help, const char **pos,
                   size_t max_pos, size_t *npos, cli_rest *rest, size_t max_rest, size_t *nrest) {
  for (int i = 2; i < argc; i++) /* --help wins over every other mistake on the line */
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      if (help)
        *help = 1;
      for (size_t k = 0; k < n; k++)
        spec[k].seen = 0;
      if (npos)
        *npos = 0;
      if (nrest)
        *nrest = 0;
      if (help_text)
        fputs(help_text, stdout);
      return CLI_OK;
    }
  int h = 0;
  int rc = parse_args(argc, argv, 2, spec, n, pos, max_pos, npos, &h, rest, max_rest, nrest);
  if (help)
    *help = h;
  if (rc)
    return rc;
  if (h) {
    if (help_text)
      fputs(help_text, stdout);
    return CLI_OK;
  }
  for (size_t i = 0; i < n; i++)
    if ((rc = spec_check(&spec[i])))
      return rc;
  return 0;
}

int cli_options(int argc, char **argv, cli_spec *spec, size_t n, const char *help_text, int *help, const char **pos,
                size_t max_pos, size_t *npos) {
  return options(argc, argv, spec, n, help_text, help, pos, max_pos, npos, NULL, 0, NULL);
}

int cli_options_rest(int argc, char **argv, cli_spec *spec, size_t n, const char *help_text, int *help, cli_rest *rest,
                     size_t max_rest, size_t *nrest) {
  return options(argc, argv, spec, n, help_text, help, NULL, 0, NULL, rest, max_rest, nrest);
}

const char *cli_suggest_option(const char *name, size_t len, const cli_spec *opts, size_t nopts,
                               const char *const *extra, size_t n_extra) {
  const char *names[256];
  size_t n = 0;
  for (size_t k = 0; k < nopts && n < 256; k++)
    names[n++] = opts[k].name;
  for (size_t k = 0; k < n_extra && n < 256; k++)
    names[n++] = extra[k];
  return cli_suggest(name, len, names, n);
}

const cli_spec *cli_spec_find(const cli_spec *spec, size_t n, const char *name) {
  for (size_t i = 0; i < n; i++)
    if (strcmp(spec[i].name, name) == 0)
      return &spec[i];
  return NULL;
}

int cli_given(const cli_spec *spec, size_t n, const char *name) {
  const cli_spec *s = cli_spec_find(spec, n, name);
  return s ? s->seen : 0;
}

int cli_units(const char *what, const cli_spec *spec, size_t n, const char *const *names, size_t count, int *all) {
  char opt[8][32];
  const char *optp[8];
  double given[8];
  for (size_t i = 0; i < count && i < 8; i++) {
    snprintf(opt[i], sizeof opt[i], "--%s", names[i]);
    optp[i] = opt[i];
    given[i] = cli_given(spec, n, names[i]) ? 0.0 : NAN;
  }
  impactfit_error err;
  impactfit_error_clear(&err);
  int st = impactfit_all_or_none(count < 8 ? count : 8, given, optp, all, &err);
  return st ? cli_status_error(st, &err, what) : 0;
}

void cli_note_scaled(const char *what, const char *quantities) {
  fprintf(stderr,
          "impactfit: note: %s: --k, --mass and --v not given: %s are scaled values, for k = 1 N/m^n, mass = 1 kg, "
          "v = 1 m/s\n",
          what, quantities);
}

int cli_json_csv(const char *what, int json, int csv) {
  return (json && csv) ? cli_input_error("%s: --json and --csv exclude each other", what) : 0;
}

int cli_parse_names(const char *s, const char *const *names, size_t n, int allow_all, int nocase, size_t max,
                    size_t *idx, size_t *count) {
  *count = 0;
  if (allow_all && strcasecmp(s, "all") == 0) {
    for (size_t i = 0; i < n && i < max; i++)
      idx[(*count)++] = i;
    return 0;
  }
  for (const char *p = s;;) {
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p), hit = n;
    for (size_t i = 0; i < n && hit == n; i++)
      if (len == strlen(names[i]) && (nocase ? strncasecmp(p, names[i], len) : strncmp(p, names[i], len)) == 0)
        hit = i;
    if (hit == n || *count == max)
      return -1;
    idx[(*count)++] = hit;
    if (!comma)
      return 0;
    p = comma + 1;
  }
}
