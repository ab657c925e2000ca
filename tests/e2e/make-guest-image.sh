#!/usr/bin/env bash
# Build (once) the small Debian 12 guest the libvirt e2e test boots, and cache it:
#   $CACHE/debian12-mariadb.qcow2   root filesystem (LABEL=root), MariaDB 10.11, qemu-guest-agent,
#                                   cloud-init (Debian 12's 22.4)
#   $CACHE/vmlinuz, $CACHE/initrd.img  for direct kernel boot (no bootloader in the image)
# cloud-init reads the NoCloud seed ISO (LABEL=cidata) dbrig attaches and applies the
# user-data dbrig builds (vm-templates/README.md), exactly as on a cloud image:
# hostname, SSH key, write_files + runcmd that install and enable dbrig-setup.service.
# The engine and the guest agent are already in the image, so the e2e campaign sets
# "guest_packages": "preinstalled" and the user-data asks for no package (the guest has
# no route to a mirror). MariaDB is not enabled: the setup script starts it once the
# under-test disk is mounted as its datadir.
# Usage: make-guest-image.sh CACHE_DIR    (prints the cache dir when done)
set -euo pipefail
CACHE=${1:?usage: make-guest-image.sh CACHE_DIR}
IMG=$CACHE/debian12-mariadb.qcow2
VERSION=6 # bump when the image content changes
if [ -f "$IMG" ] && [ "$(cat "$CACHE/version" 2>/dev/null)" = "$VERSION" ]; then
	echo "$CACHE"; exit 0
fi
mkdir -p "$CACHE"
chmod 755 "$CACHE"
WORK=$(mktemp -d "$CACHE/build.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
ROOT=$WORK/root
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
debootstrap --variant=minbase \
	--include=systemd-sysv,dbus,udev,linux-image-amd64,mariadb-server,qemu-guest-agent,cloud-init,python3-cffi-backend,openssh-client,ifupdown,isc-dhcp-client,e2fsprogs,iproute2,kmod,procps \
	bookworm "$ROOT" "$MIRROR" >"$WORK/debootstrap.log" 2>&1 || {
	tail -30 "$WORK/debootstrap.log" "$ROOT/debootstrap/debootstrap.log" >&2; exit 1
}

# python3-cffi-backend: cloud-init needs python3-cryptography, which depends on virtual
# packages only python3-cffi-backend provides (debootstrap does not resolve Provides).
# dbus: logind (ACPI power button) and shutdown scheduled by the guest agent need it.
echo "LABEL=root / ext4 defaults 0 1" >"$ROOT/etc/fstab"
echo dbrig-guest >"$ROOT/etc/hostname"
printf 'auto lo\niface lo inet loopback\nauto eth0\niface eth0 inet dhcp\n' >"$ROOT/etc/network/interfaces"
chroot "$ROOT" sh -c 'echo root:dbrig | chpasswd'
chroot "$ROOT" systemctl disable mariadb.service >/dev/null 2>&1 || true
# The guest has no use for these at boot under TCG.
chroot "$ROOT" systemctl mask apt-daily.timer apt-daily-upgrade.timer e2scrub_reap.service systemd-timesyncd.service >/dev/null 2>&1 || true
# cloud-init: only the NoCloud seed, never a network metadata service (with one
# datasource listed, ds-identify enables it without probing). The rest keeps TCG boots
# lean and the guest off the network:
# - network: the image configures eth0 itself (ifupdown, DHCP from QEMU user networking);
#   cloud-init's fallback config would define eth0 a second time.
# - locale C.UTF-8: the default en_US.UTF-8 runs locale-gen at the first boot (tens of
#   seconds under TCG) for nothing.
# - no sshd in this image: one ed25519 host key (instant) instead of rsa+ecdsa+ed25519
#   (rsa takes seconds under TCG); the ssh module installs the authorized keys.
# - growpart/resizefs: the boot volume is exactly the image's size (boot_size 3G).
# - grub_dpkg and keys-to-console (1.3 s and 1.7 s at a TCG first boot): no grub (direct
#   kernel boot), no sshd whose host keys would matter.
# The guest has no route to a mirror: the e2e user-data asks for no package
# (guest_packages "preinstalled"), and Debian's cloud.cfg keeps sources.list as it is.
mkdir -p "$ROOT/etc/cloud/cloud.cfg.d"
cat >"$ROOT/etc/cloud/cloud.cfg.d/90-dbrig-e2e.cfg" <<'CFG'
datasource_list: [NoCloud, None]
network: {config: disabled}
locale: C.UTF-8
ssh_deletekeys: false
ssh_genkeytypes: [ed25519]
growpart: {mode: "off"}
resize_rootfs: false
grub_dpkg: {enabled: false}
ssh: {emit_keys_to_console: false}
CFG
printf 'LANG=C.UTF-8\n' >"$ROOT/etc/default/locale"
chroot "$ROOT" systemctl enable qemu-guest-agent.service >/dev/null 2>&1 || true
cp -L "$ROOT/vmlinuz" "$WORK/vmlinuz"
cp -L "$ROOT/initrd.img" "$WORK/initrd.img"
rm -rf "$ROOT/var/cache/apt/archives/"*.deb "$ROOT/var/lib/apt/lists/"*
truncate -s 3G "$WORK/root.raw"
mkfs.ext4 -q -L root -d "$ROOT" "$WORK/root.raw"
qemu-img convert -O qcow2 "$WORK/root.raw" "$WORK/image.qcow2"
chmod 644 "$WORK/image.qcow2" "$WORK/vmlinuz" "$WORK/initrd.img"
mv "$WORK/vmlinuz" "$WORK/initrd.img" "$CACHE/"
mv "$WORK/image.qcow2" "$IMG"
echo "$VERSION" >"$CACHE/version"
echo "$CACHE"
