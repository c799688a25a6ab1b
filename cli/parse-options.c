/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "parse-options.h"

#include <errno.h>
#include <getopt.h>

#include "command.h"
#include "lib/term.h"
#include "lib/util.h"

/* More options than a command will ever have. */
#define OPTIONS_MAX 64
/* getopt_long's value of option i: above every short option character. */
#define LONG_VAL 256

static const char *const color_words[] = { "auto", "always", "never", NULL };

const struct cmd_option global_options[] = {
	{ .name = "color", .type = OPT_CHOICE, .arg = "WHEN", .choices = color_words, OPT_SHARED_AT(color),
	  .flags = OPTF_GLOBAL,
	  .help = "colour the output: auto (the default: on a terminal), always, never; NO_COLOR in the "
		  "environment turns it off" },
	{ .name = "width", .type = OPT_UINT, .arg = "COLUMNS", .min = TERM_WIDTH_MIN, .max = TERM_WIDTH_MAX,
	  OPT_SHARED_AT(width), .flags = OPTF_GLOBAL,
	  .help = "wrap text at COLUMNS (default: $COLUMNS, else the terminal's width, else 80)" },
	{ .name = "help", .short_name = 'h', .type = OPT_HELP, .help = "show this help", OPT_SHARED_AT(help) },
	OPT_END,
};

void options_foreach(const struct command *c, void (*fn)(const struct cmd_option *o, void *data), void *data)
{
	for (const struct cmd_option *o = c ? c->options : NULL; o && o->name; o++)
		fn(o, data);
	for (const struct cmd_option *o = global_options; o->name; o++)
		fn(o, data);
}

struct option_list {
	const struct cmd_option *v[OPTIONS_MAX];
	size_t n;
};

static void add_option(const struct cmd_option *o, void *data)
{
	struct option_list *l = data;
	if (l->n < OPTIONS_MAX)
		l->v[l->n++] = o;
}

static void list_options(const struct command *c, struct option_list *l)
{
	l->n = 0;
	options_foreach(c, add_option, l);
}

const struct cmd_option *options_find(const struct command *c, const char *name)
{
	struct option_list l;
	list_options(c, &l);
	for (size_t i = 0; i < l.n; i++)
		if (name[0] && !name[1] ? l.v[i]->short_name == name[0] : streq(l.v[i]->name, name))
			return l.v[i];
	return NULL;
}

/* "programs or run", "auto, always or never" */
static char *choices_text(const struct cmd_option *o, const char *last_sep)
{
	struct buf b = {0};
	for (size_t i = 0; o->choices[i]; i++)
		buf_printf(&b, "%s%s", i == 0 ? "" : o->choices[i + 1] ? ", " : last_sep, o->choices[i]);
	return buf_steal(&b);
}

/* The value's name: "DIR", or the words of a choice, "programs|run". */
static char *value_name(const struct cmd_option *o)
{
	if (o->arg)
		return xstrdup(o->arg);
	struct buf b = {0};
	for (size_t i = 0; o->choices && o->choices[i]; i++)
		buf_printf(&b, "%s%s", i ? "|" : "", o->choices[i]);
	return buf_steal(&b);
}

char *option_label(const struct cmd_option *o)
{
	_cleanup_free_ char *v = option_has_value(o) ? value_name(o) : NULL;
	struct buf b = {0};
	if (o->short_name)
		buf_printf(&b, "-%c, ", o->short_name);
	buf_printf(&b, "--%s%s%s", o->name, v ? " " : "", v ? v : "");
	return buf_steal(&b);
}

/* ---- parsing ---- */

static int set_number(const struct command *c, const struct cmd_option *o, const char *v, void *dest)
{
	double d;
	uint64_t u;
	bool ok = o->type == OPT_UINT ? parse_u64(v, &u) == 0 && (d = (double)u, true) : parse_double(v, &d) == 0;
	if (!ok || !(d >= o->min && d <= o->max))
		return command_usage_error(c, "--%s takes a number from %g to %g, not '%s'", o->name, o->min, o->max, v);
	if (o->type == OPT_UINT)
		*(unsigned *)dest = (unsigned)u;
	else
		*(double *)dest = d;
	return -1;
}

static int set_choice(const struct command *c, const struct cmd_option *o, const char *v, void *dest)
{
	for (size_t i = 0; o->choices[i]; i++)
		if (streq(o->choices[i], v)) {
			*(const char **)dest = o->choices[i];
			return -1;
		}
	_cleanup_free_ char *words = choices_text(o, " or ");
	return command_usage_error(c, "--%s takes %s, not '%s'", o->name, words, v);
}

