/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where pieces of dynamic text are, by the kallsyms symbols that name
 * them (kprobes' pages under [__builtin__kprobes], ftrace's trampolines
 * under [__builtin__ftrace], BPF's trampolines as bpf_trampoline_*):
 * how many, in how many 4K pages and 2M regions, how many of the pages
 * on 4K mappings, and which are not mapped RO+X, or not by a PMD where
 * that is wanted. Needs ptdump.h.
 */
#ifndef TEXTPAGES_H
#define TEXTPAGES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct text_pages {
	int symbols;	/* the symbols that matched */
	int pages;	/* distinct 4K pages they start in */
	int regions;	/* distinct 2 MiB regions */
	int pte;	/* of the pages, those on 4K mappings */
	int misplaced;	/* symbols not RO+X, or not on a PMD where wanted */
};

#define TEXT_PAGES_MAX	4096

/*
 * Read one line of /proc/kallsyms: 1 if it names a symbol, with @mod ""
 * for the kernel's own. @sym holds 256 bytes, @mod 64.
 */
static inline int kallsyms_parse(const char *line, unsigned long long *addr, char *sym,
				 char *mod)
{
	char type;

	mod[0] = '\0';
	return sscanf(line, "%llx %c %255s %63s", addr, &type, sym, mod) >= 3;
}

/*
 * The first byte of each symbol @match accepts, as owntext.h's "ADDR LEN"
 * lines ("ADDR 1": kallsyms gives no sizes); malloc()ed, "" where none
 * matched, NULL when out of memory.
 */
static inline char *text_symbol_ranges(int (*match)(const char *sym, const char *mod))
{
	char line[512], sym[256], mod[64], *ranges = calloc(1, 1), *p;
	unsigned long long addr;
	size_t len = 0, size = 1;
	FILE *f = fopen("/proc/kallsyms", "r");

	while (ranges && f && fgets(line, sizeof(line), f)) {
		if (!kallsyms_parse(line, &addr, sym, mod) || !match(sym, mod))
			continue;
		if (len + 32 > size) {
			size = 2 * size + 4096;
			p = realloc(ranges, size);
			if (!p) {
				free(ranges);
				ranges = NULL;
				break;
			}
			ranges = p;
		}
		len += snprintf(ranges + len, size - len, "%llx 1\n", addr);
	}
	if (f)
		fclose(f);
	return ranges;
}

/*
 * Scan /proc/kallsyms for the symbols @match accepts (@mod is "" for the
 * kernel's own); @misplaced is told of each one mapped wrongly.
 */
static inline void text_pages_scan(int want_pmd, struct text_pages *tp,
				   int (*match)(const char *sym, const char *mod),
				   void (*misplaced)(const char *sym, unsigned long long addr,
						     const char *how))
{
	static unsigned long long page[TEXT_PAGES_MAX], region[TEXT_PAGES_MAX];
	char line[512], sym[256], mod[64];
	unsigned long long addr;
	FILE *f;
	int i;

	memset(tp, 0, sizeof(*tp));
	pt_load();
	f = fopen("/proc/kallsyms", "r");
	while (f && fgets(line, sizeof(line), f)) {
		const struct pt_range *r;

		if (!kallsyms_parse(line, &addr, sym, mod) || !match(sym, mod))
			continue;
		tp->symbols++;
		r = pt_find(addr);
		if (!r || !r->present || r->writable || !r->exec ||
		    (want_pmd && strcmp(r->level, "pmd"))) {
			misplaced(sym, addr, r ? r->text : "not mapped");
			tp->misplaced++;
		}
		for (i = 0; i < tp->regions && region[i] != addr >> 21; i++)
			;
		if (i == tp->regions && i < TEXT_PAGES_MAX)
			region[tp->regions++] = addr >> 21;
		for (i = 0; i < tp->pages && page[i] != addr >> 12; i++)
			;
		if (i < tp->pages || i == TEXT_PAGES_MAX)
			continue;
		page[tp->pages++] = addr >> 12;
		if (r && !strcmp(r->level, "pte"))
			tp->pte++;
	}
	if (f)
		fclose(f);
}

#endif
