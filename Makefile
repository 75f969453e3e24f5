# cms-fcgi top-level Makefile (hand-written). Includes config.mk, which configure writes;
# on a fresh clone it installs what is missing and runs autoconf + configure first.

-include config.mk

STD_FLAGS = -std=c++17 -Wall -Wextra -Wpedantic -Wshadow
ifeq ($(SANITIZE),1)
STD_FLAGS += -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer
LDFLAGS += -fsanitize=address,undefined
endif
ALL_CXXFLAGS = $(STD_FLAGS) $(CXXFLAGS) $(CPPFLAGS) -Isrc $(LIB_CFLAGS) -MMD -MP

LIB_SRC = $(filter-out src/main.cpp,$(wildcard src/*.cpp))
LIB_OBJ = $(LIB_SRC:.cpp=.o)
UNIT_SRC = $(wildcard t/unit/*.cpp)
UNIT_OBJ = $(UNIT_SRC:.cpp=.o)

BIN = src/cms-fcgi
LIB = src/libcms.a
UNIT = t/unit/unit-tests
PROVE ?= prove

.PHONY: all deps check unit test run stop db bench lint clean distclean fuzz fuzz-build fuzz-merge

all: $(BIN)

config.mk: configure.ac config.mk.in
	scripts/install-deps
	aclocal
	autoconf
	./configure

$(LIB): $(LIB_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

$(BIN): src/main.o $(LIB)
	$(CXX) $(LDFLAGS) -o $@ src/main.o $(LIB) $(LIB_LIBS)

$(UNIT): $(UNIT_OBJ) $(LIB)
	$(CXX) $(LDFLAGS) -o $@ $(UNIT_OBJ) $(LIB) $(LIB_LIBS) $(CPPUNIT_LIBS)

src/%.o: src/%.cpp config.mk
	$(CXX) $(ALL_CXXFLAGS) -c -o $@ $<

t/unit/%.o: t/unit/%.cpp config.mk
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

# Every Debian package needed to build, run and test (a no-op when all are present).
deps:
	@scripts/install-deps

# The README's test command: installs what is missing, builds, then every unit test and every
# black-box test through prove.
check: deps
	$(MAKE) $(BIN) $(UNIT) $(FUZZ_BIN)
	scripts/check

unit: $(UNIT)
	$(UNIT)

# Black-box tests only (make test T=t/0101-book-read.t for one file). The fuzz harnesses are built
# only when the corpus replay (t/0003) is among the files.
test: $(BIN) $(UNIT) $(if $(filter t/ t/0003%,$(or $(T),t/)),$(FUZZ_BIN))
	$(PROVE) $(or $(T),t/)

# The README's run command: installs what is missing, builds, then a private MariaDB under var/,
# the FastCGI pool and nginx on loopback.
run: deps
	$(MAKE) $(BIN)
	@scripts/run

stop:
	@scripts/stop

db:
	@scripts/db

bench: $(BIN)
	bench/run

# Each harness for FUZZ_SECONDS on its corpus (new inputs go to fuzz/build/corpus/, crashes to
# fuzz/build/); fuzz-merge adds the new inputs that reach new code to the committed corpora.
fuzz: $(FUZZ_BIN)
	fuzz/run $(FUZZ_SECONDS) $(FUZZ_BIN)

fuzz-build: $(FUZZ_BIN)

fuzz-merge: $(FUZZ_BIN)
	fuzz/merge $(FUZZ_BIN)

# Rules of STYLE.md that grep can check.
lint:
	scripts/lint

clean:
	rm -f src/*.o src/*.d t/unit/*.o t/unit/*.d $(LIB) $(BIN) $(UNIT)
	rm -rf fuzz/build

distclean: clean
	rm -rf config.mk config.log config.status configure aclocal.m4 autom4te.cache

-include $(LIB_OBJ:.o=.d) src/main.d $(UNIT_OBJ:.o=.d) $(FUZZ_LIB_OBJ:.o=.d) $(FUZZ_BIN:=.d)
