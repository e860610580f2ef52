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
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <linux/filter.h>
#include <linux/netlink.h>

#include "bpfsum.h"
#include "execstat.h"
#include "ftracelog.h"
#include "kmodload.h"
#include "ksym.h"
#include "meminfo.h"
#include "ptdump.h"
#include "textpages.h"
#include "owntext.h"
#include "vmsum.h"

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

/*
 * Forward the lines @log holds from a module whose messages start with
 * @prefix. Its "metric: NAME VALUE" lines are forwarded as metrics, with
 * @suffix added to NAME, or as plain notes where @suffix is NULL.
 */
static void forward(const struct buf *log, const char *prefix, const char *suffix)
{
	const char *p, *nl, *sp;

	for (p = log->p; p && (p = strstr(p, prefix)); p = nl) {
		int len;

		p += strlen(prefix);
		nl = strchr(p, '\n');
		len = nl ? nl - p : (int)strlen(p);
		sp = memchr(p + 8, ' ', len > 8 ? len - 8 : 0);
		if (strncmp(p, "metric: ", 8) || !sp)
			diag("%.*s", len, p);
		else if (!suffix)
			diag("(%.*s)", len - 8, p + 8);
		else
			diag("metric: %.*s%s%.*s", (int)(sp - p - 8), p + 8, suffix,
			     (int)(p + len - sp), sp);
	}
}

/* ---- steps ----------------------------------------------------------- */

/* Which runs a step belongs to; mode= on the kernel command line picks one. */
enum {
	FULL = 1,	/* the default: everything for the normal kernel */
	DEBUG = 2,	/* mode=debug: the debug kernel (KASAN, lockdep, ...) */
	KUNIT = 4,	/* mode=kunit: the KUnit modules only, for quick checks */
	DEMO = 8,	/* mode=demo: the reviewer's demo, no verdicts to judge */
	BENCH = 16,	/* mode=bench: the workload of make bench, with metrics */
	LAYOUT = 32,	/* mode=layout: where BPF text goes, on one more boot */
	DISTRO = 64,	/* mode=distro: Debian's config, on two NUMA nodes */
	NOMOD = 128,	/* mode=nomod: no loadable modules, test_bpf and KUnit built in */
	CYCLES = 256,	/* mode=cycles: timed fleet cycles only, for make bench */
	ALLOC = 512,	/* mode=alloc: the allocation microbenchmark, for make bench */
	FTRACE = 1024,	/* mode=ftrace: ftrace's startup selftests, on one vCPU */
	MODULES = 2048,	/* mode=modules: the steps that load modules (execmem.modules=off) */
};

struct step {
	const char *name;
	void (*run)(const struct step *s);
	const char *arg;	/* step-specific */
	int modes;
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
#define HARDEN_REFUSALS "/etc/harden-refusals"

/*
 * The log of the last whole run of test_bpf (the interpreter's in make
 * check, whose JIT run is the quick one), which the hardened run picks
 * its tests from, and its counts.
 */
static struct buf whole_log;
static struct bpfsum whole_sum;

/* Milliseconds from @t0 to now, on CLOCK_MONOTONIC. */
static long ms_since(const struct timespec *t0)
{
	struct timespec t1;

	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (t1.tv_sec - t0->tv_sec) * 1000 + (t1.tv_nsec - t0->tv_nsec) / 1000000;
}

/* Read a whole (small) file of the initramfs; NULL if it is not there. */
static char *slurp_file(const char *path)
{
	struct buf b = { 0 };
	char chunk[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return NULL;
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		buf_add(&b, chunk, n);
	close(fd);
	return b.p ? b.p : strdup("");
}

/*
 * Runs of test_bpf.ko. @arg is "jit", "quick", "harden" or "interp"; each
 * sets the sysctls first, and the summaries of all loads are judged
 * together by bpfsum_judge(). Whole runs must report at least BPFSUM_FLOOR
 * tests. The quick run is make check's JIT run: one load finds where the
 * slow tests start, and the run must then report every test before them
 * (bpfsum_quick_loads()). The hardened run leaves out the slow tests
 * bpfsum_harden_loads() names, may refuse only the tests the host listed
 * in HARDEN_REFUSALS, and must account for every test the whole run
 * before it reported: what it ran plus what it left out equals that
 * run's total.
 */
static void step_test_bpf(const struct step *s)
{
	const char *jit = strcmp(s->arg, "interp") ? "1" : "0";
	const char *harden = strcmp(s->arg, "harden") ? "0" : "2";
	char params[MAX_LOADS][64] = { "" };
	struct buf log = { 0 };
	int ret, nloads = 1, skipped = 0, floor = BPFSUM_FLOOR, i;
	char *allowed = NULL;
	struct timespec t0;
	struct bpfsum sum;
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
		allowed = slurp_file(HARDEN_REFUSALS);
		nloads = bpfsum_harden_loads(whole_log.p ? whole_log.p : "", params,
					     MAX_LOADS, &skipped);
		if (!nloads || !allowed) {
			diag("test_bpf harden: %s", !allowed ? "no " HARDEN_REFUSALS :
			     "no log of a whole run to pick tests from");
			free(allowed);
			result(0, s->name, NULL);
			return;
		}
		diag("test_bpf harden: %d tests skipped as too slow under TCG", skipped);
		floor = 0;	/* held to the whole run's total below */
	} else if (!strcmp(s->arg, "quick")) {
		struct buf probe = { 0 };

		kmsg_drain(&boot_log);
		load_module("test_bpf.ko", "test_name=\"" BPFSUM_QUICK_END "\"");
		kmsg_drain(&probe);
		unload_module("test_bpf");
		nloads = bpfsum_quick_loads(probe.p ? probe.p : "", params, MAX_LOADS, &floor);
		free(probe.p);
		if (!nloads) {
			diag("test_bpf quick: no test named \"%s\" ran", BPFSUM_QUICK_END);
			result(0, s->name, NULL);
			return;
		}
		diag("test_bpf quick: the main suite up to #%d, then the other suites", floor - 1);
	}

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < nloads; i++) {
		kmsg_drain(&boot_log);
		load_module("test_bpf.ko", params[i]);
		kmsg_drain(&log);
		unload_module("test_bpf");
	}
	diag("metric: test_bpf_%s_ms %ld", s->arg, ms_since(&t0));
	/* A full load prints three summaries; a parameterised one prints one. */
	ret = bpfsum_judge(log.p ? log.p : "", *jit == '0' ? BPFSUM_INTERP :
			   *harden == '2' ? BPFSUM_HARDEN : BPFSUM_JIT,
			   nloads == 1 ? BPFSUM_SUITES : nloads, floor, allowed, &sum, why,
			   sizeof(why));
	diag("test_bpf %s: %s", s->arg, why);
	if (!ret && *harden == '2' &&
	    sum.passed + sum.failed + skipped != whole_sum.passed + whole_sum.failed) {
		diag("test_bpf harden: %d ran + %d left out, but the whole run had %d",
		     sum.passed + sum.failed, skipped, whole_sum.passed + whole_sum.failed);
		ret = -1;
	}
	/* Leave the JIT on and unhardened for the steps that follow. */
	write_file("/proc/sys/net/core/bpf_jit_enable", "1");
	write_file("/proc/sys/net/core/bpf_jit_harden", "0");
	if (nloads == 1 && *harden == '0' && !ret) {
		free(whole_log.p);
		whole_log = log;	/* for bpfsum_harden_loads() */
		whole_sum = sum;
	} else {
		free(log.p);
	}
	free(allowed);
	result(ret == 0, s->name, NULL);
}

/*
 * A kernel without modules (mode=nomod) runs test_bpf built in, once, at
 * boot, with the JIT on by default: its summaries are in the boot log,
 * which the host makes large enough (log_buf_len=). They are judged as
 * the JIT run of the module is: all three suites, at least BPFSUM_FLOOR
 * tests, none failed, every one JIT'ed. The host may give the quick run's
 * range on the command line (test_bpf.test_range=A,B, the range
 * bpfsum_quick_loads() would pick): then the main suite alone runs, and
 * it must report every test of the range. /proc/modules exists only with
 * CONFIG_MODULES: a kernel that has it is not the one this step is for.
 */
