// SPDX-License-Identifier: GPL-2.0
/*
 * A fleet of kprobes, for the guest's kprobe_fleet step (make check) and
 * the kprobes rows of make bench. Built out of tree against each x86_64
 * kernel under test.
 *
 * Writing 1 to its parameter "armed" registers probes= kprobes (1,000 by
 * default), one on each instruction of a sled of 5-byte NOPs in this
 * module's own text, so that nothing else in the kernel is disturbed.
 * Each needs an instruction slot from kprobes' pages, and each can be
 * optimized into a jump, which needs a larger slot from a second set of
 * pages: the most pages per probe that kprobes asks for. The write then
 * runs the sled twice, right away and after the optimizer's delay, and
 * fails unless every probe fired exactly once each time. While the
 * fleet is armed, the guest can see where kprobes put the slots
 * (kallsyms lists each page under [__builtin__kprobes]; the parameter
 * "text" lists the pages of this fleet's own). Writing 0 takes
 * all the probes away at once.
 *
 * The fleet comes and goes while the module stays loaded: loading a
 * module maps its own text and splits the direct map by itself, which
 * must not be counted against kprobes.
 *
 * Each register_kprobe() is timed in CPU cycles, and unregister_kprobes()
 * for the whole fleet; both are logged as "metric: NAME VALUE" lines.
 * Attaching is given as the median and the mean of the 1,000: the
 * optimizer's work item runs now and then between two registrations on
 * the same CPU and lands in one of the samples, which the mean counts
 * and the median does not. With them, how many registrations slept,
 * and the registering task's share of the time on the CPU: a cost that
 * is a wait shows there.
 */
#define pr_fmt(fmt) "kprobe_fleet: " fmt

#include <linux/delay.h>
#include <linux/kprobes.h>
#include <linux/ktime.h>
#include <linux/linkage.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/stringify.h>
#include <linux/timex.h>

#include <asm/text-patching.h>

#define SLED_INSNS	1000
#define NOP5_LEN	5

/*
 * The probed text: SLED_INSNS copies of "nopl 0x0(%rax,%rax,1)", then a
 * return. Probes find it by name, so that its address is never taken.
 * Each NOP has a label of its own (kprobe_fleet_nopN, a plain symbol:
 * typed as a function, each would be one objtool warns about, having no
 * size), which kallsyms lists and takes as a function: the optimizer
 * decodes the whole function around a probe before it takes the probe
 * (x86's can_optimize()), so with one 5,000-byte function every
 * registration decoded all 1,000 NOPs, and that, not the kernel's own
 * work, was what make bench timed.
 */
asm(".pushsection .text, \"ax\"\n"
	".type kprobe_fleet_sled, @function\n"
	"kprobe_fleet_sled:\n"
	".altmacro\n"
	".macro kprobe_fleet_nop n\n"
	"kprobe_fleet_nop\\n:\n"
	".byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n"
	".endm\n"
	".set kprobe_fleet_i, 0\n"
	".rept " __stringify(SLED_INSNS) "\n"
	"kprobe_fleet_nop %kprobe_fleet_i\n"
	".set kprobe_fleet_i, kprobe_fleet_i + 1\n"
	".endr\n"
	".noaltmacro\n"
	ASM_RET
	".size kprobe_fleet_sled, . - kprobe_fleet_sled\n"
	".popsection\n");
asmlinkage void kprobe_fleet_sled(void);

static int probes = SLED_INSNS;
module_param(probes, int, 0400);
MODULE_PARM_DESC(probes, "kprobes in the fleet, one per NOP of the sled (at most 1000)");

struct fleet_probe {
	struct kprobe kp;
	unsigned int hits;
};

static struct fleet_probe *fleet;
static struct kprobe **kps;

static int fleet_hit(struct kprobe *kp, struct pt_regs *regs)
{
	container_of(kp, struct fleet_probe, kp)->hits++;
	return 0;
}

/* Run the sled once; 0 if each probe fired exactly once. */
static int fleet_run(const char *when)
{
	int i, bad = 0;

	for (i = 0; i < probes; i++)
		fleet[i].hits = 0;
	kprobe_fleet_sled();
	for (i = 0; i < probes; i++) {
		if (fleet[i].hits == 1)
			continue;
		if (!bad++)
			pr_err("probe %d fired %u times %s\n", i, fleet[i].hits, when);
	}
	if (bad)
		pr_err("%d of %d probes did not fire once %s\n", bad, probes, when);
	return bad ? -EIO : 0;
}