/* Stores the value of o; -1 to go on, else the exit status. */
static int set_value(const struct command *c, const struct cmd_option *o, const char *v, struct cmd_ctx *ctx,
		     void *opts)
{
	void *dest = (o->shared ? (char *)ctx : (char *)opts) + o->offset;
	switch (o->type) {
	case OPT_FLAG:
		*(bool *)dest = true;
		break;
	case OPT_SET:
		*(int *)dest = o->set;
		break;
	case OPT_STRING:
		*(const char **)dest = v;
		break;
	case OPT_CHOICE:
		return set_choice(c, o, v, dest);
	case OPT_UINT:
	case OPT_NUMBER:
		return set_number(c, o, v, dest);
	case OPT_HELP:
		*(bool *)dest = true; /* shown once every option is read: --width after it counts */
		break;
	}
	return -1;
}

/* The option getopt returned: LONG_VAL + its index, or its short name. */
static const struct cmd_option *returned(const struct option_list *l, int val, size_t *index)
{
	for (size_t i = 0; i < l->n; i++)
		if ((val >= LONG_VAL && (size_t)(val - LONG_VAL) == i) || (val < LONG_VAL && l->v[i]->short_name == val)) {
			*index = i;
			return l->v[i];
		}
	return NULL;
}

/* getopt's '?': an unknown or ambiguous option, or a value given to a flag. */
static int bad_option(const struct command *c, const struct option_list *l, const char *word, int optopt_)
{
	size_t i;
	if (optopt_ && optopt_ < LONG_VAL)
		return command_usage_error(c, "unknown option '-%c'", optopt_);
	if (optopt_ && returned(l, optopt_, &i))
		return command_usage_error(c, "option '--%s' takes no value", l->v[i]->name);
	_cleanup_free_ char *name = xstrndup(word + 2, strcspn(word + 2, "="));
	const char *names[OPTIONS_MAX + 1];
	struct buf matches = {0};
	size_t n = 0, nmatch = 0;
	for (i = 0; i < l->n; i++) {
		names[n++] = l->v[i]->name;
		if (startswith(l->v[i]->name, name) && *name)
			buf_printf(&matches, "%s--%s", nmatch++ ? ", " : "", l->v[i]->name);
	}
	names[n] = NULL;
	_cleanup_free_ char *list = buf_steal(&matches);
	if (nmatch > 1 && startswith(word, "--"))
		return command_usage_error(c, "option '--%s' is ambiguous: %s", name, list);
	const char *hint = startswith(word, "--") ? str_closest(name, names) : NULL;
	if (hint)
		return command_usage_error(c, "unknown option '%s' (did you mean '--%s'?)", word, hint);
	return command_usage_error(c, "unknown option '%s'", word);
}

/* Options of a group given together, options without the one they go with. */
static int check_combinations(const struct command *c, const struct option_list *l, const bool *given)
{
	for (size_t i = 0; i < l->n; i++) {
		const struct cmd_option *o = l->v[i];
		if (!given[i])
			continue;
		for (size_t j = i + 1; o->group && j < l->n; j++)
			if (given[j] && streq_ptr(l->v[j]->group, o->group)) {
				struct buf b = {0};
				size_t n = 0, k = 0;
				for (size_t m = 0; m < l->n; m++)
					n += streq_ptr(l->v[m]->group, o->group);
				for (size_t m = 0; m < l->n; m++)
					if (streq_ptr(l->v[m]->group, o->group))
						buf_printf(&b, "%s--%s", k++ == 0 ? "" : k == n ? " and " : ", ", l->v[m]->name);
				_cleanup_free_ char *s = buf_steal(&b);
				return command_usage_error(c, "give one of %s", s);
			}
		if (!o->needs)
			continue;
		bool parent = false;
		for (size_t j = 0; j < l->n; j++)
			parent |= given[j] && streq(l->v[j]->name, o->needs);
		if (!parent) {
			const struct cmd_option *p = options_find(c, o->needs);
			_cleanup_free_ char *v = p && option_has_value(p) ? value_name(p) : NULL;
			return command_usage_error(c, "--%s is for --%s%s%s", o->name, o->needs, v ? " " : "", v ? v : "");
		}
	}
	return -1;
}

