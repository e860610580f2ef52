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
};

/* test_bpf prints one summary per sub-suite: main, tail calls, skb segment. */
#define BPFSUM_SUITES 3

/*
 * Judge the kernel log @log. Returns 0 when all summaries are present and
 * clean, -1 otherwise; either way a one-line explanation lands in @why.
 */
int bpfsum_judge(const char *log, enum bpfsum_mode mode, char *why, size_t len);

#endif