static void step_test_bpf_builtin(const struct step *s)
{
	int ret, modules = access("/proc/modules", F_OK) == 0;
	int summaries = BPFSUM_SUITES, floor = BPFSUM_FLOOR, a, b;
	char *cmdline = slurp_file("/proc/cmdline"), *r;
	struct bpfsum sum;
	char why[512];

	r = cmdline ? strstr(cmdline, "test_bpf.test_range=") : NULL;
	if (r && sscanf(r, "test_bpf.test_range=%d,%d", &a, &b) == 2 && b >= a) {
		summaries = 1;
		floor = b - a + 1;
		diag("test_bpf built in: the main suite's tests #%d to #%d", a, b);
	}
	free(cmdline);
	ret = bpfsum_judge(boot_log.p ? boot_log.p : "", BPFSUM_JIT, summaries,
			   floor, NULL, &sum, why, sizeof(why));
	diag("test_bpf built in: %s", why);
	if (modules)
		diag("/proc/modules exists: this kernel supports modules");
	result(!ret && !modules, s->name, NULL);
}

/*
 * Run a TAP-speaking program (@arg: path and options, space separated) and
 * nest its output as a subtest, indented, named after the step. A word
 * "@NAME" stands for the value of NAME= on the kernel command line (the
 * host's expectations, such as fleet=execmem), or "unset". The step
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
		if (argv[argc][0] == '@')
			argv[argc] = getenv(argv[argc] + 1) ? : "unset";
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

#define WARN_COUNT "/sys/kernel/warn_count"
#define PANIC_ON_WARN "/proc/sys/kernel/panic_on_warn"

/* Set up by step_fault_setup(). */
static int fault_injection;

/*
 * Nest the first KUnit suite that @log holds (its KTAP is indented by
 * four: "KTAP version" or "# Subtest:", down to the suite's own result
 * line) under the current step: its name in @suite, whether it passed in
 * @ok and skipped in @skipped. Returns where the suite starts, or NULL.
 */
static const char *suite_ktap(const char *log, char suite[64], int *ok, int *skipped)
{
	const char *p, *top = NULL;

	for (p = log; *p; p = strchr(p, '\n') + 1) {
		size_t n = strcspn(p, "\n");

		if (!top && (strstr(p, "KTAP version") == p + 4 ||
			     strstr(p, "# Subtest:") == p + 4))
			top = p;
		if (top && (!strncmp(p, "ok ", 3) || !strncmp(p, "not ok ", 7))) {
			*ok = p[0] == 'o';
			*skipped = !!memmem(p, n, "# SKIP", 6);
			break;
		}
		if (top && !*suite)
			sscanf(p, " # Subtest: %63s", suite);
		if (top)
			fprintf(ktap, "%.*s\n", (int)n, p);
		if (!p[n])
			break;
	}
	return top;
}

/*
 * Load a KUnit test module (@arg) and nest the suite's KTAP, which the
 * kernel log carries, under this step. Modules named *_warn_kunit.ko
 * make the kernel warn on purpose: unless the suite itself skipped (no
 * backend), the kernel's warning count must grow while they load. While
 * such a module loads, and while any suite runs under fault injection
 * (see step_fault_setup()), panic_on_warn is lifted, so that the debug
 * kernel runs them under KASAN and lockdep; the console's expected-splats
 * windows still allow only the warnings they name (ci/splat-windows). The
 * step passes when the suite's own result line says ok; a suite that
 * never prints one fails. Modules hold one suite each.
 */
static void step_kunit(const struct step *s)
{
	struct buf log = { 0 };
	const char *top;
	char suite[64] = "";
	int ret, ok = 0, warns, warned, skipped = 0;
	int pow = module_param_read("kernel", "panic_on_warn") > 0;

	/* Lifted for a suite that warns on purpose, and under fault injection. */
	pow = pow && (fault_injection || strstr(s->arg, "_warn_kunit.ko"));
	if (pow && write_file(PANIC_ON_WARN, "0"))
		diag("cannot lift panic_on_warn for %s", s->arg);
	warns = read_int(WARN_COUNT);
	kmsg_drain(&boot_log);
	ret = load_module(s->arg, "");
	kmsg_drain(&log);
	if (pow && write_file(PANIC_ON_WARN, "1"))
		diag("cannot set panic_on_warn again after %s", s->arg);
	if (ret)
		diag("loading %s: %s", s->arg, strerror(-ret));
	warned = read_int(WARN_COUNT) > warns;
	top = suite_ktap(log.p ? log.p : "", suite, &ok, &skipped);
	if (!top || !ok)
		diag("%s: %s", s->arg, !top ? "no KTAP in the kernel log" : "suite failed");
	/* A suite that warns on purpose and ran must have warned, in this load. */
	if (strstr(s->arg, "_warn_kunit.ko") && !skipped && !warned) {
		diag("%s: %s stayed at %d", s->arg, WARN_COUNT, warns);
		ok = 0;
	}
	unload_module(s->name);
	free(log.p);
	/* KTAP wants the result line to carry the suite's name. */
	result(top && ok, *suite ? suite : s->name, NULL);
}

/*
 * A KUnit suite built into the kernel (@arg: its name), which ran at
 * boot: its KTAP is in the boot log, nested here as a module's would be.
 * (The suite that warns on purpose is only ever a module.)
 */
static void step_kunit_builtin(const struct step *s)
{
	char head[96], suite[64] = "";
	const char *p;
	int ok = 0, skipped = 0;

	/* From its "KTAP version" line, which KUnit prints just before. */
	snprintf(head, sizeof(head), "    KTAP version 1\n    # Subtest: %s\n", s->arg);
	p = boot_log.p ? strstr(boot_log.p, head) : NULL;
	if (!p || !suite_ktap(p, suite, &ok, &skipped))
		diag("%s: not in the boot log", s->arg);
	result(ok, s->arg, NULL);
}

/*
 * Tell whoever reads the console, the host's splat scanner in particular.
 * stdout is the console; wait until the line is out, so that it lands
 * before whatever the kernel prints next.
 */
static void console_say(const char *msg)
{
	printf("execmem-guest: %s\n", msg);
	fflush(stdout);
	tcdrain(1);
}

/*
 * lib/test_vmalloc.ko: every test in run_test_mask, two workers, with
 * loop counts (@arg) small enough for TCG. Its init always fails with
 * -EAGAIN; the verdict is in the per-worker summaries. The test that
 * must fail runs in a load of its own, inside an expected-splats window.
 */
#define VMALLOC_WORKERS 2

static int vmalloc_load(const char *loops, int mask, int xfail, char *why, size_t len)
{
	struct buf log = { 0 };
	char params[128];
	int ret;

	snprintf(params, sizeof(params), "run_test_mask=%d test_loop_count=%s "
		 "test_repeat_count=1 nr_threads=%d", mask, loops, VMALLOC_WORKERS);
	kmsg_drain(&boot_log);
	ret = load_module("test_vmalloc.ko", params);
	kmsg_drain(&log);
	if (ret != -EAGAIN)
		diag("test_vmalloc: insmod returned %d, expected -EAGAIN", ret);
	ret = vmsum_judge(log.p ? log.p : "", __builtin_popcount(mask), VMALLOC_WORKERS,
			  xfail, why, len);
	free(log.p);
	return ret;
}

static void step_vmalloc(const struct step *s)
{
	const int xbit = 1 << VMSUM_XFAIL_BIT, all = (1 << VMSUM_TESTS) - 1;
	char why[256];
	int ret;

	ret = vmalloc_load(s->arg, all & ~xbit, 0, why, sizeof(why));
	diag("test_vmalloc: %s", why);
	console_say("expected splats begin: test_vmalloc align_shift_alloc_test");
	ret |= vmalloc_load(s->arg, xbit, 1, why, sizeof(why));
	console_say("expected splats end");
	diag("test_vmalloc align_shift_alloc_test: %s", why);
	result(ret == 0, s->name, NULL);
}

/*
 * Task-filtered fault injection: only tasks that set make_it_fail (the
 * execmem KUnit fault case does, for itself) see allocations fail, half
 * of the time. Nothing else is affected. A failed GFP_NOWAIT split node
 * in vmalloc's adjust_va_to_fit_type() is a WARN_ON_ONCE() there,
 * vmalloc's own and not execmem's, so step_kunit() lifts panic_on_warn
 * while a suite runs under injection; ci/splat-windows lets that one
 * warning through the case's expected-splats window and nothing else.
 */

