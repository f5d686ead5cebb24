# tb323fu-mesa: make, make check [SANITIZE=1], make install PREFIX=… DESTDIR=…, make demo
#   make CROSS=aarch64 [SYSROOT=…]: the programs for the tablet (aarch64) into build-aarch64/,
#   built with the cross compiler against an arm64 Debian 13 root (build-recipes/arm64-root)
#   and that root's pkg-config files; make check-tablet runs them there under qemu-user.

# The one place the version is kept: the programs' --version, the man pages, the package.
VERSION := $(shell cat VERSION)
PREFIX ?= /usr/local
SYSCONFDIR ?= /etc
DESTDIR ?=
ifeq ($(CROSS),aarch64)
SYSROOT ?= $(shell sh build-recipes/arm64-root path)
CC := aarch64-linux-gnu-gcc --sysroot=$(SYSROOT)
CXX := aarch64-linux-gnu-g++ --sysroot=$(SYSROOT)
AR := aarch64-linux-gnu-ar
PKG_CONFIG := PKG_CONFIG_SYSROOT_DIR=$(SYSROOT) \
	PKG_CONFIG_LIBDIR=$(SYSROOT)/usr/lib/aarch64-linux-gnu/pkgconfig:$(SYSROOT)/usr/share/pkgconfig pkg-config
BUILD ?= build-aarch64
else ifneq ($(CROSS),)
$(error CROSS=$(CROSS): only CROSS=aarch64 is known)
endif
ifeq ($(SANITIZE),1)
BUILD ?= build-san
else
BUILD ?= build
endif

CC ?= cc
CXX ?= c++
FUZZ_CC ?= clang
FUZZ_CXX ?= clang++
PKG_CONFIG ?= pkg-config
GLSLANG ?= glslangValidator

CTL_PKGS := libcurl libarchive libcrypto libelf json-c libxml-2.0 glib-2.0
# The journal is read with libsystemd's sd-journal (docs/design.md §18).
CTL_PKGS += libsystemd
# bench --history --plot draws its chart with cairo (SVG and PNG surfaces).
CTL_PKGS += cairo
# Loaded by tb323fu-ctl on their first call, not at its start (ctl/base/lazylib.h): the
# program does not link them; tests and fuzzers do (the symbols are then found in the process).
LAZY_PKGS := libcurl libarchive libcrypto libxml-2.0 libsystemd cairo
# Each one's soname as the build's own library says it (the ABI its headers describe).
soname = $(or $(shell readelf -d $$($(CC) -print-file-name=lib$(1).so 2>/dev/null) 2>/dev/null | \
	sed -n 's/.*Library soname: \[\(.*\)\]/\1/p'),$(2))
LAZY_SONAMES := -DTB_SONAME_CURL='"$(call soname,curl,libcurl.so.4)"' \
	-DTB_SONAME_ARCHIVE='"$(call soname,archive,libarchive.so.13)"' \
	-DTB_SONAME_CRYPTO='"$(call soname,crypto,libcrypto.so.3)"' \
	-DTB_SONAME_XML2='"$(call soname,xml2,libxml2.so.2)"' \
	-DTB_SONAME_SYSTEMD='"$(call soname,systemd,libsystemd.so.0)"' \
	-DTB_SONAME_CAIRO='"$(call soname,cairo,libcairo.so.2)"'
SMOKE_PKGS := vulkan OpenCL json-c

WARN := -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter
BASE_CFLAGS := -std=gnu11 -O2 -g $(WARN) -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 \
	-DTB_PREFIX='"$(PREFIX)"' -DTB_SYSCONFDIR='"$(SYSCONFDIR)"' -DTB_VERSION='"$(VERSION)"' \
	$(LAZY_SONAMES)
SAN_FLAGS :=
ifeq ($(SANITIZE),1)
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
endif
ALL_CFLAGS := $(BASE_CFLAGS) $(SAN_FLAGS) $(CPPFLAGS) $(CFLAGS)
# C++ only where a library is C++: helper.toml is read with toml++ (ctl/helper/helper_toml_reader.cpp).
ALL_CXXFLAGS := -std=c++17 -O2 -g $(WARN) -D_GNU_SOURCE $(SAN_FLAGS) $(CPPFLAGS) $(CXXFLAGS)
ALL_LDFLAGS := $(SAN_FLAGS) $(LDFLAGS)

