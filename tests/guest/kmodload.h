/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test modules of the initramfs (/modules), for guest programs:
 * load, unload, and wait out what loading one does to the direct map.
 */
#ifndef KMODLOAD_H
#define KMODLOAD_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "meminfo.h"

#define MODDIR "/modules/"

static inline int load_module(const char *file, const char *params)
{
	char path[256];
	int fd, ret;

	snprintf(path, sizeof(path), MODDIR "%s", file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = syscall(SYS_finit_module, fd, params, 0);
	ret = ret ? -errno : 0;
	close(fd);
	return ret;
}

static inline void unload_module(const char *name)
{
	syscall(SYS_delete_module, name, O_NONBLOCK);
}

static inline int have_module(const char *file)
{
	char path[256];

	snprintf(path, sizeof(path), MODDIR "%s", file);
	return access(path, R_OK) == 0;
}

/* Areas of loaded modules: /proc/vmallocinfo names move_module() as their caller. */
static inline int module_areas(void)
{
	char line[512];
	FILE *f = fopen("/proc/vmallocinfo", "r");
	int n = 0;

	while (f && fgets(line, sizeof(line), f))
		n += strstr(line, " move_module+") != NULL;
	if (f)
		fclose(f);
	return n;
}

/*
 * A module's init sections (and the full symbol table, which kallsyms
 * copies from) are freed by a work item after its init returned, and
 * that free resets the direct map under them, which can split it. Wait
 * until only the new module's core is left of what loading it mapped
 * (@before: module_areas() before the load), and then until DirectMap4k
 * reads the same twice: it is changed just after the area goes.
 * Returns 0, or -1 after 10 s.
 */
static inline int module_init_freed(int before)
{
	long dm = -2;
	int i;

	for (i = 0; i < 100; i++) {
		if (module_areas() <= before + 1) {
			if (meminfo("DirectMap4k") == dm)
				return 0;
			dm = meminfo("DirectMap4k");
		}
		usleep(100 * 1000);
	}
	return -1;
}

#endif
