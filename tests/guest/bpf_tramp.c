// SPDX-License-Identifier: GPL-2.0
/*
 * BPF trampolines, attached, run, detached and attached again.
 *
 * An fentry and an fexit program are attached to a BPF program (a socket
 * filter that returns 42), which needs no BTF of the kernel's: the target
 * brings its own, loaded here by hand. Attaching the first program makes
 * BPF build a trampoline for the target; attaching the second builds
 * another, which also calls the target's body and so has the two spots
 * BPF patches when it retires the image; detaching builds others again.
 * Each round loads a new pair (6.1 attaches a tracing program to a BPF
 * program only once), and:
 *   - the target runs (BPF_PROG_TEST_RUN) RUNS times; each run must bump
 *     the fentry and the fexit counter once, return 42, and the fexit
 *     program must have seen 42 as the return value;
 *   - while both are attached, every trampoline kallsyms lists
 *     (bpf_trampoline_*) must be read-only and executable in the kernel's
 *     page-table dump, and with execmem on a PMD mapping, where execmem's
 *     bpf_trampoline user must hold under 1 KiB an allocation (sized to
 *     fit, not a page each);
 *   - once both are detached, runs must bump neither counter.
 * With execmem, DirectMap4k must not grow over the rounds.
 *
 * Usage: bpf_tramp -e execmem|plain [-n ROUNDS] [-b TARGETS | -k [-m MODULE]]
 *   -e: what the host expects (see bpf_fleet): "execmem" for trampolines
 *       on execmem (PMD mappings, the direct map left alone)
 *   -k: on a kernel function instead, with fmod_ret too (kernel_funcs()),
 *       which needs the kernel's BTF; -m: with the IPMODIFY kprobe of
 *       that module (in /modules) beside the programs
 *   -b: benchmark, for make bench: TARGETS targets with one fentry
 *       program each, so as many trampolines, attached one by one (each
 *       attach timed), run, and detached all at once (timed), in one
 *       round; the same results, and "metric:" lines: the trampolines'
 *       distinct 4K pages and 2M regions, the pages on 4K mappings, the
 *       DirectMap4k growth, the median attach and the detach per program
 *       (ns of the guest's clock, which counts instructions under icount)
 *
 * Output is TAP through the kernel's kselftest.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/btf.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "kselftest.h"
#include "bpfsys.h"
#include "execstat.h"
#include "kmodload.h"
#include "meminfo.h"
#include "ptdump.h"
#include "textpages.h"
#include "owntext.h"

#define TARGET_RET	42
#define RUNS		10

/* What the tracing programs count, in the one entry of their map. */
struct counts {
	uint64_t fentry, fexit, retval;
};

static char vlog[16384];

/*
 * BTF for the target: int tramp_target(void *ctx), as a static function.
 * Types: [1] int, [2] void *, [3] int (void *ctx), [4] the function.
 */
static int btf_load(void)
{
	static const char strs[] = "\0int\0ctx\0tramp_target";
	struct {
		struct btf_header hdr;
		uint32_t data[16 + sizeof(strs) / 4 + 1];	/* types, then strings */
	} b;
	uint32_t *t = b.data;
	union bpf_attr attr;

	/* [1] int: signed, 32 bits */
	*t++ = 1; *t++ = BTF_KIND_INT << 24; *t++ = 4; *t++ = BTF_INT_SIGNED << 24 | 32;
	/* [2] void * */
	*t++ = 0; *t++ = BTF_KIND_PTR << 24; *t++ = 0;
	/* [3] int (void *ctx) */
	*t++ = 0; *t++ = BTF_KIND_FUNC_PROTO << 24 | 1; *t++ = 1;
	*t++ = 5; *t++ = 2;
	/* [4] static int tramp_target(void *ctx) */
	*t++ = 9; *t++ = BTF_KIND_FUNC << 24 | BTF_FUNC_STATIC; *t++ = 3;

	memset(&b.hdr, 0, sizeof(b.hdr));
	b.hdr.magic = BTF_MAGIC;
	b.hdr.version = BTF_VERSION;
	b.hdr.hdr_len = sizeof(b.hdr);
	b.hdr.type_len = (t - b.data) * sizeof(*t);
	b.hdr.str_off = b.hdr.type_len;
	b.hdr.str_len = sizeof(strs);
	memcpy(t, strs, sizeof(strs));

	memset(&attr, 0, sizeof(attr));
	attr.btf = (uintptr_t)&b;
	attr.btf_size = sizeof(b.hdr) + b.hdr.type_len + b.hdr.str_len;
	attr.btf_log_buf = (uintptr_t)vlog;
	attr.btf_log_size = sizeof(vlog);
	attr.btf_log_level = 1;
	return sys_bpf(BPF_BTF_LOAD, &attr);
}

static int prog_load(union bpf_attr *attr, const struct bpf_insn *insns, int n)
{
	attr->insns = (uintptr_t)insns;
	attr->insn_cnt = n;
	attr->license = (uintptr_t)"GPL";
	attr->log_buf = (uintptr_t)vlog;
	attr->log_size = sizeof(vlog);
	attr->log_level = 1;
	vlog[0] = '\0';
	return sys_bpf(BPF_PROG_LOAD, attr);
}

