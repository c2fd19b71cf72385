import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import { UserError } from '../../../../core/errors.js';
import { CNI_CONFIG_MAP, CNI_NAME } from '../../../../core/mesh/names.js';
import type { CniValues } from '../values.js';
import { type CniContext, cniLabels, namespaced } from './meta.js';

/*
 * The ConfigMap the install-cni container reads: the host directories and the network config it
 * writes into the node's CNI chain (`__KUBECONFIG_FILEPATH__` is filled in on the node). The
 * config is JSON; the chart builds it as text, here it is an object serialised once.
 */

function list(csv: string): string[] {
  return csv === '' ? [] : csv.split(',');
}

/** `portsToRedirect` goes into the JSON as numbers: anything else would make the node's config unreadable. */
function redirectPorts(csv: string): number[] {
  return list(csv).map((p) => {
    const port = p.trim();
    if (!/^[0-9]+$/.test(port) || Number(port) > 65535) throw new UserError(`portsToRedirect: "${p}" is not a port number`);
    return Number(port);
  });
}

export function networkConfig(values: CniValues): Record<string, unknown> {
  const linkerd: Record<string, unknown> = {
    'incoming-proxy-port': values.inboundProxyPort,
    'outgoing-proxy-port': values.outboundProxyPort,
    'proxy-uid': values.proxyUID,
  };
  if (values.proxyGID >= 0) linkerd['proxy-gid'] = values.proxyGID;
  linkerd['ports-to-redirect'] = redirectPorts(values.portsToRedirect);
  // The proxy's own admin and control ports always bypass it, ahead of the user's list.
  linkerd['inbound-ports-to-ignore'] = [String(values.proxyAdminPort), String(values.proxyControlPort), ...list(values.ignoreInboundPorts)];
  if (values.ignoreOutboundPorts !== '') linkerd['outbound-ports-to-ignore'] = list(values.ignoreOutboundPorts);
  linkerd.simulate = false;
  linkerd['use-wait-flag'] = values.useWaitFlag;
  linkerd['iptables-mode'] = values.iptablesMode;
  linkerd.ipv6 = !values.disableIPv6;
  return {
    name: CNI_NAME,
    type: CNI_NAME,
    log_level: values.logLevel,
    kubernetes: { kubeconfig: '__KUBECONFIG_FILEPATH__' },
    linkerd,
  };
}

export function cniConfigMap(values: CniValues, ctx: CniContext): ConfigMap {
  return {
    kind: 'ConfigMap',
    apiVersion: 'v1',
    metadata: namespaced(CNI_CONFIG_MAP, ctx, cniLabels(values)),
    data: {
      dest_cni_net_dir: values.destCNINetDir,
      dest_cni_bin_dir: values.destCNIBinDir,
      cni_network_config: JSON.stringify(networkConfig(values), null, 2),
    },
  };
}
