/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The CPU catalogue: reading reference/cpus.ini, and placing a CPU in it. */
#include "cpu-catalogue.h"

#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <math.h>

#include "keyfile.h"
#include "paths.h"
#include "util.h"

/* The shipped file is about 40 KiB. */
#define CATALOGUE_MAX (4u << 20)
#define MODEL_MAX 256

/* ---- reading ---- */

struct load {
	struct kf_check c;
	struct cpu_catalogue *cat;
};

/* Checks a pattern: the characters fnmatch() and Python's fnmatch read alike. */
static const char *pattern_problem(const char *p)
{
	if (!*p)
		return "an empty pattern";
	if (strpbrk(p, "\\^"))
		return "a pattern may not hold '\\' or '^'";
	for (const char *c = p; *c; c++)
		if (isupper((unsigned char)*c))
			return "a pattern is written in lower case";
	/* words a model string loses before it is matched */
	static const char *const lost[] = { "cpu", "processor", "(r)", "(tm)", "@" };
	for (size_t i = 0; i < ARRAY_SIZE(lost); i++) {
		const char *w = strstr(p, lost[i]);
		size_t n = strlen(lost[i]);
		if (w && (lost[i][0] == '(' || lost[i][0] == '@' ||
			  ((w == p || w[-1] == ' ') && (w[n] == '\0' || w[n] == ' '))))
			return "a pattern cannot hold 'cpu', 'processor', '(r)', '(tm)' or '@': model strings lose them";
	}
	int depth = 0;
	for (const char *c = p; *c; c++) {
		if (*c == '[')
			depth++;
		else if (*c == ']')
			depth--;
		if (depth < 0 || depth > 1)
			return "unbalanced '[' and ']'";
	}
	return depth ? "unbalanced '[' and ']'" : NULL;
}

static void add_patterns(struct load *l, const struct kf_entry *e, struct strv *out)
{
	_cleanup_strv_ struct strv list = {0};
	strv_split(e->value, "|", &list);
	if (!list.n)
		kf_fail(&l->c, e, "no pattern");
	for (size_t i = 0; i < list.n; i++) {
		const char *why = pattern_problem(list.v[i]);
		if (why)
			kf_fail(&l->c, e, "'%s': %s", list.v[i], why);
		strsqueeze(list.v[i]);
		strv_push(out, list.v[i]);
	}
}

static bool parse_hex(const char *s, unsigned max, unsigned *out)
{
	uint64_t v;
	if (parse_u64_base(s, 0, &v) < 0 || v > max)
		return false;
	*out = (unsigned)v;
	return true;
}

static void add_midr(struct load *l, const struct kf_entry *e, struct cat_core *core)
{
	_cleanup_strv_ struct strv list = {0};
	strv_split(e->value, " \t", &list);
	for (size_t i = 0; i < list.n; i++) {
		char *colon = strchr(list.v[i], ':');
		struct cat_midr m;
		if (colon)
			*colon = '\0';
		if (!colon || !parse_hex(list.v[i], 0xff, &m.implementer) || !parse_hex(colon + 1, 0xfff, &m.part)) {
			if (colon)
				*colon = ':';
			kf_fail(&l->c, e, "'%s' is not IMPLEMENTER:PART (0x41:0xd08)", list.v[i]);
			return;
		}
		core->midr = xrealloc(core->midr, (core->nmidr + 1) * sizeof(*core->midr));
		core->midr[core->nmidr++] = m;
	}
}

static void add_x86(struct load *l, const struct kf_entry *e, struct cat_core *core)
{
	_cleanup_strv_ struct strv list = {0};
	strv_split(e->value, " \t", &list);
	for (size_t i = 0; i < list.n; i++) {
		_cleanup_strv_ struct strv f = {0};
		strv_split(list.v[i], ":", &f);
		struct cat_x86 x = {0};
		_cleanup_free_ char *model = f.n == 3 ? xstrdup(f.v[2]) : NULL;
		char *dash = model ? strchr(model, '-') : NULL;
		if (dash)
			*dash = '\0';
		if (f.n != 3 || !parse_hex(f.v[1], 0x1ff, &x.family) || !parse_hex(model, 0xff, &x.model_lo) ||
		    (dash && !parse_hex(dash + 1, 0xff, &x.model_hi)) || (dash && x.model_hi < x.model_lo)) {
			kf_fail(&l->c, e, "'%s' is not VENDOR:FAMILY:MODEL (GenuineIntel:6:0x55; a model may be a range, "
			     "0x30-0x3f)", list.v[i]);
			return;
		}
		if (!dash)
			x.model_hi = x.model_lo;
		x.vendor = xstrdup(f.v[0]);
		core->x86 = xrealloc(core->x86, (core->nx86 + 1) * sizeof(*core->x86));
		core->x86[core->nx86++] = x;
	}
}

