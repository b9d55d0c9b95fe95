# A thin wrapper around CMake, as Neovim has: `make` builds, `make test`
# runs every test, `make demo` runs the main job, `make install` and
# `make package` ship it. Each first installs the Debian packages it needs
# that are missing (scripts/install-deps.sh): demo and install what
# building and running needs, package that and dpkg-dev, test everything.
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

deps-package:
	@scripts/install-deps.sh --package

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

# The .deb lands in $(BUILD_DIR) (octavo_<version>_<arch>.deb), its files
# dated by the last commit unless the environment sets SOURCE_DATE_EPOCH.
package: export SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null)
package: deps-package
	$(MAKE) build
	cd $(BUILD_DIR) && cpack -G DEB
	@ls $(BUILD_DIR)/octavo_*.deb

clean:
	rm -rf $(BUILD_DIR)

.PHONY: all deps deps-package deps-test build test demo install package clean
