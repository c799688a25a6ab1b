/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <sys/stat.h>

#include "command.h"
#include "lib/paths.h"
#include "probe/probe.h"
#include "cli/tune-env.h"
#include "lib/term.h"
#include "profiles.h"
#include "result-args.h"

struct args {
	bool dry_run, check, persistent, list, json;
	const char *root, *workdir, *record;
};

static const struct cmd_option options[] = {
	OPT_JSON("print the plan and what was done (schema ubtune.apply/1), the profiles (--list) or the "
		 "profile's chain (--check) as JSON"),
	{ .name = "dry-run", .type = OPT_FLAG, OPT_AT(dry_run),
	  .help = "print the plan (what, from, to, why) and change nothing" },
	{ .name = "check", .type = OPT_FLAG, OPT_AT(check), .help = "only validate the profile and its includes" },
	{ .name = "persistent", .type = OPT_FLAG, OPT_AT(persistent),
	  .help = "also make changes that survive a reboot ([services] default-target)" },
	{ .name = "list", .type = OPT_FLAG, OPT_AT(list), .flags = OPTF_NO_OPERANDS,
	  .help = "list the shipped profiles with their descriptions" },
	OPT_ROOT("DIR", "apply to the files of a machine dump in DIR instead of this machine; the journal is then "
			"DIR/var/lib/ubtune/journal. Only files inside DIR change: nothing is mounted and no "
			"program of DIR runs"),
	OPT_WORKDIR(workdir, "the benchmark directory whose device [io] tunes (default: a [workdir] type=dir path "
			     "when it exists, else the current directory)"),
	{ .name = "record", .type = OPT_STRING, .arg = "FILE", OPT_AT(record), .complete = COMPLETE_FILE,
	  .help = "plan from this environment record (`ubtune probe --json`) instead of probing" },
	OPT_END,
};

/* A profile name that is not found: name the shipped ones, and the one
 * meant when it is a typo. */
static void list_shipped(const char *name)
{
	_cleanup_free_ char *dir = data_path("profiles");
	struct strv names = {0};
	profiles_list(&names, NULL);
	_cleanup_free_ char *list = strv_join(&names, ", ");
	const char *hint = names.n ? str_closest(name, (const char *const *)names.v) : NULL;
	if (hint)
		log_info("did you mean '%s'? Shipped profiles (%s): %s", hint, dir, list);
	else if (names.n)
		log_info("shipped profiles (%s): %s", dir, list);
	strv_free(&names);
}

/* --list --json: [{"name", "description", "path"}] */
static void list_json(const char *dir, const struct strv *names, const struct strv *descriptions)
{
	_cleanup_json_ json_object *list = json_object_new_array();
	for (size_t i = 0; i < names->n; i++) {
		json_object *o = json_object_new_object();
		_cleanup_free_ char *path = xasprintf("%s/%s.profile", dir, names->v[i]);
		jset_str(o, "name", names->v[i]);
		jset_str(o, "description", *descriptions->v[i] ? descriptions->v[i] : NULL);
		jset_str(o, "path", path);
		json_object_array_add(list, o);
	}
	printf("%s\n", jdump(list, true));
}

/* --list: the shipped profiles, as `tuned-adm list` shows its own. */
static int list_profiles(bool json)
{
	_cleanup_free_ char *dir = data_path("profiles");
	struct strv names = {0}, descriptions = {0};
	profiles_list(&names, &descriptions);
	if (json) {
		list_json(dir, &names, &descriptions);
		strv_free(&names);
		strv_free(&descriptions);
		return command_flush("the profiles") < 0 ? EXIT_FAIL : EXIT_OK;
	}
	size_t w = 0, width = term_width(stdout);
	for (size_t i = 0; i < names.n; i++)
		if (strlen(names.v[i]) > w)
			w = strlen(names.v[i]);
	printf("Profiles in %s:\n", dir);
	for (size_t i = 0; i < names.n; i++) {
		printf("  %-*s  ", (int)w, names.v[i]);
		term_print_wrapped(stdout, *descriptions.v[i] ? descriptions.v[i] : "(no description)", w + 4, width);
	}
	if (!names.n)
		printf("  (none)\n");
	strv_free(&names);
	strv_free(&descriptions);
	return command_flush("the profiles") < 0 ? EXIT_FAIL : EXIT_OK;
}

