// SPDX-License-Identifier: GPL-2.0
/*
 * Where classic BPF is JITed, for the guest's cbpf_where step (make
 * check). Classic BPF is not in kallsyms and has no file descriptor to
 * ask, so this module watches bpf_prog_select_runtime() with a kretprobe
 * and keeps, for each classic program it returns, the address of its
 * code and whether it was JITed.
 *
 * The parameter "progs" lists what was seen since the module was loaded,
 * one program a line, as "<bpf_func> <jited>" in hex and decimal. Its
 * own classic filter, built with bpf_prog_create() at load time, is the
 * first line; the guest then loads a seccomp filter and a socket filter
 * from user space, and reads the lines they added.
 */
#define pr_fmt(fmt) "cbpf_where: " fmt

#include <linux/filter.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/spinlock.h>

#define MAX_PROGS	16

static struct {
	unsigned long func;
	bool jited;
} seen[MAX_PROGS];
static unsigned int nr_seen;
static DEFINE_SPINLOCK(seen_lock);

static int select_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct bpf_prog *fp = (struct bpf_prog *)regs_return_value(regs);
	unsigned long flags;

	if (IS_ERR_OR_NULL(fp) || !bpf_prog_was_classic(fp))
		return 0;
	spin_lock_irqsave(&seen_lock, flags);
	if (nr_seen < MAX_PROGS) {
		seen[nr_seen].func = (unsigned long)fp->bpf_func;
		seen[nr_seen].jited = fp->jited;
		nr_seen++;
	}
	spin_unlock_irqrestore(&seen_lock, flags);
	return 0;
}

static struct kretprobe select_probe = {
	.kp.symbol_name = "bpf_prog_select_runtime",
	.handler = select_ret,
	.maxactive = 8,
};

static int progs_get(char *buf, const struct kernel_param *kp)
{
	unsigned long flags;
	unsigned int i;
	int len = 0;

	spin_lock_irqsave(&seen_lock, flags);
	for (i = 0; i < nr_seen; i++)
		len += scnprintf(buf + len, PAGE_SIZE - len, "%lx %d\n",
				 seen[i].func, seen[i].jited);
	spin_unlock_irqrestore(&seen_lock, flags);
	return len;
}

static const struct kernel_param_ops progs_ops = {
	.get = progs_get,
};
module_param_cb(progs, &progs_ops, NULL, 0444);
MODULE_PARM_DESC(progs, "classic programs seen: code address (hex) and whether JITed");

static struct bpf_prog *own;

static int __init cbpf_where_init(void)
{
	/* "ret #0": the smallest classic program there is. */
	struct sock_filter insns[] = { BPF_STMT(BPF_RET | BPF_K, 0) };
	struct sock_fprog_kern fprog = { .len = ARRAY_SIZE(insns), .filter = insns };
	int ret;

	ret = register_kretprobe(&select_probe);
	if (ret) {
		pr_err("register_kretprobe: %d\n", ret);
		return ret;
	}
	ret = bpf_prog_create(&own, &fprog);
	if (ret) {
		pr_err("bpf_prog_create: %d\n", ret);
		unregister_kretprobe(&select_probe);
	}
	return ret;
}
module_init(cbpf_where_init);

static void __exit cbpf_where_exit(void)
{
	unregister_kretprobe(&select_probe);
	bpf_prog_destroy(own);
}
module_exit(cbpf_where_exit);

MODULE_DESCRIPTION("Report where classic BPF programs are JITed");
MODULE_LICENSE("GPL");
