/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test modules of the initramfs (/modules), for guest programs:
 * load, unload, drive through their parameters, and wait out what
 * loading one does to the direct map.
 */
#ifndef KMODLOAD_H
#define KMODLOAD_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "meminfo.h"

#define MODDIR "/modules/"

/* Write @val to the file @path (sysfs, procfs); 0 or -errno. */
static inline int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, val, strlen(val));
	close(fd);
	return n < 0 ? -errno : 0;
}

/* The number the file @path holds, or -1. */
static inline int read_int(const char *path)
{
	char val[32] = "";
	int fd = open(path, O_RDONLY), n;

	if (fd < 0)
		return -1;
	n = read(fd, val, sizeof(val) - 1);
	close(fd);
	return n > 0 ? atoi(val) : -1;
}

/* Write @val to parameter @param of the loaded module @mod; 0 or -errno. */
static inline int module_param_write(const char *mod, const char *param, const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/module/%s/parameters/%s", mod, param);
	return write_file(path, val);
}

/* The number parameter @param of the loaded module @mod holds, or -1. */
static inline int module_param_read(const char *mod, const char *param)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/module/%s/parameters/%s", mod, param);
	return read_int(path);
}

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

/* Lines of @path that hold both @a and @b, or -1 without the file. */
static inline int count_lines(const char *path, const char *a, const char *b)
{
	char line[512];
	FILE *f = fopen(path, "r");
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		n += strstr(line, a) && strstr(line, b);
	fclose(f);
	return n;
}

/* One pass: areas of loaded modules (vmallocinfo names move_module()). */
static inline int module_areas_once(void)
{
	return count_lines("/proc/vmallocinfo", " move_module+", " move_module+");
}

/*
 * Areas of loaded modules, as three passes in a row count them; -1 if
 * none agreed in 50 passes. /proc/vmallocinfo is a seq_file that resumes
 * by position at each read(): an area freed below the reader between two
 * reads (a module's init sections, a BPF program's struct bpf_prog) makes
 * one pass skip a line, and so can two in a row.
 */
static inline int module_areas(void)
{
	int n = module_areas_once(), prev, same = 0, tries;

	for (tries = 0; n >= 0 && same < 2 && tries < 50; tries++) {
		prev = n;
		n = module_areas_once();
		same = n == prev ? same + 1 : 0;
	}
	return same < 2 ? -1 : n;
}

/*
 * A module's init sections (and the full symbol table, which kallsyms
 * copies from) are freed by a work item after its init returned, and
 * that free resets the direct map under them, which can split it. Wait
 * until only the new module's core is left of what loading it mapped
 * (@before: module_areas() before the load), and then until DirectMap4k
 * reads the same twice: it is changed just after the area goes.
 * Returns 0, or -1 after 10 s or when @before is -1.
 */
static inline int module_init_freed(int before)
{
	long dm = -2;
	int i, n;

	for (i = 0; before >= 0 && i < 100; i++) {
		n = module_areas();
		if (n >= 0 && n <= before + 1) {
			if (meminfo("DirectMap4k") == dm)
				return 0;
			dm = meminfo("DirectMap4k");
		}
		usleep(100 * 1000);
	}
	return -1;
}

#endif
