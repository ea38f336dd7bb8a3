#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Renders a report directory's index.html in headless Chromium and checks what a reader sees.

At 1280 x 900 px:
  - every figure loaded (naturalWidth > 0), and no figure sits inside a table cell;
  - every link within the page has its target; every entry of the contents list is one link whose text
    is the text of the heading it leads to (an unbalanced bracket in a title cannot break it);
  - nothing is wider than its box (tables, paragraphs, lists, headings, code), nor the page than the window;
  - the first screen is the summary: the summary table ends within the first 900 px, and the contents
    follow it;
  - the figures' text: each SVG (read by the page's own Chromium, as it draws them) writes every label,
    legend entry and title of its gnuplot script with the letters the script means (Greek as Greek:
    gnuplot's Symbol font, which browsers draw as Latin letters, is never used), compared with the
    labels parsed from the figure's .gp script.
At 420 x 900 px: the page is not wider than the window (a wide table scrolls inside its own box), and
the summary table fits its box without scrolling.
Nothing is written into REPORT_DIR (the page is rendered from a copy in a temporary directory that
points back to it); --screenshot FILE saves the 1280 px first screen.
usage: check_page.py REPORT_DIR [--screenshot FILE]
Exit 1 with one FAIL line per problem.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

# gnuplot's Symbol font: the Latin letter it maps to each Greek one (the PostScript Symbol encoding)
SYMBOL = dict(zip("abgdezhqiklmnxoprstufcywABGDEZHQIKLMNXOPRSTUFCYW",
                  "αβγδεζηθικλμνξοπρστυφχψωΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ"))

CHECK_JS = r"""
<script>
window.addEventListener("load", function () {
  var bad = [], out = {};
  var imgs = document.images;
  for (var i = 0; i < imgs.length; i++) {
    if (!(imgs[i].complete && imgs[i].naturalWidth > 0)) bad.push("image not loaded: " + imgs[i].getAttribute("src"));
    if (imgs[i].closest("td, th")) bad.push("figure inside a table cell: " + imgs[i].getAttribute("src"));
  }
  var wide = innerWidth >= 1000;
  if (wide) {
    var els = document.querySelectorAll("table, p, li, h1, h2, h3, pre, td, th");
    for (var j = 0; j < els.length; j++) {
      var e = els[j];
      if (e.scrollWidth > e.clientWidth + 1) bad.push("overflow: " + e.tagName + " " + e.textContent.slice(0, 60));
    }
  }
  if (document.documentElement.scrollWidth > innerWidth + 1)
    bad.push("page wider than the window at " + innerWidth + " px: " + document.documentElement.scrollWidth);
  var hash = String.fromCharCode(35);
  var links = document.querySelectorAll("a[href]");
  for (var l = 0; l < links.length; l++) {
    var h = links[l].getAttribute("href");
    if (h.charAt(0) != hash) continue;
    if (!document.getElementById(decodeURIComponent(h.slice(1)))) bad.push("broken link: " + h);
  }
  /* the contents: each entry one link, its text the heading's */
  var heads = document.querySelectorAll("h2"), contents = null, summary = null;
  for (var k = 0; k < heads.length; k++) {
    if (heads[k].textContent == "Contents") contents = heads[k];
    if (heads[k].textContent == "Summary of findings") summary = heads[k];
  }
  var nentries = 0;
  if (!contents) bad.push("no Contents heading");
  else {
    var list = contents.nextElementSibling;
    while (list && list.tagName != "UL") list = list.nextElementSibling;
    var items = list ? list.querySelectorAll("li") : [];
    for (var m = 0; m < items.length; m++) {
      var li = items[m], own = "", a = null;
      for (var c = li.firstChild; c; c = c.nextSibling) {
        if (c.nodeType == 1 && c.tagName == "UL") continue;
        own += c.textContent;
        if (c.nodeType == 1 && c.tagName == "A") a = c;
        if (c.nodeType == 1 && !a && c.querySelector) a = c.querySelector("a");
      }
      own = own.trim();
      nentries++;
      if (!a) { bad.push("contents entry without a link: " + own); continue; }
      if (a.textContent.trim() != own) bad.push("contents entry is not one link: '" + own + "' links only '" + a.textContent + "'");
      var target = document.getElementById(decodeURIComponent(a.getAttribute("href").slice(1)));
      var hd = target;
      while (hd && !/^H[1-6]$/.test(hd.tagName)) hd = hd.nextElementSibling || (hd.parentElement && hd.parentElement.nextElementSibling);
      if (!hd) bad.push("contents entry leads to no heading: " + own);
      else if (hd.textContent.trim() != own) bad.push("contents entry '" + own + "' leads to the heading '" + hd.textContent.trim() + "'");
    }
    if (!nentries) bad.push("empty contents list");
  }
  /* the first screen: the summary table, then the contents */
  var stable = null;
  if (!summary) bad.push("no Summary of findings heading");
  else {
    var s = summary.nextElementSibling;
    while (s && s.tagName != "H2" && !(s.querySelector && s.querySelector("table")) && s.tagName != "TABLE") s = s.nextElementSibling;
    stable = s && s.tagName != "H2" ? (s.tagName == "TABLE" ? s : s.querySelector("table")) : null;
    if (!stable) bad.push("no summary table after the Summary of findings heading");
    else {
      var bottom = stable.getBoundingClientRect().bottom + scrollY;
      out.summary_bottom = bottom;
      if (wide && bottom > innerHeight) bad.push("the summary table ends at " + Math.round(bottom) + " px, below the first screen (" + innerHeight + " px)");
      if (contents && contents.getBoundingClientRect().top < stable.getBoundingClientRect().bottom) bad.push("the contents come before the summary table");
      var box = stable.parentElement;
      if (stable.scrollWidth > box.clientWidth + 1) bad.push("the summary table is wider than its box at " + innerWidth + " px: " + stable.scrollWidth + " > " + box.clientWidth);
    }
  }
  /* the figures' text, as Chromium reads the SVG files */
  var figs = {};
  if (wide) {
    for (var f = 0; f < imgs.length; f++) {
      var src = imgs[f].getAttribute("src");
      if (!/\.svg$/.test(src)) continue;
      var texts = [], fonts = [];
      try {
        var x = new XMLHttpRequest();
        x.open("GET", imgs[f].src, false);
        x.overrideMimeType("image/svg+xml");
        x.send();
        var doc = new DOMParser().parseFromString(x.responseText, "image/svg+xml");
        var tx = doc.getElementsByTagName("text");
        for (var t = 0; t < tx.length; t++) texts.push(tx[t].textContent);
        var all = doc.getElementsByTagName("*");
        for (var u = 0; u < all.length; u++) { var ff = all[u].getAttribute("font-family"); if (ff && fonts.indexOf(ff) < 0) fonts.push(ff); }
      } catch (err) { bad.push("cannot read " + src + ": " + err); }
      figs[src] = {texts: texts, fonts: fonts};
    }
  }
  out.figures = figs;
  out.width = innerWidth;
  out.height = innerHeight;
  out.images = imgs.length;
  out.contents = nentries;
  out.problems = bad;
  /* the page runs in a frame of the exact width (a headless window is at least 500 px wide) */
  parent.postMessage("CHECK-BEGIN" + JSON.stringify(out) + "CHECK-END", "*");
});
</script>
</body>"""


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


FRAME = """<!DOCTYPE html><html><head><meta charset="utf-8"><style>body{margin:0}iframe{border:0}</style></head>
<body><script>
addEventListener("message", function (e) {
  var pre = document.createElement("pre"); pre.id = "impactfit-check"; pre.textContent = e.data;
  document.body.appendChild(pre);
});
</script><iframe src="index.html" style="width:%dpx;height:%dpx"></iframe></body></html>
"""


def render(chrome, page, width, height, profile, screenshot=None):
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--allow-file-access-from-files", f"--user-data-dir={profile}", f"--window-size={width},{height}",
             "--hide-scrollbars"]
    if screenshot:
        subprocess.run([chrome] + flags + [f"--screenshot={screenshot}", "file://" + page],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=180, check=False)
        return None
    frame = os.path.join(os.path.dirname(page), f"frame{width}.html")
    with open(frame, "w", encoding="utf-8") as f:
        f.write(FRAME % (width, height))
    flags[flags.index(f"--window-size={width},{height}")] = f"--window-size={width + 40},{height + 200}"
    r = subprocess.run([chrome] + flags + ["--virtual-time-budget=15000", "--dump-dom", "file://" + frame],
                       capture_output=True, text=True, timeout=180, check=False)
    m = re.search(r"<pre id=\"impactfit-check\">CHECK-BEGIN(.*?)CHECK-END</pre>", r.stdout, re.S)
    if not m:
        return None
    import html
    return json.loads(html.unescape(m.group(1)))


