/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Numbers as text and the shared input rules (common.h): impactfit_format_shortest against known
 * spellings and, for 200000 random doubles, against the definition itself (reads back to the same
 * double; one significant digit fewer does not); impactfit_shorten_numbers on messages;
 * impactfit_all_or_none; impactfit_version_in_range. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "impactfit/impactfit.h"
#include "testutil.h"

static uint64_t splitmix(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* significant digits of a decimal text (no exponent part) */
static int significant(const char *s) {
  int n = 0, leading = 1, trailing = 0;
  for (const char *p = s; *p && *p != 'e'; p++) {
    if (*p < '0' || *p > '9')
      continue;
    if (*p != '0')
      leading = 0;
    if (leading)
      continue;
    n++;
    trailing = *p == '0' ? trailing + 1 : 0;
  }
  /* trailing zeros of an integer in fixed notation are not digits of the spelling: 100000000 is 1 digit */
  return strchr(s, '.') || strchr(s, 'e') ? n : n - trailing;
}

static void known(void) {
  static const struct {
    double v;
    const char *text;
  } cases[] = {
      {0.1, "0.1"},
      {0.6, "0.6"},
      {0.7, "0.7"},
      {0.05, "0.05"},
      {2.0, "2"},
      {1e8, "100000000"},
      {1.23456789, "1.23456789"},
      {0.123456789, "0.123456789"},
      {66.2788628110104, "66.2788628110104"},
      {1e-5, "1e-05"},
      {1.5e-4, "0.00015"},
      {5e-324, "5e-324"},
      {1e300, "1e+300"},
      {-0.0, "0"},
      {-2.5, "-2.5"},
      {1.5e17, "1.5e+17"},
      {1e16, "10000000000000000"},
      {0.30000000000000004, "0.30000000000000004"},
      {DBL_MAX, "1.7976931348623157e+308"},
      {0.9899999902, "0.9899999902"},
      {96161488522358112.0, "96161488522358110"},
  };
  char buf[IMPACTFIT_SHORTEST_SIZE];
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    impactfit_format_shortest(cases[i].v, buf);
    CHECK(strcmp(buf, cases[i].text) == 0, "shortest(%.17g) = '%s', want '%s'", cases[i].v, buf, cases[i].text);
  }
  CHECK(strcmp(impactfit_format_shortest(NAN, buf), "nan") == 0, "nan");
  CHECK(strcmp(impactfit_format_shortest(-INFINITY, buf), "-inf") == 0, "-inf");
}

/* the definition: round trip, and no spelling with one significant digit fewer reads back */
static void random_doubles(void) {
  uint64_t s = 26;
  int bad = 0;
  for (int i = 0; i < 200000 && bad < 5; i++) {
    uint64_t bits = splitmix(&s);
    double v;
    if (i % 2) { /* values a user types: a few digits at a moderate scale */
      int digits = 1 + (int)(splitmix(&s) % 12);
      double m = (double)(splitmix(&s) % 1000000000000ULL) / 1e12;
      char t[64];
      snprintf(t, sizeof t, "%.*g", digits, m * pow(10.0, (int)(splitmix(&s) % 20) - 10));
      v = strtod(t, NULL);
    } else {
      memcpy(&v, &bits, sizeof v);
    }
    if (!isfinite(v))
      continue;
    char buf[IMPACTFIT_SHORTEST_SIZE], fewer[64];
    impactfit_format_shortest(v, buf);
    int p = significant(buf);
    int ok = strtod(buf, NULL) == v || (v == 0.0 && strcmp(buf, "0") == 0);
    if (ok && p > 1) {
      snprintf(fewer, sizeof fewer, "%.*e", p - 2, v); /* p - 1 significant digits */
      ok = strtod(fewer, NULL) != v;
    }
    if (!ok) {
      bad++;
      CHECK(0, "shortest(%.17g) = '%s' (%d digits) does not read back or is not the shortest", v, buf, p);
    }
  }
  CHECK(bad == 0, "200000 random doubles: shortest round trip");
}

