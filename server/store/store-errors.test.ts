import { describe, expect, it } from 'vitest';
import { classifyStoreError, isStoreUnavailable, StoreUnavailableError } from './store-errors.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe('isStoreUnavailable', () => {
  it.each([
    [
      'an administrator shutdown (57P01)',
      withCode('terminating connection due to administrator command', '57P01'),
      true,
    ],
    ['a database starting up (57P03)', withCode('the database system is starting up', '57P03'), true],
    ['a connection failure (08006)', withCode('connection failure', '08006'), true],
    ['too many connections (53300)', withCode('sorry, too many clients already', '53300'), true],
    ['a serialization failure (40001)', withCode('could not serialize access', '40001'), true],
    ['a refused connection', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'), true],
    ['the driver losing its connection', new Error('Connection terminated unexpectedly'), true],
    ['the pool timing out', new Error('timeout exceeded when trying to connect'), true],
    ['a missing table (42P01)', withCode('relation "x" does not exist', '42P01'), false],
    ['a unique violation (23505)', withCode('duplicate key value violates unique constraint', '23505'), false],
    ['a check violation (23514)', withCode('new row violates check constraint', '23514'), false],
    ['a plain bug', new TypeError('cannot read properties of undefined'), false],
    ['not an error', 'nope', false],
  ])('%s → %s', (_case, err, expected) => {
    expect(isStoreUnavailable(err)).toBe(expected);
  });

  it('rethrows the transient kind as StoreUnavailableError with its cause, and anything else as it was', () => {
    const down = withCode('terminating connection', '57P01');
    expect(() => classifyStoreError(down)).toThrow(StoreUnavailableError);
    try {
      classifyStoreError(down);
    } catch (err) {
      expect((err as Error).cause).toBe(down);
    }
    const bug = withCode('syntax error', '42601');
    expect(() => classifyStoreError(bug)).toThrow(bug);
  });
});
