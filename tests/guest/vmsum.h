/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Verdict on the "Summary:" lines lib/test_vmalloc.ko prints, one per
 * worker and selected test. Shared by the guest PID 1 and the host-side
 * golden test. The module's init always returns -EAGAIN, so the log is
 * the only verdict there is.
 */
#ifndef VMSUM_H
#define VMSUM_H

#include <stddef.h>

/* The tests test_vmalloc.ko of 6.1 knows: run_test_mask bits 0..9. */
#define VMSUM_TESTS 10

/*
 * align_shift_alloc_test (bit 6) asks vmalloc for every alignment up to
 * 2^63 and fails by design once no range can meet one; vmalloc warns
 * with a stack trace as it refuses. It runs on its own, and must fail.
 */
#define VMSUM_XFAIL_BIT 6

/*
 * Judge @log: it must hold exactly @tests * @workers summaries. With
 * @xfail clear each must say "failed: 0" with at least one pass; with
 * @xfail set each must have failed and never passed. Returns 0 or -1,
 * with a one-line explanation in @why.
 */
int vmsum_judge(const char *log, int tests, int workers, int xfail, char *why,
		size_t len);

#endif
