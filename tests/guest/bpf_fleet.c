// SPDX-License-Identifier: GPL-2.0
/*
 * Load a fleet of socket-filter programs whose JIT sizes follow the
 * distribution in the execmem v2 cover letter (half under 500 bytes, three
 * quarters under 2 KiB, a tail to about 16 KiB), run each once, and report
 * where their text landed: distinct 4K and 2M pages, the page-table level
 * and permissions that map it, and how the direct map changed.
 *
 * Usage: bpf_fleet -e execmem|plain [-t on|off] [-u yes|no] [-m NODES] [-n COUNT] [-r] [-b] [-a]
 *   -e: what the host expects of this kernel: "execmem" (BPF text on
 *       execmem: PMD mappings, the text tail first, chunks given back) or
 *       "plain" (RO+X mappings of any size). The loader never guesses this
 *       from the kernel under test: a kernel that lost execmem must fail
 *       the execmem checks, not skip them.
 *   -t: with execmem, whether the text tail must hold the first program
 *       ("on", the default) or no program at all ("off")
 *   -u: "yes": PTI clones the kernel text into user page tables on this
 *       boot; check that the user page tables map no BPF text
 *   -m: the number of NUMA nodes the host gave the guest, CPU k on node
 *       k. With two or more, the fleet is loaded on CPU 0, unloaded and
 *       reloaded on CPU 1 and unloaded again on CPU 0, so that chunks are
 *       created on both nodes and each is emptied from the other node;
 *       "numa" checks the topology and, with execmem, that the chunks
 *       came from the loading CPU's node each time
 *   Options may be given as "unset", which means their default.
 *   -r: also print a human report
 *   -a: load tests/kmod/textalias.ko first, and with execmem require
 *       that no page of any image has its direct-map alias split for it
 *       (placement). Not in the layout boots: the module's own text
 *       there takes a chunk before the fleet of 500 can, and
 *       chunks_given_back needs the fleet to make one.
 *   -s: check execmem's debugfs files and tracepoints against the fleet
 *       (stats_users, stats_chunks, stats_trace, stats_readers): with
 *       execmem, what the "bpf" user holds moves by what the fleet's
 *       images take, to the byte, and comes back after unload; every
 *       chunk's mapping agrees with the page-table dump; the alloc and
 *       free events of a load and an unload count its programs; four
 *       readers of the files meanwhile read nothing malformed. Without
 *       execmem ("plain"), the files show no chunk and no user.
 *   -b: benchmark: keep CPU 1 busy throughout (so that no CPU sits in lazy
 *       TLB mode), and time five extra load+run+unload cycles
 *   -c N: only time, for make bench's interleaved boots of the two
 *       kernels: N load+run+unload cycles after an untimed one, with CPU 1
 *       kept busy ("metric: cycle_ms_K"), then, with CPU 1 free, N runs
 *       of two loaders at once, one per CPU ("metric: two_loaders_ps_K")
 *
 * Output is TAP through the kernel's kselftest.h. Lines "# metric: NAME
 * VALUE" carry the figures the benchmark collects.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/bpf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"
#include "bpfsys.h"
#include "kmodload.h"
#include "ksym.h"
#include "meminfo.h"
#include "ptdump.h"
#include "owntext.h"
#include "execstat.h"

#define MAX_PROGS	4096
#define MAX_INSNS	4096
struct prog {
	int fd;
	uint32_t expect;	/* what the program returns */
	uint64_t addr;		/* JIT image, from bpf_prog_info */
	uint32_t len;
};

static struct prog progs[MAX_PROGS];
static int nprogs = 2000;

/*
 * Deterministic JIT size targets for program @i of @n: a fixed shuffle of
 * the quantiles, so every run (and both kernels of a benchmark) load the
 * same fleet.
 */
static unsigned int target_bytes(int i, int n)
{
	unsigned int q = (unsigned int)(((uint64_t)i * 7919) % n) * 1000u / n;

	if (q < 500)			/* 50%: 64..499 bytes */
		return 64 + q * 435 / 500;
	if (q < 750)			/* 25%: 500..2047 bytes */
		return 500 + (q - 500) * 1547 / 250;
	return 2048 + (q - 750) * (q - 750) * 14336 / (250 * 250);	/* tail */
}

/* r0 = 0; r0 += k (imm32, so one fixed-size instruction each); exit. */
static int load_one(int i, struct prog *p)
{
	static struct bpf_insn insns[MAX_INSNS];
	unsigned int n = (target_bytes(i, nprogs) - 40) / 6, k;
	union bpf_attr attr;
	uint64_t sum = 0;

	if (n < 1)
		n = 1;
	if (n > MAX_INSNS - 2)
		n = MAX_INSNS - 2;
	insns[0] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K };
	for (k = 1; k <= n; k++) {
		int32_t imm = 0x10000 + (int32_t)((i * 2654435761u + k * 40503u) & 0x3fffffff);

		insns[k] = (struct bpf_insn){ .code = BPF_ALU64 | BPF_ADD | BPF_K, .imm = imm };
		sum += imm;
	}
	insns[n + 1] = (struct bpf_insn){ .code = BPF_JMP | BPF_EXIT };

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insns = (uintptr_t)insns;
	attr.insn_cnt = n + 2;
	attr.license = (uintptr_t)"GPL";
	snprintf(attr.prog_name, sizeof(attr.prog_name), "fleet_%d", i);
	p->fd = sys_bpf(BPF_PROG_LOAD, &attr);
	p->expect = (uint32_t)sum;
	return p->fd < 0 ? -errno : 0;
}

static int prog_info(struct prog *p)
{
	struct bpf_prog_info info;
	uint64_t ksym = 0;
	union bpf_attr attr;

	memset(&info, 0, sizeof(info));
	info.nr_jited_ksyms = 1;
	info.jited_ksyms = (uintptr_t)&ksym;
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = p->fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (uintptr_t)&info;
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr))
		return -errno;
	p->addr = ksym;
	p->len = info.jited_prog_len;
	return 0;
}

static int run_one(struct prog *p, uint32_t *ret)
{
	unsigned char pkt[64] = { 0 };
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = p->fd;
	attr.test.data_in = (uintptr_t)pkt;
	attr.test.data_size_in = sizeof(pkt);
	attr.test.repeat = 1;
	if (sys_bpf(BPF_PROG_TEST_RUN, &attr))
		return -errno;
	*ret = attr.test.retval;
	return 0;
}

/* Empty chunks execmem may keep in reserve once everything is freed. */
#define EXECMEM_SPARES	1

#define MAX_NODES	8

/*
 * What one pass over /proc/vmallocinfo counts. A chunk is an area of
 * 2 MiB or more whose caller is execmem_create_chunk; "N1=512" says
 * which node its pages came from (the node of the task that created
 * it). Under KASAN without KASAN_VMALLOC each chunk also has a smaller
 * shadow area with the same caller: not a chunk.
 */
struct vm_count {
	int chunks;		/* execmem chunks, on any node */
	int on[MAX_NODES];	/* of them, those with pages on node k */
	int progs;		/* live struct bpf_prog: each is vmalloc'ed */
};

