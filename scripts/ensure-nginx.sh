#!/usr/bin/env bash
# The production-layout test (apps/server/src/ops/layout.int.test.ts) runs Debian's nginx in front of
# two API processes. This installs it where it is missing; the test starts its own nginx with a
# generated configuration on free loopback ports, so the system's nginx service is never started.
set -euo pipefail

if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then
  exit 0
fi

echo "Installing Debian nginx for the production-layout test..."
# Keep the package from starting its service (port 80) on install, unless a policy is already in place.
policy=""
if [ ! -e /usr/sbin/policy-rc.d ]; then
  policy=/usr/sbin/policy-rc.d
  printf '#!/bin/sh\nexit 101\n' >"$policy"
  chmod +x "$policy"
fi
trap 'if [ -n "$policy" ]; then rm -f "$policy"; fi' EXIT
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nginx >/dev/null
