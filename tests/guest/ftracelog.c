// SPDX-License-Identifier: GPL-2.0
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
	snprintf(why, len, "%d tracers and the dynamic ops tests PASSED", tracers);
	return 0;
}