static void step_fault_setup(const struct step *s)
{
	static const char *const knobs[][2] = {
		{ "task-filter", "Y" }, { "probability", "50" }, { "interval", "1" },
		{ "times", "-1" }, { "verbose", "0" }, { "ignore-gfp-wait", "N" },
	};
	const char *attrs[] = { "fail_page_alloc", "failslab" };
	size_t a, k;
	char path[128];
	int ret = 0;

	for (a = 0; a < 2; a++) {
		for (k = 0; k < sizeof(knobs) / sizeof(knobs[0]) && !ret; k++) {
			snprintf(path, sizeof(path), "/sys/kernel/debug/%s/%s", attrs[a],
				 knobs[k][0]);
			ret = write_file(path, knobs[k][1]);
		}
	}
	/*
	 * fail_page_alloc leaves order-0 and __GFP_HIGHMEM requests alone by
	 * default, and vmalloc asks for its pages with __GFP_HIGHMEM: without
	 * these two, only KASAN_VMALLOC's shadow pages could fail.
	 */
	if (!ret) {
		snprintf(path, sizeof(path), "/sys/kernel/debug/fail_page_alloc/min-order");
		ret = write_file(path, "0");
	}
	if (!ret) {
		snprintf(path, sizeof(path), "/sys/kernel/debug/fail_page_alloc/ignore-gfp-highmem");
		ret = write_file(path, "N");
	}
	if (ret)
		diag("fault injection: cannot write %s: %s", path, strerror(-ret));
	fault_injection = !ret;
	result(ret == 0, s->name, NULL);
}

/*
 * The debug kernel's last word: a kmemleak scan after everything ran.
 * Objects younger than 5 s are never reported, so wait that out, and scan
 * twice as Documentation/dev-tools/kmemleak.rst suggests.
 */
static void step_kmemleak(const struct step *s)
{
	char report[4096];
	int fd, n = -1, ret;

	sleep(6);
	ret = write_file("/sys/kernel/debug/kmemleak", "scan");
	if (!ret)
		ret = write_file("/sys/kernel/debug/kmemleak", "scan");
	fd = open("/sys/kernel/debug/kmemleak", O_RDONLY);
	if (!ret && fd >= 0)
		n = read(fd, report, sizeof(report) - 1);
	if (fd >= 0)
		close(fd);
	if (ret || n < 0) {
		diag("kmemleak: cannot scan: %s", strerror(ret ? -ret : errno));
	} else if (n > 0) {
		report[n] = '\0';
		diag("kmemleak: suspected leaks; the first of them:");
		for (char *l = strtok(report, "\n"); l; l = strtok(NULL, "\n"))
			diag("  %s", l);
	}
	result(!ret && n == 0, s->name, NULL);
}

/*
 * The debug kernel: lockdep must still be on at the end. Its first report
 * turns it off for the rest of the boot (debug_locks = 0), so a report
 * that slipped past the console scan, or one that never reached it, shows
 * here.
 */
static void step_lockdep(const struct step *s)
{
	char *stats = slurp_file("/proc/lockdep_stats"), *p;
	int on = -1;

	p = stats ? strstr(stats, " debug_locks:") : NULL;
	if (p)
		on = atoi(p + strlen(" debug_locks:"));
	if (on != 1)
		diag("lockdep: %s", !stats ? "no /proc/lockdep_stats" :
		     !p ? "no debug_locks line" : "debug_locks is 0: lockdep turned itself off");
	free(stats);
	result(on == 1, s->name, NULL);
}

/*
 * The allocation microbenchmark (tests/bench/kmod). On a kernel without
 * execmem it drives BPF's own bpf_prog_pack, whose functions are not
 * exported: pass their addresses. Its metric lines are forwarded. With
 * the argument "text_mutex" it times only how long new units hold that
 * mutex, whose address it gets the same way.
 */
static void step_bench_alloc(const struct step *s)
{
	static const char *const syms[][2] = {
		{ "pack_alloc", "bpf_prog_pack_alloc" },
		{ "pack_free", "bpf_prog_pack_free" },
		{ "text_copy", "bpf_arch_text_copy" },
	};
	char params[256] = "";
	struct buf log = { 0 };
	size_t i, n;
	int ret, done;

	n = snprintf(params, sizeof(params), "nr_pages=%#llx ", ksym_addr("vmalloc_nr_pages"));
	if (s->arg && !ksym_addr(s->arg)) {
		diag("no %s in /proc/kallsyms", s->arg);
		result(0, s->name, NULL);
		return;
	}
	if (s->arg)
		n += snprintf(params + n, sizeof(params) - n, "%s=%#llx ", s->arg,
			      ksym_addr(s->arg));
	for (i = 0; !ksym_addr("execmem_alloc") && i < 3; i++)
		n += snprintf(params + n, sizeof(params) - n, "%s=%#llx ", syms[i][0],
			      ksym_addr(syms[i][1]));
	kmsg_drain(&boot_log);
	ret = load_module("execmem_bench.ko", params);
	kmsg_drain(&log);
	forward(&log, "execmem_bench: ", "");
	done = log.p && strstr(log.p, "execmem_bench: done");
	if (ret != -EAGAIN)
		diag("execmem_bench.ko: insmod returned %d, expected -EAGAIN", ret);
	free(log.p);
	result(done && ret == -EAGAIN, s->name, NULL);
}

/* A classic filter on a new (netlink) socket: the socket, or -errno. */
static int cbpf_socket(void)
{
	struct sock_filter code[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_LEN, 0),
		BPF_STMT(BPF_RET | BPF_A, 0),
	};
	struct sock_fprog fprog = { .len = 2, .filter = code };
	int fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE), err;

	if (fd < 0)
		return -errno;
	if (!setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &fprog, sizeof(fprog)))
		return fd;
	err = -errno;
	close(fd);
	return err;
}

#define PRED_ROUNDS	5

/*
 * Predictor flushes per classic BPF load after a churn of tracing text
 * (make bench, both kernels). A TCG CPU needs no IBPB, so neither kernel
 * decides to flush; pred_flush_count.ko turns the decisions on and
 * counts them. First PRED_ROUNDS filters are loaded and closed one after
 * the other: a load after a free must flush on both kernels, and these
 * show that the counter counts. One more filter, kept, pays for what
 * they left. Then PRED_ROUNDS rounds of kprobe_fleet's probes armed and
 * taken away (kprobes' instruction slots and the optimizer's detour
 * buffers come and go), each followed by one filter loaded and kept.
 * bpf_prog_pack keeps its packs to BPF, so kprobes never dirty them;
 * execmem keeps classic BPF in chunks of its own (EXECMEM_BPF_UNPRIV).
 * Not yet a test of that: with those chunks shared (mutant
 * unpriv-not-apart) the count was 0 as well, since the rounds give
 * little text back (kprobes keep freed slots as garbage).
 */
static void step_pred_flush(const struct step *s)
{
	int fds[PRED_ROUNDS + 1], i, r = 0, fd, ok = 1, ret, before, control;
	char params[256];

	snprintf(params, sizeof(params), "key=%#llx sck=%#llx sct=%#llx",
		 ksym_addr("bpf_pred_flush_enabled"), ksym_addr("__SCK__bpf_arch_pred_flush"),
		 ksym_addr("__SCT__bpf_arch_pred_flush"));
	ret = load_module("pred_flush_count.ko", params);
	if (!ret)
		ret = load_module("kprobe_fleet.ko", "probes=200");
	if (ret) {
		diag("insmod: %d (%s)", ret, params);
		result(0, s->name, NULL);
		return;
	}
	before = module_param_read("pred_flush_count", "flushes");
	for (i = 0; ok && i < PRED_ROUNDS; i++) {
		fd = cbpf_socket();
		ok = fd >= 0;
		if (ok)
			close(fd);
		/* The filter is freed after an RCU grace period, by a work item. */
		sleep(1);
	}
	control = module_param_read("pred_flush_count", "flushes") - before;
	diag("metric: pred_flushes_cbpf_after_free %d", control);
	if (ok && control < 1) {
		diag("%d filters loaded after frees, and no flush counted", PRED_ROUNDS);
		ok = 0;
	}
	/* One filter kept, which pays for what the control left dirty. */
	fds[0] = ok ? cbpf_socket() : -1;
	ok = fds[0] >= 0;
	before = module_param_read("pred_flush_count", "flushes");
	for (r = 1; ok && r <= PRED_ROUNDS; r++) {
		ret = module_param_write("kprobe_fleet", "armed", "1");
		if (!ret)
			ret = module_param_write("kprobe_fleet", "armed", "0");
		fds[r] = ret ? ret : cbpf_socket();
		ok = fds[r] >= 0;
		if (!ok)
			diag("round %d: %d", r, fds[r]);
	}
	if (ok)
		diag("metric: pred_flushes_cbpf_after_kprobes %d",
		     module_param_read("pred_flush_count", "flushes") - before);
	while (r--)
		if (fds[r] >= 0)
			close(fds[r]);
	unload_module("kprobe_fleet");
	/* Its exit puts the flush and the key back as they were. */
	unload_module("pred_flush_count");
	if (!access("/sys/module/pred_flush_count", F_OK)) {
		diag("pred_flush_count is still loaded after rmmod");
		ok = 0;
	}
	result(ok, s->name, NULL);
}

