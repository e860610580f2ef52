/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Readers of execmem's debugfs files, in the formats
 * Documentation/core-api/execmem.rst gives: chunks (a line per chunk),
 * users (a line per user) and stats (a line per counter). Shared by the
 * guest programs and the host's golden tests, which feed them canned
 * files; a line that does not read as its format says is an error, never
 * skipped.
 */
#ifndef EXECSTAT_H
#define EXECSTAT_H

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXECSTAT_DIR	"/sys/kernel/debug/execmem/"
#define EXECSTAT_CELLS	64
#define EXECSTAT_UNIT	64

struct execstat_chunk {
	uint64_t start, size;
	int node;
	char kind[8], pool[24], map[8];
	long used, free, longest;
	unsigned long long epoch;
	char cells[EXECSTAT_CELLS + 1];
};

/* A whole file, NUL-terminated, or NULL if it cannot be read. */
static inline char *execstat_read(const char *name)
{
	char path[256], *p = NULL;
	size_t len = 0, n;
	FILE *f;

	snprintf(path, sizeof(path), EXECSTAT_DIR "%s", name);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	do {
		char *q = realloc(p, len + 4097);

		if (!q) {
			free(p);
			fclose(f);
			return NULL;
		}
		p = q;
		n = fread(p + len, 1, 4096, f);
		len += n;
	} while (n == 4096);
	p[len] = '\0';
	if (ferror(f)) {
		free(p);
		p = NULL;
	}
	fclose(f);
	return p;
}

static inline int execstat_one_of(const char *s, const char *const *set)
{
	for (; *set; set++)
		if (!strcmp(s, *set))
			return 1;
	return 0;
}

/*
 * A count as the kernel prints an unsigned long, into a long: -1 if it is
 * past LONG_MAX, which no count of units or bytes reaches, but a counter
 * taken below zero does.
 */
static inline long execstat_count(unsigned long v)
{
	return v > (unsigned long)LONG_MAX ? -1 : (long)v;
}

/*
 * One line of chunks into @c: 0, or -1 if it does not read as the format
 * says or does not add up (used and free units make the size, the
 * longest free run is no longer than what is free, 64 cells, all empty
 * only when nothing is used and all full only when nothing is free).
 */
static inline int execstat_chunk_line(const char *line, struct execstat_chunk *c)
{
	static const char *const kinds[] = { "tail", "spare", "chunk", NULL };
	static const char *const maps[] = { "pmd", "pte", "bad", "unknown", NULL };
	unsigned long used, free, longest;
	int end = 0, empty, full;

	memset(c, 0, sizeof(*c));
	if (sscanf(line, "0x%" SCNx64 " size=%" SCNu64 " node=%d kind=%7s pool=%23s map=%7s "
		   "used=%lu free=%lu longest=%lu epoch=%llu cells=%64s%n",
		   &c->start, &c->size, &c->node, c->kind, c->pool, c->map, &used,
		   &free, &longest, &c->epoch, c->cells, &end) != 11 ||
	    (line[end] && line[end] != '\n'))
		return -1;
	c->used = execstat_count(used);
	c->free = execstat_count(free);
	c->longest = execstat_count(longest);
	empty = strspn(c->cells, ".") == EXECSTAT_CELLS;
	full = strspn(c->cells, "#") == EXECSTAT_CELLS;
	if (!execstat_one_of(c->kind, kinds) || !execstat_one_of(c->map, maps) ||
	    strlen(c->cells) != EXECSTAT_CELLS || strspn(c->cells, ".123456789#") != EXECSTAT_CELLS ||
	    c->used < 0 || c->free < 0 || c->longest < 0 || c->longest > c->free ||
	    !c->size || c->size % 4096 ||
	    (uint64_t)(c->used + c->free) != c->size / EXECSTAT_UNIT ||
	    empty != !c->used || full != !c->free)
		return -1;
	return 0;
}

/*
 * Every line of a chunks file @text into @out (at most @max). Returns
 * the number of chunks, or -1 if a line is malformed (and its number,
 * from 1, in *@bad).
 */
static inline int execstat_chunks(const char *text, struct execstat_chunk *out, int max,
				  int *bad)
{
	const char *p = text;
	int n = 0, line = 0;
	char buf[512];

	*bad = 0;
	while (p && *p) {
		size_t len = strcspn(p, "\n");

		line++;
		snprintf(buf, sizeof(buf), "%.*s", (int)len, p);
		p += len + (p[len] == '\n');
		if (len >= sizeof(buf) - 1 || n >= max || execstat_chunk_line(buf, &out[n])) {
			*bad = line;
			return -1;
		}
		n++;
	}
	return n;
}

/*
 * The line of users for @user, or with @user NULL every line summed: its
 * allocations and bytes. Returns 0, or -1 if there is no such line, it
 * is malformed, or a line of the file is.
 */
static inline int execstat_user(const char *text, const char *user, long *allocs, long *bytes)
{
	const char *p = text;
	int found = -1;

	while (p && *p) {
		unsigned long ua, ub;
		char name[32];
		long a, b;
		int end = 0;

		if (sscanf(p, "%31s allocs=%lu bytes=%lu%n", name, &ua, &ub, &end) != 3 ||
		    (p[end] && p[end] != '\n'))
			return -1;
		a = execstat_count(ua);
		b = execstat_count(ub);
		if (a < 0 || b < 0 || (!a) != (!b))
			return -1;
		if (!user) {
			*allocs = found ? a : *allocs + a;
			*bytes = found ? b : *bytes + b;
			found = 0;
		} else if (!strcmp(name, user)) {
			*allocs = a;
			*bytes = b;
			found = 0;
		}
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return found;
}

/* The counter @name of stats, or -1 if it is missing or a line is malformed. */
static inline long execstat_stat(const char *text, const char *name)
{
	const char *p = text;
	long found = -1;

	while (p && *p) {
		unsigned long uv;
		char key[32];
		long v;
		int end = 0;

		if (sscanf(p, "%31s %lu%n", key, &uv, &end) != 2 || (p[end] && p[end] != '\n'))
			return -1;
		v = execstat_count(uv);
		if (v < 0)
			return -1;
		if (!strcmp(key, name))
			found = v;
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return found;
}

#endif
