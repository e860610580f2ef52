// SPDX-License-Identifier: GPL-2.0
/* Host front end of vmsum_judge() for the golden tests. */
#include <stdio.h>
#include <stdlib.h>

#include "slurp.h"
#include "../guest/vmsum.h"

int main(int argc, char **argv)
{
	static char log[1 << 20];
	char why[256];
	int ret;

	if (argc != 4) {
		fprintf(stderr, "usage: vmsum-check TESTS WORKERS|xWORKERS LOG\n");
		return 2;
	}
	if (slurp(argv[3], log, sizeof(log)))
		return 2;
	/* xN: N workers, every summary expected to fail */
	ret = vmsum_judge(log, atoi(argv[1]), atoi(argv[2] + (*argv[2] == 'x')),
			  *argv[2] == 'x', why, sizeof(why));
	printf("%s\n", why);
	return ret ? 1 : 0;
}