/*
 * Dynamic text that kallsyms lists under a pseudo-module of its own:
 * kprobes' instruction pages under [__builtin__kprobes], one symbol a
 * page; ftrace's trampolines under [__builtin__ftrace], one a trampoline.
 */
static const char *text_owner;

static int text_owned(const char *sym, const char *mod)
{
	(void)sym;
	return !strcmp(mod, text_owner);
}

static void text_misplaced(const char *sym, unsigned long long addr, const char *how)
{
	diag("%s at %#llx: %s", sym, addr, how);
}

static void text_pages(const char *owner, int want_pmd, struct text_pages *tp)
{
	text_owner = owner;
	text_pages_scan(want_pmd, tp, text_owned, text_misplaced);
}

/*
 * The text that the armed test module @mod made itself (its parameter
 * "text"): every page placed as text_pages() wants it, and where
 * @want_pmd, the direct map's alias of each page not split to 4K. This
 * is what tells execmem from the base kernel, which splits the alias of
 * every page it makes read-only. 0 or -1.
 */
static int own_text(const char *mod, int want_pmd, struct own_text *ot)
{
	char ranges[4096], why[512];
	int ret = module_own_text(mod, ranges, sizeof(ranges));

	if (ret) {
		diag("%s: its own text cannot be read: %s", mod, strerror(-ret));
		return -1;
	}
	pt_load();
	ret = own_text_judge(ranges, want_pmd, text_alias, ot, why, sizeof(why));
	diag("%s's own text: %s", mod, why);
	return ret;
}

/* Where BPF's text is on execmem (fleet=execmem), kprobes' is too. */
static int fleet_on_execmem(void)
{
	const char *fleet = getenv("fleet");

	return fleet && !strcmp(fleet, "execmem");
}

/*
 * Where kprobes keeps its instruction slots, after test_kprobes ran: it
 * leaves at least one page behind (kprobes keeps its last page for the
 * next probe). Each must be mapped read-only and executable, and on a
 * PMD mapping where kprobes is on execmem.
 */
static void step_kprobe_slots(const struct step *s)
{
	struct text_pages tp;

	if (!have_module("test_kprobes.ko")) {
		result(1, s->name, "no test_kprobes.ko on this kernel");
		return;
	}
	text_pages("[__builtin__kprobes]", fleet_on_execmem(), &tp);
	if (!tp.pages)
		diag("no kprobe instruction page in /proc/kallsyms");
	else
		diag("%d kprobe instruction pages, %d misplaced", tp.pages, tp.misplaced);
	result(tp.pages && !tp.misplaced, s->name, NULL);
}

/*
 * ftrace's startup selftests (CONFIG_FTRACE_STARTUP_TEST), which ran
 * before PID 1 did, on a boot that did not turn them off (ci/boot.sh
 * does, on more than one vCPU). The function tracer's tests register
 * dynamic ftrace_ops, each alone on its call sites and so with a
 * trampoline of its own, and trace every function of the kernel. A test
 * that fails says FAILED and warns: the splat scan catches the warning,
 * ftracelog_judge() the word, and makes sure that the tests ran at all.
 */
static void step_ftrace_selftest(const struct step *s)
{
	char why[256];
	int ok = !ftracelog_judge(boot_log.p ? boot_log.p : "", why, sizeof(why));

	diag("%s", why);
	result(ok, s->name, NULL);
}

#define FLEET_ROUNDS	3

/*
 * With the kprobe fleet of module @mod armed: debugfs must list every
 * probe of it as optimized (queued for the optimizer, which works from a
 * delayed work item, after a grace period), kallsyms must list the
 * detour buffers' pages (their placement is text_pages()' to check, with
 * the other pages of kprobes), and then the module's "fire" must run the
 * sled once the text holds a jump at every probe (-EAGAIN until then; up
 * to 30 s): every probe must fire once as a jump. 0, or -1 with a
 * message.
 */
static int kprobes_optimized(const char *mod)
{
	int want = module_param_read(mod, "probes"), n, pages, i, ret = -EAGAIN;

	n = count_lines("/sys/kernel/debug/kprobes/list", "kprobe_fleet_", "[OPTIMIZED]");
	pages = count_lines("/proc/kallsyms", " kprobe_optinsn_page", "[__builtin__kprobes]");
	for (i = 0; n == want && ret == -EAGAIN && i < 300; i++) {
		if (i)
			usleep(100 * 1000);
		ret = module_param_write(mod, "fire", "1");
	}
	diag("optimizer: %d of %d probes optimized, %d pages of detour buffers, %s",
	     n, want, pages, n != want ? "the sled not run again" :
	     ret == -EAGAIN ? "not every probe a jump after 30 s" :
	     ret ? "not every probe fired once as a jump" : "each fired once as a jump");
	return want > 0 && n == want && pages > 0 && !ret ? 0 : -1;
}

/*
 * Does every page kprobes holds appear in kallsyms? Each page on a slot
 * cache's list is one [__builtin__kprobes] symbol and, with a backend,
 * one EXECMEM_KPROBES allocation; a page taken off its list but never
 * given back shows as more allocations than symbols. The probes just
 * unregistered were optimized: the optimizer frees their detour buffers
 * later, and the collection of those slots gives their pages up. Turning
 * optimization off and on again waits for the optimizer to finish
 * (wait_for_kprobe_optimizer()); the pages then go back from a work item
 * after a grace period, so the two may take a moment more to agree: up
 * to 10 s. Returns 0 once they do, -1 if they never do or either cannot
 * be read.
 */
static int kprobes_pages_balance(void)
{
	static const char opt[] = "/proc/sys/debug/kprobes-optimization";
	long allocs = -1, bytes;
	int tries, symbols = -1;
	char *users;

	if (access(EXECSTAT_DIR "users", R_OK)) {
		diag("execmem/users: cannot read");
		return -1;
	}
	if (write_file(opt, "0") || write_file(opt, "1")) {
		diag("cannot turn %s off and on", opt);
		return -1;
	}
	for (tries = 0; tries < 100; tries++) {
		if (tries)
			usleep(100 * 1000);
		users = execstat_read("users");
		if (!users || execstat_user(users, "kprobes", &allocs, &bytes))
			allocs = -1;
		free(users);
		symbols = count_lines("/proc/kallsyms", "[__builtin__kprobes]",
				      "[__builtin__kprobes]");
		if (allocs >= 0 && allocs == symbols)
			return 0;
	}
	if (allocs < 0)
		diag("execmem/users: no kprobes line");
	else
		diag("kprobes holds %ld pages of execmem (execmem/users), and kallsyms lists %d",
		     allocs, symbols);
	return -1;
}

/*
 * A fleet of dynamic text of one kind, made and taken away FLEET_ROUNDS
 * times by the module the step is named after (tests/kmod/NAME.c),
 * through its parameter "armed", while the module stays loaded: loading
 * a module splits the direct map for its own text, which is not the
 * fleet's doing. @s->arg names the kind: kallsyms lists its text under
 * [__builtin__KIND], and its figures are KIND_... metrics. What follows
 * KIND after a space is passed to the module.
 *
 * Each round the module checks its own work (every probe fired, say),
 * and every symbol of the kind must be RO+X, on a PMD where the kernel
 * puts dynamic text on execmem. There, DirectMap4k must not grow over
 * the whole loop either. The figures of the first round, and the
 * module's of the last (suffixed "_last"), are metrics, for make bench,
 * which runs this on both kernels.
 */
