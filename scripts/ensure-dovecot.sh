#!/usr/bin/env bash
# Run before `npm test` (the `pretest` script): the IMAP tests talk to a real Dovecot started by the
# test setup. On a fresh Debian machine as root this installs it (dovecot-imapd, ~15 s); elsewhere it
# says what to install. Does nothing when dovecot is already there.
set -euo pipefail
command -v dovecot >/dev/null 2>&1 && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "pretest: installing dovecot-imapd for the IMAP tests (apt-get) ..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends dovecot-imapd >/dev/null
  exit 0
fi
echo "pretest: the IMAP tests need a real Dovecot; install it with: sudo apt-get install dovecot-imapd" >&2
exit 1