/* One pass; with @print, each chunk's line is printed, for a failed check. */
static void vm_read(struct vm_count *c, int print)
{
	char line[512], tag[16];
	long size;
	int k;
	FILE *f = fopen("/proc/vmallocinfo", "r");

	memset(c, 0, sizeof(*c));
	while (f && fgets(line, sizeof(line), f)) {
		/* bpf_prog_alloc_no_stats() may be inlined into bpf_prog_alloc() */
		if (strstr(line, " bpf_prog_alloc_no_stats+") || strstr(line, " bpf_prog_alloc+") ||
		    strstr(line, " bpf_prog_realloc+")) {
			c->progs++;
			continue;
		}
		if (!strstr(line, " execmem_create_chunk+") ||
		    sscanf(line, "%*s %ld", &size) != 1 || size < (2L << 20))
			continue;
		c->chunks++;
		if (print)
			ksft_print_msg("vmallocinfo: %s", line);
		for (k = 0; k < MAX_NODES; k++) {
			snprintf(tag, sizeof(tag), " N%d=", k);
			c->on[k] += strstr(line, tag) != NULL;
		}
	}
	if (f)
		fclose(f);
}

/*
 * A count of /proc/vmallocinfo that three passes in a row agree on; -1
 * if none did in 50 passes (@c then holds the last). The file is a
 * seq_file that resumes by position at each read() (4 KiB at most per
 * call, whatever the buffer; 1 KiB through stdio): an area vfree()d
 * below the reader's position between two read()s makes it skip a line,
 * one vmalloc()ed there makes it repeat one. While programs are being
 * freed (each struct bpf_prog is vmalloc'ed, and below the chunks) a pass
 * can miss a chunk, and so can two in a row. Exact only once the frees
 * are over: see settle().
 */
static int vm_snapshot(struct vm_count *c)
{
	struct vm_count prev;
	int tries, same = 0;

	vm_read(c, 0);
	for (tries = 0; same < 2 && tries < 50; tries++) {
		prev = *c;
		vm_read(c, 0);
		same = memcmp(&prev, c, sizeof(prev)) ? 0 : same + 1;
	}
	return same < 2 ? -1 : 0;
}

/*
 * Wait until the deferred frees of the programs this loader closed have
 * run, then count in @c. bpf_prog_put() frees a program from a work item
 * after an RCU grace period, and bpf_jit_free() gives its text back to
 * execmem before it vfree()s the struct bpf_prog: no more than @progs
 * of those left means every closed program's text is back. And nothing
 * else is being freed: VmallocUsed (one counter, no seq_file) the same
 * for a second. A count of chunks alone does not tell: a fleet that
 * made one chunk leaves as many behind as it made (the spare). -1, with
 * a message, if that takes more than 60 s.
 */
static int settle(int progs, struct vm_count *c, const char *when)
{
	long used = -1, now;
	int i, ok, stable = 0;

	for (i = 0; i < 120; i++) {
		ok = !vm_snapshot(c) && c->progs <= progs;
		now = meminfo("VmallocUsed");
		stable = ok && now == used ? stable + 1 : 0;
		if (stable >= 2)
			return 0;
		used = ok ? now : -1;
		usleep(500 * 1000);
	}
	ksft_print_msg("%s: frees not over after 60 s: %d programs left, at most %d expected\n",
		       when, c->progs, progs);
	return -1;
}

/* ---- -s: execmem's debugfs files and tracepoints ---------------------- */

/* A tracing instance of the fleet's own: the global buffer is left alone. */
#define TRACING "/sys/kernel/debug/tracing/instances/execmem_fleet/"
#define NR_READERS 4
/*
 * A reader rests this long between two rounds of the three files. A
 * round costs the guest milliseconds under TCG (and more under KASAN),
 * so readers that never rested would take both vCPUs from the unload
 * and the reload they are meant to overlap.
 */
#define READER_REST_US 100000

/*
 * What x86's JIT asks execmem for, for an image of @len bytes:
 * bpf_int_jit_compile() rounds the code up to 4 (the exception table's
 * alignment; the fleet has no table), and bpf_jit_binary_pack_alloc()
 * adds its 8-byte header and 16 bytes of room for a random start, in
 * 64-byte chunks.
 */
static long jit_bytes(uint32_t len)
{
	return ((len + 3) / 4 * 4 + 8 + 16 + 63) / 64 * 64;
}

/* The "bpf" user's line of execmem/users; -1 with a message if unreadable. */
static int users_bpf(long *allocs, long *bytes)
{
	char *t = execstat_read("users");
	int ret = t ? execstat_user(t, "bpf", allocs, bytes) : -1;

	if (ret)
		ksft_print_msg("execmem/users: %s\n", t ? "no well-formed \"bpf\" line" : "cannot read");
	free(t);
	return ret;
}

/* Without execmem: every user holds nothing. */
static int users_empty(void)
{
	char *t = execstat_read("users");
	long a = 0, b = 0;
	int bad = !t || execstat_user(t, NULL, &a, &b) || a || b;

	if (bad)
		ksft_print_msg("execmem/users: %s\n", t ? "not every user at 0" : "cannot read");
	free(t);
	return bad;
}

static int write_tracing(const char *file, const char *val)
{
	int ret = write_file(file, val);

	if (ret)
		ksft_print_msg("cannot write %s to %s: %s\n", val, file, strerror(-ret));
	return ret;
}

/*
 * Turn execmem's events on, in a new instance of their own (so its
 * buffer starts empty) large enough for a fleet's, or off, removing the
 * instance (after it was read).
 */
static int trace_execmem(int on)
{
	if (!on)
		return write_tracing(TRACING "events/execmem/enable", "0") ||
		       rmdir(TRACING) ? -1 : 0;
	if (mkdir(TRACING, 0755)) {
		ksft_print_msg("cannot make %s: %s\n", TRACING, strerror(errno));
		return -1;
	}
	if (write_tracing(TRACING "buffer_size_kb", "8192"))
		return -1;
	return write_tracing(TRACING "events/execmem/enable", "1");
}

/*
 * Events named @event in the instance's buffer, of @type ("type=bpf")
 * or any type (NULL); -1 if the buffer cannot be read or lost events
 * (an overrun on any CPU).
 */
static long trace_events(const char *event, const char *type)
{
	char line[512], tag[48], path[128];
	long n = 0, lost = 0, v;
	int cpu;
	FILE *f;

	for (cpu = 0; ; cpu++) {
		snprintf(path, sizeof(path), TRACING "per_cpu/cpu%d/stats", cpu);
		f = fopen(path, "r");
		if (!f)
			break;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "overrun: %ld", &v) == 1)
				lost += v;
		fclose(f);
	}
	f = fopen(TRACING "trace", "r");
	if (!f || !cpu || lost) {
		ksft_print_msg("trace buffer: %s\n", !f || !cpu ? "cannot read" : "events lost");
		if (f)
			fclose(f);
		return -1;
	}
	snprintf(tag, sizeof(tag), ": %s: ", event);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, tag) && (!type || strstr(line, type)))
			n++;
	fclose(f);
	return n;
}

/*
 * Close a window of execmem's events opened with trace_execmem(1), when
 * the stats counter @counter read @before: read it again, turn the events
 * off and count them. The window must hold @want events @event of type
 * bpf and no @none of that type, and as many @chunk events as @counter
 * moved. @what names the window in the message. Nonzero on a problem.
 */