static void step_text_fleet(const struct step *s)
{
	const char *params = strchr(s->arg, ' ');
	int kind = params ? (int)(params - s->arg) : (int)strlen(s->arg);
	int want_pmd = fleet_on_execmem(), r, ret, ok, areas;
	char file[64], dir[128], owner[64], prefix[64];
	long dm4k[2];

	snprintf(file, sizeof(file), "%s.ko", s->name);
	snprintf(owner, sizeof(owner), "[__builtin__%.*s]", kind, s->arg);
	snprintf(prefix, sizeof(prefix), "%s: ", s->name);
	/*
	 * Where the host expects execmem, every x86_64 kernel under test has
	 * the module (tests/kmod/Kbuild): one without it is not one.
	 */
	if (!have_module(file)) {
		diag("no %s on this kernel", file);
		if (want_pmd)
			result(0, s->name, NULL);
		else
			result(1, s->name, "no test module for it on this kernel");
		return;
	}
	/* Before the module and DirectMap4k: loading it changes the count. */
	if (text_alias_ready())
		diag("no textalias.ko: the direct map's aliases cannot be told");
	areas = module_areas();
	ret = load_module(file, params ? params + 1 : "");
	ok = !ret;
	if (ret)
		diag("insmod %s: %d", file, ret);
	if (ok && module_init_freed(areas) < 0) {
		diag("%s: its init sections were not freed in time", file);
		ok = 0;
	}
	dm4k[0] = meminfo("DirectMap4k");
	for (r = 1; ok && r <= FLEET_ROUNDS; r++) {
		struct text_pages tp = { 0 };
		struct own_text ot = { 0 };
		struct buf log = { 0 };
		int unoptimized = 0, own = -1;

		kmsg_drain(&boot_log);
		ret = module_param_write(s->name, "armed", "1");
		if (!ret) {
			/* The detour buffers come with the optimizer: first. */
			if (!strncmp(s->arg, "kprobes", kind))
				unoptimized = kprobes_optimized(s->name);
			text_pages(owner, want_pmd, &tp);
			own = own_text(s->name, want_pmd, &ot);
			ret = module_param_write(s->name, "armed", "0");
		}
		kmsg_drain(&log);
		forward(&log, prefix, r == 1 ? "" : r == FLEET_ROUNDS ? "_last" : NULL);
		free(log.p);
		diag("round %d: %s; %d symbols in %d pages, %d 2M regions, %d pages on 4K mappings, %d misplaced",
		     r, ret ? strerror(-ret) : "made, checked, taken away", tp.symbols, tp.pages,
		     tp.regions, tp.pte, tp.misplaced);
		ok = !ret && tp.symbols && !tp.misplaced && !unoptimized && !own;
		if (r > 1)
			continue;
		diag("metric: %.*s_pages %d", kind, s->arg, tp.pages);
		diag("metric: %.*s_regions_2m %d", kind, s->arg, tp.regions);
		diag("metric: %.*s_pages_pte %d", kind, s->arg, tp.pte);
		/* A figure only where every page was told. */
		if (!own && ot.pages && !ot.alias_unknown)
			diag("metric: %.*s_alias_pte %d", kind, s->arg, ot.alias_pte);
	}
	dm4k[1] = meminfo("DirectMap4k");
	unload_module(s->name);
	snprintf(dir, sizeof(dir), "/sys/module/%s", s->name);
	if (!access(dir, F_OK)) {
		diag("%s is still loaded after rmmod", s->name);
		ok = 0;
	}
	/* The pages the fleet's caches gave up went back to execmem. */
	if (ok && want_pmd && !strncmp(s->arg, "kprobes", kind) && kprobes_pages_balance())
		ok = 0;
	if (dm4k[0] >= 0 && ok) {
		diag("metric: %.*s_directmap4k_growth_kb %ld", kind, s->arg, dm4k[1] - dm4k[0]);
		if (want_pmd && dm4k[1] != dm4k[0]) {
			diag("DirectMap4k went from %ld to %ld kB", dm4k[0], dm4k[1]);
			ok = 0;
		}
	}
	result(ok, s->name, NULL);
}

/*
 * Where the core text of each module loaded so far was, just after it
 * loaded (load_module() records it in MODTEXT_LOG): every page mapped
 * RO+X, and by a PMD where module text is on execmem. Runs after the
 * steps that load modules: test_bpf, the KUnit modules, test_kprobes
 * and the test modules of tests/kmod (test_vmalloc's init always fails,
 * so it never stays loaded to be looked at).
 */
static void step_module_text(const struct step *s)
{
	int loads = 0, bad = 0, pages, misplaced;
	char line[256], name[64];
	FILE *f = fopen(MODTEXT_LOG, "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63s %d %d", name, &pages, &misplaced) != 3)
			continue;
		loads++;
		if (!pages || misplaced) {
			diag("%s: %s", name, !pages ? "not found in /proc/modules" :
			     "core text not RO+X, or not mapped as wanted");
			bad++;
		}
		diag("%s: %d pages of core text, %d misplaced", name, pages, misplaced);
	}
	if (f)
		fclose(f);
	if (!loads) {
		result(1, s->name, "no module loaded on this kernel");
		return;
	}
	diag("%d module loads, %d with text misplaced (wanted: RO+X%s)", loads, bad,
	     module_text_want() > 0 ? ", on PMDs" : module_text_want() < 0 ? ", on 4K pages" : "");
	result(!bad, s->name, NULL);
}

#define CHURN_CYCLES	200

/*
 * After a module was unloaded: wait until no more than @areas module
 * areas are left (its init sections go from a work item) and execmem's
 * chunks read the same twice (the frees of other users' code run from
 * work items too), then read them and DirectMap4k. 0, or -1 after 10 s.
 */
static int churn_settle(int areas, int *chunks, long *dm4k)
{
	int i, n, prev = -2;

	for (i = 0; areas >= 0 && i < 100; i++) {
		n = module_areas();
		if (n >= 0 && n <= areas) {
			*chunks = vm_areas("execmem_create_chunk");
			if (*chunks >= 0 && *chunks == prev) {
				*dm4k = meminfo("DirectMap4k");
				return 0;
			}
			prev = *chunks;
		}
		usleep(100 * 1000);
	}
	return -1;
}

/*
 * modtext.ko (tests/kmod), which checks the writes to its own text from
 * its init, loaded and unloaded CHURN_CYCLES times. Every load must pass
 * and every unload take the module away, and the first load must have
 * its text where module_text wants it. The text must not leak: the last
 * load's text is no higher than the first's (execmem hands out the
 * lowest room that fits, so the text a free gave back is taken again),
 * and there are no more of execmem's chunks after the last cycle than
 * after the first. DirectMap4k is reported, not judged: module data
 * still has pages of its own, whose permissions split the direct map
 * wherever the page allocator hands them out.
 */
static void step_module_churn(const struct step *s)
{
	unsigned long long addr[2] = { 0, 0 };
	int areas = module_areas(), chunks[2] = { -1, -1 }, ret = 0, i, placed;
	int pages, misplaced;
	long dm4k[2] = { -1, -1 };

	if (!have_module("modtext.ko")) {
		result(1, s->name, "no modtext.ko on this kernel");
		return;
	}
	for (i = 0; !ret && i < CHURN_CYCLES; i++) {
		int last = i == CHURN_CYCLES - 1;

		/* The first load has where its text is recorded, the rest not. */
		ret = i ? load_module_only("modtext.ko", "") : load_module("modtext.ko", "");
		if (ret) {
			diag("load %d of modtext.ko: %s", i + 1, strerror(-ret));
			break;
		}
		if (!i || last)
			addr[last] = module_text_addr("modtext");
		unload_module("modtext");
		if (!access("/sys/module/modtext", F_OK)) {
			diag("modtext is still loaded after rmmod %d", i + 1);
			ret = -EBUSY;
		}
		if (!ret && (!i || last) && churn_settle(areas, &chunks[last], &dm4k[last])) {
			diag("cycle %d: module areas or execmem's chunks did not settle in 10 s", i + 1);
			ret = -ETIMEDOUT;
		}
	}
	placed = module_text_lookup("modtext", &pages, &misplaced) && pages > 0 && !misplaced;
	diag("%d cycles; text at %#llx first, %#llx last; %d chunks after the first, %d after the last",
	     i, addr[0], addr[1], chunks[0], chunks[1]);
	if (!placed)
		diag("the first load's text was not where module_text wants it");
	if (!ret)
		diag("metric: module_churn_directmap4k_growth_kb %ld", dm4k[1] - dm4k[0]);
	result(!ret && i == CHURN_CYCLES && placed && addr[0] && addr[1] <= addr[0] &&
	       chunks[1] <= chunks[0], s->name, NULL);
}

