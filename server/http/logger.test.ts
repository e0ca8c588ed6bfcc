import { Writable } from 'node:stream';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogFixture, type CatalogFixture } from '../test/catalog-fixture.js';
import { testApp } from '../test/test-app.js';
import { MAX_QUERY_LENGTH } from '../../shared/rules/constants.js';
import { createLogger, redactUrl } from './logger.js';

/** A logger at info writing into an array, as the server's logger is made. */
function memoryLogger() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { logger: createLogger('info', sink), text: () => lines.join('') };
}

describe('redactUrl', () => {
  it('replaces the values of credential parameters and keeps everything else as sent', () => {
    expect(redactUrl('/api/suggest/jsonp?token=eyJhbGciOi.x.y&q=yan&callback=jsonp_1')).toBe(
      '/api/suggest/jsonp?token=[REDACTED]&q=yan&callback=jsonp_1',
    );
    expect(redactUrl('/api/orders/ORD-AB12CD34EF?code=ABCDEFGHIJ0123456789')).toBe(
      '/api/orders/ORD-AB12CD34EF?code=[REDACTED]',
    );
    expect(redactUrl('/x?access_token=a&api_key=b&password=c&client_secret=d&X-Amz-Signature=e&key=f&page=2')).toBe(
      '/x?access_token=[REDACTED]&api_key=[REDACTED]&password=[REDACTED]&client_secret=[REDACTED]' +
        '&X-Amz-Signature=[REDACTED]&key=[REDACTED]&page=2',
    );
  });

  it('gives a path longer than any of the site’s by its start and how much more there was', () => {
    const path = `/category/${'%zz'.repeat(1_000)}`;
    const logged = `${path.slice(0, 200)}[${path.length - 200} more characters left out]`;
    expect(redactUrl(path)).toBe(logged);
    expect(redactUrl(`${path}?page=2&token=abc`)).toBe(`${logged}?page=2&token=[REDACTED]`);
    // An address of the site's goes whole.
    const long = `/events/${'a'.repeat(980)}`;
    expect(redactUrl(long)).toBe(long);
    expect(redactUrl(`${long}?page=2`)).toBe(`${long}?page=2`);
  });

  it('gives a value longer than any search by its length, read as the page reads it', () => {
    const longest = 'q'.repeat(MAX_QUERY_LENGTH);
    expect(redactUrl(`/results-general?kwds=${longest}&page=2`)).toBe(`/results-general?kwds=${longest}&page=2`);
    expect(redactUrl(`/results-general?kwds=${longest}x&page=2`)).toBe(
      `/results-general?kwds=[${MAX_QUERY_LENGTH + 1} characters left out]&page=2`,
    );
    // Escaped text counts as what it spells: 150 characters of Japanese are a search, not 1,350 bytes of noise.
    const japanese = encodeURIComponent('東'.repeat(150));
    expect(redactUrl(`/results-general?kwds=${japanese}`)).toBe(`/results-general?kwds=${japanese}`);
    // A name as long is left out whole; a long token is left out too, its length standing for it.
    expect(redactUrl(`/x?${'n'.repeat(MAX_QUERY_LENGTH + 1)}=1&page=2`)).toBe(
      `/x?[${MAX_QUERY_LENGTH + 3} characters left out]&page=2`,
    );
    expect(redactUrl(`/x?token=${'t'.repeat(300)}`)).toBe('/x?token=[300 characters left out]');
  });

  it('recognises a parameter name however it is spelled or escaped', () => {
    expect(redactUrl('/x?TOKEN=a&%74oken=b&apiKey=c&token[]=d&sessionToken=e')).toBe(
      '/x?TOKEN=[REDACTED]&%74oken=[REDACTED]&apiKey=[REDACTED]&token[]=[REDACTED]&sessionToken=[REDACTED]',
    );
    expect(redactUrl('/x?%E0%A4%A=1&token=%ZZ')).toBe('/x?%E0%A4%A=1&token=[REDACTED]');
  });

  it("hides a preview link's token, on its page and its preview alike", () => {
    expect(redactUrl('/preview/eyJhbGciOiJIUzI1NiJ9.eyJqdGkiOiJ4In0.c2ln')).toBe('/preview/[REDACTED]');
    expect(redactUrl('/api/preview/eyJhbGciOiJIUzI1NiJ9.eyJqdGkiOiJ4In0.c2ln?x=1&token=t')).toBe(
      '/api/preview/[REDACTED]?x=1&token=[REDACTED]',
    );
    expect(redactUrl('/previews/a.b.c')).toBe('/previews/a.b.c');
    // In any case: Express routes `/API/Preview/…` as `/api/preview/…`.
    expect(redactUrl('/API/preview/a.b.c')).toBe('/API/preview/[REDACTED]');
    expect(redactUrl('/Preview/a.b.c/x')).toBe('/Preview/[REDACTED]/x');
  });

  it('leaves a URL without secrets untouched, query and all', () => {
    for (const url of [
      '/api/layout/home',
      '/api/suggest?q=new%20y&extra=true',
      '/x?tokenizer=1&zipcode=10007&monkey=2',
      '/x?token',
      '/x?',
    ]) {
      expect(redactUrl(url)).toBe(url);
    }
  });
});

