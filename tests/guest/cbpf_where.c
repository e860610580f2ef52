// SPDX-License-Identifier: GPL-2.0
/*
 * Classic BPF must never be JITed into the tail of the kernel text.
 *
 * Anybody can load classic BPF: a seccomp filter, a socket filter. Code
 * in the tail of the kernel text, [_etext, the next 2 MiB boundary), sits
 * at a fixed offset from the kernel image, so the address of a filter
 * there would give the kernel's away under KASLR. This runs first after
 * boot, while the tail still has room, and has three classic programs
 * JITed:
 *   - module: the module's own, built with bpf_prog_create() as it loads;
 *   - seccomp: a seccomp filter, installed by a child that gave up root
 *     (skipped where the kernel has no seccomp filters);
 *   - socket: a socket filter, attached by a child that gave up root.
 * (On a kernel without users, the children stay root.)
 * The module (tests/kmod/cbpf_where.c) reports where each landed. Each
 * must have been JITed, and must lie outside the tail.
 *
 * Usage: cbpf_where -m MODULE
 * Output is TAP through the kernel's kselftest.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/filter.h>
#include <linux/netlink.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest.h"
#include "bpfsys.h"
#include "kmodload.h"
#include "ksym.h"
#include "modstep.h"

#define PMD_2M		(2ULL << 20)
#define NOBODY		65534
#define MAX_PROGS	16

static const char *const results[] = { "module", "seccomp", "socket" };

struct prog {
	unsigned long long func;
	int jited;
};

/* The programs the module saw so far, in the order they were JITed. */
static int read_progs(struct prog *p)
{
	FILE *f = fopen("/sys/module/cbpf_where/parameters/progs", "r");
	int n = 0;

	while (f && n < MAX_PROGS && fscanf(f, "%llx %d", &p[n].func, &p[n].jited) == 2)
		n++;
	if (f)
		fclose(f);
	return n;
}

/*
 * Run @fn in a child that is no longer root, where the kernel has users
 * and groups (not CONFIG_MULTIUSER=n, as tinyconfig has it); its exit
 * status, or -1. Classic BPF goes where it goes whoever loads it.
 */
static int as_nobody(int (*fn)(void))
{
	int status;
	pid_t pid = fork();

	if (!pid) {
		if ((setgid(NOBODY) || setuid(NOBODY)) && errno != ENOSYS)
			_exit(100);
		_exit(fn());
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static struct sock_filter allow[] = { BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW) };
static struct sock_filter keep[] = { BPF_STMT(BPF_RET | BPF_K, 0xffff) };

/* 0 installed, 1 no seccomp filters in this kernel, else failed. */
static int load_seccomp(void)
{
	struct sock_fprog fprog = { 1, allow };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return 2;
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog))
		return errno == EINVAL ? 1 : 3;
	return 0;
}

static int load_socket_filter(void)
{
	struct sock_fprog fprog = { 1, keep };
	int fd = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);

	if (fd < 0)
		return 2;
	if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &fprog, sizeof(fprog)))
		return 3;
	close(fd);
	return 0;
}

static void judge(const char *name, const struct prog *p, unsigned long long lo,
		  unsigned long long hi)
{
	int in_tail = p->func >= lo && p->func < hi;

	ksft_print_msg("%s: JITed %s at %#llx, %s the text tail\n", name,
		       p->jited ? "yes" : "NO", p->func, in_tail ? "IN" : "outside");
	ksft_test_result(p->jited && !in_tail, "%s\n", name);
}

int main(int argc, char **argv)
{
	unsigned long long etext, lo, hi;
	const char *mod = modstep_begin(argc, argv, results, 3);
	struct prog p[MAX_PROGS];
	int n, ret;

	etext = ksym_addr("_etext");
	if (!etext)
		ksft_exit_fail_msg("kallsyms has no _etext\n");
	lo = etext;
	hi = (etext + PMD_2M - 1) & ~(PMD_2M - 1);
	ksft_print_msg("the text tail: %#llx-%#llx\n", lo, hi);

	ret = load_module(mod, "");
	if (ret)
		ksft_exit_fail_msg("%s: %s\n", mod, strerror(-ret));
	n = read_progs(p);
	if (n != 1)
		ksft_exit_fail_msg("the module saw %d classic programs at load, not 1\n", n);
	judge("module", &p[0], lo, hi);

	ret = as_nobody(load_seccomp);
	n = read_progs(p);
	if (ret == 1 && n == 1) {
		skip_named("seccomp", "no seccomp filters in this kernel (CONFIG_SECCOMP_FILTER)");
	} else if (ret || n != 2) {
		ksft_print_msg("seccomp: child says %d, %d programs seen\n", ret, n);
		ksft_test_result_fail("seccomp\n");
	} else {
		judge("seccomp", &p[1], lo, hi);
	}

	ret = as_nobody(load_socket_filter);
	if (ret || read_progs(p) != n + 1) {
		ksft_print_msg("socket: child says %d, %d programs seen\n", ret, read_progs(p));
		ksft_test_result_fail("socket\n");
	} else {
		judge("socket", &p[n], lo, hi);
	}
	unload_module("cbpf_where");
	ksft_finished();
}