/* r0 = 42; exit, with BTF for its one function. */
static int target_load(int btf_fd)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .imm = TARGET_RET },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	const struct bpf_func_info fi = { .insn_off = 0, .type_id = 4 };
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.prog_btf_fd = btf_fd;
	attr.func_info = (uintptr_t)&fi;
	attr.func_info_cnt = 1;
	attr.func_info_rec_size = sizeof(fi);
	strcpy(attr.prog_name, "tramp_target");
	return prog_load(&attr, insns, 2);
}

#define INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) })

/*
 * The body of every tracing program here, into @insns (room for 16):
 * add one to the u64 at @count in the entry of @map; if @ctx_off is not
 * negative, copy the u64 of the context at @ctx_off to @keep in the
 * entry; return the entry's u64 at @ret, or 0 if @ret is negative.
 * Returns the number of instructions.
 */
static int counter_emit(struct bpf_insn *insns, int map, int count, int ctx_off, int keep,
			int ret)
{
	struct bpf_insn *p = insns, *jeq;

	*p++ = INSN(BPF_ALU64 | BPF_MOV | BPF_X, 6, 1, 0, 0);		/* r6 = ctx */
	*p++ = INSN(BPF_ST | BPF_MEM | BPF_W, 10, 0, -4, 0);		/* key = 0 */
	*p++ = INSN(BPF_ALU64 | BPF_MOV | BPF_X, 2, 10, 0, 0);
	*p++ = INSN(BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, -4);
	*p++ = INSN(BPF_LD | BPF_DW | BPF_IMM, 1, BPF_PSEUDO_MAP_FD, 0, map);
	*p++ = INSN(0, 0, 0, 0, 0);
	*p++ = INSN(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_map_lookup_elem);
	jeq = p++;							/* if (!r0) */
	*p++ = INSN(BPF_ALU64 | BPF_MOV | BPF_K, 1, 0, 0, 1);
	*p++ = INSN(BPF_STX | BPF_ATOMIC | BPF_DW, 0, 1, count, BPF_ADD);
	if (ctx_off >= 0) {
		*p++ = INSN(BPF_LDX | BPF_MEM | BPF_DW, 1, 6, ctx_off, 0);
		*p++ = INSN(BPF_STX | BPF_MEM | BPF_DW, 0, 1, keep, 0);
	}
	if (ret >= 0) {
		*p++ = INSN(BPF_LDX | BPF_MEM | BPF_DW, 0, 0, ret, 0);
		*p++ = INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	}
	*jeq = INSN(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, p - jeq - 1, 0);	/*   goto here */
	*p++ = INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0);
	*p++ = INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	return p - insns;
}

/*
 * A tracing program of @type, named @name, on function @btf_id: of the
 * BPF program @target's BTF, or of the kernel's if @target is 0.
 */
static int tracing_load(int type, const char *name, int target, int btf_id,
			const struct bpf_insn *insns, int n)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_TRACING;
	attr.expected_attach_type = type;
	attr.attach_prog_fd = target;
	attr.attach_btf_id = btf_id;
	strncpy(attr.prog_name, name, sizeof(attr.prog_name) - 1);
	return prog_load(&attr, insns, n);
}

/*
 * An fentry or fexit program on @target that adds one to its counter; the
 * fexit one also keeps the return value, which its context holds after the
 * arguments, at @ret_off.
 */
static int tracer_load(int target, int map, int fexit, int ret_off)
{
	struct bpf_insn insns[16];
	int n;

	if (fexit)
		n = counter_emit(insns, map, offsetof(struct counts, fexit), ret_off,
				 offsetof(struct counts, retval), -1);
	else
		n = counter_emit(insns, map, offsetof(struct counts, fentry), -1, 0, -1);
	return tracing_load(fexit ? BPF_TRACE_FEXIT : BPF_TRACE_FENTRY,
			    fexit ? "tramp_fexit" : "tramp_fentry", target, 4, insns, n);
}

/*
 * The fexit program: where its return value is depends on the model BPF
 * made of the target. Without the kernel's BTF it cannot check that
 * "void *ctx" is the socket filter's context, and then takes the target
 * to have five u64 arguments (the value at 40); if it did check, the
 * value is right after the one argument (at 8). Offsets past the model
 * fail to load, so the first that loads is the right one.
 */
static int fexit_load(int target, int map)
{
	static const int offs[] = { 5 * 8, 1 * 8 };
	unsigned int i;
	int fd = -1;

	for (i = 0; fd < 0 && i < sizeof(offs) / sizeof(offs[0]); i++)
		fd = tracer_load(target, map, 1, offs[i]);
	return fd;
}

/*
 * A new pair of tracers on @target: 6.1 attaches a tracing program to a
 * BPF program only once, to the target it was loaded for, so each round
 * loads its own. 0, or -1 after saying why.
 */
