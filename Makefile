# cms-fcgi top-level Makefile (hand-written). Includes config.mk, which configure writes;
# on a fresh clone it installs what is missing and runs autoconf + configure first (what is
# missing to build and run for `make` and `make install`; for the targets that test, all).
# `autoreconf -i && ./configure && make` installs nothing (doc/install.md). From the tarball of
# `make dist`, which ships configure, neither needs autoconf.

-include config.mk

STD_FLAGS = -std=c++17 -Wall -Wextra -Wpedantic -Wshadow
ifeq ($(SANITIZE),1)
# After CXXFLAGS, whose -O2 would otherwise win: at -O1 the build takes a third less time.
SAN_FLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer
LDFLAGS += -fsanitize=address,undefined
# libfcgi mallocs whatever size a FastCGI record announces; a NULL answer lets it fail as it does
# without the sanitizer (its assertion aborts the worker, which t/0003 provokes on purpose).
export ASAN_OPTIONS ?= allocator_may_return_null=1
endif
ALL_CXXFLAGS = $(STD_FLAGS) $(CXXFLAGS) $(SAN_FLAGS) $(CPPFLAGS) -Isrc $(LIB_CFLAGS) -MMD -MP

LIB_SRC = $(filter-out src/cli/main.cpp,$(wildcard src/*/*.cpp))
LIB_OBJ = $(LIB_SRC:.cpp=.o)
UNIT_SRC = $(wildcard t/unit/*.cpp)
UNIT_OBJ = $(UNIT_SRC:.cpp=.o)

BIN = src/cms-fcgi
LIB = src/libcms.a
UNIT = t/unit/unit-tests
PROVE ?= prove

.PHONY: all deps check unit test run stop backup restore db cluster cluster-stop check-cluster bench battery mutants lint docs clean distclean \
	install uninstall deb fuzz fuzz-build fuzz-merge clean-gcc dist distcheck print-version release

all: $(BIN)

# The groups of scripts/install-deps that a fresh clone's config.mk installs first: the goals that
# test, run or render install what they use (as the deps target would), the rest (`make`, `make
# install`) only what a production host needs to build and run.
DEPS_GOALS = deps check unit test run cluster check-cluster bench battery fuzz fuzz-build fuzz-merge docs
DEPS_GROUPS = $(if $(filter $(DEPS_GOALS),$(MAKECMDGOALS)),all,build run)

# A checkout makes configure from configure.ac; the tarball of make dist ships it, newer than
# configure.ac, and builds without autoconf. The goals that only read the sources (make dist,
# make print-version; make release and make deb, which build in chroots of their own) neither
# configure nor install anything.
NO_CONFIG_GOALS = dist distcheck print-version release deb
ifneq ($(or $(filter-out $(NO_CONFIG_GOALS),$(MAKECMDGOALS)),$(if $(MAKECMDGOALS),,all)),)
config.mk: configure.ac config.mk.in
	scripts/install-deps $(DEPS_GROUPS)
	[ configure -nt configure.ac ] || { aclocal && autoconf; }
	./configure
endif

$(LIB): $(LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

# ASan and UBSan need the shared libraries: a sanitizer build ignores --enable-static-binary.
$(BIN): src/cli/main.o $(LIB)
	$(CXX) $(LDFLAGS) $(if $(filter 1,$(SANITIZE)),,$(BIN_LDFLAGS)) -o $@ src/cli/main.o $(LIB) \
		$(if $(filter 1,$(SANITIZE)),$(LIB_LIBS),$(BIN_LIBS))

$(UNIT): $(UNIT_OBJ) $(LIB)
	$(CPPUNIT_CHECK)
	$(CXX) $(LDFLAGS) -o $@ $(UNIT_OBJ) $(LIB) $(LIB_LIBS) $(CPPUNIT_LIBS)

src/%.o: src/%.cpp config.mk
	$(CXX) $(ALL_CXXFLAGS) -c -o $@ $<

# The built-in English texts (a code the message table lacks, or every code when no table could be
# read) are conf/code-message.en.properties compiled in: generated, never committed, so that the
# two cannot differ. The g++, SANITIZE and fuzz builds of errors.cpp all include the one file.
MESSAGE_TEXTS = src/base/message_texts.inc
$(MESSAGE_TEXTS): conf/code-message.en.properties scripts/message-texts
	scripts/message-texts conf/code-message.en.properties >$@.tmp && mv $@.tmp $@
src/base/errors.o fuzz/build/src/base/errors.o: $(MESSAGE_TEXTS)

# The version, whose one place is configure.ac's AC_INIT: --version, a backup's manifest, the
# status page's build info, the man page and the tarballs' names. `make -s print-version` prints
# it for scripts; the Makefile's own targets use $(CMS_VERSION). Each source that names
# CMS_VERSION is compiled again when configure.ac changes.
CMS_VERSION := $(shell sed -n 's/^AC_INIT(\[cms-fcgi\], \[\([^]]*\)\]).*/\1/p' configure.ac)
VERSION_OBJ := $(patsubst %.cpp,%.o,$(shell grep -l CMS_VERSION src/*/*.cpp))
$(VERSION_OBJ) $(VERSION_OBJ:src/%=fuzz/build/src/%): CPPFLAGS += -DCMS_VERSION='"$(CMS_VERSION)"'
$(VERSION_OBJ) $(VERSION_OBJ:src/%=fuzz/build/src/%): configure.ac
# --version --verbose: the Debian packages configure built with, and where a release was built.
src/cli/version.o: CPPFLAGS += -DCMS_BUILD_PACKAGES='"$(CMS_BUILD_PACKAGES)"' \
	-DCMS_BUILD_ORIGIN='"$(CMS_BUILD_ORIGIN)"'
src/cli/version.o: config.mk

print-version:
	@echo $(CMS_VERSION)

# The schema version: the number of the last file of sql/migrations/ (NNNN-what.sql), its one
# source. schema.cpp is built again when a migration comes or goes (a checkout of another
# branch too): that changes the directory's time.
SCHEMA_VERSION := $(shell ls sql/migrations | sed -n 's/^0*\([0-9][0-9]*\)-.*\.sql$$/\1/p' | sort -n | tail -n 1)
src/db/schema.o fuzz/build/src/db/schema.o: CPPFLAGS += -DCMS_SCHEMA_VERSION=$(SCHEMA_VERSION)
src/db/schema.o fuzz/build/src/db/schema.o: sql/migrations

# A production build configures without CppUnit; the unit tests then say what is missing.
CPPUNIT_CHECK = @[ -n "$(CPPUNIT_LIBS)" ] || { echo "make: configure found no cppunit: install" \
	"libcppunit-dev (scripts/install-deps test), then run ./configure again" >&2; exit 1; }

t/unit/%.o: t/unit/%.cpp config.mk
	$(CPPUNIT_CHECK)
	$(CXX) $(ALL_CXXFLAGS) $(CPPUNIT_CFLAGS) -c -o $@ $<

# libFuzzer harnesses (fuzz/*.cpp, see fuzz/README.md). They link the same library, compiled again
# by clang with the fuzzer's coverage and ASan/UBSan into fuzz/build/, so the g++ build is untouched.
FUZZ_CXX = clang++-14
FUZZ_SANITIZE = -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CXXFLAGS = -std=c++17 -Wall -Wextra -Wpedantic -Wshadow -g -O1 -fno-omit-frame-pointer \
	$(FUZZ_SANITIZE) $(CPPFLAGS) -Isrc $(LIB_CFLAGS) -MMD -MP
FUZZ_SRC = $(wildcard fuzz/*.cpp)
FUZZ_BIN = $(FUZZ_SRC:fuzz/%.cpp=fuzz/build/%)
FUZZ_LIB_OBJ = $(LIB_SRC:src/%.cpp=fuzz/build/src/%.o)
FUZZ_LIB = fuzz/build/libcms.a
FUZZ_SECONDS ?= 60

fuzz/build/src/%.o: src/%.cpp config.mk
	@mkdir -p $(@D)
	$(FUZZ_CXX) $(FUZZ_CXXFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_LIB): $(FUZZ_LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

fuzz/build/%: fuzz/%.cpp $(FUZZ_LIB)
	$(FUZZ_CXX) $(FUZZ_CXXFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_LIB) $(LIB_LIBS)

# Every Debian package needed to build, run and test (a no-op when all are present), then
# configure again when it ran without CppUnit (a production build) and CppUnit is there now.
deps:
	@scripts/install-deps all
	@[ ! -f config.status ] || [ -n "$(CPPUNIT_LIBS)" ] || \
		! pkg-config --exists cppunit || { ./config.status --recheck && ./config.status; }

# The README's test command: installs what is missing, builds, then every unit test and every
# black-box test through prove, then the cluster tests (not when CHECK_FILES names the files).
check: deps
	$(MAKE) $(BIN) $(UNIT) $(FUZZ_BIN)
	scripts/check
	$(if $(CHECK_FILES),,scripts/check-cluster)

unit: $(UNIT)
	$(UNIT)

# Black-box tests only (make test T=t/0101-book-read.t for one file). The fuzz harnesses are built
# only when the corpus replay (t/0009) is among the files.
test: $(BIN) $(UNIT) $(if $(filter t/ t/0009%,$(or $(T),t/)),$(FUZZ_BIN))
	$(PROVE) $(or $(T),t/)

# The README's run command: installs what is missing, builds, then a private MariaDB under var/,
# the FastCGI pool and nginx on loopback.
run: deps
	$(MAKE) $(BIN)
	@scripts/run

stop:
	@scripts/stop

# Backup and restore of the make run instance (doc/operations.md): an archive in
# var/backups/; make restore BACKUP=PATH [UNTIL='YYYY-MM-DD HH:MM:SS'] replaces the instance's
# database and files with it.
backup: $(BIN)
	@scripts/backup

restore: $(BIN)
	@scripts/restore "$(BACKUP)" "$(UNTIL)"

# doc/scaling.md's setup on loopback: 3 Galera nodes, 2 pools, nginx over both.
cluster: deps
	$(MAKE) $(BIN)
	@scripts/cluster

cluster-stop:
	@scripts/cluster-stop

# The t/08xx tests, on one 3-node Galera cluster that scripts/check-cluster starts for them.
check-cluster: deps
	$(MAKE) $(BIN)
	scripts/check-cluster

db:
	@scripts/db

bench: deps
	$(MAKE) $(BIN)
	bench/run

# The robustness battery (battery/README.md): malformed input, killed workers, a lost database,
# slow clients and restarts, against a private instance under battery/out/.
battery: deps
	$(MAKE) $(BIN)
	battery/run

# Each harness for FUZZ_SECONDS on its corpus (new inputs go to fuzz/build/corpus/, crashes to
# fuzz/build/); fuzz-merge adds the new inputs that reach new code to the committed corpora.
fuzz: $(FUZZ_BIN)
	fuzz/run $(FUZZ_SECONDS) $(FUZZ_BIN)

fuzz-build: $(FUZZ_BIN)

fuzz-merge: $(FUZZ_BIN)
	fuzz/merge $(FUZZ_BIN)

# The API reference: doc/openapi.yaml rendered to doc/html/ (one page and the renderer's script),
# which make run's nginx serves at /docs/.
docs: deps
	scripts/docs

# The mutation run: each bug of mutants/list planted in turn in a scratch copy, built, and
# the tests it names run; fails when one survives (M="name ..." runs some). Slow: doc/hacking.md.
mutants: $(BIN) $(UNIT)
	scripts/mutants $(M)

# The tarball for shared hosts, dist/cms-fcgi-VERSION-linux-x86_64.tar.gz and its .sha256: a
# static-pie binary built in a clean Debian 12 chroot (scripts/release; root). Not this checkout's
# build: that stays the developer's.
release:
	scripts/release

# Rules of doc/hacking.md (Style, Layout) that grep can check, and mutants/list against the source
# (a second; t/0014 and t/0015 run both under make check).
lint:
	scripts/lint
	@out=$$(scripts/mutants --check) || { echo "$$out" | grep -v '^listed '; exit 1; }; \
		echo "$$out" | tail -n 1

# The source tarball $(DIST_DIR)/cms-fcgi-$(CMS_VERSION).tar.gz: the tracked files and a generated
# configure, so that it builds without autoconf (doc/install.md). distcheck proves that from a
# scratch directory: the tarball against git ls-files, configure and make with the autotools
# refused, the unit tests and the smoke test, then distclean back to the tarball's files.
DIST_DIR = dist
dist:
	@scripts/dist -o $(DIST_DIR)

distcheck:
	@scripts/distcheck

# ---- make install / make uninstall ---------------------------------------------------------------
# GNU directory variables; DESTDIR stages the whole tree (make install DESTDIR=/tmp/x PREFIX=/usr).
# SYSCONFDIR is $(PREFIX)/etc, or /etc when PREFIX is /usr. LOCALSTATEDIR is /var whatever PREFIX
# is: the systemd units keep uploads and logs in /var/lib/cms-fcgi and /var/log/cms-fcgi
# (StateDirectory=, LogsDirectory=), and the first cms.conf points there.
PREFIX = /usr/local
SYSCONFDIR = $(if $(filter /usr,$(PREFIX)),/etc,$(PREFIX)/etc)
LOCALSTATEDIR = /var
sbindir = $(PREFIX)/sbin
datadir = $(PREFIX)/share
mandir = $(datadir)/man
unitdir = $(PREFIX)/lib/systemd/system
logrotatedir = $(SYSCONFDIR)/logrotate.d
pkgdatadir = $(datadir)/cms-fcgi
pkgconfdir = $(SYSCONFDIR)/cms-fcgi
# Where nginx's configuration is: when set (the Debian package sets /etc/nginx), the two snippets
# go there and the example site to sites-available/cms-fcgi, not enabled. Empty: they stay in
# $(pkgdatadir)/nginx only.
nginxconfdir =
# Where the message tables go, and so the first cms.conf's message_file: beside the other shared
# files, or, as the Debian package sets it, $(pkgconfdir), where they are conffiles an
# administrator may edit and an upgrade keeps.
messagedir = $(pkgdatadir)
INSTALL = install

# Copied as they are to $(pkgdatadir) (the message tables and the content declaration, the files
# an administrator edits, to $(messagedir)), under their paths here less conf/. An apache/
# directory is installed when there is one.
MESSAGE_FILES = $(wildcard conf/code-message*.properties) conf/content.json
SHARE_FILES = $(wildcard conf/prometheus/*) sql/seed.sql doc/openapi.yaml \
	$(wildcard sql/migrations/*) $(wildcard sql/migrate/*) $(wildcard nginx/*) $(wildcard apache/*)
UNITS = cms-fcgi.service cms-fcgi-activated.service cms-fcgi.socket cms-fcgi-backup.service \
	cms-fcgi-backup.timer

# Fills in the @name@ paths of man/, systemd/ and the logrotate snippet, and the man page's version.
SUBST = sed -e 's|@VERSION@|$(CMS_VERSION)|g' -e 's|@sbindir@|$(sbindir)|g' -e 's|@sysconfdir@|$(SYSCONFDIR)|g' \
	-e 's|@localstatedir@|$(LOCALSTATEDIR)|g' -e 's|@datadir@|$(datadir)|g' \
	-e 's|@unitdir@|$(unitdir)|g' -e 's|@logrotatedir@|$(logrotatedir)|g'

# Refreshes everything but an existing cms.conf: that one is the operator's. The first cms.conf
# is the example with the installed message table, file store and log file.
install: all
	$(INSTALL) -d $(DESTDIR)$(sbindir) $(DESTDIR)$(mandir)/man8 $(DESTDIR)$(pkgconfdir) \
		$(DESTDIR)$(unitdir) $(DESTDIR)$(logrotatedir)
	$(INSTALL) -m 755 $(BIN) $(DESTDIR)$(sbindir)/cms-fcgi
	$(SUBST) man/cms-fcgi.8.in >$(DESTDIR)$(mandir)/man8/cms-fcgi.8
	chmod 644 $(DESTDIR)$(mandir)/man8/cms-fcgi.8
	$(INSTALL) -m 644 conf/cms.conf.example $(DESTDIR)$(pkgconfdir)/cms.conf.example
	test -e $(DESTDIR)$(pkgconfdir)/cms.conf || { { \
		echo '# Written by make install from cms.conf.example, which documents every key. make'; \
		echo '# install never overwrites this file. Secrets go to cms.env: see cms-fcgi(8), FILES.'; \
		sed -e 's|^message_file *=.*|message_file = $(messagedir)/code-message.properties|' \
			-e 's|^file_store_dir *=.*|file_store_dir = $(LOCALSTATEDIR)/lib/cms-fcgi/assets|' \
			-e 's|^log_file *=.*|log_file = $(LOCALSTATEDIR)/log/cms-fcgi/cms-fcgi.log|' \
			-e 's|^sql_dir *=.*|sql_dir = $(pkgdatadir)/sql|' \
			-e 's|^content_file *=.*|content_file = $(messagedir)/content.json|' \
			-e 's|^backup_dir *=.*|backup_dir = $(LOCALSTATEDIR)/lib/cms-fcgi/backups|' \
			conf/cms.conf.example; \
		} >$(DESTDIR)$(pkgconfdir)/cms.conf.new && \
		chmod 640 $(DESTDIR)$(pkgconfdir)/cms.conf.new && \
		mv $(DESTDIR)$(pkgconfdir)/cms.conf.new $(DESTDIR)$(pkgconfdir)/cms.conf; }
	for f in $(SHARE_FILES); do \
		$(INSTALL) -D -m 644 $$f $(DESTDIR)$(pkgdatadir)/$${f#conf/} || exit 1; done
	for f in $(MESSAGE_FILES); do \
		$(INSTALL) -D -m 644 $$f $(DESTDIR)$(messagedir)/$${f#conf/} || exit 1; done
	for u in $(UNITS); do $(SUBST) systemd/$$u.in >$(DESTDIR)$(unitdir)/$$u || exit 1; done
	$(SUBST) conf/cms-fcgi.logrotate.in >$(DESTDIR)$(logrotatedir)/cms-fcgi
	chmod 644 $(addprefix $(DESTDIR)$(unitdir)/,$(UNITS)) $(DESTDIR)$(logrotatedir)/cms-fcgi
	$(if $(nginxconfdir),$(INSTALL) -D -m 644 nginx/site.conf.example \
		$(DESTDIR)$(nginxconfdir)/sites-available/cms-fcgi)
	$(if $(nginxconfdir),$(INSTALL) -m 644 nginx/cms-fcgi.conf nginx/cms-fcgi-params.conf \
		$(DESTDIR)$(nginxconfdir)/)

# The Debian package, built in a clean Debian 12 chroot and checked by lintian (scripts/deb; root).
deb:
	scripts/deb

# Removes what install put there, cms.conf included, then the directories that are cms-fcgi's
# own once they are empty (a cms.env the operator added keeps $(pkgconfdir)).
uninstall:
	rm -f $(DESTDIR)$(sbindir)/cms-fcgi $(DESTDIR)$(mandir)/man8/cms-fcgi.8 \
		$(DESTDIR)$(pkgconfdir)/cms.conf.example $(DESTDIR)$(pkgconfdir)/cms.conf \
		$(addprefix $(DESTDIR)$(pkgdatadir)/,$(patsubst conf/%,%,$(SHARE_FILES))) \
		$(addprefix $(DESTDIR)$(messagedir)/,$(patsubst conf/%,%,$(MESSAGE_FILES))) \
		$(addprefix $(DESTDIR)$(unitdir)/,$(UNITS)) $(DESTDIR)$(logrotatedir)/cms-fcgi \
		$(if $(nginxconfdir),$(addprefix $(DESTDIR)$(nginxconfdir)/,sites-available/cms-fcgi \
			cms-fcgi.conf cms-fcgi-params.conf))
	[ ! -d $(DESTDIR)$(pkgdatadir) ] || find $(DESTDIR)$(pkgdatadir) -depth -type d -empty -delete
	[ ! -d $(DESTDIR)$(pkgconfdir) ] || rmdir --ignore-fail-on-non-empty $(DESTDIR)$(pkgconfdir)

# The g++ build only (what SANITIZE=1 changes); clean also removes the fuzz harnesses' build.
clean-gcc:
	rm -f src/*/*.o src/*/*.d t/unit/*.o t/unit/*.d $(LIB) $(BIN) $(UNIT)

clean: clean-gcc
	rm -rf fuzz/build doc/html $(MESSAGE_TEXTS)

# configure is removed in a checkout, which makes it again, not in the tarball, which ships it.
distclean: clean
	rm -rf doc/node_modules config.mk config.log config.status aclocal.m4 autom4te.cache
	[ ! -e .git ] || rm -f configure

-include $(LIB_OBJ:.o=.d) src/cli/main.d $(UNIT_OBJ:.o=.d) $(FUZZ_LIB_OBJ:.o=.d) $(FUZZ_BIN:=.d)