static int check_operands(const struct command *c, const struct option_list *l, const bool *given,
			  const struct cmd_ctx *ctx)
{
	const struct cmd_operands *op = &c->operands;
	for (size_t i = 0; i < l->n; i++)
		if (given[i] && (l->v[i]->flags & OPTF_NO_OPERANDS)) {
			if (ctx->nargs)
				return command_usage_error(c, "--%s takes no %s: unexpected argument '%s'", l->v[i]->name,
							   op->usage, ctx->args[0]);
			return -1;
		}
	if (!op->usage && ctx->nargs)
		return command_usage_error(c, "unexpected argument '%s'", ctx->args[0]);
	if (ctx->nargs < op->min)
		return op->missing ? command_usage_error(c, "%s", op->missing)
				   : command_usage_error(c, "%s is missing", op->usage);
	if (op->max && ctx->nargs > op->max)
		return command_usage_error(c, "unexpected argument '%s'", ctx->args[op->max]);
	return -1;
}

int options_parse(const struct command *c, int argc, char **argv, struct cmd_ctx *ctx, void *opts)
{
	struct option_list l;
	list_options(c, &l);
	struct option longopts[OPTIONS_MAX + 1] = {0};
	/* "-": operands come back in order (value 1), whatever POSIXLY_CORRECT
	 * says, so options may follow them; ":": a missing value is ':' */
	char shorts[2 * OPTIONS_MAX + 3] = "-:";
	/* before the command: options up to the first operand (its name) */
	if (c->flags & CMD_OPTIONS_FIRST)
		shorts[0] = '+';
	size_t ns = 2;
	for (size_t i = 0; i < l.n; i++) {
		bool value = option_has_value(l.v[i]);
		longopts[i] = (struct option){ l.v[i]->name, value ? required_argument : no_argument, NULL,
					       LONG_VAL + (int)i };
		if (l.v[i]->short_name) {
			shorts[ns++] = l.v[i]->short_name;
			if (value)
				shorts[ns++] = ':';
		}
	}
	shorts[ns] = '\0';

	bool given[OPTIONS_MAX] = {0};
	ctx->cmd = c;
	ctx->args = xcalloc((size_t)argc + 1, sizeof(char *));
	ctx->nargs = 0;
	opterr = 0;
	optind = 0; /* glibc: start over */
	int opt, code;
	size_t i;
	while ((opt = getopt_long(argc, argv, shorts, longopts, NULL)) != -1) {
		if (opt == 1) {
			ctx->args[ctx->nargs++] = optarg;
			continue;
		}
		if (opt == '?')
			return bad_option(c, &l, argv[optind - 1], optopt);
		if (opt == ':') {
			const struct cmd_option *o = returned(&l, optopt, &i);
			if (!o)
				return command_usage_error(c, "option '%s' needs a value", argv[optind - 1]);
			_cleanup_free_ char *v = value_name(o);
			return command_usage_error(c, "option '%s' needs a value (%s)", argv[optind - 1], v);
		}
		const struct cmd_option *o = returned(&l, opt, &i);
		if (!o)
			return command_usage_error(c, "unknown option '%s'", argv[optind - 1]);
		given[i] = true;
		if ((code = set_value(c, o, optarg, ctx, opts)) >= 0)
			return code;
	}
	for (int k = optind; k < argc; k++) /* after "--" */
		ctx->args[ctx->nargs++] = argv[k];
	if (ctx->help) {
		if (ctx->width)
			term_set_width(ctx->width);
		command_help(c, stdout);
		return EXIT_OK;
	}
	if ((code = check_combinations(c, &l, given)) >= 0)
		return code;
	return check_operands(c, &l, given, ctx);
}

/* ---- usage and help ---- */

static bool in_usage(const struct cmd_option *o)
{
	return o->type != OPT_HELP && !(o->flags & OPTF_GLOBAL);
}

/* "-o FILE" or "--tests LIST": the option in the synopsis. */
static char *usage_word(const struct cmd_option *o)
{
	_cleanup_free_ char *v = option_has_value(o) ? value_name(o) : NULL;
	if (o->short_name)
		return xasprintf("-%c%s%s", o->short_name, v ? " " : "", v ? v : "");
	return xasprintf("--%s%s%s", o->name, v ? " " : "", v ? v : "");
}

/* Whether o is written after an earlier option of its group (inside that
 * option's brackets). */
static bool grouped_later(const struct command *c, const struct cmd_option *o)
{
	for (const struct cmd_option *p = c->options; o->group && p < o; p++)
		if (streq_ptr(p->group, o->group))
			return true;
	return false;
}

/* One bracketed unit of the synopsis: the option, its group, and the
 * options that go with it nested inside. */
