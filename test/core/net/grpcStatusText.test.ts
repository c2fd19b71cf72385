import { describe, expect, it } from 'vitest';
import { grpcErrorText, grpcGoDetails } from '../../../src/core/net/grpcStatusText.js';

describe('grpcGoDetails (grpc-js status details in grpc-go words)', () => {
  it('words a refused connection as grpc-go dialing does, without the empty resolution note', () => {
    expect(grpcGoDetails('No connection established. Last error: Error: connect ECONNREFUSED 127.0.0.1:1. Resolution note: ')).toBe(
      'connection error: desc = "transport: Error while dialing: dial tcp 127.0.0.1:1: connect: connection refused"',
    );
    expect(grpcErrorText(14, grpcGoDetails('No connection established. Last error: connect EHOSTUNREACH 127.0.0.9:8086'))).toBe(
      'rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial tcp 127.0.0.9:8086: connect: no route to host"',
    );
  });

  it('passes a server status message through unchanged', () => {
    expect(grpcGoDetails('Invalid authority: nope')).toBe('Invalid authority: nope');
    expect(grpcGoDetails('unknown server')).toBe('unknown server');
  });

  it('drops an empty "Resolution note:" tail from other connection details', () => {
    expect(grpcGoDetails('Name resolution failed for target dns:nowhere:1. Resolution note: ')).toBe('Name resolution failed for target dns:nowhere:1');
  });
});
