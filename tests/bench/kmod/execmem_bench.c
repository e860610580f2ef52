// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation microbenchmark for executable memory, built out of tree
 * against both kernels of `make bench`.
 *
 * For each level of live allocations (10, 1,000, 10,000 by default) it
 * fills a pool of that many allocations of fleet-like sizes, then times
 * OPS steady-state rounds of "free a random live one, allocate a new
 * one" and prints the mean cost of each, in TSC cycles. Each operation
 * is timed on one CPU (migrate_disable()): the TSCs of a TCG guest are
 * not synchronised, and its clocksource (jiffies) is far too coarse. Every allocation also gets a
 * 4-byte header written through the arch's text-poking path, as BPF
 * writes its image header.
 *
 * On the patched kernel it uses execmem_alloc(), execmem_fill() and
 * execmem_free(). On the baseline it uses the path BPF takes there:
 * bpf_prog_pack_alloc(), bpf_arch_text_copy() and bpf_prog_pack_free().
 * Those are not exported, so the guest passes their addresses from
 * /proc/kallsyms as parameters; the baseline kernel stays pristine.
 *
 * Output: one "execmem_bench: metric NAME VALUE" line per figure. The
 * module's init returns -EAGAIN, like lib/test_vmalloc.ko, so that it
 * never stays loaded.
 */
#define pr_fmt(fmt) "execmem_bench: " fmt

#include <linux/preempt.h>
#include <linux/timex.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#if IS_ENABLED(CONFIG_ARCH_HAS_EXECMEM)
#include <linux/execmem.h>
#define HAVE_EXECMEM 1
/* execmem exports its API to modules for KUnit and tests like this only. */
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
#else
#define HAVE_EXECMEM 0
#endif

static unsigned long pack_alloc, pack_free, text_copy;
module_param(pack_alloc, ulong, 0400);
MODULE_PARM_DESC(pack_alloc, "baseline: address of bpf_prog_pack_alloc");
module_param(pack_free, ulong, 0400);
MODULE_PARM_DESC(pack_free, "baseline: address of bpf_prog_pack_free");
module_param(text_copy, ulong, 0400);
MODULE_PARM_DESC(text_copy, "baseline: address of bpf_arch_text_copy");

static int ops = 5000;
module_param(ops, int, 0400);
MODULE_PARM_DESC(ops, "timed free+alloc rounds per level");

static int levels[3] = { 10, 1000, 10000 };
static int nlevels = 3;
module_param_array(levels, int, &nlevels, 0400);
MODULE_PARM_DESC(levels, "numbers of live allocations to measure at");

/* Baseline 6.1.192 signatures. */
typedef void (*fill_hole_t)(void *area, unsigned int size);
static void *(*base_alloc)(u32 size, fill_hole_t fill, bool was_classic);
static void (*base_free)(void *hdr);
static void *(*base_copy)(void *dst, const void *src, size_t len);

/* struct bpf_binary_header starts with its u32 size on both kernels. */
struct slot {
	void *p;
	u32 size;
};

static void fill_traps(void *area, unsigned int size)
{
	memset(area, 0xcc, size);
}

/* Half under 500 bytes, three quarters under 2 KiB, a tail to 16 KiB. */
static u32 fleet_size(void)
{
	u32 r = get_random_u32_below(100), size;

	if (r < 50)
		size = 16 + get_random_u32_below(484);
	else if (r < 75)
		size = 500 + get_random_u32_below(1548);
	else
		size = 2048 + get_random_u32_below(16384 - 2048);
	return round_up(size, 64);
}

static int one_alloc(struct slot *s)
{
	s->size = fleet_size();
	if (HAVE_EXECMEM) {
#if HAVE_EXECMEM
		s->p = execmem_alloc(s->size, 64);
		if (s->p && IS_ERR(execmem_fill(s->p, &s->size, sizeof(s->size))))
			return -EIO;
#endif
	} else {
		s->p = base_alloc(s->size, fill_traps, false);
		if (s->p)
			base_copy(s->p, &s->size, sizeof(s->size));
	}
	return s->p ? 0 : -ENOMEM;
}

static void one_free(struct slot *s)
{
	if (HAVE_EXECMEM) {
#if HAVE_EXECMEM
		execmem_free(s->p);
#endif
	} else {
		base_free(s->p);
	}
	s->p = NULL;
}

static int run_level(int live)
{
	struct slot *pool = vcalloc(live, sizeof(*pool));
	u64 t_alloc = 0, t_free = 0;
	cycles_t t;
	int i, err = 0;

	if (!pool)
		return -ENOMEM;
	for (i = 0; i < live && !err; i++)
		err = one_alloc(&pool[i]);
	for (i = 0; i < ops && !err; i++) {
		struct slot *s = &pool[get_random_u32_below(live)];

		migrate_disable();
		t = get_cycles();
		one_free(s);
		t_free += get_cycles() - t;
		migrate_enable();
		migrate_disable();
		t = get_cycles();
		err = one_alloc(s);
		t_alloc += get_cycles() - t;
		migrate_enable();
		cond_resched();
	}
	for (i = 0; i < live; i++)
		if (pool[i].p)
			one_free(&pool[i]);
	vfree(pool);
	if (err)
		return err;
	pr_info("metric: alloc_cycles_live_%d %llu\n", live, div_u64(t_alloc, ops));
	pr_info("metric: free_cycles_live_%d %llu\n", live, div_u64(t_free, ops));
	return 0;
}

static int __init execmem_bench_init(void)
{
	int i, err = 0;

	if (!HAVE_EXECMEM) {
		if (!pack_alloc || !pack_free || !text_copy) {
			pr_err("baseline kernel: pass pack_alloc, pack_free and text_copy\n");
			return -EINVAL;
		}
		base_alloc = (void *)pack_alloc;
		base_free = (void *)pack_free;
		base_copy = (void *)text_copy;
	}
	pr_info("path: %s\n", HAVE_EXECMEM ? "execmem" : "bpf_prog_pack");
	for (i = 0; i < nlevels && !err; i++)
		err = run_level(levels[i]);
	if (err) {
		pr_err("failed: %d\n", err);
		return err;
	}
	pr_info("done\n");
	return -EAGAIN;
}
module_init(execmem_bench_init);

MODULE_DESCRIPTION("execmem allocation microbenchmark");
MODULE_LICENSE("GPL");