static int load(const char *name, const char *path, json_object *rec, struct profile **p)
{
	struct strv errors = {0};
	int r = profile_load(path, rec, p, &errors);
	for (size_t i = 0; i < errors.n; i++)
		log_error("%s", errors.v[i]);
	if (r < 0 && !data_exists(path) && !strchr(name, '/'))
		list_shipped(name);
	strv_free(&errors);
	return r;
}

static int check(const char *name, const char *path, bool json)
{
	_cleanup_profile_ struct profile *p = NULL;
	if (load(name, path, NULL, &p) < 0)
		return EXIT_USAGE;
	if (json) {
		_cleanup_json_ json_object *o = json_object_new_object(), *chain = json_object_new_array();
		for (size_t i = 0; i < p->chain.n; i++)
			jarr_add_str(chain, p->chain.v[i]);
		jset_str(o, "path", path);
		jset_bool(o, "valid", true);
		jset(o, "chain", json_object_get(chain));
		printf("%s\n", jdump(o, true));
		return EXIT_OK;
	}
	_cleanup_free_ char *chain = strv_join(&p->chain, " -> ");
	printf("%s: valid (%s)\n", path, chain);
	for (size_t i = 0; i < p->notes.n; i++)
		printf("  %s\n", p->notes.v[i]);
	return EXIT_OK;
}

static int probe(const struct args *o, const char *workdir, json_object **rec)
{
	if (o->record) {
		_cleanup_free_ char *text = NULL, *error = NULL;
		size_t len = 0;
		int r = read_regular(o->record, JSON_FILE_MAX, &text, &len, &error);
		if (r == 0)
			r = jload_text(text, len, rec);
		if (r < 0 && error)
			log_error("--record %s", error);
		else if (r < 0)
			log_error("--record %s: %s", o->record, r == -EBADMSG ? "not JSON" : strerror(-r));
		return r;
	}
	struct probe_opts po = { .root = o->root, .workdir = workdir };
	_cleanup_free_ char *error = NULL;
	int r = probe_collect(&po, rec, NULL, &error);
	if (r < 0)
		log_error("%s", error);
	return r;
}

/* [io] tunes the device of a directory workdir when it exists already. */
static const char *dir_workdir(struct tune_env *env, const struct profile *p)
{
	const struct profile_setting *type = profile_get(p, "workdir", "type");
	const struct profile_setting *path = profile_get(p, "workdir", "path");
	struct stat st;
	if (!type || !path || !streq(type->value, "dir"))
		return NULL;
	return rootfs_stat(env->rf, path->value, &st) == 0 && S_ISDIR(st.st_mode) ? path->value : NULL;
}

static int needs_root(const struct plan *plan)
{
	log_error("apply changes this machine and needs root for:");
	for (size_t i = 0; i < plan->n_actions; i++)
		fprintf(stderr, "  %s: %s -> %s\n", plan->actions[i].what, plan->actions[i].from, plan->actions[i].to);
	fprintf(stderr, "Run it as root, or see the plan only with --dry-run.\n");
	return EXIT_FAIL;
}

/* What apply did, for --json: {"applied", "journal", "refused", "not_done", "failure", "rolled_back"}. */
static json_object *result_json(const struct tune_env *env, const struct apply_result *res, int r)
{
	json_object *o = json_object_new_object();
	_cleanup_free_ char *journal = xasprintf("%s/" JOURNAL_FILE, env->state_dir);
	jset_int(o, "applied", (int64_t)res->applied);
	jset_str(o, "journal", res->applied || res->journal_kept ? journal : NULL);
	jset(o, "refused", jarr_from_strv(&res->refused));
	jset(o, "not_done", jarr_from_strv(&res->not_done));
	jset_str(o, "failure", r < 0 || res->failure ? res->failure ?: strerror(-r) : NULL);
	jset_int(o, "rolled_back", (int64_t)res->rolled_back);
	return o;
}

