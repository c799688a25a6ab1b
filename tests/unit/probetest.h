/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * For tests of probe areas: throwaway roots (a temporary directory filled
 * with the few /proc and /sys files a case needs, or a copy of a fixture
 * root to change) probed like --root and removed afterwards, and running
 * one finding rule on a record.
 */
#pragma once

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>

#include "probe/findings.h"
#include "testlib.h"

static inline char *tmproot_new(void)
{
	char tmpl[] = "/tmp/ubtune-test-XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	return xstrdup(tmpl);
}

/* mkdir -p of the directories leading to root/path. */
static inline void tmproot_parents(const char *root, const char *path)
{
	_cleanup_free_ char *full = xasprintf("%s/%s", root, path);
	for (char *p = full + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(full, 0755) < 0 && errno != EEXIST)
			fail_msg("mkdir %s: %s", full, strerror(errno));
		*p = '/';
	}
}

static inline void tmproot_write_bytes(const char *root, const char *path, const void *data, size_t len)
{
	tmproot_parents(root, path);
	_cleanup_free_ char *full = xasprintf("%s/%s", root, path);
	_cleanup_close_ int fd = open(full, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
}

/* Writes text, a newline added as sysfs and procfs end their values. */
static inline void tmproot_write(const char *root, const char *path, const char *text)
{
	_cleanup_free_ char *line = xasprintf("%s\n", text);
	tmproot_write_bytes(root, path, line, strlen(line));
}

static inline void tmproot_link(const char *root, const char *path, const char *target)
{
	tmproot_parents(root, path);
	_cleanup_free_ char *full = xasprintf("%s/%s", root, path);
	unlink(full);
	assert_int_equal(symlink(target, full), 0);
}

/* A writable copy of a fixture root (synthetic or unpacked real dump). */
static inline char *tmproot_copy(const char *fixture)
{
	char *root = tmproot_new();
	_cleanup_free_ char *src = fixture_root(fixture);
	_cleanup_free_ char *cmd = xasprintf("cp -a '%s'/. '%s' && chmod -R u+w '%s'", src, root, root);
	assert_int_equal(system(cmd), 0);
	return root;
}

static inline void tmproot_free(char *root)
{
	_cleanup_free_ char *cmd = xasprintf("rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
	free(root);
}

/* True when rec.unavailable has an entry of area whose reason holds text. */
static inline bool unavailable_mentions(json_object *rec, const char *area, const char *text)
{
	size_t n = jpath_len(rec, "unavailable");
	for (size_t i = 0; i < n; i++) {
		json_object *u = json_object_array_get_idx(jpath(rec, "unavailable"), i);
		if (streq_ptr(jpath_str(u, "area"), area) && strstr(jpath_str(u, "reason") ?: "", text))
			return true;
	}
	return false;
}

/* Runs the rule with this id on a record: true when it fires (f filled). */
static inline bool rule_fires(const char *id, json_object *rec, struct finding *f)
{
	const struct rule *r = rule_lookup(id);
	if (!r)
		fail_msg("no rule %s", id);
	return rule_run(r, rec, f);
}

/* The rule fires on the record literal, or not; when it does and evidence
 * is given, with exactly that evidence. */
static inline void assert_rule(const char *id, const char *record, bool fires, const char *evidence)
{
	json_object *rec = json_lit(record);
	struct finding f;
	bool got = rule_fires(id, rec, &f);
	if (got != fires)
		fail_msg("%s %s on %s", id, got ? "fired" : "did not fire", record);
	if (got && evidence)
		assert_string_equal(f.evidence, evidence);
	if (got)
		finding_clear(&f);
	json_object_put(rec);
}
