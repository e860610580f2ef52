# execmem: the patch series and the harness that builds, boots and tests it.
#
#   make               demo: boot the patched x86_64 kernel, show where BPF lives
#   make check         both arches: bisect build, boot, guest suite, host checks
#   make help          every target
#
# All kernel work happens in QEMU guests; nothing is loaded into this host.

ARCH	?= x86_64
VARIANT	?=
ARCHES	:= x86_64 arm64

B	:= build
TREE	:= $(B)/linux
# The variant kernels build from TIP, a worktree of TREE held at the
# series tip (ci/worktree.sh), so that they can build while bisect walks TREE.
TIP	:= $(B)/tip
SRC	:= $(if $(VARIANT),$(TIP),$(TREE))
TARBALL	:= /usr/src/linux-source-6.1.tar.xz
SUFFIX	:= $(if $(VARIANT),-$(VARIANT))
OUT	:= $(B)/out-$(ARCH)$(SUFFIX)
LOGS	:= $(B)/logs/$(ARCH)$(SUFFIX)
RESULTS	:= $(B)/results
INITRD	:= $(B)/initramfs-$(ARCH)$(SUFFIX).cpio

KIMAGE_x86_64	:= arch/x86/boot/bzImage
KIMAGE_arm64	:= arch/arm64/boot/Image
CC_x86_64	:= gcc
CC_arm64	:= aarch64-linux-gnu-gcc

PATCHES	:= $(shell ci/series.sh series)

# What the host expects of BPF's text on each arch (bpf_fleet -e): x86_64
# has an execmem backend, arm64 keeps the plain path. The guest is told,
# never left to guess from the kernel it runs on.
FLEET_x86_64 := execmem
FLEET_arm64 := plain
# The debug variant boots into the guest's debug run and dies on any WARN.
BOOT_APPEND_debug := mode=debug panic_on_warn=1
# The distro variant (Debian's config, x86_64) boots on two NUMA nodes.
BOOT_APPEND_distro := mode=distro nodes=2
QEMU_NODES_distro := 2
# A kernel without loadable modules reads test_bpf's and KUnit's
# built-in runs from the boot log (16 MiB, ci/boot.sh): the nomod variant
# on x86_64, and arm64's one kernel.
# test_bpf built in runs at boot, so the host gives it the quick run's
# range (tests/guest/bpfsum.h): the main suite before its first
# "magnitudes" test, #828 in 6.1.192, which the modular kernels' quick
# runs find by name and print.
BOOT_APPEND_nomod := mode=nomod test_bpf.test_range=0,827
# arm64's one kernel at the tip (bisect's last prefix, make build) is
# built without modules: ci/configs/arm64-nomod.config. It boots as the
# variant it was built as.
TIPVAR_arm64 := nomod
BOOT_APPEND ?= fleet=$(FLEET_$(ARCH)) $(BOOT_APPEND_$(or $(VARIANT),$(TIPVAR_$(ARCH))))
STAGE	:= ci/stage.sh
# Run on its own, a target that writes results fails when they hold a
# FAIL or no PASS (ci/judge.sh); make check sets IN_CHECK=1 so that every
# stage runs, and its closing tally decides.
JUDGE	= $(if $(IN_CHECK),@true,@ci/judge.sh)

export CCACHE_BASEDIR := $(CURDIR)

.DEFAULT_GOAL := demo
.PHONY: demo deps tree apply export build bisect initramfs boot guest repeat layout ftrace modoff check \
	golden roundtrip checkpatch base control mutants bench kunit kunit-core help clean

help:
	@sed -n 's/^## //p' $(MAKEFILE_LIST)

## deps        install missing Debian packages (idempotent)
deps: $(B)/deps.stamp
$(B)/deps.stamp: ci/deps.sh
	@mkdir -p $(B)
	@ci/deps.sh
	@touch $@

$(TARBALL): | $(B)/deps.stamp
	@test -f $@ || { echo "tree: $@ is missing; install linux-source-6.1" >&2; exit 2; }

## tree        unpack the kernel into build/linux as a git repo (tag 'base')
tree: $(B)/tree.stamp
$(B)/tree.stamp: $(TARBALL) ci/tree.sh
	@ci/tree.sh $(TARBALL) $(TREE)
	@touch $@