static int tracers_load(int target, int map, int *fentry, int *fexit)
{
	*fentry = tracer_load(target, map, 0, 0);
	if (*fentry < 0) {
		ksft_print_msg("fentry: %s\n%s", strerror(errno), vlog);
		return -1;
	}
	*fexit = fexit_load(target, map);
	if (*fexit < 0) {
		ksft_print_msg("fexit: %s\n%s", strerror(errno), vlog);
		close(*fentry);
		return -1;
	}
	return 0;
}

static int attach(int prog)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.raw_tracepoint.prog_fd = prog;
	return sys_bpf(BPF_RAW_TRACEPOINT_OPEN, &attr);
}

/* Run @target @runs times; 0 if it returned 42 each time. */
static int run_target(int target, int runs)
{
	unsigned char pkt[64] = { 0 };
	union bpf_attr attr;
	int i;

	for (i = 0; i < runs; i++) {
		memset(&attr, 0, sizeof(attr));
		attr.test.prog_fd = target;
		attr.test.data_in = (uintptr_t)pkt;
		attr.test.data_size_in = sizeof(pkt);
		attr.test.repeat = 1;
		if (sys_bpf(BPF_PROG_TEST_RUN, &attr))
			return -errno;
		if (attr.test.retval != TARGET_RET) {
			ksft_print_msg("the target returned %u\n", attr.test.retval);
			return -EIO;
		}
	}
	return 0;
}

/*
 * A trampoline's image: "bpf_trampoline_KEY [bpf]". The kernel's own
 * functions of that prefix (bpf_trampoline_update() and the like) have
 * no module.
 */
static int is_trampoline(const char *sym, const char *mod)
{
	return !strcmp(mod, "[bpf]") && !strncmp(sym, "bpf_trampoline_", 15);
}

static void tramp_misplaced(const char *sym, unsigned long long addr, const char *how)
{
	ksft_print_msg("%s at %#llx: %s\n", sym, addr, how);
}

/*
 * Trampolines whose pages' direct-map aliases were looked at, and were
 * split (or not known); and of the last look, those split.
 */
static int alias_seen, alias_split, alias_pte_last = -1;
/* Whether anything can tell the aliases: not on a kernel without modules. */
static int alias_judged = 1;

/*
 * The direct map's alias of the first page of each trampoline kallsyms
 * lists (kallsyms gives no sizes): split to 4K where the base kernel made
 * the page read-only, left alone on execmem. Counted for
 * directmap_result().
 */
static void tramp_aliases(int want_pmd)
{
	char why[512], *ranges = text_symbol_ranges(is_trampoline);
	struct own_text ot;
	own_text_alias_fn lookup = text_alias_lookup();

	if (!ranges)
		ksft_exit_fail_msg("out of memory\n");
	own_text_judge(ranges, want_pmd, lookup, &ot, why, sizeof(why));
	ksft_print_msg("trampolines' first pages: %s\n", why);
	free(ranges);
	if (!lookup) {
		alias_judged = 0;
		return;
	}
	alias_seen += ot.pages;
	alias_split += ot.alias_pte + ot.alias_unknown;
	/* A figure only where every page was told. */
	alias_pte_last = ot.pages && !ot.alias_unknown ? ot.alias_pte : -1;
}

/* The trampolines kallsyms lists, and where they are. */
static void tramp_pages(int want_pmd, struct text_pages *tp)
{
	text_pages_scan(want_pmd, tp, is_trampoline, tramp_misplaced);
	ksft_print_msg("%d trampolines in %d pages, %d 2M regions, %d pages on 4K mappings, %d misplaced\n",
		       tp->symbols, tp->pages, tp->regions, tp->pte, tp->misplaced);
	tramp_aliases(want_pmd);
}

/*
 * Where trampolines are on execmem, DirectMap4k must not have grown, and
 * no trampoline's page may have had its direct-map alias split. The
 * counter alone cannot fail on the base kernel, whose earlier module
 * loads have split the regions its trampolines' pages come from; the
 * aliases can.
 */
static void directmap_result(const long dm4k[2], int want_pmd)
{
	if (dm4k[0] < 0) {
		skip_named("directmap", "no DirectMap counters in /proc/meminfo here");
		return;
	}
	if (want_pmd && alias_judged)
		ksft_print_msg("DirectMap4k %ld kB then %ld kB; %d trampoline pages looked at, %d with the alias split or not known\n",
			       dm4k[0], dm4k[1], alias_seen, alias_split);
	else if (want_pmd)
		ksft_print_msg("DirectMap4k %ld kB then %ld kB; no modules, so nothing tells the aliases\n",
			       dm4k[0], dm4k[1]);
	ksft_test_result(!want_pmd || (dm4k[1] == dm4k[0] &&
				       (!alias_judged || (alias_seen && !alias_split))),
			 "directmap\n");
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? -1 : x > y;
}

/*
 * make bench: @n targets with an fentry program each, attached one at a
 * time, run once each, and detached.
 */
