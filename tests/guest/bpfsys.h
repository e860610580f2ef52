/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the guest's BPF programs (bpf_fleet, bpf_tramp) share: the bpf()
 * system call and the one-entry array maps they keep results in, without
 * libbpf, and a named skip for their TAP. Include after kselftest.h.
 */
#ifndef BPFSYS_H
#define BPFSYS_H

#include <linux/bpf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static inline int sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

/* An array map of one entry of @value_size bytes. */
static inline int map_create(uint32_t value_size, uint32_t flags)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = 4;
	attr.value_size = value_size;
	attr.max_entries = 1;
	attr.map_flags = flags;
	return sys_bpf(BPF_MAP_CREATE, &attr);
}

/* Look the entry up or update it (@cmd), from or into @value. */
static inline int map_rw(int fd, int cmd, void *value)
{
	union bpf_attr attr;
	uint32_t key = 0;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd;
	attr.key = (uintptr_t)&key;
	attr.value = (uintptr_t)value;
	return sys_bpf(cmd, &attr);
}

/*
 * kselftest.h prints a skip as "ok N # SKIP reason", with no name, which
 * KTAP parsers (kunit.py among them) do not take as a result. Name it.
 */
static inline void skip_named(const char *name, const char *reason)
{
	ksft_inc_xskip_cnt();
	printf("ok %u %s # SKIP %s\n", ksft_test_num(), name, reason);
}

#endif
