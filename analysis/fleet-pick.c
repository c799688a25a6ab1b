/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which results a fleet view shows, from the store's listing read one
 * summary at a time: what is kept of each is a few numbers and pointers to
 * strings kept once (host names, machine ids and rounds repeat). */
#include <errno.h>
#include <inttypes.h>
#include <search.h>
#include <stdlib.h>

#include "analysis/fleet.h"
#include "lib/util.h"

struct pick_entry {
	int64_t id;
	const char *host, *machine_id, *round; /* interned; NULL: not known */
	char *started_at;                      /* each its own: they rarely repeat */
	unsigned *copies;                                   /* of its runs, 0 for a run that does not say */
	size_t ncopies;
	const char *key;                                    /* its host as a key (interned), once resolved */
	bool attributed;                                    /* no machine id: given the one of its host name */
};

struct fleet_pick {
	void *strings; /* tsearch() tree of every string kept */
	struct pick_entry *v;
	size_t n, cap;
	bool resolved; /* every entry has its key */
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(a, b);
}

static void nofree(void *p)
{
}

static const char *intern(struct fleet_pick *p, const char *s)
{
	if (!s)
		return NULL;
	char **found = tfind(s, &p->strings, cmp_str);
	if (found)
		return *found;
	char *copy = xstrdup(s);
	found = tsearch(copy, &p->strings, cmp_str);
	if (!found)
		abort(); /* out of memory, as xmalloc() */
	return *found;
}

struct fleet_pick *fleet_pick_new(void)
{
	return xcalloc(1, sizeof(struct fleet_pick));
}

void fleet_pick_free(struct fleet_pick *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n; i++) {
		free(p->v[i].copies);
		free(p->v[i].started_at);
	}
	free(p->v);
	tdestroy(p->strings, free);
	free(p);
}

void fleet_pick_add(struct fleet_pick *p, int64_t id, json_object *summary)
{
	p->resolved = false;
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 256;
		p->v = xrealloc(p->v, p->cap * sizeof(*p->v));
	}
	json_object *copies = jpath(summary, "copies");
	struct pick_entry *e = &p->v[p->n++];
	*e = (struct pick_entry){ .id = id,
			     .host = intern(p, jpath_str(summary, "host")),
			     .machine_id = intern(p, jpath_str(summary, "machine_id")),
			     .round = intern(p, jpath_str(summary, "round")),
			     .started_at = xstrdup_or_null(jpath_str(summary, "started_at")),
			     .copies = xcalloc(jarr_len(copies) + 1, sizeof(*e->copies)) };
	for (size_t i = 0; i < jarr_len(copies); i++) {
		int64_t c = json_object_get_int64(json_object_array_get_idx(copies, i));
		e->copies[e->ncopies++] = c > 0 && c <= 1 << 20 ? (unsigned)c : 0;
	}
}

/* ---- hosts ---- */

/* A host name and the one machine id seen with it (NULL: none, or several). */
struct name_machine {
	const char *host, *machine_id;
	bool several;
};

static int by_host(const void *a, const void *b)
{
	const struct name_machine *x = a, *y = b;
	return strcmp(x->host, y->host);
}

/* Each result's key: "m:ID", else the machine of its name when exactly one
 * goes with it, else "h:NAME", else "r:ID" (a host of its own). */
static void resolve_keys(struct fleet_pick *p)
{
	if (p->resolved)
		return;
	p->resolved = true;
	struct name_machine *names = xcalloc(p->n + 1, sizeof(*names));
	size_t nn = 0;
	for (size_t i = 0; i < p->n; i++)
		if (p->v[i].host && p->v[i].machine_id)
			names[nn++] = (struct name_machine){ p->v[i].host, p->v[i].machine_id, false };
	qsort(names, nn, sizeof(*names), by_host);
	size_t u = 0;
	for (size_t i = 0; i < nn; i++) {
		if (u && names[u - 1].host == names[i].host) {
			names[u - 1].several |= names[u - 1].machine_id != names[i].machine_id;
			continue;
		}
		names[u++] = names[i];
	}
	for (size_t i = 0; i < p->n; i++) {
		struct pick_entry *e = &p->v[i];
		_cleanup_free_ char *key = NULL;
		struct name_machine k = { .host = e->host }, *m = NULL;
		if (e->machine_id) {
			key = xasprintf("m:%s", e->machine_id);
		} else if (e->host && (m = bsearch(&k, names, u, sizeof(*names), by_host)) && !m->several) {
			key = xasprintf("m:%s", m->machine_id);
			e->attributed = true;
		} else if (e->host) {
			key = xasprintf("h:%s", e->host);
		} else {
			key = xasprintf("r:%" PRId64, e->id);
		}
		e->key = intern(p, key);
	}
	free(names);
}