static int trace_window_end(const char *what, int want, const char *event, const char *none,
			    const char *chunk, const char *counter, long before)
{
	char *st = execstat_read("stats");
	long after = st ? execstat_stat(st, counter) : -1, n, n_none, n_chunk;
	int bad;

	free(st);
	bad = write_tracing(TRACING "events/execmem/enable", "0");
	n = trace_events(event, " type=bpf ");
	n_none = trace_events(none, " type=bpf ");
	n_chunk = trace_events(chunk, NULL);
	bad |= trace_execmem(0);
	ksft_print_msg("%s: %ld %s events of type bpf for %d programs, %ld %s; %ld %s events, %s %+ld\n",
		       what, n, event, want, n_none, none, n_chunk, chunk, counter, after - before);
	return bad || n != want || n_none != 0 || n_chunk < 0 || before < 0 || after < 0 ||
	       n_chunk != after - before;
}

/*
 * The mapping execmem/chunks must report for [@start, @start + @size),
 * from the page-table dump, at the same addresses chunk_map() looks at:
 * the start and every PMD boundary.
 */
static const char *pt_map(uint64_t start, uint64_t size)
{
	uint64_t a;
	int pmd = 1;

	for (a = start; a < start + size; a = ((a >> 21) + 1) << 21) {
		const struct pt_range *r = pt_find(a);

		if (!r || !r->present || r->writable || !r->exec)
			return "bad";
		pmd &= !strcmp(r->level, "pmd");
	}
	return pmd ? "pmd" : "pte";
}

/*
 * The file execmem/@name as it reads now, a diagnostic line per line
 * ("execmem/chunks: ..." is what ci/execmem-map.py draws).
 */
static void dump_file(const char *name)
{
	char *t = execstat_read(name), *p, *nl;

	for (p = t; p && *p; p = nl + 1) {
		nl = strchrnul(p, '\n');
		ksft_print_msg("execmem/%s: %.*s\n", name, (int)(nl - p), p);
		if (!*nl)
			break;
	}
	free(t);
}

/*
 * execmem/chunks against the page tables and execmem/users: every line
 * well-formed, each chunk mapped as the dump says, and the chunks' used
 * units enough for every user's bytes. With execmem at least one chunk,
 * without none. Returns the number of problems.
 */
static int check_chunks(int execmem)
{
	static struct execstat_chunk c[256];
	char *t = execstat_read("chunks"), *u = execstat_read("users");
	long used = 0, held = 0, a;
	int n, i, bad = 0, line = 0;

	n = t ? execstat_chunks(t, c, 256, &line) : -1;
	if (n < 0) {
		ksft_print_msg("execmem/chunks: %s (line %d)\n", t ? "malformed" : "cannot read", line);
		free(t);
		free(u);
		return 1;
	}
	pt_load();
	for (i = 0; i < n; i++) {
		const char *want = pt_map(c[i].start, c[i].size);

		used += c[i].used * EXECSTAT_UNIT;
		if (strcmp(c[i].map, want)) {
			ksft_print_msg("chunk %#" PRIx64 ": execmem/chunks says map=%s, the page tables %s\n",
				       c[i].start, c[i].map, want);
			bad++;
		}
	}
	if (!u || execstat_user(u, NULL, &a, &held) || used < held) {
		ksft_print_msg("chunks use %ld bytes of units, users hold %ld\n", used, held);
		bad++;
	}
	if (execmem ? n < 1 : n != 0) {
		ksft_print_msg("%d chunks listed, %s\n", n, execmem ? "at least 1 expected" : "none expected");
		bad++;
	}
	free(t);
	free(u);
	return bad;
}

static volatile sig_atomic_t readers_stop;

static void readers_on_term(int sig)
{
	(void)sig;
	readers_stop = 1;
}

/*
 * A reader of the three files, in a loop, until SIGTERM (blocked in
 * @mask until the handler is in place): 0 if every read was
 * well-formed.
 */
static int reader(const sigset_t *mask)
{
	static struct execstat_chunk c[256];
	long reads = 0, a, b;
	int line = 0;

	signal(SIGTERM, readers_on_term);
	sigprocmask(SIG_SETMASK, mask, NULL);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	while (!readers_stop) {
		char *t = execstat_read("chunks"), *u = execstat_read("users");
		char *st = execstat_read("stats");
		const char *bad = !t || execstat_chunks(t, c, 256, &line) < 0 ? "chunks" :
				  !u || execstat_user(u, "bpf", &a, &b) ? "users" :
				  !st || execstat_stat(st, "allocs") < 0 ? "stats" : NULL;

		if (bad) {
			printf("# reader %d: execmem/%s unreadable or malformed (chunks line %d)\n",
			       getpid(), bad, line);
			return 1;
		}
		free(t);
		free(u);
		free(st);
		reads++;
		usleep(READER_REST_US);
	}
	return reads ? 0 : 2;
}