# Quiet when pkg-config or a library is missing: make demo and make check install them first
# (ci/install-deps) and build in a make of their own, which asks again.
CTL_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(CTL_PKGS) 2>/dev/null)
TOML_CFLAGS := $(shell $(PKG_CONFIG) --cflags tomlplusplus 2>/dev/null)
TOML_LIBS := $(shell $(PKG_CONFIG) --libs tomlplusplus 2>/dev/null)
CTL_LIBS := $(shell $(PKG_CONFIG) --libs $(CTL_PKGS) 2>/dev/null) -lm
CTL_PROGRAM_LIBS := $(shell $(PKG_CONFIG) --libs $(filter-out $(LAZY_PKGS),$(CTL_PKGS)) 2>/dev/null) -lm -ldl
SMOKE_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(SMOKE_PKGS) 2>/dev/null)
SMOKE_LIBS := $(shell $(PKG_CONFIG) --libs $(SMOKE_PKGS) 2>/dev/null) -ldl
CMOCKA_LIBS := $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null)

# The launcher is on every application's start: linked statically so the dynamic linker has
# nothing to load for it, in two segments (fewer mappings for execve), no RELRO to protect
# (sanitizer builds cannot be static).
ifeq ($(SANITIZE),1)
LAUNCHER_LDFLAGS :=
else
LAUNCHER_LDFLAGS := -static -Wl,-z,noseparate-code -Wl,-z,norelro -Wl,--gc-sections
endif

