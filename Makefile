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
FUZZ_CC ?= clang
PKG_CONFIG ?= pkg-config
GLSLANG ?= glslangValidator

CTL_PKGS := libcurl libarchive libcrypto libelf json-c libxml-2.0
SMOKE_PKGS := vulkan OpenCL json-c

WARN := -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter
BASE_CFLAGS := -std=gnu11 -O2 -g $(WARN) -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 \
	-DTB_PREFIX='"$(PREFIX)"' -DTB_SYSCONFDIR='"$(SYSCONFDIR)"' -DTB_VERSION='"$(VERSION)"'
SAN_FLAGS :=
ifeq ($(SANITIZE),1)
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
endif
ALL_CFLAGS := $(BASE_CFLAGS) $(SAN_FLAGS) $(CPPFLAGS) $(CFLAGS)
ALL_LDFLAGS := $(SAN_FLAGS) $(LDFLAGS)

CTL_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(CTL_PKGS))
CTL_LIBS := $(shell $(PKG_CONFIG) --libs $(CTL_PKGS)) -lm
SMOKE_CFLAGS := $(shell $(PKG_CONFIG) --cflags $(SMOKE_PKGS))
SMOKE_LIBS := $(shell $(PKG_CONFIG) --libs $(SMOKE_PKGS)) -ldl
CMOCKA_LIBS := $(shell $(PKG_CONFIG) --libs cmocka)

# The launcher is on every application's start: linked statically so the dynamic linker has
# nothing to load for it, in two segments (fewer mappings for execve), no RELRO to protect
# (sanitizer builds cannot be static).
ifeq ($(SANITIZE),1)
LAUNCHER_LDFLAGS :=
else
LAUNCHER_LDFLAGS := -static -Wl,-z,noseparate-code -Wl,-z,norelro -Wl,--gc-sections
endif