static void readers_start(pid_t *pid)
{
	sigset_t term, old;
	int i;

	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigprocmask(SIG_BLOCK, &term, &old);
	fflush(stdout);
	for (i = 0; i < NR_READERS; i++) {
		pid[i] = fork();
		if (pid[i])
			continue;
		/* The fleet's program fds would keep its programs alive. */
		if (syscall(SYS_close_range, 3, ~0U, 0))
			_exit(3);
		_exit(reader(&old));
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* Stop the readers: the number of them that failed (or never started). */
static int readers_end(pid_t *pid)
{
	int i, st, bad = 0;

	for (i = 0; i < NR_READERS; i++) {
		if (pid[i] < 0 || kill(pid[i], SIGTERM) || waitpid(pid[i], &st, 0) != pid[i] ||
		    !WIFEXITED(st) || WEXITSTATUS(st)) {
			ksft_print_msg("reader %d of execmem's files failed\n", i);
			bad++;
		}
	}
	return bad;
}

/* Run on CPU @cpu only. */
static int pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

/*
 * Load copies of the largest fleet program until node 1 holds more chunks
 * than @before, count the chunks while they are all still loaded, then
 * close them. Nothing is being freed meanwhile (the caller settle()d
 * first; loads free synchronously), so the counts are exact, and a chunk
 * cannot have gone since @before: a chunk more on node 0 was made on
 * node 0. Returns whether no chunk was made on node 0 and one on node 1,
 * with what happened printed otherwise.
 */
static int numa_extra_load(const struct vm_count *before)
{
	static struct prog extra[2000];
	struct vm_count now, dump;
	int n = 0, i, err = 0, big = 0, ok;

	for (i = 1; i < nprogs; i++)
		if (target_bytes(i, nprogs) > target_bytes(big, nprogs))
			big = i;
	for (vm_read(&now, 0); now.on[1] <= before->on[1] && n < 2000; vm_read(&now, 0)) {
		err = load_one(big, &extra[n]);
		if (err)
			break;
		n++;
	}
	if (vm_snapshot(&now))
		ksft_print_msg("/proc/vmallocinfo: no three passes agreed\n");
	ok = now.on[1] > before->on[1] && now.on[0] <= before->on[0];
	if (now.on[1] <= before->on[1])
		ksft_print_msg("no chunk on node 1 after %d extra programs (%s)\n",
			       n, err ? strerror(-err) : "none failed");
	if (!ok) {
		ksft_print_msg("reloaded on node 1: %d more chunks on node 0, %d on node 1 (%d extra programs)\n",
			       now.on[0] - before->on[0], now.on[1] - before->on[1], n);
		vm_read(&dump, 1);
	}
	while (n--)
		close(extra[n].fd);
	return ok;
}

/*
 * The guest's NUMA topology is what the host asked for: nodes 0 to
 * @nodes - 1 online, CPU k on node k.
 */
static int numa_topology_ok(int nodes)
{
	char want[32], line[64] = "", path[64];
	int k, ok;
	FILE *f = fopen("/sys/devices/system/node/online", "r");

	snprintf(want, sizeof(want), "0-%d\n", nodes - 1);
	ok = f && fgets(line, sizeof(line), f) && !strcmp(line, want);
	if (f)
		fclose(f);
	if (!ok)
		ksft_print_msg("online nodes: %s", *line ? line : "(none)\n");
	for (k = 0; ok && k < nodes; k++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/node%d", k, k);
		ok = access(path, F_OK) == 0;
		if (!ok)
			ksft_print_msg("cpu%d is not on node %d\n", k, k);
	}
	return ok;
}

/*
 * Programs that /proc/kallsyms lists at their own address, by their own
 * name: "ADDR t bpf_prog_TAG_fleet_I [bpf]" with ADDR the image of
 * fleet_I. A name at another address, or the right address under
 * another name, does not count.
 */
static int fleet_in_kallsyms(void)
{
	static char seen[MAX_PROGS];
	char line[512], name[256];
	unsigned long long addr;
	int n = 0, i;
	char *p;
	FILE *f = fopen("/proc/kallsyms", "r");

	memset(seen, 0, sizeof(seen));
	while (f && fgets(line, sizeof(line), f)) {
		if (!strstr(line, "[bpf]") ||
		    sscanf(line, "%llx %*s %255s", &addr, name) != 2 ||
		    !(p = strstr(name, "_fleet_")) || sscanf(p, "_fleet_%d", &i) != 1 ||
		    i < 0 || i >= nprogs || seen[i])
			continue;
		if (addr != progs[i].addr) {
			if (n < 3)
				ksft_print_msg("kallsyms: %s at %#llx, but fleet_%d is at %#lx\n",
					       name, addr, i, (unsigned long)progs[i].addr);
			continue;
		}
		seen[i] = 1;
		n++;
	}
	if (f)
		fclose(f);
	return n;
}

/* ---- the fleet ------------------------------------------------------- */

static int load_all(int *loaded)
{
	int i, err = 0;

	for (i = 0, *loaded = 0; i < nprogs; i++) {
		int ret = load_one(i, &progs[i]);

		if (ret) {
			if (!err)
				ksft_print_msg("program %d failed to load: %s\n", i, strerror(-ret));
			err = ret;
			continue;
		}
		(*loaded)++;
		prog_info(&progs[i]);
	}
	return err;
}

static void unload_all(void)
{
	int i;

	for (i = 0; i < nprogs; i++)
		if (progs[i].fd >= 0)
			close(progs[i].fd);
	/* Programs are freed from a workqueue after an RCU grace period. */
	sleep(2);
}

/*
 * Interrupts of the row @tag ("TLB", "CAL") of /proc/interrupts, summed
 * over CPUs. On x86 remote flushes of user mappings count as TLB, while
 * kernel-range flushes (vfree, set_memory_*()) arrive as function calls.
 */
static long irq_count(const char *tag)
{
	char line[1024], *p, *end;
	long n = 0, v;
	FILE *f = fopen("/proc/interrupts", "r");
	size_t len = strlen(tag);

	while (f && fgets(line, sizeof(line), f)) {
		for (p = line; *p == ' '; p++)
			;
		if (strncmp(p, tag, len) || p[len] != ':')
			continue;
		for (p += len + 1; (v = strtol(p, &end, 10)), end != p; p = end)
			n += v;
	}
	if (f)
		fclose(f);
	return n;
}

/*
 * Bytes of vmalloc space held for BPF text, less guard pages: execmem
 * chunks on the patched kernel, bpf_prog_pack packs on the baseline.
 */
static long text_reserved_kb(void)
{
	static const char *const callers[] = {
		"execmem_create_chunk", "alloc_new_pack", "bpf_prog_pack_alloc",
		"bpf_jit_alloc_exec",
	};
	char line[512];
	long kb = 0, size;
	FILE *f = fopen("/proc/vmallocinfo", "r");
	size_t i;

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %ld", &size) != 1)
			continue;
		for (i = 0; i < sizeof(callers) / sizeof(callers[0]); i++)
			if (strstr(line, callers[i])) {
				kb += (size - 4096) / 1024;
				break;
			}
	}
	if (f)
		fclose(f);
	return kb;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Keep CPU 1 busy in a child, and stay on CPU 0 ourselves. */
static pid_t busy_cpu1(void)
{
	cpu_set_t set;
	pid_t pid;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return -1;
	pid = fork();
	if (!pid) {
		CPU_ZERO(&set);
		CPU_SET(1, &set);
		sched_setaffinity(0, sizeof(set), &set);
		for (;;)
			;
	}
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
	return pid;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* @n timed load+run+unload cycles of the whole fleet, into @ms. */
static int time_cycles(double *ms, int n)
{
	int i, j, loaded, bad = 0;

	for (j = 0; j < n; j++) {
		double t = now_ms();

		bad |= load_all(&loaded) != 0;
		for (i = 0; i < nprogs; i++) {
			uint32_t ret;

			run_one(&progs[i], &ret);
		}
		for (i = 0; i < nprogs; i++)
			close(progs[i].fd);
		ms[j] = now_ms() - t;
		sleep(2);	/* let the deferred frees finish */
	}
	return bad;
}

/*
 * Two loaders at once, one pinned to each CPU, each loading every other
 * program of the fleet: programs loaded per second, from the moment both
 * may start until both have loaded their half. They close their
 * programs only after the clock has stopped. -1 if anything failed.
 */
static double two_loaders(void)
{
	int go[2], done[2], quit[2], k, i, bad = 0;
	pid_t pid[2];
	double t;
	char c;

	if (pipe(go) || pipe(done) || pipe(quit))
		return -1;
	for (k = 0; k < 2; k++) {
		pid[k] = fork();
		if (pid[k])
			continue;
		close(go[1]);
		close(quit[1]);
		if (pin_to(k) || read(go[0], &c, 1) < 0)
			_exit(1);
		for (i = k; i < nprogs; i += 2)
			bad |= load_one(i, &progs[i]);
		c = bad ? 'x' : 'o';
		if (write(done[1], &c, 1) != 1 || read(quit[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(go[0]);
	close(quit[0]);
	close(done[1]);
	t = now_ms();
	close(go[1]);			/* both start */
	for (k = 0; k < 2; k++)
		bad |= read(done[0], &c, 1) != 1 || c != 'o';
	t = now_ms() - t;
	close(quit[1]);			/* both close their programs and exit */
	close(done[0]);
	for (k = 0; k < 2; k++) {
		int status = 1;

		bad |= pid[k] < 0 || waitpid(pid[k], &status, 0) < 0 || status;
	}
	return bad || t <= 0 ? -1 : nprogs * 1e3 / t;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Number of distinct (addr >> shift) pages the fleet's text touches. */
static long distinct_pages(int shift)
{
	uint64_t *pg = NULL;
	size_t n = 0, i, d = 0;

	for (i = 0; i < (size_t)nprogs; i++) {
		uint64_t a;

		if (!progs[i].len)
			continue;
		for (a = progs[i].addr >> shift; a <= (progs[i].addr + progs[i].len - 1) >> shift; a++) {
			pg = realloc(pg, (n + 1) * sizeof(*pg));
			pg[n++] = a;
		}
	}
	qsort(pg, n, sizeof(*pg), cmp_u64);
	for (i = 0; i < n; i++)
		d += !i || pg[i] != pg[i - 1];
	free(pg);
	return d;
}

/*
 * For the bench's occupancy chart: kB of JIT text in each 2 MiB page the
 * fleet's images start in, in address order ("metric: use_kb_pmd_K").
 */
static int cmp_prog_addr(const void *a, const void *b)
{
	return cmp_u64(&((const struct prog *)a)->addr, &((const struct prog *)b)->addr);
}

static void print_occupancy(void)
{
	static struct prog by_addr[MAX_PROGS];
	long bytes = 0;
	int i, k = 0;

	memcpy(by_addr, progs, nprogs * sizeof(*progs));
	qsort(by_addr, nprogs, sizeof(*by_addr), cmp_prog_addr);
	for (i = 0; i < nprogs; i++) {
		if (!by_addr[i].len)
			continue;
		bytes += by_addr[i].len;
		if (i + 1 < nprogs && by_addr[i + 1].addr >> 21 == by_addr[i].addr >> 21)
			continue;
		ksft_print_msg("metric: use_kb_pmd_%d %ld\n", k++, bytes / 1024);
		bytes = 0;
	}
}

static void report_sizes(void)
{
	static uint32_t len[MAX_PROGS];
	uint64_t total = 0;
	int i;

	for (i = 0; i < nprogs; i++) {
		len[i] = progs[i].len;
		total += len[i];
	}
	qsort(len, nprogs, sizeof(len[0]), cmp_u32);
	ksft_print_msg("metric: jit_bytes_p50 %u\n", len[nprogs / 2]);
	ksft_print_msg("metric: jit_bytes_p75 %u\n", len[nprogs * 3 / 4]);
	ksft_print_msg("metric: jit_bytes_max %u\n", len[nprogs - 1]);
	ksft_print_msg("metric: jit_bytes_total %lu\n", (unsigned long)total);
}

/*
 * Every page of every program's image must be present, read-only and
 * executable; with execmem, mapped by a PMD. Returns the number of
 * programs that break the rule, and the bytes on PMD mappings.
 */
static int check_placement(int want_pmd, uint64_t *pmd_bytes)
{
	int i, bad = 0;

	pt_load();
	*pmd_bytes = 0;
	for (i = 0; i < nprogs; i++) {
		uint64_t a, end = progs[i].addr + progs[i].len;
		const struct pt_range *r = NULL;
		int ok = progs[i].len > 0, pmd = ok;

		/* Every 4K page the image touches, first byte to last. */
		for (a = progs[i].addr; ok && a < end; a = (a & ~4095ull) + 4096) {
			r = pt_find(a);
			ok = r && r->present && !r->writable && r->exec;
			pmd = pmd && r && !strcmp(r->level, "pmd");
		}
		if (ok && pmd)
			*pmd_bytes += progs[i].len;
		if (ok && (pmd || !want_pmd))
			continue;
		if (bad++ < 3)
			ksft_print_msg("fleet_%d at %#lx+%u: %s\n", i,
				       (unsigned long)progs[i].addr, progs[i].len,
				       r ? r->text : "no page-table entry");
	}
	return bad;
}

/*
 * The direct map's alias of every page of every program's image, as
 * textalias.ko tells it: where the fleet is on execmem, none may be split
 * to 4K (the base kernel splits the alias of each page it makes read-only,
 * which DirectMap4k shows only where the region was not split before).
 * Returns 1 if that fails, 0 if not (or where it is not judged).
 */
static int check_aliases(int want_pmd)
{
	char *ranges = malloc((size_t)nprogs * 32 + 1), why[1024];
	struct own_text ot;
	size_t len = 0;
	int i, ret;

	if (!ranges)
		ksft_exit_fail_msg("out of memory\n");
	ranges[0] = '\0';
	for (i = 0; i < nprogs; i++)
		len += snprintf(ranges + len, 32, "%llx %u\n", (unsigned long long)progs[i].addr,
				progs[i].len);
	pt_load();
	ret = own_text_judge(ranges, want_pmd, text_alias_lookup(), &ot, why, sizeof(why));
	free(ranges);
	ksft_print_msg("the images' pages: %s\n", why);
	/* A figure only where every page was told. */
	if (ot.pages && !ot.alias_unknown)
		ksft_print_msg("metric: text_alias_pte %d\n", ot.alias_pte);
	return want_pmd && ret;
}

/*
 * Present mappings in the whole kernel page-table dump that are W+X, or
 * -1 where the dump cannot tell: there is none, or it holds no present,
 * read-only, executable mapping, which the kernel text always is.
 */
static int wx_mappings(void)
{
	int i, n = 0, text = 0;

	pt_load();
	for (i = 0; i < npt; i++) {
		text += pt[i].present && !pt[i].writable && pt[i].exec;
		if (!(pt[i].present && pt[i].writable && pt[i].exec))
			continue;
		if (n++ < 3)
			ksft_print_msg("W+X: %s\n", pt[i].text);
	}
	if (!text) {
		ksft_print_msg("no page-table dump with the kernel text in it (%d lines)\n", npt);
		return -1;
	}
	return n;
}


/*
 * With a text tail, the first programs go there: right after _etext, in
 * the same 2 MiB page as the end of the kernel text.
 */
static int first_in_text_tail(void)
{
	uint64_t etext = ksym_addr("_etext"), a = progs[0].addr;

	ksft_print_msg("_etext %#lx, fleet_0 at %#lx\n", (unsigned long)etext,
		       (unsigned long)a);
	return etext && a >= etext && (a >> 21) == ((etext - 1) >> 21);
}

/* Programs in the text tail's range: [_etext, the next 2 MiB boundary). */
static int in_text_tail(void)
{
	uint64_t etext = ksym_addr("_etext"), end = ((etext + (1 << 21) - 1) >> 21) << 21;
	int i, n = 0;

	for (i = 0; etext && i < nprogs; i++)
		n += progs[i].len && progs[i].addr >= etext && progs[i].addr < end;
	return etext ? n : -1;
}

/*
 * The 2 MiB page of the lowest-addressed program outside the text tail:
 * the first chunk, since chunks are PMD-aligned and filled lowest address
 * first. (/proc/vmallocinfo hashes its addresses.) 0 if there is none.
 */
static uint64_t first_chunk(void)
{
	uint64_t etext = ksym_addr("_etext"), end = ((etext + (1 << 21) - 1) >> 21) << 21;
	uint64_t lo = 0;
	int i;

	for (i = 0; i < nprogs; i++) {
		uint64_t a = progs[i].addr;

		if (progs[i].len && !(a >= etext && a < end) && (!lo || a < lo))
			lo = a;
	}
	return lo >> 21 << 21;
}

/*
 * Programs whose text the user page tables map. Also says whether they
 * map the kernel text at all, i.e. whether PTI runs in its global-image
 * mode on this boot, without which the check proves nothing.
 */
static int user_mapped(int *text_cloned)
{
	FILE *f = fopen("/sys/kernel/debug/page_tables/current_user", "r");
	const struct pt_range *r;
	int i, n = 0;

	*text_cloned = 0;
	if (!f)
		return -1;
	pt_load_from(f);
	r = pt_find(ksym_addr("_stext"));
	*text_cloned = r && r->present;
	for (i = 0; i < nprogs; i++) {
		r = pt_find(progs[i].addr);
		if (!progs[i].len || !r || !r->present)
			continue;
		if (n++ < 3)
			ksft_print_msg("user page tables map fleet_%d at %#lx: %s\n", i,
				       (unsigned long)progs[i].addr, r->text);
	}
	return n;
}

/*
 * The name the kernel prints for an address (%pS, as in oopses and stack
 * traces), asked of the kernel itself: a helper program passes each
 * address to bpf_snprintf("%pS") and leaves the text in a map.
 */
#define NAME_LEN 120

static int fd_fmt = -1, fd_out = -1, fd_namer = -1;

static int namer_setup(void)
{
	char fmt[8] = "%pS";
	union bpf_attr attr;
	/* out[0..8): the address; out[8..): the text. r6 = &out, r3 = fmt. */
	struct bpf_insn insns[] = {
		{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = 6,
		  .src_reg = BPF_PSEUDO_MAP_VALUE },
		{ 0 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = 1, .src_reg = 6 },
		{ .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = 1, .imm = 8 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 2, .imm = NAME_LEN },
		{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = 3,
		  .src_reg = BPF_PSEUDO_MAP_VALUE },
		{ 0 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = 4, .src_reg = 6 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 5, .imm = 8 },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_snprintf },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	static char vlog[4096];

	fd_fmt = map_create(sizeof(fmt), BPF_F_RDONLY_PROG);
	fd_out = map_create(8 + NAME_LEN, 0);
	if (fd_fmt < 0 || fd_out < 0 || map_rw(fd_fmt, BPF_MAP_UPDATE_ELEM, fmt))
		return -errno;
	memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd_fmt;
	if (sys_bpf(BPF_MAP_FREEZE, &attr))
		return -errno;
	insns[0].imm = fd_out;
	insns[5].imm = fd_fmt;
	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insns = (uintptr_t)insns;
	attr.insn_cnt = sizeof(insns) / sizeof(insns[0]);
	attr.license = (uintptr_t)"GPL";
	attr.log_buf = (uintptr_t)vlog;
	attr.log_size = sizeof(vlog);
	attr.log_level = 1;
	fd_namer = sys_bpf(BPF_PROG_LOAD, &attr);
	if (fd_namer < 0) {
		ksft_print_msg("namer: %s\n%s", strerror(errno), vlog);
		return -errno;
	}
	return 0;
}

/* What %pS prints for @addr, into @name. */
static int kernel_name(uint64_t addr, char *name)
{
	struct prog namer = { .fd = fd_namer };
	char out[8 + NAME_LEN] = { 0 };
	uint32_t ret;

	memcpy(out, &addr, 8);
	if (map_rw(fd_out, BPF_MAP_UPDATE_ELEM, out) || run_one(&namer, &ret) ||
	    map_rw(fd_out, BPF_MAP_LOOKUP_ELEM, out))
		return -errno;
	memcpy(name, out + 8, NAME_LEN);
	name[NAME_LEN - 1] = '\0';
	return 0;
}

/* Programs that %pS names "bpf_prog_TAG_fleet_I+0x0/SIZE" at their start. */
static int fleet_named(void)
{
	char name[NAME_LEN], want[32];
	int i, n = 0, err = namer_setup();

	if (err) {
		ksft_print_msg("cannot set up the %%pS helper program: %s\n", strerror(-err));
		return -1;
	}
	for (i = 0; i < nprogs; i++) {
		if (!progs[i].len || kernel_name(progs[i].addr, name))
			continue;
		snprintf(want, sizeof(want), "_fleet_%d+0x0/", i);
		if (!strncmp(name, "bpf_prog_", 9) && strstr(name, want)) {
			n++;
			continue;
		}
		if (i - n < 3)
			ksft_print_msg("%%pS of fleet_%d at %#lx is \"%s\"\n", i,
				       (unsigned long)progs[i].addr, name);
	}
	/* The helper must not keep a chunk alive after the fleet is gone. */
	close(fd_namer);
	close(fd_out);
	close(fd_fmt);
	return n;
}

/* The human report of the demo: where the fleet lives and how it is mapped. */
static void report(void)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	char line[512];
	FILE *f;
	int i;

	for (i = 0; i < nprogs; i++) {
		if (!progs[i].len)
			continue;
		if (progs[i].addr < lo)
			lo = progs[i].addr;
		if (progs[i].addr + progs[i].len > hi)
			hi = progs[i].addr + progs[i].len;
	}
	f = fopen("/proc/kallsyms", "r");
	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, " _etext\n") || strstr(line, " _stext\n"))
			ksft_print_msg("report: kallsyms %s", line);
	if (f)
		fclose(f);
	ksft_print_msg("report: BPF text spans %#lx-%#lx\n", (unsigned long)lo,
		       (unsigned long)hi);
	for (i = 0; i < nprogs && i < 3; i++)
		ksft_print_msg("report: fleet_%d at %#lx, %u bytes\n", i,
			       (unsigned long)progs[i].addr, progs[i].len);
	pt_load();
	for (i = 0; i < npt; i++)
		if (pt[i].end > lo && pt[i].start < hi)
			ksft_print_msg("report: page_tables %s\n", pt[i].text);
}

int main(int argc, char **argv)
{
	long dm4k[3], dm2m[3];
	int opt, want_report = 0, bench = 0, cycles = 0, loaded, i, j, bad, chunks0, chunks1, execmem = -1;
	int tail = 1, user = 0, cloned, nodes = 0, numa_ok = 1, split, aliases = 0, stats = 0;
	long ua[3] = { 0 }, ub[3] = { 0 }, want_bytes = 0, chunks_st[3] = { 0 };
	int users_bad = 0, trace_bad = 0;
	pid_t readers[NR_READERS];
	int readers_bad = 0;
	char *st;
	struct vm_count start, fleet, before, end, dump;
	long tlb, cal, tail_kb = 0;
	double ms[5];
	pid_t busy = -1;
	struct rlimit rl = { 2 * MAX_PROGS + 64, 2 * MAX_PROGS + 64 };	/* the fleet and numa_extra_load() */
	uint64_t pmd_bytes = 0, total = 0;
	FILE *f;

	while ((opt = getopt(argc, argv, "n:rbc:e:t:u:m:as")) != -1) {
		if (opt == 'a')
			aliases = 1;
		else if (opt == 's')
			stats = 1;
		else if (opt == 't')
			tail = !strcmp(optarg, "off") ? 0 : !strcmp(optarg, "on") ||
			       !strcmp(optarg, "unset") ? 1 : -1;
		else if (opt == 'u')
			user = !strcmp(optarg, "yes") ? 1 : !strcmp(optarg, "no") ||
			       !strcmp(optarg, "unset") ? 0 : -1;
		else if (opt == 'n')
			nprogs = atoi(optarg);
		else if (opt == 'm')
			nodes = !strcmp(optarg, "unset") ? 0 : atoi(optarg) > 0 ? atoi(optarg) : -1;
		else if (opt == 'e')
			execmem = !strcmp(optarg, "execmem") ? 1 : !strcmp(optarg, "plain") ? 0 : -1;
		else if (opt == 'r')
			want_report = 1;
		else if (opt == 'b')
			bench = 1;
		else if (opt == 'c')
			cycles = atoi(optarg) > 0 && atoi(optarg) <= 5 ? atoi(optarg) : -1;
	}
	if (nprogs < 1 || nprogs > MAX_PROGS)
		nprogs = 2000;
	for (i = 0; i < nprogs; i++)
		progs[i].fd = -1;

	ksft_print_header();
	if (execmem < 0 || tail < 0 || user < 0 || nodes < 0 || cycles < 0 ||
	    (nodes > 1 && (bench || cycles)))
		ksft_exit_fail_msg("bad expectation: -e execmem|plain, -t on|off, -u yes|no, "
				   "-m NODES (not with -b or -c), -c 1..5\n");
	ksft_set_plan(cycles ? 2 : 10 + user + (nodes > 1) + 4 * stats);
	if (nodes > 1) {
		numa_ok = numa_topology_ok(nodes);
		if (pin_to(0))
			numa_ok = 0;
	}
	/* The kallsyms check needs BPF programs in kallsyms. */
	f = fopen("/proc/sys/net/core/bpf_jit_kallsyms", "w");
	if (!f || fputs("1", f) < 0 || fclose(f))
		ksft_print_msg("cannot enable bpf_jit_kallsyms\n");
	if (setrlimit(RLIMIT_NOFILE, &rl))
		ksft_print_msg("setrlimit: %s\n", strerror(errno));
	if (execmem) {
		uint64_t etext = ksym_addr("_etext");

		/* What register_text_tail_vm() keeps instead of freeing. */
		tail_kb = (long)((((etext + (1 << 21) - 1) >> 21) << 21) -
				 (((etext + 4095) >> 12) << 12)) / 1024;
	}
	if (bench || cycles)
		busy = busy_cpu1();
	if (cycles) {
		bad = time_cycles(ms, 1) | time_cycles(ms, cycles);
		for (j = 0; j < cycles; j++)
			ksft_print_msg("metric: cycle_ms_%d %.0f\n", j, ms[j]);
		ksft_test_result(!bad, "cycles\n");
		if (busy > 0) {
			kill(busy, SIGKILL);
			waitpid(busy, NULL, 0);
		}
		sleep(2);	/* let the deferred frees finish */
		for (j = 0, bad = 0; j < cycles; j++) {
			ms[j] = two_loaders();
			bad |= ms[j] < 0;
			if (!bad)
				ksft_print_msg("metric: two_loaders_ps_%d %.0f\n", j, ms[j]);
			sleep(2);
		}
		ksft_test_result(!bad, "two_loaders\n");
		ksft_finished();
	}
	/* Loaded before DirectMap4k is read: loading a module changes it. */
	if (aliases && text_alias_ready())
		ksft_print_msg("no textalias.ko: the direct map's aliases cannot be told\n");
	/* The step before may still be freeing its programs (test_bpf's). */
	settle(INT_MAX, &start, "before the fleet");
	chunks0 = start.chunks;
	dm4k[0] = meminfo("DirectMap4k");
	dm2m[0] = meminfo("DirectMap2M");

	/* 1: load, with execmem's events on (-s) */
	if (stats) {
		users_bad |= users_bpf(&ua[0], &ub[0]);
		trace_bad |= execmem && trace_execmem(1);
		st = execstat_read("stats");
		chunks_st[0] = st ? execstat_stat(st, "chunks_created") : -1;
		free(st);
	}
	tlb = irq_count("TLB");
	cal = irq_count("CAL");
	load_all(&loaded);
	if (stats) {
		users_bad |= users_bpf(&ua[1], &ub[1]);
		for (i = 0; i < nprogs; i++)
			want_bytes += progs[i].fd >= 0 ? jit_bytes(progs[i].len) : 0;
		if (execmem)
			trace_bad |= trace_window_end("load", loaded, "execmem_alloc", "execmem_free",
						      "execmem_chunk_create", "chunks_created",
						      chunks_st[0]);
		ksft_print_msg("load: user bpf %+ld allocations and %+ld bytes for %d programs, whose images take %ld bytes\n",
			       ua[1] - ua[0], ub[1] - ub[0], loaded, want_bytes);
		if (execmem)
			users_bad |= ua[1] - ua[0] != loaded || ub[1] - ub[0] != want_bytes;
		else
			users_bad |= users_empty();
	}
	ksft_print_msg("metric: tlb_shootdowns_load %ld\n", irq_count("TLB") - tlb);
	ksft_print_msg("metric: call_ipis_load %ld\n", irq_count("CAL") - cal);
	ksft_print_msg("loaded %d of %d programs\n", loaded, nprogs);
	ksft_test_result(loaded == nprogs, "load\n");

	/* 2: JIT'ed */
	for (i = 0, bad = 0; i < nprogs; i++)
		bad += progs[i].fd >= 0 && !progs[i].len;
	ksft_print_msg("%d programs not JIT'ed\n", bad);
	ksft_test_result(!bad && loaded, "jited\n");
	report_sizes();

	/* 3: run and check every return value */
	for (i = 0, bad = 0; i < nprogs; i++) {
		uint32_t ret = 0;

		if (progs[i].fd < 0 || run_one(&progs[i], &ret) || ret != progs[i].expect) {
			if (bad++ < 3)
				ksft_print_msg("fleet_%d returned %#x, expected %#x\n",
					       i, ret, progs[i].expect);
		}
	}
	ksft_print_msg("%d programs returned a wrong value\n", bad);
	ksft_test_result(!bad, "run\n");

	/* 4: kallsyms knows every program */
	i = fleet_in_kallsyms();
	ksft_print_msg("kallsyms lists %d of %d programs\n", i, nprogs);
	ksft_test_result(i == nprogs, "kallsyms\n");

	/* 5: the kernel names every program after it, wherever it is */
	i = fleet_named();
	ksft_print_msg("%%pS names %d of %d programs\n", i, nprogs);
	ksft_test_result(i == nprogs, "symbols\n");

	/* 5: placement */
	bad = check_placement(execmem, &pmd_bytes);
	split = aliases ? check_aliases(execmem) : 0;
	for (i = 0; i < nprogs; i++)
		total += progs[i].len;
	dm4k[1] = meminfo("DirectMap4k");
	dm2m[1] = meminfo("DirectMap2M");
	ksft_print_msg("metric: text_pages_4k %ld\n", distinct_pages(12));
	ksft_print_msg("metric: text_pages_2m %ld\n", distinct_pages(21));
	if (bench) {
		print_occupancy();
		dump_file("chunks");
	}
	ksft_print_msg("metric: text_pmd_permille %lu\n",
		       total ? (unsigned long)(pmd_bytes * 1000 / total) : 0);
	/* The %pS helper program, closed, is on its way out. */
	settle(start.progs + loaded, &fleet, "with the fleet loaded");
	chunks1 = fleet.chunks - chunks0;
	if (nodes > 1 && execmem &&
	    (fleet.on[0] - start.on[0] < chunks1 || fleet.on[1] != start.on[1])) {
		ksft_print_msg("loaded on node 0: %d new chunks, %d more on node 0, %d on node 1\n",
			       chunks1, fleet.on[0] - start.on[0], fleet.on[1] - start.on[1]);
		vm_read(&dump, 1);
		numa_ok = 0;
	}
	ksft_print_msg("metric: execmem_chunks_loaded %d\n", chunks1);
	ksft_print_msg("metric: text_tail_kb %ld\n", tail_kb);
	ksft_print_msg("metric: text_reserved_kb_load %ld\n", text_reserved_kb() + tail_kb);
	ksft_print_msg("metric: directmap4k_kb_load %ld\n", dm4k[1] - dm4k[0]);
	ksft_print_msg("metric: directmap2m_kb_load %ld\n", dm2m[1] - dm2m[0]);
	if (want_report)
		report();
	ksft_print_msg("%d programs not on ro+x %s mappings\n", bad,
		       execmem ? "pmd" : "kernel");
	if (execmem && tail && !first_in_text_tail()) {
		ksft_print_msg("fleet_0 is not in the text tail\n");
		bad++;
	}
	if (execmem && !tail && (i = in_text_tail()) != 0) {
		ksft_print_msg("%d programs in the text tail, which is off\n", i);
		bad++;
	}
	ksft_print_msg("metric: first_chunk %#llx\n", (unsigned long long)first_chunk());
	if (split)
		ksft_print_msg("the direct map's alias split for some of the images' pages\n");
	ksft_test_result(!bad && !split, "placement\n");
	if (user) {
		i = user_mapped(&cloned);
		if (i < 0 || !cloned)
			ksft_print_msg("%s\n", i < 0 ? "no current_user page-table dump (PTI off?)" :
				       "the user page tables do not map the kernel text");
		ksft_print_msg("%d programs mapped in the user page tables\n", i);
		ksft_test_result(i == 0 && cloned, "user_page_tables\n");
	}
	i = wx_mappings();
	ksft_print_msg("%d W+X mappings with the fleet loaded\n", i);
	ksft_test_result(i == 0, "no_wx\n");
	if (stats) {
		dump_file("chunks");
		dump_file("users");
		dump_file("stats");
		ksft_test_result(!check_chunks(execmem), "stats_chunks\n");
		readers_start(readers);
	}

	/* 6: unload, reload, run again (from the other node, with -m) */
	if (nodes > 1 && pin_to(1))
		numa_ok = 0;
	tlb = irq_count("TLB");
	cal = irq_count("CAL");
	unload_all();
	ksft_print_msg("metric: tlb_shootdowns_unload %ld\n", irq_count("TLB") - tlb);
	ksft_print_msg("metric: call_ipis_unload %ld\n", irq_count("CAL") - cal);
	/*
	 * With -m, the reload must find no node-0 chunk left but the spare:
	 * wait for the frees to be over, not for a count of chunks, and
	 * count the spare in, wherever it is.
	 */
	if (nodes > 1) {
		if (settle(start.progs, &before, "before the reload"))
			numa_ok = 0;
		ksft_print_msg("before the reload: %d chunks on node 0, %d on node 1; %d before the fleet (the spare: %+d, %+d)\n",
			       before.on[0], before.on[1], start.chunks,
			       before.on[0] - start.on[0], before.on[1] - start.on[1]);
	}
	load_all(&loaded);
	for (i = 0, bad = 0; i < nprogs; i++) {
		uint32_t ret = 0;

		bad += progs[i].fd < 0 || run_one(&progs[i], &ret) || ret != progs[i].expect;
	}
	dm4k[2] = meminfo("DirectMap4k");
	dm2m[2] = meminfo("DirectMap2M");
	if (stats)
		readers_bad = readers_end(readers);
	ksft_print_msg("metric: directmap4k_kb_reload %ld\n", dm4k[2] - dm4k[1]);
	ksft_print_msg("metric: directmap2m_kb_reload %ld\n", dm2m[2] - dm2m[1]);
	ksft_print_msg("reload: %d of %d loaded, %d wrong\n", loaded, nprogs, bad);
	/*
	 * The reload may fit in the text tail and the spare, wherever the
	 * spare is. Chunks it creates, and those of further programs loaded
	 * until one is created, must come from node 1.
	 */
	if (nodes > 1 && execmem && !numa_extra_load(&before))
		numa_ok = 0;
	ksft_test_result(loaded == nprogs && !bad, "reload\n");
	for (i = 0; i < nprogs; i++)
		prog_info(&progs[i]);	/* the reloaded images' addresses */
	bad = check_placement(execmem, &pmd_bytes);
	ksft_print_msg("reload: %d programs not on ro+x %s mappings\n", bad,
		       execmem ? "pmd" : "kernel");
	ksft_test_result(!bad, "placement_after_reload\n");
	if (stats)
		ksft_test_result(!readers_bad, "stats_readers\n");

	/*
	 * 7: everything unloaded gives back every execmem chunk the fleet
	 * made but the one empty chunk execmem keeps in reserve. 2000
	 * programs do not fit the text tail, so chunks must have shown in
	 * /proc/vmallocinfo while they were loaded; their leaving it is what
	 * "given back" means, checked on vmalloc's own books. Chunks held
	 * before the fleet stay: on Debian's config one holds the PTP
	 * classifier's cBPF filter, JIT'ed at boot before the text tail is
	 * given to execmem.
	 */
	if (nodes > 1 && pin_to(0))
		numa_ok = 0;
	if (stats && execmem) {
		/* Nothing but this unload in the window: numa's extras gone. */
		trace_bad |= settle(start.progs + loaded, &end, "before the unload") ||
			     trace_execmem(1);
		st = execstat_read("stats");
		chunks_st[2] = st ? execstat_stat(st, "chunks_released") : -1;
		free(st);
	}
	unload_all();
	/* Deferred frees take longer on slow kernels (KASAN under TCG). */
	i = settle(start.progs, &end, "after unload");
	users_bad |= stats && i;
	trace_bad |= stats && i;
	if (stats) {
		/* bpf_jit_free() gives the text back before the program goes. */
		users_bad |= users_bpf(&ua[2], &ub[2]);
		ksft_print_msg("after unload: user bpf %ld allocations and %ld bytes, %ld and %ld before the fleet\n",
			       ua[2], ub[2], ua[0], ub[0]);
		users_bad |= ua[2] != ua[0] || ub[2] != ub[0];
		ksft_test_result(!users_bad, "stats_users\n");
	}
	if (stats && execmem) {
		trace_bad |= trace_window_end("unload", loaded, "execmem_free", "execmem_alloc",
					      "execmem_chunk_release", "chunks_released",
					      chunks_st[2]);
		st = execstat_read("stats");
		ksft_print_msg("metric: chunk_line_max_ns %ld\n",
			       st ? execstat_stat(st, "chunk_line_max_ns") : -1);
		free(st);
		ksft_test_result(!trace_bad, "stats_trace\n");
	} else if (stats) {
		skip_named("stats_trace", "BPF does not use execmem on this kernel or arch");
	}
	i = end.chunks - chunks0;
	ksft_print_msg("metric: execmem_chunks_after_unload %d\n", i);
	ksft_print_msg("metric: text_reserved_kb_unload %ld\n", text_reserved_kb() + tail_kb);
	if (!execmem) {
		skip_named("chunks_given_back", "BPF does not use execmem on this kernel or arch");
	} else {
		if (chunks1 <= 0)
			ksft_print_msg("no execmem chunk in /proc/vmallocinfo with the fleet loaded\n");
		if (i > EXECMEM_SPARES) {
			ksft_print_msg("%d chunks more than before the fleet held after unload, at most %d expected\n",
				       i, EXECMEM_SPARES);
			vm_read(&dump, 1);
		}
		ksft_test_result(chunks1 > 0 && i <= EXECMEM_SPARES, "chunks_given_back\n");
	}
	if (nodes > 1)
		ksft_test_result(numa_ok, "numa\n");

	/* Benchmark: load, run and close everything, five times. */
	if (bench) {
		time_cycles(ms, 5);
		qsort(ms, 5, sizeof(ms[0]), cmp_double);
		ksft_print_msg("metric: load_run_unload_ms %.0f\n", ms[2]);
	}
	if (busy > 0) {
		kill(busy, SIGKILL);
		waitpid(busy, NULL, 0);
	}
	ksft_finished();
}
