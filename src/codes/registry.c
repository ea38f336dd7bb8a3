/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The code registry (include/impactfit/codes.h): the codes of codes.def, version keys, the lookup of a
 * model with its messages ("known: ...", "did you mean"), integrators, inputs and the stepper types the
 * models use. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../common/common_impl.h"
#include "codes_impl.h"

static const impactfit_code *const codes[] = {
#define X(code) &impactfit__code_##code,
#include "codes.def"
#undef X
};
#define N_CODES (sizeof codes / sizeof codes[0])

size_t impactfit_code_count(void) { return N_CODES; }

const impactfit_code *impactfit_code_at(size_t i) { return i < N_CODES ? codes[i] : NULL; }

const impactfit_code *impactfit_code_from_name(const char *name) {
  for (size_t i = 0; name && i < N_CODES; i++)
    if (strcasecmp(codes[i]->name, name) == 0)
      return codes[i];
  return NULL;
}

int impactfit__unknown_name(const char *what, const char *name, const char *const *names, size_t n,
                            impactfit_error *err) {
  impactfit_text list = IMPACTFIT_TEXT_INIT;
  for (size_t i = 0; i < n; i++)
    impactfit_text_appendf(&list, "%s%s", i ? ", " : "", names[i]);
  const char *close = name ? impactfit_closest_name(name, names, n) : NULL;
  int st = IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "unknown %s '%s' (known: %s)%s%s%s", what, name ? name : "",
                           impactfit_text_str(&list), close ? "; did you mean '" : "", close ? close : "",
                           close ? "'?" : "");
  impactfit_text_free(&list);
  return st;
}

int impactfit_code_lookup(const char *name, const impactfit_code **out, impactfit_error *err) {
  if (!out)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no output given");
  if ((*out = impactfit_code_from_name(name)))
    return 0;
  const char *names[N_CODES];
  for (size_t i = 0; i < N_CODES; i++)
    names[i] = codes[i]->name;
  return impactfit__unknown_name("code", name, names, N_CODES, err);
}

/* ---------------------------------------------------------------- version keys */

long impactfit_code_version_dotted(const char *version) {
  if (!version)
    return 0;
  long part[3] = {0, 0, 0};
  int n = 0;
  const char *s = version;
  while (*s && !isdigit((unsigned char)*s))
    s++;
  if (!*s)
    return 0;
  while (n < 3 && isdigit((unsigned char)*s)) {
    char *end;
    long x = strtol(s, &end, 10);
    if (x < 0 || x > (n ? 999 : 999999999)) /* the minor and patch parts up to 999 */
      return 0;
    part[n++] = x;
    s = end;
    if (*s != '.')
      break;
    s++;
  }
  return part[0] * 1000000L + part[1] * 1000L + part[2];
}

/* DDMonYYYY (with an optional "stable_" before it and anything after it) */
static long day_month_year(const char *s) {
  static const char *const mon[] = {"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"};
  char *end;
  long d = strtol(s, &end, 10);
  for (int i = 0; i < 12; i++)
    if (strncasecmp(end, mon[i], 3) == 0) {
      long y = strtol(end + 3, NULL, 10);
      return y >= 1990 && y < 2100 && d >= 1 && d <= 31 ? y * 10000 + (i + 1) * 100 + d : 0;
    }
  return 0;
}

long impactfit_code_version_date(const char *version) {
  if (!version || !*version)
    return 0;
  const char *s = version;
  if (strncmp(s, "stable_", 7) == 0)
    s += 7;
  if (!isdigit((unsigned char)s[0]))
    return 0;
  char *end;
  long d = strtol(s, &end, 10);
  if (isalpha((unsigned char)end[0]) && isalpha((unsigned char)end[1]) && isalpha((unsigned char)end[2]))
    return day_month_year(s);
  if (d >= 19900101 && d < 21000000 && (*end == 0 || *end == '_')) /* YYYYMMDD */
    return d;
  if (d >= 1990 && d < 2100 && *end == '-') { /* YYYY-MM-DD */
    long mo = strtol(end + 1, &end, 10);
    if (*end == '-') {
      long dd = strtol(end + 1, NULL, 10);
      if (mo >= 1 && mo <= 12 && dd >= 1 && dd <= 31)
        return d * 10000 + mo * 100 + dd;
    }
  }
  return 0;
}

