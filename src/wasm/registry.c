/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Every call of the code registry in the WebAssembly module (codes.h):
 * the listing the page builds its forms from (impactfit_wasm_registry: every code and every model,
 * iterated through the registries' public list functions, so that a new entry appears on the page
 * without editing it), the lookup of the entry a code, version and model name
 * (impactfit_wasm_lookup, with the registry's own message when there is none), and the stepper an
 * engine runs for a request, for the pictures (curves.c). The listing keeps the page's two lists: "dem" (the
 * models of the codes whose kind has dem) and "engine" (kind engine; Chrono, dem+engine, is in both). */
#define _GNU_SOURCE /* strdup */
#include <emscripten.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "impactfit/impactfit.h"
#include "wasm.h"

/* 1 when the model is listed under kind ("dem" or "engine": Chrono's "dem+engine" under both) */
static int of_kind(const impactfit_code_model *md, const char *kind) { return strstr(md->code->kind, kind) != NULL; }

/* the i-th model of a kind (NULL past the end) and the index of md among its kind (-1: none) */
static const impactfit_code_model *kind_at(const char *kind, size_t i) {
  for (size_t k = 0; k < impactfit_code_model_count(); k++) {
    const impactfit_code_model *md = impactfit_code_model_at(k);
    if (of_kind(md, kind) && i-- == 0)
      return md;
  }
  return NULL;
}

static long kind_index(const char *kind, const impactfit_code_model *md) {
  const impactfit_code_model *m;
  for (size_t i = 0; (m = kind_at(kind, i)); i++)
    if (m == md)
      return (long)i;
  return -1;
}

/* how a DEM model takes its stiffness: from a material (E, ν), a contact time, or a spring constant */
static const char *stiffness_name(const impactfit_code_model *md) {
  return impactfit_code_input_find(md, "E") ? "material" : impactfit_code_input_find(md, "tc") ? "tc" : "kn";
}

static void dem_entry(wasm_json *j, size_t i, const impactfit_code_model *md) {
  int clamps[2];
  int nclamps = impactfit_code_clamps(md, clamps);
  const impactfit_code_input *kn = impactfit_code_input_find(md, "kn");
  impactfit_text force = IMPACTFIT_TEXT_INIT;
  impactfit_code_force_text(md, &force);
  wasm_json_key(j, NULL);
  wasm_json_begin(j, '{');
  wasm_json_int(j, "index", (long)i);
  wasm_json_str(j, "code", md->code->name);
  wasm_json_str(j, "model", md->model);
  wasm_json_str(j, "damping", md->option);
  wasm_json_int(j, "default_damping", md->default_option);
  wasm_json_str(j, "versions", md->versions);
  wasm_json_str(j, "first_version", md->first_version);
  wasm_json_str(j, "param", md->param);
  wasm_json_str(j, "param_unit", md->param_unit);
  wasm_json_int(j, "takes_e", md->takes_e);
  wasm_json_str(j, "stiffness", stiffness_name(md));
  wasm_json_str(j, "kn_unit", kn ? kn->unit : "");
  wasm_json_int(j, "vchar", impactfit_code_input_find(md, "vchar") != NULL);
  wasm_json_str(j, "clamp_switch", md->clamp_switch ? md->clamp_switch : "");
  wasm_json_int(j, "clamp_default", md->clamp_default);
  wasm_json_int(j, "clamps", nclamps);
  wasm_json_int(j, "run_here", md->run_min != 0);
  wasm_json_str(j, "run_versions", md->run_versions ? md->run_versions : "");
  wasm_json_str(j, "force", force.s ? force.s : "");
  wasm_json_str(j, "law", md->law_text);
  wasm_json_str(j, "source", md->source);
  wasm_json_end(j, '}');
  impactfit_text_free(&force);
}

/* the integrators' names, comma-separated: all, or those in continuous time (no step map) */
static void integrator_names(wasm_json *j, const char *key, const impactfit_code_model *md, int continuous_only) {
  impactfit_text t = IMPACTFIT_TEXT_INIT;
  for (int k = 0; k < md->n_integrators; k++)
    if (!continuous_only || !md->integrators[k].stepper)
      impactfit_text_appendf(&t, "%s%s", t.len ? "," : "", md->integrators[k].name);
  wasm_json_str(j, key, t.s ? t.s : "");
  impactfit_text_free(&t);
}

