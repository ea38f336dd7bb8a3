/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The shortest decimal text that reads back to the same double (impactfit_format_shortest, common.h),
 * by Giulietti's Schubfach algorithm (R. Giulietti, "The Schubfach way to render doubles", 2020/2022):
 * the rounding interval of v is scaled by a 126-bit power of ten (shortest_table.h) so that the
 * decimals of length 16 or 17 (and, one digit shorter, their multiples of ten) that lie in it are decided
 * by integer comparisons; of those, the one closest to v (even on a tie). No trial printing, no
 * arbitrary precision, no locale: about 50 ns a number instead of the 2-17 snprintf/strtod pairs of
 * trial printing.
 *
 * Written here rather than taken from a library: Debian's implementations (double-conversion,
 * dragonbox, fmt) are C++ and would make libimpactfit (a C11 library, also built for WebAssembly)
 * depend on a C++ runtime for one function; Ryu's C reference is not packaged. tests/test_text.c
 * checks this against the definition, computed with the C library's correctly rounded printf and
 * strtod, on 400,000 random and 14,000 edge doubles. */
#include <stdint.h>
#include <string.h>

#include "impactfit/common.h"
#include "io_impl.h"
#include "shortest_table.h"

/* floor(q log10 2), floor(q log10(3/4 2^q))... as in the paper (exact over the doubles' range) */
static int flog10pow2(int q) { return (int)(((int64_t)q * 661971961083LL) >> 41); }
static int flog10_three_quarters_pow2(int q) { return (int)(((int64_t)q * 661971961083LL - 274743187321LL) >> 41); }
static int flog2pow10(int e) { return (int)(((int64_t)e * 913124641741LL) >> 38); }

static uint64_t mul_high(uint64_t a, uint64_t b) { return (uint64_t)(((unsigned __int128)a * b) >> 64); }

/* cp g 2^-127 rounded to odd (the lowest bit set when inexact), g = g1 2^63 + g0 */
static uint64_t rop(uint64_t g1, uint64_t g0, uint64_t cp) {
  const uint64_t mask63 = (UINT64_C(1) << 63) - 1;
  uint64_t x1 = mul_high(g0, cp);
  uint64_t y0 = g1 * cp;
  uint64_t y1 = mul_high(g1, cp);
  uint64_t z = (y0 >> 1) + x1;
  uint64_t vbp = y1 + (z >> 63);
  return vbp | (((z & mask63) + mask63) >> 63);
}

#define P 53
#define Q_MIN (-1074)
#define C_MIN (UINT64_C(1) << (P - 1))

/* v = c 2^q: the decimal f 10^k of the shortest text (f may end in zeros) */
static void to_decimal(int q, uint64_t c, int dk, uint64_t *f, int *k10) {
  uint64_t out = c & 1, cb = c << 2, cbr = cb + 2, cbl;
  int k;
  if (c != C_MIN || q == Q_MIN) { /* regular spacing */
    cbl = cb - 2;
    k = flog10pow2(q);
  } else { /* at a power of two the interval below is half as wide */
    cbl = cb - 1;
    k = flog10_three_quarters_pow2(q);
  }
  int h = q + flog2pow10(-k) + 2;
  const uint64_t *g = shortest_g[k - SHORTEST_K_MIN];
  uint64_t vb = rop(g[0], g[1], cb << h), vbl = rop(g[0], g[1], cbl << h), vbr = rop(g[0], g[1], cbr << h);
  uint64_t s = vb >> 2;
  if (s >= 10) { /* one digit fewer: s' = floor(s/10) (the paper: s >= 100, as Java prints two digits at least) */
    uint64_t sp10 = 10 * mul_high(s, UINT64_C(115292150460684698) << 4), tp10 = sp10 + 10;
    int upin = vbl + out <= sp10 << 2, wpin = (tp10 << 2) + out <= vbr;
    if (upin != wpin) {
      *f = upin ? sp10 : tp10;
      *k10 = k;
      return;
    }
  }
  uint64_t t = s + 1;
  int uin = vbl + out <= s << 2, win = (t << 2) + out <= vbr;
  *k10 = k + dk;
  if (uin != win) {
    *f = uin ? s : t;
    return;
  }
  uint64_t twice = (s + t) << 1; /* both in the interval: the closer, the even one on a tie */
  *f = vb < twice || (vb == twice && (s & 1) == 0) ? s : t;
}

