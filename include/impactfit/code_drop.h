/* SPDX-License-Identifier: GPL-3.0-or-later */
/* impactfit — a drop test on a registry entry: the bounce sequence a code (codes.h) produces at the user's
 * step, the e the user's fit reports, and the input whose fitted e equals the asked e.
 *
 * A request of codes.h (the model, settings, bodies, integrator, dt, gravity; e for the inverse, else the
 * free parameter's value or the settings' own) and drop.h's parameters (height, bounces, peak threshold,
 * time bound, reading). The stepper is the entry's build op (the same one a single impact's answer steps),
 * with the request's gravity (9.81 m/s² when the request gives none): the drop is stepped by drop.h's
 * impactfit_drop_run; impactfit_drop_stats_run gives the determined bounces and the fit's distribution
 * over `releases` releases spread over one step of the first impact's travel. The ball rests (drop.h's
 * rest_steps, when p->rest_steps is 0) when one impact lasts longer than the first fall's flight, 2 √(2 h/g)
 * (at least 100 steps).
 *
 * The inverse (req->e a number): the value whose fit of the exact release equals e
 * (impactfit_drop_solve with samples 0) when that release's whole sequence is determined (then the user's
 * one drop gives e); else the value whose mean fit over the releases equals e (samples K: one drop then
 * gives e ± the sd). `on` says which. An e in a jump of the fit (ENOCONV of drop.h) is answered with the
 * side closer to e (`jump` 1, both sides in the note); an e no value reaches is not an error: reachable 0
 * and the note (NOT REACHABLE first) gives the fits met. */
#ifndef IMPACTFIT_CODE_DROP_H
#define IMPACTFIT_CODE_DROP_H

#include "impactfit/codes.h"
#include "impactfit/drop.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the inverse was solved on. */
enum {
  IMPACTFIT_CODE_DROP_FORWARD = 0, /* no inverse: the value was given */
  IMPACTFIT_CODE_DROP_RELEASE = 1, /* the exact release's fit (its sequence is determined to its end) */
  IMPACTFIT_CODE_DROP_MEAN = 2     /* the mean fit over the releases */
};

typedef struct impactfit_code_drop_answer {
  const impactfit_code_model *model;
  const char *version; /* the version answered (borrowed) */
  int run_here;        /* 1: that version was run here; 0: formula only */
  const impactfit_code_integrator *integrator;
  double dt, gravity, mass; /* s, m/s², kg (the motion's effective mass) */
  impactfit_drop_params params;
  int releases;               /* K of the distribution */
  double e_asked;             /* NaN: forward */
  int on;                     /* IMPACTFIT_CODE_DROP_FORWARD, _RELEASE or _MEAN */
  int reachable;              /* 1: value gives e_asked (forward: 1) */
  int jump;                   /* 1: e lies in a jump of the fit: value is the side closer to e */
  double value;               /* the free parameter (NaN when unreachable) */
  impactfit_drop_stats stats; /* at value: the exact release (stats.exact), determined, the distribution */
  char *input;                /* the text to paste ("" when unreachable) */
  char *note;                 /* what the user must know, the most important sentence first */
  char *assumes;              /* what the answer assumes (as impactfit_code_answer.assumes; added after ceb18c0) */
} impactfit_code_drop_answer;

/* The drop test of the request's model (req->v is not used; req->gravity 0 means 9.81). releases 0: 16;
 * 1 … 4096. Returns 0 (also when e is out of reach: the answer says so), EINVAL (invalid input, a model or
 * integrator that does not model gravity, with the message of codes.h), or a numerical status (ENONFINITE
 * when the value's step blows up in forward mode). The answer is zeroed first; free it with
 * impactfit_code_drop_free (also after a failure). */
IMPACTFIT_EXPORT int impactfit_code_drop(const impactfit_code_request *req, const impactfit_drop_params *p,
                                         int releases, impactfit_code_drop_answer *ans, impactfit_error *err);
/* Releases the answer's texts and resets them (NULL: no-op; twice is safe). */
IMPACTFIT_EXPORT void impactfit_code_drop_free(impactfit_code_drop_answer *ans);
/* The name of a drop.h end: "counted", "low", "rest", "time". */
IMPACTFIT_EXPORT const char *impactfit_drop_end_name(int end);

#ifdef __cplusplus
}
#endif
#endif /* IMPACTFIT_CODE_DROP_H */
