// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "ftracelog.h"

/*
 * The test that starts at @p passed: PASSED comes before the next test
 * starts. (The dynamic ops tests print their progress on lines of their
 * own before the word.)
 */
static int passed(const char *p)
{
	const char *next = strstr(p + 1, "Testing "), *ok = strstr(p, "PASSED");

	return ok && (!next || ok < next);
}

/*
 * The kprobe events selftest ended its line with OK. It prints the word
 * with pr_cont(), so a message from elsewhere in between (the initramfs
 * being unpacked, say) puts it on a line of its own: then any later line
 * that is just "OK", after a console timestamp if it has one, counts.
 */
static int kprobe_events_ok(const char *log)
{
	static const char start[] = "Testing kprobe tracing: ";
	const char *p = strstr(log, start), *l, *ts;

	if (!p)
		return 0;
	for (l = p + sizeof(start) - 1; l; l = (l = strchr(l, '\n')) ? l + 1 : NULL) {
		ts = l[0] == '[' ? strstr(l, "] ") : NULL;
		if (ts && ts < strchrnul(l, '\n'))
			l = ts + 2;
		if (!strncmp(l, "OK", 2) && (l[2] == '\n' || !l[2]))
			return 1;
	}
	return 0;
}

/* The name a test gave itself, up to its colon, for @why. */
static void name(const char *p, char *buf, size_t len)
{
	size_t n = strcspn(p, ":\n");

	snprintf(buf, len, "%.*s", (int)n, p);
}

int ftracelog_judge(const char *log, char *why, size_t len)
{
	static const char *const ops[] = {
		"Testing dynamic ftrace ops #1: ", "Testing dynamic ftrace ops #2: ",
	};
	const char *p;
	char test[64];
	int tracers = 0;
	size_t i;

	if ((p = strstr(log, "FAILED"))) {
		snprintf(why, len, "a selftest FAILED");
		return -1;
	}
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		p = strstr(log, ops[i]);
		if (!p || !passed(p)) {
			name(ops[i], test, sizeof(test));
			snprintf(why, len, "%s: %s", test, p ? "no PASSED" : "did not run");
			return -1;
		}
	}
	for (p = log; (p = strstr(p, "Testing tracer ")); p++) {
		tracers++;
		if (!passed(p)) {
			name(p, test, sizeof(test));
			snprintf(why, len, "%s: no PASSED", test);
			return -1;
		}
	}
	if (!tracers) {
		snprintf(why, len, "no \"Testing tracer\" in the boot log");
		return -1;
	}
	if (!strstr(log, "Testing tracer function_graph: ")) {
		snprintf(why, len, "the function_graph tracer was not tested");
		return -1;
	}
	/*
	 * The kprobe events selftest says neither PASSED nor FAILED: it ends
	 * its line with OK, or with "NG: Some tests are failed" after
	 * reports such as "incorrect number of testprobe hits".
	 */
	if (strstr(log, "NG: Some tests are failed")) {
		snprintf(why, len, "kprobe events: NG, some tests failed");
		return -1;
	}
	if (!kprobe_events_ok(log)) {
		snprintf(why, len, "kprobe events: no OK after \"Testing kprobe tracing: \"");
		return -1;
	}
	snprintf(why, len, "%d tracers, the dynamic ops tests and function_graph PASSED, kprobe events OK",
		 tracers);
	return 0;
}
