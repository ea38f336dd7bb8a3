#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Code that names its fields: finds positional struct initializers of more than four fields.

A brace-enclosed initializer list of a struct with more than MAX_POSITIONAL (4) elements must
name every field (designated initializers `.name = value`) or be built by a small named macro
whose body does. Arrays are lists of values and stay positional: an initializer is taken as an
array when its declarator has a `[`, for every level of nesting its dimensions cover, and as an
array of scalars at every level when the declared type is a scalar type. Everything else (a
compound literal `(T){...}`, an element of an array of structs, a macro body, a struct member) is
a struct: the check errs on the side of flagging.

A variadic macro whose body is `{.a = x, __VA_ARGS__}` counts as naming its fields: its calls pass
designators (`GROUP(.model = "hertz", .n = 1.5)`); the calls themselves are not checked.

usage: check_initializers.py FILE_OR_DIR...   (exit 1 and one line per finding: FILE:LINE: ...)
       check_initializers.py --self-test        (the check on a sample with known answers)
"""
import os
import re
import sys

MAX_POSITIONAL = 4
SCALARS = {
    "char", "short", "int", "long", "unsigned", "signed", "float", "double", "size_t", "ssize_t",
    "uint8_t", "uint16_t", "uint32_t", "uint64_t", "int8_t", "int16_t", "int32_t", "int64_t", "bool",
    "_Bool", "void", "XXH64_hash_t", "__float128",
}
KEYWORDS_BLOCK = {"if", "for", "while", "switch", "do", "else", "struct", "union", "enum", "return"}
TOKEN = re.compile(r"""
    (?P<ws>[ \t\r]+) | (?P<nl>\n) | (?P<cont>\x01) |
    (?P<str>"(?:\\.|[^"\\\n])*") | (?P<chr>'(?:\\.|[^'\\\n])*') |
    (?P<id>[A-Za-z_][A-Za-z_0-9]*) | (?P<num>\.?[0-9](?:[eEpP][+-]|[A-Za-z0-9_.])*) |
    (?P<punct>->|\+\+|--|<<=|>>=|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|<<|>>|\.\.\.|[{}()\[\];,.=<>!~?:+\-*/%&|^#])
""", re.X)


def strip_comments(text):
    """Comments become spaces (newlines kept, so line numbers stay)."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text[i] in "\"'":
            q, j = text[i], i + 1
            while j < n and text[j] != q and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def tokens(text):
    """(kind, value, line) of the code; preprocessor lines other than #define bodies are dropped,
    a #define's body is kept as code and ends with a ';' token."""
    text = strip_comments(text).replace("\\\n", " \x01")  # a joined line: counted, not an end
    toks, line, at_bol, in_pp, is_define = [], 1, True, False, False
    pos = 0
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            pos += 1
            continue
        kind = m.lastgroup
        val = m.group(kind)
        pos = m.end()
        if kind == "nl":
            if in_pp and is_define:
                toks.append(("punct", ";", line))
            in_pp = is_define = False
            at_bol = True
            line += 1
            continue
        if kind == "cont":
            line += 1
            continue
        if kind == "ws":
            continue
        if at_bol and val == "#":
            in_pp, at_bol = True, False
            rest = text[pos:text.find("\n", pos) if "\n" in text[pos:] else len(text)]
            dm = re.match(r"\s*define\s+([A-Za-z_][A-Za-z_0-9]*)(\([^)]*\))?", rest)
            if dm:
                is_define = True
                toks.append(("define", dm.group(1), line))
                pos += dm.end()
            continue
        at_bol = False
        if in_pp and not is_define:
            continue
        toks.append((kind, val, line))
    return toks


def matching_open(toks, i, open_, close):
    depth = 0
    for j in range(i, -1, -1):
        if toks[j][1] == close:
            depth += 1
        elif toks[j][1] == open_:
            depth -= 1
            if depth == 0:
                return j
    return -1


def declaration(toks, eq):
    """(base type names, number of array dimensions) of the declarator before '=' at toks[eq]."""
    j = eq - 1
    dims = 0
    while j >= 0 and toks[j][1] == "]":
        j = matching_open(toks, j, "[", "]") - 1
        dims += 1
    if j < 0 or toks[j][0] != "id":
        return None, 0  # not a declaration (an assignment to a member, a designator)
    if j > 0 and toks[j - 1][1] in (".", "->"):
        return None, 0
    names = []
    k = j - 1
    while k >= 0 and (toks[k][0] == "id" or toks[k][1] == "*"):
        if toks[k][0] == "id":
            names.append(toks[k][1])
        k -= 1
    return names, dims


def check(path):
    with open(path, encoding="utf-8") as f:
        toks = tokens(f.read())
    findings = []
    # stack of open initializer lists: dict(kind='init'|'block', scalar, dims_left, start, elems)
    stack = []
    for i, (kind, val, line) in enumerate(toks):
        if val == "{":
            prev = toks[i - 1] if i > 0 else ("punct", ";", line)
            ctx = {"kind": "block", "line": line, "elems": [[]], "scalar": False, "dims": 0}
            parent = stack[-1] if stack else None
            if parent and parent["kind"] == "init" and prev[1] in ("{", ",", "="):
                ctx.update(kind="init", scalar=parent["scalar"], dims=max(parent["dims"] - 1, 0))
                if prev[1] == "=":  # a designated member: .x = {...}
                    ctx.update(scalar=False, dims=0, member=True)
            elif prev[1] == "=":
                names, dims = declaration(toks, i - 1)
                ctx.update(kind="init", dims=dims, scalar=bool(names) and any(n in SCALARS for n in names))
            elif prev[1] == ")":
                o = matching_open(toks, i - 1, "(", ")")
                before = toks[o - 1] if o > 0 else ("punct", ";", line)
                if before[0] == "define":  # a function-like macro's body: a constructor
                    ctx["kind"] = "init"
                elif before[0] != "id" or before[1] == "return":  # a compound literal (T){...}
                    inner = toks[o + 1:i - 1]
                    names = [t[1] for t in inner if t[0] == "id"]
                    dims = sum(1 for t in inner if t[1] == "[")
                    ctx.update(kind="init", dims=dims, scalar=any(n in SCALARS for n in names))
            elif prev[0] == "define":  # an object-like macro's body
                ctx["kind"] = "init"
            if parent and parent["kind"] == "init":
                parent["elems"][-1].append(val)
            stack.append(ctx)
        elif val == "}":
            if not stack:
                continue
            ctx = stack.pop()
            if ctx["kind"] != "init":
                continue
            elems = [e for e in ctx["elems"] if e]
            positional = [e for e in elems if e[0] not in (".", "[", "__VA_ARGS__")]  # a macro's arguments name theirs
            is_array = ctx["dims"] > 0 or ctx["scalar"]
            if ctx.get("member"):  # .x = {...}: the member's type is not known here; numbers only: an array
                is_array = is_array or all(re.fullmatch(r"[-+]?\.?[0-9][0-9A-Za-z_.+-]*", "".join(e)) for e in elems)
            if len(elems) > MAX_POSITIONAL and positional and not is_array:
                findings.append(f"{path}:{ctx['line']}: positional initializer of {len(elems)} fields "
                                f"({len(positional)} not designated): name them (.field = value)")
            if stack and stack[-1]["kind"] == "init":
                stack[-1]["elems"][-1].append(val)
        elif stack and stack[-1]["kind"] == "init":
            top = stack[-1]
            if val in ("(", "["):
                top["parens"] = top.get("parens", 0) + 1
            elif val in (")", "]"):
                top["parens"] = top.get("parens", 0) - 1
            if val == "," and not top.get("parens"):
                stack[-1]["elems"].append([])
            elif val == ";":  # a macro body ended inside an unclosed list: give up on it
                stack.clear()
            else:
                stack[-1]["elems"][-1].append(val)
    return findings


SAMPLE = r"""
typedef struct col { const char *a, *b; int c, d, e; } col;
static const col cols[] = {
    {"n", "%g", 1, 2, 3},                      /* line 4: positional, 5 fields */
    {.a = "n", .b = "%g", .c = 1, .d = 2, .e = 3},
    {"k", "%g", 1, 2},                         /* 4 fields: allowed */
};
static const double xs[] = {1, 2, 3, 4, 5, 6};
static const char *const names[6] = {"a", "b", "c", "d", "e", "f"};
double grid[2][5] = {{1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}};
#define MAKE(x, y) \
  { x, y, 0, 0, 0 }
#define NAMED(x, y) \
  { .a = x, .b = y, .c = 0, .d = 0, .e = 0 }
#define GROUP(...) {.a = "g", .b = "h", .c = 1, .d = 2, __VA_ARGS__}
void f(col *c, int n) {
  col local = {"x", "y", n, n, /* a comment, with commas */ n};
  *c = (col){"x", "y", 1, 2, 3};
  enum { A, B, C, D, E, F };
  if (n) {
    g(1, 2, 3, 4, 5, 6);
  }
  struct { double v[5]; } s = {.v = {1, 2, 3, 4, 5}};
  printf("{%d, %d, %d, %d, %d}", 1, 2, 3, 4, 5);
  h(c, offsetof(col, a), (col){.a = "x", .b = "y", .c = 1, .d = 2, .e = 3});
}
"""
SAMPLE_EXPECT = [4, 12, 17, 18]  # cols[0], MAKE's body, local, the compound literal


def self_test():
    import tempfile
    with tempfile.NamedTemporaryFile("w", suffix=".c", delete=False) as f:
        f.write(SAMPLE)
    try:
        got = [int(x.split(":")[1]) for x in check(f.name)]
    finally:
        os.unlink(f.name)
    if got != SAMPLE_EXPECT:
        print(f"check_initializers: self-test FAILED: found lines {got}, expected {SAMPLE_EXPECT}")
        return 1
    print(f"check_initializers: self-test passed (lines {got} found, the rest of the sample accepted)")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    files = []
    for a in argv[1:]:
        if os.path.isdir(a):
            for root, _, names in os.walk(a):
                files += [os.path.join(root, n) for n in sorted(names) if n.endswith((".c", ".h", ".def"))]
        else:
            files.append(a)
    if not files:
        print(__doc__.strip().splitlines()[-1])
        return 2
    findings = [f for p in sorted(files) for f in check(p)]
    for f in findings:
        print(f)
    print(f"check_initializers: {len(files)} files, {len(findings)} positional initializers of more than "
          f"{MAX_POSITIONAL} fields")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