/* ---------------------------------------------------------------- models */

size_t impactfit_code_model_count(void) {
  size_t n = 0;
  for (size_t i = 0; i < N_CODES; i++)
    n += codes[i]->n_models;
  return n;
}

const impactfit_code_model *impactfit_code_model_at(size_t i) {
  for (size_t k = 0; k < N_CODES; k++) {
    if (i < codes[k]->n_models)
      return &codes[k]->models[i];
    i -= codes[k]->n_models;
  }
  return NULL;
}

static int in_range(const impactfit_code_model *md, long key) {
  return impactfit_version_in_range(key, md->version_min, md->version_max);
}

int impactfit_code_model_run_for(const impactfit_code_model *md, const char *version) {
  if (!md || !md->run_min)
    return 0;
  const char *v = version && *version ? version : md->code->default_version;
  return impactfit_version_in_range(md->code->version_key(v), md->run_min, md->run_max);
}

/* the distinct model names of a code (model NULL), or the options of one model, in a version range (key
 * 0: any), for messages: 'a', 'b' into buf; into names[] (at most max) as well when given */
static size_t list_models(const impactfit_code *code, long key, const char *model, impactfit_text *buf,
                          const char **names, size_t max) {
  size_t count = 0;
  for (size_t i = 0; i < code->n_models; i++) {
    const impactfit_code_model *md = &code->models[i];
    if ((key && !in_range(md, key)) || (model && strcmp(md->model, model)))
      continue;
    const char *name = model ? md->option : md->model;
    int seen = 0;
    for (size_t j = 0; j < i && !seen; j++) {
      const impactfit_code_model *o = &code->models[j];
      seen = (!key || in_range(o, key)) && (!model || !strcmp(o->model, model)) &&
             !strcmp(model ? o->option : o->model, name);
    }
    if (seen)
      continue;
    impactfit_text_appendf(buf, "%s'%s'", buf->len ? ", " : "", name);
    if (names && count < max)
      names[count++] = name;
  }
  return count;
}

/* The model as the registry names it: exact or ignoring case, or without the code's prefix. NULL: none. */
static const char *canonical_model(const impactfit_code *code, const char *model) {
  for (int pass = 0; pass < 2; pass++) {
    if (pass && !code->model_prefix)
      break;
    size_t np = pass ? strlen(code->model_prefix) : 0;
    for (size_t i = 0; i < code->n_models; i++) {
      const char *name = code->models[i].model;
      if (pass && strncmp(name, code->model_prefix, np) != 0)
        continue;
      if (strcasecmp(name + np, model) == 0)
        return name;
    }
  }
  return NULL;
}

/* "; did you mean 'x'?" for the closest of names, or "": the three pieces of a message's "%s%s%s" */
#define DID_YOU_MEAN(close) (close) ? "; did you mean '" : "", (close) ? (close) : "", (close) ? "'?" : ""

/* The message for a version in no range of the model's entries: the ranges read and what to do. */
static int version_not_read(const impactfit_code *code, const char *version, const char *model, const char *option,
                            long key, impactfit_error *err) {
  impactfit_text vers = IMPACTFIT_TEXT_INIT;
  const impactfit_code_model *near = NULL;
  long best = -1;
  for (size_t i = 0; i < code->n_models; i++) {
    const impactfit_code_model *md = &code->models[i];
    if (strcmp(md->model, model) || (option && *option && strcmp(md->option, option)))
      continue;
    if (!strstr(impactfit_text_str(&vers), md->versions))
      impactfit_text_appendf(&vers, "%s%s", vers.len ? " and " : "", md->versions);
    long d = key < md->version_min ? md->version_min - key : md->version_max ? key - md->version_max : 0;
    if (best < 0 || d < best)
      best = d, near = md;
  }
  /* the first file the nearest entry's source names */
  const char *src = near ? near->source : "";
  for (const char *p = src; *p; p += strcspn(p, " ") + (p[strcspn(p, " ")] != 0)) {
    size_t n = strcspn(p, " :,;(");
    if (memchr(p, '/', n) || memchr(p, '.', n) > (void *)(p + 1)) {
      src = p;
      break;
    }
  }
  int file = (int)strcspn(src, " :,;(");
  int st = IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                           "%s model '%s%s%s' was read for the versions %s; %s is not among them, so its force law is "
                           "not known here. To use the law of the nearest version read, give the version %s (at your "
                           "own risk: compare %.*s in your version's source)",
                           code->name, model, option && *option ? " --damping " : "", option ? option : "",
                           impactfit_text_str(&vers), version, near ? near->first_version : "", file, src);
  impactfit_text_free(&vers);
  return st;
}

