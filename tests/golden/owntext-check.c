// SPDX-License-Identifier: GPL-2.0
/*
 * Host front end of own_text_judge() for the golden tests:
 * owntext-check pmd|any|pmd-nolookup RANGES PTDUMP ALIASES, where ALIASES
 * holds what textalias.ko would answer, one "PAGE LEVEL" line a page
 * (pmd-nolookup: as pmd, with no lookup at all, as without modules).
 */
#include <stdio.h>
#include <stdlib.h>

#include "slurp.h"
#include "../guest/owntext.h"

static unsigned long long alias_page[256];
static char alias_level[256][16];
static int naliases;

static const char *alias(uint64_t page)
{
	int i;

	for (i = 0; i < naliases; i++)
		if (alias_page[i] == page)
			return alias_level[i];
	return NULL;
}

int main(int argc, char **argv)
{
	static char ranges[1 << 16];
	char why[1024], line[128];
	struct own_text ot;
	FILE *f;
	int ret;

	if (argc != 5 || (strcmp(argv[1], "pmd") && strcmp(argv[1], "any") &&
			  strcmp(argv[1], "pmd-nolookup"))) {
		fprintf(stderr, "usage: owntext-check pmd|any|pmd-nolookup RANGES PTDUMP ALIASES\n");
		return 2;
	}
	if (slurp(argv[2], ranges, sizeof(ranges)))
		return 2;
	f = fopen(argv[3], "r");
	if (!f) {
		perror(argv[3]);
		return 2;
	}
	pt_load_from(f);
	f = fopen(argv[4], "r");
	if (!f) {
		perror(argv[4]);
		return 2;
	}
	while (naliases < 256 && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %15s", &alias_page[naliases], alias_level[naliases]) == 2)
			naliases++;
	fclose(f);
	ret = own_text_judge(ranges, strcmp(argv[1], "any") != 0,
			     strcmp(argv[1], "pmd-nolookup") ? alias : NULL, &ot, why, sizeof(why));
	printf("%s\n", why);
	return ret ? 1 : 0;
}