def gp_strings(script):
    """The quoted strings of a gnuplot script that become text in the figure: axis labels, titles and
    legend entries (t '...', title '...'), with gnuplot's quoting undone."""
    out = []
    pat = re.compile(r"""(?:\bset\s+(?:xlabel|ylabel|x2label|y2label|title|label\s+\d*)|\btitle|\bt)\s+('(?:[^']|'')*'|"(?:[^"\\]|\\.)*")""")
    for line in script.splitlines():
        if line.lstrip().startswith("#"):
            continue
        for m in pat.finditer(line):
            q = m.group(1)
            s = q[1:-1].replace("''", "'") if q[0] == "'" else re.sub(r"\\(.)", r"\1", q[1:-1])
            if s:
                out.append(s)
    return out


def enhanced_plain(s):
    """The text gnuplot's enhanced mode draws for s, with {/Symbol x} read as the Greek letter it means
    ("\\_" and the like: the character itself)."""
    escaped = []

    def keep(m):
        escaped.append(m.group(1))
        return "\0%d\0" % (len(escaped) - 1)

    s = re.sub(r"\\([_^@&~{}\\])", keep, s)
    s = re.sub(r"\{/Symbol\s+([^}]*)\}", lambda m: "".join(SYMBOL.get(ch, ch) for ch in m.group(1)), s)
    s = re.sub(r"\{/[^ }]*\s+([^}]*)\}", r"\1", s)  # other font changes
    s = re.sub(r"[_^]\{([^}]*)\}", r"\1", s)
    s = re.sub(r"[_^](.)", r"\1", s)
    s = s.replace("{", "").replace("}", "")
    return re.sub(r"\0(\d+)\0", lambda m: escaped[int(m.group(1))], s)


