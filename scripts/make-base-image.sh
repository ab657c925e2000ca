#!/usr/bin/env bash
# Build the guest base image the shipped libvirt configs name, from Debian packages only:
#   OUTPUT                 qcow2, one ext4 file system (LABEL=root, no partition table) with
#                          Debian 12, its kernel, cloud-init, qemu-guest-agent and the engine
#   OUTPUT-stem.vmlinuz    the image's kernel and initrd, for direct kernel boot (the image has
#   OUTPUT-stem.initrd.img no boot loader): the configs' "kernel" and "initrd"
# It runs debootstrap from Debian's mirror (a few minutes, about 170 MB downloaded), then
# mkfs.ext4 -d and qemu-img convert: no loop device, no mount. Run it as root on the KVM
# host (docs/quickstart-libvirt.md); it needs debootstrap, e2fsprogs and qemu-utils
# (scripts/deps-libvirt.txt).
#
# The guest as dbrig's user-data expects it (vm-templates/README.md):
#   - cloud-init reads only the NoCloud seed dbrig attaches (datasource_list: NoCloud), never
#     a network metadata service; the image configures eth0 itself (ifupdown, DHCP; boot
#     with net.ifnames=0, the configs' cmdline), so cloud-init's network config is off
#   - the engine's server is installed but not enabled: the setup script starts it once the
#     under-test disk is mounted as its datadir; the guest agent is enabled
#   - root has no password (log in with the config's ssh_key, through openssh-server)
#
# Engines:
#   --engine mariadb   (default) mariadb-server from Debian's archive
#   --engine percona   Percona Server 8.0 from Percona's apt repository
#   --engine mysql     MySQL 8.0 from MySQL's apt repository
# percona and mysql need the vendor's repository, which this script adds to the image after
# debootstrap: pass the vendor's signing key (downloaded and checked by you) with
# --repo-key FILE, and optionally the repository line with --repo "deb [...] URL SUITE COMP"
# (the defaults below). The image then keeps that source, and its configs set
# "guest_packages": "preinstalled" (the engine is in the image) or "install" (cloud-init
# installs it from the image's sources). dbrig's CI has no access to those repositories:
# these two paths are written to their documentation and not run by any test.
#
# Usage: make-base-image.sh [--output PATH] [--engine mariadb|percona|mysql] [--size SIZE]
#          [--mirror URL] [--repo-key FILE] [--repo LINE] [--include PKG,PKG] [--e2e]
#   --output   default /var/lib/libvirt/images/dbrig-sysbench-debian12.qcow2
#   --size     the file system's size (default 4G; the boot volume grows to boot_size and
#              cloud-init grows the file system at the first boot)
#   --mirror   Debian mirror (default $DEBIAN_MIRROR or http://deb.debian.org/debian)
#   --include  more Debian packages
#   --e2e      the QEMU end-to-end test's image (tests/e2e/make-guest-image.sh): root's
#              password "dbrig" (a throwaway guest on user networking), no openssh-server,
#              and first boots kept short under TCG: one ed25519 host key, no file system
#              resize, no apt timers, no time sync
# Prints OUTPUT when done.
set -euo pipefail

OUT=/var/lib/libvirt/images/dbrig-sysbench-debian12.qcow2
ENGINE=mariadb
SIZE=4G
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
REPO_KEY=
REPO=
EXTRA=
E2E=0
usage() {
	sed -n '/^# Usage:/,/^# Prints/p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}
while [ $# -gt 0 ]; do
	case $1 in
	--output) OUT=${2:?--output needs a path}; shift 2 ;;
	--engine) ENGINE=${2:?--engine needs mariadb, percona or mysql}; shift 2 ;;
	--size) SIZE=${2:?--size needs a size such as 4G}; shift 2 ;;
	--mirror) MIRROR=${2:?--mirror needs a URL}; shift 2 ;;
	--repo-key) REPO_KEY=${2:?--repo-key needs a file}; shift 2 ;;
	--repo) REPO=${2:?--repo needs an apt source line}; shift 2 ;;
	--include) EXTRA=${2:?--include needs packages}; shift 2 ;;
	--e2e) E2E=1; shift ;;
	-h | --help) usage ;;
	*) echo "make-base-image.sh: \"$1\" is not an option (expected --output, --engine, --size, --mirror, --repo-key, --repo, --include or --e2e)" >&2; exit 2 ;;
	esac
