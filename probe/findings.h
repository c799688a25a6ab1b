/* SPDX-License-Identifier: GPL-2.0-or-later */
#pragma once

#include <stdio.h>

#include "lib/env-record.h"
#include "lib/json.h"
#include "lib/util.h"

enum severity { SEV_INFO, SEV_WARN, SEV_CRIT };

struct finding {
	const char *id;
	const char *area;
	enum severity severity;
	char *message;
	char *evidence;
	char *fix;
};

/*
 * A finding rule: data (stable id, area, default severity, message, fix)
 * plus a small predicate over the environment record, decoded
 * (lib/env-record.h). The predicate returns true when the finding
 * applies; it must set f->evidence (the file and value seen) and may
 * override severity, message and fix.
 */
struct rule {
	const char *id;
	const char *area;
	enum severity severity;
	const char *message;
	const char *fix;
	bool (*check)(const struct env_record *env, struct finding *f);
};

/* Rule tables, one per area, each ended by an entry with id == NULL. */
extern const struct rule cpu_rules[], memory_rules[], virt_rules[], power_rules[],
	storage_rules[], numa_rules[], services_rules[], clock_rules[], idle_rules[], limits_rules[],
	cgroup_rules[];

/* Replaces (with fmt) one of a finding's text fields. */
void finding_set(char **field, const char *fmt, ...) _printf_(2, 3);
void finding_clear(struct finding *f);

/* Runs one rule on a record; true and *f filled when it applies. */
bool rule_run(const struct rule *r, json_object *rec, struct finding *f);
const struct rule *rule_lookup(const char *id);
/* Calls fn for every rule, in table order. */
void rules_foreach(void (*fn)(const struct rule *r, void *data), void *data);

/* Evaluates every rule and sets rec.findings, worst first. */
void findings_evaluate(json_object *rec);
const char *severity_name(enum severity s);
int severity_parse(const char *s, enum severity *out);
/* True when rec.findings holds a finding of at least this severity. */
bool findings_at_least(const struct env_record *env, enum severity s);
/* "Findings (worst first)" section of the text report, wrapped to the
 * output's width: the text beside the ids from FINDINGS_WIDE columns, else
 * under them. */
#define FINDINGS_WIDE 90
void findings_render(const struct env_record *env, FILE *out);
