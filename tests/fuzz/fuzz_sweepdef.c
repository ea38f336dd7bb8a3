/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Fuzz harness: sweep definitions built by API calls (impactfit_sweep_def_*, src/sweep/build.c). The
 * input is a program of builder calls: byte 0 picks a built-in problem, then each call is an opcode
 * and its operands (parameter and option indices, raw doubles, counts up to 8, so at most 8^4 points
 * per axis set). Checked beyond "no crash": a setter refuses with an input error and a message; build
 * refuses like the file parser (an input error naming the definition) or gives a sweep whose canonical
 * text parses again to the same hash, and whose list axes hold exactly the doubles given (%.17g in
 * the C locale round-trips every finite double). Seeds: tests/fuzz/corpus/sweepdef. */
#define _POSIX_C_SOURCE 200809L /* dup, dprintf */
#include <math.h>

#include "fuzz.h"
#include "impactfit/sweep.h"

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  fuzz_init();
  return 0;
}

typedef struct reader {
  const uint8_t *p;
  size_t left;
} reader;

static int take(reader *r, void *out, size_t n) {
  if (r->left < n)
    return 0;
  memcpy(out, r->p, n);
  r->p += n;
  r->left -= n;
  return 1;
}

static void check_setter(int st, const impactfit_error *err) {
  if (!st)
    return;
  FUZZ_ASSERT(impactfit_status_is_input_error(st) || st == IMPACTFIT_ENOMEM, "a setter returned %s: %s",
              impactfit_status_name(st), err->message);
  FUZZ_ASSERT(err->message[0] != '\0', "empty setter message");
}

static const char *const option_values[] = {"C", "A", "fast", "bisect", "0", "1", "exact", "flores", "A,C", "x y"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  reader r = {data, size};
  uint8_t b;
  if (!take(&r, &b, 1))
    return 0;
  size_t np = 0;
  while (impactfit_sweep_problem_at(np))
    np++;
  const impactfit_sweep_problem *pr = impactfit_sweep_problem_at(b % np);
  impactfit_sweep_def *d = NULL;
  impactfit_error err;
  impactfit_error_clear(&err);
  FUZZ_ASSERT(impactfit_sweep_def_new(pr, "fuzzdef", &d, &err) == 0 && d, "def_new: %s", err.message);
  /* the list axes given, to compare with the built sweep */
  double lists[4][8];
  size_t list_n[4] = {0}, list_param[4] = {0}, nlists = 0;
  uint8_t op;
  while (take(&r, &op, 1)) {
    uint8_t pi = 0, cnt = 0;
    double x = 0, y = 0;
    impactfit_error_clear(&err);
    int st = 0;
    switch (op % 5) {
    case 0: /* fixed */
      if (!take(&r, &pi, 1) || !take(&r, &x, sizeof x) || !pr->n_params)
        break;
      st = impactfit_sweep_def_fixed(d, pr->params[pi % pr->n_params].name, x, &err);
      break;
    case 1: /* option */
      if (!take(&r, &pi, 1) || !take(&r, &cnt, 1) || !pr->n_options)
        break;
      st = impactfit_sweep_def_option(d, pr->options[pi % pr->n_options].name,
                                      option_values[cnt % (sizeof option_values / sizeof option_values[0])], &err);
      break;
    case 2: /* range */
      if (!take(&r, &pi, 1) || !take(&r, &x, sizeof x) || !take(&r, &y, sizeof y) || !take(&r, &cnt, 1) ||
          !pr->n_params)
        break;
      st = impactfit_sweep_def_axis(d, pr->params[pi % pr->n_params].name,
                                    (cnt & 0x80) ? IMPACTFIT_AXIS_LOG : IMPACTFIT_AXIS_LINEAR, x, y, cnt % 8, &err);
      break;
    case 3: { /* list */
      if (!take(&r, &pi, 1) || !take(&r, &cnt, 1) || !pr->n_params)
        break;
      size_t n = cnt % 9;
      double v[8];
      size_t got = 0;
      while (got < n && take(&r, &v[got], sizeof v[got]))
        got++;
      st = impactfit_sweep_def_axis_values(d, pr->params[pi % pr->n_params].name, v, got, &err);
      if (!st && nlists < 4) {
        memcpy(lists[nlists], v, got * sizeof v[0]);
        list_n[nlists] = got;
        list_param[nlists] = pi % pr->n_params;
        nlists++;
      }
      break;
    }
    default: { /* outputs: a subset by bit mask */
      if (!take(&r, &cnt, 1) || !pr->n_outputs)
        break;
      const char *names[8];
      size_t n = 0;
      for (size_t k = 0; k < pr->n_outputs && k < 8; k++)
        if (cnt & (1u << k))
          names[n++] = pr->outputs[k];
      st = impactfit_sweep_def_outputs(d, names, n, &err);
    }
    }
    check_setter(st, &err);
  }
  impactfit_sweep *s = NULL;
  impactfit_error_clear(&err);
  int st = impactfit_sweep_def_build(d, &s, &err);
  if (st) {
    FUZZ_ASSERT(s == NULL, "a refused definition returned an object");
    fuzz_check_refusal(st, &err, "fuzzdef");
  } else {
    char *text = NULL;
    size_t len = 0;
    FUZZ_ASSERT(impactfit_sweep_def_text(d, &text, &len, &err) == 0 && text, "text");
    impactfit_sweep *again = NULL;
    const impactfit_sweep_problem *one[1] = {pr};
    FUZZ_ASSERT(impactfit_sweep_parse_with(text, len, "fuzzdef", one, 1, &again, &err) == 0 && again,
                "the canonical text does not parse again: %s", err.message);
    FUZZ_ASSERT(strcmp(impactfit_sweep_hash(again), impactfit_sweep_hash(s)) == 0, "hash differs");
    /* a list axis holds the doubles given (the last list given for a parameter is the axis, unless
     * the parameter got two axes, which build refuses) */
    for (size_t a = 0; a < impactfit_sweep_axis_count(s); a++) {
      const impactfit_sweep_axis *ax = impactfit_sweep_get_axis(s, a);
      for (size_t l = 0; l < nlists; l++)
        if (ax->kind == IMPACTFIT_AXIS_LIST && (size_t)ax->param == list_param[l] && ax->count == list_n[l])
          for (size_t i = 0; i < ax->count; i++)
            FUZZ_ASSERT(ax->values[i] == lists[l][i] || (lists[l][i] == 0 && ax->values[i] == 0),
                        "axis %s value %zu: %.17g != %.17g", ax->name, i, ax->values[i], lists[l][i]);
    }
    free(text);
    impactfit_sweep_free(again);
    impactfit_sweep_free(s);
  }
  impactfit_sweep_def_free(d);
  return 0;
}
