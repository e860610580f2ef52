// SPDX-License-Identifier: GPL-2.0
/*
 * One free for a JIT image that was never finalized, for the guest's
 * jit_free step (make check).
 *
 * The x86 JIT compiles each function of a program with bpf-to-bpf calls
 * twice, and an image stays pending (written to its RW buffer only)
 * between the two passes. When the first pass fails for a later function,
 * jit_subprogs() frees the earlier ones with their images still pending.
 * While the parameter "pid" names a task, this module makes that happen
 * to the task's next load, and makes it as hard as it can be:
 *   - it turns the JIT off (jit_requested) for the second function that
 *     the task has compiled, so that function's first pass fails;
 *   - it makes every execmem_fill() of the task report failure, so that
 *     a free that copies the pending image in first sees the copy fail.
 * It counts what it did in "tripped" and "fills_failed", and the task's
 * calls of execmem_free() in "frees": the pending image of the first
 * function must be freed exactly once. Writing 0 to "pid" stops it.
 */
#define pr_fmt(fmt) "jit_free: " fmt

#include <linux/err.h>
#include <linux/filter.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/sched.h>

static int pid;
module_param(pid, int, 0600);
MODULE_PARM_DESC(pid, "the task whose loads are made to fail (0: none)");

static atomic_t compiles, tripped, fills_failed, frees;
module_param_named(tripped, tripped.counter, int, 0444);
MODULE_PARM_DESC(tripped, "functions whose first pass was made to fail");
module_param_named(fills_failed, fills_failed.counter, int, 0444);
MODULE_PARM_DESC(fills_failed, "execmem_fill() calls made to report failure");
module_param_named(frees, frees.counter, int, 0444);
MODULE_PARM_DESC(frees, "execmem_free() calls of the task");

static bool is_target(void)
{
	int target = READ_ONCE(pid);

	return target && task_pid_nr(current) == target;
}

static int compile_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct bpf_prog *prog = (struct bpf_prog *)regs_get_kernel_argument(regs, 0);

	if (!is_target() || !prog->is_func)
		return 0;
	if (atomic_inc_return(&compiles) == 2) {
		prog->jit_requested = 0;
		atomic_inc(&tripped);
	}
	return 0;
}

static struct kprobe compile_probe = {
	.symbol_name = "bpf_int_jit_compile",
	.pre_handler = compile_pre,
};

static int fill_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	if (!is_target())
		return 0;
	regs_set_return_value(regs, (unsigned long)ERR_PTR(-EFAULT));
	atomic_inc(&fills_failed);
	return 0;
}

static struct kretprobe fill_probe = {
	.kp.symbol_name = "execmem_fill",
	.handler = fill_ret,
	.maxactive = 4,
};

static int free_pre(struct kprobe *p, struct pt_regs *regs)
{
	if (is_target())
		atomic_inc(&frees);
	return 0;
}

static struct kprobe free_probe = {
	.symbol_name = "execmem_free",
	.pre_handler = free_pre,
};

static int __init jit_free_init(void)
{
	int ret;

	ret = register_kprobe(&compile_probe);
	if (ret)
		goto err;
	ret = register_kprobe(&free_probe);
	if (ret)
		goto err_compile;
	ret = register_kretprobe(&fill_probe);
	if (ret)
		goto err_free;
	return 0;

err_free:
	unregister_kprobe(&free_probe);
err_compile:
	unregister_kprobe(&compile_probe);
err:
	pr_err("cannot probe: %d\n", ret);
	return ret;
}
module_init(jit_free_init);

static void __exit jit_free_exit(void)
{
	unregister_kretprobe(&fill_probe);
	unregister_kprobe(&free_probe);
	unregister_kprobe(&compile_probe);
}
module_exit(jit_free_exit);

MODULE_DESCRIPTION("Fail a JIT between its passes, to count the frees of its images");
MODULE_LICENSE("GPL");
