import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/errors.js';
import { parseProxyUrl, proxyEnvironment, proxyFromEnvironment, proxyFunc } from '../../../src/core/net/proxyFromEnvironment.js';

const P = 'http://proxy.corp:3128';
const proxied = (target: string, noProxy: string, env: NodeJS.ProcessEnv = {}) =>
  proxyFromEnvironment(new URL(target), { HTTPS_PROXY: P, HTTP_PROXY: P, NO_PROXY: noProxy, ...env })?.href;

describe('proxyFromEnvironment (Go net/http ProxyFromEnvironment rules)', () => {
  it('uses HTTPS_PROXY for https and HTTP_PROXY for http, with no fallback between them', () => {
    expect(proxyFromEnvironment(new URL('https://api.example:6443/'), { HTTPS_PROXY: 'http://s:1' })?.href).toBe('http://s:1/');
    expect(proxyFromEnvironment(new URL('http://api.example/'), { HTTPS_PROXY: 'http://s:1' })).toBeUndefined();
    expect(proxyFromEnvironment(new URL('https://api.example/'), { HTTP_PROXY: 'http://h:1' })).toBeUndefined();
    expect(proxyFromEnvironment(new URL('http://api.example/'), { HTTP_PROXY: 'http://h:1' })?.href).toBe('http://h:1/');
  });

  it('prefers the upper-case variable unless it is empty', () => {
    expect(proxyEnvironment({ HTTPS_PROXY: 'http://upper:1', https_proxy: 'http://lower:1' }).httpsProxy).toBe('http://upper:1');
    expect(proxyEnvironment({ HTTPS_PROXY: '', https_proxy: 'http://lower:1' }).httpsProxy).toBe('http://lower:1');
    expect(proxyEnvironment({ NO_PROXY: '', no_proxy: 'a.example' }).noProxy).toBe('a.example');
    expect(proxyEnvironment({ http_proxy: 'http://lower:1' }).httpProxy).toBe('http://lower:1');
    expect(proxiedUpperNoProxy()).toBeUndefined();
  });

  it('reads host:port without a scheme as http, and ignores what is not a URL even then', () => {
    expect(parseProxyUrl('proxy.corp:3128')?.href).toBe('http://proxy.corp:3128/');
    expect(parseProxyUrl('127.0.0.1:3128')?.href).toBe('http://127.0.0.1:3128/');
    expect(parseProxyUrl('https://proxy.corp')?.href).toBe('https://proxy.corp/');
    expect(parseProxyUrl('socks5://proxy.corp:1080')?.protocol).toBe('socks5:');
    expect(parseProxyUrl('http://user:p%40ss@proxy.corp:3128')?.password).toBe('p%40ss');
    expect(parseProxyUrl('')).toBeUndefined();
    expect(parseProxyUrl('%zz')).toBeUndefined();
    expect(proxyFromEnvironment(new URL('https://api.example/'), { HTTPS_PROXY: '%zz' })).toBeUndefined();
  });

  it('never proxies localhost or loopback addresses, whatever NO_PROXY says', () => {
    for (const t of ['https://localhost:6443/', 'https://127.0.0.1:6443/', 'https://127.9.9.9/', 'https://[::1]:6443/', 'http://localhost/']) {
      expect(proxied(t, ''), t).toBeUndefined();
    }
    // Only the exact name: Go does not treat subdomains of localhost or 0.0.0.0 as loopback.
    expect(proxied('https://kube.localhost:6443/', '')).toBe(`${P}/`);
    expect(proxied('https://0.0.0.0:6443/', '')).toBe(`${P}/`);
  });

  it('matches NO_PROXY domains, subdomains, leading dots, *. prefixes and ports', () => {
    const table: Array<[string, string, boolean]> = [
      // [target, NO_PROXY, proxied?]
      ['https://foo.com/', 'foo.com', false],
      ['https://bar.foo.com/', 'foo.com', false],
      ['https://barfoo.com/', 'foo.com', true],
      ['https://foo.com/', '.foo.com', true],
      ['https://bar.foo.com/', '.foo.com', false],
      ['https://bar.foo.com/', '*.foo.com', false],
      ['https://foo.com/', '*.foo.com', true],
      ['https://FOO.com/', 'Foo.COM', false],
      ['https://foo.com:6443/', 'foo.com:6443', false],
      ['https://foo.com/', 'foo.com:6443', true],
      ['https://foo.com/', 'foo.com:443', false],
      ['http://foo.com/', 'foo.com:80', false],
      ['https://api.example/', ' other.example , api.example ', false],
      ['https://api.example/', ',,', true],
      ['https://api.example/', ':6443', true],
    ];
    for (const [target, noProxy, want] of table) expect(proxied(target, noProxy) !== undefined, `${target} with NO_PROXY=${noProxy}`).toBe(want);
  });

  it('matches NO_PROXY IPs, CIDRs, IPs with ports, and * for everything', () => {
    const table: Array<[string, string, boolean]> = [
      ['https://10.0.0.1:6443/', '10.0.0.1', false],
      ['https://10.0.0.1:6443/', '10.0.0.1:6443', false],
      ['https://10.0.0.1:6443/', '10.0.0.1:443', true],
      ['https://10.0.0.1/', '10.0.0.1:443', false],
      ['https://10.1.2.3/', '10.0.0.0/8', false],
      ['https://11.1.2.3/', '10.0.0.0/8', true],
      ['https://[fd00::5]:6443/', 'fd00::/8', false],
      ['https://[fd00::5]:6443/', '[fd00::5]:6443', false],
      ['https://[fd00::5]:6443/', 'fd00::5', false],
      ['https://[fe80::5]:6443/', 'fd00::/8', true],
      ['https://api.example/', '10.0.0.0/8', true],
      ['https://api.example/', '*', false],
      ['https://10.0.0.1/', 'a.example,*', false],
    ];
    for (const [target, noProxy, want] of table) expect(proxied(target, noProxy) !== undefined, `${target} with NO_PROXY=${noProxy}`).toBe(want);
  });

  it('refuses HTTP_PROXY for http URLs under CGI (REQUEST_METHOD set), but not HTTPS_PROXY', () => {
    const cgi = { HTTP_PROXY: P, HTTPS_PROXY: P, REQUEST_METHOD: 'GET' };
    expect(() => proxyFromEnvironment(new URL('http://api.example/'), cgi)).toThrow(UserError);
    expect(() => proxyFromEnvironment(new URL('http://api.example/'), cgi)).toThrow(
      'refusing to use HTTP_PROXY value in CGI environment; see golang.org/s/cgihttpproxy',
    );
    expect(proxyFromEnvironment(new URL('https://api.example/'), cgi)?.href).toBe(`${P}/`);
    expect(proxyFromEnvironment(new URL('http://api.example/'), { REQUEST_METHOD: 'GET' })).toBeUndefined();
  });

  it('is a pure function of the configuration it was given', () => {
    const f = proxyFunc({ httpProxy: '', httpsProxy: 'proxy.corp:8080', noProxy: '.svc', cgi: false });
    expect(f(new URL('https://kubernetes.default.svc/'))).toBeUndefined();
    expect(f(new URL('https://api.example/'))?.href).toBe('http://proxy.corp:8080/');
  });
});

function proxiedUpperNoProxy() {
  // NO_PROXY (upper) wins over no_proxy (lower): api.example is exempt only by the upper-case one.
  return proxyFromEnvironment(new URL('https://api.example/'), { HTTPS_PROXY: P, NO_PROXY: 'api.example', no_proxy: 'other.example' });
}