## apply       reset the tree to base and git-am every patch in 'series'
apply: $(B)/tree.stamp
	@ci/apply.sh $(TREE) series $(B)/applied.stamp
$(B)/applied.stamp: $(B)/tree.stamp series $(PATCHES) ci/apply.sh
	@ci/apply.sh $(TREE) series $@

## export      regenerate series and patches-*/ from the tree's commits
export: $(B)/tree.stamp
	@ci/export.sh $(TREE) .
	@git -C $(TREE) rev-parse HEAD >$(B)/applied.stamp

$(B)/tip.stamp: $(B)/applied.stamp ci/worktree.sh
	@ci/worktree.sh $(TREE) $(TIP) $$(cat $<)
	@cp $< $@

## build       build one kernel: ARCH=x86_64|arm64 [VARIANT=debug|distro|nomod (x86_64)]
build: $(B)/applied.stamp $(if $(VARIANT),$(B)/tip.stamp)
	$(if $(VARIANT),,@ci/tree-clean.sh $(TREE) $(B)/applied.stamp)
	@ci/build.sh $(SRC) $(OUT) $(ARCH) $(or $(VARIANT),$(TIPVAR_$(ARCH)))

## bisect      build every prefix of the series: ARCH="x86_64 arm64"
bisect: $(B)/applied.stamp
	@ci/tree-clean.sh $(TREE) $(B)/applied.stamp
	@TIP_VARIANTS="$(foreach a,$(ARCHES),$(if $(TIPVAR_$(a)),$(a):$(TIPVAR_$(a))))" \
		ci/bisect.sh $(TREE) $(B) "$(ARCH)"

$(B)/harden-refusals: $(B)/tree.stamp ci/harden-refusals.sh
	@ci/harden-refusals.sh $(TREE) >$@.tmp && mv $@.tmp $@

$(B)/gen_init_cpio: $(B)/tree.stamp
	@$(CC_x86_64) -O2 -o $@ $(TREE)/usr/gen_init_cpio.c

GUEST_CFLAGS := -O2 -Wall -Wextra -Werror -static -I$(TREE)/tools/testing/selftests

$(B)/init-%: tests/guest/init.c tests/guest/bpfsum.c tests/guest/bpfsum.h \
		tests/guest/ftracelog.c tests/guest/ftracelog.h tests/guest/vmsum.c \
		tests/guest/vmsum.h tests/guest/kmodload.h tests/guest/ksym.h \
		tests/guest/meminfo.h tests/guest/ptdump.h tests/guest/textpages.h \
		tests/guest/owntext.h tests/guest/execstat.h | $(B)/deps.stamp
	@$(CC_$*) $(GUEST_CFLAGS) -o $@ $(filter %.c,$^)

$(B)/bpf_fleet-%: tests/guest/bpf_fleet.c tests/guest/bpfsys.h tests/guest/ksym.h \
		tests/guest/meminfo.h tests/guest/ptdump.h tests/guest/kmodload.h \
		tests/guest/owntext.h tests/guest/execstat.h $(B)/tree.stamp | $(B)/deps.stamp
	@$(CC_$*) $(GUEST_CFLAGS) -o $@ $<

$(B)/bpf_tramp-%: tests/guest/bpf_tramp.c tests/guest/bpfsys.h tests/guest/kmodload.h \
		tests/guest/meminfo.h tests/guest/ptdump.h tests/guest/textpages.h \
		tests/guest/owntext.h tests/guest/execstat.h $(B)/tree.stamp | $(B)/deps.stamp
	@$(CC_$*) $(GUEST_CFLAGS) -o $@ $<

$(B)/cbpf_where-%: tests/guest/cbpf_where.c tests/guest/bpfsys.h tests/guest/kmodload.h \
		tests/guest/ksym.h tests/guest/meminfo.h tests/guest/modstep.h tests/guest/ptdump.h \
		$(B)/tree.stamp | $(B)/deps.stamp
	@$(CC_$*) $(GUEST_CFLAGS) -o $@ $<

