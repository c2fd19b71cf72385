import { describe, expect, it } from 'vitest';
import { injectReportText, uninjectReportText } from '../../../src/cli/output/inject.js';
import type { DocReport } from '../../../src/core/inject/report.js';

const web: DocReport = { kind: 'deployment', name: 'web', outcome: 'injected' };

describe('inject report', () => {
  it('frames the summary with blank lines', () => {
    expect(injectReportText([web], { verbose: false })).toBe('\ndeployment "web" injected\n\n');
  });

  it('prints warnings, then a blank line, then the summary', () => {
    const reports: DocReport[] = [
      { ...web, udp: true },
      { kind: 'daemonset', name: 'dns', outcome: 'injected', udp: true },
      { kind: 'deployment', name: 'batch', outcome: 'skipped', injectDisabled: true },
      { kind: '', name: '', outcome: 'skipped' },
    ];
    expect(injectReportText(reports, { verbose: false })).toBe(
      '\n‼ "linkerd.io/inject: disabled" annotation set on deployment/batch\n‼ deployment/web, daemonset/dns use "protocol: UDP"\n\n' +
        'deployment "web" injected\ndaemonset "dns" injected\ndeployment "batch" skipped\ndocument missing "kind" field, skipped\n\n',
    );
  });

  it('says when nothing could be injected or annotated', () => {
    expect(injectReportText([{ kind: 'configmap', name: 'c', outcome: 'skipped' }], { verbose: false })).toBe(
      '\n‼ no supported objects found\n\nconfigmap "c" skipped\n\n',
    );
  });

  it('with --verbose, prints a √ line for every problem that is absent', () => {
    expect(injectReportText([web], { verbose: true })).toBe(
      [
        '',
        '√ pods do not use host networking',
        '√ pods do not have a 3rd party proxy or initContainer already injected',
        '√ pods are not annotated to disable injection',
        '√ at least one resource can be injected or annotated',
        '√ pod specs do not include UDP ports',
        '√ pods do not have automountServiceAccountToken set to "false" or service account token projection is enabled',
        '',
        'deployment "web" injected',
        '',
        '',
      ].join('\n'),
    );
  });

  it('uses the glyphs it is given (coloured on a terminal) and adds our own notes as warnings', () => {
    const text = injectReportText([web], {
      verbose: false,
      glyphs: { ok: '[ok]', warn: '[!]' },
      notes: [{ resource: 'deployment/web', message: 'annotation config.linkerd.io/proxy-cpu-request: 700m on the input overrides --proxy-cpu-request 100m' }],
    });
    expect(text).toBe(
      '\n[!] deployment/web: annotation config.linkerd.io/proxy-cpu-request: 700m on the input overrides --proxy-cpu-request 100m\n\ndeployment "web" injected\n\n',
    );
  });
});

describe('uninject report', () => {
  it('lists each object between blank lines, with no warnings section', () => {
    expect(
      uninjectReportText([
        { ...web, outcome: 'uninjected' },
        { kind: 'service', name: 'web', outcome: 'skipped' },
      ]),
    ).toBe('\ndeployment "web" uninjected\nservice "web" skipped\n\n');
  });
});