static void usage_unit(const struct command *c, const struct cmd_option *o, struct buf *b)
{
	_cleanup_free_ char *w = usage_word(o);
	buf_printf(b, "[%s", w);
	for (const struct cmd_option *p = o + 1; o->group && p->name; p++)
		if (streq_ptr(p->group, o->group)) {
			_cleanup_free_ char *pw = usage_word(p);
			buf_printf(b, "|%s", pw);
		}
	for (const struct cmd_option *p = c->options; p->name; p++)
		if (streq_ptr(p->needs, o->name)) {
			buf_puts(b, " ");
			usage_unit(c, p, b);
		}
	buf_puts(b, "]");
}

static void usage_units(const struct command *c, struct strv *units)
{
	for (const struct cmd_option *o = c->options; o && o->name; o++) {
		if (!in_usage(o) || o->needs || grouped_later(c, o))
			continue;
		struct buf b = {0};
		usage_unit(c, o, &b);
		strv_take(units, buf_steal(&b));
	}
	if (c->operands.usage)
		strv_push(units, c->operands.usage);
}

char *options_global_synopsis(void)
{
	struct strv units = {0};
	for (const struct cmd_option *o = global_options; o->name; o++)
		if (o->flags & OPTF_GLOBAL) {
			_cleanup_free_ char *w = usage_word(o);
			strv_take(&units, xasprintf("[%s]", w));
		}
	char *s = strv_join(&units, " ");
	strv_free(&units);
	return s;
}

char *options_synopsis(const struct command *c)
{
	struct strv units = {0};
	usage_units(c, &units);
	_cleanup_free_ char *s = strv_join(&units, " ");
	strv_free(&units);
	return xasprintf("ubtune %s%s%s", c->name, *s ? " " : "", s);
}

void options_usage(const struct command *c, FILE *f, size_t width)
{
	struct strv units = {0};
	usage_units(c, &units);
	_cleanup_free_ char *head = xasprintf("Usage: ubtune %s", c->name);
	size_t indent = strlen(head) + 1, col = strlen(head);
	if (indent > width / 2)
		indent = 8;
	fputs(head, f);
	for (size_t i = 0; i < units.n; i++) {
		size_t w = strlen(units.v[i]);
		if (col + 1 + w > width && col > indent) {
			fprintf(f, "\n%*s", (int)indent, "");
			col = indent;
		} else {
			fputc(' ', f);
			col++;
		}
		fputs(units.v[i], f);
		col += w;
	}
	fputc('\n', f);
	strv_free(&units);
}

/* ---- roff ---- */

static void roff_escaped(FILE *f, const char *s)
{
	for (; *s; s++)
		if (*s == '-' || *s == '\\')
			fprintf(f, "\\%c", *s == '\\' ? 'e' : '-');
		else
			fputc(*s, f);
}

static void roff_name(FILE *f, const struct cmd_option *o)
{
	if (o->short_name)
		fprintf(f, "\\-%c", o->short_name);
	else {
		fputs("\\-\\-", f);
		roff_escaped(f, o->name);
	}
}

/* The option's lines of the synopsis; `close` brackets follow the last. */
static void roff_option(FILE *f, const struct cmd_option *o, size_t close)
{
	_cleanup_free_ char *brackets = xcalloc(close + 2, 1);
	memset(brackets, ']', close);
	const char *sep = close ? " " : "";
	fputs(".RB [ ", f);
	roff_name(f, o);
	if (!option_has_value(o)) {
		fprintf(f, "%s%s\n", sep, brackets);
	} else if (o->arg) {
		fputs("\n.IR ", f);
		roff_escaped(f, o->arg);
		fprintf(f, "%s%s\n", sep, brackets);
	} else {
		fputs("\n.BR", f);
		for (size_t i = 0; o->choices[i]; i++) {
			fputc(' ', f);
			if (i)
				fputs("| ", f);
			roff_escaped(f, o->choices[i]);
		}
		fprintf(f, "%s%s\n", sep, brackets);
	}
}

static void roff_unit(FILE *f, const struct command *c, const struct cmd_option *o, size_t close)
{
	if (o->group) {
		fputs(".RB [ ", f);
		for (const struct cmd_option *p = o; p->name; p++)
			if (streq_ptr(p->group, o->group)) {
				if (p != o)
					fputs(" | ", f);
				roff_name(f, p);
			}
		fprintf(f, " %.*s\n", (int)close, "]]]]]]]]");
		return;
	}
	const struct cmd_option *last = NULL;
	for (const struct cmd_option *p = c->options; p->name; p++)
		if (streq_ptr(p->needs, o->name))
			last = p;
	roff_option(f, o, last ? 0 : close);
	for (const struct cmd_option *p = c->options; last && p->name; p++)
		if (streq_ptr(p->needs, o->name))
			roff_unit(f, c, p, p == last ? close + 1 : 1);
}