/* ---- the choice ---- */

/* A run of a result that may be shown: its host, copy count and id. */
struct slot {
	const char *key;
	unsigned copies;
	size_t entry;
};

static int by_slot(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;
	int c = strcmp(x->key, y->key);
	if (c)
		return c;
	if (x->copies != y->copies)
		return x->copies < y->copies ? -1 : 1;
	/* the latest first */
	return (x->entry < y->entry) - (x->entry > y->entry);
}

static bool in_round(const struct pick_entry *e, enum fleet_pick_mode mode, const char *round)
{
	return mode == FLEET_PICK_ALL || (round ? e->round == round : true);
}

/* The round of the latest result that has one; NULL when none has. */
static const char *latest_round(const struct fleet_pick *p)
{
	for (size_t i = p->n; i-- > 0;)
		if (p->v[i].round)
			return p->v[i].round;
	return NULL;
}

/* "r1, r2 and r3": the rounds in the order they were last stored in. */
static char *round_list(const struct fleet_pick *p)
{
	struct strv rounds = {0};
	for (size_t i = p->n; i-- > 0;)
		if (p->v[i].round && !strv_contains(&rounds, p->v[i].round))
			strv_push(&rounds, p->v[i].round);
	char *s = rounds.n ? strv_join(&rounds, ", ") : xstrdup("none");
	strv_free(&rounds);
	return s;
}

static int by_entry_id(const void *a, const void *b)
{
	const struct pick_entry *const *x = a, *const *y = b;
	return ((*x)->id > (*y)->id) - ((*x)->id < (*y)->id);
}

/* Why a result was left out, and the ids (at most MAX_LISTED listed). */
#define MAX_LISTED 100
struct reason {
	const char *why;
	const char *round; /* for results of another round */
	size_t count;
	json_object *ids;
};

static void reason_add(struct reason **v, size_t *n, const char *why, const char *round, int64_t id)
{
	for (size_t i = 0; i < *n; i++)
		if ((*v)[i].why == why && (*v)[i].round == round) {
			if ((*v)[i].count++ < MAX_LISTED)
				json_object_array_add((*v)[i].ids, json_object_new_int64(id));
			return;
		}
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = (struct reason){ why, round, 1, json_object_new_array() };
	json_object_array_add((*v)[*n - 1].ids, json_object_new_int64(id));
}

static const char WHY_SUPERSEDED[] = "a later result of the same host and copy count is shown";
static const char WHY_OTHER_ROUND[] = "of another round";
static const char WHY_NO_ROUND[] = "of no round";
static const char WHY_NO_COPIES[] = "no run says its copy count";

/* The short form of a machine id in a label: enough to tell two apart. */
#define ID_SHOWN 6

static char *label_of(const struct pick_entry *e, bool shared_name)
{
	if (!e->host)
		return xasprintf("unnamed host (result %" PRId64 ")", e->id);
	if (!shared_name)
		return xstrdup(e->host);
	if (startswith(e->key, "m:"))
		return xasprintf("%s [%.*s]", e->host, ID_SHOWN, e->key + 2);
	return xasprintf("%s [no machine id]", e->host);
}

static int by_name_key(const void *a, const void *b)
{
	const struct pick_entry *const *x = a, *const *y = b;
	int r = strcmp((*x)->host, (*y)->host);
	return r ? r : strcmp((*x)->key, (*y)->key);
}

/* Whether each of v[0..n) shares its host name with another host (key). */
static bool *shared_names(struct pick_entry **v, size_t n)
{
	bool *shared = xcalloc(n + 1, sizeof(*shared));
	struct pick_entry **named = xcalloc(n + 1, sizeof(*named));
	size_t nn = 0;
	for (size_t i = 0; i < n; i++)
		if (v[i]->host)
			named[nn++] = v[i];
	qsort(named, nn, sizeof(*named), by_name_key);
	for (size_t i = 0; i < n; i++) {
		if (!v[i]->host)
			continue;
		struct pick_entry **at = bsearch(&v[i], named, nn, sizeof(*named), by_name_key);
		/* the first and last of this name: another key among them? */
		size_t lo = (size_t)(at - named), hi = lo;
		while (lo > 0 && named[lo - 1]->host == v[i]->host)
			lo--;
		while (hi + 1 < nn && named[hi + 1]->host == v[i]->host)
			hi++;
		shared[i] = named[lo]->key != named[hi]->key;
	}
	free(named);
	return shared;
}