/* The entry of model mname for the option (NULL or "": the only or default one in this version). */
static int find_option(const impactfit_code *code, const char *version, long key, const char *mname, const char *option,
                       const impactfit_code_model **out, impactfit_error *err) {
  const impactfit_code_model *any_option = NULL, *dflt = NULL, *only = NULL;
  size_t options = 0;
  int given = option && *option;
  for (size_t i = 0; i < code->n_models; i++) {
    const impactfit_code_model *md = &code->models[i];
    if (strcmp(md->model, mname))
      continue;
    if (given) {
      if (strcasecmp(md->option, option))
        continue;
      any_option = md;
      if (in_range(md, key)) {
        *out = md;
        return 0;
      }
      continue;
    }
    if (!in_range(md, key))
      continue;
    options++;
    only = md;
    if (md->default_option || (!*md->option && !dflt)) /* the code's default, or the entry without an option */
      dflt = md;
  }
  impactfit_text list = IMPACTFIT_TEXT_INIT;
  const char *names[64];
  int st;
  if (given) {
    if (any_option)
      return version_not_read(code, version, mname, any_option->option, key, err);
    size_t n = list_models(code, 0, mname, &list, names, 64);
    st = IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "unknown damping option '%s' of %s model '%s' (known: %s)%s%s%s",
                         option, code->name, mname, impactfit_text_str(&list),
                         DID_YOU_MEAN(impactfit_closest_name(option, names, n)));
  } else if (options == 1 || dflt) {
    *out = dflt ? dflt : only;
    st = 0;
  } else if (options > 1) {
    size_t n = list_models(code, key, mname, &list, names, 64);
    st = IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL,
                         "%s %s model '%s' needs a damping option: %s (e.g. --damping %s in the CLI, damping='%s' in "
                         "Python)",
                         code->name, version, mname, impactfit_text_str(&list), n ? names[0] : "", n ? names[0] : "");
  } else {
    st = version_not_read(code, version, mname, NULL, key, err);
  }
  impactfit_text_free(&list);
  return st;
}

int impactfit_code_model_find(const char *code_name, const char *version, const char *model, const char *option,
                              const impactfit_code_model **out, impactfit_error *err) {
  if (!out)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no output given");
  *out = NULL;
  const impactfit_code *code;
  int st = impactfit_code_lookup(code_name, &code, err);
  if (st)
    return st;
  if (!version || !*version)
    version = code->default_version;
  long key = code->version_key(version);
  if (!key)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "cannot read version '%s' of %s (e.g. %s)", version, code->name,
                           code->version_example);
  const char *mname = model && *model ? canonical_model(code, model) : code->models[0].model;
  if (!mname) {
    impactfit_text list = IMPACTFIT_TEXT_INIT;
    const char *names[64];
    size_t n = list_models(code, 0, NULL, &list, names, 64);
    st = IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "unknown %s model '%s' (known: %s)%s%s%s", code->name, model,
                         list.len ? impactfit_text_str(&list) : "none",
                         DID_YOU_MEAN(impactfit_closest_name(model, names, n)));
    impactfit_text_free(&list);
    return st;
  }
  return find_option(code, version, key, mname, option, out, err);
}

/* ---------------------------------------------------------------- integrators, inputs */

