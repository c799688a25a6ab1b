#!/bin/bash
# The bench report (`ubtune show`) and the HTML page (`ubtune report`) of
# every UnixBench output and result file under tests/fixtures/, a page of
# several results side by side, and compare's SVG chart (absolute and
# --relative), byte for byte against tests/golden/report/. Times from
# ubtune's own clock (the import time of a log that does not say when it
# ran) read <now>.
# UPDATE_GOLDEN=1 writes the goldens of new fixtures and rewrites the others
# (then read the diff).
. "$(dirname "$0")/lib.sh"
# the goldens are text wrapped at 100 columns
export COLUMNS=100

GOLDEN="$SRCDIR/tests/golden/report"
export TZ=UTC
# the level against a frozen model (tests/fixtures/expect/README.md): the only data the reports read
mkdir -p "$T/data/reference"
cp "$SRCDIR/tests/fixtures/expect/cpus.ini" "$SRCDIR/tests/fixtures/expect/expect.ini" "$T/data/reference/"
export UBTUNE_DATADIR=$T/data
cd "$SRCDIR/tests/fixtures" || fail "no fixtures"

inputs=()
while IFS= read -r f; do
	inputs+=("$f")
done < <(find unixbench-logs results -type f ! -name README.md ! -name '*.py' | sort)

start=$EPOCHSECONDS
got=()
n=0
for f in "${inputs[@]}"; do
	n=$((n + 1))
	out="$T/got/$f.txt"
	mkdir -p "$(dirname "$out")"
	# a store of its own: the result is always number 1
	export UBTUNE_STATE_DIR="$T/state-$n"
	"$UBTUNE" import "$f" >/dev/null 2>&1
	session "$out" show 1
	session "$out" report --html - "$f"
	got+=("$out")
done
export UBTUNE_STATE_DIR="$T/state-many"
logs=unixbench-logs
many=("$logs/v6-full/vm-2026-11-29-01" "$logs/v5-full/vm-2026-11-29-01" results/bench-programs-quick.json
	results/rpi4-undervoltage.json)
session "$T/got/several.txt" report --html - "${many[@]}"
got+=("$T/got/several.txt")
for pair in "$logs/v6-full/vm-2026-11-29-01 $logs/v5-full/vm-2026-11-29-01" \
	"results/bench-programs-quick.json results/rpi4-undervoltage.json"; do
	for rel in "" --relative; do
		rm -f "$T/chart.svg"
		# shellcheck disable=SC2086
		"$UBTUNE" compare --chart "$T/chart.svg" $rel $pair >/dev/null 2>"$T/err" ||
			fail "compare --chart $rel $pair failed: $(cat "$T/err")"
		{
			echo "\$ ubtune compare --chart FILE.svg $rel $pair"
			cat "$T/chart.svg"
		} >>"$T/got/chart.txt"
	done
done
got+=("$T/got/chart.txt")
$PY "$SRCDIR/tests/e2e/normalize-now.py" "$start" "$EPOCHSECONDS" "${got[@]}" || fail "cannot normalise the outputs"

check_goldens "$T/got" "$GOLDEN" "${got[@]}"

# a golden whose input is gone is left over
while IFS= read -r g; do
	[ -f "$T/got/${g#"$GOLDEN/"}" ] || fail "$g is the golden output of no fixture: remove it"
done < <(find "$GOLDEN" -name '*.txt')
echo "${#inputs[@]} inputs shown and reported as their goldens say"
pass
