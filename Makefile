# A thin wrapper around CMake, as Neovim has: `make` builds, `make test`
# runs every test, `make demo` runs the main job, `make install` installs.
# Each first installs the Debian packages it needs that are missing
# (scripts/install-deps.sh): demo and install what building and running
# needs, test that and what the tests use.
BUILD_DIR ?= build
BUILD_TYPE ?= Release
CMAKE_FLAGS ?=
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
PREFIX ?= /usr/local
# make install DESTDIR=/stage PREFIX=/usr: a staged install
DESTDIR ?=

all: build

deps:
	@scripts/install-deps.sh

deps-test:
	@scripts/install-deps.sh --test

$(BUILD_DIR)/CMakeCache.txt:
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(CMAKE_FLAGS)

build: $(BUILD_DIR)/CMakeCache.txt
	cmake --build $(BUILD_DIR) -j$(JOBS)

test: deps-test
	$(MAKE) build
	ctest --test-dir $(BUILD_DIR) --output-on-failure -j$(JOBS)

demo: deps
	$(MAKE) build
	cmake --build $(BUILD_DIR) --target demo

install: deps
	$(MAKE) build
	DESTDIR="$(DESTDIR)" cmake --install $(BUILD_DIR) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD_DIR)

.PHONY: all deps deps-test build test demo install clean