static int carry_out(struct tune_env *env, const struct profile *p, const struct plan *plan, const char *root,
		     json_object *doc)
{
	struct apply_result res;
	int r = tune_apply(env, p, plan, &res);
	_cleanup_free_ char *revert = cli_tune_hint("revert", root);
	if (doc)
		jset(doc, "result", result_json(env, &res, r));
	if (r < 0 || res.failure) {
		log_error("%s", res.failure);
		if (res.rolled_back || res.problems.n)
			log_info("rolled back %zu change%s of this run", res.rolled_back, res.rolled_back == 1 ? "" : "s");
		for (size_t i = 0; i < res.problems.n; i++)
			log_error("%s", res.problems.v[i]);
		if (res.problems.n || res.journal_kept)
			log_info("the journal keeps what could not be put back: run `%s`", revert);
		apply_result_free(&res);
		return EXIT_FAIL;
	}
	for (size_t i = 0; i < res.refused.n; i++)
		log_warning("%s", res.refused.v[i]);
	for (size_t i = 0; i < res.not_done.n; i++)
		log_info("%s", res.not_done.v[i]);
	if (doc)
		; /* said in the document */
	else if (res.applied)
		printf("Applied %zu change%s; the journal is %s/" JOURNAL_FILE ". `%s` undoes %s.\n",
		       res.applied, res.applied == 1 ? "" : "s", env->state_dir, revert, res.applied == 1 ? "it" : "them");
	else
		printf("Nothing changed; settings recorded in %s/" APPLIED_FILE ".\n", env->state_dir);
	apply_result_free(&res);
	return EXIT_OK;
}

static int apply(const char *name, const char *path, const struct args *o)
{
	struct tune_env env;
	if (cli_tune_env(o->root, &env) < 0)
		return EXIT_FAIL;
	int code = EXIT_FAIL;
	_cleanup_json_ json_object *rec = NULL, *doc = NULL;
	_cleanup_profile_ struct profile *p = NULL;
	int r = probe(o, o->workdir, &rec);
	if (r < 0) {
		/* a --record that is not a record is a bad input file */
		code = o->record ? result_load_exit(r) : EXIT_FAIL;
		goto out;
	}
	if (load(name, path, rec, &p) < 0) {
		code = EXIT_USAGE;
		goto out;
	}
	const char *wd = o->workdir || o->record ? NULL : dir_workdir(&env, p);
	if (wd) {
		json_object_put(TAKE_PTR(rec));
		profile_free(TAKE_PTR(p));
		if (probe(o, wd, &rec) < 0 || load(name, path, rec, &p) < 0)
			goto out;
	}

	struct plan plan;
	struct plan_opts po = { .persistent = o->persistent, .svc = env.svc, .svc_why = env.svc_why };
	plan_build(p, rec, env.rf, &po, &plan);
	doc = o->json ? plan_to_json(p, &plan) : NULL;
	if (doc)
		jset_bool(doc, "dry_run", o->dry_run);
	else
		plan_print(p, &plan, stdout);
	fflush(stdout);
	if (plan.errors.n)
		log_error("%s cannot be applied on this machine: see %s; nothing was changed", p->name,
			  doc ? "\"errors\"" : "'Cannot apply' above");
	else if (o->dry_run)
		code = EXIT_OK;
	else if (rootfs_is_live(env.rf) && geteuid() != 0 && plan.n_actions)
		code = needs_root(&plan);
	else
		code = carry_out(&env, p, &plan, o->root, doc);
	if (doc)
		printf("%s\n", jdump(doc, true));
	plan_free(&plan);
out:
	tune_env_close(&env);
	if (command_flush("the plan") < 0 && code == EXIT_OK)
		code = EXIT_FAIL;
	return code;
}

static int run(struct cmd_ctx *ctx, void *opts)
{
	struct args *o = opts;
	o->root = ctx->root;
	o->json = ctx->json;
	if (o->list)
		return list_profiles(o->json);
	const char *name = ctx->args[0];
	_cleanup_free_ char *path = profile_find(name);
	if (o->check)
		return check(name, path, o->json);
	return apply(name, path, o);
}

const struct command cmd_apply = {
	.name = "apply",
	.run = run,
	.opts_size = sizeof(struct args),
	.options = options,
	.operands = { .usage = "PROFILE", .min = 1, .max = 1, .complete = COMPLETE_PROFILE,
		      .missing = "which profile? (for example: ubtune apply generic; ubtune apply --list shows them)" },
	.summary = "Tune this machine with a profile, journaling every old value first",
	.description = "PROFILE is a file, or the name of a shipped profile (`ubtune apply --list` shows them).",
	.notes = "Before each change its old value is appended to the journal and synced to disk, so\n"
		 "`ubtune revert` restores everything, even after a crash, a kill or a reboot. Applying\n"
		 "the same profile again changes nothing; a second profile stacks on the first. A\n"
		 "failing change rolls back what this run changed. Live changes need root. Settings\n"
		 "for `ubtune bench` ([build], [bench], [workdir]) go to applied.json beside the journal.",
};