static void engine_entry(wasm_json *j, size_t i, const impactfit_code_model *md) {
  wasm_json_key(j, NULL);
  wasm_json_begin(j, '{');
  wasm_json_int(j, "index", (long)i);
  wasm_json_str(j, "code", md->code->name);
  wasm_json_str(j, "model", md->model);
  wasm_json_str(j, "versions", md->versions);
  wasm_json_int(j, "version_min", md->version_min); /* a·10⁶ + b·10³ + c; 0: open */
  wasm_json_int(j, "version_max", md->version_max);
  wasm_json_str(j, "param", md->param);
  wasm_json_str(j, "param_unit", md->param_unit);
  wasm_json_str(j, "param_input", md->param_input ? md->param_input : "");
  wasm_json_int(j, "param_index", md->param_index);
  integrator_names(j, "integrators", md, 0);
  integrator_names(j, "adaptive", md, 1);
  wasm_json_num(j, "dt_default", md->dt_default > 0.0 ? md->dt_default : NAN);
  wasm_json_int(j, "run_here", md->run_min != 0);
  wasm_json_str(j, "law", md->law_text);
  wasm_json_str(j, "end", md->end);
  wasm_json_str(j, "bodies", md->bodies);
  wasm_json_str(j, "traps", md->traps);
  wasm_json_str(j, "source", md->source);
  wasm_json_key(j, "inputs");
  wasm_json_begin(j, '[');
  for (int k = 0; k < md->n_inputs; k++) {
    const impactfit_code_input *in = &md->inputs[k];
    wasm_json_key(j, NULL);
    wasm_json_begin(j, '{');
    wasm_json_str(j, "name", in->name);
    wasm_json_str(j, "unit", in->unit);
    wasm_json_str(j, "help", in->help);
    wasm_json_int(j, "count", in->count);
    wasm_json_key(j, "def"); /* null: required */
    wasm_json_begin(j, '[');
    for (int c = 0; c < in->count; c++)
      wasm_json_num(j, NULL, in->def[c]);
    wasm_json_end(j, ']');
    wasm_json_end(j, '}');
  }
  wasm_json_end(j, ']');
  wasm_json_end(j, '}');
}

EMSCRIPTEN_KEEPALIVE char *impactfit_wasm_registry(void) {
  wasm_json j;
  if (wasm_json_open(&j))
    return NULL;
  wasm_json_begin(&j, '{');
  wasm_json_key(&j, "codes");
  wasm_json_begin(&j, '[');
  for (size_t i = 0; i < impactfit_code_count(); i++) {
    const impactfit_code *c = impactfit_code_at(i);
    wasm_json_key(&j, NULL);
    wasm_json_begin(&j, '{');
    wasm_json_str(&j, "code", c->name);
    wasm_json_str(&j, "kind", c->kind);
    wasm_json_str(&j, "version", c->default_version ? c->default_version : "");
    wasm_json_end(&j, '}');
  }
  wasm_json_end(&j, ']');
  static const char *const kinds[2] = {"dem", "engine"};
  for (int k = 0; k < 2; k++) {
    wasm_json_key(&j, kinds[k]);
    wasm_json_begin(&j, '[');
    const impactfit_code_model *md;
    for (size_t i = 0; (md = kind_at(kinds[k], i)); i++)
      (k ? engine_entry : dem_entry)(&j, i, md);
    wasm_json_end(&j, ']');
  }
  wasm_json_end(&j, '}');
  return wasm_json_close(&j);
}

/* the value of "key=..." among newline-separated lines (NULL: absent; an empty value is absent too) */
static const char *field(char **lines, int n, const char *key) {
  size_t len = strlen(key);
  for (int i = 0; i < n; i++)
    if (strncmp(lines[i], key, len) == 0 && lines[i][len] == '=')
      return lines[i][len + 1] ? lines[i] + len + 1 : NULL;
  return NULL;
}

static int split_lines(char *copy, char **lines, int max) {
  int n = 0;
  for (char *p = copy; p && *p && n < max;) {
    char *nl = strchr(p, '\n');
    if (nl)
      *nl = '\0';
    lines[n++] = p;
    p = nl ? nl + 1 : NULL;
  }
  return n;
}

enum { MAX_LINES = 64 };

/* "dem" or "engine", code, version (empty: the default), model and, for a DEM code, damping:
 * {"ok":1,"kind":...,"index":I,"version":V} or the registry's message */
