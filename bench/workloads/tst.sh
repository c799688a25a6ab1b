#!/bin/sh
# tst.sh INPUT: the pipeline of the Shell Scripts tests, run in the current
# directory: sort the input, octal-dump the result and sort the dump
# numerically, grep it for "the" through tee into wc, remove the files.
# The input has exactly 35 lines containing "the"; wc must have counted them.
sort >sort.$$ <"$1"
od sort.$$ | sort -n -k 1 >od.$$
grep the sort.$$ | tee grep.$$ | wc >wc.$$
read lines words bytes <wc.$$
rm sort.$$ grep.$$ od.$$ wc.$$
if [ "$lines" != 35 ]; then
	echo "tst.sh: found ${lines:-no} lines containing \"the\" in $1, expected 35" >&2
	exit 1
fi
