/* SPDX-License-Identifier: GPL-2.0 */
/* One figure of /proc/meminfo, for guest programs. */
#ifndef MEMINFO_H
#define MEMINFO_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The value of @key in /proc/meminfo (kB for most), or -1 if it is not there. */
static inline long meminfo(const char *key)
{
	char line[256];
	size_t len = strlen(key);
	long val = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, len) && line[len] == ':')
			val = strtol(line + len + 1, NULL, 10);
	if (f)
		fclose(f);
	return val;
}

#endif
