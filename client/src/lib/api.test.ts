// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from '../../../shared/schemas/zod.js';
import { apiError, json, mockFetch } from '../test/fetch-stub.js';
import { api, ApiError } from './api.js';

const Answer = z.object({ name: z.string() });

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('an answer parsed with a schema loaded on demand', () => {
  it('loads the schema while the request is under way, and parses the answer with it', async () => {
    let answer!: (r: Response) => void;
    mockFetch({ 'GET /api/thing': () => new Promise<Response>((resolve) => (answer = resolve)) });
    const load = vi.fn(() => Promise.resolve(Answer));
    const result = api('/api/thing', load);
    await vi.waitFor(() => expect(answer).toBeDefined());
    expect(load).toHaveBeenCalledTimes(1);
    answer(json({ name: 'Knicks', extra: true }));
    expect(await result).toEqual({ name: 'Knicks' });
  });

  it('refuses an answer the loaded schema refuses', async () => {
    mockFetch({ 'GET /api/thing': () => json({ name: 7 }) });
    await expect(api('/api/thing', () => Promise.resolve(Answer))).rejects.toBeInstanceOf(z.ZodError);
  });

  it('fails with the schema that could not be loaded', async () => {
    mockFetch({ 'GET /api/thing': () => json({ name: 'Knicks' }) });
    const failure = new Error('chunk failed to load');
    await expect(api('/api/thing', () => Promise.reject(failure))).rejects.toBe(failure);
  });

  it("says the server's error, not the schema's, when both fail", async () => {
    mockFetch({ 'GET /api/thing': () => apiError(404, 'not_found', 'no such thing') });
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const error = await api('/api/thing', () => Promise.reject(new Error('chunk failed to load'))).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 404, code: 'not_found' });
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  it('parses with a schema given as it is', async () => {
    mockFetch({ 'GET /api/thing': () => json({ name: 'Knicks' }) });
    expect(await api('/api/thing', Answer)).toEqual({ name: 'Knicks' });
  });
});
