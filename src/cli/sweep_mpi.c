/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `impactfit sweep` over MPI ranks (sweep_mpi.h); compiled with -DIMPACTFIT_MPI=ON only.
 *
 * Protocol (MPI_COMM_WORLD, rank 0 = lead):
 *   lead -> worker  TASK {task, first, count}   at most QUEUE queued per worker
 *                   CANCEL {}                   stop the task in flight (a signal somewhere)
 *                   STOP {}                     no more tasks (sent when the worker has none queued)
 *   worker -> lead  RESULT {task, covered, len, flen, failed, interrupted}, then ROWS (len bytes,
 *                   the rows of [first, first + covered)) and FAILS (flen bytes: "index status
 *                   message\n" per failed point)
 * A task is a range of whole groups of G = min(L, B) points (L the innermost run length of a problem
 * with runs, else 1; B the block size): ranges aligned to multiples of G are unions of whole work
 * units, so the rows are those of a serial run. Tasks are handed out in increasing order with
 * guided sizes: about four units per thread of the ranks, but at most the remaining groups over
 * twice the ranks, so that the last tasks are short and the ranks finish together. The lead
 * computes tasks too; it services messages from its poll hook (after each unit its main thread
 * computes) and while waiting, and receives rows with non-blocking receives, so that it never
 * waits for a worker that is computing. Results are kept in a ring of slots and written in task
 * order. */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "signals.h"
#include "sweep_mpi.h"

enum { TAG_TASK = 11, TAG_CANCEL, TAG_STOP, TAG_RESULT, TAG_ROWS, TAG_FAILS };
#define QUEUE 2 /* tasks queued per worker: one in flight, one waiting */

static int mpi_on = 0;

int sweep_mpi_built(void) { return 1; }

static int launched_by_mpi(void) {
  static const char *vars[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE", "MPI_LOCALNRANKS"};
  for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
    if (getenv(vars[i]))
      return 1;
  return 0;
}

int sweep_mpi_init(int *rank, int *size) {
  *rank = 0;
  *size = 1;
  if (!launched_by_mpi())
    return 0;
  int provided = 0;
  if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
    return cli_input_error("sweep: MPI_Init_thread failed");
  mpi_on = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  MPI_Comm_size(MPI_COMM_WORLD, size);
  if (provided<MPI_THREAD_FUNNELED && * size> 1) {
    if (*rank == 0)
      cli_input_error("sweep: the MPI library does not provide MPI_THREAD_FUNNELED (OpenMP inside ranks)");
    MPI_Finalize();
    mpi_on = 0;
    return CLI_INPUT;
  }
  return 0;
}

void sweep_mpi_finalize(void) {
  if (mpi_on)
    MPI_Finalize();
  mpi_on = 0;
}

int sweep_mpi_max(int rc) {
  int out = rc;
  if (mpi_on)
    MPI_Allreduce(&rc, &out, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return out;
}

void sweep_mpi_bcast(size_t *v, int n) {
  if (!mpi_on)
    return;
  unsigned long long buf[16];
  for (int i = 0; i < n && i < 16; i++)
    buf[i] = v[i];
  MPI_Bcast(buf, n, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
  for (int i = 0; i < n && i < 16; i++)
    v[i] = (size_t)buf[i];
}

int sweep_mpi_same_hash(const char *hash) {
  if (!mpi_on)
    return 1;
  char h0[17];
  snprintf(h0, sizeof h0, "%s", hash);
  MPI_Bcast(h0, 17, MPI_CHAR, 0, MPI_COMM_WORLD);
  int same = strcmp(h0, hash) == 0, all = same;
  MPI_Allreduce(&same, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return all;
}

double sweep_mpi_sum(double v) {
  double out = v;
  if (mpi_on)
    MPI_Reduce(&v, &out, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  return out;
}

static void nap(void) {
  struct timespec t = {0, 100000}; /* 0.1 ms: waiting ranks leave the cores to the computing ones */
  nanosleep(&t, NULL);
}

/* ---- growing byte buffers ---- */
typedef struct bytes {
  char *p;
  size_t len, cap;
} bytes;

static int bytes_add(bytes *b, const char *p, size_t n) {
  if (b->len + n + 1 > b->cap) {
    size_t cap = 2 * (b->len + n + 1);
    char *q = realloc(b->p, cap);
    if (!q)
      return -1;
    b->p = q;
    b->cap = cap;
  }
  memcpy(b->p + b->len, p, n);
  b->len += n;
  return 0;
}

/* ---- one task computed in this process ---- */
typedef struct task_out {
  bytes rows, fails;
  size_t first, covered, failed;
  int oom;
} task_out;

static int task_rows(void *ctx, size_t first, size_t count, const char *rows, size_t len) {
  task_out *t = ctx;
  if (first != t->first + t->covered || bytes_add(&t->rows, rows, len)) {
    t->oom = 1;
    return IMPACTFIT_EIO;
  }
  t->covered = first + count - t->first;
  return 0;
}

static void task_failure(void *ctx, size_t index, int status, const char *message) {
  task_out *t = ctx;
  char line[700];
  int n = snprintf(line, sizeof line, "%zu %d %s\n", index, status, message ? message : "");
  if (n < 0 || (size_t)n >= sizeof line)
    n = (int)sizeof line - 1, line[n - 1] = '\n';
  t->failed++;
  if (bytes_add(&t->fails, line, (size_t)n))
    t->oom = 1;
}

/* Passes the failures serialized by task_failure to the writer. */
static void replay_failures(impactfit_sweep_output *o, const char *p, size_t len) {
  const char *end = p + len;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    if (!nl)
      break;
    char line[700];
    size_t l = (size_t)(nl - p) < sizeof line - 1 ? (size_t)(nl - p) : sizeof line - 1;
    memcpy(line, p, l);
    line[l] = '\0';
    size_t index;
    int status, off = 0;
    if (sscanf(line, "%zu %d %n", &index, &status, &off) == 2)
      impactfit_sweep_output_failure(o, index, status, line + off);
    p = nl + 1;
  }
}

/* ---- lead (rank 0) ---- */
typedef struct slot {
  int state; /* 0 free, 1 assigned, 3 receiving its result, 2 done */
  int rank;  /* who computes it */
  size_t task, first, count;
  task_out out;
  MPI_Request rreq[2]; /* rows and failures being received */
  int interrupted;
} slot;

typedef struct lead {
  const impactfit_sweep *s;
  impactfit_sweep_run_params rp;
  impactfit_sweep_output *o;
  cli_progress *pr;
  int ranks;
  size_t G, S, first, last, next_pos, next_task, next_write, window; /* S: groups per task at most */
  slot *ring;
  int *outstanding;
  size_t *per_rank; /* points written, by the rank that computed them */
  int stopping, write_blocked;
  int status; /* first error (EIO, ENOMEM) or EINTR */
} lead;

/* 1 when every point is handed out and every task written. */
static int all_written(const lead *L) { return L->next_pos >= L->last && L->next_write == L->next_task; }

static slot *claim(lead *L, int rank) {
  if (L->stopping || L->next_pos >= L->last || L->next_task >= L->next_write + L->window)
    return NULL;
  /* guided: S groups, fewer towards the end (the remaining groups over twice the ranks) */
  size_t g0 = L->next_pos / L->G, groups_left = (L->last - 1) / L->G - g0 + 1;
  size_t q = (groups_left + 2 * (size_t)L->ranks - 1) / (2 * (size_t)L->ranks);
  if (q > L->S)
    q = L->S;
  if (q < 1)
    q = 1;
  size_t end = (g0 + q) * L->G;
  if (end > L->last)
    end = L->last;
  size_t t = L->next_task++;
  slot *sl = &L->ring[t % L->window];
  sl->state = 1;
  sl->rank = rank;
  sl->task = t;
  sl->first = L->next_pos;
  sl->count = end - L->next_pos;
  L->next_pos = end;
  sl->out.rows.len = sl->out.fails.len = 0;
  sl->out.first = sl->first;
  sl->out.covered = sl->out.failed = 0;
  sl->out.oom = 0;
  sl->interrupted = 0;
  return sl;
}

static void assign(lead *L, int w) {
  slot *sl;
  while (L->outstanding[w] < QUEUE && (sl = claim(L, w))) {
    unsigned long long msg[3] = {sl->task, sl->first, sl->count};
    MPI_Send(msg, 3, MPI_UNSIGNED_LONG_LONG, w, TAG_TASK, MPI_COMM_WORLD);
    L->outstanding[w]++;
  }
}

static void begin_stop(lead *L, int status) {
  if (L->stopping)
    return;
  L->stopping = 1;
  if (!L->status)
    L->status = status;
  for (int w = 1; w < L->ranks; w++)
    if (L->outstanding[w] > 0)
      MPI_Send(NULL, 0, MPI_BYTE, w, TAG_CANCEL, MPI_COMM_WORLD);
}

/* Writes the finished tasks at the head of the ring, in order. */
static void write_ready(lead *L) {
  while (!L->write_blocked && L->next_write < L->next_task) {
    slot *sl = &L->ring[L->next_write % L->window];
    if (sl->state != 2 || sl->task != L->next_write)
      return;
    if (sl->out.oom) {
      L->write_blocked = 1;
      begin_stop(L, IMPACTFIT_ENOMEM);
      return;
    }
    replay_failures(L->o, sl->out.fails.p, sl->out.fails.len);
    if ((sl->out.covered || sl->out.rows.len) &&
        impactfit_sweep_output_rows(L->o, sl->first, sl->out.covered, sl->out.rows.p ? sl->out.rows.p : "",
                                    sl->out.rows.len)) {
      L->write_blocked = 1;
      begin_stop(L, IMPACTFIT_EIO);
      return;
    }
    if (sl->out.covered < sl->count) { /* an interrupted task ends what can be written */
      L->write_blocked = 1;
      begin_stop(L, IMPACTFIT_EINTR);
      return;
    }
    if (L->per_rank) /* rows, i.e. points computed (a shard computes part of each task) */
      for (size_t i = 0; i < sl->out.rows.len; i++)
        L->per_rank[sl->rank] += sl->out.rows.p[i] == '\n';
    sl->state = 0;
    L->next_write++;
  }
}

/* Posts the receive of n bytes into b. Out of memory: nothing to receive into, and MPI cannot drop
 * a message, so the job ends (the rows made durable stand; --resume continues). */
static void post_recv(bytes *b, size_t n, int src, int tag, MPI_Request *req) {
  if (n + 1 > b->cap) {
    char *q = realloc(b->p, n + 1);
    if (!q) {
      fprintf(stderr,
              "impactfit: error: sweep: out of memory for %zu bytes of rows from rank %d; resume with "
              "--resume\n",
              n, src);
      MPI_Abort(MPI_COMM_WORLD, CLI_NUMERIC);
    }
    b->p = q;
    b->cap = n + 1;
  }
  b->len = n;
  MPI_Irecv(b->p, (int)n, MPI_BYTE, src, tag, MPI_COMM_WORLD, req);
}

/* A result whose rows have arrived. */
static void received(lead *L, slot *sl) {
  sl->state = 2;
  if (sl->interrupted) /* the worker was interrupted (a signal on its node): stop everybody */
    begin_stop(L, IMPACTFIT_EINTR);
}

/* Receives every result that has arrived, hands out tasks, writes what is ready. */
static void service(lead *L) {
  for (size_t i = 0; i < L->window; i++) { /* results whose rows are on the way */
    slot *sl = &L->ring[i];
    int done = 0;
    if (sl->state == 3) {
      MPI_Testall(2, sl->rreq, &done, MPI_STATUSES_IGNORE);
      if (done)
        received(L, sl);
    }
  }
  for (;;) {
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &flag, &st);
    if (!flag)
      break;
    int w = st.MPI_SOURCE;
    unsigned long long h[6];
    MPI_Recv(h, 6, MPI_UNSIGNED_LONG_LONG, w, TAG_RESULT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    slot *sl = &L->ring[h[0] % L->window];
    L->outstanding[w]--;
    if (!(sl->state == 1 && sl->task == h[0] && sl->rank == w)) { /* a result nobody asked for */
      bytes sink = {NULL, 0, 0};
      MPI_Request r;
      post_recv(&sink, (size_t)h[2], w, TAG_ROWS, &r);
      MPI_Wait(&r, MPI_STATUS_IGNORE);
      post_recv(&sink, (size_t)h[3], w, TAG_FAILS, &r);
      MPI_Wait(&r, MPI_STATUS_IGNORE);
      free(sink.p);
      begin_stop(L, IMPACTFIT_EIO);
      continue;
    }
    sl->out.covered = (size_t)h[1];
    sl->out.failed = (size_t)h[4];
    sl->interrupted = h[5] != 0;
    post_recv(&sl->out.rows, (size_t)h[2], w, TAG_ROWS, &sl->rreq[0]);
    post_recv(&sl->out.fails, (size_t)h[3], w, TAG_FAILS, &sl->rreq[1]);
    sl->state = 3;
    int done = 0;
    MPI_Testall(2, sl->rreq, &done, MPI_STATUSES_IGNORE);
    if (done)
      received(L, sl);
  }
  write_ready(L);
  if (cli_signal_pending())
    begin_stop(L, IMPACTFIT_EINTR);
  for (int w = 1; w < L->ranks; w++)
    assign(L, w);
}

/* Collective: groups of G points per task at most, about four units per thread of the ranks. */
static size_t task_groups(const impactfit_sweep *s, const impactfit_sweep_run_params *rp, size_t *G) {
  int mine = rp->threads > 0 ? rp->threads : omp_get_max_threads(), most = mine;
  MPI_Allreduce(&mine, &most, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  const impactfit_sweep_problem *pr = impactfit_sweep_get_problem(s);
  size_t B = impactfit_sweep_block_size(s, rp->block);
  size_t L = pr->solve_run ? impactfit_sweep_get_axis(s, impactfit_sweep_axis_count(s) - 1)->count : 1;
  *G = L < B ? L : B;
  size_t S = 4 * (size_t)most;
  while (S > 1 && S * *G > 262144) /* bounded memory per task */
    S /= 2;
  return S;
}

/* The lead's own task: rows to its slot, the poll hook services the other ranks. */
typedef struct own_ctx {
  lead *L;
  task_out *t;
} own_ctx;

static int own_poll(void *ctx, size_t done, size_t failed) {
  lead *L = ((own_ctx *)ctx)->L;
  service(L);
  impactfit_sweep_output_state os;
  impactfit_sweep_output_get_state(L->o, &os);
  cli_progress_update(L->pr, os.rows + done, os.failed + failed);
  return L->stopping;
}
static int own_rows(void *ctx, size_t first, size_t count, const char *rows, size_t len) {
  return task_rows(((own_ctx *)ctx)->t, first, count, rows, len);
}
static void own_failure(void *ctx, size_t index, int status, const char *message) {
  task_failure(((own_ctx *)ctx)->t, index, status, message);
}

int sweep_mpi_lead(const impactfit_sweep *s, const impactfit_sweep_run_params *rp, impactfit_sweep_output *o,
                   cli_progress *pr, size_t *per_rank, impactfit_error *err) {
  lead L;
  memset(&L, 0, sizeof L);
  L.per_rank = per_rank;
  L.s = s;
  L.rp = *rp;
  L.o = o;
  L.pr = pr;
  MPI_Comm_size(MPI_COMM_WORLD, &L.ranks);
  L.first = L.next_pos = rp->first;
  L.last = rp->count ? rp->first + rp->count : impactfit_sweep_point_count(s);
  L.S = task_groups(s, rp, &L.G);
  L.window = 4 * (size_t)L.ranks + 4;
  L.ring = calloc(L.window, sizeof *L.ring);
  L.outstanding = calloc((size_t)L.ranks, sizeof *L.outstanding);
  if (!L.ring || !L.outstanding) {
    L.stopping = 1;
    L.status = IMPACTFIT_ENOMEM;
  }
  for (int w = 1; w < L.ranks && !L.stopping; w++)
    assign(&L, w);
  while (!L.stopping && !all_written(&L)) {
    service(&L);
    slot *sl = claim(&L, 0);
    if (!sl) {
      nap();
      continue;
    }
    impactfit_sweep_run_params q = L.rp;
    q.first = sl->first;
    q.count = sl->count;
    q.work = sl->count < 1000000 ? sl->count : 1000000; /* one parallel block per task */
    q.poll = own_poll;
    impactfit_error e2;
    impactfit_error_clear(&e2);
    own_ctx oc = {&L, &sl->out};
    int st = impactfit_sweep_run(s, &q, own_rows, own_failure, &oc, NULL, &e2);
    sl->state = 2;
    if (st && st != IMPACTFIT_EINTR) {
      if (err)
        *err = e2;
      begin_stop(&L, st);
    }
    write_ready(&L);
  }
  /* wait for the tasks still out (and the rows on the way), then release the workers */
  while (1) {
    int out = 0;
    for (int w = 1; w < L.ranks; w++)
      out += L.outstanding[w];
    for (size_t i = 0; L.ring && i < L.window; i++)
      out += L.ring[i].state == 3;
    if (!out)
      break;
    service(&L);
    nap();
  }
  write_ready(&L);
  for (int w = 1; w < L.ranks; w++)
    MPI_Send(NULL, 0, MPI_BYTE, w, TAG_STOP, MPI_COMM_WORLD);
  int status = L.status;
  if (!status && !all_written(&L))
    status = IMPACTFIT_EINTR;
  if (L.ring)
    for (size_t i = 0; i < L.window; i++) {
      free(L.ring[i].out.rows.p);
      free(L.ring[i].out.fails.p);
    }
  free(L.ring);
  free(L.outstanding);
  if (status == IMPACTFIT_EIO && err && !err->message[0])
    snprintf(err->message, sizeof err->message, "%.500s",
             impactfit_sweep_output_error(o)[0] ? impactfit_sweep_output_error(o) : "a rank sent an unexpected result");
  if (status == IMPACTFIT_ENOMEM && err && !err->message[0])
    snprintf(err->message, sizeof err->message, "out of memory for the results of the ranks");
  return status;
}

/* ---- workers (ranks > 0) ---- */
typedef struct worker {
  unsigned long long queue[QUEUE][3];
  int nq, cancelled, stopped;
} worker;

/* Takes one message from rank 0 if there is one (blocking: waits for it). */
static int take_message(worker *W, int block) {
  for (;;) {
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st);
    if (!flag) {
      if (!block)
        return 0;
      nap();
      continue;
    }
    if (st.MPI_TAG == TAG_TASK && W->nq < QUEUE) {
      MPI_Recv(W->queue[W->nq++], 3, MPI_UNSIGNED_LONG_LONG, 0, TAG_TASK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (st.MPI_TAG == TAG_CANCEL) {
      MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_CANCEL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      W->cancelled = 1;
    } else if (st.MPI_TAG == TAG_STOP) {
      MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_STOP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      W->stopped = 1;
    } else {
      return 0; /* a task while the queue is full: rank 0 never sends one */
    }
    return 1;
  }
}

static int worker_poll(void *ctx, size_t done, size_t failed) {
  (void)done;
  (void)failed;
  worker *W = ctx;
  int flag = 0;
  MPI_Iprobe(0, TAG_CANCEL, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
  if (flag) {
    MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_CANCEL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    W->cancelled = 1;
  }
  return W->cancelled || cli_signal_pending();
}

typedef struct worker_ctx {
  worker *W;
  task_out *t;
} worker_ctx;

static int wc_rows(void *ctx, size_t first, size_t count, const char *rows, size_t len) {
  return task_rows(((worker_ctx *)ctx)->t, first, count, rows, len);
}
static void wc_failure(void *ctx, size_t index, int status, const char *message) {
  task_failure(((worker_ctx *)ctx)->t, index, status, message);
}
static int wc_poll(void *ctx, size_t done, size_t failed) { return worker_poll(((worker_ctx *)ctx)->W, done, failed); }

/* A result being sent: two alternate, so that the next task is computed while the lead has not
 * received the last one yet (the lead services messages only between its own units). */
typedef struct out_buf {
  task_out t;
  unsigned long long h[6];
  MPI_Request req[3];
  int busy;
} out_buf;

static void out_wait(out_buf *b) {
  if (b->busy)
    MPI_Waitall(3, b->req, MPI_STATUSES_IGNORE);
  b->busy = 0;
}

int sweep_mpi_work(const impactfit_sweep *s, const impactfit_sweep_run_params *rp, impactfit_error *err) {
  worker W;
  memset(&W, 0, sizeof W);
  size_t G;
  task_groups(s, rp, &G); /* collective, with the lead */
  out_buf ob[2];
  memset(ob, 0, sizeof ob);
  int status = 0, k = 0;
  while (!W.stopped) {
    if (W.nq == 0) {
      take_message(&W, 1);
      continue;
    }
    unsigned long long task[3];
    memcpy(task, W.queue[0], sizeof task);
    memmove(W.queue[0], W.queue[1], (size_t)(QUEUE - 1) * sizeof W.queue[0]);
    W.nq--;
    out_buf *b = &ob[k];
    k ^= 1;
    out_wait(b);
    task_out *t = &b->t;
    t->rows.len = t->fails.len = 0;
    t->first = (size_t)task[1];
    t->covered = t->failed = 0;
    t->oom = 0;
    int interrupted = 1;
    if (!W.cancelled && !cli_signal_pending()) {
      impactfit_sweep_run_params q = *rp;
      q.first = (size_t)task[1];
      q.count = (size_t)task[2];
      q.work = q.count < 1000000 ? q.count : 1000000; /* one parallel block per task */
      q.poll = wc_poll;
      worker_ctx wc = {&W, t};
      impactfit_error e2;
      impactfit_error_clear(&e2);
      int st = impactfit_sweep_run(s, &q, wc_rows, wc_failure, &wc, NULL, &e2);
      interrupted = st == IMPACTFIT_EINTR;
      if (st && !interrupted) {
        status = st;
        if (err)
          *err = e2;
        t->oom = 1;
      }
    }
    if (t->rows.len > INT_MAX || t->fails.len > INT_MAX)
      t->oom = 1;
    if (t->oom) /* nothing usable: the lead stops the run */
      t->rows.len = t->fails.len = t->covered = 0, interrupted = 1;
    if (cli_signal_pending())
      interrupted = 1;
    unsigned long long h[6] = {task[0],      t->covered, t->rows.len,
                               t->fails.len, t->failed,  (unsigned long long)interrupted};
    memcpy(b->h, h, sizeof h);
    MPI_Isend(b->h, 6, MPI_UNSIGNED_LONG_LONG, 0, TAG_RESULT, MPI_COMM_WORLD, &b->req[0]);
    MPI_Isend(t->rows.p, (int)t->rows.len, MPI_BYTE, 0, TAG_ROWS, MPI_COMM_WORLD, &b->req[1]);
    MPI_Isend(t->fails.p, (int)t->fails.len, MPI_BYTE, 0, TAG_FAILS, MPI_COMM_WORLD, &b->req[2]);
    b->busy = 1;
    while (take_message(&W, 0)) /* collect queued tasks and cancels without waiting */
      ;
  }
  for (int i = 0; i < 2; i++) {
    out_wait(&ob[i]);
    free(ob[i].t.rows.p);
    free(ob[i].t.fails.p);
  }
  if (!status && cli_signal_pending())
    status = IMPACTFIT_EINTR;
  return status;
}
