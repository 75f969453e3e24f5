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

.PHONY: all deps check unit test run stop db bench lint clean distclean

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

# Every Debian package needed to build, run and test (a no-op when all are present).
deps:
	@scripts/install-deps

# The README's test command: installs what is missing, builds, then every unit test and every
# black-box test through prove.
check: deps
	$(MAKE) $(BIN) $(UNIT)
	scripts/check

unit: $(UNIT)
	$(UNIT)

# Black-box tests only (make test T=t/0101-book-read.t for one file).
test: $(BIN) $(UNIT)
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

# Rules of STYLE.md that grep can check.
lint:
	scripts/lint

clean:
	rm -f src/*.o src/*.d t/unit/*.o t/unit/*.d $(LIB) $(BIN) $(UNIT)

distclean: clean
	rm -rf config.mk config.log config.status configure aclocal.m4 autom4te.cache

-include $(LIB_OBJ:.o=.d) src/main.d $(UNIT_OBJ:.o=.d)