describe('createLogger', () => {
  it('hides credential headers and keys should a line ever carry them', () => {
    const { logger, text } = memoryLogger();
    const searchFailure = Object.assign(new Error('connect ECONNREFUSED'), {
      config: {
        url: 'http://10.0.0.7:8108/multi_search',
        headers: { 'X-TYPESENSE-API-KEY': 'search-secret-3', Authorization: 'Bearer unused' },
      },
    });
    logger.info(
      { req: { method: 'GET', headers: { authorization: 'Bearer header-secret-1', cookie: 'sid=cookie-secret-2' } } },
      'a request',
    );
    logger.warn({ err: searchFailure }, 'search failed');
    logger.info(
      { headers: { authorization: 'Bearer plain-secret-4', cookie: 'sid=cookie-secret-5' } },
      'headers alone',
    );
    logger.info({ res: { statusCode: 200, headers: { 'set-cookie': 'sid=cookie-secret-6' } } }, 'a response');
    const logged = text();
    for (const secret of [
      'header-secret-1',
      'cookie-secret-2',
      'search-secret-3',
      'plain-secret-4',
      'cookie-secret-5',
      'cookie-secret-6',
    ]) {
      expect(logged, secret).not.toContain(secret);
    }
    expect(logged).toContain('"X-TYPESENSE-API-KEY":"[REDACTED]"');
    expect(logged).toContain('connect ECONNREFUSED');
  });
});

describe('request logs of the running app', () => {
  let fixture: CatalogFixture;
  beforeAll(async () => {
    fixture = await catalogFixture(500, 11);
  });
  afterAll(() => fixture.cleanup());

  it('carry no guest token, access code or bearer token, from Express and from the fast lane alike', async () => {
    const { logger, text } = memoryLogger();
    const { app } = testApp({ search: fixture.search, logger });
    const token = 'eyJhbGciOiJIUzI1NiJ9.query-token-secret.sig';
    const code = 'QUERYCODESECRET12345';
    const bearer = 'eyJhbGciOiJIUzI1NiJ9.bearer-secret.sig';

    await request(app).get(`/api/suggest/jsonp?token=${token}&q=yan&callback=jsonp_1`);
    await request(app).get(`/api/orders/ORD-AB12CD34EF?code=${code}`);
    await request(app).get('/api/CustomerActivity/recent-activities').set('Authorization', `Bearer ${bearer}`);
    // The same suggestion twice: the first is answered by Express, the repeat by the fast lane.
    const suggestUrl = `/api/suggest?q=yan&token=${token}`;
    expect((await request(app).get(suggestUrl)).status).toBe(200);
    const servedBefore = app.fastLane.served;
    expect((await request(app).get(suggestUrl)).status).toBe(200);
    expect(app.fastLane.served - servedBefore).toBe(1);
    // The lane writes its line when the answer has gone out.
    await new Promise((resolve) => setTimeout(resolve, 20));

    const logged = text();
    expect(logged).not.toContain('query-token-secret');
    expect(logged).not.toContain(code);
    expect(logged).not.toContain('bearer-secret');
    // The request that carried the bearer header was logged: the check above looked at its line.
    expect(logged).toContain('"url":"/api/CustomerActivity/recent-activities"');
    expect(logged).toContain('"url":"/api/suggest/jsonp?token=[REDACTED]&q=yan&callback=jsonp_1"');
    expect(logged).toContain('"url":"/api/orders/ORD-AB12CD34EF?code=[REDACTED]"');
    const suggestLines = logged
      .split('\n')
      .filter((line) => line.includes('"url":"/api/suggest?q=yan&token=[REDACTED]"'));
    expect(suggestLines).toHaveLength(2);
  });
});