/* Unload module @name; 0 once it is gone, -1 (said) if it is still there. */
static int unload_checked(const char *name)
{
	char path[128];

	unload_module(name);
	snprintf(path, sizeof(path), "/sys/module/%s", name);
	if (access(path, F_OK))
		return 0;
	diag("%s is still loaded after rmmod", name);
	return -1;
}

/*
 * Jump labels in module text: lib/test_static_keys.c, whose init flips
 * keys of its own and of test_static_key_base.ko, and checks that each
 * branch in its text then goes the way its key says. Where module text is
 * on execmem, every one of those branches is patched there, at load (the
 * module's own keys) and after (the keys its init flips). Its init fails,
 * and so its load, on a branch that went the wrong way.
 */

static void step_static_keys(const struct step *s)
{
	int ret;

	if (!have_module("test_static_keys.ko")) {
		result(1, s->name, "no test_static_keys.ko on this kernel");
		return;
	}
	ret = load_module("test_static_key_base.ko", "");
	if (ret)
		diag("loading test_static_key_base.ko: %s", strerror(-ret));
	else if ((ret = load_module("test_static_keys.ko", "")))
		diag("loading test_static_keys.ko: %s", strerror(-ret));
	if (!ret)
		ret = unload_checked("test_static_keys") | unload_checked("test_static_key_base");
	else
		unload_module("test_static_key_base");
	result(!ret, s->name, NULL);
}

#define KLP_DIR		"/sys/kernel/livepatch/"
#define KLP_WAIT	600	/* tenths of a second, as the selftests wait */

/*
 * Wait until livepatch @patch is done with its transition (its sysfs
 * "transition" reads 0), or, with @gone, until it is gone altogether (it
 * was disabled). 0, or -1 after KLP_WAIT.
 */
static int klp_settle(const char *patch, int gone)
{
	char path[128];
	int i;

	snprintf(path, sizeof(path), KLP_DIR "%s%s", patch, gone ? "" : "/transition");
	for (i = 0; i < KLP_WAIT; i++) {
		if (gone ? access(path, F_OK) != 0 : read_int(path) == 0)
			return 0;
		usleep(100 * 1000);
	}
	return -1;
}

/*
 * Disable livepatch @patch, and unload its module once it may go; 0 or
 * -1. A patch that never loaded is left alone.
 */
static int klp_remove(const char *patch)
{
	char path[128];
	int i;

	snprintf(path, sizeof(path), "/sys/module/%s", patch);
	if (access(path, F_OK))
		return -1;
	snprintf(path, sizeof(path), KLP_DIR "%s/enabled", patch);
	if (write_file(path, "0") || klp_settle(patch, 1)) {
		diag("%s: could not be disabled in %d s", patch, KLP_WAIT / 10);
		return -1;
	}
	snprintf(path, sizeof(path), "/sys/module/%s", patch);
	for (i = 0; i < KLP_WAIT && !access(path, F_OK); i++) {
		unload_module(patch);
		usleep(100 * 1000);
	}
	if (!access(path, F_OK))
		diag("%s: still loaded %d s after it was disabled", patch, KLP_WAIT / 10);
	return access(path, F_OK) ? 0 : -1;
}

/* Load livepatch module @file and wait for its patch to be applied; 0 or -1. */
static int klp_apply(const char *file, const char *patch)
{
	int ret = load_module(file, "");

	if (ret) {
		diag("loading %s: %s", file, strerror(-ret));
		return -1;
	}
	if (klp_settle(patch, 0)) {
		diag("%s: transition not done in %d s", patch, KLP_WAIT / 10);
		return -1;
	}
	return 0;
}

#define KLP_CMDLINE	"test_klp_livepatch: this has been live patched\n"
#define KLP_BUSY	"busymod_work_func [test_klp_callbacks_busy]"
#define KLP_COMING	"post_patch_callback: test_klp_callbacks_mod -> [MODULE_STATE_COMING]"
#define ENABLED_FUNCS	"/sys/kernel/debug/tracing/enabled_functions"

/* Has ftrace a callback on the function @what ("NAME [MODULE]")? */
static int ftrace_hooked(const char *what)
{
	char *text = slurp_file(ENABLED_FUNCS), *p;
	int hooked = 0;

	for (p = text; p && (p = strstr(p, what)); p++)
		hooked |= p == text || p[-1] == '\n';
	free(text);
	return hooked;
}

/*
 * Livepatch, whose patches are modules, and so have their new functions
 * on execmem where module text is. Two scenarios of the kernel's own
 * selftests (tools/testing/selftests/livepatch), with lib/livepatch's
 * modules:
 *  - test-livepatch.sh's basic one: test_klp_livepatch replaces
 *    cmdline_proc_show() in vmlinux, so /proc/cmdline reads what its new
 *    function prints, and reads as before once the patch is disabled;
 *  - test-callbacks.sh's "multiple target modules": with
 *    test_klp_callbacks_busy loaded, test_klp_callbacks_demo replaces
 *    one of its functions (ftrace hooks the old function, in module
 *    text, for the new one, in module text too), then
 *    test_klp_callbacks_mod loads and the patch's callbacks run for it
 *    as it comes. When the patch is disabled, the hook goes.
 * No .klp.rela relocations: 6.1 has no klp-convert to make them, and
 * none of lib/livepatch's modules carries one.
 */
static void step_livepatch(const struct step *s)
{
	char *before, *during = NULL, *after = NULL;
	struct buf log = { 0 };
	int ok, ret;

	if (!have_module("test_klp_livepatch.ko")) {
		result(1, s->name, "no test_klp_livepatch.ko on this kernel");
		return;
	}
	before = slurp_file("/proc/cmdline");
	ok = !klp_apply("test_klp_livepatch.ko", "test_klp_livepatch");
	during = slurp_file("/proc/cmdline");
	ok = !klp_remove("test_klp_livepatch") && ok;
	after = slurp_file("/proc/cmdline");
	if (!during || strcmp(during, KLP_CMDLINE)) {
		diag("/proc/cmdline under test_klp_livepatch: %s", during ? during : "?");
		ok = 0;
	}
	if (!before || !after || strcmp(before, after)) {
		diag("/proc/cmdline after test_klp_livepatch: %s", after ? after : "?");
		ok = 0;
	}

	ret = load_module("test_klp_callbacks_busy.ko", "");
	if (ret) {
		diag("loading test_klp_callbacks_busy.ko: %s", strerror(-ret));
		ok = 0;
	} else if (!klp_apply("test_klp_callbacks_demo.ko", "test_klp_callbacks_demo")) {
		if (!ftrace_hooked(KLP_BUSY)) {
			diag("no \"%s\" in %s under test_klp_callbacks_demo", KLP_BUSY,
			     ENABLED_FUNCS);
			ok = 0;
		}
		kmsg_drain(&boot_log);
		ret = load_module("test_klp_callbacks_mod.ko", "");
		kmsg_drain(&log);
		if (ret || !log.p || !strstr(log.p, KLP_COMING)) {
			diag("test_klp_callbacks_mod: %s", ret ? strerror(-ret) :
			     "the patch's callbacks did not run as it came");
			ok = 0;
		}
		ok = !unload_checked("test_klp_callbacks_mod") && ok;
		ok = !klp_remove("test_klp_callbacks_demo") && ok;
		if (ftrace_hooked(KLP_BUSY)) {
			diag("\"%s\" still in %s with the patch gone", KLP_BUSY, ENABLED_FUNCS);
			ok = 0;
		}
	} else {
		klp_remove("test_klp_callbacks_demo");
		ok = 0;
	}
	if (!ret)
		ok = !unload_checked("test_klp_callbacks_busy") && ok;
	free(before);
	free(during);
	free(after);
	free(log.p);
	result(ok, s->name, NULL);
}

