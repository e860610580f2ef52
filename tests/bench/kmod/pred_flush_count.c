// SPDX-License-Identifier: GPL-2.0
/*
 * Count the predictor flushes BPF asks for, for make bench: one module
 * for the baseline and the patched kernel alike.
 *
 * Both kernels flush through the static call bpf_arch_pred_flush, and
 * only while the static key bpf_pred_flush_enabled is on; x86 turns the
 * key on at boot where the CPU wants an IBPB before classic BPF runs in
 * memory that other code left. A TCG guest's CPU does not, so neither
 * kernel decides to flush there. Loading this module points the call at
 * a counter and turns the key on: from then on each kernel decides as it
 * would on such a CPU, and each decision is counted instead of running
 * an IBPB. The guest reads the count from the parameter "flushes".
 * Unloading puts the call's target and the key back.
 *
 * Neither symbol is exported: the guest passes their addresses from
 * /proc/kallsyms (key=, and sck= and sct=, the static call's key and
 * trampoline). A kernel that flushes for real already is refused: the
 * counter must never stand in for an IBPB.
 */
#define pr_fmt(fmt) "pred_flush_count: " fmt

#include <linux/jump_label.h>
#include <linux/module.h>
#include <linux/static_call.h>

static unsigned long key, sck, sct;
module_param(key, ulong, 0400);
MODULE_PARM_DESC(key, "address of bpf_pred_flush_enabled");
module_param(sck, ulong, 0400);
MODULE_PARM_DESC(sck, "address of __SCK__bpf_arch_pred_flush");
module_param(sct, ulong, 0400);
MODULE_PARM_DESC(sct, "address of __SCT__bpf_arch_pred_flush");

/* Both kernels call the flush under a mutex of their own: one at a time. */
static unsigned int flushes;
module_param(flushes, uint, 0444);
MODULE_PARM_DESC(flushes, "predictor flushes BPF asked for since this module was loaded");

static void *old_target;

static void count_flush(void)
{
	WRITE_ONCE(flushes, flushes + 1);
}

static int __init pred_flush_count_init(void)
{
	struct static_call_key *call = (struct static_call_key *)sck;
	struct static_key *flush_key = (struct static_key *)key;

	if (!key || !sck || !sct)
		return -EINVAL;
	if (static_key_enabled(flush_key)) {
		pr_err("this kernel flushes the predictors already\n");
		return -EBUSY;
	}
	old_target = READ_ONCE(call->func);
	__static_call_update(call, (void *)sct, count_flush);
	static_key_enable(flush_key);
	pr_info("counting\n");
	return 0;
}

static void __exit pred_flush_count_exit(void)
{
	static_key_disable((struct static_key *)key);
	__static_call_update((struct static_call_key *)sck, (void *)sct, old_target);
}

module_init(pred_flush_count_init);
module_exit(pred_flush_count_exit);
MODULE_DESCRIPTION("count the predictor flushes BPF asks for, instead of doing them");
MODULE_LICENSE("GPL");
