#!/bin/sh
# Installs headless Chromium and its driver (Debian packages `chromium` and `chromium-driver`)
# for tests/test_browser.py when they are missing. It never fails the build: without root, apt
# or a network it says why and exits 0, and the browser test then skips with a message.
set -u

if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
    echo "ensure_chromium: chromium and chromedriver are installed"
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure_chromium: no apt-get on this machine; install Chromium yourself to run the browser test"
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        SUDO="sudo -n"
    else
        echo "ensure_chromium: not root and no password-less sudo; run as root:" \
             "apt-get install chromium chromium-driver"
        exit 0
    fi
else
    SUDO=""
fi

export DEBIAN_FRONTEND=noninteractive
if ! $SUDO apt-get update -qq; then
    echo "ensure_chromium: apt-get update failed (no network?); the browser test will be skipped"
    exit 0
fi
if ! $SUDO apt-get install -y -qq --no-install-recommends chromium chromium-driver; then
    echo "ensure_chromium: could not install chromium; the browser test will be skipped"
    exit 0
fi
echo "ensure_chromium: installed $(chromium --version 2>/dev/null || echo chromium)"
exit 0