/*
 * Debian's own modules on its own kernel (x86_64-distro.config asks for
 * them): from crypto/ and arch/x86/crypto/, whose algorithms pass the
 * crypto manager's self-tests as they register, so their code runs from
 * their text; from fs/ and net/, which register a filesystem and a TCP
 * congestion control. Each is loaded (after what it needs), must show up
 * where the kernel lists what it registered, and is unloaded again.
 */
static const struct {
	const char *file, *needs, *list, *entry;
} distro_modules[] = {
	{ "md4.ko", NULL, "/proc/crypto", "md4-generic" },
	{ "wp512.ko", NULL, "/proc/crypto", "wp512-generic" },
	{ "blowfish_generic.ko", "blowfish_common.ko", "/proc/crypto", "blowfish-generic" },
	{ "blowfish-x86_64.ko", "blowfish_common.ko", "/proc/crypto", "ecb-blowfish-asm" },
	{ "isofs.ko", NULL, "/proc/filesystems", "iso9660" },
	{ "tcp_bic.ko", NULL, "/proc/sys/net/ipv4/tcp_available_congestion_control", "bic" },
};

/*
 * Is @entry in the kernel's list @path? In /proc/crypto, a driver whose
 * self-test passed; elsewhere, a whitespace-separated word.
 */
static int distro_listed(const char *path, const char *entry)
{
	char *text = slurp_file(path), *p, *end;
	size_t n = strlen(entry);
	int found = 0;

	for (p = text; p && !found && (p = strstr(p, entry)); p += n) {
		if ((p > text && !isspace((unsigned char)p[-1])) ||
		    (p[n] && !isspace((unsigned char)p[n])))
			continue;
		if (strcmp(path, "/proc/crypto")) {
			found = 1;
			continue;
		}
		/* This driver's block runs to the next blank line. */
		end = strstr(p, "\n\n");
		if (end)
			*end = '\0';
		found = strstr(p, "selftest     : passed") != NULL;
		if (end)
			*end = '\n';
	}
	free(text);
	return found;
}

static void step_distro_modules(const struct step *s)
{
	size_t i;
	int ok = 1, ret;

	for (i = 0; i < sizeof(distro_modules) / sizeof(distro_modules[0]); i++) {
		const char *file = distro_modules[i].needs;
		char name[64];

		ret = file ? load_module(file, "") : 0;
		if (!ret || ret == -EEXIST) {
			file = distro_modules[i].file;
			ret = load_module(file, "");
		}
		if (ret)
			diag("loading %s: %s", file, strerror(-ret));
		else if (!distro_listed(distro_modules[i].list, distro_modules[i].entry))
			diag("%s: no %s in %s%s", distro_modules[i].file, distro_modules[i].entry,
			     distro_modules[i].list,
			     strcmp(distro_modules[i].list, "/proc/crypto") ? "" :
			     " with its self-test passed");
		ok = ok && !ret && distro_listed(distro_modules[i].list, distro_modules[i].entry);
		module_name(distro_modules[i].file, name, sizeof(name));
		if (!ret && unload_checked(name))
			ok = 0;
	}
	if (unload_checked("blowfish_common"))
		ok = 0;
	result(ok, s->name, NULL);
}

/* The modules make bench loads together on both kernels. */
static const char *const modbench_set[] = {
	"modtext.ko", "test_static_key_base.ko", "test_static_keys.ko",
	"test_klp_callbacks_mod.ko", "test_klp_callbacks_busy.ko",
};
#define MODBENCH_N	(sizeof(modbench_set) / sizeof(modbench_set[0]))
#define MODBENCH_CYCLES	21

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

static long long ns_between(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) * 1000000000LL + (b->tv_nsec - a->tv_nsec);
}

/*
 * make bench (mode=alloc, under icount): the same MODBENCH_N modules
 * loaded together on both kernels. Where their core text is: every 4K
 * page from each module's address in /proc/modules for its coresize that
 * is mapped executable (on the base kernel the core also holds the
 * module's data, which is not), counted once however many modules share
 * it, with the 2M regions they lie in, those on 4K mappings, and the iTLB
 * entries that map them (a 4K page each, a PMD each); the bytes of RO+X
 * memory the text takes (its size where it is on execmem, whole pages
 * elsewhere); DirectMap4k's growth over the loads. Then modtext.ko
 * loaded and unloaded MODBENCH_CYCLES times: the median of each, in
 * guest ns.
 */
static void step_module_bench(const struct step *s)
{
	static unsigned long long page[TEXT_PAGES_MAX], region[TEXT_PAGES_MAX];
	int pages = 0, regions = 0, pte = 0, pmds = 0, ok = 1, ret, i, j;
	long long bytes = 0, load[MODBENCH_CYCLES], unload[MODBENCH_CYCLES];
	int packed = module_text_on_execmem(), areas = module_areas();
	long dm4k[2] = { -1, -1 };
	size_t m;

	if (!have_module(modbench_set[0])) {
		diag("no %s on this kernel", modbench_set[0]);
		result(0, s->name, NULL);
		return;
	}
	if (module_areas_settle(areas)) {
		diag("module areas or DirectMap4k did not settle in 10 s before the loads");
		ok = 0;
	}
	dm4k[0] = meminfo("DirectMap4k");
	for (m = 0; ok && m < MODBENCH_N; m++) {
		ret = load_module_only(modbench_set[m], "");
		if (ret) {
			diag("loading %s: %s", modbench_set[m], strerror(-ret));
			ok = 0;
		}
	}
	/* Each core off execmem is one more area of move_module()'s. */
	if (ok && module_areas_settle(areas + (packed ? 0 : (int)MODBENCH_N))) {
		diag("module areas or DirectMap4k did not settle in 10 s");
		ok = 0;
	}
	dm4k[1] = meminfo("DirectMap4k");
	pt_load();
	for (m = 0; ok && m < MODBENCH_N; m++) {
		unsigned long long addr, a;
		char name[64], path[128];
		int size, mine = 0;

		module_name(modbench_set[m], name, sizeof(name));
		addr = module_text_addr(name);
		snprintf(path, sizeof(path), "/sys/module/%s/coresize", name);
		size = read_int(path);
		for (a = addr & ~0xfffULL; addr && size > 0 && a < addr + size; a += 4096) {
			const struct pt_range *r = pt_find(a);
			int pmd = r && !strcmp(r->level, "pmd");

			if (!r || !r->present || !r->exec)
				continue;
			mine++;
			for (i = 0; i < pages && page[i] != a >> 12; i++)
				;
			if (i < pages || i == TEXT_PAGES_MAX)
				continue;
			page[pages++] = a >> 12;
			pte += !pmd;
			for (j = 0; j < regions && region[j] != a >> 21; j++)
				;
			if (j == regions && j < TEXT_PAGES_MAX) {
				region[regions++] = a >> 21;
				pmds += pmd;
			}
		}
		bytes += packed ? size : mine * 4096LL;
		if (!mine) {
			diag("%s: no executable page of its core found", name);
			ok = 0;
		}
	}
	for (m = MODBENCH_N; m-- > 0; ) {
		char name[64];

		module_name(modbench_set[m], name, sizeof(name));
		unload_module(name);
	}
	for (i = 0; ok && i < MODBENCH_CYCLES; i++) {
		struct timespec t[3];

		clock_gettime(CLOCK_MONOTONIC, &t[0]);
		ret = load_module_only("modtext.ko", "");
		clock_gettime(CLOCK_MONOTONIC, &t[1]);
		unload_module("modtext");
		clock_gettime(CLOCK_MONOTONIC, &t[2]);
		if (ret || !access("/sys/module/modtext", F_OK)) {
			diag("cycle %d of modtext.ko: %s", i + 1,
			     ret ? strerror(-ret) : "still loaded after rmmod");
			ok = 0;
		}
		load[i] = ns_between(&t[0], &t[1]);
		unload[i] = ns_between(&t[1], &t[2]);
	}
	diag("%zu modules: text in %d pages (%d on 4K mappings) in %d 2M regions (%d by PMDs), %lld bytes",
	     MODBENCH_N, pages, pte, regions, pmds, bytes);
	if (ok) {
		qsort(load, MODBENCH_CYCLES, sizeof(load[0]), cmp_ll);
		qsort(unload, MODBENCH_CYCLES, sizeof(unload[0]), cmp_ll);
		diag("metric: modules_pages %d", pages);
		diag("metric: modules_regions_2m %d", regions);
		diag("metric: modules_pages_pte %d", pte);
		diag("metric: modules_itlb %d", pte + pmds);
		diag("metric: modules_text_bytes %lld", bytes);
		diag("metric: modules_directmap4k_growth_kb %ld", dm4k[1] - dm4k[0]);
		diag("metric: module_load_ns %lld", load[MODBENCH_CYCLES / 2]);
		diag("metric: module_unload_ns %lld", unload[MODBENCH_CYCLES / 2]);
	}
	result(ok, s->name, NULL);
}