static void bench(int btf, int map, int n, int want_pmd)
{
	int *target = calloc(n, sizeof(int)), *prog = calloc(n, sizeof(int));
	int *link = calloc(n, sizeof(int)), i, ok_load = 1, ok_attach = 1, ok_detach = 1;
	long long *ns = calloc(n, sizeof(long long)), t;
	struct rlimit rl = { 3 * n + 64, 3 * n + 64 };
	struct counts c = { 0 };
	struct text_pages tp;
	long dm4k[2];

	if (!target || !prog || !link || !ns)
		ksft_exit_fail_msg("out of memory\n");
	if (setrlimit(RLIMIT_NOFILE, &rl))
		ksft_print_msg("setrlimit: %s\n", strerror(errno));
	for (i = 0; ok_load && i < n; i++) {
		target[i] = target_load(btf);
		prog[i] = target[i] < 0 ? -1 : tracer_load(target[i], map, 0, 0);
		if (prog[i] < 0) {
			ksft_print_msg("target %d: %s\n%s", i, strerror(errno), vlog);
			ok_load = 0;
		}
	}
	ksft_test_result(ok_load, "load\n");
	if (!ok_load)
		ksft_exit_fail();

	dm4k[0] = meminfo("DirectMap4k");
	map_rw(map, BPF_MAP_UPDATE_ELEM, &c);
	for (i = 0; i < n; i++) {
		t = now_ns();
		link[i] = attach(prog[i]);
		ns[i] = now_ns() - t;
		if (link[i] < 0 && ok_attach) {
			ksft_print_msg("attach %d: %s\n", i, strerror(errno));
			ok_attach = 0;
		}
	}
	ksft_test_result(ok_attach, "attach\n");
	for (i = 0; i < n && !run_target(target[i], 1); i++)
		;
	map_rw(map, BPF_MAP_LOOKUP_ELEM, &c);
	if (i < n || c.fentry != (uint64_t)n)
		ksft_print_msg("%d targets run once each: fentry counted %llu\n", i,
			       (unsigned long long)c.fentry);
	ksft_test_result(i == n && c.fentry == (uint64_t)n, "run\n");
	tramp_pages(want_pmd, &tp);
	ksft_test_result(tp.symbols == n && !tp.misplaced, "placement\n");
	t = now_ns();
	for (i = 0; i < n; i++)
		close(link[i]);
	t = now_ns() - t;
	memset(&c, 0, sizeof(c));
	map_rw(map, BPF_MAP_UPDATE_ELEM, &c);
	for (i = 0; i < n && !run_target(target[i], 1); i++)
		;
	map_rw(map, BPF_MAP_LOOKUP_ELEM, &c);
	ok_detach = i == n && !c.fentry;
	ksft_test_result(ok_detach, "detach\n");
	dm4k[1] = meminfo("DirectMap4k");

	qsort(ns, n, sizeof(*ns), cmp_ll);
	ksft_print_msg("metric: tramp_pages %d\n", tp.pages);
	ksft_print_msg("metric: tramp_regions_2m %d\n", tp.regions);
	ksft_print_msg("metric: tramp_pages_pte %d\n", tp.pte);
	if (alias_pte_last >= 0)
		ksft_print_msg("metric: tramp_alias_pte %d\n", alias_pte_last);
	ksft_print_msg("metric: tramp_directmap4k_growth_kb %ld\n", dm4k[1] - dm4k[0]);
	ksft_print_msg("metric: tramp_attach_ns %lld\n", ns[n / 2]);
	ksft_print_msg("metric: tramp_detach_ns %lld\n", t / n);
	directmap_result(dm4k, want_pmd);
}

/*
 * The id of the kernel's function @name in its BTF (/sys/kernel/btf/vmlinux):
 * 0 if the kernel has none or no such function, -1 if it cannot be read.
 */
static int kernel_func_id(const char *name)
{
	FILE *f = fopen("/sys/kernel/btf/vmlinux", "r");
	const struct btf_header *h;
	const char *strs;
	unsigned char *buf = NULL, *p, *end;
	size_t len = 0, got;
	int id = 0, n;

	if (!f)
		return 0;
	do {
		buf = realloc(buf, len + (1 << 20));
		if (!buf)
			ksft_exit_fail_msg("out of memory\n");
		got = fread(buf + len, 1, 1 << 20, f);
		len += got;
	} while (got);
	fclose(f);
	h = (const void *)buf;
	if (len < sizeof(*h) || h->magic != BTF_MAGIC ||
	    (size_t)h->hdr_len + h->str_off + h->str_len > len ||
	    (size_t)h->hdr_len + h->type_off + h->type_len > len) {
		free(buf);
		return -1;
	}
	strs = (const char *)buf + h->hdr_len + h->str_off;
	p = buf + h->hdr_len + h->type_off;
	end = p + h->type_len;
	for (n = 1; p + sizeof(struct btf_type) <= end; n++) {
		const struct btf_type *t = (const void *)p;
		int vlen = BTF_INFO_VLEN(t->info);

		p += sizeof(*t);
		switch (BTF_INFO_KIND(t->info)) {
		case BTF_KIND_INT: case BTF_KIND_VAR: case BTF_KIND_DECL_TAG:
			p += 4;
			break;
		case BTF_KIND_ARRAY:
			p += sizeof(struct btf_array);
			break;
		case BTF_KIND_STRUCT: case BTF_KIND_UNION:
			p += vlen * sizeof(struct btf_member);
			break;
		case BTF_KIND_ENUM:
			p += vlen * sizeof(struct btf_enum);
			break;
		case BTF_KIND_ENUM64:
			p += vlen * sizeof(struct btf_enum64);
			break;
		case BTF_KIND_FUNC_PROTO:
			p += vlen * sizeof(struct btf_param);
			break;
		case BTF_KIND_DATASEC:
			p += vlen * sizeof(struct btf_var_secinfo);
			break;
		case BTF_KIND_PTR: case BTF_KIND_FWD: case BTF_KIND_TYPEDEF:
		case BTF_KIND_VOLATILE: case BTF_KIND_CONST: case BTF_KIND_RESTRICT:
		case BTF_KIND_FLOAT: case BTF_KIND_TYPE_TAG:
			break;
		case BTF_KIND_FUNC:
			if (t->name_off < h->str_len && !strcmp(strs + t->name_off, name))
				id = n;
			break;
		default:
			ksft_print_msg("BTF: type %d has kind %d, unknown here\n", n,
				       BTF_INFO_KIND(t->info));
			id = -1;
		}
		if (id)
			break;
	}
	free(buf);
	return id;
}

