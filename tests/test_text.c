/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Numbers as text and the shared input rules (common.h): impactfit_format_shortest against known
 * spellings and, for 400,000 random and edge doubles, against the definition computed with the C library
 * (the fewest digits that read back to the same double, the nearer of two); impactfit_shorten_numbers on messages;
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

/* A decimal text's value as (digits without leading or trailing zeros, decimal exponent of the first
 * digit): "0.00150" and "1.5e-03" both give ("15", -3). */
static void canonical(const char *s, char *digits, int *x) {
  int nd = 0, point = -1, before = 0, lead = 1;
  const char *p = s;
  if (*p == '-' || *p == '+')
    p++;
  int pos = 0; /* digits read, leading zeros included */
  for (; (*p >= '0' && *p <= '9') || *p == '.'; p++) {
    if (*p == '.') {
      point = pos;
      continue;
    }
    if (lead && *p == '0') {
      pos++;
      before++;
      continue;
    }
    lead = 0;
    digits[nd++] = *p;
    pos++;
  }
  if (point < 0)
    point = pos;
  while (nd > 0 && digits[nd - 1] == '0')
    nd--;
  digits[nd] = '\0';
  int ex = (*p == 'e' || *p == 'E') ? atoi(p + 1) : 0;
  *x = point - before - 1 + ex;
}

/* The p-digit decimal next to v that reads back to v, if any: the correctly rounded one (%.(p-1)e) or
 * the p-digit neighbour on the other side of v. Returns 1 (the nearer) or 2 (the farther) with *text,
 * or 0. */
static int p_digits(double v, int p, char *text, size_t size) {
  char r[64];
  snprintf(r, sizeof r, "%.*e", p - 1, v);
  if (strtod(r, NULL) == v) {
    snprintf(text, size, "%s", r);
    return 1;
  }
  char digits[32];
  int x, nd;
  canonical(r, digits, &x);
  unsigned long long D = 0, top = 1;
  for (nd = 0; digits[nd]; nd++)
    D = 10 * D + (unsigned long long)(digits[nd] - '0');
  for (; nd < p; nd++)
    D *= 10; /* p digits */
  for (int i = 1; i < p; i++)
    top *= 10;          /* 10^(p-1) */
  int ex = x - (p - 1); /* r = D 10^ex */
  if (fabs(strtod(r, NULL)) > fabs(v)) {
    if (D == top) /* 1000 -> 9999 one decade down */
      D = 10 * top - 1, ex--;
    else
      D--;
  } else {
    D++;
  }
  char n[64];
  snprintf(n, sizeof n, "%s%llue%d", v < 0 ? "-" : "", D, ex);
  if (strtod(n, NULL) != v)
    return 0;
  snprintf(text, size, "%s", n);
  return 2;
}

/* The definition, from the C library's correctly rounded printf and strtod: the fewest significant
 * digits p such that a p-digit decimal reads back to v (some p-digit decimal does for every p from there
 * on: bisection on p), and of the p-digit decimals next to v that do, the nearer. Returns p with *text,
 * and *farther = 1 when the nearer does not read back (trial printing of the correctly rounded digits,
 * the first version, then needed a digit more: below a power of two, where the interval is half as wide). */
static int definition(double v, char *text, size_t size, int *farther) {
  int lo = 0, hi = 17; /* no lo-digit decimal reads back; a hi-digit one does */
  while (hi - lo > 1) {
    int mid = (lo + hi) / 2;
    if (p_digits(v, mid, text, size))
      hi = mid;
    else
      lo = mid;
  }
  *farther = p_digits(v, hi, text, size) == 2;
  return hi;
}

static int check_one(double v, int *differs_from_trial) {
  char buf[IMPACTFIT_SHORTEST_SIZE], want[64], d1[32], d2[32];
  impactfit_format_shortest(v, buf);
  if (v == 0.0)
    return strcmp(buf, "0") == 0;
  int farther, p = definition(v, want, sizeof want, &farther), x1, x2;
  canonical(buf, d1, &x1);
  canonical(want, d2, &x2);
  int ok = strtod(buf, NULL) == v && strcmp(d1, d2) == 0 && x1 == x2 && (int)strlen(d1) <= p;
  /* the notation of %.17g: fixed for decimal exponents -4 <= x < 17 */
  ok = ok && (strchr(buf, 'e') != NULL) == !(x1 >= -4 && x1 < 17);
  *differs_from_trial += ok && farther;
  if (!ok)
    CHECK(0, "shortest(%.17g) = '%s', the definition: '%s' (%d digits)", v, buf, want, p);
  return ok;
}

/* 400,000 random doubles (random bits; values a user types) and the edges: every power of two, the
 * smallest subnormals, the neighbours of every power of ten, integers about 2^53, DBL_MAX, DBL_MIN */
static void random_doubles(void) {
  uint64_t s = 26;
  int bad = 0, differs = 0, pow2_differs = 0;
  long n = 0;
  for (int i = 0; i < 400000 && bad < 5; i++) {
    uint64_t bits = splitmix(&s);
    double v;
    if (i % 2) {
      int digits = 1 + (int)(splitmix(&s) % 17);
      double m = (double)(splitmix(&s) % 100000000000000000ULL) / 1e17;
      char t[64];
      snprintf(t, sizeof t, "%.*g", digits, m * pow(10.0, (int)(splitmix(&s) % 40) - 20));
      v = strtod(t, NULL);
    } else {
      memcpy(&v, &bits, sizeof v);
    }
    if (!isfinite(v))
      continue;
    n++;
    bad += !check_one(v, &differs);
  }
  for (int e = -1074; e <= 1023 && bad < 10; e++) {
    double v = ldexp(1.0, e);
    bad += !check_one(v, &pow2_differs) + !check_one(nextafter(v, 0.0), &differs) +
           !check_one(nextafter(v, INFINITY), &differs);
    n += 3;
  }
  for (int t = 1; t <= 1000 && bad < 10; t++, n++)
    bad += !check_one(ldexp((double)t, -1074), &differs);
  for (int k = -323; k <= 308 && bad < 10; k++) {
    char t[32];
    snprintf(t, sizeof t, "1e%d", k);
    double v = strtod(t, NULL);
    double w[5] = {v, nextafter(v, 0.0), nextafter(v, INFINITY), 3.0 * v, -7.0 * v};
    for (int j = 0; j < 5; j++, n++)
      if (isfinite(w[j]))
        bad += !check_one(w[j], &differs);
  }
  for (double v = 9007199254740992.0 - 50.0; v <= 9007199254740992.0 + 50.0; v = nextafter(v, INFINITY), n++)
    bad += !check_one(v, &differs);
  bad += !check_one(DBL_MAX, &differs) + !check_one(DBL_MIN, &differs) + !check_one(-DBL_TRUE_MIN, &differs);
  CHECK(bad == 0, "%ld doubles: the shortest text, the nearer of two, in %%.17g's notation", n);
  /* every case where it is shorter than trial printing is a power of two (the asymmetric interval) */
  CHECK(differs == 0, "%d doubles other than powers of two print shorter than by trial printing", differs);
  printf("test_text: %d of 2098 powers of two print a digit shorter than trial printing did\n", pow2_differs);
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
