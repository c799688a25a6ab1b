/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <inttypes.h>

#include "command.h"
#include "probe/probe.h"
#include "cli/tune-env.h"

static const struct option options[] = {
	{ "json", no_argument, NULL, 'j' },
	{ "root", required_argument, NULL, 'r' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

static void render_settings(json_object *st)
{
	static const char *const sections[] = { "build", "bench", "workdir" };
	for (size_t i = 0; i < ARRAY_SIZE(sections); i++) {
		json_object *o = jpath(st, sections[i]);
		if (!o)
			continue;
		struct buf b = {0};
		json_object_object_foreach(o, key, val)
		{
			if (val)
				buf_printf(&b, "%s%s %s", b.len ? " · " : "", key,
					   json_object_is_type(val, json_type_string)
						   ? json_object_get_string(val)
						   : json_object_to_json_string_ext(val, JSON_C_TO_STRING_PLAIN));
		}
		if (b.len)
			render_line(stdout, sections[i], "%s", b.s);
		buf_free(&b);
	}
}

static void render(json_object *st, const char *root)
{
	bool applied = false;
	jpath_bool(st, "applied", &applied);
	if (!applied) {
		printf("No profile is applied (state in %s).\n", jpath_str(st, "state_dir"));
		return;
	}
	json_object *profiles = jpath(st, "profiles");
	struct buf b = {0};
	for (size_t i = 0; profiles && i < json_object_array_length(profiles); i++)
		buf_printf(&b, "%s%s", i ? " + " : "", json_object_get_string(json_object_array_get_idx(profiles, i)));
	render_line(stdout, "Applied", "%s (state in %s)", b.len ? b.s : "?", jpath_str(st, "state_dir"));
	buf_free(&b);
	bool flag = false;
	if (jpath_bool(st, "interrupted", &flag) && flag) {
		_cleanup_free_ char *revert = cli_tune_hint("revert", root);
		render_line(stdout, "", "an apply was interrupted: some changes may be half made; `%s` "
					"undoes all of them", revert);
	}
	if (jpath_bool(st, "rebooted", &flag) && flag)
		render_line(stdout, "", "the machine rebooted since: changes that do not survive a reboot are gone");
	render_settings(st);

	json_object *knobs = jpath(st, "knobs");
	size_t n = knobs ? json_object_array_length(knobs) : 0;
	int64_t drifted = 0;
	jpath_int(st, "drifted", &drifted);
	render_line(stdout, "Knobs", "%zu set by the profile%s, %" PRId64 " not as set", n, n == 1 ? "" : "s", drifted);
	for (size_t i = 0; i < n; i++) {
		json_object *k = json_object_array_get_idx(knobs, i);
		const char *state = jpath_str(k, "state");
		printf("  %-8s %s: %s%s%s\n", state, jpath_str(k, "what"), jpath_str(k, "wanted"),
		       streq_ptr(state, "ok") ? "" : ", now ", streq_ptr(state, "ok") ? "" : jpath_str(k, "now") ?: "unknown");
	}
}

static int run(int argc, char **argv)
{
	const char *root = NULL;
	bool json = false;
	int code;

	if ((code = cli_tune_options(&cmd_status, argc, argv, &root, &json)) >= 0)
		return code;

	_cleanup_free_ char *error = NULL;
	struct tune_env env;
	if (cli_tune_env(root, &env) < 0)
		return EXIT_FAIL;
	_cleanup_json_ json_object *st = NULL;
	code = EXIT_OK;
	if (tune_status(&env, &st, &error) < 0) {
		log_error("%s", error);
		code = EXIT_FAIL;
	} else {
		if (json)
			printf("%s\n", jdump(st, true));
		else
			render(st, root);
		int64_t drifted = 0;
		bool interrupted = false;
		jpath_int(st, "drifted", &drifted);
		jpath_bool(st, "interrupted", &interrupted);
		if (drifted || interrupted)
			code = EXIT_FINDINGS;
	}
	tune_env_close(&env);
	if (command_flush("the status") < 0)
		return EXIT_FAIL;
	return code;
}

const struct command cmd_status = {
	.name = "status",
	.run = run,
	.args = "[--json] [--root DIR]",
	.summary = "Show the applied profiles and every knob that drifted from them",
	.help = "Options:\n"
		"  --json           print the status as JSON\n"
		"  --root DIR       look at a machine dump in DIR\n"
		"  -h, --help       show this help\n\n"
		"Every knob the applied profiles set (services, governors, schedulers, sysctls, IRQ\n"
		"affinity, workdir) is read again: ok, drifted (changed since), lost (reset by a\n"
		"reboot) or unknown (cannot be read).\n",
	.options = options,
	.exits = "3 a knob is not as set, or an apply was interrupted",
};
