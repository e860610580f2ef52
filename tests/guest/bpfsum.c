// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <stdbool.h>
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

/*
 * Is the test refused on the line that holds @hit one that @allowed names?
 * The line reads "test_bpf: #ID NAME FAIL to select_runtime err=-524".
 */
static int refusal_allowed(const char *log, const char *hit, const char *allowed,
			   char *name, size_t len)
{
	const char *s = hit, *p;
	size_t n;

	while (s > log && s[-1] != '\n')
		s--;
	s = strstr(s, "test_bpf: #");
	if (!s || s > hit || !(s = strchr(s, ' ')) || !(s = strchr(s + 1, ' ')))
		return 0;
	n = hit - ++s;
	snprintf(name, len, "%.*s", (int)n, s);
	for (p = allowed; p && (p = strstr(p, name)); p += n)
		if ((p == allowed || p[-1] == '\n') && (p[n] == '\n' || !p[n]))
			return 1;
	return 0;
}

int bpfsum_judge(const char *log, enum bpfsum_mode mode, int summaries, int floor,
		 const char *allowed, struct bpfsum *sum, char *why, size_t len)
{
	int seen = 0, passed = 0, failed = 0, refused = 0, jitted = 0, ran = 0;
	const char *p = log;
	char name[256];

	memset(sum, 0, sizeof(*sum));
	if (mode == BPFSUM_HARDEN) {
		for (p = strstr(log, BPFSUM_REFUSED); p; p = strstr(p + 1, BPFSUM_REFUSED)) {
			if (!refusal_allowed(log, p, allowed, name, sizeof(name))) {
				snprintf(why, len, "refused, and not a long-jump test: %s", name);
				return -1;
			}
			refused++;
		}
	}
	p = log;

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
		failed += fail;
		if (fail && mode != BPFSUM_HARDEN) {
			snprintf(why, len, "%d FAILED in: %s", fail, line);
			return -1;
		}
		if (run < 0)
			continue;	/* skb_segment has no JIT count */
		jitted += jit;
		ran += run;
		if (mode != BPFSUM_INTERP && jit != run) {
			snprintf(why, len, "only %d of %d JIT'ed in: %s", jit, run, line);
			return -1;
		}
		if (mode == BPFSUM_INTERP && jit != 0) {
			snprintf(why, len, "%d JIT'ed with the JIT off in: %s", jit, line);
			return -1;
		}
	}
	if (seen != summaries) {
		snprintf(why, len, "found %d of %d Summary: lines", seen, summaries);
		return -1;
	}
	if (!passed) {
		snprintf(why, len, "no test passed");
		return -1;
	}
	if (failed != refused) {
		snprintf(why, len, "%d FAILED, of which only %d refused as JIT-required",
			 failed, refused);
		return -1;
	}
	*sum = (struct bpfsum){ passed, failed, refused, jitted, ran };
	if (passed + failed < floor) {
		snprintf(why, len, "only %d tests ran, fewer than the floor of %d",
			 passed + failed, floor);
		return -1;
	}
	snprintf(why, len, "%d passed, 0 failed, %d/%d JIT'ed", passed, jitted, ran);
	if (refused)
		snprintf(why + strlen(why), len - strlen(why),
			 ", %d refused (blinding failed, JIT required)", refused);
	return 0;
}

/* Does the test_bpf line from @p to @eol name a test blinding makes slow? */
static bool slow_under_harden(const char *p, const char *eol)
{
	static const char *const names[] = {
		" magnitudes",
		" BPF_MAXINSNS: exec all MSH ",
		" BPF_MAXINSNS: ld_abs+get_processor_id ",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (memmem(p, eol - p, names[i], strlen(names[i])))
			return true;
	return false;
}

int bpfsum_harden_loads(const char *whole_log, char params[][64], int max,
			int *skipped)
{
	static const char mark[] = "test_bpf: #";
	const char *p = whole_log, *eol;
	int n = 0, next = 0, last = -1, seen = 0, id;

	while ((p = strstr(p, mark))) {
		p += strlen(mark);
		if (sscanf(p, "%d", &id) != 1)
			continue;
		if (id > last)
			last = id;
		eol = strchrnul(p, '\n');
		if (!slow_under_harden(p, eol))
			continue;
		seen++;
		if (id > next && n < max - 3)
			snprintf(params[n++], 64, "test_suite=test_bpf test_range=%d,%d",
				 next, id - 1);
		next = id + 1;
	}
	*skipped = seen;
	if (last < 0)
		return 0;
	if (next <= last)
		snprintf(params[n++], 64, "test_suite=test_bpf test_range=%d,%d", next, last);
	snprintf(params[n++], 64, "test_suite=test_tail_calls");
	snprintf(params[n++], 64, "test_suite=test_skb_segment");
	return n;
}

int bpfsum_quick_loads(const char *probe_log, char params[][64], int max, int *end)
{
	static const char mark[] = "test_bpf: #", name[] = " " BPFSUM_QUICK_END " jited:";
	const char *p = probe_log, *eol, *sp;
	int id;

	*end = 0;
	while (max >= 3 && (p = strstr(p, mark))) {
		p += strlen(mark);
		eol = strchrnul(p, '\n');
		sp = strchr(p, ' ');
		if (sscanf(p, "%d", &id) != 1 || id < 1 || !sp || sp > eol ||
		    strncmp(sp, name, strlen(name)))
			continue;
		*end = id;
		snprintf(params[0], 64, "test_suite=test_bpf test_range=0,%d", id - 1);
		snprintf(params[1], 64, "test_suite=test_tail_calls");
		snprintf(params[2], 64, "test_suite=test_skb_segment");
		return 3;
	}
	return 0;
}