static const char *const arch_names[] = { "x86_64", "i686", "aarch64", "armv7l", "armv6l", "riscv64", "loongarch64",
					  "ppc64le", "ppc64", "s390x", "mips64" };

static void add_arch(struct load *l, const struct kf_entry *e, struct cat_core *core)
{
	strv_split(e->value, " \t", &core->arch);
	for (size_t i = 0; i < core->arch.n; i++) {
		bool known = false;
		for (size_t k = 0; k < ARRAY_SIZE(arch_names); k++)
			known |= streq(core->arch.v[i], arch_names[k]);
		if (!known)
			kf_fail(&l->c, e, "'%s' is not an architecture (x86_64, i686, aarch64, armv7l, armv6l, riscv64, "
			     "loongarch64, ppc64le, ppc64, s390x, mips64)", core->arch.v[i]);
	}
}

/* A clock in GHz: a number from 0.05 to 10. */
static double ghz_of(struct load *l, const struct kf_entry *e, const char *text)
{
	double v;
	if (parse_double(text, &v) < 0 || !(v >= 0.05 && v <= 10)) {
		kf_fail(&l->c, e, "'%s' is not a clock in GHz (0.05 to 10)", text);
		return NAN;
	}
	return v;
}

static unsigned count_of(struct load *l, const struct kf_entry *e)
{
	uint64_t v;
	if (parse_u64(e->value, &v) < 0 || v < 1 || v > 1024) {
		kf_fail(&l->c, e, "'%s' is not a number of cores (1 to 1024)", e->value);
		return 0;
	}
	return (unsigned)v;
}

static const struct cat_core *core_ref(struct load *l, const struct kf_entry *e, const char *name)
{
	const struct cat_core *c = cpu_catalogue_core(l->cat, name);
	if (!c)
		kf_fail(&l->c, e, "'%s' is not a [core] of this file", name);
	return c;
}

static void read_core(struct load *l, struct cat_core *core)
{
	for (size_t i = 0; i < l->c.s->n; i++) {
		const struct kf_entry *e = &l->c.s->e[i];
		if (streq(e->key, "arch"))
			add_arch(l, e, core);
		else if (streq(e->key, "group"))
			core->group = xstrdup(e->value);
		else if (streq(e->key, "midr"))
			add_midr(l, e, core);
		else if (streq(e->key, "x86"))
			add_x86(l, e, core);
		else if (streq(e->key, "match"))
			add_patterns(l, e, &core->match);
		else if (streq(e->key, "neighbours"))
			strv_split(e->value, ",", &core->neighbour_names);
		else
			kf_fail(&l->c, e, "not a key of a [core] (arch, group, midr, x86, neighbours, match)");
	}
	kf_need(&l->c, "arch");
	kf_need(&l->c, "group");
}

