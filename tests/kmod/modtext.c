// SPDX-License-Identifier: GPL-2.0
/*
 * Module text that the loader and the architecture write, checked from
 * the module's own init, for the guest's module_churn step (make check).
 * Where module text is on execmem, it is read-only from the moment it is
 * allocated, and the writes made while the module is being formed go
 * through execmem_fill():
 *   - relocations: a PC-relative reference to the module's data, which
 *     lies in an allocation of its own, from core text, checked against
 *     the same reference from init text before any other core text runs
 *     (a relocation that went astray must fail the load, not oops the
 *     kernel, which the guests boot with oops=panic); then a call into
 *     the kernel;
 *   - an alternative (x86): X86_FEATURE_ALWAYS is always set, so its
 *     replacement must be in place, or the code returns 0 instead of 1;
 *     the replacement is shorter than the original, so the NOPs that pad
 *     it are rewritten too (optimize_nops());
 * and, once the module is coming, through text_poke():
 *   - a static key's branch: a NOP at load, a jump once enabled.
 * A check that fails makes the load fail with -EINVAL, after a message
 * that names it. Loaded and unloaded many times by module_churn, it must
 * leave no memory behind.
 */
#define pr_fmt(fmt) "modtext: " fmt

#include <linux/jump_label.h>
#include <linux/module.h>
#include <linux/kernel.h>
#ifdef CONFIG_X86
#include <asm/alternative.h>
#include <asm/cpufeatures.h>
#include <asm/nospec-branch.h>
#endif

static DEFINE_STATIC_KEY_FALSE(modtext_key);
/* Not zero, so that a reference that lands elsewhere reads otherwise. */
static int __used calls = 0x5a5a0000;

static noinline int modtext_branch(void)
{
	if (static_branch_unlikely(&modtext_key))
		return 1;
	return 0;
}

#ifdef CONFIG_X86_64
/*
 * From core text: where its data is, and nothing else. In assembly, so
 * that nothing in it depends on another relocation: a C function returns
 * through a return thunk, a jump that is relocated too, and would take
 * the kernel down where relocations go astray, before the check can
 * fail. Its bare return is safe enough for a test module.
 */
int *modtext_data_addr(void);
asm(".pushsection .text, \"ax\"\n"
    ".type modtext_data_addr, @function\n"
    "modtext_data_addr:\n\t"
    "lea calls(%rip), %rax\n\t"
    ANNOTATE_RETPOLINE_SAFE
    "ret\n\t"
    "int3\n"
    ".size modtext_data_addr, . - modtext_data_addr\n"
    ".popsection");
#else
static noinline int *modtext_data_addr(void)
{
	int *p = &calls;

	/* The address as core text computed it, not as the compiler knows it. */
	OPTIMIZER_HIDE_VAR(p);
	return p;
}
#endif

/* From core text: the data written, and a call into the kernel. */
static noinline int modtext_data(int *parsed)
{
	calls++;
	if (kstrtoint("42", 10, parsed))
		*parsed = 0;
	return calls;
}

static noinline int modtext_alternative(void)
{
#ifdef CONFIG_X86
	int v = 0;

	asm volatile(ALTERNATIVE("mov $0, %%eax", "inc %%eax", X86_FEATURE_ALWAYS)
		     : "+a" (v));
	return v;
#else
	return 1;
#endif
}

static int __init modtext_init(void)
{
	int before = calls, parsed = 0, on;

	/*
	 * First, before any other core text runs: init text is relocated
	 * apart from core text, and the two must agree.
	 */
	if (modtext_data_addr() != &calls) {
		pr_err("a reference to the module's data went astray\n");
		return -EINVAL;
	}
	if (modtext_alternative() != 1) {
		pr_err("the alternative was not applied\n");
		return -EINVAL;
	}
	if (modtext_data(&parsed) != before + 1 || calls != before + 1) {
		pr_err("a write to the module's data went astray\n");
		return -EINVAL;
	}
	if (parsed != 42) {
		pr_err("a call into the kernel went astray\n");
		return -EINVAL;
	}
	if (modtext_branch()) {
		pr_err("the static key's branch is taken while the key is off\n");
		return -EINVAL;
	}
	static_branch_enable(&modtext_key);
	on = modtext_branch();
	static_branch_disable(&modtext_key);
	if (!on || modtext_branch()) {
		pr_err("the static key's branch does not follow the key\n");
		return -EINVAL;
	}
	return 0;
}

static void __exit modtext_exit(void)
{
}

module_init(modtext_init);
module_exit(modtext_exit);
MODULE_DESCRIPTION("Checks of the writes to module text before it is live");
MODULE_LICENSE("GPL");
