#!/bin/sh
# multi.sh COPIES [INPUT]: one loop of the Shell Scripts tests. Starts
# COPIES concurrent tst.sh (from this script's directory) on INPUT
# (default: sort.src in the current directory, written by
# `ubtune-workloads shell-input sort.src`), waits for all of them and fails
# if any failed. Only shell built-ins here, so the loop costs what
# UnixBench's multi.sh costs: the shells and programs of the pipelines.
copies=${1:?usage: multi.sh COPIES [INPUT]}
input=${2:-sort.src}
case $0 in
*/*) here=${0%/*} ;;
*) here=. ;;
esac
pids=
i=1
while [ $i -le "$copies" ]; do
	/bin/sh "$here/tst.sh" "$input" &
	pids="$pids $!"
	i=$((i + 1))
done
status=0
for pid in $pids; do
	wait "$pid" || status=1
done
exit $status