static void shorten(void) {
  static const struct {
    const char *in, *out;
  } cases[] = {
      {"--nu: got 0.59999999999999998", "--nu: got 0.6"},
      {"speeds [5, 0.10000000000000001]", "speeds [5, 0.1]"},
      {"x=1.0000000000000001e-05, y", "x=1e-05, y"},
      {"(-0.29999999999999999)", "(-0.3)"},
      {"e = 0.123457 by %g", "e = 0.123457 by %g"},
      {"LIGGGHTS 3.8.0 and YADE 2023.02a", "LIGGGHTS 3.8.0 and YADE 2023.02a"},
      {"lammps 29Sep2021", "lammps 29Sep2021"},
      {"hash 12345678901234567890 stays", "hash 12345678901234567890 stays"},
      {"pair_granular.cpp:349-377", "pair_granular.cpp:349-377"},
      {"k = 100000000 N/m", "k = 100000000 N/m"},
      {"1.5e+17 and 0.98999999019999997", "1.5e+17 and 0.9899999902"},
      {"a1.2345678901234567 b", "a1.2345678901234567 b"},
      {"0.10000000000000001.", "0.1."},
      {"", ""},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    char buf[256];
    snprintf(buf, sizeof buf, "%s", cases[i].in);
    impactfit_shorten_numbers(buf);
    CHECK(strcmp(buf, cases[i].out) == 0, "shorten('%s') = '%s', want '%s'", cases[i].in, buf, cases[i].out);
  }
  /* a library message goes through it */
  impactfit_error err;
  impactfit_error_clear(&err);
  impactfit_code_request q = impactfit_code_request_default();
  impactfit_code_setting set[2] = {{.name = "E", .count = 1, .values = {1e8}},
                                   {.name = "nu", .count = 1, .values = {0.6}}};
  q.settings = set;
  q.n_settings = 2;
  q.bodies.pair = 1;
  q.bodies.r1 = 0.005;
  q.bodies.m1 = 1e-3;
  q.v = 1.0;
  impactfit_code_model_find("lammps", NULL, "granular hertz/material", "tsuji", &q.model, NULL);
  double e;
  int st = q.model ? impactfit_code_forward(&q, 0.5, 1.0, &e, &err) : -1;
  CHECK(st == IMPACTFIT_EINVAL && strstr(err.message, "got 0.6)") && !strstr(err.message, "0.5999"),
        "library message echoes nu = 0.6 as typed: '%s'", err.message);
}

static void rules(void) {
  static const char *const names[] = {"k", "mass", "v"};
  impactfit_error err;
  int all = -1;
  const double none[3] = {NAN, NAN, NAN}, every[3] = {1e8, 0.05, 2}, some[3] = {1e8, NAN, NAN}, two[3] = {1e8, NAN, 2};
  CHECK(impactfit_all_or_none(3, none, names, &all, &err) == 0 && all == 0, "none given");
  CHECK(impactfit_all_or_none(3, every, names, &all, &err) == 0 && all == 1, "all given");
  impactfit_error_clear(&err);
  CHECK(impactfit_all_or_none(3, some, names, &all, &err) == IMPACTFIT_EINVAL &&
            strcmp(err.message, "give all of k, mass and v, or none (only k given)") == 0,
        "partial: '%s'", err.message);
  CHECK(impactfit_all_or_none(3, two, names, &all, &err) == IMPACTFIT_EINVAL &&
            strcmp(err.message, "give all of k, mass and v, or none (only k and v given)") == 0,
        "partial: '%s'", err.message);
  static const char *const kv[] = {"--k", "--v"};
  const double k_only[2] = {1e8, NAN};
  CHECK(impactfit_all_or_none(2, k_only, kv, &all, &err) == IMPACTFIT_EINVAL &&
            strcmp(err.message, "give both --k and --v, or neither (only --k given)") == 0,
        "pair: '%s'", err.message);

  CHECK(impactfit_version_in_range(20240829, 20210929, 20260901), "29Aug2024 in [29Sep2021, 1Sep2026]");
  CHECK(!impactfit_version_in_range(20260902, 20210929, 20260901), "2Sep2026 not in it");
  CHECK(impactfit_version_in_range(20260902, 20260902, 0), "open upper end");
  CHECK(impactfit_version_in_range(10000, 0, 20220199), "open lower end");
  CHECK(!impactfit_version_in_range(0, 0, 0), "an unreadable version (key 0) is in no range");
}

int main(void) {
  known();
  random_doubles();
  shorten();
  rules();
  return tu_report("test_text");
}