int impactfit_code_integrator_find(const impactfit_code_model *md, const char *name,
                                   const impactfit_code_integrator **out, impactfit_error *err) {
  if (!md || !out || md->n_integrators < 1)
    return IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "no model or integrator table given");
  *out = NULL;
  if (!name || !*name) {
    *out = &md->integrators[0];
    return 0;
  }
  for (int i = 0; i < md->n_integrators; i++)
    if (strcasecmp(md->integrators[i].name, name) == 0) {
      *out = &md->integrators[i];
      return 0;
    }
  impactfit_text list = IMPACTFIT_TEXT_INIT;
  const char *names[32];
  int n = md->n_integrators < 32 ? md->n_integrators : 32;
  for (int i = 0; i < md->n_integrators; i++) {
    impactfit_text_appendf(&list, "%s%s", i ? "," : "", md->integrators[i].name);
    if (i < n)
      names[i] = md->integrators[i].name;
  }
  int st = IMPACTFIT__FAIL(err, IMPACTFIT_EINVAL, "%s %s has no integrator '%s' (known: %s)%s%s%s", md->code->name,
                           md->model, name, impactfit_text_str(&list),
                           DID_YOU_MEAN(impactfit_closest_name(name, names, (size_t)n)));
  impactfit_text_free(&list);
  return st;
}

const impactfit_code_input *impactfit_code_input_find(const impactfit_code_model *md, const char *name) {
  for (int i = 0; md && name && i < md->n_inputs; i++)
    if (strcmp(md->inputs[i].name, name) == 0 || (md->inputs[i].alias && strcmp(md->inputs[i].alias, name) == 0))
      return &md->inputs[i];
  return NULL;
}

void impactfit_code_force_text(const impactfit_code_model *md, impactfit_text *out) {
  if (!md || md->law != impactfit_law_power)
    return;
  char kd[32] = "K d", cd[32] = "C d'";
  if (md->n != 1.0)
    snprintf(kd, sizeof kd, "K d^%g", md->n);
  if (md->m != 0.0)
    snprintf(cd, sizeof cd, md->m == 1.0 ? "C d d'" : "C d^%g d'", md->m);
  impactfit_text_appendf(out, "F = %s + %s", kd, cd);
}

/* ---------------------------------------------------------------- stepper types */

/* The step maps of the registry: the built-ins, then each model integrator's in registry order, once
 * (into list, at most max); returns their number. */
static size_t stepper_list(const impactfit_stepper_type **list, size_t max) {
  size_t k = 0;
  for (size_t i = 0; i < impactfit_stepper_type_count() && k < max; i++)
    list[k++] = impactfit_stepper_type_at(i);
  for (size_t m = 0; m < impactfit_code_model_count(); m++) {
    const impactfit_code_model *md = impactfit_code_model_at(m);
    for (int j = 0; j < md->n_integrators && k < max; j++) {
      const impactfit_stepper_type *t = md->integrators[j].stepper;
      int seen = !t;
      for (size_t q = 0; q < k && !seen; q++)
        seen = list[q] == t;
      if (!seen)
        list[k++] = t;
    }
  }
  return k;
}

enum { STEPPERS_MAX = 128 };

static const impactfit_stepper_type *stepper_at(size_t i) {
  const impactfit_stepper_type *list[STEPPERS_MAX];
  size_t n = stepper_list(list, STEPPERS_MAX);
  return i < n ? list[i] : NULL;
}

size_t impactfit_code_stepper_type_count(void) {
  const impactfit_stepper_type *list[STEPPERS_MAX];
  return stepper_list(list, STEPPERS_MAX);
}

const impactfit_stepper_type *impactfit_code_stepper_type_at(size_t i) { return stepper_at(i); }

const impactfit_stepper_type *impactfit_code_stepper_type_from_name(const char *name) {
  const impactfit_stepper_type *list[STEPPERS_MAX];
  size_t n = stepper_list(list, STEPPERS_MAX);
  for (size_t i = 0; name && i < n; i++)
    if (strcmp(list[i]->name, name) == 0)
      return list[i];
  return NULL;
}