$(B)/jit_free-%: tests/guest/jit_free.c tests/guest/bpfsys.h tests/guest/kmodload.h \
		tests/guest/ksym.h tests/guest/meminfo.h tests/guest/modstep.h tests/guest/ptdump.h \
		$(B)/tree.stamp | $(B)/deps.stamp
	@$(CC_$*) $(GUEST_CFLAGS) -o $@ $<

## initramfs   pack the guest PID 1 and the test modules of ARCH's build
GUEST_BIN = $(B)/gen_init_cpio $(B)/harden-refusals $(B)/init-$(1) $(B)/bpf_fleet-$(1) \
	$(B)/bpf_tramp-$(1) $(B)/cbpf_where-$(1) $(B)/jit_free-$(1)

# Test modules built out of tree against the kernel under test, where it
# has loadable modules: the kprobe fleet (tests/kmod), whose probed sled
# is x86 code. Its guest step skips where the module is not packed.
KMODS_x86_64	:= tests/kmod
KMOD_OUT	:= $(B)/kmod-$(ARCH)$(SUFFIX)

initramfs: $(call GUEST_BIN,$(ARCH))
	@$(if $(KMODS_$(ARCH)),ci/kmod.sh $(OUT) $(ARCH) $(KMODS_$(ARCH)) $(KMOD_OUT))
	@ci/initramfs.sh $(B)/gen_init_cpio $(B) $(ARCH) $(OUT) $(INITRD) $(KMOD_OUT)

## boot        boot ARCH's kernel in QEMU and run the guest suite
boot: initramfs
	@QEMU_NODES=$(or $(QEMU_NODES_$(VARIANT)),1) ci/boot.sh $(ARCH) $(OUT)/$(KIMAGE_$(ARCH)) $(INITRD) $(LOGS) "$(BOOT_APPEND)"

## guest       boot, then judge: KTAP via the KUnit parser, manifest, splat scan
guest: initramfs
	@mkdir -p $(RESULTS)
	@BOOT_APPEND="$(BOOT_APPEND)" QEMU_NODES=$(or $(QEMU_NODES_$(VARIANT)),1) EXPORTS_OF=$(OUT) \
		ci/guest.sh $(ARCH) $(ARCH)$(SUFFIX) $(OUT)/$(KIMAGE_$(ARCH)) $(INITRD) $(LOGS) \
		$(TREE) $(RESULTS)/$(ARCH)$(SUFFIX)
	$(JUDGE) $(RESULTS)/$(ARCH)$(SUFFIX)

## repeat      boot a guest N times with one step alone: STEP=bpf_fleet N=20 [ARCH=, VARIANT=]
repeat: initramfs
	$(if $(and $(STEP),$(N)),,$(error make repeat needs STEP=NAME and N=COUNT))
	@mkdir -p $(RESULTS)
	@BOOT_APPEND="$(BOOT_APPEND)" QEMU_NODES=$(or $(QEMU_NODES_$(VARIANT)),1) \
		ci/repeat.sh $(ARCH) $(ARCH)$(SUFFIX) $(OUT)/$(KIMAGE_$(ARCH)) $(INITRD) \
		$(LOGS)-repeat $(TREE) $(RESULTS)/$(ARCH)$(SUFFIX)-repeat $(N) $(STEP)
	$(JUDGE) $(RESULTS)/$(ARCH)$(SUFFIX)-repeat

## layout      x86_64: two more boots of the normal kernel; PTI's global-image mode, the text tail off, chunks moved
# One boot on a CPU without PCID (Nehalem), where PTI clones the kernel
# text into user page tables and the tail must not be donated; one with
# the tail switched off. Both under KASLR: their first chunks must differ.
LAYOUT_BOOTS	:= pti notail
LAYOUT_pti	:= QEMU_CPU=Nehalem BOOT_APPEND="mode=layout fleet=execmem tail=off user=yes"
LAYOUT_notail	:= BOOT_APPEND="mode=layout fleet=execmem tail=off execmem.text_tail=off"

