// SPDX-License-Identifier: GPL-2.0
/* Host front end of bpfsum_judge() for the golden tests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slurp.h"
#include "../guest/bpfsum.h"

int main(int argc, char **argv)
{
	static char log[1 << 20], allowed[1 << 16];
	enum bpfsum_mode mode;
	struct bpfsum sum;
	char why[512];
	int ret;

	if (argc != 3 && argc != 4) {
		fprintf(stderr, "usage: bpfsum-check jit|interp|harden|harden-loads|quick-loads LOG [REFUSALS]\n");
		return 2;
	}
	if (slurp(argv[2], log, sizeof(log)) || (argc == 4 && slurp(argv[3], allowed, sizeof(allowed))))
		return 2;
	if (!strcmp(argv[1], "harden-loads") || !strcmp(argv[1], "quick-loads")) {
		int harden = argv[1][0] == 'h', i, n, k;
		char params[64][64];

		n = harden ? bpfsum_harden_loads(log, params, 64, &k) :
			     bpfsum_quick_loads(log, params, 64, &k);
		printf("%s %d\n", harden ? "skipped" : "end", k);
		for (i = 0; i < n; i++)
			printf("%s\n", params[i]);
		return 0;
	}
	mode = !strcmp(argv[1], "interp") ? BPFSUM_INTERP :
	       !strcmp(argv[1], "harden") ? BPFSUM_HARDEN : BPFSUM_JIT;
	/* The guest holds a hardened run to the JIT run's total instead. */
	ret = bpfsum_judge(log, mode, BPFSUM_SUITES, mode == BPFSUM_HARDEN ? 0 : BPFSUM_FLOOR,
			   argc == 4 ? allowed : NULL, &sum, why, sizeof(why));
	printf("%s\n", why);
	return ret ? 1 : 0;
}
