/* Product grids of command-line values for the Hunt–Crossley commands (hc-eps, impact-time,
 * identify-hc): every option takes a value, a list a,b,c or a range start:stop:count
 * (cli_parse_grid), and the points are the product, the last axis varying fastest. */
#ifndef IMPACTFIT_CLI_HC_GRID_H
#define IMPACTFIT_CLI_HC_GRID_H

#include <stdlib.h>

#include "cli.h"

typedef struct hc_axis {
  const char *opt;  /* "--e" */
  const char *spec; /* the option's text; NULL: the axis is absent (one value, 0) */
  double *v;
  size_t n;
} hc_axis;

#define HC_GRID_MAX 100000000

static inline void hc_grid_free(hc_axis *ax, size_t nax) {
  for (size_t i = 0; i < nax; i++) {
    free(ax[i].v);
    ax[i].v = NULL;
  }
}

/* Parses every present axis; *total = product of their sizes. Returns 0 or CLI_INPUT (printed). */
static inline int hc_grid_parse(hc_axis *ax, size_t nax, size_t *total) {
  size_t t = 1;
  for (size_t i = 0; i < nax; i++) {
    ax[i].v = NULL;
    ax[i].n = 1;
  }
  for (size_t i = 0; i < nax; i++) {
    if (!ax[i].spec)
      continue;
    int rc = cli_parse_grid(ax[i].opt, ax[i].spec, &ax[i].v, &ax[i].n);
    if (rc) {
      hc_grid_free(ax, nax);
      return rc;
    }
    if (ax[i].n > HC_GRID_MAX / t) {
      hc_grid_free(ax, nax);
      return cli_input_error("the grid has more than %d points", HC_GRID_MAX);
    }
    t *= ax[i].n;
  }
  *total = t;
  return 0;
}

/* The values of point idx (0 ≤ idx < total), last axis fastest; absent axes give 0. */
static inline void hc_grid_point(const hc_axis *ax, size_t nax, size_t idx, double *out) {
  for (size_t i = nax; i-- > 0;) {
    out[i] = ax[i].v ? ax[i].v[idx % ax[i].n] : 0.0;
    idx /= ax[i].n;
  }
}

#endif
