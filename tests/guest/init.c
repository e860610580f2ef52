// SPDX-License-Identifier: GPL-2.0
/*
 * PID 1 of the test guests. It mounts the pseudo file systems, runs the
 * guest suite, writes the results as KTAP to a channel of their own (the
 * kernel command line names it with verdict=DEVICE), ends that channel
 * with an explicit marker and powers the machine off. Whatever stops it
 * from reaching the marker (a panic, a hang, a crash of this program)
 * leaves the host without a verdict, which the host counts as a failure.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "bpfsum.h"

#define MODDIR "/modules/"
#define DONE_MARKER "# execmem-guest: done"

static FILE *ktap;	/* the verdict channel */
static int kmsg = -1;

/* ---- kernel log ------------------------------------------------------ */

struct buf {
	char *p;
	size_t len, cap;
};

static void buf_add(struct buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->p = realloc(b->p, b->cap);
		if (!b->p) {
			perror("realloc");
			exit(1);
		}
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

/* Append every record logged since the last call, message text only. */
static void kmsg_drain(struct buf *b)
{
	char rec[8192];

	for (;;) {
		ssize_t n = read(kmsg, rec, sizeof(rec) - 1);
		char *msg, *end;

		if (n < 0 && errno == EPIPE)
			continue;	/* records were overwritten; go on */
		if (n <= 0)
			return;
		rec[n] = '\0';
		msg = strchr(rec, ';');
		if (!msg)
			continue;
		msg++;
		end = strchr(msg, '\n');
		buf_add(b, msg, end ? (size_t)(end - msg) + 1 : strlen(msg));
	}
}

/* ---- KTAP ------------------------------------------------------------ */

static int test_no;
static int failures;

static void diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", ktap);
	va_start(ap, fmt);
	vfprintf(ktap, fmt, ap);
	va_end(ap);
	fputc('\n', ktap);
	fflush(ktap);
}

/* Report one result; @skip is a reason, or NULL. */
static void result(int ok, const char *name, const char *skip)
{
	if (!ok)
		failures++;
	fprintf(ktap, "%sok %d %s%s%s\n", ok ? "" : "not ", ++test_no, name,
		skip ? " # SKIP " : "", skip ? skip : "");
	fflush(ktap);
	/* Echo to the console so a human reading the log sees progress. */
	printf("execmem-guest: %sok %d %s%s%s\n", ok ? "" : "not ", test_no,
	       name, skip ? " # SKIP " : "", skip ? skip : "");
	fflush(stdout);
}

/* ---- helpers --------------------------------------------------------- */

static int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	close(fd);
	return n < 0 ? -errno : 0;
}

static int load_module(const char *file, const char *params)
{
	char path[256];
	int fd, ret;

	snprintf(path, sizeof(path), MODDIR "%s", file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, params, 0);
	ret = ret ? -errno : 0;
	close(fd);
	return ret;
}

static void unload_module(const char *name)
{
	syscall(SYS_delete_module, name, O_NONBLOCK);
}

static int have_module(const char *file)
{
	char path[256];

	snprintf(path, sizeof(path), MODDIR "%s", file);
	return access(path, R_OK) == 0;
}

/* ---- steps ----------------------------------------------------------- */

struct step {
	const char *name;
	void (*run)(const struct step *s);
	const char *arg;	/* step-specific */
};

static struct buf boot_log;

/* The boot-time W+X audit of the kernel page tables (CONFIG_DEBUG_WX). */
static void step_boot_wx(const struct step *s)
{
	const char *hit = strstr(boot_log.p ? boot_log.p : "",
				 "Checked W+X mappings: passed");

	if (!hit)
		diag("no \"Checked W+X mappings: passed\" line in the boot log");
	result(hit != NULL, s->name, NULL);
}

#define MAX_LOADS 64

static struct buf jit_log;	/* test_bpf's log with the JIT on */

/*
 * Runs of test_bpf.ko. @arg is "jit", "harden" or "interp"; each sets the
 * sysctls first, and the summaries of all loads are judged together by
 * bpfsum_judge().
 */