done
case $ENGINE in
mariadb) ENGINE_PKGS=mariadb-server; UNIT=mariadb.service ;;
percona)
	ENGINE_PKGS=percona-server-server; UNIT=mysql.service
	: "${REPO:=deb [signed-by=/etc/apt/keyrings/dbrig-vendor.gpg] http://repo.percona.com/ps-80/apt bookworm main}" ;;
mysql)
	ENGINE_PKGS=mysql-server; UNIT=mysql.service
	: "${REPO:=deb [signed-by=/etc/apt/keyrings/dbrig-vendor.gpg] http://repo.mysql.com/apt/debian bookworm mysql-8.0}" ;;
*) echo "make-base-image.sh: --engine \"$ENGINE\" is not an engine this script installs (expected mariadb, percona or mysql)" >&2; exit 2 ;;
esac
if [ "$ENGINE" != mariadb ] && [ -z "$REPO_KEY" ]; then
	echo "make-base-image.sh: --engine $ENGINE needs --repo-key FILE (the vendor's apt signing key: Debian's archive does not carry $ENGINE_PKGS)" >&2
	exit 2
fi
[ -z "$REPO_KEY" ] || [ -r "$REPO_KEY" ] || { echo "make-base-image.sh: --repo-key \"$REPO_KEY\": cannot read it" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "make-base-image.sh: run it as root (debootstrap and chroot)" >&2; exit 1; }
for c in debootstrap mkfs.ext4 qemu-img; do
	command -v "$c" >/dev/null || { echo "make-base-image.sh: $c is missing (apt-get install debootstrap e2fsprogs qemu-utils)" >&2; exit 1; }
