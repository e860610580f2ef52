/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Verdict on the "Summary:" lines test_bpf.ko prints. Shared by the guest
 * PID 1 and the host-side golden test, so both judge a log the same way.
 */
#ifndef BPFSUM_H
#define BPFSUM_H

#include <stddef.h>

enum bpfsum_mode {
	BPFSUM_JIT,	/* every test that ran must have been JIT'ed */
	BPFSUM_INTERP,	/* nothing may have been JIT'ed */
	/*
	 * As BPFSUM_JIT, under bpf_jit_harden=2. 6.1.192 refuses a program
	 * whose JIT was requested but failed (bpf_prog_select_runtime(),
	 * jit_needed = fp->jit_requested) instead of interpreting it, and
	 * blinding fails on the tests whose jumps then overflow 16 bits.
	 * test_bpf counts those as FAILED with "FAIL to select_runtime
	 * err=-524"; here they count as refused, and every FAILED must be
	 * one of them.
	 */
	BPFSUM_HARDEN,
};

#define BPFSUM_REFUSED " FAIL to select_runtime err=-524"

/* A full load prints one summary per sub-suite: main, tail calls, skb segment. */
#define BPFSUM_SUITES 3

/*
 * The fewest tests a whole run may report (passed + failed, all suites).
 * 6.1.192's test_bpf has 1038; a run that reports far fewer lost a
 * suite or a range, and must not pass because what did run was clean.
 */
#define BPFSUM_FLOOR 1000

struct bpfsum {
	int passed, failed, refused, jitted, ran;
};

/*
 * Judge the kernel log @log, which must hold exactly @summaries summary
 * lines reporting at least @floor tests, and add up its counts in @sum. Under BPFSUM_HARDEN, every
 * refused test must be named, one a line, in @allowed (the long-jump
 * tests of lib/test_bpf.c; see ci/harden-refusals.sh): any other
 * refusal fails. Returns 0 when all is present and clean, -1 otherwise;
 * either way a one-line explanation lands in @why.
 */
int bpfsum_judge(const char *log, enum bpfsum_mode mode, int summaries, int floor,
		 const char *allowed, struct bpfsum *sum, char *why, size_t len);

/*
 * Under bpf_jit_harden=2 the "all ... magnitudes" tests (immediate,
 * register and operand magnitudes) take about 145 s each in TCG, where
 * they take under a second unhardened: constant blinding rewrites their
 * thousands of immediates one instruction at a time
 * (bpf_patch_insn_single(), quadratic in program size). The 101 of them
 * would need four hours, and even one of them was the largest single cost
 * of make check. Two BPF_MAXINSNS tests blind the same way: "exec all
 * MSH" took 24 s and "ld_abs+get_processor_id" 4 s of the 42 s hardened
 * run, by the console's timestamps. The hardened run leaves those 103
 * out; all of them still run with the interpreter and in the quick JIT
 * run (or, for the magnitudes, with the JIT in make bench), and every
 * other test, blinding included, runs hardened.
 *
 * From the log of a whole run (@whole_log; make check's is the
 * interpreter's, its JIT run being the quick one), write the module
 * parameters of the hardened run into @params: main-suite test ranges
 * that leave those tests out, then the tail-call and skb-segment suites. Test ids come
 * from the log, so nothing depends on test_bpf's numbering. Returns the
 * number of loads (0 if the log names no test) and the number of tests
 * left out in *@skipped.
 */
int bpfsum_harden_loads(const char *whole_log, char params[][64], int max,
			int *skipped);

/*
 * The quick JIT run, make check's on every kernel (nomod and arm64 take
 * the same range on their command line; make bench runs test_bpf
 * whole). Under TCG the main suite's tests from its first "magnitudes"
 * test on take 97% of a whole JIT run (192 of 198 s on the distro
 * kernel): the magnitude and staggered-jump tests, thousands of
 * instructions each, run a thousand times. They test the JIT's code
 * generation, which the series does not change; where a program lands,
 * which it does, every test shows.
 *
 * The guest finds that test's id with one load of @BPFSUM_QUICK_END by
 * name, and passes that load's log as @probe_log. Written into @params:
 * the main suite up to the test before it, then the tail-call and
 * skb-segment suites. Returns the number of loads (0 if @probe_log does
 * not name the test) and the id, which is how many main-suite tests the
 * run must report, in *@end.
 */
#define BPFSUM_QUICK_END "ALU64_MOV_K: all immediate value magnitudes"
int bpfsum_quick_loads(const char *probe_log, char params[][64], int max, int *end);

#endif