/*
 * Kernel functions (-k), with the kernel's BTF: an fentry, an fmod_ret
 * and an fexit program on bpf_modify_return_test(a, b), which adds one
 * to *b and returns a + *b. BPF_PROG_TEST_RUN of the fmod_ret program
 * calls it with (1, &2) and reports ((*b changed) << 16 | return value):
 * 0x10004 as it is. The fmod_ret program returns the map's verdict: 0
 * lets the function run, 42 replaces it (0x0002a, *b untouched). The
 * fexit program sees what the caller gets.
 *
 * With -m MODULE (ipmodify_kprobe.ko, tests/kmod), a kprobe that may
 * modify the IP shares the function in rounds two and three, which
 * sends BPF down its other paths through ftrace: armed before the
 * programs attach in round two (ftrace refuses BPF's first direct call,
 * and BPF builds the trampoline again with other flags), and armed
 * while they are attached in round three (ftrace has BPF rebuild the
 * live trampoline, and again when the probe goes, before they detach).
 * The probe must see every call while it is armed.
 */
#define KFUNC		"bpf_modify_return_test"
#define KFUNC_PLAIN	(1 << 16 | 4)
#define KFUNC_VERDICT	42

struct kcounts {
	uint64_t fentry, fmod_ret, fexit;
	uint64_t arg;		/* fentry: the first argument */
	uint64_t retval;	/* fexit: the return value */
	uint64_t verdict;	/* what fmod_ret returns */
};

/* Run the function @RUNS times through @prog; 0 if each reported @want. */
static int run_kfunc(int prog, uint32_t want)
{
	union bpf_attr attr;
	int i;

	for (i = 0; i < RUNS; i++) {
		memset(&attr, 0, sizeof(attr));
		attr.test.prog_fd = prog;
		if (sys_bpf(BPF_PROG_TEST_RUN, &attr))
			return -errno;
		if (attr.test.retval != want) {
			ksft_print_msg("%s reported %#x, not %#x\n", KFUNC, attr.test.retval, want);
			return -EIO;
		}
	}
	return 0;
}

/*
 * One pass of RUNS calls with @verdict in the map: 0 if the function
 * reported what it should, and the programs ran RUNS times each and saw
 * the argument (1) and the return value they should. @attached: whether
 * the programs are; if not, nothing may count.
 */
static int kfunc_pass(int map, int modret, uint64_t verdict, int attached, const char *when)
{
	uint64_t want_ret = verdict ? verdict : (KFUNC_PLAIN & 0xffff);
	struct kcounts c = { .verdict = verdict };
	uint64_t runs = attached ? RUNS : 0;

	if (map_rw(map, BPF_MAP_UPDATE_ELEM, &c) ||
	    run_kfunc(modret, attached && verdict ? verdict : KFUNC_PLAIN) ||
	    map_rw(map, BPF_MAP_LOOKUP_ELEM, &c))
		return -1;
	if (c.fentry != runs || c.fmod_ret != runs || c.fexit != runs ||
	    (attached && (c.arg != 1 || (uint32_t)c.retval != want_ret))) {
		ksft_print_msg("%s, verdict %llu, %d runs: fentry %llu (argument %llu), fmod_ret %llu, fexit %llu (return value %llu)\n",
			       when, (unsigned long long)verdict, RUNS,
			       (unsigned long long)c.fentry, (unsigned long long)c.arg,
			       (unsigned long long)c.fmod_ret, (unsigned long long)c.fexit,
			       (unsigned long long)c.retval);
		return -1;
	}
	return 0;
}

static const char *const kfunc_results[] = {
	"load", "attach", "run", "placement", "detach", "reattach", "ipmodify", "directmap",
	"max_links",
};