static void read_cpu(struct load *l, struct cat_cpu *cpu)
{
	for (size_t i = 0; i < l->c.s->n; i++) {
		const struct kf_entry *e = &l->c.s->e[i];
		if (streq(e->key, "core"))
			cpu->core = core_ref(l, e, e->value);
		else if (streq(e->key, "little"))
			cpu->little = core_ref(l, e, e->value);
		else if (streq(e->key, "nominal"))
			cpu->nominal = ghz_of(l, e, e->value);
		else if (streq(e->key, "boost"))
			cpu->boost = ghz_of(l, e, e->value);
		else if (streq(e->key, "little_clock"))
			cpu->little_clock = ghz_of(l, e, e->value);
		else if (streq(e->key, "big_cores"))
			cpu->big_cores = count_of(l, e);
		else if (streq(e->key, "little_cores"))
			cpu->little_cores = count_of(l, e);
		else if (streq(e->key, "match"))
			add_patterns(l, e, &cpu->match);
		else
			kf_fail(&l->c, e, "not a key of a [cpu] (core, nominal, boost, little, little_cores, little_clock, "
			     "big_cores, match)");
	}
	kf_need(&l->c, "core");
	kf_need(&l->c, "match");
	if (cpu->boost < cpu->nominal)
		kf_fail(&l->c, kf_get(l->c.s, "boost"), "below the nominal clock");
	bool big_little = cpu->little || cpu->little_cores || cpu->big_cores || !isnan(cpu->little_clock);
	if (big_little && (!cpu->little || !cpu->little_cores || !cpu->big_cores || isnan(cpu->little_clock)))
		kf_fail(&l->c, NULL, "a big.LITTLE chip gives little, little_cores, little_clock and big_cores");
}

static void read_hidden(struct load *l, struct cat_hidden *h)
{
	for (size_t i = 0; i < l->c.s->n; i++) {
		const struct kf_entry *e = &l->c.s->e[i];
		if (streq(e->key, "candidates")) {
			_cleanup_strv_ struct strv list = {0};
			strv_split(e->value, ",", &list);
			if (list.n > CAT_MAX_CANDIDATES)
				kf_fail(&l->c, e, "more than %d cores", CAT_MAX_CANDIDATES);
			for (size_t k = 0; k < list.n && k < CAT_MAX_CANDIDATES; k++)
				h->candidates[h->ncandidates++] = core_ref(l, e, list.v[k]);
		} else if (startswith(e->key, "at.")) {
			if (h->nat >= CAT_MAX_CANDIDATES) {
				kf_fail(&l->c, e, "more than %d clocks", CAT_MAX_CANDIDATES);
				continue;
			}
			h->at[h->nat].ghz = ghz_of(l, e, e->key + 3);
			h->at[h->nat++].core = core_ref(l, e, e->value);
		} else if (streq(e->key, "match"))
			add_patterns(l, e, &h->match);
		else
			kf_fail(&l->c, e, "not a key of a [hidden] (candidates, at.GHZ, match)");
	}
	kf_need(&l->c, "candidates");
	kf_need(&l->c, "match");
}

static const char *const section_kinds[] = { "core", "cpu", "hidden" };

/* The kind of a section ("core", "cpu", "hidden": 0, 1, 2; -1: none) and *name its NAME. */
static int section_kind(const char *section, const char **name)
{
	const char *space = strchr(section, ' ');
	*name = space ? space + 1 : "";
	for (size_t k = 0; space && k < ARRAY_SIZE(section_kinds); k++)
		if ((size_t)(space - section) == strlen(section_kinds[k]) &&
		    strncmp(section, section_kinds[k], (size_t)(space - section)) == 0 && **name)
			return (int)k;
	return -1;
}

/* Every core first (the other entries name them), then the rest in file order. */
static void read_entries(struct load *l, int pass)
{
	struct cpu_catalogue *c = l->cat;
	for (size_t i = 0; i < l->c.kf->n && !l->c.error; i++) {
		const char *name;
		l->c.s = &l->c.kf->s[i];
		int kind = section_kind(l->c.s->name, &name);
		if (kind < 0) {
			kf_fail(&l->c, NULL, "a section is [core NAME], [cpu NAME] or [hidden NAME]");
			return;
		}
		if ((kind == 0) != (pass == 0))
			continue;
		bool dup = false;
		for (size_t k = 0; k < c->ncores && kind == 0; k++)
			dup |= streq(c->cores[k].name, name);
		for (size_t k = 0; k < c->ncpus && kind == 1; k++)
			dup |= streq(c->cpus[k].name, name);
		for (size_t k = 0; k < c->nhidden && kind == 2; k++)
			dup |= streq(c->hidden[k].name, name);
		if (dup) {
			kf_fail(&l->c, NULL, "listed twice");
			return;
		}
		if (kind == 0) {
			c->cores = xrealloc(c->cores, (c->ncores + 1) * sizeof(*c->cores));
			c->cores[c->ncores] = (struct cat_core){ .name = xstrdup(name), .line = l->c.s->line };
			read_core(l, &c->cores[c->ncores++]);
		} else if (kind == 1) {
			c->cpus = xrealloc(c->cpus, (c->ncpus + 1) * sizeof(*c->cpus));
			c->cpus[c->ncpus] = (struct cat_cpu){ .name = xstrdup(name), .line = l->c.s->line, .nominal = NAN,
							     .boost = NAN, .little_clock = NAN };
			read_cpu(l, &c->cpus[c->ncpus++]);
		} else {
			c->hidden = xrealloc(c->hidden, (c->nhidden + 1) * sizeof(*c->hidden));
			c->hidden[c->nhidden] = (struct cat_hidden){ .name = xstrdup(name), .line = l->c.s->line };
			read_hidden(l, &c->hidden[c->nhidden++]);
		}
	}
}