static void fleet_free(void)
{
	kfree(kps);
	kfree(fleet);
	kps = NULL;
	fleet = NULL;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static int armed_arm(void)
{
	u64 t, total = 0, *cycles, wall, oncpu;
	unsigned long nvcsw;
	int i, ret, slept = 0;

	if (probes < 1 || probes > SLED_INSNS)
		return -EINVAL;
	fleet = kcalloc(probes, sizeof(*fleet), GFP_KERNEL);
	kps = kcalloc(probes, sizeof(*kps), GFP_KERNEL);
	cycles = kcalloc(probes, sizeof(*cycles), GFP_KERNEL);
	if (!fleet || !kps || !cycles) {
		kfree(cycles);
		fleet_free();
		return -ENOMEM;
	}
	wall = ktime_get_ns();
	oncpu = current->se.sum_exec_runtime;
	for (i = 0; i < probes; i++) {
		fleet[i].kp.symbol_name = "kprobe_fleet_sled";
		fleet[i].kp.offset = i * NOP5_LEN;
		fleet[i].kp.pre_handler = fleet_hit;
		kps[i] = &fleet[i].kp;
		migrate_disable();
		nvcsw = current->nvcsw;
		t = get_cycles();
		ret = register_kprobe(&fleet[i].kp);
		cycles[i] = get_cycles() - t;
		slept += current->nvcsw != nvcsw;
		migrate_enable();
		total += cycles[i];
		if (ret) {
			pr_err("register_kprobe() of probe %d: %d\n", i, ret);
			goto out_unregister;
		}
	}
	oncpu = current->se.sum_exec_runtime - oncpu;
	wall = ktime_get_ns() - wall;
	sort(cycles, probes, sizeof(*cycles), cmp_u64, NULL);
	pr_info("metric: kprobes_attach_slept %d\n", slept);
	pr_info("metric: kprobes_attach_oncpu_pct %llu\n", div64_u64(oncpu * 100, wall ?: 1));
	pr_info("metric: kprobes_attach_cycles %llu\n", cycles[probes / 2]);
	pr_info("metric: kprobes_attach_cycles_mean %llu\n", div_u64(total, probes));
	ret = fleet_run("at once");
	if (ret)
		goto out_unregister;
	/* The optimizer turns probes into jumps after a delay of its own. */
	msleep(100);
	ret = fleet_run("after the optimizer ran");
	if (ret)
		goto out_unregister;
	pr_info("all %d probes fired, before and after the optimizer\n", probes);
	kfree(cycles);
	return 0;

out_unregister:
	unregister_kprobes(kps, i);
	fleet_free();
	kfree(cycles);
	return ret;
}

static int armed_disarm(void)
{
	u64 t;

	migrate_disable();
	t = get_cycles();
	unregister_kprobes(kps, probes);
	t = get_cycles() - t;
	migrate_enable();
	pr_info("metric: kprobes_detach_cycles %llu\n", div_u64(t, probes));
	fleet_free();
	return 0;
}

#include "armed.h"

/*
 * Writing 1 to "fire" runs the sled once more, while the fleet is armed,
 * once the optimizer has turned every probe into a jump to its detour
 * buffer: until it has, the write fails with -EAGAIN and the guest
 * tries again. debugfs marks a probe [OPTIMIZED] as soon as it is queued
 * for the optimizer; the jump in the text is what shows it was done.
 */
static int fire_set(const char *val, const struct kernel_param *kp)
{
	bool fire;
	int i, ret = kstrtobool(val, &fire);

	if (ret || !fire)
		return ret ?: -EINVAL;
	if (!armed)
		return -ENOENT;
	for (i = 0; i < probes; i++)
		if (*(u8 *)fleet[i].kp.addr != JMP32_INSN_OPCODE)
			return -EAGAIN;
	return fleet_run("once optimized");
}

static const struct kernel_param_ops fire_ops = {
	.set = fire_set,
};
module_param_cb(fire, &fire_ops, NULL, 0200);
MODULE_PARM_DESC(fire, "write 1: run the sled, once every probe is a jump (-EAGAIN before); fails unless each probe fires once");

/* Add @page to the @n distinct pages of @pages (of at most @max); 0 or -E2BIG. */
static int page_add(unsigned long *pages, int *n, int max, unsigned long page)
{
	int i;

	for (i = 0; i < *n; i++)
		if (pages[i] == page)
			return 0;
	if (*n == max)
		return -E2BIG;
	pages[(*n)++] = page;
	return 0;
}

/*
 * While armed, reading "text" gives the pages that hold this fleet's own
 * instruction slots and, for each probe that is a jump, its detour
 * buffer (the jump's target), as "ADDR LEN" lines of one page each: the
 * guest checks every one of them against the page tables. A slot or a
 * buffer never crosses the end of a kprobes page, so the page of its
 * first byte holds all of it.
 */
#define TEXT_PAGES_MAX	(PAGE_SIZE / 32)

static int text_get(char *buf, const struct kernel_param *kp)
{
	unsigned long *pages;
	int i, n = 0, len = 0, ret = 0;

	if (!armed)
		return -ENOENT;
	pages = kcalloc(TEXT_PAGES_MAX, sizeof(*pages), GFP_KERNEL);
	if (!pages)
		return -ENOMEM;
	for (i = 0; !ret && i < probes; i++) {
		u8 *at = (u8 *)fleet[i].kp.addr;

		ret = page_add(pages, &n, TEXT_PAGES_MAX,
			       (unsigned long)fleet[i].kp.ainsn.insn & PAGE_MASK);
		if (!ret && *at == JMP32_INSN_OPCODE)
			ret = page_add(pages, &n, TEXT_PAGES_MAX,
				       ((unsigned long)at + JMP32_INSN_SIZE +
					*(s32 *)(at + 1)) & PAGE_MASK);
	}
	for (i = 0; !ret && i < n; i++)
		len += scnprintf(buf + len, PAGE_SIZE - len, "%lx %lu\n", pages[i], PAGE_SIZE);
	kfree(pages);
	return ret ?: len;
}

static const struct kernel_param_ops text_ops = {
	.get = text_get,
};
module_param_cb(text, &text_ops, NULL, 0400);
MODULE_PARM_DESC(text, "while armed: the pages of the fleet's slots and detour buffers, as \"ADDR LEN\" lines");

MODULE_DESCRIPTION("register, fire and remove a fleet of kprobes, on demand");
MODULE_LICENSE("GPL");
