/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <sys/stat.h>

#include "command.h"
#include "lib/paths.h"
#include "probe/probe.h"
#include "cli/tune-env.h"

static const struct option options[] = {
	{ "dry-run", no_argument, NULL, 'n' },
	{ "check", no_argument, NULL, 'c' },
	{ "persistent", no_argument, NULL, 'p' },
	{ "root", required_argument, NULL, 'r' },
	{ "workdir", required_argument, NULL, 'w' },
	{ "record", required_argument, NULL, 'R' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

struct apply_opts {
	bool dry_run, check, persistent;
	const char *root, *workdir, *record;
};

/* A profile name that is not found: name the shipped ones, and the one
 * meant when it is a typo. */
static void list_shipped(const char *name)
{
	_cleanup_free_ char *dir = data_path("profiles");
	struct strv files = {0}, names = {0};
	data_list(dir, &files);
	for (size_t i = 0; i < files.n; i++)
		if (endswith(files.v[i], ".profile"))
			strv_take(&names, xstrndup(files.v[i], strlen(files.v[i]) - strlen(".profile")));
	_cleanup_free_ char *list = strv_join(&names, ", ");
	const char *hint = names.n ? str_closest(name, (const char *const *)names.v) : NULL;
	if (hint)
		log_info("did you mean '%s'? Shipped profiles (%s): %s", hint, dir, list);
	else if (names.n)
		log_info("shipped profiles (%s): %s", dir, list);
	strv_free(&files);
	strv_free(&names);
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

static int check(const char *name, const char *path)
{
	_cleanup_profile_ struct profile *p = NULL;
	if (load(name, path, NULL, &p) < 0)
		return EXIT_USAGE;
	_cleanup_free_ char *chain = strv_join(&p->chain, " -> ");
	printf("%s: valid (%s)\n", path, chain);
	for (size_t i = 0; i < p->notes.n; i++)
		printf("  %s\n", p->notes.v[i]);
	return EXIT_OK;
}

static int probe(const struct apply_opts *o, const char *workdir, json_object **rec)
{
	if (o->record) {
		int r = jload_file(o->record, JSON_FILE_MAX, rec);
		if (r < 0)
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

static int carry_out(struct tune_env *env, const struct profile *p, const struct plan *plan, const char *root)
{
	struct apply_result res;
	int r = tune_apply(env, p, plan, &res);
	_cleanup_free_ char *revert = cli_tune_hint("revert", root);
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
	if (res.applied)
		printf("Applied %zu change%s; the journal is %s/" JOURNAL_FILE ". `%s` undoes %s.\n",
		       res.applied, res.applied == 1 ? "" : "s", env->state_dir, revert, res.applied == 1 ? "it" : "them");
	else
		printf("Nothing changed; settings recorded in %s/" APPLIED_FILE ".\n", env->state_dir);
	apply_result_free(&res);
	return EXIT_OK;
}

static int apply(const char *name, const char *path, const struct apply_opts *o)
{
	struct tune_env env;
	if (cli_tune_env(o->root, &env) < 0)
		return EXIT_FAIL;
	int code = EXIT_FAIL;
	_cleanup_json_ json_object *rec = NULL;
	_cleanup_profile_ struct profile *p = NULL;
	if (probe(o, o->workdir, &rec) < 0)
		goto out;
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
	plan_print(p, &plan, stdout);
	fflush(stdout);
	if (plan.errors.n)
		log_error("%s cannot be applied on this machine: see 'Cannot apply' above; nothing was changed", p->name);
	else if (o->dry_run)
		code = EXIT_OK;
	else if (rootfs_is_live(env.rf) && geteuid() != 0 && plan.n_actions)
		code = needs_root(&plan);
	else
		code = carry_out(&env, p, &plan, o->root);
	plan_free(&plan);
out:
	tune_env_close(&env);
	if (command_flush("the plan") < 0 && code == EXIT_OK)
		code = EXIT_FAIL;
	return code;
}

static int run(int argc, char **argv)
{
	struct apply_opts o = {0};
	int opt, code;

	while ((opt = command_getopt(&cmd_apply, argc, argv, "h", &code)) != -1) {
		switch (opt) {
		case 'n':
			o.dry_run = true;
			break;
		case 'c':
			o.check = true;
			break;
		case 'p':
			o.persistent = true;
			break;
		case 'r':
			o.root = optarg;
			break;
		case 'w':
			o.workdir = optarg;
			break;
		case 'R':
			o.record = optarg;
			break;
		default:
			return code;
		}
	}
	if (optind >= argc)
		return command_usage_error(&cmd_apply, "which profile? (for example: ubtune apply generic)");
	if (optind + 1 < argc)
		return command_usage_error(&cmd_apply, "unexpected argument '%s'", argv[optind + 1]);
	_cleanup_free_ char *path = profile_find(argv[optind]);
	if (o.check)
		return check(argv[optind], path);
	return apply(argv[optind], path, &o);
}

const struct command cmd_apply = {
	.name = "apply",
	.run = run,
	.args = "PROFILE [--dry-run] [--check] [--persistent] [--root DIR] [--workdir DIR] [--record FILE]",
	.summary = "Tune this machine with a profile, journaling every old value first",
	.help = "PROFILE is a file, or the name of a shipped profile (generic, ft2000, kunpeng920,\n"
		"rk3568, rpi4, x86-server, vm-guest).\n\n"
		"Options:\n"
		"  --dry-run        print the plan (what, from, to, why) and change nothing\n"
		"  --check          only validate the profile and its includes\n"
		"  --persistent     also make changes that survive a reboot ([services] default-target)\n"
		"  --root DIR       apply to the files of a machine dump in DIR instead of this machine;\n"
		"                   the journal is then DIR/var/lib/ubtune/journal. Only files inside\n"
		"                   DIR change: nothing is mounted and no program of DIR runs\n"
		"  --workdir DIR    the benchmark directory whose device [io] tunes (default: a [workdir]\n"
		"                   type=dir path when it exists, else the current directory)\n"
		"  --record FILE    plan from this environment record (`ubtune probe --json`) instead\n"
		"                   of probing\n"
		"  -h, --help       show this help\n\n"
		"Before each change its old value is appended to the journal and synced to disk, so\n"
		"`ubtune revert` restores everything, even after a crash, a kill or a reboot. Applying\n"
		"the same profile again changes nothing; a second profile stacks on the first. A\n"
		"failing change rolls back what this run changed. Live changes need root. Settings\n"
		"for `ubtune bench` ([build], [bench], [workdir]) go to applied.json beside the journal.\n",
	.options = options,
};
