/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Verdict on ftrace's startup selftests (CONFIG_FTRACE_STARTUP_TEST),
 * which run before PID 1 and leave only the boot log. Shared by the
 * guest PID 1 and the host-side golden test.
 */
#ifndef FTRACELOG_H
#define FTRACELOG_H

#include <stddef.h>

/*
 * Judge @log: at least one "Testing tracer NAME: ", and the dynamic
 * ftrace_ops tests #1 and #2, each followed by PASSED before the next
 * "Testing "; the function_graph tracer among the tracers; the kprobe
 * events selftest's OK after "Testing kprobe tracing: " (on that line,
 * or on a line of its own); no FAILED and no "NG:
 * Some tests are failed" anywhere. Returns 0 or -1, with a one-line
 * explanation in @why.
 */
int ftracelog_judge(const char *log, char *why, size_t len);

#endif
