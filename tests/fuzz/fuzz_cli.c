/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fuzz harness: the CLI's number, range and option parsing (src/cli/cli.c: cli_parse_double,
 * cli_parse_int, cli_parse_grid with values, lists a,b,c and ranges start:stop:count, cli_options with
 * an option table like the commands'; src/cli/identify_cli.h: name=value lists and LO:HI ranges).
 * Input: the first byte chooses the parser, the rest is split at newlines into arguments. Seeds:
 * tests/fuzz/corpus/cli (the values and ranges the CLI tests use). Checked: every accepted number is
 * finite, integers are in range, a grid has its count of finite values, a refusal is CLI_INPUT. */
#define _POSIX_C_SOURCE 200809L /* dup, dprintf */
#include <math.h>

#include "cli/cli.h"
#include "cli/identify_cli.h"
#include "fuzz.h"

#define MAX_ARGS 64

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  fuzz_init();
  return 0;
}

/* A legal range of 1e8 values allocates 800 MB; the parsing is the same for 1e5. */
static int huge_range(const char *s) {
  const char *c = strrchr(s, ':');
  return c && strtod(c + 1, NULL) > 1e5;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  int mode = data[0] % 6;
  char *buf = malloc(size);
  if (!buf)
    return 0;
  memcpy(buf, data + 1, size - 1);
  buf[size - 1] = '\0';
  char *argv[MAX_ARGS + 2];
  int argc = 0;
  argv[argc++] = "impactfit";
  argv[argc++] = "cmd";
  for (char *p = buf; argc < MAX_ARGS;) {
    argv[argc++] = p;
    char *nl = strchr(p, '\n');
    if (!nl)
      break;
    *nl = '\0';
    p = nl + 1;
  }
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    int rc;
    switch (mode) {
    case 0: {
      double v = NAN;
      rc = cli_parse_double("--x", a, &v);
      FUZZ_ASSERT(rc == 0 ? isfinite(v) : rc == CLI_INPUT, "'%s': rc %d, %g", a, rc, v);
      break;
    }
    case 1: {
      long v = 0;
      rc = cli_parse_int("--x", a, -1000, 1000, &v);
      FUZZ_ASSERT(rc == 0 ? (v >= -1000 && v <= 1000) : rc == CLI_INPUT, "'%s': rc %d, %ld", a, rc, v);
      break;
    }
    case 2: {
      if (huge_range(a))
        break;
      double *v = NULL;
      size_t n = 0;
      rc = cli_parse_grid("--x", a, &v, &n);
      if (rc == 0) {
        FUZZ_ASSERT(v && n >= 1, "'%s': %zu values", a, n);
        for (size_t k = 0; k < n; k++)
          FUZZ_ASSERT(isfinite(v[k]), "'%s': value %zu is %g", a, k, v[k]);
      } else {
        FUZZ_ASSERT(rc == CLI_INPUT && !v && n == 0, "'%s': rc %d", a, rc);
      }
      free(v);
      break;
    }
    case 4: {
      identify_assign as[] = {{"n", 0, ""}, {"m", 0, ""}, {"k", 0, ""}, {"lambda", 0, ""}};
      rc = identify_cli_assignments("--fix", a, as, sizeof as / sizeof as[0]);
      FUZZ_ASSERT(rc == 0 || rc == CLI_INPUT, "rc %d", rc);
      for (size_t k = 0; rc == 0 && k < sizeof as / sizeof as[0]; k++)
        FUZZ_ASSERT(!as[k].seen || (as[k].value[0] && strlen(as[k].value) < IDENTIFY_CLI_VALUE), "value");
      break;
    }
    case 5: {
      double lo = NAN, hi = NAN;
      rc = identify_cli_range("--bounds n", a, &lo, &hi);
      FUZZ_ASSERT(rc == 0 ? (isfinite(lo) && isfinite(hi) && lo < hi) : rc == CLI_INPUT, "'%s'", a);
      break;
    }
    default:
      break;
    }
  }
  if (mode == 3) {
    /* the whole argument list through an option table of every type */
    int flag = 0, help = 0, iv = 7;
    double dv = 1.5;
    const char *sv = NULL, *pos[2];
    size_t npos = 0;
    cli_spec opts[] = {CLI_FLAG("json", &flag), CLI_NUM("n", &dv), CLI_ANYINT("contacts", &iv), CLI_STR("trace", &sv),
                       CLI_ANYINT("trace-points", &iv)};
    int rc = cli_options(argc, argv, opts, CLI_COUNT(opts), NULL, &help, pos, 2, &npos);
    FUZZ_ASSERT(rc == 0 || rc == CLI_INPUT, "rc %d", rc);
    if (rc == 0) {
      FUZZ_ASSERT(npos <= 2 && isfinite(dv), "positional %zu, n %g", npos, dv);
      FUZZ_ASSERT(!opts[3].seen || (sv && sv[0]), "an empty string option accepted");
    }
  }
  free(buf);
  return 0;
}
