/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The sweep runner (include/impactfit/sweep.h): blocks computed in parallel, written in order.
 *
 * Work units: the grid is cut at every multiple of L (the innermost axis count, for problems with
 * solve_run; 1 otherwise) and of the block size B, and at the ends of the run's range. When L ≤ B,
 * B is a multiple of L and the units are the runs (single points when L = 1); when L > B they are
 * the pieces of the runs within each block. Shards interleave groups of G = min(L, B) points,
 * group g = floor(x/G) going to shard g mod N: a group is one unit (L ≤ B) or the units of one
 * block (L > B), all of G points but the last, so shards differ by at most G points, and shard
 * membership is defined from the grid and B alone, wherever a run starts. The partition never
 * depends on the thread count, so every unit sees the same inputs and a freshly reset state
 * whichever thread takes it: the rows are identical for any thread count, shard or range.
 *
 * One parallel region spans the whole run (the threads and their problem states live across
 * blocks). The calling thread (the team's master) gathers the next block of units: at most W
 * points (at least one unit), W = the caller's `work`, or by default max(B, 4 T G) for T threads
 * (at most 262144), so that a block has about four units per thread even when the units are long
 * runs (with B = 4096 and runs of 600 points a block of B would hold 6 units, and 32 threads
 * would mostly wait at the barrier); W only groups units, it never cuts one, so the rows do not
 * depend on it.
 * The threads take units in increasing order from a shared counter (dynamic scheduling),
 * and the master, after each of its units, calls the poll hook. When the hook asks to stop, no
 * thread takes a further unit, so the completed units are exactly the first `taken` ones and
 * their rows can be delivered. After the barrier the master hands the block's rows to the
 * callback while the other threads wait: every callback runs on the calling thread (which MPI's
 * FUNNELED threading level and signal-driven stops rely on). */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/common_impl.h"
#include "sweep_internal.h"

#define DEFAULT_BLOCK 4096
#define MAX_BLOCK 1000000
#define UNITS_PER_THREAD 4 /* units per thread in a default block */
#define MAX_WORK 262144    /* points per default block at most (about 1.2 kB of memory each) */
#define COL_WIDTH 32       /* a %.17g number or a status name, with its comma */

impactfit_sweep_run_params impactfit_sweep_default_run_params(void) {
  impactfit_sweep_run_params rp;
  memset(&rp, 0, sizeof rp);
  return rp;
}

/* Innermost run length: units never cross its multiples. */
static size_t run_length(const impactfit_sweep *s) { return s->problem->solve_run ? s->axes[s->n_axes - 1].count : 1; }

size_t impactfit_sweep_block_size(const impactfit_sweep *s, size_t block) {
  size_t B = block ? block : DEFAULT_BLOCK, L = run_length(s);
  if (L > 1 && L <= B)
    B = (B / L) * L; /* whole runs per block when the grid is aligned */
  return B;
}

/* The unit partition of a run's range [first, last). */
typedef struct partition {
  size_t L, B, G, first, last, shard, shards; /* G = min(L, B): points per shard group */
  size_t W;                                   /* points per block gathered for the threads */
} partition;

static int partition_init(const impactfit_sweep *s, const impactfit_sweep_run_params *rp, partition *p,
                          impactfit_error *err) {
  if (rp->block > MAX_BLOCK)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "block must be at most 1e6 points (got %zu)", rp->block);
  if (rp->first >= s->total || (rp->count && rp->count > s->total - rp->first))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "point range %zu + %zu is outside the grid of %zu points", rp->first,
                           rp->count, s->total);
  p->shards = rp->shards ? rp->shards : 1;
  p->shard = rp->shard;
  if (p->shard >= p->shards)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "shard %zu of %zu: the shard index must be below the shard count",
                           rp->shard, p->shards);
  p->L = run_length(s);
  p->B = impactfit_sweep_block_size(s, rp->block);
  p->G = p->L < p->B ? p->L : p->B;
  p->first = rp->first;
  p->last = rp->count ? rp->first + rp->count : s->total;
  if (rp->work > MAX_BLOCK)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "work must be at most 1e6 points (got %zu)", rp->work);
  p->W = rp->work;
  if (!p->W) {
    size_t threads = (size_t)(rp->threads > 0 ? rp->threads : omp_get_max_threads());
    size_t want = UNITS_PER_THREAD * threads * p->G;
    p->W = want < MAX_WORK ? want : MAX_WORK;
    if (p->W < p->B)
      p->W = p->B;
  }
  return IMPACTFIT_OK;
}

/* Shard key of the unit holding point x (see the top of the file). */
static size_t shard_key(const partition *p, size_t x) { return x / p->G; }