/*
 * The most links one trampoline takes (BPF_MAX_TRAMP_LINKS, 38 in 6.1),
 * all fmod_ret programs with a cookie each: the largest trampoline the
 * x86 generator writes, close to a page. Each is attached with
 * BPF_LINK_CREATE, which builds the trampoline again every time; then
 * every call must run all of them and the function itself, the
 * trampoline must be placed as any other, and one link more must be
 * refused with E2BIG. Run on the debug kernel too, where KASAN watches
 * the generator's buffers.
 */
#define MAX_LINKS	38

static void max_links(int id, int want_pmd)
{
	int prog[MAX_LINKS + 1], link[MAX_LINKS + 1], map, i, n, ok = 1, over;
	struct kcounts c = { 0 };
	struct bpf_insn insns[16];
	union bpf_attr attr;
	struct text_pages tp;

	map = map_create(sizeof(struct kcounts), 0);
	n = counter_emit(insns, map, offsetof(struct kcounts, fmod_ret), -1, 0,
			 offsetof(struct kcounts, verdict));
	for (i = 0; i <= MAX_LINKS; i++) {
		prog[i] = map < 0 ? -1 : tracing_load(BPF_MODIFY_RETURN, "kfunc_max", 0, id,
						      insns, n);
		link[i] = -1;
		if (prog[i] < 0) {
			ksft_print_msg("max_links: loading program %d: %s\n", i, strerror(errno));
			ok = 0;
		}
	}
	for (i = 0; ok && i <= MAX_LINKS; i++) {
		memset(&attr, 0, sizeof(attr));
		attr.link_create.prog_fd = prog[i];
		attr.link_create.attach_type = BPF_MODIFY_RETURN;
		/* Above 4G: each takes a 10-byte movabs to store. */
		attr.link_create.tracing.cookie = 0x100000000ULL + i;
		link[i] = sys_bpf(BPF_LINK_CREATE, &attr);
		over = i == MAX_LINKS;
		if (link[i] < 0 && !(over && errno == E2BIG)) {
			ksft_print_msg("max_links: link %d: %s\n", i + 1, strerror(errno));
			ok = 0;
		} else if (link[i] >= 0 && over) {
			ksft_print_msg("max_links: link %d was accepted\n", i + 1);
			ok = 0;
		}
	}
	if (ok && (map_rw(map, BPF_MAP_UPDATE_ELEM, &c) || run_kfunc(prog[0], KFUNC_PLAIN) ||
		   map_rw(map, BPF_MAP_LOOKUP_ELEM, &c) || c.fmod_ret != MAX_LINKS * RUNS)) {
		ksft_print_msg("max_links: %d runs through %d programs counted %llu\n", RUNS,
			       MAX_LINKS, (unsigned long long)c.fmod_ret);
		ok = 0;
	}
	if (ok) {
		tramp_pages(want_pmd, &tp);
		ok = tp.symbols && !tp.misplaced;
	}
	for (i = 0; i <= MAX_LINKS; i++) {
		if (link[i] >= 0)
			close(link[i]);
		if (prog[i] >= 0)
			close(prog[i]);
	}
	if (map >= 0)
		close(map);
	ksft_test_result(ok, "max_links\n");
}

/* The IPMODIFY kprobe of -m: its module's name, and what went wrong with it. */
struct ipmodify {
	char name[64];
	int ok;
};

/* Arm (1) or disarm (0) the probe; on disarming, it must have seen @calls. */
static void ipmodify_set(struct ipmodify *im, int arm, long calls, int round)
{
	long hits = arm ? 0 : module_param_read(im->name, "hits");
	int ret;

	if (!arm && hits != calls) {
		ksft_print_msg("round %d: the IPMODIFY kprobe saw %ld calls, not %ld\n", round, hits,
			       calls);
		im->ok = 0;
	}
	ret = module_param_write(im->name, "armed", arm ? "1" : "0");
	if (ret) {
		ksft_print_msg("round %d: %s the IPMODIFY kprobe: %s\n", round,
			       arm ? "arming" : "disarming", strerror(-ret));
		im->ok = 0;
	}
}

