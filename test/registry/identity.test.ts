// The caller key: what owns a task, a session or a paused call, and what fairness and caps count by.
import { describe, expect, it } from 'vitest';
import { ANONYMOUS, callerKey, sameCaller, type Identity } from '../../src/registry/identity.js';

const oauth = (subject: string, extra: Partial<Identity> = {}): Identity => ({
  kind: 'oauth',
  subject,
  scopes: [],
  clientId: '',
  issuer: 'https://id.example',
  expiresAt: 0,
  ...extra,
});

describe('callerKey', () => {
  it('is the named client first, whatever proved it', () => {
    expect(callerKey({ kind: 'token', subject: 'ci', client: 'ci' })).toBe('client:ci');
    // Two people signed in with a scope mapped onto one client are that client.
    expect(callerKey(oauth('alice', { client: 'team' }))).toBe(callerKey(oauth('bob', { client: 'team' })));
  });

  it('is the token subject, else the OAuth subject and its issuer, else the address', () => {
    expect(callerKey({ kind: 'token', subject: 'token' })).toBe('token:token');
    expect(callerKey(oauth('alice'))).not.toBe(callerKey(oauth('bob')));
    expect(callerKey(oauth('alice'))).not.toBe(callerKey(oauth('alice', { issuer: 'https://other.example' } as Partial<Identity>)));
    expect(callerKey({ kind: 'anonymous', address: '10.0.0.2' })).not.toBe(callerKey({ kind: 'anonymous', address: '10.0.0.3' }));
    expect(callerKey(ANONYMOUS)).toBe('local');
  });

  it('tells callers apart by it', () => {
    expect(sameCaller(oauth('alice'), oauth('alice'))).toBe(true);
    expect(sameCaller(oauth('alice'), { kind: 'token', subject: 'token' })).toBe(false);
    // A named client's subject cannot pass for an OAuth subject of the same text.
    expect(sameCaller({ kind: 'token', subject: 'alice', client: 'alice' }, oauth('alice'))).toBe(false);
  });
});
