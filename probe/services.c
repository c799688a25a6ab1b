/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Services: the init system, systemd's default target and the known
 * benchmark-noise services that are active. Unit states come from systemd
 * over the system bus (live) or from GATHER_UNITS (a dump); without
 * systemd the same services are recognised by their processes.
 *
 * The bus is asked when systemd is PID 1 (or PID 1 cannot be seen), or
 * when DBUS_SYSTEM_BUS_ADDRESS names a bus explicitly: that is how tests
 * point the probe at a mock systemd, on machines whose PID 1 is not systemd.
 */
#include <errno.h>
#include <fnmatch.h>

#include "initscripts.h"
#include "probe.h"
#include "services.h"

const struct noise noise_table[] = {
	{ .unit = "irqbalance.service", .comm = "irqbalance",
	  .reason = "moves interrupts between CPUs every few seconds, so the CPU a test runs on changes under it" },
	{ .unit = "numad.service", .comm = "numad",
	  .reason = "migrates processes and memory between NUMA nodes while tests run" },
	{ .unit = "tuned.service", .comm = "tuned",
	  .reason = "changes the CPU governor, energy bias and disk settings on its own" },
	{ .unit = "power-profiles-daemon.service", .comm = "power-profiles-",
	  .reason = "switches the platform power profile (balanced, power-saver), which caps clocks" },
	{ .unit = "cups.service", .comm = "cupsd",
	  .reason = "print server: wakes on timers and on every network or USB event" },
	{ .unit = "cups-browsed.service", .comm = "cups-browsed",
	  .reason = "browses the network for printers and wakes on every announcement" },
	{ .unit = "avahi-daemon.service", .comm = "avahi-daemon",
	  .reason = "mDNS responder: wakes on every multicast packet of the network" },
	{ .unit = "gdm.service", .comm = "gdm", .desktop = true,
	  .reason = "display manager: keeps a graphical session and its compositor running" },
	{ .unit = "gdm3.service", .comm = "gdm3", .desktop = true,
	  .reason = "display manager: keeps a graphical session and its compositor running" },
	{ .unit = "lightdm.service", .comm = "lightdm", .desktop = true,
	  .reason = "display manager: keeps an X server and a greeter running" },
	{ .unit = "sddm.service", .comm = "sddm", .desktop = true,
	  .reason = "display manager: keeps an X server and a greeter running" },
	{ .unit = "display-manager.service", .desktop = true,
	  .reason = "display manager: keeps a graphical session running" },
	{ .unit = "upower.service", .comm = "upowerd",
	  .reason = "polls batteries and power devices" },
	{ .unit = "rhsmcertd.service", .comm = "rhsmcertd",
	  .reason = "checks subscription certificates periodically" },
	{ .unit = "nfs-server.service", .comm = "nfsd",
	  .reason = "serves NFS clients: their requests take CPU time and disk bandwidth" },
	{ .unit = "plymouth-*", .comm = "plymouthd",
	  .reason = "boot splash still running: redraws the screen" },
	{ .unit = "packagekit.service", .comm = "packagekitd",
	  .reason = "refreshes package metadata in the background" },
	{ .unit = "unattended-upgrades.service", .comm = "unattended-upgr",
	  .reason = "downloads and installs upgrades in the background" },
	{ .unit = "apt-daily*", .comm = "apt.systemd.dai",
	  .reason = "downloads package lists and upgrades at a random time of day" },
	{ .unit = "snapd.service", .comm = "snapd",
	  .reason = "refreshes snaps and remounts their images in the background" },
	{ .unit = "fwupd.service", .comm = "fwupd",
	  .reason = "refreshes firmware metadata in the background" },
	{ .unit = "bluetooth.service", .comm = "bluetoothd",
	  .reason = "Bluetooth daemon: wakes on radio events" },
	{ .unit = "ModemManager.service", .comm = "ModemManager",
	  .reason = "probes serial ports and modems" },
	{ .unit = "man-db.timer", .comm = "mandb",
	  .reason = "rebuilds the manual page index once a day" },
	{ .unit = "mlocate.timer", .comm = "updatedb.mlocat",
	  .reason = "updatedb walks every file system once a day" },
	{ .unit = "plocate-updatedb.timer", .comm = "updatedb.plocat",
	  .reason = "updatedb walks every file system once a day" },
	{ .unit = "updatedb.timer", .comm = "updatedb",
	  .reason = "updatedb walks every file system once a day" },
	{ .unit = "fstrim.timer", .comm = "fstrim",
	  .reason = "discards free blocks of every file system once a week, stalling disk IO" },
	{ .unit = "thermald.service", .comm = "thermald", .protective = true,
	  .reason = "protects the CPU from overheating: keep it, but in long runs it may lower clocks, which shows as falling scores" },
	{ .comm = "Xorg", .desktop = true,
	  .reason = "X server of a desktop session: redraws and handles input" },
	{ .comm = "Xwayland", .desktop = true,
	  .reason = "X server of a desktop session: redraws and handles input" },
	{ .comm = "gnome-shell", .desktop = true,
	  .reason = "desktop compositor: redraws the screen and runs extensions" },
	{ .comm = "plasmashell", .desktop = true,
	  .reason = "desktop shell: redraws the screen and runs widgets" },
	{ .comm = "tracker-miner-f", .desktop = true,
	  .reason = "desktop file indexer: reads and indexes files in the background" },
	{ .comm = "baloo_file", .desktop = true,
	  .reason = "desktop file indexer: reads and indexes files in the background" },
};
const size_t noise_table_len = ARRAY_SIZE(noise_table);

