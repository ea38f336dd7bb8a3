/* The sweep runner (include/impactfit/sweep.h): blocks computed in parallel, written in order.
 *
 * The grid range [first, first + count) is cut into blocks of B points; a block is cut into work
 * units: single points, or, for problems with solve_run, runs along the innermost axis (a run
 * starts at a multiple of the innermost count and never crosses a block boundary). The partition
 * depends on the grid and B only, never on the thread count, so every unit sees the same inputs and
 * a freshly reset state whichever thread takes it: the rows are identical for any thread count.
 * One parallel region spans the whole run (the threads and their problem states live across
 * blocks); a block's units are shared out by `omp for schedule(dynamic)`, then one thread hands
 * the formatted rows to the callback while the others wait at the barrier. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/common_impl.h"
#include "sweep_internal.h"

#define DEFAULT_BLOCK 4096
#define COL_WIDTH 32 /* a %.17g number or a status name, with its comma */

impactfit_sweep_run_params impactfit_sweep_default_run_params(void) {
  impactfit_sweep_run_params rp;
  memset(&rp, 0, sizeof rp);
  return rp;
}

typedef struct block_mem {
  double *in, *out;
  long *rhs;
  int *status;
  impactfit_error *errs;
  char *rows;
  size_t *row_len;
  size_t *unit_start; /* unit k covers [unit_start[k], unit_start[k+1]) */
} block_mem;

static void block_mem_free(block_mem *m) {
  free(m->in);
  free(m->out);
  free(m->rhs);
  free(m->status);
  free(m->errs);
  free(m->rows);
  free(m->row_len);
  free(m->unit_start);
}

/* Formats row i of the block (point index idx) into dst; returns its length. */
static size_t format_row(const impactfit_sweep *s, size_t idx, const double *in, const double *out,
                         long rhs, int status, char *dst) {
  const impactfit_sweep_problem *pr = s->problem;
  char *p = dst;
  p += sprintf(p, "%zu", idx);
  for (size_t i = 0; i < pr->n_params; i++) {
    *p++ = ',';
    p += impactfit__fmt_g17(p, in[i]);
  }
  for (size_t k = 0; k < pr->n_outputs; k++) {
    if (!s->wanted[k])
      continue;
    *p++ = ',';
    if (status == IMPACTFIT_OK)
      p += impactfit__fmt_g17(p, out[k]);
  }
  p += sprintf(p, ",%s,%ld\n", status == IMPACTFIT_OK ? "OK" : impactfit_status_name(status), rhs);
  return (size_t)(p - dst);
}

/* Computes work unit [a, b) of the block starting at point b0. */
static void run_unit(const impactfit_sweep *s, void *state, block_mem *m, size_t b0, size_t a, size_t b,
                     size_t row_max) {
  const impactfit_sweep_problem *pr = s->problem;
  size_t np = pr->n_params, no = pr->n_outputs;
  if (pr->reset)
    pr->reset(state);
  for (size_t idx = a; idx < b; idx++) {
    size_t i = idx - b0;
    impactfit_sweep_point(s, idx, m->in + i * np);
    m->rhs[i] = 0;
    impactfit_error_clear(&m->errs[i]);
    memset(m->out + i * no, 0, no * sizeof *m->out);
  }
  if (pr->solve_run) {
    size_t i0 = a - b0, cnt = b - a;
    for (size_t i = i0; i < i0 + cnt; i++)
      m->status[i] = IMPACTFIT_OK;
    impactfit_error run_err;
    impactfit_error_clear(&run_err);
    int st = pr->solve_run(state, cnt, m->in + i0 * np, m->out + i0 * no, m->rhs + i0, m->status + i0,
                           m->errs + i0);
    if (st)
      for (size_t i = i0; i < i0 + cnt; i++)
        if (m->status[i] == IMPACTFIT_OK) {
          m->status[i] = st;
          if (!m->errs[i].message[0])
            snprintf(m->errs[i].message, sizeof m->errs[i].message, "%s", impactfit_strerror(st));
        }
  } else {
    for (size_t idx = a; idx < b; idx++) {
      size_t i = idx - b0;
      m->status[i] = pr->solve(state, m->in + i * np, m->out + i * no, &m->rhs[i], &m->errs[i]);
    }
  }
  for (size_t idx = a; idx < b; idx++) {
    size_t i = idx - b0;
    if (m->status[i] == IMPACTFIT_OK)
      for (size_t k = 0; k < no; k++)
        if (s->wanted[k] && !isfinite(m->out[i * no + k])) {
          m->status[i] = IMPACTFIT_ENONFINITE;
          snprintf(m->errs[i].message, sizeof m->errs[i].message, "output %s is not finite (%g)",
                   pr->outputs[k], m->out[i * no + k]);
          break;
        }
    if (m->status[i] != IMPACTFIT_OK && !m->errs[i].message[0])
      snprintf(m->errs[i].message, sizeof m->errs[i].message, "%s", impactfit_strerror(m->status[i]));
    m->row_len[i] = format_row(s, idx, m->in + i * np, m->out + i * no, m->rhs[i], m->status[i],
                               m->rows + i * row_max);
  }
}