layout:
	@$(MAKE) -s initramfs ARCH=x86_64
	@mkdir -p $(RESULTS)
	@$(foreach b,$(LAYOUT_BOOTS),$(LAYOUT_$(b)) ci/guest.sh x86_64 x86_64-$(b) \
		$(B)/out-x86_64/$(KIMAGE_x86_64) $(B)/initramfs-x86_64.cpio \
		$(B)/logs/x86_64-$(b) $(TREE) $(RESULTS)/x86_64-$(b) &&) true
	@ci/chunks-moved.sh x86_64-layout/chunks_moved \
		$(foreach b,$(LAYOUT_BOOTS),$(B)/logs/x86_64-$(b)/verdict.ktap) >$(RESULTS)/x86_64-layout
	$(JUDGE) $(foreach b,$(LAYOUT_BOOTS) layout,$(RESULTS)/x86_64-$(b))

## ftrace      x86_64: boot the kernel [VARIANT=debug] on one vCPU, where ftrace's startup selftests run
# They hang at times under TCG on two vCPUs (ci/boot.sh), so every other
# boot turns them off, and this one boots for them alone.
ftrace: initramfs
	@mkdir -p $(RESULTS)
	@FTRACE_SELFTESTS=1 QEMU_SMP=1 \
		BOOT_APPEND="mode=ftrace $(filter panic_on_warn=%,$(BOOT_APPEND_$(VARIANT)))" \
		ci/guest.sh x86_64 x86_64$(SUFFIX)-ftrace $(OUT)/$(KIMAGE_x86_64) $(INITRD) \
		$(LOGS)-ftrace $(TREE) $(RESULTS)/x86_64$(SUFFIX)-ftrace
	$(JUDGE) $(RESULTS)/x86_64$(SUFFIX)-ftrace

## modoff      x86_64: boot the kernel with execmem.modules=off; the steps that load modules, on module_alloc()
modoff: initramfs
	@mkdir -p $(RESULTS)
	@BOOT_APPEND="mode=modules fleet=execmem execmem.modules=off" \
		ci/guest.sh x86_64 x86_64$(SUFFIX)-modoff $(OUT)/$(KIMAGE_x86_64) $(INITRD) \
		$(LOGS)-modoff $(TREE) $(RESULTS)/x86_64$(SUFFIX)-modoff
	$(JUDGE) $(RESULTS)/x86_64$(SUFFIX)-modoff

# The host checks read the tip worktree, which bisect does not move.
## golden      run the log parsers against canned logs (tests/golden)
golden: $(B)/tip.stamp
	@mkdir -p $(RESULTS)
	@tests/golden/run.sh $(TIP) >$(RESULTS)/host-golden
	$(JUDGE) $(RESULTS)/host-golden

## roundtrip   prove apply -> export reproduces the series byte for byte, its cover letter and changelog rows from docs/bench.json
roundtrip: $(B)/tip.stamp
	@mkdir -p $(RESULTS)
	@if ci/roundtrip.sh $(TIP) .; then echo "PASS host/roundtrip"; \
	 else echo "FAIL host/roundtrip"; fi >$(RESULTS)/host-roundtrip
	@ci/changelog-rows.py series docs/bench.json docs/changelog-rows >>$(RESULTS)/host-roundtrip
	$(JUDGE) $(RESULTS)/host-roundtrip

## checkpatch  checkpatch --strict and kernel-doc over the series
checkpatch: $(B)/tip.stamp
	@mkdir -p $(RESULTS)
	@ci/checkpatch.sh $(TIP) series >$(RESULTS)/host-checkpatch
	$(JUDGE) $(RESULTS)/host-checkpatch

