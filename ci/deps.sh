#!/usr/bin/env bash
# Install the Debian packages the harness needs; a no-op when all are there.
set -euo pipefail
pkgs=(linux-source-6.1 gcc gcc-aarch64-linux-gnu libc6-dev-arm64-cross
      qemu-system-x86 qemu-system-arm make flex bison bc libelf-dev libssl-dev
      cpio ccache busybox-static dwarves linux-config-6.1 xz-utils lz4 openssl python3 python3-docutils python3-ply python3-git gnuplot-nox git perl)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' \
		|| missing+=("$p")
done
[ ${#missing[@]} = 0 ] && exit 0
echo "deps: installing ${missing[*]}"
sudo=; [ "$(id -u)" = 0 ] || sudo=sudo
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
	"${missing[@]}" >/dev/null
