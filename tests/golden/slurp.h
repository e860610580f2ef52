/* SPDX-License-Identifier: GPL-2.0 */
/* Read a canned log whole, for the golden front ends. */
#ifndef SLURP_H
#define SLURP_H

#include <stdio.h>

/* Read @path into @buf (NUL-terminated); 0, or -1 with a message. */
static inline int slurp(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f) {
		perror(path);
		return -1;
	}
	n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
	fclose(f);
	return 0;
}

#endif
