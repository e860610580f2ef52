// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>

#include "vmsum.h"

int vmsum_judge(const char *log, int tests, int workers, int xfail, char *why,
		size_t len)
{
	const char *p = log;
	int seen = 0;

	while ((p = strstr(p, "Summary: "))) {
		char name[64];
		int pass, fail;

		if (sscanf(p, "Summary: %63s passed: %d failed: %d", name, &pass, &fail) == 3) {
			seen++;
			if (xfail ? fail < 1 || pass : fail || pass < 1) {
				snprintf(why, len, "%s: %d passed, %d failed%s", name, pass,
					 fail, xfail ? " (expected to fail)" : "");
				return -1;
			}
		}
		p++;
	}
	if (seen != tests * workers) {
		snprintf(why, len, "%d summaries, expected %d (%d tests x %d workers)",
			 seen, tests * workers, tests, workers);
		return -1;
	}
	snprintf(why, len, "%d summaries, all %s", seen,
		 xfail ? "failed as expected" : "passed");
	return 0;
}