/*
 * Expanded into one step per KUnit module in the initramfs
 * (is_kunit_module()), and one per suite built into the kernel.
 */
#define KUNIT_MODULES ((void (*)(const struct step *))NULL)

static const struct step steps[] = {
	{ "boot_wx", step_boot_wx, NULL, FULL | DEBUG | LAYOUT | DISTRO | NOMOD },
	/* First, while the text tail has room: where classic BPF lands. */
	{ "cbpf_where", step_tap_child, "/bin/cbpf_where -m cbpf_where.ko", FULL | DEBUG | DISTRO | MODULES },
	{ "jit_free", step_tap_child, "/bin/jit_free -m jit_free.ko", FULL | DEBUG | DISTRO | MODULES },
	{ "test_bpf_builtin", step_test_bpf_builtin, NULL, NOMOD },
	{ "test_bpf_jit", step_test_bpf, "jit", BENCH },
	{ "test_bpf_quick", step_test_bpf, "quick", FULL | DISTRO | MODULES },
	{ "test_bpf_interp", step_test_bpf, "interp", FULL },
	{ "test_bpf_harden", step_test_bpf, "harden", FULL },
	{ "test_vmalloc", step_vmalloc, "10000", FULL },
	{ "bpf_fleet", step_tap_child, "/bin/bpf_fleet -n 2000 -a -s -e @fleet -t @tail -m @nodes",
	  FULL | DEBUG | DISTRO | NOMOD },
	{ "bpf_fleet", step_tap_child, "/bin/bpf_fleet -n 500 -e @fleet -t @tail -u @user", LAYOUT },
	{ "bpf_fleet", step_tap_child, "/bin/bpf_fleet -n 300 -r -s -e @fleet", DEMO },
	{ "bpf_fleet", step_tap_child, "/bin/bpf_fleet -n 2000 -a -b -e @fleet", BENCH },
	{ "text_mutex_bench", step_bench_alloc, "text_mutex", BENCH },
	{ "pred_flush", step_pred_flush, NULL, BENCH },
	{ "alloc_bench", step_bench_alloc, NULL, ALLOC },
	{ "bpf_fleet", step_tap_child, "/bin/bpf_fleet -n 2000 -c 2 -e @fleet", CYCLES },
	{ "fault_injection_setup", step_fault_setup, NULL, FULL | DEBUG | KUNIT | DISTRO | MODULES },
	{ "kunit", KUNIT_MODULES, NULL, FULL | DEBUG | KUNIT | DISTRO | NOMOD | MODULES },
	{ "kprobe_slots", step_kprobe_slots, NULL, FULL | DEBUG | KUNIT | DISTRO | MODULES },
	/* make bench times 1,000 probes; make check takes 200 (2 vCPUs make each dear). */
	{ "kprobe_fleet", step_text_fleet, "kprobes probes=200", FULL | DEBUG | DISTRO | MODULES },
	{ "kprobe_fleet", step_text_fleet, "kprobes", ALLOC },
	{ "ftrace_selftest", step_ftrace_selftest, NULL, FTRACE },
	{ "ftrace_tramp", step_text_fleet, "ftrace", FULL | DEBUG | DISTRO | MODULES },
	{ "bpf_tramp", step_tap_child, "/bin/bpf_tramp -e @fleet", FULL | DEBUG | DISTRO | NOMOD },
	{ "bpf_tramp", step_tap_child, "/bin/bpf_tramp -e @fleet -b 1000", ALLOC },
	{ "module_bench", step_module_bench, NULL, ALLOC },
	{ "bpf_tramp_kernel", step_tap_child, "/bin/bpf_tramp -k -e @fleet -m ipmodify_kprobe.ko",
	  FULL | DEBUG | DISTRO | MODULES },
	{ "module_churn", step_module_churn, NULL, FULL | DEBUG | DISTRO | MODULES },
	{ "static_keys", step_static_keys, NULL, FULL | DEBUG | DISTRO | MODULES },
	{ "livepatch", step_livepatch, NULL, FULL | DEBUG | DISTRO | MODULES },
	{ "distro_modules", step_distro_modules, NULL, DISTRO },
	{ "module_text", step_module_text, NULL, FULL | DEBUG | DISTRO | NOMOD | MODULES },
	{ "kmemleak", step_kmemleak, NULL, DEBUG },
	{ "lockdep", step_lockdep, NULL, DEBUG },
};

/*
 * KUnit modules: the series' own end in _kunit.ko; the kernel's suites
 * for the other users of execmem have names of their own.
 */
static int is_kunit_module(const char *name, size_t len)
{
	return (len >= 10 && !strcmp(name + len - 9, "_kunit.ko")) ||
	       !strcmp(name, "test_kprobes.ko");
}

/*
 * The steps of @mode, with the KUnit placeholder expanded; with @only,
 * those named @only alone (only= on the command line: make repeat).
 */
static struct step *make_plan(int mode, const char *only, size_t *n)
{
	struct step *plan = malloc(64 * sizeof(*plan));
	const char *p;
	size_t i;

	*n = 0;
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		DIR *d;
		struct dirent *e;

		if (!(steps[i].modes & mode))
			continue;
		if (steps[i].run && only && strcmp(steps[i].name, only))
			continue;
		if (steps[i].run) {
			plan[(*n)++] = steps[i];
			continue;
		}
		d = opendir(MODDIR);
		while (d && (e = readdir(d)) && *n < 48) {
			size_t len = strlen(e->d_name);

			if (!is_kunit_module(e->d_name, len) ||
			    (only && strncmp(e->d_name, only, len - 3)) ||
			    (only && only[len - 3]))
				continue;
			plan[(*n)++] = (struct step){
				.name = strndup(e->d_name, len - 3),
				.run = step_kunit,
				.arg = strdup(e->d_name),
			};
		}
		if (d)
			closedir(d);
		/* Suites built in ran at boot: one step each, from the boot log. */
		for (p = boot_log.p; p && (p = strstr(p, "\n    # Subtest: ")) && *n < 48; p++) {
			char name[64];

			if (sscanf(p, "\n    # Subtest: %63s", name) == 1 &&
			    (!only || !strcmp(name, only)))
				plan[(*n)++] = (struct step){
					.name = strdup(name),
					.run = step_kunit_builtin,
					.arg = strdup(name),
				};
		}
	}
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
	int fd, m;

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
	m = !mode ? FULL : !strcmp(mode, "demo") ? DEMO :
	    !strcmp(mode, "debug") ? DEBUG : !strcmp(mode, "kunit") ? KUNIT :
	    !strcmp(mode, "bench") ? BENCH : !strcmp(mode, "layout") ? LAYOUT :
	    !strcmp(mode, "distro") ? DISTRO : !strcmp(mode, "nomod") ? NOMOD :
	    !strcmp(mode, "cycles") ? CYCLES : !strcmp(mode, "alloc") ? ALLOC :
	    !strcmp(mode, "ftrace") ? FTRACE : !strcmp(mode, "modules") ? MODULES : FULL;
	/* The modes with a module_text step have loads recorded for it. */
	if (m & (FULL | DEBUG | DISTRO | MODULES))
		setenv(MODTEXT_RECORD, "1", 1);
	plan = make_plan(m, getenv("only"), &nsteps);
	/* The plan must follow the version line, or kunit.py ignores it. */
	fprintf(ktap, "KTAP version 1\n1..%zu\n# guest: %s %s\n",
		nsteps, u.machine, u.release);
	/* Each step's wall time, for whoever wants to know where a boot's went. */
	for (i = 0; i < nsteps; i++) {
		struct timespec t0;

		clock_gettime(CLOCK_MONOTONIC, &t0);
		plan[i].run(&plan[i]);
		diag("step %s: %ld ms", plan[i].name, ms_since(&t0));
	}
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
