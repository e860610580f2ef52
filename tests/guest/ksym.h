/* SPDX-License-Identifier: GPL-2.0 */
/* The address of a kernel symbol from /proc/kallsyms, for guest programs. */
#ifndef KSYM_H
#define KSYM_H

#include <stdio.h>
#include <string.h>

/* The address of @name, or 0 if kallsyms does not list it (or hides it). */
static inline unsigned long long ksym_addr(const char *name)
{
	unsigned long long addr, found = 0;
	char line[512], sym[256], type;
	FILE *f = fopen("/proc/kallsyms", "r");

	while (f && !found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %255s", &addr, &type, sym) == 3 && !strcmp(sym, name))
			found = addr;
	if (f)
		fclose(f);
	return found;
}

#endif