void options_synopsis_roff(const struct command *c, FILE *f)
{
	fputs(".B ubtune ", f);
	roff_escaped(f, c->name);
	fputc('\n', f);
	for (const struct cmd_option *o = c->options; o && o->name; o++)
		if (in_usage(o) && !o->needs && !grouped_later(c, o))
			roff_unit(f, c, o, 1);
	const char *u = c->operands.usage;
	if (!u)
		return;
	if (u[0] == '[') {
		fputs(".RI [ ", f);
		_cleanup_free_ char *inner = xstrndup(u + 1, strlen(u) - 2);
		roff_escaped(f, inner);
		fputs(" ]\n", f);
	} else {
		fputs(".I ", f);
		roff_escaped(f, u);
		fputc('\n', f);
	}
}

static void roff_tag(const struct cmd_option *o, void *data)
{
	FILE *f = data;
	if (!in_usage(o))
		return;
	_cleanup_free_ char *v = option_has_value(o) ? value_name(o) : NULL;
	if (o->short_name && v) {
		fprintf(f, ".BI \\-%c \" ", o->short_name);
		roff_escaped(f, v);
		fputs("\" \"\\fR, \\fP\\-\\-", f);
		roff_escaped(f, o->name);
		fputs(" \" ", f);
		roff_escaped(f, v);
	} else if (o->short_name) {
		fprintf(f, ".BR \\-%c \", \" \\-\\-", o->short_name);
		roff_escaped(f, o->name);
	} else if (v && o->arg) {
		fputs(".BI \\-\\-", f);
		roff_escaped(f, o->name);
		fputs(" \" ", f);
		roff_escaped(f, v);
		fputc('"', f);
	} else if (v) { /* .BI \-\-engine " programs" | run */
		fputs(".BI \\-\\-", f);
		roff_escaped(f, o->name);
		fputs(" \" ", f);
		roff_escaped(f, o->choices[0]);
		fputc('"', f);
		for (size_t i = 1; o->choices[i]; i++) {
			fputs(" | ", f);
			roff_escaped(f, o->choices[i]);
		}
	} else {
		fputs(".B \\-\\-", f);
		roff_escaped(f, o->name);
	}
	fputc('\n', f);
}

void options_roff_tags(const struct command *c, FILE *f)
{
	for (const struct cmd_option *o = c->options; o && o->name; o++)
		roff_tag(o, f);
}

/* ---- --help ---- */

void print_paragraphs(FILE *f, const char *text, size_t indent, size_t width)
{
	struct buf flow = {0};
	const char *p = text;
	while (*p) {
		size_t n = strcspn(p, "\n");
		bool verbatim = startswith(p, "  ") != NULL, blank = n == 0;
		if ((verbatim || blank) && flow.len) {
			fprintf(f, "%*s", (int)indent, "");
			term_print_wrapped(f, flow.s, indent, width);
			buf_free(&flow);
		}
		if (verbatim)
			fprintf(f, "%*s%.*s\n", (int)indent, "", (int)n, p);
		else if (blank)
			fputc('\n', f);
		else {
			if (flow.len)
				buf_puts(&flow, " ");
			buf_add(&flow, p, n);
		}
		p += n;
		if (*p == '\n')
			p++;
	}
	if (flow.len) {
		fprintf(f, "%*s", (int)indent, "");
		term_print_wrapped(f, flow.s, indent, width);
	}
	buf_free(&flow);
}

void options_help(const struct command *c, bool globals, FILE *f, size_t width)
{
	struct option_list l = { .n = 0 };
	for (const struct cmd_option *o = c->options; o && o->name; o++)
		add_option(o, &l);
	for (const struct cmd_option *o = global_options; o->name; o++)
		if (globals || o->type == OPT_HELP)
			add_option(o, &l);
	size_t col = 0;
	for (size_t i = 0; i < l.n; i++) {
		_cleanup_free_ char *label = option_label(l.v[i]);
		if (strlen(label) > col)
			col = strlen(label);
	}
	/* two spaces, the label, two spaces; a longer label has its help below */
	col = (col > 24 ? 24 : col) + 4;
	for (size_t i = 0; i < l.n; i++) {
		_cleanup_free_ char *label = option_label(l.v[i]);
		fprintf(f, "  %s", label);
		if (strlen(label) + 4 > col)
			fprintf(f, "\n%*s", (int)col, "");
		else
			fprintf(f, "%*s", (int)(col - 2 - strlen(label)), "");
		_cleanup_free_ char *made = l.v[i]->help_fn ? l.v[i]->help_fn() : NULL;
		term_print_wrapped(f, made ? made : l.v[i]->help ? l.v[i]->help : "", col, width);
	}
}