/* What the selection says of a host with several results, or one named
 * by its host name alone. */
static json_object *group_json(const char *label, struct pick_entry **v, size_t n)
{
	json_object *o = json_object_new_object(), *ids = json_object_new_array();
	bool attributed = false;
	for (size_t i = 0; i < n; i++) {
		json_object_array_add(ids, json_object_new_int64(v[i]->id));
		attributed |= v[i]->attributed;
	}
	jset_str(o, "host", label);
	jset_str(o, "machine_id", startswith(v[0]->key, "m:") ? v[0]->key + 2 : NULL);
	jset(o, "results", ids);
	const char *why = startswith(v[0]->key, "h:")
				  ? "the same host name, and no machine id recorded"
				  : attributed ? "the same machine id; a result without one goes to the only machine of its host name"
					       : "the same machine id";
	jset_str(o, "why", why);
	return o;
}

static json_object *reasons_json(struct reason *v, size_t n)
{
	json_object *a = json_object_new_array();
	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_new_object();
		jset_str(o, "why", v[i].why);
		jset_str(o, "round", v[i].round);
		jset_int(o, "results", (int64_t)v[i].count);
		jset(o, "ids", v[i].ids);
		json_object_array_add(a, o);
	}
	free(v);
	return a;
}

/* The hosts of other results that have none among the chosen ones: the
 * latest result of each. */
static json_object *missing_json(struct fleet_pick *p, const bool *chosen, const char *round)
{
	json_object *a = json_object_new_array();
	void *shown = NULL, *seen = NULL;
	for (size_t i = 0; i < p->n; i++)
		if (chosen[i])
			tsearch(p->v[i].key, &shown, cmp_str);
	struct pick_entry **latest = xcalloc(p->n + 1, sizeof(*latest));
	size_t n = 0;
	for (size_t i = p->n; i-- > 0;) {
		struct pick_entry *e = &p->v[i];
		if (chosen[i] || tfind(e->key, &shown, cmp_str) || tfind(e->key, &seen, cmp_str))
			continue;
		tsearch(e->key, &seen, cmp_str);
		latest[n++] = e;
	}
	qsort(latest, n, sizeof(*latest), by_entry_id);
	bool *shared = shared_names(latest, n);
	for (size_t i = 0; i < n; i++) {
		json_object *o = json_object_new_object();
		_cleanup_free_ char *label = label_of(latest[i], shared[i]);
		jset_str(o, "host", label);
		jset_str(o, "machine_id", startswith(latest[i]->key, "m:") ? latest[i]->key + 2 : NULL);
		jset_int(o, "latest", latest[i]->id);
		jset_str(o, "round", latest[i]->round);
		jset_str(o, "started_at", latest[i]->started_at);
		json_object_array_add(a, o);
	}
	free(shared);
	free(latest);
	tdestroy(shown, nofree);
	tdestroy(seen, nofree);
	return a;
}

/* Indexes into an array of entries (arg), by key, then id. */
static int by_key(const void *a, const void *b, void *arg)
{
	struct pick_entry **v = arg;
	const struct pick_entry *x = v[*(const size_t *)a], *y = v[*(const size_t *)b];
	int c = strcmp(x->key, y->key);
	return c ? c : (x->id > y->id) - (x->id < y->id);
}

