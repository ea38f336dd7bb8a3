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
 * The tasks (ranges of whole work units, guided sizes), the ring of their results and the writing
 * in task order are the library's scheduler (impactfit_sweep_tasks, sweep_io.h); this file is its
 * transport. The lead computes tasks too; it services messages from its poll hook (after each unit
 * its main thread computes) and while waiting, and receives rows with non-blocking receives, so
 * that it never waits for a worker that is computing. */
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
#include "sweep_exec.h"
#include "sweep_mpi.h"

enum { TAG_TASK = 11, TAG_CANCEL, TAG_STOP, TAG_RESULT, TAG_ROWS, TAG_FAILS };
#define QUEUE 2 /* tasks queued per worker: one in flight, one waiting */

static int mpi_on = 0;

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
  const char *who;
  long tasks = sweep_launch_tasks(&who);
  const char *procid = getenv("SLURM_PROCID");
  int first = !procid || strcmp(procid, "0") == 0; /* one message for the step, not one per task */
  if (!launched_by_mpi()) {
    if (tasks > 1) /* srun -n N without --mpi: N one-rank runs of the whole sweep */
      return first ? cli_input_error("sweep: started as one of %ld processes (%s=%ld) that MPI does not join: "
                                     "launch them with srun --mpi=pmix (or mpirun), or run one process per "
                                     "shard (--shard I/N)",
                                     tasks, who, tasks)
                   : CLI_INPUT;
    return 0;
  }
  int provided = 0;
  if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
    return cli_input_error("sweep: MPI_Init_thread failed");
  mpi_on = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  MPI_Comm_size(MPI_COMM_WORLD, size);
  if (*size == 1 && tasks > 1) { /* the launcher's processes are one-rank worlds each */
    MPI_Finalize();
    mpi_on = 0;
    return first ? cli_input_error("sweep: started as one of %ld processes (%s=%ld), but MPI sees one rank in each: "
                                   "the launcher and the MPI library do not speak the same PMI (Debian's OpenMPI "
                                   "needs srun --mpi=pmix; --mpi=pmi2 does not work with it)",
                                   tasks, who, tasks)
                 : CLI_INPUT;
  }
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

static void nap(void) {
  struct timespec t = {0, 100000}; /* 0.1 ms: waiting ranks leave the cores to the computing ones */
  nanosleep(&t, NULL);
}

/* ---- lead (rank 0): the library's scheduler (impactfit_sweep_tasks) with MPI as its transport ---- */
typedef struct recv_state {
  int on;              /* the result's rows and failures are being received */
  int interrupted;     /* its worker was stopped */
  MPI_Request rreq[2]; /* rows and failures */
} recv_state;

typedef struct lead {
  impactfit_sweep_run_params rp;
  impactfit_sweep_output *o;
  cli_progress *pr;
  int ranks, cancelled;
  impactfit_sweep_tasks *T;
  recv_state *recv; /* by slot of the scheduler's ring */
  int *outstanding;
} lead;

static void assign(lead *L, int w) {
  impactfit_sweep_part *p;
  while (L->outstanding[w] < QUEUE && (p = impactfit_sweep_tasks_claim(L->T, w))) {
    unsigned long long msg[3] = {p->task, p->first, p->count};
    MPI_Send(msg, 3, MPI_UNSIGNED_LONG_LONG, w, TAG_TASK, MPI_COMM_WORLD);
    L->outstanding[w]++;
  }
}

/* Once the scheduler stops: cancels the task in flight of every worker that has one. */
static void cancel_workers(lead *L) {
  if (L->cancelled || !impactfit_sweep_tasks_stopping(L->T))
    return;
  L->cancelled = 1;
  for (int w = 1; w < L->ranks; w++)
    if (L->outstanding[w] > 0)
      MPI_Send(NULL, 0, MPI_BYTE, w, TAG_CANCEL, MPI_COMM_WORLD);
}

static void begin_stop(lead *L, int status) {
  impactfit_sweep_tasks_stop(L->T, status);
  cancel_workers(L);
}

/* Writes the finished tasks at the head of the ring, in order. */
static void write_ready(lead *L) {
  impactfit_sweep_tasks_write(L->T);
  cancel_workers(L);
}

/* Posts the receive of n bytes into buf. */
static void post_recv(char *buf, size_t n, int src, int tag, MPI_Request *req) {
  MPI_Irecv(buf, (int)n, MPI_BYTE, src, tag, MPI_COMM_WORLD, req);
}

