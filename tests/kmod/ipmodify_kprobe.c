// SPDX-License-Identifier: GPL-2.0
/*
 * A kprobe that modifies the IP, for the guest's bpf_tramp_kernel step
 * (make check): it makes BPF trampolines on the same function take their
 * other path through ftrace. Built out of tree against each x86_64
 * kernel with kprobes.
 *
 * Writing 1 to its parameter "armed" registers a kprobe with a post
 * handler on bpf_modify_return_test(), the function bpf_tramp -k traces.
 * kprobes puts such a probe at a function's entry on ftrace, with an
 * ftrace_ops that may modify the IP (FTRACE_OPS_FL_IPMODIFY); the write
 * fails unless it did. A BPF trampoline that calls the function (fexit,
 * fmod_ret) must then be built so that both can run:
 *   - armed before BPF attaches, ftrace refuses BPF's direct call with
 *     -EAGAIN, and BPF builds the trampoline again with other flags
 *     (bpf_trampoline_update()'s retry);
 *   - armed while BPF is attached, ftrace asks BPF to rebuild the live
 *     trampoline, and again when the probe goes (disarm).
 * The parameter "hits" counts the calls the probe saw since it was armed.
 * Writing 0 unregisters the probe.
 */
#define pr_fmt(fmt) "ipmodify_kprobe: " fmt

#include <linux/kprobes.h>
#include <linux/module.h>

static unsigned int hits;
module_param(hits, uint, 0444);
MODULE_PARM_DESC(hits, "calls of bpf_modify_return_test() the probe saw since it was armed");

static int ipmodify_pre(struct kprobe *p, struct pt_regs *regs)
{
	return 0;
}

/* Its being there is what makes kprobes take the IPMODIFY ops. */
static void ipmodify_post(struct kprobe *p, struct pt_regs *regs, unsigned long flags)
{
	WRITE_ONCE(hits, READ_ONCE(hits) + 1);
}

static struct kprobe probe;

static int armed_arm(void)
{
	int ret;

	/* A kprobe is registered anew from a clean slate each time. */
	memset(&probe, 0, sizeof(probe));
	probe.symbol_name = "bpf_modify_return_test";
	probe.pre_handler = ipmodify_pre;
	probe.post_handler = ipmodify_post;
	WRITE_ONCE(hits, 0);
	ret = register_kprobe(&probe);
	if (ret) {
		pr_err("register_kprobe: %d\n", ret);
		return ret;
	}
	if (!kprobe_ftrace(&probe)) {
		pr_err("the probe is not on ftrace, so no IPMODIFY ops\n");
		unregister_kprobe(&probe);
		return -EOPNOTSUPP;
	}
	return 0;
}

static int armed_disarm(void)
{
	unregister_kprobe(&probe);
	return 0;
}

#include "armed.h"

MODULE_DESCRIPTION("An IPMODIFY kprobe beside BPF trampolines, for execmem's tests");
MODULE_LICENSE("GPL");
