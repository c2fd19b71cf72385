#!/usr/bin/env bash
# Makes sure every system tool the tests and benchmarks run is installed, so `npm ci && npm test`
# passes on a fresh Debian machine: missing Debian packages are installed when this runs as root
# with apt-get, else it stops with one line naming the packages to install. Tests never skip for a
# missing tool. `npm test` (pretest) and .ci/run call it. Quiet when there is nothing to do.
set -uo pipefail
here=${BASH_SOURCE[0]%/*}
[ "$here" = "${BASH_SOURCE[0]}" ] && here=.

# One line per tool: the command, the Debian package that has it, what needs it. kubectl comes from
# Kubernetes' apt source (pkgs.k8s.io): Debian's own kubernetes-client (1.20) fails four kubectl tests.
TOOLS='
openssl          openssl                    pki tests read generated certificates with openssl x509
kubectl          kubectl                    real kubectl proves the loopback API server speaks the protocol
skopeo           skopeo                     image tests inspect and copy every output form
umoci            umoci                      image tests unpack images rootless
docker-registry  docker-registry            image push tests push to a registry on 127.0.0.1
htpasswd         apache2-utils              the loopback registry basic auth
getfattr         attr                       image tests read xattrs
getcap           libcap2-bin                image tests read file capabilities
xz               xz-utils                   .deb/.apk fixtures with xz members
zstd             zstd                       .deb fixtures with zstd members
script           bsdutils                   a pty shows the spinner
dpkg-deb         dpkg                       the image bench packs .debs
chroot           coreutils                  iptables runs in a chroot of a built image
mkfifo           coreutils                  inject refuses named pipes
tar              tar                        image tests list layers
find             findutils                  image tests walk unpacked trees
grep             grep                       the Debian-package image test reads dpkg status
sh               dash                       shell pipelines in CLI tests
gzip             gzip                       the image bench floor
setpriv          util-linux                 the test of this script runs it as nobody
apt-get          apt                        .ci/debian-packages downloads real Debian packages
apt-cache        apt                        .ci/debian-packages resolves their closure
bash             bash                       the completion script is driven in bash
zsh              zsh                        the completion script is driven in zsh
fish             fish                       the completion script is driven in fish
tmux             tmux                       completion is typed with TAB in a real terminal
prometheus       prometheus                 viz stat-inbound/stat-outbound answer from a real Prometheus
chromium         chromium                   the viz dashboard URL is loaded in headless Chromium
'

# Real Debian packages (and their closure) the image builder's tests build from, downloaded once per
# machine into the directory test/core/image/debian.test.ts reads.
DEBIAN_CACHE="${TMPDIR:-/tmp}/linkerd-image-debian-packages"
DEBIAN_PACKAGES=(iptables libcap2-bin ca-certificates)

missing=()
while read -r tool packages _; do
  [ -z "$tool" ] && continue
  command -v "$tool" >/dev/null 2>&1 && continue
  case " ${missing[*]-} " in *" $packages "*) ;; *) missing+=("$packages") ;; esac
done <<<"$TOOLS"

stamp="$DEBIAN_CACHE/.complete-$(
  IFS=_
  echo "${DEBIAN_PACKAGES[*]}"
)"

# Only root with apt-get installs; anyone else is told what to install. ENSURE_TOOLS_UID stands in
# for the user id in the script's tests (a fake apt-get then records what would run).
can_install=false
if [ "${ENSURE_TOOLS_UID:-$EUID}" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
  can_install=true
fi

if [ ${#missing[@]} -gt 0 ] && ! $can_install; then
  echo "ensure-tools: missing system tools for the tests: install the Debian packages ${missing[*]} (apt-get install -y ${missing[*]}), or run npm test as root" >&2
  exit 1
fi

if [ ${#missing[@]} -gt 0 ] || [ ! -f "$stamp" ]; then
  if $can_install; then
    export DEBIAN_FRONTEND=noninteractive
    # Once per run: the installs and apt-get download need current package lists.
    apt-get update -qq || {
      echo "ensure-tools: apt-get update failed" >&2
      exit 1
    }
    unknown=()
    for p in "${missing[@]}"; do
      # Read whole, not piped into grep -q: with pipefail, apt-cache's SIGPIPE would fail the test.
      policy=$(apt-cache policy "$p" 2>/dev/null)
      [[ $policy == *"Candidate: "[!\(]* ]] || unknown+=("$p")
    done
    if [ ${#unknown[@]} -gt 0 ]; then
      echo "ensure-tools: apt has no package ${unknown[*]}: add the apt source that has it (kubectl: https://pkgs.k8s.io), then run this again" >&2
      exit 1
    fi
    if [ ${#missing[@]} -gt 0 ]; then
      apt-get install -y -qq "${missing[@]}" >/dev/null || {
        echo "ensure-tools: apt-get install -y ${missing[*]} failed" >&2
        exit 1
      }
    fi
  fi
  "$here/../.ci/debian-packages" "$DEBIAN_CACHE" "${DEBIAN_PACKAGES[@]}" >/dev/null 2>&1 || {
    echo "ensure-tools: cannot download the Debian packages the image tests use (${DEBIAN_PACKAGES[*]}): run npm test as root, or as root: apt-get update" >&2
    exit 1
  }
fi
