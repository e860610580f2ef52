// SPDX-License-Identifier: GPL-2.0
/* Host front end of tests/guest/execstat.h for the golden tests. */
#include <stdio.h>
#include <string.h>

#include "slurp.h"
#include "../guest/execstat.h"

int main(int argc, char **argv)
{
	static char text[1 << 16];
	static struct execstat_chunk c[256];
	long a, b;
	int n, i, line;

	if (argc != 3 || slurp(argv[2], text, sizeof(text))) {
		fprintf(stderr, "usage: execstat-check chunks|users|stats FILE\n");
		return 2;
	}
	if (!strcmp(argv[1], "chunks")) {
		n = execstat_chunks(text, c, 256, &line);
		if (n < 0) {
			printf("malformed line %d\n", line);
			return 1;
		}
		for (i = 0; i < n; i++)
			printf("%#llx %s %s used=%ld free=%ld longest=%ld %s\n",
			       (unsigned long long)c[i].start, c[i].kind, c[i].map, c[i].used,
			       c[i].free, c[i].longest, c[i].cells);
		return 0;
	}
	if (!strcmp(argv[1], "users")) {
		if (execstat_user(text, "bpf", &a, &b)) {
			printf("no well-formed bpf line\n");
			return 1;
		}
		printf("bpf %ld %ld\n", a, b);
		if (execstat_user(text, NULL, &a, &b))
			return 1;
		printf("all %ld %ld\n", a, b);
		return 0;
	}
	if (!strcmp(argv[1], "stats")) {
		a = execstat_stat(text, "allocs");
		printf("allocs %ld\n", a);
		return a < 0;
	}
	return 2;
}
