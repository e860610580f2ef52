// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>

#include "bpfsum.h"

/* Parse one line; returns 1 if it is a test_bpf summary. */
static int parse_line(const char *line, int *pass, int *fail, int *jit, int *run)
{
	const char *s = strstr(line, "Summary: ");

	if (!strstr(line, "test_bpf: ") || !s)
		return 0;
	*jit = *run = -1;
	if (sscanf(s, "Summary: %d PASSED, %d FAILED, [%d/%d JIT'ed]",
		   pass, fail, jit, run) >= 2)
		return 1;
	return 0;
}

int bpfsum_judge(const char *log, enum bpfsum_mode mode, char *why, size_t len)
{
	int seen = 0, passed = 0, jitted = 0, ran = 0;
	const char *p = log;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		int pass, fail, jit, run;
		char line[512];

		snprintf(line, sizeof(line), "%.*s", (int)n, p);
		p = nl ? nl + 1 : NULL;
		if (!parse_line(line, &pass, &fail, &jit, &run))
			continue;
		seen++;
		passed += pass;
		if (fail) {
			snprintf(why, len, "%d FAILED in: %s", fail, line);
			return -1;
		}
		if (run < 0)
			continue;	/* skb_segment has no JIT count */
		jitted += jit;
		ran += run;
		if (mode == BPFSUM_JIT && jit != run) {
			snprintf(why, len, "only %d of %d JIT'ed in: %s", jit, run, line);
			return -1;
		}
		if (mode == BPFSUM_INTERP && jit != 0) {
			snprintf(why, len, "%d JIT'ed with the JIT off in: %s", jit, line);
			return -1;
		}
	}
	if (seen != BPFSUM_SUITES) {
		snprintf(why, len, "found %d of %d Summary: lines", seen, BPFSUM_SUITES);
		return -1;
	}
	if (!passed) {
		snprintf(why, len, "no test passed");
		return -1;
	}
	snprintf(why, len, "%d passed, 0 failed, %d/%d JIT'ed", passed, jitted, ran);
	return 0;
}
