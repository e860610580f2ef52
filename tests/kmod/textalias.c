// SPDX-License-Identifier: GPL-2.0
/*
 * Where the direct map's alias of a piece of kernel text is mapped, for
 * the guest's checks of dynamic text (make check): the one split that
 * /proc/meminfo's DirectMap4k can show only once, and not at all where
 * an earlier module load had already split the region.
 *
 * Making a page of module_alloc() read-only and executable, as the base
 * kernel does for every BPF program, trampoline, kprobes page and module,
 * also makes its alias in the direct map read-only, and that alias then
 * needs a 4K mapping of its own. execmem changes whole 2 MiB chunks at a
 * time, so their aliases stay on large mappings. This module shows
 * which is the case, page by page, from the kernel's own page tables.
 *
 * Write "ADDR LEN" (hex address, length in bytes) to the parameter
 * "query", then read it: one line per 4K page of the range, "PAGE LEVEL",
 * where LEVEL is the alias's mapping: pmd or pud; pte where this page's
 * permissions differ from those of another page in the same 2 MiB of the
 * direct map, which is what making a single page read-only does;
 * pte-whole where the alias is on a 4K mapping but all 512 pages of its
 * 2 MiB have the same permissions (a region that something else split
 * before, and that was then changed as a whole, as execmem changes a
 * chunk: the split is not this text's doing); "image" for a page of the
 * kernel image (its alias is the kernel's own business, mapped at boot);
 * or "none" where no page backs the address.
 */
#define pr_fmt(fmt) "textalias: " fmt

#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/vmalloc.h>

#include <asm/page.h>
#include <asm/pgtable.h>

/* At most this many pages a query: the answer must fit in a page. */
#define QUERY_PAGES	128

static unsigned long query_addr, query_len;

/*
 * Do all the entries of the page table that holds @pte, the entry of
 * @addr, give the same permissions? Accessed and dirty bits differ from
 * page to page and say nothing about permissions.
 */
static bool pte_table_uniform(pte_t *pte, unsigned long addr)
{
	const pteval_t perms = _PAGE_PRESENT | _PAGE_RW | _PAGE_NX;
	pte_t *table = pte - pte_index(addr);
	pteval_t want = pte_flags(*pte) & perms;
	int i;

	for (i = 0; i < PTRS_PER_PTE; i++)
		if ((pte_flags(READ_ONCE(table[i])) & perms) != want)
			return false;
	return true;
}

static const char *alias_level(unsigned long addr)
{
	unsigned int level;
	struct page *page;
	pte_t *pte;

	if (addr >= __START_KERNEL_map && addr < MODULES_VADDR)
		return "image";
	if (!is_vmalloc_addr((void *)addr) &&
	    !(addr >= MODULES_VADDR && addr < MODULES_END))
		return "none";
	page = vmalloc_to_page((void *)addr);
	if (!page)
		return "none";
	pte = lookup_address((unsigned long)page_address(page), &level);
	if (!pte || !pte_present(*pte))
		return "none";
	switch (level) {
	case PG_LEVEL_4K:
		return pte_table_uniform(pte, (unsigned long)page_address(page)) ?
		       "pte-whole" : "pte";
	case PG_LEVEL_2M:
		return "pmd";
	case PG_LEVEL_1G:
		return "pud";
	default:
		return "none";
	}
}

static int query_set(const char *val, const struct kernel_param *kp)
{
	unsigned long addr, len;

	if (sscanf(val, "%lx %lu", &addr, &len) != 2 || !len ||
	    len > QUERY_PAGES * PAGE_SIZE ||
	    (addr & ~PAGE_MASK) + len > QUERY_PAGES * PAGE_SIZE)
		return -EINVAL;
	query_addr = addr;
	query_len = len;
	return 0;
}

static int query_get(char *buf, const struct kernel_param *kp)
{
	unsigned long page, end = query_addr + query_len;
	int n = 0;

	if (!query_len)
		return -ENODATA;
	for (page = query_addr & PAGE_MASK; page < end; page += PAGE_SIZE)
		n += scnprintf(buf + n, PAGE_SIZE - n, "%lx %s\n", page, alias_level(page));
	return n;
}

static const struct kernel_param_ops query_ops = {
	.set = query_set,
	.get = query_get,
};
module_param_cb(query, &query_ops, NULL, 0600);
MODULE_PARM_DESC(query, "write \"ADDR LEN\", read one \"PAGE LEVEL\" line per 4K page: the direct map's alias");

MODULE_DESCRIPTION("the direct-map alias of kernel text, page by page");
MODULE_LICENSE("GPL");
