/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "unixbench/text.h"

#include <ctype.h>
#include <errno.h>

#include "unixbench/catalogue.h"
#include "lib/util.h"

/* Longest HTML tag or entity read as one; longer ones are text. */
#define TAG_MAX 4096
#define ENTITY_MAX 12

static void lines_add(struct ub_lines *l, char *s, unsigned src)
{
	if (l->n >= UB_LINES_MAX) {
		l->too_many = true;
		free(s);
		return;
	}
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->v = xrealloc(l->v, l->cap * sizeof(*l->v));
	}
	l->v[l->n++] = (struct ub_line){ s, src };
}

void ub_lines_free(struct ub_lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].s);
	free(l->v);
	*l = (struct ub_lines){0};
}

/* ---- characters ---- */

size_t utf8_decode(const unsigned char *s, size_t n, unsigned *cp)
{
	size_t len;
	unsigned c = s[0], min;
	if (c < 0x80) {
		*cp = c;
		return 1;
	} else if ((c & 0xe0) == 0xc0) {
		len = 2, c &= 0x1f, min = 0x80;
	} else if ((c & 0xf0) == 0xe0) {
		len = 3, c &= 0x0f, min = 0x800;
	} else if ((c & 0xf8) == 0xf0) {
		len = 4, c &= 0x07, min = 0x10000;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

/* What a Unicode character stands for in UnixBench's ASCII output: a
 * replacement string ("" drops it) or NULL to keep it. */
static const char *ascii_for(unsigned cp, unsigned *mangling)
{
	if (cp == 0xa0 || (cp >= 0x2000 && cp <= 0x200a) || cp == 0x202f || cp == 0x205f || cp == 0x3000) {
		*mangling = UB_MANGLE_NBSP;
		return " ";
	}
	if ((cp >= 0x200b && cp <= 0x200d) || cp == 0x2060 || cp == 0xfeff) {
		*mangling = UB_MANGLE_NBSP;
		return "";
	}
	*mangling = UB_MANGLE_TYPOGRAPHIC;
	if ((cp >= 0x2010 && cp <= 0x2015) || cp == 0x2212)
		return "-";
	if (cp == 0x2018 || cp == 0x2019 || cp == 0x201a || cp == 0x2032)
		return "'";
	if (cp == 0x201c || cp == 0x201d || cp == 0x201e)
		return "\"";
	*mangling = 0;
	return NULL;
}

char *ub_clean(const char *s, size_t n, unsigned *manglings)
{
	const unsigned char *u = (const unsigned char *)s;
	if (n > UB_LINE_MAX)
		n = UB_LINE_MAX;
	/* every repair is no longer than what it replaces but a tab, which
	 * becomes two spaces (a column's edge, as Run's own are) */
	char *out = xmalloc(2 * n + 1);
	size_t o = 0;
	for (size_t i = 0; i < n;) {
		/* printable ASCII, nearly all of it, is copied as it is */
		size_t run = i;
		while (run < n && u[run] >= 0x20 && u[run] < 0x7f)
			run++;
		memcpy(out + o, s + i, run - i);
		o += run - i;
		i = run;
		if (i == n)
			break;
		unsigned cp, m = 0;
		size_t len = utf8_decode(u + i, n - i, &cp);
		if (len == 0) {
			/* Latin-1's non-breaking space, or a byte that is no text */
			*manglings |= u[i] == 0xa0 ? UB_MANGLE_NBSP : UB_MANGLE_CONTROL;
			out[o++] = u[i] == 0xa0 ? ' ' : '?';
			i++;
			continue;
		}
		if (cp == '\t') {
			out[o++] = ' ';
			out[o++] = ' ';
		} else if (cp < 0x20 || cp == 0x7f) {
			*manglings |= UB_MANGLE_CONTROL;
			out[o++] = ' ';
		} else {
			const char *r = ascii_for(cp, &m);
			*manglings |= m;
			size_t rn = r ? strlen(r) : len;
			memcpy(out + o, r ? r : s + i, rn);
			o += rn;
		}
		i += len;
	}
	out[o] = '\0';
	return out;
}

/* ---- quotes ---- */

static const char *const log_markers[] = { "Results of ", "Sum of ", "score:", "time:", "iterations:" };

/* Removes a mail quote prefix ("> ", "> > ", ">>") of *line. The .log's
 * own ">>>> score:" lines keep their four '>', as ">>>> " (one byte longer
 * than ">>>>score:": *line may move). */
static void unquote(char **line, unsigned *manglings)
{
	char *s = *line, *p = s;
	unsigned marks = 0;
	while (*p == ' ' || *p == '>') {
		if (*p == '>')
			marks++;
		p++;
	}
	if (marks == 0)
		return;
	bool log_line = false;
	for (size_t i = 0; i < ARRAY_SIZE(log_markers); i++)
		log_line = log_line || startswith(p, log_markers[i]);
	if (log_line && marks < 4)
		return;
	if (!log_line || marks > 4)
		*manglings |= UB_MANGLE_QUOTED;
	if (log_line) {
		size_t n = strlen(p), at = (size_t)(p - s);
		if (at < 5) {
			s = *line = xrealloc(s, n + 6);
			p = s + at;
		}
		memmove(s + 5, p, n + 1);
		memcpy(s, ">>>> ", 5);
	} else {
		memmove(s, p, strlen(p) + 1);
	}
}

/* A line set as Markdown code ("`Benchmark Run: 8 CPUs; 8 parallel
 * processes`") without its backticks; fences ("```log") stay. */
static void uncode(char *s)
{
	strstrip(s);
	size_t n = strlen(s);
	if (n < 3 || s[0] != '`' || s[n - 1] != '`' || s[1] == '`' || memchr(s + 1, '`', n - 2))
		return;
	s[n - 1] = '\0';
	memmove(s, s + 1, n - 1);
}

/* ---- glued lines ---- */

static const char *const structure_anchors[] = {
	"BYTE UNIX Benchmarks (Version",
	"Start Benchmark Run:",
	"End Benchmark Run:",
	"Benchmark Run:",
	"System Benchmarks Index Values",
	"System Benchmarks Partial Index",
	"System Benchmarks Index Score",
	"No index results available",
	"System:",
	"OS:",
	"Machine:",
	"Language:",
	"Graphics:",
};

/* ---- letter case ---- */

/* How many of Run's phrases with "Benchmark" in them s holds as Run writes them. */
static unsigned benchmark_phrases(const char *s)
{
	unsigned n = 0;
	for (size_t k = 0; k < ARRAY_SIZE(structure_anchors); k++)
		if (strstr(structure_anchors[k], "Benchmark") && strstr(s, structure_anchors[k]))
			n++;
	return n;
}

/* A site that rewrites a word wherever it appears ("BenchMark Run:",
 * "System BenchMarks Index Score"): "benchmark" in another letter case
 * becomes Run's "Benchmark", but only where that makes more of Run's
 * phrases, so that prose and headings keep their letters. */
static void recase(char *s, unsigned *manglings)
{
	static const char word[] = "benchmark";
	const size_t n = sizeof(word) - 1;
	const char *other = NULL;
	for (const char *p = s; !other && (p = strcasestr(p, word)); p += n)
		if (strncmp(p, "Benchmark", n) != 0)
			other = p;
	if (!other) /* nearly every line: nothing to copy */
		return;
	_cleanup_free_ char *copy = xstrdup(s);
	for (char *p = copy + (other - s); (p = strcasestr(p, word)); p += n)
		memcpy(p, "Benchmark", n);
	if (benchmark_phrases(copy) > benchmark_phrases(s)) {
		strcpy(s, copy);
		*manglings |= UB_MANGLE_CASE;
	}
}

struct span {
	size_t start, end;
};

static bool digit_at(const char *s, size_t i)
{
	return isdigit((unsigned char)s[i]);
}

/* Length of a patterned anchor at s+i: "CPU 12:", "2 CPUs in system",
 * "22:36:13 up ", the "========" above the score; 0 when none starts there. */
static size_t pattern_anchor(const char *s, size_t i)
{
	const char *p = s + i;
	if (*p == '=') {
		size_t eq = strspn(p, "=");
		return eq >= 8 ? eq : 0;
	}
	if (*p == 'C' && startswith(p, "CPU ") && digit_at(p, 4)) {
		size_t k = 4;
		while (digit_at(p, k))
			k++;
		return p[k] == ':' ? k + 1 : 0;
	}
	if (!digit_at(p, 0) || (i > 0 && (digit_at(s, i - 1) || s[i - 1] == '.')))
		return 0;
	size_t k = 0;
	while (digit_at(p, k))
		k++;
	const char *rest = startswith(p + k, " CPU");
	if (rest) {
		if (*rest == 's')
			rest++;
		return startswith(rest, " in system") ? (size_t)(rest - p) + strlen(" in system") : 0;
	}
	if (k <= 2 && p[k] == ':' && digit_at(p, k + 1) && digit_at(p, k + 2) && p[k + 3] == ':' &&
	    digit_at(p, k + 4) && digit_at(p, k + 5) && startswith(p + k + 6, " up "))
		return k + 10;
	return 0;
}

/* The literal anchors (test names and structure), grouped by their first
 * byte and longest first within a group, so that a position is compared
 * with the few anchors that could start there and the first that matches
 * is the longest. */
struct anchor {
	const char *s;
	size_t n;
};
static struct anchor *anchors;
static size_t anchor_from[257]; /* anchors[anchor_from[c] .. anchor_from[c + 1]) begin with c */

static int anchor_cmp(const void *a, const void *b)
{
	const struct anchor *x = a, *y = b;
	unsigned char cx = (unsigned char)x->s[0], cy = (unsigned char)y->s[0];
	if (cx != cy)
		return cx < cy ? -1 : 1;
	return x->n > y->n ? -1 : x->n < y->n;
}

static void anchors_init(void)
{
	if (anchors)
		return;
	size_t ntests = 0;
	while (ub_tests[ntests].id)
		ntests++;
	size_t n = ntests + ARRAY_SIZE(structure_anchors);
	struct anchor *v = xmalloc(n * sizeof(*v));
	for (size_t k = 0; k < ntests; k++)
		v[k] = (struct anchor){ ub_tests[k].name, strlen(ub_tests[k].name) };
	for (size_t k = 0; k < ARRAY_SIZE(structure_anchors); k++)
		v[ntests + k] = (struct anchor){ structure_anchors[k], strlen(structure_anchors[k]) };
	qsort(v, n, sizeof(*v), anchor_cmp);
	for (size_t c = 0, k = 0; c < 257; c++) {
		while (k < n && (unsigned char)v[k].s[0] < c)
			k++;
		anchor_from[c] = k;
	}
	anchors = v;
}

/* The longest literal anchor (test name or structure) starting at s+i,
 * the line being len bytes long. */
static size_t literal_anchor(const char *s, size_t len, size_t i)
{
	anchors_init();
	unsigned char c = (unsigned char)s[i];
	for (size_t k = anchor_from[c]; k < anchor_from[c + 1]; k++)
		if (anchors[k].n <= len - i && memcmp(s + i, anchors[k].s, anchors[k].n) == 0)
			return anchors[k].n;
	return 0;
}

/* Where a glued line may be cut: after white space, a closing parenthesis,
 * a digit or the '=' of a separator, but not between a label and its
 * value ("Uptime: 22:42:58 up ..."). */
static bool cut_allowed(const char *s, size_t i)
{
	if (i == 0)
		return false;
	char c = s[i - 1];
	size_t k = i;
	while (k > 0 && s[k - 1] == ' ')
		k--;
	if (k > 0 && s[k - 1] == ':')
		return false;
	/* "... BASELINE RESULT INDEXDhrystone 2 ...": the header's last word */
	if (i >= 5 && strncmp(s + i - 5, "INDEX", 5) == 0)
		return true;
	return c == ' ' || c == ')' || c == '=' || isdigit((unsigned char)c);
}

/* Run's progress lines ("1 x Pipe Throughput  1 2 3") name a test mid-line
 * and must stay whole. */
static bool progress_line(const char *s)
{
	while (*s == ' ')
		s++;
	if (!isdigit((unsigned char)*s))
		return false;
	while (isdigit((unsigned char)*s))
		s++;
	return startswith(s, " x ") != NULL;
}

/* A row of a Markdown table ("| Pipe Throughput | 1149.6 |") is one line
 * however many test names it holds. */
static bool table_row(const char *s)
{
	while (*s == ' ')
		s++;
	return *s == '|';
}

static void add_piece(struct ub_lines *out, const char *s, size_t n, unsigned src)
{
	char *piece = xstrndup(s, n);
	strstrip(piece);
	if (*piece)
		lines_add(out, piece, src);
	else
		free(piece);
}

/* Adds a clean line, cut where UnixBench lines begin inside it. */
static void add_split(struct ub_lines *out, char *s, unsigned src)
{
	if (progress_line(s) || table_row(s)) {
		lines_add(out, s, src);
		return;
	}
	size_t len = strlen(s), from = 0, i = 0;
	bool seen_text = false;
	/* "base    Dhrystone 2 ... 45448570.8 lps": a short label before the
	 * line's only test row names its run; kept whole unless another of
	 * Run's lines follows */
	size_t label = 0;
	bool labelled = isalpha((unsigned char)*s) || *s == '[' || *s == '(';
	while (i < len) {
		size_t a = literal_anchor(s, len, i);
		size_t p = pattern_anchor(s, i);
		size_t n = a > p ? a : p;
		labelled &= i > 0 || !n;
		if (n && seen_text && cut_allowed(s, i)) {
			if (labelled && !from && !label && !p && i <= 42 &&
			    isdigit((unsigned char)s[i + a + strspn(s + i + a, " :")])) {
				label = i;
				i += n;
				continue;
			}
			if (label) {
				add_piece(out, s, label, src);
				from = label;
				label = 0;
			}
			add_piece(out, s + from, i - from, src);
			out->manglings |= UB_MANGLE_GLUED;
			from = i;
		}
		if (n) {
			/* an anchor inside an anchor ("System Call Overhead" in
			 * "Exec System Call Overhead") is no place to cut */
			seen_text = true;
			i += n;
			continue;
		}
		seen_text = seen_text || s[i] != ' ';
		i++;
	}
	add_piece(out, s + from, len - from, src);
	free(s);
}

static void add_line(struct ub_lines *out, const char *s, size_t n, unsigned src)
{
	if (n > UB_LINE_MAX && !out->long_line)
		out->long_line = src;
	char *clean = ub_clean(s, n, &out->manglings);
	unquote(&clean, &out->manglings);
	uncode(clean);
	recase(clean, &out->manglings);
	add_split(out, clean, src);
}

/* ---- plain text ---- */

/* How a mail carries its text: quoted-printable ("=3D", soft line breaks
 * "=" at the end), format=flowed (a line ending in a space goes on in the
 * next; a leading space is stuffing). */
struct mail {
	bool qp, flowed;
};

static void mail_kind(const char *data, size_t len, struct mail *m)
{
	size_t n = len < (64u << 10) ? len : (64u << 10);
	_cleanup_free_ char *head = xstrndup(data, n);
	for (char *c = head; *c; c++)
		*c = (char)tolower((unsigned char)*c);
	m->qp = strstr(head, "content-transfer-encoding: quoted-printable") != NULL;
	m->flowed = strstr(head, "format=flowed") != NULL;
}

static int hex_value(char c)
{
	return isdigit((unsigned char)c) ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Appends line s (n bytes) decoded; true when it goes on in the next line. */
static bool mail_line(const struct mail *m, struct buf *b, const char *s, size_t n)
{
	if (!m->qp) {
		if (m->flowed && n && s[0] == ' ')
			s++, n--;
		buf_add(b, s, n);
		/* "-- " is the signature line, not a flowed one */
		return m->flowed && n && s[n - 1] == ' ' && !(n == 3 && strncmp(s, "-- ", 3) == 0);
	}
	for (size_t i = 0; i < n; i++) {
		int hi, lo;
		if (s[i] == '=' && i + 1 == n)
			return true;
		if (s[i] == '=' && i + 2 < n && (hi = hex_value(s[i + 1])) >= 0 && (lo = hex_value(s[i + 2])) >= 0) {
			char c = (char)(hi << 4 | lo);
			buf_add(b, &c, 1);
			i += 2;
		} else {
			buf_add(b, s + i, 1);
		}
	}
	return false;
}

/* ---- numbered and bulleted pastes ---- */

/* A paste site shows every line as an item of a list: numbered (" 12. "),
 * or bulleted ("- "). */
enum list_kind { LIST_NONE, LIST_NUMBERED, LIST_BULLETED };

/* The length of line s's list mark of that kind (its number in *num),
 * 0 when it has none. A mark ends the line or is followed by a space. */
static size_t list_mark(const char *s, size_t n, enum list_kind kind, unsigned long *num)
{
	size_t i = 0;
	while (i < n && s[i] == ' ')
		i++;
	if (kind == LIST_BULLETED) {
		if (i >= n || s[i] != '-' || (i + 1 < n && s[i + 1] != ' '))
			return 0;
		return i + 1 < n ? i + 2 : i + 1;
	}
	size_t d = i;
	*num = 0;
	while (i < n && isdigit((unsigned char)s[i]) && i - d < 7)
		*num = *num * 10 + (unsigned long)(s[i++] - '0');
	if (i == d || i >= n || s[i] != '.' || (i + 1 < n && s[i + 1] != ' '))
		return 0;
	return i + 1 < n ? i + 2 : i + 1;
}

/* Whether nearly every non-empty line carries a mark of that kind, the
 * numbers counting up by one. */
static bool listed_as(const char *data, size_t len, enum list_kind kind)
{
	size_t lines = 0, marked = 0;
	unsigned long last = 0, num;
	for (size_t start = 0, i = 0; i <= len; i++) {
		if (i < len && data[i] != '\n')
			continue;
		size_t n = i - start;
		while (n && (data[start + n - 1] == '\r' || data[start + n - 1] == ' '))
			n--;
		if (n) {
			lines++;
			if (list_mark(data + start, n, kind, &num) &&
			    (kind == LIST_BULLETED || num == last + 1)) {
				marked++;
				last = num;
			}
		}
		start = i + 1;
	}
	return lines >= 3 && marked * 10 >= lines * 9;
}

static enum list_kind list_kind(const char *data, size_t len)
{
	size_t n = len < (1u << 20) ? len : (1u << 20);
	if (listed_as(data, n, LIST_NUMBERED))
		return LIST_NUMBERED;
	return listed_as(data, n, LIST_BULLETED) ? LIST_BULLETED : LIST_NONE;
}

/* ---- pages that show a file as a table ---- */

/* A code-hosting page copied as text shows each line of the file as a row
 * of its table: the line, then " | |" for the cells around it; where the
 * file itself was framed, every line also begins with "| ". A Markdown
 * table's rows end in one '|', not in an empty cell. */
struct cells {
	bool suffix, prefix;
};

/* The length of the " | |" (or, on the last row, " |") that ends line s of
 * n bytes; 0 when it has none. */
static size_t cell_suffix(const char *s, size_t n, bool last_cell_too)
{
	size_t e = n;
	while (e && s[e - 1] == ' ')
		e--;
	if (e >= 3 && strncmp(s + e - 3, "| |", 3) == 0)
		e -= 3;
	else if (last_cell_too && e >= 1 && s[e - 1] == '|')
		e -= 1;
	else
		return 0;
	while (e && s[e - 1] == ' ')
		e--;
	return n - e;
}

static size_t cell_prefix(const char *s, size_t n)
{
	return n >= 2 && s[0] == '|' && s[1] == ' ' ? 2 : 0;
}

/* Whether nearly every non-empty line ends in an empty cell (the last one
 * may have lost it), and begins with one too. */
static struct cells cells_of(const char *data, size_t len)
{
	size_t lines = 0, suffixed = 0, prefixed = 0;
	bool last_short = false;
	for (const char *s = data, *end = data + len; s < end;) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = (size_t)((nl ? nl : end) - s);
		if (n && s[n - 1] == '\r')
			n--;
		size_t blank = 0;
		while (blank < n && s[blank] == ' ')
			blank++;
		bool cell = cell_suffix(s, n, false) > 0;
		if (blank < n) {
			lines++;
			suffixed += cell;
			prefixed += cell_prefix(s, n) > 0;
			last_short = !cell && cell_suffix(s, n, true) > 0;
		}
		s = nl ? nl + 1 : end;
	}
	suffixed += last_short;
	struct cells c = { .suffix = lines >= 3 && suffixed * 10 >= lines * 9 };
	c.prefix = c.suffix && prefixed * 10 >= lines * 9;
	return c;
}

static void text_lines(const char *data, size_t len, struct ub_lines *out)
{
	struct mail m;
	enum list_kind list = list_kind(data, len);
	if (list != LIST_NONE)
		out->manglings |= UB_MANGLE_LISTED;
	struct cells cells = cells_of(data, len < (1u << 20) ? len : (1u << 20));
	if (cells.suffix)
		out->manglings |= UB_MANGLE_CELLS;
	mail_kind(data, len, &m);
	if (m.qp || m.flowed)
		out->manglings |= UB_MANGLE_MAIL;
	struct buf joined = {0};
	unsigned src = 1, joined_src = 0;
	size_t start = 0;
	for (size_t i = 0; i <= len && !out->too_many; i++) {
		if (i < len && data[i] != '\n' && data[i] != '\r')
			continue;
		if (m.qp || m.flowed) {
			if (!joined.len)
				joined_src = src;
			bool more = mail_line(&m, &joined, data + start, i - start) && i < len;
			if (!more) {
				add_line(out, joined.s ? joined.s : "", joined.len, joined_src);
				joined.len = 0;
			}
		} else {
			unsigned long num;
			size_t mark = list == LIST_NONE ? 0 : list_mark(data + start, i - start, list, &num);
			size_t n = i - start - mark;
			if (cells.suffix)
				n -= cell_suffix(data + start + mark, n, true);
			if (cells.prefix) {
				size_t p = cell_prefix(data + start + mark, n);
				mark += p;
				n -= p;
			}
			add_line(out, data + start + mark, n, src);
		}
		if (i < len && data[i] == '\r') {
			out->manglings |= UB_MANGLE_CRLF;
			if (i + 1 < len && data[i + 1] == '\n')
				i++;
		}
		start = i + 1;
		src++;
	}
	buf_free(&joined);
}

/* ---- HTML ---- */

static bool looks_like_html(const char *data, size_t len)
{
	static const char *const marks[] = { "<html", "<!doctype html", "<table", "<tr", "<td", "<pre", "<br",
					     "<body", "<p>" };
	size_t n = len < (1u << 20) ? len : (1u << 20);
	for (size_t i = 0; i < n; i++) {
		if (data[i] != '<')
			continue;
		for (size_t k = 0; k < ARRAY_SIZE(marks); k++) {
			size_t m = strlen(marks[k]);
			if (i + m <= n && strncasecmp(data + i, marks[k], m) == 0)
				return true;
		}
	}
	return false;
}

struct html_state {
	struct ub_lines *out;
	struct buf line;
	unsigned src, line_src;
	bool space; /* white space pending */
	bool pre;
};

static void html_flush(struct html_state *h)
{
	if (h->line.len)
		add_line(h->out, h->line.s, h->line.len, h->line_src);
	h->line.len = 0;
	if (h->line.s)
		h->line.s[0] = '\0';
	h->space = false;
}

static void html_put(struct html_state *h, const char *s, size_t n)
{
	if (h->line.len == 0)
		h->line_src = h->src;
	else if (h->space)
		buf_add(&h->line, " ", 1);
	h->space = false;
	if (h->line.len + n <= UB_LINE_MAX)
		buf_add(&h->line, s, n);
	else if (!h->out->long_line)
		h->out->long_line = h->line_src;
}

static void put_codepoint(struct html_state *h, unsigned cp)
{
	char b[4];
	size_t n;
	if (cp < 0x80) {
		b[0] = (char)cp, n = 1;
	} else if (cp < 0x800) {
		b[0] = (char)(0xc0 | cp >> 6), b[1] = (char)(0x80 | (cp & 0x3f)), n = 2;
	} else if (cp < 0x10000) {
		b[0] = (char)(0xe0 | cp >> 12), b[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		b[2] = (char)(0x80 | (cp & 0x3f)), n = 3;
	} else {
		b[0] = (char)(0xf0 | cp >> 18), b[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		b[2] = (char)(0x80 | ((cp >> 6) & 0x3f)), b[3] = (char)(0x80 | (cp & 0x3f)), n = 4;
	}
	html_put(h, b, n);
}

/* "&amp;" and friends at s; the length consumed, 0 when it is not one. */
static size_t html_entity(struct html_state *h, const char *s, size_t n)
{
	static const struct {
		const char *name;
		unsigned cp;
	} named[] = { { "amp", '&' }, { "lt", '<' }, { "gt", '>' }, { "quot", '"' }, { "apos", '\'' },
		      { "nbsp", 0xa0 }, { "mdash", 0x2014 }, { "ndash", 0x2013 } };
	size_t end = 1;
	while (end < n && end < ENTITY_MAX && s[end] != ';')
		end++;
	if (end >= n || s[end] != ';')
		return 0;
	unsigned long cp = 0;
	if (s[1] == '#') {
		char num[ENTITY_MAX + 1];
		bool hex = s[2] == 'x' || s[2] == 'X';
		size_t from = hex ? 3 : 2;
		if (end <= from)
			return 0;
		memcpy(num, s + from, end - from);
		num[end - from] = '\0';
		char *e;
		cp = strtoul(num, &e, hex ? 16 : 10);
		if (*e || cp == 0 || cp > 0x10ffff)
			return 0;
	} else {
		size_t k = 0;
		for (; k < ARRAY_SIZE(named); k++)
			if (strlen(named[k].name) == end - 1 && strncmp(s + 1, named[k].name, end - 1) == 0)
				break;
		if (k == ARRAY_SIZE(named))
			return 0;
		cp = named[k].cp;
	}
	put_codepoint(h, (unsigned)cp);
	return end + 1;
}

static bool tag_is(const char *name, size_t n, const char *const *set, size_t count)
{
	for (size_t i = 0; i < count; i++)
		if (strlen(set[i]) == n && strncasecmp(name, set[i], n) == 0)
			return true;
	return false;
}

/* Handles the tag in s[0..n) ("<td align=right>"). */
static void html_tag(struct html_state *h, const char *s, size_t n)
{
	static const char *const breaks[] = { "br", "p", "div", "tr", "table", "li", "ul", "ol", "hr", "title",
					      "pre", "h1", "h2", "h3", "h4", "h5", "h6", "dt", "dd", "blockquote",
					      "head", "body", "html", "caption", "thead", "tbody" };
	static const char *const cells[] = { "td", "th" };
	const char *name = s + 1;
	bool closing = *name == '/';
	if (closing)
		name++;
	size_t len = 0;
	while (name + len < s + n && isalnum((unsigned char)name[len]))
		len++;
	if (tag_is(name, len, breaks, ARRAY_SIZE(breaks))) {
		html_flush(h);
		if (len == 3 && strncasecmp(name, "pre", 3) == 0)
			h->pre = !closing;
	} else if (tag_is(name, len, cells, ARRAY_SIZE(cells)) && !closing) {
		h->space = h->line.len > 0;
	}
}

/* Skips a <style> or <script> element's content; returns where it ends. */
static size_t skip_raw_text(const char *data, size_t len, size_t i, const char *name, unsigned *src)
{
	_cleanup_free_ char *close = xasprintf("</%s", name);
	size_t m = strlen(close);
	for (; i + m <= len; i++) {
		if (data[i] == '\n')
			(*src)++;
		if (strncasecmp(data + i, close, m) == 0)
			return i;
	}
	return len;
}

static void html_lines(const char *data, size_t len, struct ub_lines *out)
{
	struct html_state h = { .out = out, .src = 1 };
	for (size_t i = 0; i < len && !out->too_many;) {
		char c = data[i];
		if (c == '<' && i + 4 <= len && strncmp(data + i, "<!--", 4) == 0) {
			size_t k = i + 4;
			while (k + 3 <= len && strncmp(data + k, "-->", 3) != 0)
				h.src += data[k++] == '\n';
			i = k + 3 <= len ? k + 3 : len;
			continue;
		}
		if (c == '<') {
			size_t k = i + 1;
			while (k < len && k - i < TAG_MAX && data[k] != '>' && data[k] != '<')
				k++;
			if (k < len && data[k] == '>' && k > i + 1 &&
			    (isalpha((unsigned char)data[i + 1]) || data[i + 1] == '/' || data[i + 1] == '!')) {
				for (size_t j = i; j < k; j++)
					h.src += data[j] == '\n';
				html_tag(&h, data + i, k + 1 - i);
				const char *tag = data + i;
				i = k + 1;
				if (strncasecmp(tag, "<style", 6) == 0)
					i = skip_raw_text(data, len, i, "style", &h.src);
				else if (strncasecmp(tag, "<script", 7) == 0)
					i = skip_raw_text(data, len, i, "script", &h.src);
				continue;
			}
		}
		if (c == '&') {
			size_t used = html_entity(&h, data + i, len - i);
			if (used) {
				i += used;
				continue;
			}
		}
		if (c == '\n' || c == '\r' || c == ' ' || c == '\t') {
			/* a Markdown table written among the tags keeps its rows */
			if ((h.pre || (h.line.len && memchr(h.line.s, '|', h.line.len))) && c == '\n')
				html_flush(&h);
			else if (!h.pre || c != '\r')
				h.space = h.line.len > 0;
			h.src += c == '\n';
			i++;
			continue;
		}
		html_put(&h, data + i, 1);
		i++;
	}
	html_flush(&h);
	buf_free(&h.line);
}

int ub_text_lines(const char *data, size_t len, struct ub_lines *out)
{
	*out = (struct ub_lines){0};
	if (memchr(data, '\0', len))
		return -EBADMSG;
	out->html = looks_like_html(data, len);
	if (out->html) {
		html_lines(data, len, out);
		/* &nbsp; and dashes are how HTML is written, not damage */
		out->manglings &= ~(unsigned)(UB_MANGLE_NBSP | UB_MANGLE_TYPOGRAPHIC);
	} else {
		text_lines(data, len, out);
	}
	return 0;
}
