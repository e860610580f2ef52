// SPDX-License-Identifier: GPL-2.0
/* Host front end of ftracelog_judge() for the golden tests. */
#include <stdio.h>

#include "slurp.h"
#include "../guest/ftracelog.h"

int main(int argc, char **argv)
{
	static char log[1 << 20];
	char why[256];
	int ret;

	if (argc != 2) {
		fprintf(stderr, "usage: ftracelog-check LOG\n");
		return 2;
	}
	if (slurp(argv[1], log, sizeof(log)))
		return 2;
	ret = ftracelog_judge(log, why, sizeof(why));
	printf("%s\n", why);
	return ret ? 1 : 0;
}