/* End of the unit starting at a. */
static size_t unit_end(const partition *p, size_t a) {
  size_t e = (a / p->L + 1) * p->L, eb = (a / p->B + 1) * p->B;
  if (eb < e)
    e = eb;
  return e < p->last ? e : p->last;
}

static int unit_selected(const partition *p, size_t a) {
  return p->shards == 1 || shard_key(p, a) % p->shards == p->shard;
}

size_t impactfit_sweep_run_points(const impactfit_sweep *s, const impactfit_sweep_run_params *rp) {
  partition p;
  if (!s || !rp || partition_init(s, rp, &p, NULL))
    return 0;
  if (p.shards == 1)
    return p.last - p.first;
  size_t n = 0;
  for (size_t a = p.first; a < p.last;) {
    size_t e = unit_end(&p, a);
    if (unit_selected(&p, a))
      n += e - a;
    a = e;
  }
  return n;
}

typedef struct block_mem {
  double *in, *out;
  long *rhs;
  int *status;
  impactfit_error *errs;
  char *rows;
  size_t *row_len;
  size_t *unit_a, *unit_b, *unit_off; /* unit k: points [unit_a[k], unit_b[k]) at offset unit_off[k] */
  size_t *idx;                        /* point index of each slot */
} block_mem;

static void block_mem_free(block_mem *m) {
  free(m->in);
  free(m->out);
  free(m->rhs);
  free(m->status);
  free(m->errs);
  free(m->rows);
  free(m->row_len);
  free(m->unit_a);
  free(m->unit_b);
  free(m->unit_off);
  free(m->idx);
}