static void step_test_bpf(const struct step *s)
{
	const char *jit = strcmp(s->arg, "interp") ? "1" : "0";
	const char *harden = strcmp(s->arg, "harden") ? "0" : "2";
	char params[MAX_LOADS][64] = { "" };
	struct buf log = { 0 };
	int ret, nloads = 1, skipped, i;
	char why[512];

	if (!have_module("test_bpf.ko")) {
		diag("test_bpf.ko is not in the initramfs");
		result(0, s->name, NULL);
		return;
	}
	ret = write_file("/proc/sys/net/core/bpf_jit_enable", jit);
	if (!ret)
		ret = write_file("/proc/sys/net/core/bpf_jit_harden", harden);
	if (ret) {
		diag("cannot set bpf_jit_enable=%s bpf_jit_harden=%s: %s",
		     jit, harden, strerror(-ret));
		result(0, s->name, NULL);
		return;
	}
	if (*harden == '2') {
		nloads = bpfsum_harden_loads(jit_log.p ? jit_log.p : "", params,
					     MAX_LOADS, &skipped);
		if (!nloads) {
			diag("test_bpf harden: no log of the JIT run to pick tests from");
			result(0, s->name, NULL);
			return;
		}
		diag("test_bpf harden: %d tests skipped as too slow under TCG", skipped);
	}

	for (i = 0; i < nloads; i++) {
		kmsg_drain(&boot_log);
		load_module("test_bpf.ko", params[i]);
		kmsg_drain(&log);
		unload_module("test_bpf");
	}
	/* A full load prints three summaries; a parameterised one prints one. */
	ret = bpfsum_judge(log.p ? log.p : "", *jit == '0' ? BPFSUM_INTERP :
			   *harden == '2' ? BPFSUM_HARDEN : BPFSUM_JIT,
			   nloads == 1 ? BPFSUM_SUITES : nloads, why, sizeof(why));
	diag("test_bpf %s: %s", s->arg, why);
	/* Leave the JIT on and unhardened for the steps that follow. */
	write_file("/proc/sys/net/core/bpf_jit_enable", "1");
	write_file("/proc/sys/net/core/bpf_jit_harden", "0");
	if (!strcmp(s->arg, "jit")) {
		free(jit_log.p);
		jit_log = log;	/* for bpfsum_harden_loads() */
	} else {
		free(log.p);
	}
	result(ret == 0, s->name, NULL);
}

/*
 * Run a TAP-speaking program (@arg: path and options, space separated) and
 * nest its output as a subtest, indented, named after the step. The step
 * passes when the program exits 0 (kselftest's KSFT_PASS).
 */
