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

# Every test (GTK picks GL on Xvfb's Mesa; WebRTC cameras on Debian's aiortc), the WebRTC tests
# again with PyPI's current aiortc as the camera, then the draw path under the other renderers.
test: check-swift deps-test
	swift build --build-tests
	dbus-run-session -- xvfb-run -a -s "-screen 0 1600x1200x24" swift test --skip-build --disable-swift-testing
	LAYERWATCH_TEST_AIORTC=pypi dbus-run-session -- xvfb-run -a -s "-screen 0 1600x1200x24" swift test --skip-build --disable-swift-testing --filter 'WebRTC|MJPEGFallbackTests'
	GSK_RENDERER=cairo xvfb-run -a -s "-screen 0 1600x1200x24" swift test --skip-build --disable-swift-testing --filter RendererPathTests
	GSK_RENDERER=gl GDK_DEBUG=gl-gles xvfb-run -a -s "-screen 0 1600x1200x24" swift test --skip-build --disable-swift-testing --filter RendererPathTests

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
