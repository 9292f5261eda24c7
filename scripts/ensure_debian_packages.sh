#!/bin/sh
# Installs the Debian packages the tests need when they are missing: headless Chromium and its
# driver (the browser tests) and the Pango/HarfBuzz libraries and a font WeasyPrint draws PDF
# reports with (`barge report --format pdf`). It never fails the build: without root, apt or a
# network it says why and exits 0, and the tests that need what is missing skip with a message.
set -u

PACKAGES="chromium chromium-driver libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz0b fonts-dejavu-core"

missing=""
for package in $PACKAGES; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $package"
    fi
done
if [ -z "$missing" ]; then
    echo "ensure_debian_packages: installed:$(printf ' %s' $PACKAGES)"
    exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure_debian_packages: no apt-get on this machine; install$missing yourself to run every test"
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        SUDO="sudo -n"
    else
        echo "ensure_debian_packages: not root and no password-less sudo; run as root:" \
             "apt-get install$missing"
        exit 0
    fi
else
    SUDO=""
fi

export DEBIAN_FRONTEND=noninteractive
if ! $SUDO apt-get update -qq; then
    echo "ensure_debian_packages: apt-get update failed (no network?); tests needing$missing will be skipped"
    exit 0
fi
# shellcheck disable=SC2086 # one word a package
if ! $SUDO apt-get install -y -qq --no-install-recommends $missing; then
    echo "ensure_debian_packages: could not install$missing; the tests that need them will be skipped"
    exit 0
fi
echo "ensure_debian_packages: installed$missing"
exit 0
