/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The start that the guest's module-driven BPF steps (cbpf_where,
 * jit_free) share. Include after kselftest.h, bpfsys.h and kmodload.h.
 */
#ifndef MODSTEP_H
#define MODSTEP_H

#include <libgen.h>
#include <unistd.h>

/*
 * Read "-m MODULE", print the TAP header and a plan of @n results; where
 * the initramfs has no such module, skip every one of @results by name
 * ("no NAME module in this initramfs", NAME the program's) and finish.
 * Otherwise turn the BPF JIT on and return MODULE, for load_module().
 */
static inline const char *modstep_begin(int argc, char **argv, const char *const *results,
					int n)
{
	const char *mod = NULL, *name = basename(argv[0]);
	char reason[64];
	int opt, ret;

	while ((opt = getopt(argc, argv, "m:")) != -1)
		if (opt == 'm')
			mod = optarg;
	ksft_print_header();
	if (!mod)
		ksft_exit_fail_msg("usage: %s -m MODULE\n", name);
	ksft_set_plan(n);
	if (!have_module(mod)) {
		snprintf(reason, sizeof(reason), "no %s module in this initramfs", name);
		for (opt = 0; opt < n; opt++)
			skip_named(results[opt], reason);
		ksft_finished();
	}
	ret = write_file("/proc/sys/net/core/bpf_jit_enable", "1");
	if (ret)
		ksft_print_msg("bpf_jit_enable: %s\n", strerror(-ret));
	return mod;
}

#endif
