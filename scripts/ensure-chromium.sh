#!/usr/bin/env bash
# Run before `npm test` (the `pretest` script): the console's browser tests (test/browser) drive
# Debian's chromium through playwright-core, which downloads no browser. On a fresh Debian machine as
# root this installs it (chromium, ~60 s); elsewhere it says what to install. Does nothing when
# chromium is already there, or when CHROMIUM_PATH names one to use instead.
set -euo pipefail
if [ -n "${CHROMIUM_PATH:-}" ] && [ -x "${CHROMIUM_PATH}" ]; then exit 0; fi
[ -x /usr/bin/chromium ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "pretest: installing chromium for the console's browser tests (apt-get) ..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium >/dev/null
  exit 0
fi
echo "pretest: the console's browser tests need Chromium; install it with: sudo apt-get install chromium" >&2
echo "         (or set CHROMIUM_PATH=/path/to/chromium to use one you have)" >&2
exit 1
