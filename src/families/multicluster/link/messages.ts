/*
 * link-gen's error texts, and the deprecated `link`'s: the same checks, capitalised differently
 * (`You need…`, `Gateway …`), as the two commands' code was duplicated upstream.
 */

export type LinkVariant = 'link-gen' | 'link';

const capitalised = (variant: LinkVariant, text: string) => (variant === 'link' ? text.charAt(0).toUpperCase() + text.slice(1) : text);

export const linkMessages = {
  noClusterName: (v: LinkVariant) => capitalised(v, 'you need to specify cluster name'),
  noLinkerd: () => 'you need Linkerd to be installed on a cluster in order to get its credentials',
  noIngress: (v: LinkVariant, name: string, ns: string) => capitalised(v, `gateway ${name}.${ns} has no ingress addresses`),
  noIdentity: (v: LinkVariant, name: string, ns: string) => capitalised(v, `gateway ${name}.${ns} has no mirror.linkerd.io/gateway-identity annotation`),
};
