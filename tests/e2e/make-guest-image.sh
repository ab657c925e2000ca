#!/usr/bin/env bash
# Build (once) the small Debian 12 guest the libvirt e2e test boots, and cache it:
#   $CACHE/debian12-mariadb.qcow2   root filesystem (LABEL=root), MariaDB 10.11, qemu-guest-agent
#   $CACHE/vmlinuz, $CACHE/initrd.img  for direct kernel boot (no bootloader in the image)
# The image runs dbrig-seed.service at every boot: it mounts the NoCloud seed ISO
# (LABEL=cidata) that dbrig attaches and runs its dbrig-setup.sh, the same script
# cloud-init runs on cloud images (vm-templates/). MariaDB is not enabled: the
# setup script starts it once the under-test disk is mounted as its datadir.
# Usage: make-guest-image.sh CACHE_DIR    (prints the cache dir when done)
set -euo pipefail
CACHE=${1:?usage: make-guest-image.sh CACHE_DIR}
IMG=$CACHE/debian12-mariadb.qcow2
VERSION=4 # bump when the image content changes
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
	--include=systemd-sysv,dbus,udev,linux-image-amd64,mariadb-server,qemu-guest-agent,ifupdown,isc-dhcp-client,e2fsprogs,iproute2,kmod,procps \
	bookworm "$ROOT" "$MIRROR" >"$WORK/debootstrap.log" 2>&1 || { tail -30 "$WORK/debootstrap.log" >&2; exit 1; }

# dbus: logind (ACPI power button) and shutdown scheduled by the guest agent need it.
echo "LABEL=root / ext4 defaults 0 1" >"$ROOT/etc/fstab"
echo dbrig-guest >"$ROOT/etc/hostname"
printf 'auto lo\niface lo inet loopback\nauto eth0\niface eth0 inet dhcp\n' >"$ROOT/etc/network/interfaces"
chroot "$ROOT" sh -c 'echo root:dbrig | chpasswd'
chroot "$ROOT" systemctl disable mariadb.service >/dev/null 2>&1 || true
# The guest has no use for these at boot under TCG.
chroot "$ROOT" systemctl mask apt-daily.timer apt-daily-upgrade.timer e2scrub_reap.service systemd-timesyncd.service >/dev/null 2>&1 || true
cat >"$ROOT/usr/local/sbin/dbrig-seed" <<'SH'
#!/bin/sh
# Run the setup script of the dbrig NoCloud seed (LABEL=cidata) at every boot.
set -e
mkdir -p /run/dbrig-seed
for i in $(seq 1 30); do [ -e /dev/disk/by-label/cidata ] && break; sleep 1; done
mount -o ro /dev/disk/by-label/cidata /run/dbrig-seed
exec sh /run/dbrig-seed/dbrig-setup.sh
SH
chmod 755 "$ROOT/usr/local/sbin/dbrig-seed"
cat >"$ROOT/etc/systemd/system/dbrig-seed.service" <<'UNIT'
[Unit]
Description=dbrig guest setup from the NoCloud seed
After=local-fs.target systemd-udev-settle.service
Wants=systemd-udev-settle.service
[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/usr/local/sbin/dbrig-seed
StandardOutput=journal+console
[Install]
WantedBy=multi-user.target
UNIT
chroot "$ROOT" systemctl enable dbrig-seed.service qemu-guest-agent.service >/dev/null 2>&1 || true
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