/* The neighbours every core names are cores of the file. */
static void check_neighbours(struct load *l)
{
	for (size_t i = 0; i < l->cat->ncores && !l->c.error; i++) {
		const struct cat_core *c = &l->cat->cores[i];
		for (size_t k = 0; k < l->c.kf->n; k++) {
			const char *name;
			if (section_kind(l->c.kf->s[k].name, &name) == 0 && streq(name, c->name))
				l->c.s = &l->c.kf->s[k];
		}
		for (size_t k = 0; k < c->neighbour_names.n; k++)
			core_ref(l, kf_get(l->c.s, "neighbours"), c->neighbour_names.v[k]);
	}
}

int cpu_catalogue_parse(const char *text, size_t len, const char *path, struct cpu_catalogue *cat, char **error)
{
	*cat = (struct cpu_catalogue){ .path = xstrdup(path) };
	struct keyfile kf;
	int r = keyfile_parse(text, len, path, &kf, error);
	if (r == 0) {
		struct load l = { .c.kf = &kf, .cat = cat };
		read_entries(&l, 0);
		read_entries(&l, 1);
		check_neighbours(&l);
		if (!l.c.error && !cat->ncores)
			l.c.error = xasprintf("%s: no [core] section, not a CPU catalogue", path);
		*error = l.c.error;
		r = l.c.error ? -EINVAL : 0;
	} else if (r == -EINVAL && strstr(*error, "NUL bytes")) {
		free(*error);
		*error = xasprintf("%s: contains NUL bytes, not a CPU catalogue", path);
	}
	keyfile_free(&kf);
	return r;
}

int cpu_catalogue_load(const char *path, struct cpu_catalogue *cat, char **error)
{
	_cleanup_free_ char *text = NULL;
	size_t len = 0;
	*cat = (struct cpu_catalogue){0};
	*error = NULL;
	int r = data_read(path, CATALOGUE_MAX, &text, &len, error);
	if (r < 0) {
		if (!*error)
			*error = xasprintf("cannot read %s: %s", path, strerror(-r));
		return r;
	}
	return cpu_catalogue_parse(text, len, path, cat, error);
}

const struct cat_core *cpu_catalogue_core(const struct cpu_catalogue *cat, const char *name)
{
	for (size_t i = 0; name && i < cat->ncores; i++)
		if (streq(cat->cores[i].name, name))
			return &cat->cores[i];
	return NULL;
}

void cpu_catalogue_free(struct cpu_catalogue *cat)
{
	for (size_t i = 0; i < cat->ncores; i++) {
		struct cat_core *c = &cat->cores[i];
		free(c->name);
		free(c->group);
		strv_free(&c->arch);
		strv_free(&c->match);
		strv_free(&c->neighbour_names);
		free(c->midr);
		for (size_t k = 0; k < c->nx86; k++)
			free(c->x86[k].vendor);
		free(c->x86);
	}
	for (size_t i = 0; i < cat->ncpus; i++) {
		free(cat->cpus[i].name);
		strv_free(&cat->cpus[i].match);
	}
	for (size_t i = 0; i < cat->nhidden; i++) {
		free(cat->hidden[i].name);
		strv_free(&cat->hidden[i].match);
	}
	free(cat->cores);
	free(cat->cpus);
	free(cat->hidden);
	free(cat->path);
	*cat = (struct cpu_catalogue){0};
}

/* ---- model strings ---- */