int fleet_pick_choose(struct fleet_pick *p, enum fleet_pick_mode mode, const char *round, struct fleet_choice *out,
		      char **error)
{
	*out = (struct fleet_choice){0};
	resolve_keys(p);
	const char *r = mode == FLEET_PICK_LATEST ? latest_round(p) : NULL;
	if (mode == FLEET_PICK_ROUND) {
		char **found = tfind(round, &p->strings, cmp_str);
		bool exists = false;
		for (size_t i = 0; found && !exists && i < p->n; i++)
			exists = p->v[i].round == *found;
		if (!exists) {
			_cleanup_free_ char *rounds = round_list(p);
			*error = xasprintf("no result of round '%s' is stored (the rounds: %s)", round, rounds);
			return -ENOENT;
		}
		r = *found;
	}
	/* every run of a result of the round, by host and copy count, the latest first */
	struct slot *slots = NULL;
	size_t ns = 0, cap = 0;
	struct reason *left = NULL;
	size_t nleft = 0;
	bool *chosen = xcalloc(p->n + 1, sizeof(*chosen)), *runs = xcalloc(p->n + 1, sizeof(*runs));
	for (size_t i = 0; i < p->n; i++) {
		struct pick_entry *e = &p->v[i];
		if (!in_round(e, mode, r)) {
			reason_add(&left, &nleft, e->round ? WHY_OTHER_ROUND : WHY_NO_ROUND, e->round, e->id);
			continue;
		}
		size_t before = ns;
		for (size_t k = 0; k < e->ncopies; k++) {
			if (!e->copies[k])
				continue;
			if (ns == cap)
				slots = xrealloc(slots, (cap = cap ? 2 * cap : 256) * sizeof(*slots));
			slots[ns++] = (struct slot){ e->key, e->copies[k], i };
		}
		if (ns == before)
			reason_add(&left, &nleft, WHY_NO_COPIES, NULL, e->id);
		runs[i] = ns > before;
	}
	qsort(slots, ns, sizeof(*slots), by_slot);
	for (size_t k = 0; k < ns; k++)
		if (mode == FLEET_PICK_ALL || !k || slots[k - 1].key != slots[k].key || slots[k - 1].copies != slots[k].copies)
			chosen[slots[k].entry] = true;
	for (size_t i = 0; i < p->n; i++)
		if (runs[i] && !chosen[i])
			reason_add(&left, &nleft, WHY_SUPERSEDED, NULL, p->v[i].id);
	free(slots);
	free(runs);

	struct pick_entry **shown = xcalloc(p->n + 1, sizeof(*shown));
	for (size_t i = 0; i < p->n; i++)
		if (chosen[i])
			shown[out->n++] = &p->v[i];
	bool *shared = shared_names(shown, out->n);
	out->ids = xcalloc(out->n + 1, sizeof(*out->ids));
	out->labels = xcalloc(out->n + 1, sizeof(*out->labels));
	out->machines = xcalloc(out->n + 1, sizeof(*out->machines));
	for (size_t i = 0; i < out->n; i++) {
		out->ids[i] = shown[i]->id;
		out->labels[i] = label_of(shown[i], shared[i]);
		out->machines[i] = xstrdup(shown[i]->key);
	}
	out->round = xstrdup_or_null(r);

	json_object *sel = out->selection = json_object_new_object(), *groups = json_object_new_array();
	jset_str(sel, "round", r);
	jset_int(sel, "stored", (int64_t)p->n);
	jset_int(sel, "shown", (int64_t)out->n);
	/* hosts of several results, or known by their name alone: the
	 * results shown by host (their keys are interned: one pointer each) */
	size_t hosts = 0, *order = xcalloc(out->n + 1, sizeof(*order));
	for (size_t i = 0; i < out->n; i++)
		order[i] = i;
	qsort_r(order, out->n, sizeof(*order), by_key, shown);
	struct pick_entry **same = xcalloc(out->n + 1, sizeof(*same));
	for (size_t i = 0; i < out->n;) {
		size_t k = 0, first = order[i];
		bool attributed = false;
		for (; i < out->n && shown[order[i]]->key == shown[first]->key; i++) {
			same[k++] = shown[order[i]];
			attributed |= shown[order[i]]->attributed;
		}
		hosts++;
		if (k > 1 || attributed)
			json_object_array_add(groups, group_json(out->labels[first], same, k));
	}
	jset_int(sel, "hosts", (int64_t)hosts);
	jset(sel, "grouped", groups);
	jset(sel, "left_out", reasons_json(left, nleft));
	jset(sel, "missing", r ? missing_json(p, chosen, r) : json_object_new_array());
	free(same);
	free(order);
	free(shared);
	free(shown);
	free(chosen);
	return 0;
}

void fleet_choice_free(struct fleet_choice *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->labels[i]);
		free(c->machines[i]);
	}
	free(c->labels);
	free(c->machines);
	free(c->ids);
	free(c->round);
	json_object_put(c->selection);
	*c = (struct fleet_choice){0};
}