static void kernel_funcs(int rounds, int want_pmd, const char *module)
{
	static const struct {
		int type, count, ctx_off, keep, ret;
		const char *name;
	} kinds[] = {
		{ BPF_TRACE_FENTRY, offsetof(struct kcounts, fentry), 0,
		  offsetof(struct kcounts, arg), -1, "kfunc_fentry" },
		{ BPF_MODIFY_RETURN, offsetof(struct kcounts, fmod_ret), -1, 0,
		  offsetof(struct kcounts, verdict), "kfunc_fmod_ret" },
		/* after the two arguments, the return value */
		{ BPF_TRACE_FEXIT, offsetof(struct kcounts, fexit), 16,
		  offsetof(struct kcounts, retval), -1, "kfunc_fexit" },
	};
	int id = kernel_func_id(KFUNC), map, prog[3], link[3], i, r;
	int ok_attach = 1, ok_run = 1, ok_place = 1, ok_detach = 1, ok_reattach = 1;
	/* fmod_ret first: ftrace checks a trampoline that calls the function. */
	static const int order[3] = { 1, 2, 0 };
	struct ipmodify ipm = { .ok = 1 };
	struct bpf_insn insns[16];
	struct text_pages tp;
	long dm4k[2];

	if (id <= 0) {
		for (i = 0; i < (int)(sizeof(kfunc_results) / sizeof(kfunc_results[0])); i++)
			skip_named(kfunc_results[i], id ? "the kernel's BTF cannot be read" :
				   "no vmlinux BTF (CONFIG_DEBUG_INFO_BTF)");
		return;
	}
	map = map_create(sizeof(struct kcounts), 0);
	for (i = 0; i < 3; i++) {
		int n = counter_emit(insns, map, kinds[i].count, kinds[i].ctx_off,
				     kinds[i].keep, kinds[i].ret);

		prog[i] = map < 0 ? -1 : tracing_load(kinds[i].type, kinds[i].name, 0, id, insns, n);
		if (prog[i] < 0) {
			ksft_test_result_fail("load\n");
			ksft_exit_fail_msg("%s on %s (BTF id %d): %s\n%s", kinds[i].name, KFUNC, id,
					   strerror(errno), vlog);
		}
	}
	ksft_test_result_pass("load\n");

	if (module) {
		int areas = module_areas(), ret = load_module(module, "");

		snprintf(ipm.name, sizeof(ipm.name), "%.*s", (int)strcspn(module, "."), module);
		if (ret || module_init_freed(areas)) {
			ksft_print_msg("insmod %s: %s\n", module, ret ? strerror(-ret) :
				       "its init sections were not freed in time");
			module = NULL;
			ipm.ok = 0;
		}
	}
	dm4k[0] = meminfo("DirectMap4k");
	for (r = 1; r <= rounds; r++) {
		int *ok = r == 1 ? &ok_attach : &ok_reattach;
		char when[32];

		if (module && r == 2)
			ipmodify_set(&ipm, 1, 0, r);
		for (i = 0; i < 3; i++) {
			link[order[i]] = attach(prog[order[i]]);
			if (link[order[i]] < 0) {
				ksft_print_msg("round %d: attaching %s: %s\n", r,
					       kinds[order[i]].name, strerror(errno));
				*ok = 0;
			}
		}
		if (module && r == 3)
			ipmodify_set(&ipm, 1, 0, r);
		snprintf(when, sizeof(when), "round %d, attached", r);
		if (kfunc_pass(map, prog[1], 0, 1, when) ||
		    kfunc_pass(map, prog[1], KFUNC_VERDICT, 1, when))
			*ok = ok_run = 0;
		tramp_pages(want_pmd, &tp);
		if (!tp.symbols || tp.misplaced)
			ok_place = 0;
		if (module && r == 3) {
			/* The trampoline is rebuilt once more: it must still work. */
			ipmodify_set(&ipm, 0, 2 * RUNS, r);
			if (kfunc_pass(map, prog[1], KFUNC_VERDICT, 1, "round 3, probe gone"))
				*ok = ok_run = 0;
		}
		for (i = 0; i < 3; i++)
			if (link[i] >= 0)
				close(link[i]);
		snprintf(when, sizeof(when), "round %d, detached", r);
		if (kfunc_pass(map, prog[1], KFUNC_VERDICT, 0, when))
			ok_detach = 0;
		if (module && r == 2)
			ipmodify_set(&ipm, 0, 3 * RUNS, r);
	}
	dm4k[1] = meminfo("DirectMap4k");
	if (module)
		unload_module(ipm.name);
	ksft_test_result(ok_attach, "attach\n");
	ksft_test_result(ok_run, "run\n");
	ksft_test_result(ok_place, "placement\n");
	ksft_test_result(ok_detach, "detach\n");
	ksft_test_result(rounds > 1 && ok_reattach, "reattach\n");
	if (!module && ipm.ok)
		skip_named("ipmodify", "no IPMODIFY kprobe module (-m)");
	else
		ksft_test_result(rounds > 2 && ipm.ok, "ipmodify\n");
	ksft_print_msg("DirectMap4k: %ld kB before, %ld kB after %d rounds\n", dm4k[0], dm4k[1],
		       rounds);
	directmap_result(dm4k, want_pmd);
	max_links(id, want_pmd);
}

/*
 * Trampolines sized to fit: execmem's bpf_trampoline user, with this
 * round's one trampoline (an fentry and an fexit program) attached, must
 * hold under 1 KiB an allocation. Such a trampoline takes a few hundred
 * bytes; a page each would be 4,096. Returns 1 if they are larger or
 * cannot be read.
 */
static int tramp_oversized(int round)
{
	char *users = execstat_read("users");
	long allocs = 0, bytes = 0;
	int bad = 1;

	if (!users)
		ksft_print_msg("round %d: execmem/users: cannot read\n", round);
	else if (execstat_user(users, "bpf_trampoline", &allocs, &bytes))
		ksft_print_msg("round %d: execmem/users: no bpf_trampoline line\n", round);
	else if (allocs < 1 || bytes / allocs >= 1024)
		ksft_print_msg("round %d: execmem/users: bpf_trampoline %ld allocations, %ld bytes: not under 1 KiB each\n",
			       round, allocs, bytes);
	else
		bad = 0;
	if (!bad && round == 1)
		ksft_print_msg("metric: tramp_bytes_per_alloc %ld\n", bytes / allocs);
	free(users);
	return bad;
}

