# Sourced by test-pages.sh and tools/screenshot-pages (after lib.sh, or with
# $UBTUNE, $SRCDIR, $T and $PY set): the pages ubtune draws, made from the
# fixtures, and headless Chromium to look at them as a person would.
#
# pages_make DIR: writes into DIR
#   report-bench.html   a quick run of all twelve tests at 1 and 2 copies on
#                       a busy machine (its timeline: 24 bands, 21 events)
#   report-import.html  a published UnixBench report without per-pass values
#   report-two.html     two results of a board side by side
#   fleet.html          twelve hosts, one far above the others in File Copy
#   compare.html        compare --chart's SVG, inline in a page of its own
# pages_chromium ARGS...: Chromium, headless, with a private profile
# pages_measure PAGE OUT.json: the page at 1280 px, measured by
#   tests/e2e/page-check.js (what sticks out of the page, what overlaps)
# pages_screenshot PAGE OUT.png: the whole page at 1280 px

. "$SRCDIR/tests/e2e/fleet-results.sh"

PAGES_WIDTH=${PAGES_WIDTH:-1280}

pages_make() {
	local dir=$1 r i h factor
	mkdir -p "$dir"
	"$UBTUNE" report --html "$dir/report-bench.html" "$SRCDIR/tests/fixtures/results/bench-quick-busy.json" ||
		return 1
	"$UBTUNE" report --html "$dir/report-import.html" \
		"$SRCDIR/tests/fixtures/unixbench-published/gist-sorz-4cpu.txt" || return 1
	"$UBTUNE" report --html "$dir/report-two.html" "$SRCDIR/tests/fixtures/results/rk3568-board-knobs.json" \
		"$SRCDIR/tests/fixtures/results/rk3568-newer-kernel.json" || return 1
	"$UBTUNE" compare --chart "$dir/compare.svg" "$SRCDIR/tests/fixtures/results/rk3568-board-knobs.json" \
		"$SRCDIR/tests/fixtures/results/rk3568-newer-kernel.json" >/dev/null || return 1
	{
		printf '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"/><title>compare --chart</title></head><body>\n'
		sed 1d "$dir/compare.svg"
		printf '</body></html>\n'
	} >"$dir/compare.html"
	i=0
	for h in p01 p02 p03 p04 p05 p06 p07 p08 p09 p10 x86 b7; do
		i=$((i + 1))
		case $h in
		x86) factor=25 ;;
		b7) factor=0.5 ;;
		*) factor=1 ;;
		esac
		fleet_result "$h" "$(printf '%032x' $i)" "$factor" "$([ $h = b7 ] && echo hdd || echo sd)" || return 1
	done
	"$UBTUNE" fleet --html "$dir/fleet.html" "$T"/p*-0*.json "$T"/x86-0*.json "$T"/b7-0*.json >/dev/null
}

pages_chromium() {
	local profile
	profile=$(mktemp -d "$T/chromium.XXXXXX")
	chromium --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update \
		--disable-sync --no-first-run --user-data-dir="$profile" "$@" 2>>"$T/chromium.log"
	rm -rf "$profile"
}

pages_measure() {
	local page=$1 out=$2 copy
	copy="$T/measure-$(basename "$page")"
	$PY -c 'import sys
page, js = open(sys.argv[1]).read(), open(sys.argv[2]).read()
sys.stdout.write(page.replace("</body>", "<script>" + js + "</script></body>"))' "$page" "$SRCDIR/tests/e2e/page-check.js" \
		>"$copy"
	pages_chromium --window-size="$PAGES_WIDTH,900" --dump-dom "file://$copy" |
		$PY -c 'import sys, re, html
m = re.findall(r"<pre id=\"ubtune-check\">(.*?)</pre>", sys.stdin.read(), re.S)
sys.exit("the page check did not run") if not m else print(html.unescape(m[-1]))' >"$out"
}

pages_screenshot() {
	local page=$1 out=$2 height
	pages_measure "$page" "$T/height.json" || return 1
	height=$(json_get "$T/height.json" 'd["height"]')
	pages_chromium --window-size="$PAGES_WIDTH,$height" --hide-scrollbars --screenshot="$out" "file://$(realpath "$page")" \
		>/dev/null
}
