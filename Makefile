# steer: a thin Makefile over CMake. The two commands of the README:
#   make demo   install what is missing (Debian, as root), build, open the viewer
#               on the showcase (headless PNG when there is no display)
#   make test   install what is missing, build, run every test with ctest, then
#               the same suite under AddressSanitizer + UndefinedBehaviorSanitizer
BUILD      ?= build
ASAN_BUILD ?= build-asan
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
# Debian packages the build and the tests need
PACKAGES   := cmake make gcc g++ pkg-config lua5.4 liblua5.4-dev lua-busted luarocks lua-check \
              libsdl2-dev libsdl2-image-dev libimgui-dev xvfb xauth xdotool

.PHONY: all deps configure build demo test test-release test-asan bench clean

all: build

deps:
	@missing=""; \
	for p in $(PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else \
	    echo "Missing packages:$$missing"; echo "Run as root, or: sudo apt-get install$$missing"; exit 1; \
	  fi; \
	fi

configure: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release

build: configure
	cmake --build $(BUILD) -j $(JOBS)

# the viewer on the showcase; without a display it runs headless and writes
# showcase.png (steer-viewer falls back to SDL's offscreen driver by itself)
demo: build
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ]; then \
	  ./$(BUILD)/demos/steer-viewer scripts/showcase.lua; \
	else \
	  ./$(BUILD)/demos/steer-viewer scripts/showcase.lua --headless --frames 300 --screenshot showcase.png && \
	  echo "no display: wrote showcase.png (300 frames of scripts/showcase.lua)"; \
	fi

test-release: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-asan: deps
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DSTEER_SANITIZE=ON -DSTEER_BUILD_BENCH=OFF
	cmake --build $(ASAN_BUILD) -j $(JOBS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j $(JOBS)

test: test-release test-asan

bench: build
	./$(BUILD)/tests/steer-bench flock --agents 100000 --steps 50

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
