/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The switch by which the guest's fleet steps (tests/guest/init.c) drive
 * a test module: writing 1 to its parameter "armed" calls armed_arm(),
 * which puts the module's users of dynamic text in place and fails
 * unless they work; writing 0 calls armed_disarm(), which takes them
 * away and fails if what they left behind is wrong. Unloading the module
 * disarms it first. A write that would not change the state fails with
 * -EALREADY.
 *
 * A module defines both functions and includes this header once.
 */
#ifndef TESTS_KMOD_ARMED_H
#define TESTS_KMOD_ARMED_H

#include <linux/kstrtox.h>
#include <linux/moduleparam.h>

static int armed_arm(void);
static int armed_disarm(void);

static bool armed;

/* Called with the module's parameter lock held: one writer at a time. */
static int armed_set(const char *val, const struct kernel_param *kp)
{
	bool arm;
	int ret = kstrtobool(val, &arm);

	if (ret)
		return ret;
	if (arm == armed)
		return -EALREADY;
	if (!arm) {
		armed = false;
		return armed_disarm();
	}
	ret = armed_arm();
	if (!ret)
		armed = true;
	return ret;
}

static const struct kernel_param_ops armed_ops = {
	.set = armed_set,
	.get = param_get_bool,
};
module_param_cb(armed, &armed_ops, &armed, 0600);
MODULE_PARM_DESC(armed, "1 arms the module's text users and checks them, 0 removes them");

static void __exit armed_exit(void)
{
	if (armed)
		armed_disarm();
}
module_exit(armed_exit);

#endif /* TESTS_KMOD_ARMED_H */