/* Makes room for a result's bytes. Out of memory: nothing to receive into, and MPI cannot drop a
 * message, so the job ends (the rows made durable stand; --resume continues). */
static void reserve(impactfit_sweep_part *p, size_t rows, size_t fails, int src) {
  if (impactfit_sweep_part_reserve(p, rows, fails)) {
    fprintf(stderr, "impactfit: error: sweep: out of memory for %zu bytes of rows from rank %d; resume with --resume\n",
            rows + fails, src);
    MPI_Abort(MPI_COMM_WORLD, CLI_NUMERIC);
  }
}

/* A result whose rows have arrived. */
static void received(lead *L, size_t i) {
  L->recv[i].on = 0;
  impactfit_sweep_tasks_done(L->T, impactfit_sweep_tasks_slot(L->T, i), L->recv[i].interrupted);
  cancel_workers(L);
}

/* Receives every result that has arrived, hands out tasks, writes what is ready. */
static void service(lead *L) {
  size_t window = impactfit_sweep_tasks_window(L->T);
  for (size_t i = 0; i < window; i++) { /* results whose rows are on the way */
    int done = 0;
    if (L->recv[i].on) {
      MPI_Testall(2, L->recv[i].rreq, &done, MPI_STATUSES_IGNORE);
      if (done)
        received(L, i);
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
    size_t i = (size_t)(h[0] % window);
    impactfit_sweep_part *p = impactfit_sweep_tasks_find(L->T, (size_t)h[0], w);
    L->outstanding[w]--;
    if (!p || L->recv[i].on) { /* a result nobody asked for */
      impactfit_sweep_part sink;
      memset(&sink, 0, sizeof sink);
      reserve(&sink, (size_t)h[2], (size_t)h[3], w);
      MPI_Recv(sink.rows, (int)h[2], MPI_BYTE, w, TAG_ROWS, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(sink.fails, (int)h[3], MPI_BYTE, w, TAG_FAILS, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      impactfit_sweep_part_free(&sink);
      begin_stop(L, IMPACTFIT_EIO);
      continue;
    }
    reserve(p, (size_t)h[2], (size_t)h[3], w);
    p->covered = (size_t)h[1];
    p->failed = (size_t)h[4];
    L->recv[i].interrupted = h[5] != 0;
    post_recv(p->rows, (size_t)h[2], w, TAG_ROWS, &L->recv[i].rreq[0]);
    post_recv(p->fails, (size_t)h[3], w, TAG_FAILS, &L->recv[i].rreq[1]);
    L->recv[i].on = 1;
    int done = 0;
    MPI_Testall(2, L->recv[i].rreq, &done, MPI_STATUSES_IGNORE);
    if (done)
      received(L, i);
  }
  write_ready(L);
  cli_sweep_test_hold(L->o);
  if (cli_signal_pending())
    begin_stop(L, IMPACTFIT_EINTR);
  for (int w = 1; w < L->ranks; w++)
    assign(L, w);
}

/* Collective: the largest thread count of the ranks (the scheduler sizes tasks with it). */
static int most_threads(const impactfit_sweep_run_params *rp) {
  int mine = rp->threads > 0 ? rp->threads : omp_get_max_threads(), most = mine;
  MPI_Allreduce(&mine, &most, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return most;
}

/* The poll hook of the lead's own tasks: services the other ranks. */
static int own_poll(void *ctx, size_t done, size_t failed) {
  lead *L = ctx;
  service(L);
  impactfit_sweep_output_state os;
  impactfit_sweep_output_get_state(L->o, &os);
  cli_progress_update(L->pr, os.rows + done, os.failed + failed);
  return impactfit_sweep_tasks_stopping(L->T);
}

/* Tasks still out or whose rows are on the way. */
static int in_flight(const lead *L) {
  int out = 0;
  for (int w = 1; w < L->ranks; w++)
    out += L->outstanding[w];
  for (size_t i = 0; i < impactfit_sweep_tasks_window(L->T); i++)
    out += L->recv[i].on;
  return out;
}

int sweep_mpi_lead(const impactfit_sweep *s, const impactfit_sweep_run_params *rp, impactfit_sweep_output *o,
                   cli_progress *pr, size_t *per_rank, impactfit_error *err) {
  lead L;
  memset(&L, 0, sizeof L);
  L.rp = *rp;
  L.rp.poll = own_poll; /* the lead's own tasks: their rows go to their slots, the hook services the ranks */
  L.rp.poll_ctx = &L;
  L.o = o;
  L.pr = pr;
  MPI_Comm_size(MPI_COMM_WORLD, &L.ranks);
  int status = impactfit_sweep_tasks_new(s, rp, L.ranks, most_threads(rp), o, per_rank, &L.T, err);
  if (!status) {
    L.recv = calloc(impactfit_sweep_tasks_window(L.T), sizeof *L.recv);
    L.outstanding = calloc((size_t)L.ranks, sizeof *L.outstanding);
    if (!L.recv || !L.outstanding)
      status = IMPACTFIT_ENOMEM;
  }
  for (int w = 1; w < L.ranks && !status; w++)
    assign(&L, w);
  while (!status && !impactfit_sweep_tasks_stopping(L.T) && !impactfit_sweep_tasks_finished(L.T)) {
    service(&L);
    impactfit_sweep_part *p = impactfit_sweep_tasks_claim(L.T, 0);
    if (!p) {
      nap();
      continue;
    }
    impactfit_error e2;
    impactfit_error_clear(&e2);
    int st = impactfit_sweep_part_run(s, &L.rp, p, &e2);
    impactfit_sweep_tasks_done(L.T, p, 0);
    if (st && st != IMPACTFIT_EINTR) {
      if (err)
        *err = e2;
      begin_stop(&L, st);
    }
    write_ready(&L);
  }
  /* wait for the tasks still out (and the rows on the way), then release the workers */
  while (!status && in_flight(&L)) {
    service(&L);
    nap();
  }
  if (!status) {
    write_ready(&L);
    status = impactfit_sweep_tasks_status(L.T);
  }
  for (int w = 1; w < L.ranks; w++)
    MPI_Send(NULL, 0, MPI_BYTE, w, TAG_STOP, MPI_COMM_WORLD);
  impactfit_sweep_tasks_free(L.T);
  free(L.recv);
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

/* A result being sent: two alternate, so that the next task is computed while the lead has not
 * received the last one yet (the lead services messages only between its own units). */
typedef struct out_buf {
  impactfit_sweep_part t;
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
  most_threads(rp); /* collective, with the lead */
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
    impactfit_sweep_part *t = &b->t;
    impactfit_sweep_part_start(t, (size_t)task[1], (size_t)task[2]);
    int interrupted = 1;
    if (!W.cancelled && !cli_signal_pending()) {
      impactfit_sweep_run_params q = *rp;
      q.poll = worker_poll;
      q.poll_ctx = &W;
      impactfit_error e2;
      impactfit_error_clear(&e2);
      int st = impactfit_sweep_part_run(s, &q, t, &e2);
      interrupted = st == IMPACTFIT_EINTR;
      if (st && !interrupted) {
        status = st;
        if (err)
          *err = e2;
        t->bad = 1;
      }
    }
    if (t->rows_len > INT_MAX || t->fails_len > INT_MAX)
      t->bad = 1;
    if (t->bad) /* nothing usable: the lead stops the run */
      t->rows_len = t->fails_len = t->covered = 0, interrupted = 1;
    if (cli_signal_pending())
      interrupted = 1;
    unsigned long long h[6] = {task[0],      t->covered, t->rows_len,
                               t->fails_len, t->failed,  (unsigned long long)interrupted};
    memcpy(b->h, h, sizeof h);
    MPI_Isend(b->h, 6, MPI_UNSIGNED_LONG_LONG, 0, TAG_RESULT, MPI_COMM_WORLD, &b->req[0]);
    MPI_Isend(t->rows, (int)t->rows_len, MPI_BYTE, 0, TAG_ROWS, MPI_COMM_WORLD, &b->req[1]);
    MPI_Isend(t->fails, (int)t->fails_len, MPI_BYTE, 0, TAG_FAILS, MPI_COMM_WORLD, &b->req[2]);
    b->busy = 1;
    while (take_message(&W, 0)) /* collect queued tasks and cancels without waiting */
      ;
  }
  for (int i = 0; i < 2; i++) {
    out_wait(&ob[i]);
    impactfit_sweep_part_free(&ob[i].t);
  }
  if (!status && cli_signal_pending())
    status = IMPACTFIT_EINTR;
  return status;
}
