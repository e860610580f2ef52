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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "meminfo.h"
#include "ptdump.h"

#define MODDIR "/modules/"

/*
 * One line per module load_module() loaded, where the environment has
 * MODTEXT_RECORD set (init sets it for the modes with a module_text
 * step): see module_text_record().
 */
#define MODTEXT_LOG	"/module_text"
#define MODTEXT_RECORD	"record_module_text"

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

/* The kernel's "execmem.modules" switch: 'Y', 'N', or 0 without one. */
static inline char execmem_modules_switch(void)
{
	char val[8] = "";
	FILE *f = fopen("/sys/module/execmem/parameters/modules", "r");

	if (f) {
		if (!fgets(val, sizeof(val), f))
			val[0] = '\0';
		fclose(f);
	}
	return val[0];
}

/* Whether this kernel puts module text on execmem. */
static inline int module_text_on_execmem(void)
{
	return execmem_modules_switch() == 'Y';
}

/*
 * How module text is to be mapped where the host expects execmem
 * (fleet=execmem on the command line): by PMDs (1), or, on a kernel
 * booted with execmem.modules=off, by 4K pages of module_alloc()'s (-1).
 * 0 where the host expects no execmem: RO+X is all that is asked. The
 * base kernel (make control) is booted with fleet=execmem too, and has
 * no such switch: there the checks must fail.
 */
static inline int module_text_want(void)
{
	const char *fleet = getenv("fleet");

	if (!fleet || strcmp(fleet, "execmem"))
		return 0;
	return execmem_modules_switch() == 'N' ? -1 : 1;
}

/*
 * What MODTEXT_LOG says of module @name: 1, with *@pages and *@misplaced
 * set, or 0 where it holds no line for it.
 */
