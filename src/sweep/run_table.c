/* impactfit_sweep_run_table (include/impactfit/sweep.h): a run collected into a table in memory.
 *
 * The rows are the runner's own CSV rows (%.17g, C locale), read back by the table reader: %.17g
 * round-trips every double exactly, so the table holds the very values the file of
 * `impactfit sweep` holds. (One internal text step remains: the runner formats rows as text.) */
#include <stdlib.h>
#include <string.h>

#include "../common/common_impl.h"
#include "impactfit/table.h"
#include "sweep_internal.h"

typedef struct text_sink {
  char *p;
  size_t len, cap;
} text_sink;

static int sink_add(text_sink *k, const char *t, size_t len) {
  if (k->len + len + 1 > k->cap) {
    size_t nc = 2 * (k->len + len + 1);
    char *np = realloc(k->p, nc);
    if (!np)
      return IMPACTFIT_ENOMEM;
    k->p = np;
    k->cap = nc;
  }
  memcpy(k->p + k->len, t, len);
  k->len += len;
  k->p[k->len] = '\0';
  return IMPACTFIT_OK;
}

static int sink_rows(void *ctx, size_t first, size_t count, const char *rows, size_t len) {
  (void)first;
  (void)count;
  return sink_add(ctx, rows, len) ? IMPACTFIT_EIO : 0;
}

int impactfit_sweep_run_table(const impactfit_sweep *s, const impactfit_sweep_run_params *rp,
                              impactfit_table **out, impactfit_sweep_summary *summary, impactfit_error *err) {
  if (!out)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no output given");
  *out = NULL;
  if (!s)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no sweep given");
  text_sink k = {NULL, 0, 0};
  const char *h = impactfit_sweep_csv_header(s);
  if (sink_add(&k, h, strlen(h)))
    return IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory");
  impactfit_sweep_summary sum;
  memset(&sum, 0, sizeof sum);
  int st = impactfit_sweep_run(s, rp, sink_rows, NULL, &k, &sum, err);
  if (st == IMPACTFIT_EIO) /* only the sink fails with EIO here */
    st = IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory collecting the rows of sweep %s",
                         impactfit_sweep_name(s));
  if (!st)
    st = impactfit_table_parse_csv(k.p, k.len, impactfit_sweep_name(s), out, err);
  free(k.p);
  if (summary)
    *summary = sum;
  return st;
}