def check_figure_text(report_dir, figs):
    problems = []
    for src, fig in sorted(figs.items()):
        name = os.path.splitext(os.path.basename(src))[0]
        for f in fig["fonts"]:
            if "symbol" in f.lower():
                problems.append(f"{src}: text in the font '{f}', which browsers draw as Latin letters")
        gp = os.path.join(report_dir, name + ".gp")
        if not os.path.exists(gp):
            problems.append(f"{src}: no script {name}.gp beside it")
            continue
        texts = [re.sub(r"\s+", " ", t).strip() for t in fig["texts"]]
        for label in gp_strings(open(gp, encoding="utf-8").read()):
            want = re.sub(r"\s+", " ", enhanced_plain(label)).strip()
            if want and want not in texts:
                problems.append(f"{src}: the script's text '{want}' is not drawn as such (the SVG has none equal to it)")
        if not texts:
            problems.append(f"{src}: no text")
    return problems


def main():
    args = sys.argv[1:]
    shot = None
    if "--screenshot" in args:
        i = args.index("--screenshot")
        shot = os.path.abspath(args[i + 1])
        del args[i:i + 2]
    if len(args) != 1:
        print(__doc__)
        return 2
    report_dir = os.path.abspath(args[0])
    chrome = chromium()
    if not chrome:
        print("FAIL: chromium not installed (scripts/deps.sh test)")
        return 1
    index = os.path.join(report_dir, "index.html")
    if not os.path.exists(index) or os.path.getsize(index) == 0:
        print(f"FAIL: no {index}")
        return 1
    page_html = open(index, encoding="utf-8").read()
    nimg = len(re.findall(r"<img ", page_html))
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        # the page in a temporary directory, its relative links resolved in the report directory
        base = '<base href="file://%s/">' % report_dir
        page = re.sub(r"<head>", "<head>\n" + base, page_html, count=1).replace("</body>", CHECK_JS, 1)
        copy = os.path.join(tmp, "index.html")
        with open(copy, "w", encoding="utf-8") as f:
            f.write(page)
        results = {}
        for width in (1280, 420):
            res = render(chrome, copy, width, 900, os.path.join(tmp, f"profile{width}"))
            if res is None:
                print(f"FAIL: the check script did not run in Chromium at {width} px (no result in the DOM)")
                return 1
            results[width] = res
            if res["width"] != width or res["height"] != 900:
                problems.append(f"rendered at {res['width']} x {res['height']} px instead of {width} x 900")
            problems += [f"{width} px: {p}" for p in res["problems"]]
        wide = results[1280]
        if wide["images"] != nimg or nimg == 0:
            problems.append(f"{wide['images']} images rendered, {nimg} in the page")
        if len(wide["figures"]) == 0:
            problems.append("no SVG figure read")
        problems += check_figure_text(report_dir, wide["figures"])
        if shot:
            render(chrome, os.path.join(report_dir, "index.html"), 1280, 900, os.path.join(tmp, "profileshot"), shot)
            if not os.path.exists(shot) or os.path.getsize(shot) == 0:
                problems.append(f"no screenshot {shot}")
    for p in problems:
        print("FAIL:", p)
    print(f"check_page.py: {nimg} images, {len(wide['figures'])} SVG figures read, {wide['contents']} contents "
          f"entries, summary table ends at {round(wide.get('summary_bottom', -1))} px; {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
