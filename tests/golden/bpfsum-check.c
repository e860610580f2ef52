// SPDX-License-Identifier: GPL-2.0
/* Host front end of bpfsum_judge() for the golden tests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slurp.h"
#include "../guest/bpfsum.h"

int main(int argc, char **argv)
{
	static char log[1 << 20];
	char why[512];
	int ret;

	if (argc != 3) {
		fprintf(stderr, "usage: bpfsum-check jit|interp|harden-loads LOG\n");
		return 2;
	}
	if (slurp(argv[2], log, sizeof(log)))
		return 2;
	if (!strcmp(argv[1], "harden-loads")) {
		char params[64][64];
		int i, n, skipped;

		n = bpfsum_harden_loads(log, params, 64, &skipped);
		printf("skipped %d\n", skipped);
		for (i = 0; i < n; i++)
			printf("%s\n", params[i]);
		return 0;
	}
	ret = bpfsum_judge(log, !strcmp(argv[1], "interp") ? BPFSUM_INTERP :
			   !strcmp(argv[1], "harden") ? BPFSUM_HARDEN : BPFSUM_JIT,
			   BPFSUM_SUITES, why, sizeof(why));
	printf("%s\n", why);
	return ret ? 1 : 0;
}