/* Formats row i of the block (point index idx) into dst; returns its length. */
static size_t format_row(const impactfit_sweep *s, size_t idx, const double *in, const double *out, long rhs,
                         int status, char *dst) {
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

/* Computes work unit [a, b), stored from offset `off` of the block; returns its failed points. */
static size_t run_unit(const impactfit_sweep *s, void *state, block_mem *m, size_t off, size_t a, size_t b,
                       size_t row_max, int text) {
  const impactfit_sweep_problem *pr = s->problem;
  size_t np = pr->n_params, no = pr->n_outputs, failed = 0;
  if (pr->reset)
    pr->reset(state);
  for (size_t idx = a; idx < b; idx++) {
    size_t i = off + (idx - a);
    m->idx[i] = idx;
    impactfit_sweep_point(s, idx, m->in + i * np);
    m->rhs[i] = 0;
    impactfit_error_clear(&m->errs[i]);
    memset(m->out + i * no, 0, no * sizeof *m->out);
  }
  if (pr->solve_run) {
    size_t cnt = b - a;
    for (size_t i = off; i < off + cnt; i++)
      m->status[i] = IMPACTFIT_OK;
    int st = pr->solve_run(state, cnt, m->in + off * np, m->out + off * no, m->rhs + off, m->status + off,
                           m->errs + off);
    if (st)
      for (size_t i = off; i < off + cnt; i++)
        if (m->status[i] == IMPACTFIT_OK) {
          m->status[i] = st;
          if (!m->errs[i].message[0])
            snprintf(m->errs[i].message, sizeof m->errs[i].message, "%s", impactfit_strerror(st));
        }
  } else {
    for (size_t idx = a; idx < b; idx++) {
      size_t i = off + (idx - a);
      m->status[i] = pr->solve(state, m->in + i * np, m->out + i * no, &m->rhs[i], &m->errs[i]);
    }
  }
  for (size_t idx = a; idx < b; idx++) {
    size_t i = off + (idx - a);
    if (m->status[i] == IMPACTFIT_OK)
      for (size_t k = 0; k < no; k++)
        if (s->wanted[k] && !isfinite(m->out[i * no + k])) {
          m->status[i] = IMPACTFIT_ENONFINITE;
          snprintf(m->errs[i].message, sizeof m->errs[i].message, "output %s is not finite (%g)", pr->outputs[k],
                   m->out[i * no + k]);
          break;
        }
    if (m->status[i] != IMPACTFIT_OK) {
      failed++;
      if (!m->errs[i].message[0])
        snprintf(m->errs[i].message, sizeof m->errs[i].message, "%s", impactfit_strerror(m->status[i]));
    }
    if (text)
      m->row_len[i] = format_row(s, idx, m->in + i * np, m->out + i * no, m->rhs[i], m->status[i],
                                 m->rows + i * row_max);
  }
  return failed;
}

/* Gathers the next block from *pos: selected units, at most W points. Returns the number of units
 * and sets *cover_end: the start of the next selected unit, or the end of the range. */
static size_t gather_block(const partition *p, block_mem *m, size_t *pos, size_t *cover_end) {
  size_t n = 0, pts = 0, a = *pos;
  while (a < p->last) {
    size_t e = unit_end(p, a);
    if (unit_selected(p, a)) {
      if (n > 0 && pts + (e - a) > p->W)
        break;
      m->unit_a[n] = a;
      m->unit_b[n] = e;
      m->unit_off[n] = pts;
      pts += e - a;
      n++;
    }
    a = e;
  }
  m->unit_off[n] = pts;
  *pos = a;
  *cover_end = a;
  return n;
}

/* Memory for a block of B points with np parameters, no outputs and rows of row_max bytes; 0 when an
 * allocation failed (block_mem_free frees what was made). */
static int block_mem_alloc(block_mem *m, size_t B, size_t np, size_t no, size_t row_max) {
  memset(m, 0, sizeof *m);
  m->in = malloc(B * (np ? np : 1) * sizeof *m->in);
  m->out = malloc(B * (no ? no : 1) * sizeof *m->out);
  m->rhs = malloc(B * sizeof *m->rhs);
  m->status = malloc(B * sizeof *m->status);
  m->errs = malloc(B * sizeof *m->errs);
  m->rows = malloc(B * row_max);
  m->row_len = malloc(B * sizeof *m->row_len);
  m->unit_a = malloc((B + 1) * sizeof *m->unit_a);
  m->unit_b = malloc((B + 1) * sizeof *m->unit_b);
  m->unit_off = malloc((B + 1) * sizeof *m->unit_off);
  m->idx = malloc(B * sizeof *m->idx);
  return m->in && m->out && m->rhs && m->status && m->errs && m->rows && m->row_len && m->unit_a && m->unit_b &&
         m->unit_off && m->idx;
}

/* What the master thread delivers the blocks with, and its running totals. */
typedef struct deliverer {
  block_mem *m;
  int text;
  size_t row_max;
  impactfit_sweep_rows_fn rows;
  impactfit_sweep_values_fn values;
  impactfit_sweep_failure_fn failure;
  void *ctx;
  size_t failed, delivered;
  long long rhs_total;
  int stop; /* 0, or why the next pass stops: IMPACTFIT_EINTR, IMPACTFIT_EIO */
} deliverer;

/* Delivers the computed block covering points [cover_start, cover_end) (master thread, after the
 * barrier): every unit taken (the first min(next_unit, n_units)) is complete; with a halt the
 * delivered range ends at the first unit not taken, and the run stops. Failures are reported and the
 * text rows packed in point order. */
static void deliver_block(deliverer *dv, size_t n_units, size_t next_unit, size_t cover_start, size_t cover_end) {
  block_mem *m = dv->m;
  size_t taken = next_unit < n_units ? next_unit : n_units;
  int cut = taken < n_units;
  size_t end = cut ? m->unit_a[taken] : cover_end, npts = m->unit_off[taken], len = 0;
  for (size_t k = 0; k < taken; k++)
    for (size_t i = m->unit_off[k]; i < m->unit_off[k + 1]; i++) {
      if (m->status[i] != IMPACTFIT_OK) {
        dv->failed++;
        if (dv->failure)
          dv->failure(dv->ctx, m->unit_a[k] + (i - m->unit_off[k]), m->status[i], m->errs[i].message);
      }
      dv->rhs_total += m->rhs[i];
      if (dv->text) {
        memmove(m->rows + len, m->rows + i * dv->row_max, m->row_len[i]);
        len += m->row_len[i];
      }
    }
  if (npts || !cut) {
    /* units 0..taken-1 fill the slots [0, npts) */
    impactfit_sweep_block vb = {.first = cover_start,
                                .count = end - cover_start,
                                .n = npts,
                                .index = m->idx,
                                .in = m->in,
                                .out = m->out,
                                .status = m->status,
                                .rhs_evals = m->rhs,
                                .errs = m->errs};
    int rc = dv->text ? dv->rows(dv->ctx, cover_start, end - cover_start, m->rows, len) : dv->values(dv->ctx, &vb);
    dv->delivered += npts;
    if (rc)
      dv->stop = (rc == IMPACTFIT_EINTR) ? IMPACTFIT_EINTR : IMPACTFIT_EIO;
  }
  if (cut && !dv->stop)
    dv->stop = IMPACTFIT_EINTR;
}

/* The runner: rows as text (rows != NULL) or as numbers (values != NULL), never both. */
static int run(const impactfit_sweep *s, const impactfit_sweep_run_params *rp_in, impactfit_sweep_rows_fn rows,
               impactfit_sweep_values_fn values, impactfit_sweep_failure_fn failure, void *ctx,
               impactfit_sweep_summary *summary, impactfit_error *err) {
  IMPACTFIT__GSL_SCOPE;
  impactfit_sweep_run_params rp = rp_in ? *rp_in : impactfit_sweep_default_run_params();
  if (summary)
    memset(summary, 0, sizeof *summary);
  if (!s || (!rows && !values))
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no sweep or no row callback given");
  int text = rows != NULL;
  if (rp.threads < 0 || rp.threads > 4096)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "threads must be between 0 and 4096 (got %d)", rp.threads);
  partition part;
  int st = partition_init(s, &rp, &part, err);
  if (st)
    return st;
  const impactfit_sweep_problem *pr = s->problem;
  int threads = rp.threads ? rp.threads : omp_get_max_threads();
  size_t B = part.W > part.B ? part.W : part.B; /* memory for the largest block (one unit <= B) */
  size_t np = pr->n_params, no = pr->n_outputs;
  size_t row_max = text ? COL_WIDTH * (np + no + 3) : 1;

  block_mem m;
  int m_ok = block_mem_alloc(&m, B, np, no, row_max);
  void **states = calloc((size_t)threads, sizeof *states);
  if (!m_ok || !states) {
    st = IMPACTFIT__FAIL(err, IMPACTFIT_ENOMEM, "out of memory for a block of %zu points", B);
    goto done;
  }

  double t0 = omp_get_wtime();
  deliverer dv = {.m = &m,
                  .text = text,
                  .row_max = row_max,
                  .rows = rows,
                  .values = values,
                  .failure = failure,
                  .ctx = ctx,
                  .failed = 0,
                  .delivered = 0,
                  .rhs_total = 0,
                  .stop = 0};
  int used_threads = 1, alloc_st = 0, finished = 0;
  /* shared between the threads: the unit counter, the stop request and the running totals */
  size_t n_units = 0, next_unit = 0, computed = 0, computed_failed = 0;
  int halt = 0;
  size_t pos = part.first, cover_start = part.first, cover_end = part.first;
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
#pragma omp master
    used_threads = omp_get_num_threads();
    int first_block = 1;
    for (;;) {
#pragma omp master
      {
        if (alloc_st || dv.stop || (pos >= part.last && !first_block)) {
          finished = 1;
        } else {
          cover_start = pos;
          n_units = gather_block(&part, &m, &pos, &cover_end);
          next_unit = 0;
        }
      }
      first_block = 0;
#pragma omp barrier
      if (finished)
        break;
      for (;;) {
        int h;
#pragma omp atomic read
        h = halt;
        if (h)
          break;
        size_t u;
#pragma omp atomic capture
        u = next_unit++;
        if (u < n_units) {
          size_t nf = run_unit(s, states[tid], &m, m.unit_off[u], m.unit_a[u], m.unit_b[u], row_max, text);
#pragma omp atomic
          computed += m.unit_b[u] - m.unit_a[u];
#pragma omp atomic
          computed_failed += nf;
        }
        /* the master polls after each of its units, and once more when the block has no unit left */
        if (tid == 0 && rp.poll) {
          size_t d, f;
#pragma omp atomic read
          d = computed;
#pragma omp atomic read
          f = computed_failed;
          if (rp.poll(rp.poll_ctx ? rp.poll_ctx : ctx, d, f)) {
#pragma omp atomic write
            halt = 1;
          }
        }
        if (u >= n_units)
          break;
      }
#pragma omp barrier
#pragma omp master
      deliver_block(&dv, n_units, next_unit, cover_start, cover_end);
      /* the master's next pass decides, behind the barrier above */
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
    summary->points = dv.delivered;
    summary->failed = dv.failed;
    summary->rhs_evals = dv.rhs_total;
    summary->wall_seconds = omp_get_wtime() - t0;
    summary->threads = used_threads;
  }
  if (dv.stop)
    st = IMPACTFIT__FAIL(err, dv.stop,
                         dv.stop == IMPACTFIT_EINTR ? "sweep interrupted after %zu points"
                                                    : "sweep stopped after %zu points: output failed",
                         dv.delivered);
done:
  if (states)
    for (int t = 0; t < threads; t++)
      if (pr->free)
        pr->free(states[t]);
  free(states);
  block_mem_free(&m);
  return st;
}

int impactfit_sweep_run(const impactfit_sweep *s, const impactfit_sweep_run_params *rp, impactfit_sweep_rows_fn rows,
                        impactfit_sweep_failure_fn failure, void *ctx, impactfit_sweep_summary *summary,
                        impactfit_error *err) {
  if (!rows) {
    if (summary)
      memset(summary, 0, sizeof *summary);
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no sweep or no row callback given");
  }
  return run(s, rp, rows, NULL, failure, ctx, summary, err);
}

int impactfit_sweep_run_values(const impactfit_sweep *s, const impactfit_sweep_run_params *rp,
                               impactfit_sweep_values_fn values, void *ctx, impactfit_sweep_summary *summary,
                               impactfit_error *err) {
  if (!values) {
    if (summary)
      memset(summary, 0, sizeof *summary);
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no sweep or no values callback given");
  }
  return run(s, rp, NULL, values, NULL, ctx, summary, err);
}
