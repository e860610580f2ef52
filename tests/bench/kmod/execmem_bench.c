// SPDX-License-Identifier: GPL-2.0
/*
 * Allocation microbenchmark for executable memory, built out of tree
 * against both kernels of `make bench`.
 *
 * For each level of live allocations (10, 1,000, 10,000 by default) it
 * fills a pool of that many allocations of fleet-like sizes, then times
 * OPS steady-state rounds of "free a random live one, allocate a new
 * one" and prints the mean cost of each, in TSC cycles. The sizes and
 * the choices come from a PRNG with a fixed seed, so that both kernels
 * see the same sequence of requests, run after run. Each operation
 * is timed on one CPU (migrate_disable()): the TSCs of a TCG guest are
 * not synchronised, and its clocksource (jiffies) is far too coarse.
 * Every allocation also gets a 4-byte header written through the arch's
 * text-poking path, as BPF writes its image header: the allocation is
 * timed with it and without it (the allocator alone). The baseline's free
 * reads that header, so it is always written.
 *
 * Then it times new 2 MiB units: allocations of exactly PMD_SIZE, each of
 * which takes a whole chunk (a pack on the baseline). The first one is
 * not timed: it takes the empty chunk execmem may hold in reserve. Both
 * kernels fill a new unit with int3 by memset() while it is writable; so
 * that the table can tell that shared part from the rest, the same
 * memset() of 2 MiB of vmalloc() memory is timed on its own.
 *
 * Last, churn at a unit boundary: it fills everything the allocator
 * holds with 64-byte programs until one of them makes it map a new 2 MiB
 * unit, frees that one, so that every unit in use is exactly full, and
 * times CHURN_OPS rounds of loading (allocation and header) and freeing
 * one program there. vmalloc's page count, read around each step
 * (vmalloc_nr_pages(), whose address the guest passes on both kernels),
 * says how many units were mapped and unmapped inside the loop.
 *
 * On the patched kernel it uses execmem_alloc(), execmem_fill() and
 * execmem_free(). On the baseline it uses the path BPF takes there:
 * bpf_prog_pack_alloc(), bpf_arch_text_copy() and bpf_prog_pack_free().
 * Those are not exported, so the guest passes their addresses from
 * /proc/kallsyms as parameters; the baseline kernel stays pristine.
 *
 * Given text_mutex=ADDR (from /proc/kallsyms), it does none of that and
 * times instead how long new 2 MiB units keep text_mutex, which ftrace,
 * kprobes and static keys wait for: a kthread on another vCPU samples
 * mutex_is_locked() while this one allocates NEW_UNITS + 1 units, and
 * adds up, in its own TSC cycles, the time it saw the mutex held. A
 * control first holds text_mutex for CONTROL_MS itself; the sampler must
 * see that hold, or its zero would prove nothing. This runs on two vCPUs
 * without icount (mode=bench), where the vCPUs run at once.
 *
 * Output: one "execmem_bench: metric NAME VALUE" line per figure. The
 * module's init returns -EAGAIN, like lib/test_vmalloc.ko, so that it
 * never stays loaded.
 */
#define pr_fmt(fmt) "execmem_bench: " fmt

#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/timex.h>
#include <linux/prandom.h>
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

static unsigned long nr_pages;
module_param(nr_pages, ulong, 0400);
MODULE_PARM_DESC(nr_pages, "address of vmalloc_nr_pages, on both kernels");

static unsigned long text_mutex;
module_param(text_mutex, ulong, 0400);
MODULE_PARM_DESC(text_mutex, "address of text_mutex: time its hold by new units, only");

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
static unsigned long (*vm_pages)(void);

/* struct bpf_binary_header starts with its u32 size on both kernels. */
struct slot {
	void *p;
	u32 size;
};

static void fill_traps(void *area, unsigned int size)
{
	memset(area, 0xcc, size);
}

static struct rnd_state rnd;

/* A number below @n, from the seeded sequence. */
static u32 below(u32 n)
{
	return ((u64)prandom_u32_state(&rnd) * n) >> 32;
}

/* Half under 500 bytes, three quarters under 2 KiB, a tail to 16 KiB. */
static u32 fleet_size(void)
{
	u32 r = below(100), size;

	if (r < 50)
		size = 16 + below(484);
	else if (r < 75)
		size = 500 + below(1548);
	else
		size = 2048 + below(16384 - 2048);
	return round_up(size, 64);
}

/* Allocate @s->size bytes; TSC cycles of the allocator in *@raw. */
static int raw_alloc(struct slot *s, u64 *raw)
{
	cycles_t t = get_cycles();

	if (HAVE_EXECMEM) {
#if HAVE_EXECMEM
		s->p = execmem_alloc(EXECMEM_DEFAULT, s->size, 64);
#endif
	} else {
		s->p = base_alloc(s->size, fill_traps, false);
	}
	*raw += get_cycles() - t;
	return s->p ? 0 : -ENOMEM;
}

