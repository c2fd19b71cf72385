import { describe, expect, it } from 'vitest';
import { redactedUrl, redactUrlsIn } from '../../../src/core/net/redactedUrl.js';
import { urlErrorMessage } from '../../../src/core/net/netErrorText.js';

describe('redactedUrl', () => {
  it("prints a URL's password as xxxxx, as Go's url.URL.Redacted() does", () => {
    expect(redactedUrl('https://admin:s3cretpw@127.0.0.1:6443/api?x=1')).toBe('https://admin:xxxxx@127.0.0.1:6443/api?x=1');
    expect(redactedUrl(new URL('http://u:p@localhost/v.yaml'))).toBe('http://u:xxxxx@localhost/v.yaml');
    // An empty password is still a password (Go: `user:xxxxx@`).
    expect(redactedUrl('https://user:@host/')).toBe('https://user:xxxxx@host/');
  });

  it('keeps a user name without a password, and URLs without userinfo, exactly as given', () => {
    expect(redactedUrl('https://user@host/a')).toBe('https://user@host/a');
    expect(redactedUrl('https://127.0.0.1:6443')).toBe('https://127.0.0.1:6443');
    expect(redactedUrl('https://host/a:b@c')).toBe('https://host/a:b@c');
  });

  it('takes the userinfo up to the last @ of the authority, so a password with @ is hidden whole', () => {
    expect(redactedUrl('https://u:p@ss@host/x')).toBe('https://u:xxxxx@host/x');
  });

  it('redacts a kubeconfig server written without a scheme', () => {
    expect(redactedUrl('admin:s3cretpw@127.0.0.1:6443')).toBe('admin:xxxxx@127.0.0.1:6443');
  });
});

describe('redactUrlsIn', () => {
  it('redacts every URL a message quotes', () => {
    const text = 'Request cannot be constructed from a URL that includes credentials: http://u:s3cretpw@127.0.0.1:1/m.yaml (and "https://a:b@c/")';
    expect(redactUrlsIn(text)).toBe(
      'Request cannot be constructed from a URL that includes credentials: http://u:xxxxx@127.0.0.1:1/m.yaml (and "https://a:xxxxx@c/")',
    );
  });

  it("is what Go's url.Error wording uses for the URL and the reason", () => {
    expect(urlErrorMessage('GET', 'https://u:s3cretpw@127.0.0.1/x', 'refused by https://u:s3cretpw@127.0.0.1/x')).toBe(
      'Get "https://u:xxxxx@127.0.0.1/x": refused by https://u:xxxxx@127.0.0.1/x',
    );
  });
});
