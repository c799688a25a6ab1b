#!/usr/bin/python3
# Imports every file of a corpus directory (tests/fixtures/unixbench-published, or the
# mangled forms of tests/fixtures/unixbench-logs) with `ubtune import --json --no-store` and
# checks each run against its manifest.json: the number of runs, their labels, copies,
# printed scores (system, 2D, 3D) and every test's printed result, unit and index. Every file
# of the directory must be listed unless the manifest says "only_listed". It counts the sources (a
# repository, or a web site; a GitHub or GitLab address is its repository, a gist or a Bitbucket
# snippet its owner's; a write-up that only reached us transcribed, its title), the independent authors (each file's "author": the person or organisation
# that ran and published the run, the same for a run reposted on other sites) and the format classes.
# With --healthy, it also runs `ubtune diagnose --json` on every file and checks that no result
# whose runs the manifest marks "healthy" gets a finding above low confidence.
# Usage: check-corpus.py [--healthy] UBTUNE CORPUS_DIR [FILE...]
import json
import os
import re
import subprocess
import sys


def num(s):
    """A number as the source printed it ("4,151", "1825.8", "3363,7") as a float."""
    if re.fullmatch(r"\d+,\d{1,2}", s):
        return float(s.replace(",", "."))
    return float(s.replace(",", ""))


def same(printed, stored):
    return stored is not None and abs(num(printed) - stored) <= 1e-9 * max(1.0, abs(stored))


def check_run(where, want, got, errors):
    def err(msg):
        errors.append("%s: %s" % (where, msg))

    if "label" in want and got.get("label") != want["label"]:
        err("label %r, expected %r" % (got.get("label"), want["label"]))
    if got.get("copies") != want["copies"]:
        err("copies %r, expected %r" % (got.get("copies"), want["copies"]))
    if "cpus_in_system" in want and got.get("cpus_in_system") != want["cpus_in_system"]:
        err("cpus_in_system %r, expected %r" % (got.get("cpus_in_system"), want["cpus_in_system"]))
    index = got.get("index") or {}
    if want["score"] is not None:
        if not same(want["score"], index.get("score")) or index.get("score_source") != "report":
            err("score %r (%s), expected %s as printed" % (index.get("score"), index.get("score_source"), want["score"]))
    elif index.get("score_source") == "report":
        err("score %r from the report, but the source prints none" % index.get("score"))
    if want.get("partial") and not index.get("partial"):
        err("not marked partial")
    graphics = got.get("graphics") or {}
    for kind in ("2d", "3d"):
        key = "score_" + kind
        g = graphics.get(kind) or {}
        if key in want:
            if not same(want[key], g.get("score")) or g.get("score_source") != "report":
                err("%s score %r, expected %s" % (kind.upper(), g.get("score"), want[key]))
        elif g.get("score_source") == "report":
            err("a %s score the source does not print" % kind.upper())
    tests = {t["name"]: t for t in got.get("tests", [])}
    for t in want["tests"]:
        g = tests.get(t["name"])
        if g is None:
            err("no test %r" % t["name"])
            continue
        for field in ("result", "index"):
            if t.get(field) is not None and not same(t[field], g.get(field)):
                err("%s: %s %r, expected %s" % (t["name"], field, g.get(field), t[field]))
        if "unit" in t and g.get("unit") != t["unit"]:
            err("%s: unit %r, expected %r" % (t["name"], g.get("unit"), t["unit"]))


def source_of(origin):
    """The repository or web site a file comes from: a GitHub or GitLab address counts as its
    repository, a gist or a Bitbucket snippet as its owner's."""
    if "repo" in origin:
        return origin["repo"]
    if "write_up" in origin:
        return "write-up: " + origin["write_up"]
    parts = origin["url"].split("/")
    host = parts[2][4:] if parts[2].startswith("www.") else parts[2]
    if host in ("github.com", "gitlab.com"):
        return "/".join(parts[3:5])
    if host in ("gist.github.com", "bitbucket.org"):
        return host + "/" + parts[3]
    return host


def check_healthy(ubtune, path, name, want, records, errors, counts):
    """Each result whose runs are all marked healthy gets no finding above low."""
    healthy, first = [], 0
    for rec in records:
        runs = want[first:first + len(rec["runs"])]
        first += len(rec["runs"])
        healthy.append(bool(runs) and all(r.get("healthy") for r in runs))
    if not any(healthy):
        return
    p = subprocess.run([ubtune, "diagnose", "--json", path], capture_output=True, text=True)
    if p.returncode == 2:
        counts["refused"] += sum(healthy)
        return
    if p.returncode != 0:
        errors.append("%s: diagnose exited %d: %s" % (name, p.returncode, p.stderr.strip()[:300]))
        return
    d = json.loads(p.stdout)
    reports = d["reports"] if d["schema"] == "ubtune.diagnosis-set/1" else [d]
    if len(reports) != len(records):
        errors.append("%s: %d diagnoses for %d results" % (name, len(reports), len(records)))
        return
    for i, (ok, rep) in enumerate(zip(healthy, reports)):
        if not ok:
            continue
        counts["healthy"] += 1
        for c in rep.get("causes", []):
            if c.get("confidence") != "low":
                errors.append("%s result %d: healthy, yet %s (%s): %s" %
                              (name, i + 1, c["id"], c.get("confidence"), c.get("reason", "")[:200]))


def main():
    args = sys.argv[1:]
    healthy = bool(args) and args[0] == "--healthy"
    if healthy:
        args = args[1:]
    ubtune, corpus = args[0], args[1]
    manifest = json.load(open(os.path.join(corpus, "manifest.json")))
    only = set(args[2:])
    counts = {"healthy": 0, "refused": 0}
    errors, runs, files = [], 0, 0
    listed = {e["file"] for e in manifest["files"]}
    for name in sorted(os.listdir(corpus)) if not manifest.get("only_listed") else []:
        if name not in ("manifest.json", "README.md") and name not in listed:
            errors.append("%s: not in manifest.json" % name)
    for e in manifest["files"]:
        if "origin" in e and not e.get("author"):
            errors.append("%s: an origin but no author" % e["file"])
    for entry in manifest["files"]:
        if only and entry["file"] not in only:
            continue
        files += 1
        path = os.path.join(corpus, entry["file"])
        p = subprocess.run([ubtune, "import", "--json", "--no-store", path], capture_output=True, text=True)
        if p.returncode != 0:
            errors.append("%s: import exited %d: %s" % (entry["file"], p.returncode, p.stderr.strip()[:300]))
            continue
        got = [r for rec in json.loads(p.stdout) for r in rec["runs"]]
        if len(got) != len(entry["runs"]):
            errors.append("%s: %d runs, expected %d" % (entry["file"], len(got), len(entry["runs"])))
            continue
        for i, (w, g) in enumerate(zip(entry["runs"], got)):
            runs += 1
            check_run("%s run %d" % (entry["file"], i + 1), w, g, errors)
        if healthy:
            check_healthy(ubtune, path, entry["file"], entry["runs"], json.loads(p.stdout), errors, counts)
    for e in errors:
        print(e)
    if healthy:
        print("%d healthy results diagnosed, %d that diagnose cannot judge" % (counts["healthy"], counts["refused"]))
    if not only and all("origin" in e for e in manifest["files"]):
        print("%d sources, %d independent authors, %d format classes" % (
            len({source_of(e["origin"]) for e in manifest["files"]}),
            len({e["author"] for e in manifest["files"] if e.get("author")}),
            len({e["format"] for e in manifest["files"]})))
    print("%d files, %d runs checked, %d problems" % (files, runs, len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
