/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's page tables as its ptdump debugfs file shows them, for
 * guest programs that check where code is mapped and how. One table per
 * program: pt_load() replaces it.
 */
#ifndef PTDUMP_H
#define PTDUMP_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* x86 and arm64 name their kernel page-table dumps differently. */
static const char *const pt_files[] = {
	"/sys/kernel/debug/page_tables/kernel",
	"/sys/kernel/debug/kernel_page_tables",
};

struct pt_range {
	uint64_t start, end;
	char level[8];
	int present, writable, exec;
	char text[256];
};

static struct pt_range *pt;
static int npt;

/*
 * Parse the ptdump lines: "0xSTART-0xEND SIZE ... {RW|ro} ... {x|NX} ...
 * LEVEL". x86 writes the level last in lower case; arm64 writes it after
 * the size in upper case. Lines with neither RW nor ro are not present.
 */
static inline void pt_load_from(FILE *f)
{
	static const char *const levels[] = { "pte", "pmd", "pud", "p4d", "pgd" };
	char line[256];
	size_t i;

	npt = 0;
	while (f && fgets(line, sizeof(line), f)) {
		struct pt_range r = { 0 };
		char *tok, *save;

		if (sscanf(line, "0x%lx-0x%lx", &r.start, &r.end) != 2)
			continue;
		line[strcspn(line, "\n")] = '\0';
		snprintf(r.text, sizeof(r.text), "%s", line);
		for (tok = strtok_r(line, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
			if (!strcmp(tok, "RW"))
				r.present = r.writable = 1;
			else if (!strcmp(tok, "ro"))
				r.present = 1;
			else if (!strcmp(tok, "x"))
				r.exec = 1;
			for (i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
				if (!strcasecmp(tok, levels[i]))
					snprintf(r.level, sizeof(r.level), "%s", levels[i]);
		}
		pt = realloc(pt, (npt + 1) * sizeof(*pt));
		pt[npt++] = r;
	}
	if (f)
		fclose(f);
}

/* The kernel's own page tables. */
static inline void pt_load(void)
{
	FILE *f = NULL;
	size_t i;

	for (i = 0; !f && i < sizeof(pt_files) / sizeof(pt_files[0]); i++)
		f = fopen(pt_files[i], "r");
	pt_load_from(f);
}

static inline const struct pt_range *pt_find(uint64_t addr)
{
	int i;

	for (i = 0; i < npt; i++)
		if (addr >= pt[i].start && addr < pt[i].end)
			return &pt[i];
	return NULL;
}

#endif