/* The header, through the text-poking path. */
static int write_header(struct slot *s)
{
	if (HAVE_EXECMEM) {
#if HAVE_EXECMEM
		if (IS_ERR(execmem_fill(s->p, &s->size, sizeof(s->size))))
			return -EIO;
#endif
	} else {
		base_copy(s->p, &s->size, sizeof(s->size));
	}
	return 0;
}

/* Allocate @s->size bytes and write the header. */
static int one_alloc(struct slot *s, u64 *raw)
{
	return raw_alloc(s, raw) ?: write_header(s);
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
	u64 t_alloc = 0, t_raw = 0, t_free = 0, untimed = 0;
	cycles_t t;
	int i, err = 0;

	if (!pool)
		return -ENOMEM;
	for (i = 0; i < live && !err; i++) {
		pool[i].size = fleet_size();
		err = one_alloc(&pool[i], &untimed);
	}
	for (i = 0; i < ops && !err; i++) {
		struct slot *s = &pool[below(live)];

		migrate_disable();
		t = get_cycles();
		one_free(s);
		t_free += get_cycles() - t;
		migrate_enable();
		s->size = fleet_size();
		migrate_disable();
		t = get_cycles();
		err = one_alloc(s, &t_raw);
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
	pr_info("metric: alloc_nopoke_cycles_live_%d %llu\n", live, div_u64(t_raw, ops));
	pr_info("metric: free_cycles_live_%d %llu\n", live, div_u64(t_free, ops));
	return 0;
}

#define NEW_UNITS	4

/* Mean cycles of filling 2 MiB of writable memory with int3, memset(). */
static int run_trap_fill(void)
{
	void *buf = vmalloc(PMD_SIZE);
	u64 t_fill = 0;
	cycles_t t;
	int i;

	if (!buf)
		return -ENOMEM;
	for (i = 0; i < NEW_UNITS; i++) {
		migrate_disable();
		t = get_cycles();
		fill_traps(buf, PMD_SIZE);
		t_fill += get_cycles() - t;
		migrate_enable();
	}
	vfree(buf);
	pr_info("metric: trap_fill_2m_cycles %llu\n", div_u64(t_fill, NEW_UNITS));
	return 0;
}

/* Mean cycles of an allocation that must create a 2 MiB unit. */
static int run_new_units(void)
{
	struct slot unit[NEW_UNITS + 1] = {};
	u64 t_new = 0, untimed = 0;
	int i, err = 0;

	for (i = 0; i <= NEW_UNITS && !err; i++) {
		unit[i].size = PMD_SIZE;
		migrate_disable();
		err = raw_alloc(&unit[i], i ? &t_new : &untimed);
		migrate_enable();
		err = err ?: write_header(&unit[i]);
	}
	for (i = 0; i <= NEW_UNITS; i++)
		if (unit[i].p)
			one_free(&unit[i]);
	if (err)
		return err;
	pr_info("metric: new_chunk_cycles %llu\n", div_u64(t_new, NEW_UNITS));
	return 0;
}

#define CONTROL_MS	20

struct sampler {
	struct mutex *lock;
	bool stop;
	u64 held;		/* cycles the lock was seen held */
	struct completion started, stopped;
};

/* Add up the time @arg's lock is held, until told to stop. */
static int sample_lock(void *arg)
{
	struct sampler *s = arg;
	cycles_t prev = get_cycles(), now;
	bool held;

	complete(&s->started);
	while (!READ_ONCE(s->stop)) {
		held = mutex_is_locked(s->lock);
		now = get_cycles();
		if (held)
			s->held += now - prev;
		prev = now;
		cpu_relax();
	}
	complete(&s->stopped);
	return 0;
}

/* Start sampling @lock on a CPU other than this one, which must stay. */
static int sampler_start(struct sampler *s, struct mutex *lock)
{
	unsigned int cpu = cpumask_any_but(cpu_online_mask, smp_processor_id());
	struct task_struct *t;

	if (cpu >= nr_cpu_ids)
		return -ENODEV;		/* one vCPU: nothing runs beside us */
	*s = (struct sampler){ .lock = lock };
	init_completion(&s->started);
	init_completion(&s->stopped);
	t = kthread_create(sample_lock, s, "execmem_bench_sampler");
	if (IS_ERR(t))
		return PTR_ERR(t);
	kthread_bind(t, cpu);
	wake_up_process(t);
	wait_for_completion(&s->started);
	return 0;
}

static u64 sampler_stop(struct sampler *s)
{
	WRITE_ONCE(s->stop, true);
	wait_for_completion(&s->stopped);
	return s->held;
}

/* Cycles text_mutex is held per new 2 MiB unit, after a control hold. */
static int run_text_mutex(struct mutex *lock)
{
	struct slot unit[NEW_UNITS + 1] = {};
	struct sampler s;
	u64 held, control, seen, untimed = 0;
	cycles_t t;
	int i, err;

	migrate_disable();
	err = sampler_start(&s, lock);
	if (err)
		goto out;
	t = get_cycles();
	mutex_lock(lock);
	mdelay(CONTROL_MS);
	mutex_unlock(lock);
	control = get_cycles() - t;
	seen = sampler_stop(&s);
	pr_info("metric: text_mutex_control_cycles %llu\n", control);
	pr_info("metric: text_mutex_control_seen_cycles %llu\n", seen);
	if (seen < control / 2 || seen > control + control / 2) {
		pr_err("the sampler saw %llu of the control's %llu cycles held\n", seen, control);
		err = -EIO;
		goto out;
	}
	err = sampler_start(&s, lock);
	if (err)
		goto out;
	for (i = 0; i <= NEW_UNITS && !err; i++) {
		unit[i].size = PMD_SIZE;
		err = raw_alloc(&unit[i], &untimed);
	}
	held = sampler_stop(&s);
	for (i = 0; i <= NEW_UNITS; i++)
		if (unit[i].p && !write_header(&unit[i]))
			one_free(&unit[i]);
	if (!err)
		pr_info("metric: text_mutex_held_cycles_per_unit %llu\n",
			div_u64(held, NEW_UNITS + 1));
out:
	migrate_enable();
	return err;
}

#define CHURN_OPS	200
#define CHURN_MAX	(4 * (int)(PMD_SIZE / 64))	/* programs to fill with, at most */
#define UNIT_PAGES	(PTRS_PER_PMD / 2)		/* vmalloc growth that is a new unit */

static int churn_alloc(struct slot *s, u64 *raw)
{
	s->size = 64;
	return one_alloc(s, raw);
}

/* Did vmalloc's page count move by a 2 MiB unit since @before? */
static bool unit_mapped(unsigned long before)
{
	return (long)(vm_pages() - before) >= UNIT_PAGES;
}

static bool unit_unmapped(unsigned long before)
{
	return (long)(before - vm_pages()) >= UNIT_PAGES;
}

/* Alloc+free of one program where every unit in use is full. */
static int run_churn(void)
{
	struct slot *pool = vcalloc(CHURN_MAX, sizeof(*pool)), s;
	int n, i, err = 0, mapped = 0, unmapped = 0;
	u64 t_op = 0, untimed = 0;
	unsigned long before;
	cycles_t t;

	if (!pool)
		return -ENOMEM;
	for (n = 0; n < CHURN_MAX; n++) {
		before = vm_pages();
		err = churn_alloc(&pool[n], &untimed);
		if (err || unit_mapped(before))
			break;
	}
	if (n == CHURN_MAX)
		err = -ENOSPC;
	else if (pool[n].p)
		one_free(&pool[n]);	/* the first program of a new unit */
	for (i = 0; i < CHURN_OPS && !err; i++) {
		before = vm_pages();
		migrate_disable();
		t = get_cycles();
		err = churn_alloc(&s, &untimed);
		t_op += get_cycles() - t;
		migrate_enable();
		mapped += unit_mapped(before);
		before = vm_pages();
		migrate_disable();
		t = get_cycles();
		if (s.p)
			one_free(&s);
		t_op += get_cycles() - t;
		migrate_enable();
		unmapped += unit_unmapped(before);
		cond_resched();
	}
	while (n--)
		one_free(&pool[n]);
	vfree(pool);
	if (err)
		return err;
	pr_info("metric: churn_cycles_per_op %llu\n", div_u64(t_op, CHURN_OPS));
	pr_info("metric: churn_units_mapped %d\n", mapped);
	pr_info("metric: churn_units_unmapped %d\n", unmapped);
	return 0;
}

/* Everything but the text_mutex figures. */
static int run_all(void)
{
	int i, err = 0;

	for (i = 0; i < nlevels && !err; i++)
		err = run_level(levels[i]);
	return err ?: run_new_units() ?: run_trap_fill() ?: run_churn();
}

static int __init execmem_bench_init(void)
{
	int err;

	if (!HAVE_EXECMEM) {
		if (!pack_alloc || !pack_free || !text_copy) {
			pr_err("baseline kernel: pass pack_alloc, pack_free and text_copy\n");
			return -EINVAL;
		}
		base_alloc = (void *)pack_alloc;
		base_free = (void *)pack_free;
		base_copy = (void *)text_copy;
	}
	if (!nr_pages) {
		pr_err("pass nr_pages\n");
		return -EINVAL;
	}
	vm_pages = (void *)nr_pages;
	pr_info("path: %s\n", HAVE_EXECMEM ? "execmem" : "bpf_prog_pack");
	prandom_seed_state(&rnd, 1);
	if (text_mutex)
		err = run_text_mutex((struct mutex *)text_mutex);
	else
		err = run_all();
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