const struct noise *noise_for_unit(const char *unit)
{
	for (size_t i = 0; i < noise_table_len; i++)
		if (noise_table[i].unit && fnmatch(noise_table[i].unit, unit, 0) == 0)
			return &noise_table[i];
	return NULL;
}

const struct noise *noise_for_comm(const char *comm)
{
	for (size_t i = 0; i < noise_table_len; i++)
		if (noise_table[i].comm && streq(noise_table[i].comm, comm))
			return &noise_table[i];
	return NULL;
}

/* ---- the unit states of a dump ---- */

void units_file_free(struct units_file *f)
{
	free(f->default_target);
	unit_state_list_free(f->units, f->n);
	*f = (struct units_file){0};
}

int units_file_parse(const char *text, struct units_file *out, char **error)
{
	struct units_file f = {0};
	_cleanup_free_ char *copy = xstrdup(text);
	size_t cap = 0, lineno = 0;
	char *save = NULL;

	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		lineno++;
		l = strstrip(l);
		if (!*l || *l == '#')
			continue;
		const char *v = startswith(l, "default-target=");
		if (v) {
			free(f.default_target);
			f.default_target = *v ? xstrdup(v) : NULL;
			continue;
		}
		char *fields[5] = {0}, *fsave = NULL;
		size_t nf = 0;
		for (char *t = strtok_r(l, " \t", &fsave); t && nf < ARRAY_SIZE(fields); t = strtok_r(NULL, " \t", &fsave))
			fields[nf++] = t;
		if (nf != 4) {
			*error = xasprintf("line %zu: expected UNIT LOAD ACTIVE SUB, found %zu fields", lineno, nf);
			units_file_free(&f);
			return -EBADMSG;
		}
		if (f.n == cap) {
			cap = cap ? cap * 2 : 16;
			f.units = xrealloc(f.units, cap * sizeof(*f.units));
		}
		f.units[f.n++] = (struct unit_state){ xstrdup(fields[0]), xstrdup(fields[1]), xstrdup(fields[2]),
						      xstrdup(fields[3]) };
	}
	*out = f;
	return 0;
}

char *units_file_format(const struct env_record *env)
{
	const struct env_services *sv = &env->services;
	if (!is_true(sv->available))
		return NULL;
	struct buf b = {0};
	buf_puts(&b, "# systemd unit states: UNIT LOAD ACTIVE SUB\n");
	if (sv->default_target)
		buf_printf(&b, "default-target=%s\n", sv->default_target);
	for (size_t i = 0; i < sv->noisy.n; i++) {
		const struct env_noisy *e = &sv->noisy.v[i];
		if (streq_ptr(e->source, "unit") && e->unit)
			buf_printf(&b, "%s %s %s %s\n", e->unit, e->load ?: "-", e->state ?: "-", e->sub ?: "-");
	}
	return buf_steal(&b);
}

/* ---- noisy services ---- */

static void add_unit_noise(json_object *noisy, const struct unit_state *units, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct noise *row = noise_for_unit(units[i].name);
		if (!row || !unit_state_is_active(&units[i]))
			continue;
		json_object *e = json_object_new_object();
		jset_str(e, "unit", units[i].name);
		jset_str(e, "state", units[i].active_state);
		jset_str(e, "sub", units[i].sub_state);
		jset_str(e, "load", units[i].load_state);
		jset_str(e, "source", "unit");
		jset_bool(e, "protective", row->protective);
		json_object_array_add(noisy, e);
	}
}

/* A unit name without glob characters, or NULL. */
static const char *plain_unit(const struct noise *row)
{
	return row->unit && !strpbrk(row->unit, "*?[") ? row->unit : NULL;
}

/* Noise seen as processes: every row when systemd could not be asked,
 * else only the rows no system unit stands for. One entry per row, for
 * its lowest pid. */
