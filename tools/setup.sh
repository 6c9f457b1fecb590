#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks, by package name. Idempotent.
set -euo pipefail
APT_PKGS=(clang-19 lld-19 wasi-libc libclang-rt-19-dev-wasm32 libcmocka-dev libonnx-testdata
          chromium valgrind make gcc nodejs gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm
          redis-server)
missing=()
for p in "${APT_PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: apt-get install ${missing[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
# JS side: exact versions from package-lock.json; install scripts stay off (.npmrc).
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund
fi
echo "setup: ok"