/* The clock after "@": "2.40GHz", "2400 MHz"; the end of what was read. */
static const char *read_clock(const char *p, double *ghz)
{
	while (*p == ' ')
		p++;
	char *end;
	double v = strtod(p, &end);
	if (end == p || !isdigit((unsigned char)*p))
		return NULL;
	const char *u = end;
	while (*u == ' ')
		u++;
	if (startswith(u, "ghz"))
		*ghz = v, u += 3;
	else if (startswith(u, "mhz"))
		*ghz = v / 1000, u += 3;
	else
		return NULL;
	return u;
}

void cpu_model_normalize(const char *in, char *out, size_t size, double *ghz)
{
	char buf[MODEL_MAX];
	size_t n = 0;
	*ghz = NAN;
	/* lower case; the signs (R), (TM), ® and ™ become spaces */
	for (const unsigned char *p = (const unsigned char *)in; *p && n + 1 < sizeof(buf);) {
		if (p[0] == 0xc2 && p[1] == 0xae) {
			buf[n++] = ' ', p += 2;
			continue;
		}
		if (p[0] == 0xe2 && p[1] == 0x84 && p[2] == 0xa2) {
			buf[n++] = ' ', p += 3;
			continue;
		}
		if (p[0] == '(' && (strncasecmp((const char *)p, "(r)", 3) == 0)) {
			buf[n++] = ' ', p += 3;
			continue;
		}
		if (p[0] == '(' && (strncasecmp((const char *)p, "(tm)", 4) == 0)) {
			buf[n++] = ' ', p += 4;
			continue;
		}
		buf[n++] = (char)tolower(*p++);
	}
	buf[n] = '\0';
	/* the clock after '@' */
	char *at = strchr(buf, '@');
	if (at) {
		double v = NAN;
		const char *end = read_clock(at + 1, &v);
		if (end) {
			*ghz = v;
			memmove(at, end, strlen(end) + 1);
		} else
			*at = ' ';
	}
	/* words, without "cpu" and "processor" */
	size_t o = 0;
	if (size)
		out[0] = '\0';
	for (char *save = NULL, *w = strtok_r(buf, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (streq(w, "cpu") || streq(w, "processor"))
			continue;
		size_t len = strlen(w);
		if (o + len + 1 + (o > 0) > size)
			break;
		if (o)
			out[o++] = ' ';
		memcpy(out + o, w, len + 1);
		o += len;
	}
}

/* ---- placing a CPU ---- */

/* How much of a string a pattern fixes: 2 per plain character, 1 per '#'
 * or bracket, 0 for '*' and '?'. */
static int specificity(const char *p)
{
	int s = 0;
	for (; *p; p++) {
		if (*p == '*' || *p == '?')
			continue;
		if (*p == '[') {
			const char *close = strchr(p, ']');
			p = close ? close : p;
			s += 1;
		} else
			s += *p == '#' ? 1 : 2;
	}
	return s;
}

/* A pattern matches the whole of s (whole) or whole words of it; -1 when not, else its specificity. */
static int pattern_match(const char *pattern, const char *s, bool whole)
{
	char glob[MODEL_MAX * 5 + 8], text[MODEL_MAX + 3];
	size_t n = 0;
	if (!whole)
		glob[n++] = '*', glob[n++] = ' ';
	for (const char *p = pattern; *p && n + 8 < sizeof(glob); p++) {
		if (*p == '#') {
			memcpy(glob + n, "[0-9]", 5);
			n += 5;
		} else
			glob[n++] = *p;
	}
	if (!whole)
		glob[n++] = ' ', glob[n++] = '*';
	glob[n] = '\0';
	snprintf(text, sizeof(text), whole ? "%s" : " %s ", s);
	return fnmatch(glob, text, 0) == 0 ? specificity(pattern) : -1;
}

/* The best pattern of list against the strings: its specificity (-1: none); *which the string's index. */
static int best_of(const struct strv *list, char models[][MODEL_MAX], size_t nmodels, bool whole, size_t *which)
{
	int best = -1;
	for (size_t m = 0; m < nmodels; m++)
		for (size_t i = 0; i < list->n; i++) {
			int s = pattern_match(list->v[i], models[m], whole);
			if (s > best) {
				best = s;
				*which = m;
			}
		}
	return best;
}

/* The instruction-set family of an architecture name: "x86", "arm", ... */
static const char *isa_of(const char *arch)
{
	static const char *const prefixes[][2] = {
		{ "x86", "x86" }, { "amd64", "x86" }, { "i386", "x86" }, { "i486", "x86" }, { "i586", "x86" },
		{ "i686", "x86" }, { "aarch64", "arm" }, { "arm", "arm" }, { "riscv", "riscv" },
		{ "loongarch", "loongarch" }, { "ppc", "ppc" }, { "powerpc", "ppc" }, { "s390", "s390" },
		{ "mips", "mips" },
	};
	for (size_t i = 0; arch && i < ARRAY_SIZE(prefixes); i++)
		if (startswith(arch, prefixes[i][0]))
			return prefixes[i][1];
	return NULL;
}

/* The core runs as arch (an architecture not known fits any core). */
static bool arch_fits(const struct cat_core *core, const char *arch)
{
	const char *isa = isa_of(arch);
	if (!core || !isa)
		return true;
	for (size_t i = 0; i < core->arch.n; i++)
		if (streq_ptr(isa_of(core->arch.v[i]), isa))
			return true;
	return false;
}

static const struct cat_core *core_by_id(const struct cpu_catalogue *cat, const struct cpu_facts *f, char *by,
					 size_t size)
{
	const struct cat_core *best = NULL;
	unsigned width = ~0u;
	for (size_t i = 0; i < cat->ncores; i++) {
		const struct cat_core *c = &cat->cores[i];
		for (size_t k = 0; k < c->nmidr && f->midr_implementer >= 0; k++)
			if ((int)c->midr[k].implementer == f->midr_implementer && (int)c->midr[k].part == f->midr_part) {
				snprintf(by, size, "MIDR 0x%02x:0x%03x", (unsigned)f->midr_implementer,
					 (unsigned)f->midr_part);
				return c;
			}
		for (size_t k = 0; k < c->nx86 && f->x86_vendor && f->x86_family >= 0; k++) {
			const struct cat_x86 *x = &c->x86[k];
			if (streq(x->vendor, f->x86_vendor) && (int)x->family == f->x86_family &&
			    f->x86_model >= (int)x->model_lo && f->x86_model <= (int)x->model_hi &&
			    x->model_hi - x->model_lo < width) {
				best = c;
				width = x->model_hi - x->model_lo;
				snprintf(by, size, "%s family 0x%x model 0x%x", f->x86_vendor, (unsigned)f->x86_family,
					 (unsigned)f->x86_model);
			}
		}
	}
	return best;
}

void cpu_facts_init(struct cpu_facts *f)
{
	*f = (struct cpu_facts){ .midr_implementer = -1, .midr_part = -1, .x86_family = -1, .x86_model = -1,
				 .clock_mhz = NAN, .bogomips = NAN };
}

/*
 * The clock of a placed CPU: the one the source states, else the model's
 * (its boost, else its nominal), else the model string's, else BogoMIPS / 2
 * on x86. On x86 a stated clock between the model's nominal and its boost
 * is a base clock (lscpu's "CPU MHz" in a guest): the model's boost is
 * what one copy runs at. An x86 base clock with no boost known is marked:
 * the core may run faster than it says.
 */
static void place_clock(const struct cpu_facts *f, double string_ghz, struct cpu_place *p)
{
	const struct cat_cpu *c = p->cpu;
	bool x86 = f->arch ? streq_ptr(isa_of(f->arch), "x86") : arch_fits(p->core, "x86_64");
	double stated = f->clock_mhz >= 20 && f->clock_mhz <= 8000 ? f->clock_mhz / 1000 : NAN;
	double boost = c && c->boost > 0 ? c->boost : NAN, floor = c && c->nominal > 0 ? c->nominal : boost;
	p->clock_ghz = NAN;
	p->clock_source = NULL;
	p->clock_base = false;
	if (stated > 0 && !(x86 && stated >= 0.9 * floor && stated <= 1.02 * boost)) {
		p->clock_ghz = stated;
		p->clock_source = f->clock_said_by ?: "stated";
		p->clock_base = x86 && isnan(boost);
	} else if (boost > 0) {
		p->clock_ghz = boost;
		p->clock_source = "boost";
	} else if (c && c->nominal > 0) {
		p->clock_ghz = c->nominal;
		p->clock_source = "nominal";
		p->clock_base = x86;
	} else if (string_ghz > 0) {
		p->clock_ghz = string_ghz;
		p->clock_source = "model string";
		p->clock_base = x86;
	} else if (x86 && f->bogomips > 100 && f->bogomips < 20000) {
		p->clock_ghz = f->bogomips / 2000;
		p->clock_source = "BogoMIPS";
		p->clock_base = true;
	}
}

bool cpu_place(const struct cpu_catalogue *cat, const struct cpu_facts *f, struct cpu_place *p)
{
	*p = (struct cpu_place){ .clock_ghz = NAN };
	char models[CPU_FACTS_MAX_MODELS][MODEL_MAX];
	const char *raw[CPU_FACTS_MAX_MODELS];
	double ghz[CPU_FACTS_MAX_MODELS];
	size_t n = 0;
	for (size_t i = 0; i < CPU_FACTS_MAX_MODELS; i++)
		if (f->models[i] && *f->models[i]) {
			cpu_model_normalize(f->models[i], models[n], MODEL_MAX, &ghz[n]);
			raw[n++] = f->models[i];
		}
	double string_ghz = NAN;
	for (size_t i = 0; i < n && isnan(string_ghz); i++)
		string_ghz = ghz[i];

	char id_by[64] = "";
	const struct cat_core *by_id = core_by_id(cat, f, id_by, sizeof(id_by));
	const struct cat_cpu *cpu = NULL;
	const struct cat_core *core = NULL;
	const struct cat_hidden *hidden = NULL;
	int best_cpu = -1, best_core = -1, best_hidden = -1;
	size_t which_cpu = 0, which_core = 0, which_hidden = 0, w = 0;
	for (size_t i = 0; i < cat->ncpus; i++) {
		const struct cat_cpu *c = &cat->cpus[i];
		int s = arch_fits(c->core, f->arch) ? best_of(&c->match, models, n, false, &w) : -1;
		if (s > best_cpu && (!by_id || c->core == by_id))
			best_cpu = s, cpu = c, which_cpu = w;
	}
	for (size_t i = 0; i < cat->ncores && !by_id; i++) {
		const struct cat_core *c = &cat->cores[i];
		int s = arch_fits(c, f->arch) ? best_of(&c->match, models, n, false, &w) : -1;
		if (s > best_core)
			best_core = s, core = c, which_core = w;
	}
	for (size_t i = 0; i < cat->nhidden && !by_id; i++) {
		const struct cat_hidden *h = &cat->hidden[i];
		int s = arch_fits(h->candidates[0], f->arch) ? best_of(&h->match, models, n, true, &w) : -1;
		if (s > best_hidden)
			best_hidden = s, hidden = h, which_hidden = w;
	}
	if (cpu) {
		p->cpu = cpu;
		p->core = cpu->core;
		snprintf(p->by, sizeof(p->by), "model string '%s' ([cpu %s])", raw[which_cpu], cpu->name);
	} else if (by_id) {
		p->core = by_id;
		snprintf(p->by, sizeof(p->by), "%s", id_by);
	} else if (core) {
		p->core = core;
		snprintf(p->by, sizeof(p->by), "model string '%s' ([core %s])", raw[which_core], core->name);
	} else if (hidden) {
		p->hidden = hidden;
		snprintf(p->by, sizeof(p->by), "model string '%s' ([hidden %s])", raw[which_hidden], hidden->name);
		/* the clock it names may say which core it is */
		for (size_t i = 0; i < hidden->nat && !p->core; i++)
			if (fabs(hidden->at[i].ghz - ghz[which_hidden]) < 0.005)
				p->core = hidden->at[i].core;
		if (!p->core) {
			p->ncandidates = hidden->ncandidates;
			memcpy(p->candidates, hidden->candidates, sizeof(p->candidates));
			p->core = hidden->candidates[0];
		}
	} else {
		snprintf(p->by, sizeof(p->by), n ? "no entry of the catalogue matches '%s'" : "no model string, MIDR or "
			 "x86 family and model", n ? raw[0] : "");
		return false;
	}
	place_clock(f, string_ghz, p);
	return true;
}
