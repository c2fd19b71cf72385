/**
 * The embedded default of `linkerd image build` (printed by `linkerd image config`): the proxy
 * runtime that linkerd assembles today with apko and a Dockerfile, described in one file.
 * It is YAML text rather than an object so that the printed config keeps its comments.
 */
export const defaultImageConfig = `# linkerd proxy image: the runtime packages, the accounts, and the proxy's own binaries.
# Build it offline with the packages in a local directory:
#   linkerd image build --packages ./wolfi --output proxy.tar --tag cr.l5d.io/linkerd/proxy:dev
contents:
  # Wolfi's repository and signing key, as linkerd's proxy-runtime.yml uses them. Nothing is
  # downloaded: pass the packages with --packages DIR (an apk repository or a directory of .debs).
  repositories:
    - https://packages.wolfi.dev/os
  keyring:
    - https://packages.wolfi.dev/os/wolfi-signing.rsa.pub
  packages:
    - ca-certificates-bundle
    - glibc
    - iptables
    - ip6tables
    - libnetfilter_conntrack
    - libnfnetlink
    - libmnl
    - libgcc
    - nftables-slim
    - libcap-utils

archs:
  - x86_64
  - aarch64

accounts:
  users:
    - username: nonroot
      uid: 65532
    - username: nobody
      uid: 65534
  # The finished proxy image runs as nobody; the runtime base alone ran as nonroot.
  run-as: 65534

work-dir: /home/nonroot

paths:
  - path: /run
    type: directory
    permissions: 0o755

environment:
  LINKERD2_PROXY_LOG: warn,linkerd=info
  LINKERD2_PROXY_LOG_FORMAT: plain

entrypoint:
  command: /usr/lib/linkerd/linkerd2-proxy-identity

# The proxy's binaries, from the working directory (or next to a config file that says so).
files:
  - path: /usr/lib/linkerd/linkerd2-proxy
    source: linkerd2-proxy
    mode: 0o755
  - path: /usr/lib/linkerd/linkerd2-proxy-identity
    source: linkerd2-proxy-identity
    mode: 0o755
  - path: /usr/lib/linkerd/linkerd2-proxy-init
    source: linkerd2-proxy-init
    mode: 0o755
    # The init container rewrites iptables rules; the file capability replaces a root setcap step.
    capabilities: cap_net_raw,cap_net_admin+eip
  - path: /usr/lib/linkerd/linkerd2-network-validator
    source: linkerd2-network-validator
    mode: 0o755
  - path: /usr/lib/linkerd/linkerd-await
    source: linkerd-await
    mode: 0o755
  # The proxy's preStop hook runs /bin/sleep; a static one, as linkerd copies in.
  - path: /bin/sleep
    source: sleep
    mode: 0o755
  - path: /usr/lib/linkerd/LICENSE
    source: LICENSE
    mode: 0o644
  - path: /usr/lib/linkerd/linkerd2-proxy-version.txt
    source: linkerd2-proxy-version.txt
    mode: 0o644

capabilities:
  - path: /usr/sbin/xtables-legacy-multi
    capabilities: cap_net_raw,cap_net_admin+eip
  - path: /usr/sbin/xtables-nft-multi
    capabilities: cap_net_raw,cap_net_admin+eip
`;
