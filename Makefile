# Layerwatch — the two commands a newcomer needs (see README.md):
#   make run    install what is missing, build, and start Layerwatch (the demo printer if none is saved)
#   make test   install what is missing, build, and run every test (GTK ones under Xvfb)

SWIFT_BIN ?= /opt/swift/usr/bin
export PATH := $(SWIFT_BIN):$(PATH)

PREFIX ?= /usr/local

.PHONY: run test build deps-build deps-test check-swift screenshots screenshots-wayland install uninstall

check-swift:
	@command -v swift >/dev/null || { echo "Swift is not installed (expected at $(SWIFT_BIN)); see https://www.swift.org/install/linux/"; exit 1; }

deps-build:
	@scripts/install-deps.sh build

deps-test:
	@scripts/install-deps.sh test

build: check-swift deps-build
	swift build

# A newcomer without a saved printer gets the demo printer at once (the window otherwise welcomes
# with Add Printer and Try the Demo Printer).
XDG_CONFIG_HOME ?= $(HOME)/.config
run: build
	.build/debug/layerwatch $(if $(wildcard $(XDG_CONFIG_HOME)/layerwatch/printers.json),,--demo)

# Every test: scripts/run-tests.sh runs the suites in three lanes at once (the GUI suites a class at
# a time from a queue two lanes share; each lane its own Xvfb and D-Bus session; GTK picks GL on Xvfb's
# Mesa; WebRTC cameras on Debian's aiortc, then again on PyPI's current one), then the draw path
# under the other renderers; a failed test runs once more alone, and the summary ends the output.
test: check-swift deps-test
	swift build --build-tests
	scripts/run-tests.sh

screenshots: check-swift
	@scripts/install-deps.sh screenshots
	swift build
	xvfb-run -a -s "-screen 0 1920x1200x24" scripts/screenshots.sh

# docs/screenshots/wayland-*.png: the app under weston headless (GDK_BACKEND=wayland); OUT=dir elsewhere.
screenshots-wayland: check-swift
	@scripts/install-deps.sh screenshots
	swift build
	dbus-run-session -- scripts/wayland-screenshots.sh

install: check-swift
	@scripts/install-deps.sh desktop
	[ -f build/build.ninja ] || meson setup build meson-wrap --prefix=$(PREFIX)
	meson compile -C build
	meson test -C build
	meson install -C build

uninstall:
	ninja -C build uninstall
