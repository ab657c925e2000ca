#!/usr/bin/env bash
# ctest entry for the libvirt end-to-end test with real QEMU (tests/e2e/libvirt_qemu.sh).
exec bash "$(dirname "${BASH_SOURCE[0]}")/../e2e/libvirt_qemu.sh" "$@"