int main(int argc, char **argv)
{
	int rounds = 3, targets = 0, want_pmd = -1, kernel = 0, opt, r;
	const char *module = NULL;
	int btf, target, map, fentry, fexit;
	int ok_attach = 1, ok_run = 1, ok_place = 1, ok_detach = 1;
	struct counts c, zero = { 0 };
	struct text_pages tp;
	long dm4k[2];

	while ((opt = getopt(argc, argv, "n:e:b:km:")) != -1) {
		if (opt == 'k')
			kernel = 1;
		else if (opt == 'm')
			module = optarg;
		else if (opt == 'n')
			rounds = atoi(optarg);
		else if (opt == 'b')
			targets = atoi(optarg);
		else if (opt == 'e')
			want_pmd = !strcmp(optarg, "execmem") ? 1 :
				   !strcmp(optarg, "plain") ? 0 : -1;
	}
	if (want_pmd < 0 || rounds < 1 || targets < 0) {
		fprintf(stderr, "usage: bpf_tramp -e execmem|plain [-n ROUNDS] [-b TARGETS | -k [-m MODULE]]\n");
		return 2;
	}
	ksft_print_header();
	/* Loaded before DirectMap4k is read: loading a module changes it. */
	if (text_alias_ready())
		ksft_print_msg("no textalias.ko: the direct map's aliases cannot be told\n");
	if (kernel) {
		ksft_set_plan(sizeof(kfunc_results) / sizeof(kfunc_results[0]));
		kernel_funcs(rounds, want_pmd, module);
		ksft_finished();
	}
	ksft_set_plan(6);

	btf = btf_load();
	if (btf < 0)
		ksft_print_msg("BTF_LOAD: %s\n%s", strerror(errno), vlog);
	target = btf < 0 ? -1 : target_load(btf);
	if (btf >= 0 && target < 0)
		ksft_print_msg("the target: %s\n%s", strerror(errno), vlog);
	map = map_create(sizeof(struct counts), 0);
	if (targets && btf >= 0 && map >= 0) {
		bench(btf, map, targets, want_pmd);
		ksft_finished();
	}
	if (target < 0 || map < 0 || run_target(target, RUNS) ||
	    tracers_load(target, map, &fentry, &fexit)) {
		ksft_test_result_fail("load\n");
		ksft_exit_fail();
	}
	ksft_test_result_pass("load\n");

	dm4k[0] = meminfo("DirectMap4k");
	for (r = 1; r <= rounds; r++) {
		int links[2];

		if (r > 1 && tracers_load(target, map, &fentry, &fexit)) {
			ok_attach = 0;
			break;
		}
		c = zero;
		map_rw(map, BPF_MAP_UPDATE_ELEM, &zero);
		links[0] = attach(fentry);
		links[1] = attach(fexit);
		if (links[0] < 0 || links[1] < 0) {
			ksft_print_msg("round %d: attach: %s\n", r, strerror(errno));
			ok_attach = 0;
		}
		if (run_target(target, RUNS) || map_rw(map, BPF_MAP_LOOKUP_ELEM, &c) ||
		    c.fentry != RUNS || c.fexit != RUNS || c.retval != TARGET_RET) {
			ksft_print_msg("round %d: %d runs: fentry %llu, fexit %llu, return value seen %llu\n",
				       r, RUNS, (unsigned long long)c.fentry,
				       (unsigned long long)c.fexit, (unsigned long long)c.retval);
			ok_run = 0;
		}
		tramp_pages(want_pmd, &tp);
		if (!tp.symbols || tp.misplaced || (want_pmd && tramp_oversized(r)))
			ok_place = 0;
		close(links[0]);
		close(links[1]);
		close(fentry);
		close(fexit);
		c = zero;
		map_rw(map, BPF_MAP_UPDATE_ELEM, &zero);
		if (run_target(target, RUNS) || map_rw(map, BPF_MAP_LOOKUP_ELEM, &c) ||
		    c.fentry || c.fexit) {
			ksft_print_msg("round %d: detached, yet fentry %llu, fexit %llu\n", r,
				       (unsigned long long)c.fentry, (unsigned long long)c.fexit);
			ok_detach = 0;
		}
	}
	dm4k[1] = meminfo("DirectMap4k");
	ksft_test_result(ok_attach, "attach\n");
	ksft_test_result(ok_run, "run\n");
	ksft_test_result(ok_place, "placement\n");
	ksft_test_result(ok_detach, "detach\n");
	ksft_print_msg("DirectMap4k: %ld kB before, %ld kB after %d rounds\n", dm4k[0], dm4k[1],
		       rounds);
	ksft_print_msg("metric: tramp_directmap4k_growth_kb %ld\n", dm4k[1] - dm4k[0]);
	directmap_result(dm4k, want_pmd);
	ksft_finished();
}