int impactfit_sweep_run(const impactfit_sweep *s, const impactfit_sweep_run_params *rp_in,
                        impactfit_sweep_rows_fn rows, impactfit_sweep_failure_fn failure, void *ctx,
                        impactfit_sweep_summary *summary, impactfit_error *err) {
  impactfit__gsl_quiet();
  impactfit_sweep_run_params rp = rp_in ? *rp_in : impactfit_sweep_default_run_params();
  if (summary)
    memset(summary, 0, sizeof *summary);
  if (!s || !rows)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no sweep or no row callback given");
  if (rp.threads < 0 || rp.threads > 4096)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "threads must be between 0 and 4096 (got %d)", rp.threads);
  if (rp.first >= s->total || (rp.count && rp.count > s->total - rp.first))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "point range %zu + %zu is outside the grid of %zu points",
                           rp.first, rp.count, s->total);
  const impactfit_sweep_problem *pr = s->problem;
  size_t first = rp.first, last = rp.count ? rp.first + rp.count : s->total;
  int threads = rp.threads ? rp.threads : omp_get_max_threads();
  size_t L = pr->solve_run ? s->axes[s->n_axes - 1].count : 1;
  size_t B = rp.block ? rp.block : DEFAULT_BLOCK;
  if (B > 1000000)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "block must be at most 1e6 points (got %zu)", B);
  if (L > 1 && L <= B)
    B = (B / L) * L; /* whole runs per block when the grid is aligned */
  size_t np = pr->n_params, no = pr->n_outputs;
  size_t row_max = COL_WIDTH * (np + no + 3);

  block_mem m;
  memset(&m, 0, sizeof m);
  m.in = malloc(B * (np ? np : 1) * sizeof *m.in);
  m.out = malloc(B * (no ? no : 1) * sizeof *m.out);
  m.rhs = malloc(B * sizeof *m.rhs);
  m.status = malloc(B * sizeof *m.status);
  m.errs = malloc(B * sizeof *m.errs);
  m.rows = malloc(B * row_max);
  m.row_len = malloc(B * sizeof *m.row_len);
  m.unit_start = malloc((B + 1) * sizeof *m.unit_start);
  void **states = calloc((size_t)threads, sizeof *states);
  int st = IMPACTFIT_OK;
  if (!m.in || !m.out || !m.rhs || !m.status || !m.errs || !m.rows || !m.row_len || !m.unit_start || !states) {
    st = IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory for a block of %zu points", B);
    goto done;
  }

  double t0 = omp_get_wtime();
  size_t failed = 0, done_points = 0;
  long long rhs_total = 0;
  int stop = 0, used_threads = 1, alloc_st = 0;
  size_t n_units = 0;
  impactfit_error alloc_err;
  impactfit_error_clear(&alloc_err);
#pragma omp parallel num_threads(threads)
  {
    int tid = omp_get_thread_num();
    /* Each thread allocates its own state: its memory then comes from the thread's own malloc
     * arena, so the hot integrator state of two threads never shares a cache line (allocating all
     * states on one thread cost about 15% of the two-thread throughput through false sharing). */
    impactfit_error e2;
    impactfit_error_clear(&e2);
    int ast = pr->alloc(&states[tid], (const char *const *)s->options, s->wanted, &e2);
    if (ast) {
#pragma omp critical(impactfit_sweep_alloc)
      if (!alloc_st) {
        alloc_st = ast;
        alloc_err = e2;
      }
    }
#pragma omp barrier
#pragma omp single
    used_threads = omp_get_num_threads();
    for (size_t b0 = first; b0 < last && !alloc_st; b0 += B) {
      size_t b1 = (last - b0 < B) ? last : b0 + B;
#pragma omp single
      {
        n_units = 0;
        for (size_t a = b0; a < b1;) {
          size_t e = (a / L + 1) * L;
          if (e > b1)
            e = b1;
          m.unit_start[n_units++] = a;
          a = e;
        }
        m.unit_start[n_units] = b1;
      } /* implicit barrier: every thread sees the units */
#pragma omp for schedule(dynamic, 1)
      for (size_t u = 0; u < n_units; u++)
        run_unit(s, states[tid], &m, b0, m.unit_start[u], m.unit_start[u + 1], row_max);
      /* implicit barrier: the block is complete */
#pragma omp single
      {
        size_t len = 0;
        for (size_t i = 0; i < b1 - b0; i++) {
          if (m.status[i] != IMPACTFIT_OK) {
            failed++;
            if (failure)
              failure(ctx, b0 + i, m.status[i], m.errs[i].message);
          }
          rhs_total += m.rhs[i];
          memmove(m.rows + len, m.rows + i * row_max, m.row_len[i]);
          len += m.row_len[i];
        }
        int rc = rows(ctx, b0, b1 - b0, m.rows, len);
        done_points += b1 - b0;
        if (rc)
          stop = (rc == IMPACTFIT_EINTR) ? IMPACTFIT_EINTR : IMPACTFIT_EIO;
      } /* implicit barrier: all threads see `stop` */
      if (stop)
        break;
    }
    if (pr->free)
      pr->free(states[tid]);
    states[tid] = NULL;
  }
  if (alloc_st) {
    st = IMPACTFIT__FAIL(err, alloc_st, "%s", alloc_err.message);
    goto done;
  }
  if (summary) {
    summary->points = done_points;
    summary->failed = failed;
    summary->rhs_evals = rhs_total;
    summary->wall_seconds = omp_get_wtime() - t0;
    summary->threads = used_threads;
  }
  if (stop)
    st = IMPACTFIT__FAIL(err, stop, stop == IMPACTFIT_EINTR ? "sweep interrupted after %zu points"
                                                             : "sweep stopped after %zu points: output failed",
                         done_points);
done:
  if (states)
    for (int t = 0; t < threads; t++)
      if (pr->free)
        pr->free(states[t]);
  free(states);
  block_mem_free(&m);
  return st;
}