CTL_SRC := $(filter-out ctl/main.c,$(wildcard ctl/*.c))
CTL_OBJ := $(CTL_SRC:%.c=$(BUILD)/obj/%.o)
LAUNCH_SRC := $(filter-out tb323fu-mesa/main.c tb323fu-mesa/smoke%,$(wildcard tb323fu-mesa/*.c))
LAUNCH_OBJ := $(LAUNCH_SRC:%.c=$(BUILD)/obj/%.o)
SMOKE_SRC := $(wildcard tb323fu-mesa/smoke*.c)
SMOKE_OBJ := $(SMOKE_SRC:%.c=$(BUILD)/obj/%.o)
UNIT_SRC := $(wildcard tests/unit/test_*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
FUZZ_SRC := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/fuzz/%)

BINS := $(BUILD)/bin/tb323fu-ctl $(BUILD)/bin/tb323fu-mesa $(BUILD)/bin/tb323fu-mesa-smoke

.PHONY: all check check-cts check-recipes check-tablet demo install fuzz clean unit-tests
all: $(BINS)

# Everything is rebuilt when the flags change (SANITIZE, CFLAGS, PREFIX…), not only the sources.
FLAGS_STAMP := $(BUILD)/flags
FLAGS_NOW := $(subst ',,$(CC) $(ALL_CFLAGS) | $(ALL_LDFLAGS) | $(LAUNCHER_LDFLAGS))
$(shell mkdir -p $(BUILD) && if [ "$$(cat $(FLAGS_STAMP) 2>/dev/null)" != '$(FLAGS_NOW)' ]; then \
	printf '%s' '$(FLAGS_NOW)' > $(FLAGS_STAMP); fi)

$(BUILD)/obj/ctl/%.o: ctl/%.c $(wildcard ctl/*.h) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CTL_CFLAGS) -c -o $@ $<

$(BUILD)/obj/tb323fu-mesa/smoke%.o: tb323fu-mesa/smoke%.c $(wildcard tb323fu-mesa/*.h) $(BUILD)/gen/smoke_spirv.h $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(SMOKE_CFLAGS) -I$(BUILD)/gen -c -o $@ $<

$(BUILD)/obj/tb323fu-mesa/%.o: tb323fu-mesa/%.c $(wildcard tb323fu-mesa/*.h) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/libtbctl.a: $(CTL_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/libtblaunch.a: $(LAUNCH_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

# termtext (escaping for terminals), version_name (the rule for version names) and suggest
# ("did you mean") are the launcher's and shared with the control tool.
$(BUILD)/bin/tb323fu-ctl: $(BUILD)/obj/ctl/main.o $(BUILD)/libtbctl.a $(BUILD)/obj/tb323fu-mesa/termtext.o \
		$(BUILD)/obj/tb323fu-mesa/version_name.o $(BUILD)/obj/tb323fu-mesa/suggest.o
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(CTL_LIBS)

$(BUILD)/bin/tb323fu-mesa: $(BUILD)/obj/tb323fu-mesa/main.o $(BUILD)/libtblaunch.a $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) $(LAUNCHER_LDFLAGS) -o $@ $(filter-out $(FLAGS_STAMP),$^)

$(BUILD)/gen/smoke_spirv.h: tb323fu-mesa/smoke.comp
	@mkdir -p $(dir $@)
	$(GLSLANG) -V --quiet --vn smoke_spirv -o $@ $<

$(BUILD)/bin/tb323fu-mesa-smoke: $(SMOKE_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(SMOKE_LIBS)

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libtbctl.a $(BUILD)/libtblaunch.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(CTL_CFLAGS) -Ictl -Itb323fu-mesa -o $@ $< \
		$(BUILD)/libtbctl.a $(BUILD)/libtblaunch.a $(CTL_LIBS) $(CMOCKA_LIBS) $(ALL_LDFLAGS)

unit-tests: $(UNIT_BIN)

# libFuzzer targets: built with clang over the engine's sources, with ASan + UBSan. The engine
# is compiled once for all targets (coverage instrumentation without libFuzzer's main), then
# each target links its harness against that archive.
FUZZ_FLAGS := -std=gnu11 -g -O1 -D_GNU_SOURCE -D_FILE_OFFSET_BITS=64 \
	-DTB_PREFIX='"$(PREFIX)"' -DTB_SYSCONFDIR='"$(SYSCONFDIR)"' -DTB_VERSION='"$(VERSION)"' \
	-fsanitize=address,undefined -Ictl -Itb323fu-mesa $(CTL_CFLAGS)
FUZZ_OBJ := $(CTL_SRC:%.c=$(BUILD)/fuzzobj/%.o) $(LAUNCH_SRC:%.c=$(BUILD)/fuzzobj/%.o)
$(BUILD)/fuzzobj/%.o: %.c $(wildcard ctl/*.h tb323fu-mesa/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(BUILD)/libtbfuzz.a: $(FUZZ_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/fuzz/%: tests/fuzz/%.c $(BUILD)/libtbfuzz.a
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $< $(BUILD)/libtbfuzz.a $(CTL_LIBS)

fuzz: $(FUZZ_BIN)

check: all unit-tests
	@if command -v $(FUZZ_CC) >/dev/null; then $(MAKE) --no-print-directory fuzz; fi
	@BUILD=$(BUILD) SANITIZE=$(SANITIZE) sh tests/run

# piglit's whole quick_cl profile on a stand-in, both sides; prints the counts and the time.
check-cts: all
	BUILD=$(BUILD) sh tests/check-cts

check-recipes: all
	sh build-recipes/check-turnip-host

# Opt-in and slow: the tablet's platform (aarch64 Debian 13) under qemu-user; needs root.
check-tablet:
	sh tests/tablet/run

demo: all
	sh tests/demo

# Beside the Open Device Helper (docs/design.md §13): the backend calls
# libexec/tb323fu-mesa/tb323fu-ctl-mesa, which is always ours; bin/ and /etc files are replaced
# only where none is there or the one there is ours (dist/install-beside), so the helper's own
# tb323fu-ctl, launcher and profile.d file stay as they are. Then a store the helper made is
# completed with our files (takeover).
LIBEXECDIR := $(PREFIX)/libexec/tb323fu-mesa
UNITDIR ?= $(PREFIX)/lib/systemd/system
STORE_DIR ?= /var/lib/tb323fu/mesa
BESIDE := sh dist/install-beside
install: all
	install -d $(DESTDIR)$(LIBEXECDIR) $(DESTDIR)$(SYSCONFDIR)/tb323fu $(DESTDIR)$(UNITDIR)
	install -m 0755 $(BUILD)/bin/tb323fu-ctl $(DESTDIR)$(LIBEXECDIR)/tb323fu-ctl-mesa
	install -m 0755 $(BUILD)/bin/tb323fu-mesa $(BUILD)/bin/tb323fu-mesa-smoke $(DESTDIR)$(LIBEXECDIR)/
	@$(BESIDE) -l ../libexec/tb323fu-mesa/tb323fu-ctl-mesa $(DESTDIR)$(PREFIX)/bin/tb323fu-ctl "" \
		"ours answers as $(LIBEXECDIR)/tb323fu-ctl-mesa COMMAND, the same as tb323fu-ctl mesa COMMAND"
	@$(BESIDE) -m 0755 $(BUILD)/bin/tb323fu-mesa $(DESTDIR)$(PREFIX)/bin/tb323fu-mesa "" \
		"ours is $(LIBEXECDIR)/tb323fu-mesa; both run programs on the store's current version"
	@$(BESIDE) -l $(STORE_DIR)/env.conf $(DESTDIR)$(SYSCONFDIR)/environment.d/60-tb323fu-mesa.conf \
		$(DESTDIR)$(SYSCONFDIR)/environment.d/61-tb323fu-mesa-ctl.conf
	@$(BESIDE) -m 0644 dist/profile.d/tb323fu-mesa.sh $(DESTDIR)$(SYSCONFDIR)/profile.d/tb323fu-mesa.sh \
		$(DESTDIR)$(SYSCONFDIR)/profile.d/tb323fu-mesa-ctl.sh
	test -e $(DESTDIR)$(SYSCONFDIR)/tb323fu/mesa.conf || \
		install -m 0644 dist/mesa.conf $(DESTDIR)$(SYSCONFDIR)/tb323fu/mesa.conf
	@for u in tb323fu-mesa-boot-tick.service tb323fu-mesa-check.service tb323fu-mesa-check.timer; do \
		sed 's|@LIBEXECDIR@|$(LIBEXECDIR)|g' dist/systemd/$$u.in > $(BUILD)/$$u && \
		$(BESIDE) -m 0644 $(BUILD)/$$u $(DESTDIR)$(UNITDIR)/$$u $(DESTDIR)$(UNITDIR)/$${u%.*}-ctl.$${u##*.} || exit 1; \
	done
	@if [ -d $(DESTDIR)$(STORE_DIR)/versions ]; then \
		$(DESTDIR)$(LIBEXECDIR)/tb323fu-ctl-mesa --store $(DESTDIR)$(STORE_DIR) --wait takeover || \
		echo "the store $(STORE_DIR) still needs our files: run $(LIBEXECDIR)/tb323fu-ctl-mesa takeover as its owner"; \
	fi

# Man pages from their scdoc sources (doc/), and the bash completion; `make install` puts
# both where man and bash-completion look.
SCDOC ?= scdoc
MANDIR ?= $(PREFIX)/share/man
ifeq ($(PREFIX),/usr)
BASHCOMPDIR ?= $(shell $(PKG_CONFIG) --variable=completionsdir bash-completion 2>/dev/null || \
	echo /usr/share/bash-completion/completions)
else
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
endif
MAN_PAGES := $(patsubst doc/%.scd,$(BUILD)/man/%,$(wildcard doc/*.scd))

$(BUILD)/man/%: doc/%.scd doc/tidy-man.awk VERSION
	@mkdir -p $(dir $@)
	sed 's/@VERSION@/$(VERSION)/' $< | $(SCDOC) | awk -f doc/tidy-man.awk > $@.tmp
	mv $@.tmp $@

.PHONY: man install-doc check-deb
# Opt-in: the Debian package built, linted, installed with apt into a Debian 12 root, used,
# removed and purged; each step timed (tests/check-deb).
check-deb: all
	BUILD=$(BUILD) sh tests/check-deb

man: $(MAN_PAGES)
check: man
install: install-doc
install-doc: man
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(BASHCOMPDIR)
	install -m 0644 $(filter %.1,$(MAN_PAGES)) $(DESTDIR)$(MANDIR)/man1/
	install -m 0644 $(filter %.5,$(MAN_PAGES)) $(DESTDIR)$(MANDIR)/man5/
	install -m 0644 dist/bash-completion/tb323fu-ctl $(DESTDIR)$(BASHCOMPDIR)/tb323fu-ctl
	ln -sfn tb323fu-ctl $(DESTDIR)$(BASHCOMPDIR)/tb323fu-mesa

clean:
	rm -rf build build-san build-aarch64