EMSCRIPTEN_KEEPALIVE char *impactfit_wasm_lookup(const char *words) {
  char *copy = strdup(words ? words : "");
  if (!copy)
    return NULL;
  char *lines[MAX_LINES];
  int n = split_lines(copy, lines, MAX_LINES);
  const char *kind = field(lines, n, "kind"), *code = field(lines, n, "code"), *version = field(lines, n, "version");
  const char *model = field(lines, n, "model"), *damping = field(lines, n, "damping");
  impactfit_error err;
  impactfit_error_clear(&err);
  long index = -1;
  int st = IMPACTFIT_EINVAL;
  const char *used = version;
  if (kind && (strcmp(kind, "dem") == 0 || strcmp(kind, "engine") == 0)) {
    const impactfit_code_model *md = NULL;
    st = impactfit_code_model_find(code ? code : "", version, model, strcmp(kind, "dem") == 0 ? damping : NULL, &md,
                                   &err);
    if (!st) {
      index = kind_index(kind, md);
      if (!used)
        used = md->code->default_version;
    }
  } else {
    snprintf(err.message, sizeof err.message, "lookup: kind must be dem or engine");
  }
  char *out = NULL;
  if (st || index < 0) {
    out = wasm_json_error(st ? st : IMPACTFIT_EINVAL, err.message);
  } else {
    wasm_json j;
    if (!wasm_json_open(&j)) {
      wasm_json_begin(&j, '{');
      wasm_json_int(&j, "ok", 1);
      wasm_json_str(&j, "kind", kind);
      wasm_json_int(&j, "index", index);
      wasm_json_str(&j, "version", used ? used : "");
      wasm_json_end(&j, '}');
      out = wasm_json_close(&j);
    }
  }
  free(copy);
  return out;
}

/* "V1,V2,..." into a setting (the values only; the CLI has checked the same text already) */
static int parse_values(const char *name, const char *text, impactfit_code_setting *s, impactfit_error *err) {
  memset(s, 0, sizeof *s); /* body 0: as the input takes it */
  s->name = name;
  for (const char *p = text; *p;) {
    char *end;
    if (s->count == IMPACTFIT_CODE_MAX_VALUES)
      return snprintf(err->message, sizeof err->message, "--%s: too many values", name), IMPACTFIT_EINVAL;
    s->values[s->count++] = strtod(p, &end);
    if (end == p || (*end && *end != ','))
      return snprintf(err->message, sizeof err->message, "--%s: expected numbers (got '%s')", name, text),
             IMPACTFIT_EINVAL;
    p = *end ? end + 1 : end;
  }
  return 0;
}

static double num(char **lines, int n, const char *key) {
  const char *t = field(lines, n, key);
  return t ? strtod(t, NULL) : NAN;
}

int impactfit__wasm_engine_stepper(const char *words, impactfit_stepper *st, double *v, impactfit_error *err) {
  impactfit_error_clear(err);
  char *copy = strdup(words ? words : "");
  if (!copy)
    return IMPACTFIT_ENOMEM;
  char *lines[MAX_LINES];
  int n = split_lines(copy, lines, MAX_LINES);
  const impactfit_code_model *md = NULL;
  int rc = impactfit_code_model_find(field(lines, n, "code") ? field(lines, n, "code") : "", field(lines, n, "version"),
                                     field(lines, n, "model"), NULL, &md, err);
  impactfit_code_request q = impactfit_code_request_default();
  impactfit_code_setting settings[IMPACTFIT_CODE_MAX_INPUTS];
  q.settings = settings;
  q.model = md;
  q.integrator = field(lines, n, "integrator");
  q.dt = num(lines, n, "dt");
  q.v = num(lines, n, "v");
  q.bodies.m1 = num(lines, n, "mass");
  if (!isnan(num(lines, n, "radius")))
    q.bodies.r1 = num(lines, n, "radius");
  double m2 = num(lines, n, "m2"), r2 = num(lines, n, "r2");
  if (!isnan(m2) || !isnan(r2)) { /* as impactfit engine: a second sphere like the first unless given */
    q.bodies.pair = 1;
    q.bodies.r2 = isnan(r2) ? q.bodies.r1 : r2;
    q.bodies.m2 = isnan(m2) ? q.bodies.m1 : m2;
  }
  for (int i = 0; !rc && i < n; i++) {
    if (strncmp(lines[i], "set=", 4) != 0)
      continue;
    char *eq = strchr(lines[i] + 4, '=');
    if (!eq || q.n_settings == IMPACTFIT_CODE_MAX_INPUTS) {
      snprintf(err->message, sizeof err->message, "set: expected NAME=V1,V2,... (got '%s')", lines[i] + 4);
      rc = IMPACTFIT_EINVAL;
      break;
    }
    *eq = '\0';
    rc = parse_values(lines[i] + 4, eq + 1, &settings[q.n_settings++], err);
  }
  double value = num(lines, n, "value");
  if (!rc)
    rc = impactfit_code_stepper(&q, value, st, err);
  *v = q.v;
  free(copy);
  return rc;
}

/* 1 when the stepper takes no fixed steps (the law integrated exactly in continuous time: codes.h's NULL type) */
int impactfit__wasm_stepper_continuous(const impactfit_stepper *st) { return st->type == NULL; }
