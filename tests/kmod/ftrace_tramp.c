// SPDX-License-Identifier: GPL-2.0
/*
 * An ftrace_ops with a trampoline of its own, for the guest's
 * ftrace_tramp step (make check). Built out of tree against each x86_64
 * kernel with dynamic ftrace.
 *
 * Writing 1 to its parameter "armed" registers an ftrace_ops filtered on
 * one function of this module. As the only ops on that call site, it
 * gets a trampoline of its own, which x86 builds for it
 * (arch_ftrace_update_trampoline()); the write fails unless it did, and
 * unless a call of the function ran the callback exactly once, handed
 * the ops itself, which the trampoline loads from beside its code. While the
 * ops is armed, the guest can see the trampoline: kallsyms lists it as
 * ftrace_trampoline under [__builtin__ftrace], and the parameter "text"
 * gives its address and length. Writing 0 unregisters the
 * ops, which frees the trampoline before it returns. Where execmem held
 * it, that memory must then hold nothing but traps, or be unmapped with
 * the chunk it was in.
 */
#define pr_fmt(fmt) "ftrace_tramp: " fmt

#include <linux/compiler.h>
#include <linux/ftrace.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#if IS_ENABLED(CONFIG_ARCH_HAS_EXECMEM)
#include <linux/execmem.h>
/* The backend's test hooks are exported for KUnit and tests like this. */
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
#endif

static unsigned int hits;
static int seed = 41;

/*
 * The traced function: not inlined, so that it keeps its call site, and
 * with a barrier, so that the compiler cannot tell its result without
 * calling it (it did, and dropped the call). The compiler can still see
 * that it leaves @hits alone, so @hits is read and written around the
 * call with READ_ONCE() and WRITE_ONCE(): at -Os GCC otherwise took the
 * count to be the 0 stored before the call.
 */
static noinline int ftrace_tramp_target(int x)
{
	barrier();
	return x + 1;
}

/* The ops the callback was last handed, which the trampoline loads. */
static struct ftrace_ops *hit_op;

static void notrace tramp_hit(unsigned long ip, unsigned long parent_ip,
			      struct ftrace_ops *op, struct ftrace_regs *fregs)
{
	hits++;
	WRITE_ONCE(hit_op, op);
}

/*
 * A new ops each round: ftrace_free_filter() frees the ops' filter but
 * leaves the ops pointing at it, so an ops whose filter was freed must
 * not be registered again (the debug kernel's KASAN caught the second
 * round doing so). A dynamic ops may be freed once unregistered:
 * unregister_ftrace_function() waits until no CPU can be running it.
 */
static struct ftrace_ops *tramp_ops;
static unsigned long tramp, tramp_size;

static void tramp_ops_free(void)
{
	ftrace_free_filter(tramp_ops);
	kfree(tramp_ops);
	tramp_ops = NULL;
}

static int armed_arm(void)
{
	int ret, x = READ_ONCE(seed);
	unsigned int n;

	tramp_ops = kzalloc(sizeof(*tramp_ops), GFP_KERNEL);
	if (!tramp_ops)
		return -ENOMEM;
	tramp_ops->func = tramp_hit;
	ret = ftrace_set_filter_ip(tramp_ops, (unsigned long)ftrace_tramp_target, 0, 0);
	if (ret) {
		pr_err("ftrace_set_filter_ip(): %d\n", ret);
		tramp_ops_free();
		return ret;
	}
	ret = register_ftrace_function(tramp_ops);
	if (ret) {
		pr_err("register_ftrace_function(): %d\n", ret);
		tramp_ops_free();
		return ret;
	}
	WRITE_ONCE(hits, 0);
	WRITE_ONCE(hit_op, NULL);
	ret = ftrace_tramp_target(x) == x + 1 ? 0 : -EIO;
	n = READ_ONCE(hits);
	if (ret || n != 1) {
		pr_err("the traced call ran the callback %u times\n", n);
		ret = -EIO;
	} else if (READ_ONCE(hit_op) != tramp_ops) {
		/* The trampoline hands over the ops it stored beside its code. */
		pr_err("the callback was handed ops %p, not its own %p\n",
		       READ_ONCE(hit_op), tramp_ops);
		ret = -EIO;
	} else if (!tramp_ops->trampoline) {
		pr_err("the ops got no trampoline of its own\n");
		ret = -EIO;
	}
	if (ret) {
		unregister_ftrace_function(tramp_ops);
		tramp_ops_free();
		return ret;
	}
	tramp = tramp_ops->trampoline;
	tramp_size = tramp_ops->trampoline_size;
	pr_info("a trampoline of %lu bytes ran the callback once\n", tramp_size);
	return 0;
}

/* Where execmem held the trampoline, is its memory trapped once freed? */
static int tramp_check_freed(void)
{
#if IS_ENABLED(CONFIG_ARCH_HAS_EXECMEM)
	struct execmem_mapping map;
	int ret;

	ret = arch_execmem_mapping((void *)tramp, &map);
	if (ret == -ENOENT) {
		u8 byte;

		/*
		 * In no chunk: then its chunk was given back, and nothing
		 * may be mapped there any more. (A freed vmalloc range is
		 * not handed out again before its lazy purge.)
		 */
		if (!copy_from_kernel_nofault(&byte, (void *)tramp, 1)) {
			pr_err("the freed trampoline is in no chunk, yet still mapped\n");
			return -EIO;
		}
		pr_info("the freed trampoline's chunk was given back: unmapped\n");
		return 0;
	}
	if (ret)
		return ret;
	ret = arch_execmem_trapped((void *)tramp, tramp_size);
	if (ret != 1) {
		pr_err("the freed trampoline is not trapped (%d)\n", ret);
		return ret < 0 ? ret : -EIO;
	}
	pr_info("the freed trampoline holds traps only\n");
#endif
	return 0;
}

static int armed_disarm(void)
{
	unregister_ftrace_function(tramp_ops);
	tramp_ops_free();
	return tramp_check_freed();
}

#include "armed.h"

/*
 * While armed, reading "text" gives the trampoline as "ADDR LEN", for the
 * guest to check every page of it against the page tables.
 */
static int text_get(char *buf, const struct kernel_param *kp)
{
	if (!armed)
		return -ENOENT;
	return scnprintf(buf, PAGE_SIZE, "%lx %lu\n", tramp, tramp_size);
}

static const struct kernel_param_ops text_ops = {
	.get = text_get,
};
module_param_cb(text, &text_ops, NULL, 0400);
MODULE_PARM_DESC(text, "while armed: the trampoline, as \"ADDR LEN\"");

MODULE_DESCRIPTION("an ftrace_ops with a trampoline of its own, on demand");
MODULE_LICENSE("GPL");
