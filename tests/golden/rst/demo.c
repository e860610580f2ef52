// SPDX-License-Identifier: GPL-2.0
/* A source file for the kernel-doc directives of the rst-lint golden tests. */

/**
 * demo_alloc - allocate a demo
 * @size: bytes
 *
 * Return: the demo, or %NULL.
 */
void *demo_alloc(unsigned long size)
{
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(demo_alloc);