/* "00" "01" ... "99": the digits written two at a time */
static const char two_digits[201] =
    "0001020304050607080910111213141516171819202122232425262728293031323334353637383940414243444546474849"
    "5051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899";

/* f 10^e (f > 0) in the notation %.17g chooses, with the fewest digits: fixed for decimal exponents
 * -4 <= x < 17 */
static char *render(int negative, uint64_t f, int e, char *buf) {
  while (f % 10 == 0) {
    f /= 10;
    e++;
  }
  char tmp[24], *digits = tmp + sizeof tmp; /* most significant first, written from the right */
  for (; f >= 100; f /= 100)
    memcpy(digits -= 2, two_digits + 2 * (f % 100), 2);
  if (f >= 10)
    memcpy(digits -= 2, two_digits + 2 * f, 2);
  else
    *--digits = (char)('0' + f);
  int nd = (int)(tmp + sizeof tmp - digits);
  int x = e + nd - 1, at = 0;
  if (negative)
    buf[at++] = '-';
  if (x >= -4 && x < 17) {
    if (x < 0) { /* 0.000ddd */
      memcpy(buf + at, "0.000", (size_t)(1 - x));
      at += 1 - x;
      memcpy(buf + at, digits, (size_t)nd);
      at += nd;
    } else if (x + 1 >= nd) { /* ddd000: the integer part is at least as long as the digits */
      memcpy(buf + at, digits, (size_t)nd);
      at += nd;
      memset(buf + at, '0', (size_t)(x + 1 - nd));
      at += x + 1 - nd;
    } else { /* ddd.ddd */
      memcpy(buf + at, digits, (size_t)x + 1);
      at += x + 1;
      buf[at++] = '.';
      memcpy(buf + at, digits + x + 1, (size_t)(nd - x - 1));
      at += nd - x - 1;
    }
  } else { /* d.ddde±XX */
    buf[at++] = digits[0];
    if (nd > 1) {
      buf[at++] = '.';
      memcpy(buf + at, digits + 1, (size_t)nd - 1);
      at += nd - 1;
    }
    buf[at++] = 'e';
    buf[at++] = x < 0 ? '-' : '+';
    int ax = x < 0 ? -x : x;
    if (ax >= 100)
      buf[at++] = (char)('0' + ax / 100);
    memcpy(buf + at, two_digits + 2 * (ax % 100), 2);
    at += 2;
  }
  buf[at] = '\0';
  return buf;
}

char *impactfit_format_shortest(double v, char *buf) {
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  int negative = (int)(bits >> 63);
  uint64_t t = bits & (C_MIN - 1);
  int bq = (int)(bits >> (P - 1)) & 0x7ff;
  if (bq == 0x7ff) {
    strcpy(buf, t ? "nan" : negative ? "-inf" : "inf");
    return buf;
  }
  uint64_t f;
  int e;
  if (bq != 0) {
    int mq = -Q_MIN + 1 - bq; /* v = c 2^-mq */
    uint64_t c = C_MIN | t;
    if (mq > 0 && mq < P && ((c >> mq) << mq) == c) /* an integer below 2^53: its own digits */
      return render(negative, c >> mq, 0, buf);
    to_decimal(-mq, c, 0, &f, &e);
  } else if (t != 0) { /* subnormal (the paper renders t < 3 with one digit more, as Java's toString wants two
                          digits; the shortest are 5e-324 and 1e-323, where both candidates lie in the interval) */
    to_decimal(Q_MIN, t, 0, &f, &e);
  } else {
    strcpy(buf, "0"); /* -0 too */
    return buf;
  }
  return render(negative, f, e, buf);
}