static inline int module_text_lookup(const char *name, int *pages, int *misplaced)
{
	char line[256], mod[64];
	FILE *f = fopen(MODTEXT_LOG, "r");
	int found = 0;

	while (f && !found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%63s %d %d", mod, pages, misplaced) == 3 &&
			!strcmp(mod, name);
	if (f)
		fclose(f);
	return found;
}

/* Where module @name has its core text, from /proc/modules; 0 if nowhere. */
static inline unsigned long long module_text_addr(const char *name)
{
	unsigned long long addr = 0, a;
	char line[512], mod[64];
	FILE *f = fopen("/proc/modules", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %*s %*s %*s %*s %llx", mod, &a) == 2 &&
		    !strcmp(mod, name))
			addr = a;
	if (f)
		fclose(f);
	return addr;
}

/*
 * Where module @name, just loaded, has its core text: every 4K page from
 * its address in /proc/modules for its coresize must be mapped read-only
 * and executable, and by a PMD or by 4K pages as module_text_want() says.
 * Appends "NAME PAGES MISPLACED" to MODTEXT_LOG, for the guest's
 * module_text step to judge; PAGES is 0 where the module was not found.
 * A module is recorded at its first load only.
 */
static inline void module_text_record(const char *name)
{
	int size, pages = 0, misplaced = 0, want = module_text_want();
	unsigned long long addr, a;
	char path[128];
	FILE *f;

	if (module_text_lookup(name, &pages, &misplaced))
		return;
	pages = misplaced = 0;
	addr = module_text_addr(name);
	snprintf(path, sizeof(path), "/sys/module/%s/coresize", name);
	size = read_int(path);
	pt_load();
	for (a = addr & ~0xfffULL; addr && size > 0 && a < addr + size; a += 4096) {
		const struct pt_range *r = pt_find(a);

		pages++;
		misplaced += !r || !r->present || r->writable || !r->exec ||
			     (want > 0 && strcmp(r->level, "pmd")) ||
			     (want < 0 && strcmp(r->level, "pte"));
	}
	f = fopen(MODTEXT_LOG, "a");
	if (f) {
		fprintf(f, "%s %d %d\n", name, pages, misplaced);
		fclose(f);
	}
}

/* Load /modules/@file with @params, and nothing else; 0 or -errno. */
static inline int load_module_only(const char *file, const char *params)
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

/* The name module file @file loads as: no ".ko", '_' for '-'. */
static inline void module_name(const char *file, char *name, size_t len)
{
	size_t i;

	snprintf(name, len, "%s", file);
	name[strcspn(name, ".")] = '\0';
	for (i = 0; name[i]; i++)
		if (name[i] == '-')
			name[i] = '_';
}

/*
 * Load /modules/@file with @params; 0 or -errno. A module that loaded
 * has where its text is recorded (module_text_record()).
 */
static inline int load_module(const char *file, const char *params)
{
	char name[64];
	int ret = load_module_only(file, params);

	if (ret || !getenv(MODTEXT_RECORD))
		return ret;
	module_name(file, name, sizeof(name));
	module_text_record(name);
	return 0;
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

/*
 * The vmalloc areas whose caller is @caller (" move_module+": module
 * memory; "execmem_create_chunk": execmem's chunks), as three passes in
 * a row count them; -1 if none agreed in 50 passes. /proc/vmallocinfo is
 * a seq_file that resumes by position at each read(): an area freed
 * below the reader between two reads (a module's init sections, a BPF
 * program's struct bpf_prog) makes one pass skip a line, and so can two
 * in a row.
 */
static inline int vm_areas(const char *caller)
{
	int n = count_lines("/proc/vmallocinfo", caller, caller), prev, same = 0, tries;

	for (tries = 0; n >= 0 && same < 2 && tries < 50; tries++) {
		prev = n;
		n = count_lines("/proc/vmallocinfo", caller, caller);
		same = n == prev ? same + 1 : 0;
	}
	return same < 2 ? -1 : n;
}

/* Areas of loaded modules (vmallocinfo names move_module()). */
static inline int module_areas(void)
{
	return vm_areas(" move_module+");
}

/*
 * Wait until no more than @areas areas of move_module()'s are left, and
 * then until DirectMap4k reads the same twice: it is changed just after
 * an area goes. Returns 0, or -1 after 10 s or when @areas is negative.
 */
static inline int module_areas_settle(int areas)
{
	long dm = -2;
	int i, n;

	for (i = 0; areas >= 0 && i < 100; i++) {
		n = module_areas();
		if (n >= 0 && n <= areas) {
			if (meminfo("DirectMap4k") == dm)
				return 0;
			dm = meminfo("DirectMap4k");
		}
		usleep(100 * 1000);
	}
	return -1;
}

/*
 * A module's init sections (and the full symbol table, which kallsyms
 * copies from) are freed by a work item after its init returned, and
 * that free resets the direct map under them, which can split it. Wait
 * until only the new module's core is left of what loading it mapped
 * (@before: module_areas() before the load; a core on execmem is no area
 * of move_module()'s, and its data is module_data_alloc()'s), and
 * DirectMap4k has settled. Returns 0, or -1 after 10 s or when @before
 * is -1.
 */
static inline int module_init_freed(int before)
{
	/* Module text on execmem leaves no area of move_module()'s behind. */
	return before < 0 ? -1 : module_areas_settle(before + !module_text_on_execmem());
}

/*
 * tests/kmod/textalias.ko, which tells where the direct map's alias of a
 * page of kernel text is mapped: loaded once, before a step reads
 * DirectMap4k (loading a module changes it); 0, or -1 where the module
 * is not on this kernel or will not load.
 */
static inline int text_alias_ready(void)
{
	static int ready;	/* 1 loaded, -1 not to be had, 0 not tried yet */
	int areas;

	if (!ready) {
		ready = -1;
		areas = module_areas();
		if (!access("/sys/module/textalias", F_OK)) {
			ready = 1;
		} else if (have_module("textalias.ko") && !load_module("textalias.ko", "")) {
			ready = 1;
			if (module_init_freed(areas))
				fprintf(stderr, "textalias.ko: its init sections not freed in 10 s\n");
		}
	}
	return ready > 0 ? 0 : -1;
}

/*
 * textalias.ko's answer for @page: "pte", "pmd", "pud", "image" or
 * "none", as own_text_judge() takes it (owntext.h); NULL without the
 * module.
 */
static inline const char *text_alias(uint64_t page)
{
	static const char query[] = "/sys/module/textalias/parameters/query";
	static char level[16];
	unsigned long long got;
	char buf[64] = "";
	int fd, n;

	if (text_alias_ready())
		return NULL;
	snprintf(buf, sizeof(buf), "%llx 1", (unsigned long long)page);
	if (write_file(query, buf))
		return NULL;
	fd = open(query, O_RDONLY);
	if (fd < 0)
		return NULL;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	/* The answer must be for this page, not another reader's query. */
	return sscanf(buf, "%llx %15s", &got, level) == 2 && got == page ? level : NULL;
}

/*
 * text_alias(), for own_text_judge(); NULL on a kernel without loadable
 * modules, where nothing can tell the aliases (and nothing is judged).
 * Where the kernel has modules, a textalias.ko that is missing or will
 * not load makes every alias unknown, and so a failure where judged.
 */
static inline const char *(*text_alias_lookup(void))(uint64_t)
{
	return access("/proc/modules", F_OK) ? NULL : text_alias;
}

/*
 * The text that the loaded module @mod made itself, as its parameter
 * "text" gives it ("ADDR LEN" lines, for own_text_judge()), into @buf of
 * @len bytes; 0 or -errno.
 */
static inline int module_own_text(const char *mod, char *buf, size_t len)
{
	char path[128];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/sys/module/%s/parameters/text", mod);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0) {
		n = -errno;
		close(fd);
		return n;
	}
	close(fd);
	buf[n] = '\0';
	return 0;
}

#endif
