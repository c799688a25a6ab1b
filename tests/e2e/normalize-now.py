#!/usr/bin/python3
"""Replaces the times a command took from its own clock with <now>.

Usage: normalize-now.py START END FILE...   (rewrites each FILE)

START and END are the epoch seconds just before and just after the commands
that wrote the files ran. A date and time in the output that falls between them (to the minute,
read as UTC: the tests run with TZ=UTC) is the command's own clock, such as
the import time of a log that does not say when it ran; it becomes <now>.
Every other byte is kept, so the result is compared byte for byte.
"""
import re
import sys
from datetime import datetime, timezone

STAMP = re.compile(r"\b(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d)(?::(\d\d))?(?:[+-]\d\d:?\d\d|Z)?")


def main():
    start, end = (int(float(a)) for a in sys.argv[1:3])
    start -= start % 60

    def repl(m):
        y, mo, d, h, mi, s = (int(x) if x else 0 for x in m.groups())
        try:
            t = datetime(y, mo, d, h, mi, s, tzinfo=timezone.utc).timestamp()
        except ValueError:
            return m.group(0)
        return "<now>" if start <= t <= end + 1 else m.group(0)

    for path in sys.argv[3:]:
        with open(path, encoding="utf-8", errors="surrogateescape", newline="") as f:
            text = f.read()
        with open(path, "w", encoding="utf-8", errors="surrogateescape", newline="") as f:
            f.write(STAMP.sub(repl, text))


main()