static void add_process_noise(json_object *noisy, const struct proc_table *t, bool have_units)
{
	for (size_t r = 0; r < noise_table_len; r++) {
		const struct noise *row = &noise_table[r];
		if (!row->comm || (have_units && row->unit))
			continue;
		const struct proc_info *found = NULL;
		for (size_t i = 0; i < t->n; i++)
			if (streq(t->v[i].comm, row->comm) && (!found || t->v[i].pid < found->pid))
				found = &t->v[i];
		if (!found)
			continue;
		json_object *e = json_object_new_object();
		jset_str(e, "unit", plain_unit(row));
		jset_str(e, "state", "running");
		jset_str(e, "process", found->comm);
		jset_int(e, "pid", found->pid);
		jset_str(e, "source", "process");
		jset_bool(e, "protective", row->protective);
		json_object_array_add(noisy, e);
	}
}

/* The unit globs of the table, for ListUnitsByPatterns. */
static const char **noise_patterns(void)
{
	const char **p = xcalloc(noise_table_len + 1, sizeof(*p));
	size_t n = 0;
	for (size_t i = 0; i < noise_table_len; i++)
		if (noise_table[i].unit)
			p[n++] = noise_table[i].unit;
	return p;
}

/* Unit states from systemd on the bus. */
static int units_live(struct probe_ctx *ctx, struct units_file *out)
{
	_cleanup_units_ struct units *u = NULL;
	int r = units_open(&u);
	if (r == -EOPNOTSUPP)
		probe_unavailable(ctx, "services", "unit states: this ubtune is built without libsystemd");
	else if (r < 0)
		probe_unavailable(ctx, "services", "system bus: %s", strerror(-r));
	if (r < 0)
		return r;
	_cleanup_free_ const char **patterns = noise_patterns();
	r = units_list(u, patterns, &out->units, &out->n);
	if (r < 0) {
		probe_unavailable(ctx, "services", "systemd: %s", units_last_error(u));
		return r;
	}
	if (units_default_target(u, &out->default_target) < 0)
		probe_unavailable(ctx, "services", "default target: %s", units_last_error(u));
	return 0;
}

static void not_systemd(struct probe_ctx *ctx, const char *init)
{
	if (init)
		probe_unavailable(ctx, "services", "systemd is not PID 1 (%s init)", init);
	else
		probe_unavailable(ctx, "services", "no unit states: the init system is unknown and this dump has no %s",
				  GATHER_UNITS);
}

/* Unit states a dump carries. */
static int units_dump(struct probe_ctx *ctx, const char *init, struct units_file *out)
{
	_cleanup_free_ char *text = NULL, *error = NULL;
	int r = rootfs_read(ctx->rf, GATHER_UNITS, &text, NULL);
	if (r < 0) {
		if (r == -ENOENT && !streq_ptr(init, "systemd"))
			not_systemd(ctx, init);
		else
			probe_unavailable(ctx, "services", "this dump has no unit states (%s: %s)", GATHER_UNITS,
					  strerror(-r));
		return r;
	}
	r = units_file_parse(text, out, &error);
	if (r < 0)
		probe_unavailable(ctx, "services", "%s %s", GATHER_UNITS, error);
	return r;
}

static bool collect_units(struct probe_ctx *ctx, const char *init, struct units_file *units)
{
	if (!ctx->live)
		return units_dump(ctx, init, units) == 0;
	/* an unknown init (PID 1 hidden) may still be systemd: ask */
	if (!init || streq(init, "systemd") || getenv("DBUS_SYSTEM_BUS_ADDRESS"))
		return units_live(ctx, units) == 0;
	not_systemd(ctx, init);
	return false;
}

/* The init scripts of a machine that systemd does not run, and whether
 * their daemons run (pidfile or process name; scripts are never run). */
static json_object *init_scripts(struct probe_ctx *ctx, const char *init, const struct proc_table *procs)
{
	if (!init || streq(init, "systemd"))
		return NULL;
	struct initscript *v = NULL;
	size_t n = 0;
	int r = initscripts_list(ctx->rf, &v, &n);
	if (r < 0) {
		probe_unavailable(ctx, "services", "init scripts: %s: %s", INITD, strerror(-r));
		return NULL;
	}
	/* OpenRC knows which services it started; a process only gives the pid */
	struct strv started = {0};
	bool openrc = rootfs_list(ctx->rf, OPENRC_STARTED, &started) == 0;
	json_object *a = json_object_new_array();
	for (size_t i = 0; i < n; i++) {
		json_object *e = json_object_new_object();
		int pid = 0;
		r = initscript_running(ctx->rf, &v[i], procs, &pid);
		if (openrc) {
			bool on = strv_contains(&started, v[i].name);
			if (!on || r <= 0)
				pid = 0;
			r = on;
		}
		jset_str(e, "name", v[i].name);
		jset_str(e, "script", v[i].path);
		jset_str(e, "daemon", v[i].daemon);
		jset_str(e, "pidfile", v[i].pidfile);
		if (r < 0)
			jset_null(e, "running");
		else
			jset_bool(e, "running", r > 0);
		if (pid > 0)
			jset_int(e, "pid", pid);
		else
			jset_null(e, "pid");
		json_object_array_add(a, e);
	}
	strv_free(&started);
	initscripts_free(v, n);
	return a;
}

