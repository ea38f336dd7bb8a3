/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The WebAssembly build's INI parser (src/wasm/ini_compat.c) against the real one, Debian 12's libinih,
 * native: every file given on the command line (the repository's sweep and fit files, the fuzz corpora
 * of sweep and fit files) and the edge cases below, fed to both through the same fgets-like reader,
 * must give the same handler calls (section, name, value, in order) and the same return value; a
 * handler that refuses a name (those starting with "fail") checks the error line.
 * usage: test_ini_compat FILE... */
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int impactfit__ini_compat_parse_stream(ini_reader reader, void *stream, ini_handler handler, void *user);

typedef struct text {
  const char *p;
  size_t left;
} text;

/* fgets on a string */
static char *reader(char *str, int num, void *stream) {
  text *t = stream;
  if (!t->left || num < 2)
    return NULL;
  int n = 0;
  while (n < num - 1 && t->left) {
    char c = *t->p++;
    t->left--;
    str[n++] = c;
    if (c == '\n')
      break;
  }
  str[n] = '\0';
  return str;
}

typedef struct calls {
  char *buf;
  size_t len, cap;
} calls;

static int record(void *user, const char *section, const char *name, const char *value) {
  calls *c = user;
  size_t need = strlen(section) + strlen(name) + strlen(value) + 8;
  if (c->len + need >= c->cap) {
    c->cap = 2 * (c->cap + need);
    c->buf = realloc(c->buf, c->cap);
    if (!c->buf)
      exit(2);
  }
  c->len += (size_t)snprintf(c->buf + c->len, c->cap - c->len, "[%s]%s=%s\n", section, name, value);
  return strncmp(name, "fail", 4) != 0;
}

static int failed, passed;

static void compare(const char *what, const char *data, size_t len) {
  calls a = {0}, b = {0};
  text ta = {data, len}, tb = {data, len};
  int ra = ini_parse_stream(reader, &ta, record, &a);
  int rb = impactfit__ini_compat_parse_stream(reader, &tb, record, &b);
  int same = ra == rb && a.len == b.len && (a.len == 0 || memcmp(a.buf, b.buf, a.len) == 0);
  if (same)
    passed++;
  else {
    failed++;
    printf("FAIL %s: libinih returned %d after %zu bytes of calls, the compat parser %d after %zu\n", what, ra, a.len,
           rb, b.len);
  }
  free(a.buf);
  free(b.buf);
}

int main(int argc, char **argv) {
  static const char *const cases[] = {
      "",
      "a = 1\n",
      "\xEF\xBB\xBF[s]\nk = v\n",
      "[s]\nk=v ; comment\nk2 = v;not a comment\n# hash\n; semi\n",
      "[s]\nk = first\n  second line\n\tthird ; c\n\n  after blank\n",
      "  indented first = 1\n",
      "[unclosed\nk = v\n",
      "[s] ; comment\nk : colon\n",
      "no separator here\nk = v\n",
      "[a-very-long-section-name-that-is-longer-than-fifty-characters-in-all]\nk = v\n",
      "a-very-long-name-that-is-longer-than-fifty-characters-in-all-of-it = v\n  more\n",
      "fail = 1\nk = 2\nfail2 = 3\n",
      "[s]\n=value without a name\n = \nk =\n",
      "k = v\r\n[t]\r\nm = w\r\n",
      "[s]]\nk = [v]\n[]\nk = v\n",
      "k = a ;b ;c\n  ;only a comment\n  x ;y\n",
      "k = v", /* no newline at the end */
      "[s]\nk = v\n\n\n[t]\n  orphan continuation\n",
      "a=1\nb: 2 : 3\nc = 4 = 5\n",
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char what[32];
    snprintf(what, sizeof what, "case %zu", i);
    compare(what, cases[i], strlen(cases[i]));
  }
  /* lines of 198, 199, 200 and 300 bytes, with and without a newline */
  for (int n = 197; n <= 300; n += n < 202 ? 1 : 98)
    for (int nl = 0; nl < 2; nl++) {
      char *s = malloc((size_t)n + 16);
      memset(s, 'x', (size_t)n);
      memcpy(s, "k = ", 4);
      size_t len = (size_t)n;
      if (nl)
        s[len++] = '\n';
      memcpy(s + len, "z = 1\n", 6);
      len += 6;
      char what[48];
      snprintf(what, sizeof what, "a line of %d bytes%s", n, nl ? " and a newline" : "");
      compare(what, s, len);
      free(s);
    }
  for (int i = 1; i < argc; i++) {
    FILE *f = fopen(argv[i], "rb");
    if (!f) {
      printf("FAIL %s: cannot open\n", argv[i]);
      failed++;
      continue;
    }
    char *data = NULL;
    size_t len = 0, cap = 0, got;
    char chunk[4096];
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
      if (len + got > cap) {
        cap = 2 * (len + got);
        data = realloc(data, cap);
        if (!data)
          return 2;
      }
      memcpy(data + len, chunk, got);
      len += got;
    }
    fclose(f);
    compare(argv[i], data ? data : "", len);
    free(data);
  }
  printf("test_ini_compat: %d texts, the same calls and results from libinih and src/wasm/ini_compat.c\n", passed);
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