static void step_tap_child(const struct step *s)
{
	char cmd[256], *argv[16], *save, line[1024];
	int pfd[2], status = -1, argc = 0;
	FILE *out;
	pid_t pid;

	snprintf(cmd, sizeof(cmd), "%s", s->arg);
	for (argv[argc] = strtok_r(cmd, " ", &save); argv[argc] && argc < 15;
	     argv[++argc] = strtok_r(NULL, " ", &save))
		;
	if (pipe(pfd) || (pid = fork()) < 0) {
		diag("cannot start %s: %s", argv[0], strerror(errno));
		result(0, s->name, NULL);
		return;
	}
	if (!pid) {
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		close(pfd[0]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(pfd[1]);
	out = fdopen(pfd[0], "r");
	while (fgets(line, sizeof(line), out)) {
		fprintf(ktap, "    %s", line);
		if (!strncmp(line, "TAP version", 11) || !strncmp(line, "KTAP version", 12))
			fprintf(ktap, "    # Subtest: %s\n", s->name);
		fputs(line, stdout);
	}
	fclose(out);
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		diag("%s exited with status %#x", argv[0], status);
	result(WIFEXITED(status) && !WEXITSTATUS(status), s->name, NULL);
}

/*
 * Load a KUnit test module (@arg) and nest the suite's KTAP, which the
 * kernel log carries, under this step. The step passes when the suite's
 * own result line says ok; a suite that never prints one fails. Modules
 * hold one suite each.
 */
static void step_kunit(const struct step *s)
{
	struct buf log = { 0 };
	const char *p, *top = NULL;
	char suite[64] = "";
	int ret, ok = 0;

	kmsg_drain(&boot_log);
	ret = load_module(s->arg, "");
	kmsg_drain(&log);
	if (ret)
		diag("loading %s: %s", s->arg, strerror(-ret));
	for (p = log.p ? log.p : ""; *p; p = strchr(p, '\n') + 1) {
		size_t n = strcspn(p, "\n");

		if (!top && (strstr(p, "KTAP version") == p + 4 ||
			     strstr(p, "# Subtest:") == p + 4))
			top = p;
		if (top && (!strncmp(p, "ok ", 3) || !strncmp(p, "not ok ", 7))) {
			ok = p[0] == 'o';
			break;
		}
		if (top && !*suite)
			sscanf(p, " # Subtest: %63s", suite);
		if (top)
			fprintf(ktap, "%.*s\n", (int)n, p);
		if (!p[n])
			break;
	}
	if (!top || !ok)
		diag("%s: %s", s->arg, !top ? "no KTAP in the kernel log" : "suite failed");
	unload_module(s->name);
	free(log.p);
	/* KTAP wants the result line to carry the suite's name. */
	result(top && ok, *suite ? suite : s->name, NULL);
}

static const struct step steps[] = {
	{ .name = "boot_wx", .run = step_boot_wx },
	{ .name = "test_bpf_jit", .run = step_test_bpf, .arg = "jit" },
	{ .name = "test_bpf_harden", .run = step_test_bpf, .arg = "harden" },
	{ .name = "test_bpf_interp", .run = step_test_bpf, .arg = "interp" },
	{ .name = "bpf_fleet", .run = step_tap_child, .arg = "/bin/bpf_fleet -n 2000" },
};

/* mode=demo on the command line: the reviewer's demo, no verdicts to judge. */
static const struct step demo_steps[] = {
	{ .name = "bpf_fleet", .run = step_tap_child, .arg = "/bin/bpf_fleet -n 300 -r" },
};

/* The fixed steps, then one per KUnit module in the initramfs. */
static struct step *make_plan(size_t *n)
{
	struct step *plan = malloc(sizeof(steps) + 32 * sizeof(*plan));
	DIR *d = opendir(MODDIR);
	struct dirent *e;

	memcpy(plan, steps, sizeof(steps));
	*n = sizeof(steps) / sizeof(steps[0]);
	while (d && (e = readdir(d)) && *n < sizeof(steps) / sizeof(steps[0]) + 32) {
		size_t len = strlen(e->d_name);

		if (len < 10 || strcmp(e->d_name + len - 9, "_kunit.ko"))
			continue;
		plan[*n] = (struct step){
			.name = strndup(e->d_name, len - 3),
			.run = step_kunit,
			.arg = strdup(e->d_name),
		};
		(*n)++;
	}
	if (d)
		closedir(d);
	return plan;
}

int main(void)
{
	const struct step *plan;
	size_t nsteps;
	const char *mode = getenv("mode");
	const char *verdict = getenv("verdict");
	struct termios tio;
	struct utsname u;
	size_t i;
	int fd;

	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);

	fd = open(verdict ? verdict : "/dev/null", O_WRONLY | O_NOCTTY);
	if (fd < 0 || !(ktap = fdopen(fd, "w"))) {
		printf("execmem-guest: cannot open verdict channel %s: %s\n",
		       verdict ? verdict : "(verdict= not given)", strerror(errno));
		goto out;
	}
	if (!tcgetattr(fd, &tio)) {
		cfmakeraw(&tio);
		tcsetattr(fd, TCSANOW, &tio);
	}
	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	kmsg_drain(&boot_log);

	uname(&u);
	if (mode && !strcmp(mode, "demo")) {
		plan = demo_steps;
		nsteps = sizeof(demo_steps) / sizeof(demo_steps[0]);
	} else {
		plan = make_plan(&nsteps);
	}
	/* The plan must follow the version line, or kunit.py ignores it. */
	fprintf(ktap, "KTAP version 1\n1..%zu\n# guest: %s %s\n",
		nsteps, u.machine, u.release);
	for (i = 0; i < nsteps; i++)
		plan[i].run(&plan[i]);
	fprintf(ktap, DONE_MARKER " (%d failed)\n", failures);
	fflush(ktap);
	fsync(fd);
	/* Let the UART drain before the machine goes away. */
	tcdrain(fd);
out:
	sync();
	reboot(RB_AUTOBOOT);	/* -no-reboot turns this into a QEMU exit */
	return 0;
}
