/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "cpuset.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>

#include "util.h"

#define LBITS (sizeof(unsigned long) * CHAR_BIT)

void cpuset_set(struct cpuset *c, size_t cpu)
{
	if (cpu >= c->nbits) {
		size_t words = cpu / LBITS + 1, old = c->nbits / LBITS;
		c->bits = xrealloc(c->bits, words * sizeof(unsigned long));
		memset(c->bits + old, 0, (words - old) * sizeof(unsigned long));
		c->nbits = words * LBITS;
	}
	c->bits[cpu / LBITS] |= 1UL << (cpu % LBITS);
}

bool cpuset_isset(const struct cpuset *c, size_t cpu)
{
	return cpu < c->nbits && (c->bits[cpu / LBITS] >> (cpu % LBITS)) & 1;
}

size_t cpuset_count(const struct cpuset *c)
{
	size_t n = 0;
	for (size_t i = 0; i < c->nbits / LBITS; i++)
		n += (size_t)__builtin_popcountl(c->bits[i]);
	return n;
}

size_t cpuset_size(const struct cpuset *c)
{
	for (size_t i = c->nbits; i > 0; i--)
		if (cpuset_isset(c, i - 1))
			return i;
	return 0;
}

bool cpuset_intersects(const struct cpuset *a, const struct cpuset *b)
{
	size_t n = (a->nbits < b->nbits ? a->nbits : b->nbits) / LBITS;
	for (size_t i = 0; i < n; i++)
		if (a->bits[i] & b->bits[i])
			return true;
	return false;
}

bool cpuset_subset(const struct cpuset *a, const struct cpuset *b)
{
	for (size_t i = 0; i < cpuset_size(a); i++)
		if (cpuset_isset(a, i) && !cpuset_isset(b, i))
			return false;
	return true;
}

static int parse_num(const char **p, size_t *out)
{
	if (!isdigit((unsigned char)**p))
		return -EINVAL;
	size_t v = 0;
	while (isdigit((unsigned char)**p)) {
		v = v * 10 + (size_t)(**p - '0');
		if (v >= CPUSET_MAX)
			return -ERANGE;
		(*p)++;
	}
	*out = v;
	return 0;
}

/* Accepts the kernel's list syntax, including "a-b:used/group" strides. */
int cpuset_parse_list(const char *s, struct cpuset *out)
{
	struct cpuset c = {0};
	const char *p = s;
	int r = 0;

	while (isspace((unsigned char)*p))
		p++;
	while (*p && !isspace((unsigned char)*p)) {
		size_t a, b, used = 1, group = 1;
		if ((r = parse_num(&p, &a)) < 0)
			goto fail;
		b = a;
		if (*p == '-') {
			p++;
			if ((r = parse_num(&p, &b)) < 0)
				goto fail;
			if (*p == ':') {
				p++;
				if ((r = parse_num(&p, &used)) < 0 || *p != '/')
					goto bad;
				p++;
				if ((r = parse_num(&p, &group)) < 0)
					goto fail;
				if (used == 0 || group == 0 || used > group)
					goto bad;
			}
		}
		if (b < a)
			goto bad;
		for (size_t i = a; i <= b; i++)
			if ((i - a) % group < used)
				cpuset_set(&c, i);
		if (*p == ',')
			p++;
		else if (*p && !isspace((unsigned char)*p))
			goto bad;
	}
	while (isspace((unsigned char)*p))
		p++;
	if (*p)
		goto bad;
	cpuset_free(out);
	*out = c;
	return 0;
bad:
	r = -EINVAL;
fail:
	cpuset_free(&c);
	return r;
}

int cpuset_parse_mask(const char *s, struct cpuset *out)
{
	struct cpuset c = {0};
	size_t len = strlen(s);
	size_t bit = 0;

	while (len > 0 && isspace((unsigned char)s[len - 1]))
		len--;
	for (size_t i = len; i > 0; i--) {
		char ch = s[i - 1];
		if (ch == ',')
			continue;
		if (!isxdigit((unsigned char)ch) || bit >= CPUSET_MAX) {
			cpuset_free(&c);
			return -EINVAL;
		}
		unsigned v = isdigit((unsigned char)ch) ? (unsigned)(ch - '0')
							 : (unsigned)(tolower((unsigned char)ch) - 'a' + 10);
		for (int k = 0; k < 4; k++, bit++)
			if (v & (1u << k))
				cpuset_set(&c, bit);
	}
	if (bit == 0)
		return -EINVAL;
	cpuset_free(out);
	*out = c;
	return 0;
}

char *cpuset_format(const struct cpuset *c)
{
	struct buf b = {0};
	size_t n = cpuset_size(c);
	buf_puts(&b, "");
	for (size_t i = 0; i < n; i++) {
		if (!cpuset_isset(c, i))
			continue;
		size_t j = i;
		while (j + 1 < n && cpuset_isset(c, j + 1))
			j++;
		if (b.len)
			buf_puts(&b, ",");
		if (j > i)
			buf_printf(&b, "%zu-%zu", i, j);
		else
			buf_printf(&b, "%zu", i);
		i = j;
	}
	return buf_steal(&b);
}

void cpuset_free(struct cpuset *c)
{
	free(c->bits);
	*c = (struct cpuset){0};
}

int cpu_list_parse(const char *s, struct cpuset *out)
{
	_cleanup_free_ char *copy = strsqueeze(xstrdup(s));
	for (char *p = copy; *p; p++)
		if (*p == ' ')
			*p = ',';
	return cpuset_parse_list(copy, out);
}
