#!/usr/bin/env bash
# Renders an HTML report (eufuzz report --html) in headless Chromium and saves a PNG, to
# check that the page reads well in a real browser. Installs nothing: says how to get
# Chromium when it is missing.
#
#   scripts/report-screenshot.sh REPORT.html [OUT.png] [WIDTHxHEIGHT]
#
# Default OUT is REPORT.png; default size 1280x2400 (the page's top: summary, buckets and
# charts). The report fetches nothing, and the browser runs without network access to
# make sure of it.
set -euo pipefail

if [[ $# -lt 1 || $# -gt 3 || "$1" == -h || "$1" == --help ]]; then
    sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
html=$1
out=${2:-${html%.html}.png}
size=${3:-1280x2400}
if [[ ! -f "$html" ]]; then
    echo "report-screenshot: $html: no such file" >&2
    exit 2
fi
if [[ ! "$size" =~ ^[0-9]+x[0-9]+$ ]]; then
    echo "report-screenshot: size must be WIDTHxHEIGHT, not $size" >&2
    exit 2
fi
browser=""
for b in chromium chromium-browser google-chrome; do
    if command -v "$b" >/dev/null 2>&1; then
        browser=$b
        break
    fi
done
if [[ -z "$browser" ]]; then
    echo "report-screenshot: no Chromium found; install it with: apt-get install chromium" >&2
    exit 2
fi

abs_html=$(cd "$(dirname "$html")" && pwd)/$(basename "$html")
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
# Written next to the final name and renamed, so a failed run leaves no half PNG.
tmp="$out.tmp-$$.png"
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --user-data-dir="$profile" --no-first-run --disable-extensions \
    --proxy-server='127.0.0.1:9' --proxy-bypass-list='<-loopback>' \
    --window-size="${size/x/,}" --screenshot="$tmp" "file://$abs_html" \
    >"$profile/log" 2>&1 || {
    cat "$profile/log" >&2
    rm -f "$tmp"
    exit 1
}
if [[ ! -s "$tmp" ]]; then
    cat "$profile/log" >&2
    echo "report-screenshot: $browser wrote no screenshot" >&2
    rm -f "$tmp"
    exit 1
fi
mv "$tmp" "$out"
echo "$out"
