// SPDX-License-Identifier: GPL-2.0
/*
 * A JIT image that was never finalized is freed once, and quietly.
 *
 * Loads a program of two functions (main calls a bpf-to-bpf subprogram)
 * while the test module (tests/kmod/jit_free.c) fails the JIT of the
 * second function between the JIT's two passes, and fails every copy
 * into execmem. The first function's image is then freed while pending.
 * Each free that copied it in first would see the copy fail, free it
 * there, and free it again with a size read from trap-filled memory.
 *   - tripped: the module made the case happen (else nothing was tested);
 *   - one_free: the load called execmem_free() exactly once;
 *   - not_copied: nothing was copied into execmem for the pending image;
 *   - no_warning: the kernel did not warn (taint flag W), neither before
 *     (then nothing could be told) nor meanwhile.
 * The load itself may succeed (interpreted) or fail (BPF_JIT_ALWAYS_ON).
 *
 * Usage: jit_free -m MODULE
 * Output is TAP through the kernel's kselftest.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest.h"
#include "bpfsys.h"
#include "kmodload.h"
#include "ksym.h"
#include "modstep.h"

#define TAINT_WARN	(1 << 9)

static const char *const results[] = { "tripped", "one_free", "not_copied", "no_warning" };

/* main: call sub; exit. sub: r0 = 0; exit. */
static int load_two_functions(void)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_JMP | BPF_CALL, .src_reg = BPF_PSEUDO_CALL, .imm = 1 },
		{ .code = BPF_JMP | BPF_EXIT },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insns = (uintptr_t)insns;
	attr.insn_cnt = sizeof(insns) / sizeof(insns[0]);
	attr.license = (uintptr_t)"GPL";
	return sys_bpf(BPF_PROG_LOAD, &attr);
}

int main(int argc, char **argv)
{
	const char *mod = modstep_begin(argc, argv, results, 4);
	int ret, fd, taint0, taint1, tripped, frees, fills, i;
	char pid[16];

	ret = load_module(mod, "");
	if (ret == -ENOENT && !ksym_addr("execmem_fill")) {
		/* The base kernel (make control): no execmem to probe. */
		for (i = 0; i < 4; i++)
			skip_named(results[i], "no execmem_fill() to probe on this kernel");
		ksft_finished();
	}
	if (ret)
		ksft_exit_fail_msg("%s: %s\n", mod, strerror(-ret));

	taint0 = read_int("/proc/sys/kernel/tainted");
	snprintf(pid, sizeof(pid), "%d", getpid());
	ret = module_param_write("jit_free", "pid", pid);
	if (ret)
		ksft_exit_fail_msg("arming jit_free: %s\n", strerror(-ret));
	fd = load_two_functions();
	ret = fd < 0 ? errno : 0;
	module_param_write("jit_free", "pid", "0");
	taint1 = read_int("/proc/sys/kernel/tainted");
	if (fd >= 0)
		close(fd);

	tripped = module_param_read("jit_free", "tripped");
	frees = module_param_read("jit_free", "frees");
	fills = module_param_read("jit_free", "fills_failed");
	ksft_print_msg("load: %s; functions failed %d, execmem_free() calls %d, fills failed %d\n",
		       ret ? strerror(ret) : "loaded", tripped, frees, fills);
	ksft_print_msg("tainted: %#x before, %#x after\n", taint0, taint1);
	ksft_test_result(tripped == 1, "tripped\n");
	ksft_test_result(frees == 1, "one_free\n");
	ksft_test_result(fills == 0, "not_copied\n");
	ksft_test_result(taint0 >= 0 && taint1 >= 0 && !((taint0 | taint1) & TAINT_WARN),
			 "no_warning\n");
	unload_module("jit_free");
	ksft_finished();
}