## check       bisect, both arches' guests, layout, ftrace, modoff, the debug, distro and nomod kernels, the host checks; 'total: N passed, N failed, N skipped'
check: $(B)/deps.stamp
	@rm -rf $(RESULTS)
	@$(STAGE) apply $(MAKE) -s $(B)/tip.stamp
	@$(MAKE) -s -j2 $(CHECK_LAST) IN_CHECK=1
	@ci/summary.sh $(RESULTS)/*

# The work of make check, as two chains that make -j2 walks side by side:
#   bisect -> guests at the tip -> variant guests, one boot at a time;
#   the host checks, then the variant kernels, one build at a time, from
#   $(TIP), at nice 19.
# The variant builds so take the CPU that bisect's serial link steps and
# the guests leave idle, and give it back whenever those want it. A variant
# guest waits for its kernel and for the boot before it. Each arch boots a
# kernel without loadable modules: arm64's only kernel is one, x86_64 has
# the nomod variant.
CHECK_BOOTS	:= guest-x86_64 guest-arm64 layout-x86_64 ftrace-x86_64 modoff-x86_64 guest-x86_64-debug \
		   ftrace-x86_64-debug guest-x86_64-distro guest-x86_64-nomod
CHECK_BUILDS	:= build-x86_64-debug build-x86_64-distro build-x86_64-nomod
CHECK_LAST	:= check-guest-x86_64-nomod
.PHONY: check-host check-bisect $(addprefix check-,$(CHECK_BOOTS) $(CHECK_BUILDS))
check-bisect:
	@$(STAGE) bisect $(MAKE) -s bisect ARCH="$(ARCHES)"
check-guest-x86_64 check-guest-arm64: check-guest-%: check-bisect
	@$(STAGE) guest-$* $(MAKE) -s guest ARCH=$*
check-guest-arm64: check-guest-x86_64
check-layout-x86_64: check-guest-arm64
	@$(STAGE) layout-x86_64 $(MAKE) -s layout
check-ftrace-x86_64: check-layout-x86_64
	@$(STAGE) ftrace-x86_64 $(MAKE) -s ftrace
check-modoff-x86_64: check-ftrace-x86_64
	@$(STAGE) modoff-x86_64 $(MAKE) -s modoff
check-host:
	@$(STAGE) golden $(MAKE) -s golden
	@$(STAGE) roundtrip $(MAKE) -s roundtrip
	@$(STAGE) checkpatch $(MAKE) -s checkpatch
check-build-x86_64-debug: check-host
	@nice -n 19 $(STAGE) build-x86_64-debug $(MAKE) -s build ARCH=x86_64 VARIANT=debug
check-build-x86_64-distro: check-build-x86_64-debug
	@nice -n 19 $(STAGE) build-x86_64-distro $(MAKE) -s build ARCH=x86_64 VARIANT=distro
check-guest-x86_64-debug: check-modoff-x86_64 check-build-x86_64-debug
check-ftrace-x86_64-debug: check-guest-x86_64-debug
	@$(STAGE) ftrace-x86_64-debug $(MAKE) -s ftrace VARIANT=debug
check-build-x86_64-nomod: check-build-x86_64-distro
	@nice -n 19 $(STAGE) build-x86_64-nomod $(MAKE) -s build ARCH=x86_64 VARIANT=nomod
check-guest-x86_64-distro: check-ftrace-x86_64-debug check-build-x86_64-distro
check-guest-x86_64-nomod: check-guest-x86_64-distro check-build-x86_64-nomod
check-guest-x86_64-debug check-guest-x86_64-distro check-guest-x86_64-nomod: check-guest-%:
	@$(STAGE) guest-$* $(MAKE) -s guest ARCH=x86_64 VARIANT=$(lastword $(subst -, ,$*))

## kunit       the tree's own kunit.py on mm/execmem.kunitconfig at the tip, for ARCH: x86_64 passes, arm64 shows the stub's skips
kunit: $(B)/applied.stamp
	@ci/tree-clean.sh $(TREE) $(B)/applied.stamp
	@mkdir -p $(RESULTS)
	@ci/kunit.sh $(TREE) $$(cat $(B)/applied.stamp) $(ARCH) $(B) kunit-$(ARCH) $(RESULTS)/kunit-$(ARCH)
	$(JUDGE) $(RESULTS)/kunit-$(ARCH)

# The core is the series' first CORE_PATCHES patches: the allocator, the
# x86_64 backend and their KUnit suite (README, "The series").
CORE_PATCHES := 3
## kunit-core  the same on x86_64 at the prefix that ends the core, before any user
kunit-core: $(B)/applied.stamp
	@ci/tree-clean.sh $(TREE) $(B)/applied.stamp
	@mkdir -p $(RESULTS)
	@rev=$$(git -C $(TREE) rev-list --reverse base..$$(cat $(B)/applied.stamp) | sed -n $(CORE_PATCHES)p); \
	 [ -n "$$rev" ] || { echo "kunit-core: the series has fewer than $(CORE_PATCHES) patches" >&2; exit 2; }; \
	 ci/kunit.sh $(TREE) $$rev x86_64 $(B) kunit-x86_64-core $(RESULTS)/kunit-x86_64-core
	$(JUDGE) $(RESULTS)/kunit-x86_64-core

## bench       baseline vs patched x86_64, one run: build/bench/, docs/benchmarks.md, docs/bench.json, docs/execmem-chunks.svg
bench: base $(call GUEST_BIN,x86_64)
	@$(MAKE) -s build ARCH=x86_64
	@ci/bench.sh $(TREE) $(BASE_OUT) $(B)/out-x86_64 $(B)/bench $(B)
	@BENCH_WHEN="$$(date -u +%Y-%m-%d)" BENCH_QEMU="$$(cat $(B)/bench/patched/logs/qemu.cmd)" \
		BENCH_SERIES="$$(git -C $(TREE) log -1 --format='%h %s' series)" \
		ci/bench-report.py $(B)/bench/baseline/metrics.json \
		$(B)/bench/patched/metrics.json $(B)/bench docs/benchmarks.md
	@gnuplot $(B)/bench/bench.gp && cp $(B)/bench/bench.png docs/benchmarks.png
	@ci/execmem-map.py $(B)/bench/patched/logs/verdict.ktap --svg docs/execmem-chunks.svg \
		>$(B)/bench/execmem-chunks.txt
	@cp $(B)/bench/bench.json docs/bench.json
	@echo "bench: build/bench/bench.json, build/bench/bench.png, docs/benchmarks.md, docs/bench.json, docs/execmem-chunks.svg"
	@echo "bench: now make export, and read the cover letter and docs/changelog-rows/ against the new figures"

## base        the pristine base kernel (tag 'base') for x86_64, from the same fragments; make control and make bench boot it
BASE_OUT := $(B)/out-base-x86_64
base: $(B)/applied.stamp
	@ci/worktree.sh $(TREE) $(B)/base-src base >/dev/null
	@# Symbols only the series defines are skipped by validation.
	@VALIDATE=known ci/build.sh $(B)/base-src $(BASE_OUT) x86_64

## control     the pristine base kernel, same configs and guest: peers pass, execmem's checks fail (tests/manifest/x86_64-control)
control: base $(call GUEST_BIN,x86_64)
	@mkdir -p $(RESULTS)
	@ci/control.sh $(TREE) $(BASE_OUT) $(B) $(B)/control $(RESULTS)/x86_64-control \
		"fleet=$(FLEET_x86_64)"
	$(JUDGE) $(RESULTS)/x86_64-control

## mutants     put known defects into the series one at a time, each caught by its own check (docs/mutants.md); MUTANTS="a b" for some
mutants: $(B)/applied.stamp $(call GUEST_BIN,x86_64)
	@ci/tree-clean.sh $(TREE) $(B)/applied.stamp
	@mkdir -p $(RESULTS)
	@rc=0; MUTANTS="$(MUTANTS)" FLEET=$(FLEET_x86_64) ci/mutants.sh $(TREE) $(B)/mutants docs/mutants.md \
		>$(RESULTS)/host-mutants || rc=$$?; \
	 cat $(RESULTS)/host-mutants; exit $$rc
	$(JUDGE) $(RESULTS)/host-mutants

## demo        (default) the reviewer's demo on x86_64
demo: $(B)/applied.stamp
	@$(MAKE) -s build initramfs ARCH=x86_64
	@ci/demo.sh $(OUT)/$(KIMAGE_x86_64) $(INITRD) $(B)/logs/demo

## clean       remove build outputs (keeps the unpacked tree and ccache)
clean:
	rm -rf $(B)/out-* $(B)/kmod-* $(B)/logs $(B)/results $(B)/init-* $(B)/initramfs-* \
		$(B)/bpf_fleet-* $(B)/bpf_tramp-* $(B)/cbpf_where-* $(B)/jit_free-* $(B)/kunit-*
