# A thin wrapper around CMake, as Neovim has: `make` builds, `make test`
# runs every test, `make demo` runs the main job. `make test` and `make demo`
# first install the Debian packages that are missing.
BUILD_DIR ?= build
BUILD_TYPE ?= RelWithDebInfo
CMAKE_FLAGS ?=
JOBS ?= $(shell nproc 2>/dev/null || echo 2)

all: build

deps:
	@scripts/install-deps.sh

$(BUILD_DIR)/CMakeCache.txt:
	cmake -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) $(CMAKE_FLAGS)

build: $(BUILD_DIR)/CMakeCache.txt
	cmake --build $(BUILD_DIR) -j$(JOBS)

test: deps
	$(MAKE) build
	ctest --test-dir $(BUILD_DIR) --output-on-failure -j$(JOBS)

demo: deps
	$(MAKE) build
	cmake --build $(BUILD_DIR) --target demo

clean:
	rm -rf $(BUILD_DIR)

.PHONY: all deps build test demo clean