# The layers (docs/design.md §15): one folder each, one wildcard each. The contract layer
# (tb323fu-mesa/common) is in both programs; the launcher and the smoke program are separate
# folders, so nothing of the smoke program can end up in the static launcher.
CTL_LAYERS := base store release gputest flatpak apprules lifecycle helper bisect health crash cli scope render cmd
CTL_SRC := $(foreach d,$(CTL_LAYERS),$(wildcard ctl/$(d)/*.c))
CTL_CXX_SRC := $(foreach d,$(CTL_LAYERS),$(wildcard ctl/$(d)/*.cpp))
CTL_OBJ := $(CTL_SRC:%.c=$(BUILD)/obj/%.o) $(CTL_CXX_SRC:%.cpp=$(BUILD)/obj/%.o)
COMMON_SRC := $(wildcard tb323fu-mesa/common/*.c)
COMMON_OBJ := $(COMMON_SRC:%.c=$(BUILD)/obj/%.o)
LAUNCH_SRC := $(filter-out tb323fu-mesa/launcher/main.c,$(wildcard tb323fu-mesa/launcher/*.c))
LAUNCH_OBJ := $(LAUNCH_SRC:%.c=$(BUILD)/obj/%.o)
SMOKE_SRC := $(wildcard tb323fu-mesa/smoke/*.c)
SMOKE_OBJ := $(SMOKE_SRC:%.c=$(BUILD)/obj/%.o)
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
UNIT_OBJ := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/obj/tests/%.o)
FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/fuzz/%)
FUZZ_HARNESS_OBJ := $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/fuzzobj/tests/%.o)
# Objects of a test or fuzz target are kept (not removed as intermediates): the next make then
# finds them up to date instead of building them again.
.SECONDARY: $(UNIT_OBJ) $(FUZZ_HARNESS_OBJ)

BINS := $(BUILD)/bin/tb323fu-ctl $(BUILD)/bin/tb323fu-mesa $(BUILD)/bin/tb323fu-mesa-smoke

.PHONY: all check check-full check-cts check-deqp check-recipes check-root check-tablet demo install fuzz clean unit-tests release cts-release check-repro
all: $(BINS)

# Quiet by default, one line a step (CC ctl/store/store.o); V=1 prints the commands.
ifeq ($(V),1)
Q :=
say :=
else
Q := @
say = @printf '  %-6s %s\n' $(1) $(2);
endif

# Everything is rebuilt when the flags change (SANITIZE, CFLAGS, PREFIX…), not only the sources.
FLAGS_STAMP := $(BUILD)/flags
FLAGS_NOW := $(subst ',,$(CC) $(ALL_CFLAGS) | $(CXX) $(ALL_CXXFLAGS) | $(ALL_LDFLAGS) | $(LAUNCHER_LDFLAGS))
$(shell mkdir -p $(BUILD) && if [ "$$(cat $(FLAGS_STAMP) 2>/dev/null)" != '$(FLAGS_NOW)' ]; then \
	printf '%s' '$(FLAGS_NOW)' > $(FLAGS_STAMP); fi)

# Includes name their layer ("store/txn.h", "common/storepath.h"): -Ictl -Itb323fu-mesa. The
# compiler writes each object's header dependencies (-MMD -MP), read back below.
INC := -Ictl -Itb323fu-mesa
DEPFLAGS = -MMD -MP -MF $(@:.o=.d)

$(BUILD)/obj/ctl/%.o: ctl/%.c $(FLAGS_STAMP)
	$(call say,CC,$@)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(INC) $(CTL_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(BUILD)/obj/ctl/%.o: ctl/%.cpp $(FLAGS_STAMP)
	$(call say,CXX,$@)
	@mkdir -p $(dir $@)
	$(Q)$(CXX) $(ALL_CXXFLAGS) $(INC) $(TOML_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(BUILD)/obj/tb323fu-mesa/smoke/%.o: tb323fu-mesa/smoke/%.c $(BUILD)/gen/smoke_spirv.h $(FLAGS_STAMP)
	$(call say,CC,$@)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(INC) $(SMOKE_CFLAGS) -I$(BUILD)/gen $(DEPFLAGS) -c -o $@ $<

$(BUILD)/obj/tb323fu-mesa/%.o: tb323fu-mesa/%.c $(FLAGS_STAMP)
	$(call say,CC,$@)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(INC) $(DEPFLAGS) -c -o $@ $<

$(BUILD)/libtbctl.a: $(CTL_OBJ)
$(BUILD)/libtbcommon.a: $(COMMON_OBJ)
$(BUILD)/libtblaunch.a: $(LAUNCH_OBJ)
$(BUILD)/%.a:
	$(call say,AR,$@)
	@rm -f $@
	$(Q)$(AR) rcs $@ $^

# Linked by the C++ compiler: one engine file is C++ (its runtime comes with it).
$(BUILD)/bin/tb323fu-ctl: $(BUILD)/obj/ctl/main.o $(BUILD)/libtbctl.a $(BUILD)/libtbcommon.a
	$(call say,LD,$@)
	@mkdir -p $(dir $@)
	$(Q)$(CXX) $(ALL_LDFLAGS) -Wl,--as-needed -o $@ $^ $(CTL_PROGRAM_LIBS) $(TOML_LIBS)

$(BUILD)/bin/tb323fu-mesa: $(BUILD)/obj/tb323fu-mesa/launcher/main.o $(BUILD)/libtblaunch.a \
		$(BUILD)/libtbcommon.a $(FLAGS_STAMP)
	$(call say,LD,$@)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_LDFLAGS) $(LAUNCHER_LDFLAGS) -o $@ $(filter-out $(FLAGS_STAMP),$^)

$(BUILD)/gen/smoke_spirv.h: tb323fu-mesa/smoke/smoke.comp
	$(call say,GLSL,$@)
	@mkdir -p $(dir $@)
	$(Q)$(GLSLANG) -V --quiet --vn smoke_spirv -o $@ $<

$(BUILD)/bin/tb323fu-mesa-smoke: $(SMOKE_OBJ) $(BUILD)/libtbcommon.a
	$(call say,LD,$@)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_LDFLAGS) -o $@ $^ $(SMOKE_LIBS)

UNIT_LIBS := $(BUILD)/libtbctl.a $(BUILD)/libtblaunch.a $(BUILD)/libtbcommon.a
$(BUILD)/obj/tests/%.o: tests/unit/%.c $(FLAGS_STAMP)
	$(call say,CC,$@)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(INC) $(CTL_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(BUILD)/tests/%: $(BUILD)/obj/tests/%.o $(UNIT_LIBS)
	$(call say,LD,$@)
	@mkdir -p $(dir $@)
	$(Q)$(CXX) -o $@ $< $(UNIT_LIBS) $(CTL_LIBS) $(TOML_LIBS) $(CMOCKA_LIBS) $(ALL_LDFLAGS)

# Test programs of tests/tools/ that the tests run as applications would be run: a surfaceless
# EGL program that draws (linked against glvnd's libEGL and libGLESv2, as applications are).
GL_TOOL_PKGS := egl glesv2
$(BUILD)/tests/tools/egl-draw: tests/tools/egl-draw.c $(FLAGS_STAMP)
	$(call say,CC,$@)
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(shell $(PKG_CONFIG) --cflags --libs $(GL_TOOL_PKGS) 2>/dev/null)

unit-tests: $(UNIT_BIN) $(BUILD)/tests/tools/egl-draw

# libFuzzer targets: built with clang over the engine's sources, with ASan + UBSan. The engine
# is compiled once for all targets (coverage instrumentation without libFuzzer's main), then
# each target links its harness against that archive. C++ objects need clang++, which links
# the targets. toml++ is the shipped shared library, as in the programs: its header-only
# build in Debian 12 (3.3.0) asserts, and reaches __builtin_unreachable, on headers such as
# "[ ! ]", where the library as built returns a parse error.
FUZZ_FLAGS := -std=gnu11 -g -O1 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 \
	-DTB_PREFIX='"$(PREFIX)"' -DTB_SYSCONFDIR='"$(SYSCONFDIR)"' -DTB_VERSION='"$(VERSION)"' \
	$(LAZY_SONAMES) -fsanitize=address,undefined $(INC) $(CTL_CFLAGS)
FUZZ_CXXFLAGS := -std=c++17 -g -O1 -D_GNU_SOURCE -fsanitize=address,undefined $(INC) $(TOML_CFLAGS)
FUZZ_OBJ := $(CTL_SRC:%.c=$(BUILD)/fuzzobj/%.o) $(CTL_CXX_SRC:%.cpp=$(BUILD)/fuzzobj/%.o) \
	$(COMMON_SRC:%.c=$(BUILD)/fuzzobj/%.o) $(LAUNCH_SRC:%.c=$(BUILD)/fuzzobj/%.o)
$(BUILD)/fuzzobj/%.o: %.c
	$(call say,FUZZCC,$@)
	@mkdir -p $(dir $@)
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link $(DEPFLAGS) -c -o $@ $<

$(BUILD)/fuzzobj/%.o: %.cpp
	$(call say,FUZZCXX,$@)
	@mkdir -p $(dir $@)
	$(Q)$(FUZZ_CXX) $(FUZZ_CXXFLAGS) -fsanitize=fuzzer-no-link $(DEPFLAGS) -c -o $@ $<

$(BUILD)/libtbfuzz.a: $(FUZZ_OBJ)

$(BUILD)/fuzzobj/tests/%.o: tests/fuzz/%.c
	$(call say,FUZZCC,$@)
	@mkdir -p $(dir $@)
	$(Q)$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer $(DEPFLAGS) -c -o $@ $<

$(BUILD)/fuzz/%: $(BUILD)/fuzzobj/tests/%.o $(BUILD)/libtbfuzz.a
	$(call say,LD,$@)
	@mkdir -p $(dir $@)
	$(Q)$(FUZZ_CXX) -fsanitize=fuzzer,address,undefined -o $@ $^ $(CTL_LIBS) $(TOML_LIBS)

fuzz: $(FUZZ_BIN)

-include $(shell find $(BUILD)/obj $(BUILD)/fuzzobj -name '*.d' 2>/dev/null)

# The unpacker's two threads under ThreadSanitizer: their unit test, built apart in build-tsan/.
.PHONY: tsan-unit
tsan-unit:
	$(MAKE) --no-print-directory BUILD=build-tsan SANITIZE= CFLAGS=-fsanitize=thread \
		CXXFLAGS=-fsanitize=thread LDFLAGS=-fsanitize=thread build-tsan/tests/test_inflater
	build-tsan/tests/test_inflater

# The quick tier, test programs run at once one a core (JOBS=N: N at once; JOBS=1: one after
# another); check-full is the full tier (TB_TIER=full: the long forms, as CI runs them).
# TESTS="WORD…": only the test files whose names contain a word (as tests/run takes them).
JOBS ?=
TESTS ?=
# What a target needs from Debian's archive (ci/packages/LIST.txt) is installed first, as root,
# saying which and why; a user is told the one sudo line (ci/install-deps --for).
needs = @sh ci/install-deps --for "make $@" $(1)
check:
	$(call needs,check $(if $(filter full,$(TB_TIER)),full))
	@$(MAKE) --no-print-directory all unit-tests man
	@if command -v $(FUZZ_CC) >/dev/null; then $(MAKE) --no-print-directory fuzz; fi
	@BUILD=$(BUILD) SANITIZE=$(SANITIZE) sh tests/run $(if $(JOBS),-j $(JOBS)) $(TESTS)
check-full:
	@$(MAKE) --no-print-directory check TB_TIER=full

# piglit's whole quick_cl profile on a stand-in, both sides; prints the counts and the time.
check-cts:
	$(call needs,check cts recipes)
	@$(MAKE) --no-print-directory all
	BUILD=$(BUILD) sh tests/check-cts
check-deqp:
	$(call needs,check recipes)
	@$(MAKE) --no-print-directory all
	BUILD=$(BUILD) sh tests/check-deqp

# RECIPE_SOURCE=debian builds Debian's own Mesa instead of the pinned one (build-recipes/mesa-source).
RECIPE_SOURCE ?= pinned
check-recipes:
	$(call needs,check recipes)
	@$(MAKE) --no-print-directory all
	sh build-recipes/check-turnip-host --source $(RECIPE_SOURCE)

# The README's set-up, make demo and make check in a fresh root of another Debian release
# (SUITE=trixie by default, SANITIZE=1 for the sanitizer run, TB_TIER=full for the full
# tier), from a clean clone of HEAD; TESTS="WORD…": make check of those test files alone,
# without make demo (a quick run of one part in the other release while working on it).
SUITE ?= trixie
check-root:
	$(call needs,root)
	SUITE=$(SUITE) SANITIZE=$(SANITIZE) TB_TIER=$(TB_TIER) TESTS='$(TESTS)' sh tests/check-root

# Opt-in and slow: the tablet's platform (aarch64 Debian 13 with trixie-backports' Mesa) under
# qemu-user; needs root. FULL=1 builds the full tablet release (Turnip, rusticl and GL), with the
# SPIR-V translator from SPIRV_SOURCE.
FULL ?= 0
# FRESH=1: from a new, empty TB_CACHE, as a fresh machine runs it (tests/tablet/run).
FRESH ?= 0
SPIRV_SOURCE ?= $(wildcard ../shared/third_party/SPIRV-LLVM-Translator-19.1.6.tar.gz)
check-tablet:
	$(call needs,check root recipes tablet)
	TB_FULL=$(FULL) TB_FRESH=$(FRESH) TB_SPIRV_SOURCE=$(SPIRV_SOURCE) sh tests/tablet/run

demo:
	$(call needs,check)
	@$(MAKE) --no-print-directory all
	sh tests/demo

# Release builds (docs/design.md §19). `make release` is the workflow's build here (ci/release:
# natively on aarch64 Debian 13, else in the builder root, which needs root): DRIVERS=vulkan
# for Turnip alone, DRIVERS=vulkan,opencl,gl or vulkan,gl with GL. `make check-repro` (opt-in, slow, root) builds Turnip twice from the same
# inputs in other directories and compares the tarballs (diffoscope where they differ);
# REPRO_DRIVERS=vulkan,opencl for the full set.
DRIVERS ?= vulkan,opencl
release:
	$(call needs,recipes root)
	sh ci/release --drivers $(DRIVERS)
# `make cts-release` is the CTS workflow's build here (ci/cts-release: dEQP-VK and OpenCL-CTS
# for ARCH, natively for this machine's, aarch64 elsewhere in the builder root, which needs root).
ARCH ?= $(shell uname -m)
cts-release:
	$(call needs,recipes $(if $(filter $(ARCH),$(shell uname -m)),,root))
	sh ci/cts-release --arch $(ARCH)
REPRO_DRIVERS ?= vulkan
check-repro:
	$(call needs,root recipes repro)
	sh tests/check-repro --drivers $(REPRO_DRIVERS)

# Beside the Open Device Helper (docs/design.md §13): the backend calls
# libexec/tb323fu-mesa/tb323fu-ctl-mesa, which is always ours; bin/ and /etc files are replaced
# only where none is there or the one there is ours (dist/install-beside), so the helper's own
# tb323fu-ctl, launcher and profile.d file stay as they are. Then a store the helper made is
# completed with our files (takeover).
LIBEXECDIR := $(PREFIX)/libexec/tb323fu-mesa
UNITDIR ?= $(PREFIX)/lib/systemd/system
USERUNITDIR ?= $(PREFIX)/lib/systemd/user
STORE_DIR ?= /var/lib/tb323fu/mesa
BESIDE := sh dist/install-beside
install: all install-doc
	install -d $(DESTDIR)$(LIBEXECDIR) $(DESTDIR)$(SYSCONFDIR)/tb323fu $(DESTDIR)$(UNITDIR) $(DESTDIR)$(USERUNITDIR)
	install -m 0755 $(BUILD)/bin/tb323fu-ctl $(DESTDIR)$(LIBEXECDIR)/tb323fu-ctl-mesa
	install -m 0755 $(BUILD)/bin/tb323fu-mesa $(BUILD)/bin/tb323fu-mesa-smoke $(DESTDIR)$(LIBEXECDIR)/
	@$(BESIDE) -l ../libexec/tb323fu-mesa/tb323fu-ctl-mesa $(DESTDIR)$(PREFIX)/bin/tb323fu-ctl "" \
		"ours answers as $(LIBEXECDIR)/tb323fu-ctl-mesa COMMAND, the same as tb323fu-ctl mesa COMMAND"
	@$(BESIDE) -m 0755 $(BUILD)/bin/tb323fu-mesa $(DESTDIR)$(PREFIX)/bin/tb323fu-mesa "" \
		"ours is $(LIBEXECDIR)/tb323fu-mesa; both run programs on the store's current version"
	@$(BESIDE) -l $(STORE_DIR)/env.conf $(DESTDIR)$(SYSCONFDIR)/environment.d/60-tb323fu-mesa.conf \
		$(DESTDIR)$(SYSCONFDIR)/environment.d/61-tb323fu-mesa-ctl.conf
	@$(BESIDE) -l $(STORE_DIR)/flatpak.conf $(DESTDIR)$(SYSCONFDIR)/environment.d/61-tb323fu-mesa-flatpak.conf ""
	@$(BESIDE) -m 0644 dist/profile.d/tb323fu-mesa.sh $(DESTDIR)$(SYSCONFDIR)/profile.d/tb323fu-mesa.sh \
		$(DESTDIR)$(SYSCONFDIR)/profile.d/tb323fu-mesa-ctl.sh
	test -e $(DESTDIR)$(SYSCONFDIR)/tb323fu/mesa.conf || \
		install -m 0644 dist/mesa.conf $(DESTDIR)$(SYSCONFDIR)/tb323fu/mesa.conf
	@# The check timer starts the service of its own name: both keep their names, or both go
	@# beside (…-check-ctl.timer starts …-check-ctl.service), never one of each.
	@check=tb323fu-mesa-check; \
	if ! $(BESIDE) -f $(DESTDIR)$(UNITDIR)/$$check.service || ! $(BESIDE) -f $(DESTDIR)$(UNITDIR)/$$check.timer; then \
		check=tb323fu-mesa-check-ctl; \
		echo "$(UNITDIR)/tb323fu-mesa-check.service or .timer belongs to another program and is left as it is; ours are $$check.service and $$check.timer"; \
	fi; \
	for u in tb323fu-mesa-boot-tick.service:tb323fu-mesa-boot-tick.service \
		tb323fu-mesa-check.service:$$check.service tb323fu-mesa-check.timer:$$check.timer \
		tb323fu-mesa-crashes.service:tb323fu-mesa-crashes.service \
		tb323fu-mesa-crashes.path:tb323fu-mesa-crashes.path; do \
		src=$${u%%:*}; at=$${u#*:}; \
		sed 's|@LIBEXECDIR@|$(LIBEXECDIR)|g' dist/systemd/$$src.in > $(BUILD)/$$src.$$$$ && \
		$(BESIDE) -m 0644 $(BUILD)/$$src.$$$$ $(DESTDIR)$(UNITDIR)/$$at $(DESTDIR)$(UNITDIR)/$${at%.*}-ctl.$${at##*.} || \
			{ rm -f $(BUILD)/$$src.$$$$; exit 1; }; \
		rm -f $(BUILD)/$$src.$$$$; \
	done
	@# a user's own crashes pin in their own rules (docs/design.md §18): units of each user's manager
	@for u in tb323fu-mesa-crashes-user.service tb323fu-mesa-crashes-user.path; do \
		sed 's|@LIBEXECDIR@|$(LIBEXECDIR)|g' dist/systemd/user/$$u.in > $(BUILD)/$$u.$$$$ && \
		$(BESIDE) -m 0644 $(BUILD)/$$u.$$$$ $(DESTDIR)$(USERUNITDIR)/$$u $(DESTDIR)$(USERUNITDIR)/$${u%.*}-ctl.$${u##*.} || \
			{ rm -f $(BUILD)/$$u.$$$$; exit 1; }; \
		rm -f $(BUILD)/$$u.$$$$; \
	done
	@if [ -d $(DESTDIR)$(STORE_DIR)/versions ]; then \
		$(DESTDIR)$(LIBEXECDIR)/tb323fu-ctl-mesa --store $(DESTDIR)$(STORE_DIR) --wait takeover || \
		echo "the store $(STORE_DIR) still needs our files: run $(LIBEXECDIR)/tb323fu-ctl-mesa takeover as its owner"; \
	fi

# Man pages from their scdoc sources (docs/man/), and the bash completion; `make install` puts
# both where man and bash-completion look.
SCDOC ?= scdoc
MANDIR ?= $(PREFIX)/share/man
ifeq ($(PREFIX),/usr)
BASHCOMPDIR ?= $(shell $(PKG_CONFIG) --variable=completionsdir bash-completion 2>/dev/null || \
	echo /usr/share/bash-completion/completions)
else
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
endif
MAN_PAGES := $(patsubst docs/man/%.scd,$(BUILD)/man/%,$(wildcard docs/man/*.scd))

$(BUILD)/man/%: docs/man/%.scd docs/man/tidy-man.awk VERSION
	@mkdir -p $(dir $@)
	@# the mark that tells install-beside the page is ours (tb323fu-mesa/common/ident.h)
	{ sed 's/@VERSION@/$(VERSION)/' $< | $(SCDOC) | awk -f docs/man/tidy-man.awk; \
		printf '%s\n' '.\" tb323fu-mesa-toolchain-program'; } > $@.tmp
	mv $@.tmp $@

.PHONY: man install-doc check-deb
# Opt-in: the Debian package built and linted in a root of SUITE (DEB_SUITE=bookworm by
# default, or trixie), installed with apt into a minimal root of it, used, removed and purged;
# each step timed (tests/check-deb).
DEB_SUITE ?= bookworm
check-deb:
	$(call needs,check root)
	@$(MAKE) --no-print-directory all
	BUILD=$(BUILD) SUITE=$(DEB_SUITE) sh tests/check-deb

man: $(MAN_PAGES)
install-doc: man
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(BASHCOMPDIR)
	@# The helper may have pages and completions of the same names: those stay (install-beside).
	@$(BESIDE) -m 0644 $(BUILD)/man/tb323fu-ctl.1 $(DESTDIR)$(MANDIR)/man1/tb323fu-ctl.1 \
		$(DESTDIR)$(MANDIR)/man1/tb323fu-ctl-mesa.1 "man tb323fu-ctl-mesa"
	@$(BESIDE) -m 0644 $(BUILD)/man/tb323fu-mesa.1 $(DESTDIR)$(MANDIR)/man1/tb323fu-mesa.1 \
		$(DESTDIR)$(MANDIR)/man1/tb323fu-mesa-ctl.1 "man tb323fu-mesa-ctl"
	@$(BESIDE) -m 0644 $(BUILD)/man/tb323fu-mesa.conf.5 $(DESTDIR)$(MANDIR)/man5/tb323fu-mesa.conf.5 ""
	@$(BESIDE) -m 0644 dist/bash-completion/tb323fu-ctl $(DESTDIR)$(BASHCOMPDIR)/tb323fu-ctl \
		$(DESTDIR)$(BASHCOMPDIR)/tb323fu-ctl-mesa
	@$(BESIDE) -l tb323fu-ctl $(DESTDIR)$(BASHCOMPDIR)/tb323fu-mesa ""

clean:
	rm -rf build build-san build-aarch64
