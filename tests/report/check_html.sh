#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Renders REPORT_DIR/index.html in headless Chromium and checks, in the rendered page, that every
# figure loaded (naturalWidth > 0), that every link within the page has its target, and that no table, paragraph, list, heading or code block is wider
# than its box (scrollWidth <= clientWidth) nor the page wider than the window; saves a screenshot
# REPORT_DIR/index-screenshot.png.  usage: check_html.sh REPORT_DIR
set -u
DIR=$(cd "${1:?usage: check_html.sh REPORT_DIR}" && pwd)
CHROME=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROME" ] || { echo "FAIL: chromium not installed (scripts/deps.sh test)"; exit 1; }
[ -s "$DIR/index.html" ] || { echo "FAIL: no $DIR/index.html"; exit 1; }
PROFILE=$(mktemp -d)
trap 'rm -rf "$PROFILE" "$DIR/.check.html"' EXIT
flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
  --disable-component-update --disable-sync --user-data-dir="$PROFILE" --window-size=1280,900 --hide-scrollbars)
# the page plus a script that writes its findings into the DOM once everything has loaded
sed 's#</body>#<script>\nwindow.addEventListener("load", function () {\n  var bad = [], imgs = document.images, n = 0;\n  for (var i = 0; i < imgs.length; i++) { n++; if (!(imgs[i].complete \&\& imgs[i].naturalWidth > 0)) bad.push("image not loaded: " + imgs[i].getAttribute("src")); }\n  var els = document.querySelectorAll("table, p, li, h1, h2, h3, pre, td, th");\n  for (var j = 0; j < els.length; j++) { var e = els[j]; if (e.scrollWidth > e.clientWidth + 1) bad.push("overflow: " + e.tagName + " " + e.textContent.slice(0, 60)); }\n  var links = document.querySelectorAll("a[href]"), hash = String.fromCharCode(35);\n  for (var l = 0; l < links.length; l++) { var h = links[l].getAttribute("href"); if (h.charAt(0) != hash) continue; var id = decodeURIComponent(h.slice(1)); if (!document.getElementById(id)) bad.push("broken link: " + h); }\n  if (document.documentElement.scrollWidth > window.innerWidth + 1) bad.push("page wider than the window: " + document.documentElement.scrollWidth);\n  var out = document.createElement("pre"); out.id = "impactfit-check";\n  out.textContent = "CHECK images=" + n + " problems=" + bad.length + "\\n" + bad.join("\\n");\n  document.body.appendChild(out);\n});\n</script>\n</body>#' "$DIR/index.html" >"$DIR/.check.html"
dom=$(timeout 120 "$CHROME" "${flags[@]}" --virtual-time-budget=10000 --dump-dom "file://$DIR/.check.html" 2>/dev/null)
timeout 120 "$CHROME" "${flags[@]}" --screenshot="$DIR/index-screenshot.png" "file://$DIR/index.html" >/dev/null 2>&1
line=$(printf '%s\n' "$dom" | grep -o 'CHECK images=[0-9]* problems=[0-9]*')
[ -n "$line" ] || { echo "FAIL: the check script did not run (no result in the DOM)"; exit 1; }
echo "check_html.sh: $line"
printf '%s\n' "$dom" | sed -n '/<pre id="impactfit-check">/,/<\/pre>/p' | sed '1d;s#</pre>.*##' | grep . | sed 's/^/FAIL: /'
nimg=$(grep -o '<img ' "$DIR/index.html" | wc -l)
imgs=$(echo "$line" | sed 's/.*images=\([0-9]*\).*/\1/')
probs=$(echo "$line" | sed 's/.*problems=\([0-9]*\).*/\1/')
[ "$imgs" = "$nimg" ] && [ "$nimg" -gt 0 ] || { echo "FAIL: $imgs images rendered, $nimg in the page"; exit 1; }
[ -s "$DIR/index-screenshot.png" ] || { echo "FAIL: no screenshot"; exit 1; }
[ "$probs" = 0 ]
