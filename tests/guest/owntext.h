/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Dynamic text that a test made itself (its probes' slots, its
 * trampoline, its programs), given as "ADDR LEN" lines: is every 4K page
 * of it mapped as it should be, and is the direct map's alias of each
 * page left on a large mapping? The page tables are ptdump.h's, which
 * the caller loads first.
 */
#ifndef OWNTEXT_H
#define OWNTEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ptdump.h"

/* The most a range may span: more is a garbled line, not text. */
#define OWN_TEXT_MAX	(64ull << 20)

struct own_text {
	int ranges;		/* "ADDR LEN" lines read */
	int malformed;		/* lines that were not */
	int pages;		/* 4K pages of the ranges, each counted once a range */
	int misplaced;		/* of them, not present RO+X, or not on a PMD where wanted */
	int alias_pte;		/* of them, with the direct map's alias split for them */
	int alias_large;	/* ... on a PMD or PUD mapping */
	int alias_whole;	/* ... on 4K, in a 2M whose pages all share its permissions */
	int alias_image;	/* ... in the kernel image (the text tail) */
	int alias_unknown;	/* ... that the alias lookup could not answer */
};

/*
 * The direct map's mapping of @page's alias, as tests/kmod/textalias.c
 * answers: "pmd" or "pud"; "pte" where this page alone, or with some of
 * its neighbours, had its permissions changed (split for it);
 * "pte-whole" where all of its 2M share its permissions (split before,
 * by something else, then changed as a whole); "image" for a page of the
 * kernel image; "none", or NULL where nothing can tell.
 */
typedef const char *(*own_text_alias_fn)(uint64_t page);

/*
 * Judge the "ADDR LEN" lines (hex address, decimal length) of @ranges:
 * every 4K page of each range must be present, read-only and executable
 * in the page tables, and, where @want_pmd, mapped by a PMD with its
 * alias known and not split for it ("pte-whole", and text in the
 * kernel image, whose alias is mapped at boot, count as not split).
 * Where !@want_pmd the aliases are counted, not judged; so too where
 * @alias is NULL, which a caller passes only where nothing could tell
 * (a kernel without modules). At least one range is needed, and none
 * may be malformed. Returns 0 if all holds, -1 if not; @why (of @len
 * bytes) says what was found.
 */
static inline int own_text_judge(const char *ranges, int want_pmd, own_text_alias_fn alias,
				 struct own_text *ot, char *why, size_t len)
{
	char first[320] = "";
	const char *p;
	int ok;

	memset(ot, 0, sizeof(*ot));
	for (p = ranges; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		unsigned long long addr, size, a;
		char line[128], extra;
		size_t n = strcspn(p, "\n");

		if (!n)
			continue;
		/* One line at a time: sscanf() would read on into the next. */
		snprintf(line, sizeof(line), "%.*s", (int)(n < sizeof(line) ? n : sizeof(line) - 1), p);
		if (n >= sizeof(line) || strchr(line, '-') ||
		    sscanf(line, "%llx %llu %c", &addr, &size, &extra) != 2 ||
		    !size || size > OWN_TEXT_MAX || addr + size < addr) {
			ot->malformed++;
			continue;
		}
		ot->ranges++;
		for (a = addr & ~4095ull; a < addr + size; a += 4096) {
			const struct pt_range *r = pt_find(a);
			const char *lvl = alias ? alias(a) : NULL;

			ot->pages++;
			if (!r || !r->present || r->writable || !r->exec ||
			    (want_pmd && strcmp(r->level, "pmd"))) {
				if (!ot->misplaced++)
					snprintf(first, sizeof(first), "; first misplaced: %#llx: %s", a,
						 r ? r->text : "not mapped");
			}
			if (!lvl || !strcmp(lvl, "none"))
				ot->alias_unknown++;
			else if (!strcmp(lvl, "pte"))
				ot->alias_pte++;
			else if (!strcmp(lvl, "image"))
				ot->alias_image++;
			else if (!strcmp(lvl, "pmd") || !strcmp(lvl, "pud"))
				ot->alias_large++;
			else if (!strcmp(lvl, "pte-whole"))
				ot->alias_whole++;
			else
				ot->alias_unknown++;
		}
	}
	ok = ot->ranges && !ot->malformed && !ot->misplaced &&
	     (!want_pmd || !alias || (!ot->alias_pte && !ot->alias_unknown));
	snprintf(why, len,
		 "%d ranges (%d malformed) in %d pages, %d misplaced (wanted: RO+X%s); aliases: %d split for them, %d large, %d on 4K but changed as a whole, %d in the image, %d unknown%s%s",
		 ot->ranges, ot->malformed, ot->pages, ot->misplaced, want_pmd ? ", on PMDs" : "",
		 ot->alias_pte, ot->alias_large, ot->alias_whole, ot->alias_image, ot->alias_unknown,
		 want_pmd && alias ? "" : " (not judged)", first);
	return ok ? 0 : -1;
}

#endif