done
STEM=${OUT%.qcow2}
DIR=$(dirname "$OUT")
mkdir -p "$DIR"
WORK=$(mktemp -d "$DIR/.dbrig-image.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
ROOT=$WORK/root

# python3-cffi-backend: cloud-init needs python3-cryptography, which depends on virtual
# packages only python3-cffi-backend provides (debootstrap does not resolve Provides).
# dbus: logind (ACPI power button) and a shutdown scheduled by the guest agent need it.
PKGS=systemd-sysv,dbus,udev,linux-image-amd64,qemu-guest-agent,cloud-init,python3-cffi-backend,openssh-client,ifupdown,isc-dhcp-client,e2fsprogs,iproute2,kmod,procps
[ "$E2E" = 1 ] || PKGS=$PKGS,openssh-server,ca-certificates
[ "$ENGINE" != mariadb ] || PKGS=$PKGS,$ENGINE_PKGS
[ "$ENGINE" = mariadb ] || PKGS=$PKGS,ca-certificates,gnupg
[ -z "$EXTRA" ] || PKGS=$PKGS,$EXTRA
echo "make-base-image.sh: debootstrap bookworm from $MIRROR ($ENGINE; a few minutes)" >&2
debootstrap --variant=minbase --include="$PKGS" bookworm "$ROOT" "$MIRROR" >"$WORK/debootstrap.log" 2>&1 || {
	tail -30 "$WORK/debootstrap.log" "$ROOT/debootstrap/debootstrap.log" >&2 2>/dev/null; exit 1
}

# A vendor's engine: its repository, then the package, inside the image.
if [ "$ENGINE" != mariadb ]; then
	mkdir -p "$ROOT/etc/apt/keyrings"
	if grep -q 'BEGIN PGP' "$REPO_KEY"; then
		chroot "$ROOT" gpg --dearmor <"$REPO_KEY" >"$ROOT/etc/apt/keyrings/dbrig-vendor.gpg"
	else
		cp "$REPO_KEY" "$ROOT/etc/apt/keyrings/dbrig-vendor.gpg"
	fi
	echo "$REPO" >"$ROOT/etc/apt/sources.list.d/dbrig-$ENGINE.list"
	cp /etc/resolv.conf "$ROOT/etc/resolv.conf"
	mount -t proc proc "$ROOT/proc"
	rc=0
	chroot "$ROOT" sh -c "apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $ENGINE_PKGS" \
		>"$WORK/engine.log" 2>&1 || rc=$?
	umount "$ROOT/proc"
	: >"$ROOT/etc/resolv.conf"
	[ "$rc" = 0 ] || { tail -30 "$WORK/engine.log" >&2; exit 1; }
fi

echo "LABEL=root / ext4 defaults 0 1" >"$ROOT/etc/fstab"
echo dbrig-guest >"$ROOT/etc/hostname"
printf 'auto lo\niface lo inet loopback\nauto eth0\niface eth0 inet dhcp\n' >"$ROOT/etc/network/interfaces"
if [ "$E2E" = 1 ]; then
	chroot "$ROOT" sh -c 'echo root:dbrig | chpasswd'
else
	chroot "$ROOT" passwd -l root >/dev/null
fi
chroot "$ROOT" systemctl disable "$UNIT" >/dev/null 2>&1 || true
chroot "$ROOT" systemctl enable qemu-guest-agent.service >/dev/null 2>&1 || true
# cloud-init: only the NoCloud seed (with one datasource listed, ds-identify enables it
# without probing); the image's own network config; locale C.UTF-8 (the default
# en_US.UTF-8 runs locale-gen at the first boot for nothing); no grub (direct kernel boot).
mkdir -p "$ROOT/etc/cloud/cloud.cfg.d"
cat >"$ROOT/etc/cloud/cloud.cfg.d/90-dbrig.cfg" <<'CFG'
datasource_list: [NoCloud, None]
network: {config: disabled}
locale: C.UTF-8
growpart: {mode: "off"}
grub_dpkg: {enabled: false}
CFG
printf 'LANG=C.UTF-8\n' >"$ROOT/etc/default/locale"
if [ "$E2E" = 1 ]; then
	# Under TCG: rsa host keys take seconds, the boot volume is exactly the image's size,
	# and nothing reads the keys on the console; the timers have nothing to do.
	cat >"$ROOT/etc/cloud/cloud.cfg.d/91-dbrig-e2e.cfg" <<'CFG'
ssh_deletekeys: false
ssh_genkeytypes: [ed25519]
resize_rootfs: false
ssh: {emit_keys_to_console: false}
CFG
	chroot "$ROOT" systemctl mask apt-daily.timer apt-daily-upgrade.timer e2scrub_reap.service \
		systemd-timesyncd.service >/dev/null 2>&1 || true
fi
cp -L "$ROOT/vmlinuz" "$WORK/vmlinuz"
cp -L "$ROOT/initrd.img" "$WORK/initrd.img"
rm -rf "$ROOT/var/cache/apt/archives/"*.deb "$ROOT/var/lib/apt/lists/"*
truncate -s "$SIZE" "$WORK/root.raw"
mkfs.ext4 -q -L root -d "$ROOT" "$WORK/root.raw"
qemu-img convert -O qcow2 "$WORK/root.raw" "$WORK/image.qcow2"
chmod 644 "$WORK/image.qcow2" "$WORK/vmlinuz" "$WORK/initrd.img"
mv "$WORK/vmlinuz" "$STEM.vmlinuz"
mv "$WORK/initrd.img" "$STEM.initrd.img"
mv "$WORK/image.qcow2" "$OUT"
echo "$OUT"