int services_collect(struct probe_ctx *ctx)
{
	json_object *o = jchild(ctx->rec, "services");
	const char *init = jpath_str(ctx->rec, "host.init");
	const struct proc_table *procs;
	struct units_file units = {0};

	if (probe_procs(ctx, &procs) < 0)
		probe_unavailable(ctx, "processes", "/proc is not readable");
	processes_collect(ctx, procs);

	bool have_units = collect_units(ctx, init, &units);
	jset_bool(o, "available", have_units);
	jset_str(o, "manager", have_units ? "systemd" : init);
	jset_str(o, "default_target", units.default_target);
	if (!have_units && !procs->seen) {
		jset_null(o, "noisy");
	} else {
		json_object *noisy = json_object_new_array();
		add_unit_noise(noisy, units.units, units.n);
		add_process_noise(noisy, procs, have_units);
		jset(o, "noisy", noisy);
	}
	units_file_free(&units);
	jset(o, "init_scripts", init_scripts(ctx, init, procs));
	return 0;
}

/* "cups.service" -> "cups"; other unit types keep their suffix. */
static void append_noise_name(struct buf *b, const struct env_noisy *e)
{
	const char *unit = e->unit, *process = e->process;
	if (streq_ptr(e->source, "process"))
		buf_printf(b, "%s%s", b->len ? ", " : "", process ? process : "?");
	else if (unit && endswith(unit, ".service"))
		buf_printf(b, "%s%.*s", b->len ? ", " : "", (int)(strlen(unit) - strlen(".service")), unit);
	else
		buf_printf(b, "%s%s", b->len ? ", " : "", unit ? unit : "?");
	if (is_true(e->protective))
		buf_puts(b, " (protective)");
}

static void render_services(const struct env_services *sv, FILE *out)
{
	struct buf head = {0}, names = {0};
	if (is_true(sv->available))
		buf_printf(&head, "systemd, default target %s", sv->default_target ?: "unknown");
	else
		buf_printf(&head, "init %s (not systemd)", sv->manager ? sv->manager : "unknown");

	for (size_t i = 0; i < sv->noisy.n; i++)
		append_noise_name(&names, &sv->noisy.v[i]);
	if (!sv->noisy.json)
		buf_puts(&head, " · running services unknown");
	else if (sv->noisy.n == 0)
		buf_puts(&head, " · no known noisy service running");
	else
		buf_printf(&head, " · running: %s", names.s);
	render_line(out, "Services", "%s", head.s);
	buf_free(&head);
	buf_free(&names);
}

static void render_busy(const struct env_record *env, FILE *out)
{
	if (env->processes.top.n == 0)
		return;
	struct buf b = {0};
	if (env->processes.running.known)
		buf_printf(&b, "%lld runnable besides ubtune · ", (long long)env->processes.running.v);
	buf_puts(&b, "CPU share since start: ");
	processes_format_top(&env->processes, &b);
	render_line(out, "Busy", "%s", b.s);
	buf_free(&b);
}

/* "running: dropbear, launcher (weston) · not running: ntpd" */
static void render_init_scripts(const struct env_services *sv, FILE *out)
{
	static const struct {
		const char *label;
		int running; /* 1, 0, -1: unknown */
	} groups[] = { { "running", 1 }, { "not running", 0 }, { "state unknown", -1 } };
	size_t n = sv->init_scripts.n;
	if (!n)
		return;
	struct buf line = {0};
	for (size_t g = 0; g < ARRAY_SIZE(groups); g++) {
		struct buf names = {0};
		for (size_t i = 0; i < n; i++) {
			const struct env_init_script *e = &sv->init_scripts.v[i];
			int state = e->running.known ? e->running.v : -1;
			if (state != groups[g].running)
				continue;
			const char *name = e->name, *daemon = e->daemon;
			buf_printf(&names, "%s%s", names.len ? ", " : "", name ?: "?");
			if (daemon && name && !streq(daemon, name))
				buf_printf(&names, " (%s)", daemon);
		}
		if (names.len)
			buf_printf(&line, "%s%s: %s", line.len ? " · " : "", groups[g].label, names.s);
		buf_free(&names);
	}
	render_line(out, "Scripts", INITD " · %s", line.s);
	buf_free(&line);
}

void services_render(const struct env_record *env, FILE *out)
{
	render_services(&env->services, out);
	render_init_scripts(&env->services, out);
	render_busy(env, out);
}
