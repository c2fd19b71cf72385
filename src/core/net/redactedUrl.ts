/*
 * A URL as it may be printed: a password in its userinfo (`https://user:password@host/…`, from a
 * kubeconfig `server`, an `-f` URL, a manifest URL) becomes `xxxxx`, as Go's url.URL.Redacted()
 * prints it. The user name stays, as in Go. Every error, hint and log line that shows a URL goes
 * through here, so a password typed into one is never echoed.
 */

const REDACTED = 'xxxxx';

// scheme://userinfo@ — the userinfo runs to the last `@` before the path, query or fragment.
const SCHEME_AUTHORITY = /^((?:[A-Za-z][A-Za-z0-9+.-]*:)?\/\/)?([^/?#\s"]*)/;

/** `url` with the password of its userinfo replaced by `xxxxx`; the rest exactly as given. */
export function redactedUrl(url: string | URL): string {
  const text = typeof url === 'string' ? url : url.href;
  const m = SCHEME_AUTHORITY.exec(text);
  const prefix = m?.[1] ?? '';
  const authority = m?.[2] ?? '';
  const at = authority.lastIndexOf('@');
  const colon = authority.indexOf(':');
  if (at < 0 || colon < 0 || colon > at) return text;
  return `${prefix}${authority.slice(0, colon)}:${REDACTED}${authority.slice(at)}${text.slice(prefix.length + authority.length)}`;
}

// A URL with userinfo somewhere in a text (a library's message that quotes the URL it was given).
// The scheme must start where a word starts: without the look-behind, each letter of a long run
// would start a new try that scans the run again (quadratic on a server's megabyte of `AAAA`).
const URL_WITH_USERINFO = /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#\s"']*@/g;

/** `text` with every URL in it redacted as redactedUrl does. */
export function redactUrlsIn(text: string): string {
  return text.replace(URL_WITH_USERINFO, (found) => redactedUrl(found));
}
