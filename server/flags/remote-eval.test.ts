import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  clearCache,
  GrowthBook,
  setPolyfills,
  type Experiment,
  type Options,
  type Result,
} from '@growthbook/growthbook';
import request from 'supertest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { REMOTE_EVAL_MAX_ENTRIES, REMOTE_EVAL_MAX_URL_LENGTH } from '../../shared/schemas/remote-eval.js';
import { parseEnv } from '../config/env.js';
import { TestEventSource } from '../test/event-source.js';
import { testApp } from '../test/test-app.js';
import { FlagService } from './flag-service.js';
import { StaticFlagSource, type FlagPayload } from './flags-file.js';
import type { RemoteEvaluation } from './remote-eval.js';

/** The test app's key (FLAGS_CLIENT_KEY's default). */
const KEY = 'sdk-storefront';
const PARTNER = 'https://partner.example.com';

/**
 * Flags with everything remote evaluation must keep on the server: weights, coverage, conditions, a saved
 * group, seeds, a prerequisite, and variations the guest was not given.
 */
const payload: FlagPayload = {
  features: {
    plain: { defaultValue: false },
    home_layout: {
      defaultValue: 'base',
      rules: [
        {
          id: 'staff-preview',
          condition: { id: { $inGroup: 'staff' } },
          force: 'staff-only-layout',
        },
        {
          id: 'home-layout-experiment',
          key: 'home-layout',
          name: 'Home layout',
          variations: ['base', 'promos'],
          weights: [0.5, 0.5],
          coverage: 1,
          hashAttribute: 'id',
          hashVersion: 2,
          meta: [
            { key: '0', name: 'base' },
            { key: '1', name: 'promos' },
          ],
        },
      ],
    },
    colour: {
      defaultValue: 'grey',
      rules: [
        {
          id: 'colour-experiment',
          key: 'colour-test',
          name: 'Colour test',
          condition: { deviceType: { $in: ['mobile', 'desktop'] } },
          variations: ['red', 'green', 'blue'],
          weights: [0.2, 0.3, 0.5],
          coverage: 0.8,
          seed: 'colour-seed',
          hashAttribute: 'id',
          hashVersion: 2,
          meta: [
            { key: 'r', name: 'Red' },
            { key: 'g', name: 'Green' },
            { key: 'b', name: 'Blue' },
          ],
        },
      ],
    },
    banner: {
      defaultValue: false,
      rules: [
        {
          id: 'banner-with-promos',
          parentConditions: [{ id: 'home_layout', condition: { value: 'promos' } }],
          force: true,
        },
      ],
    },
  },
  savedGroups: { staff: ['staff-1', 'staff-2'] },
  dateUpdated: '2026-03-01T00:00:00.000Z',
};
const FEATURES = Object.keys(payload.features);

interface Tracked {
  experiment: Experiment<unknown>;
  result: Result<unknown>;
}

const servers: http.Server[] = [];
const services: FlagService[] = [];
afterEach(async () => {
  clearCache();
  setPolyfills({ EventSource: undefined });
  for (const service of services.splice(0)) service.close();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

function appWith(source: StaticFlagSource, env: Record<string, string> = {}) {
  const flags = new FlagService(source);
  services.push(flags);
  const { app } = testApp({ flags, env: parseEnv({ NODE_ENV: 'test', ...env }) });
  return { app, flags };
}

/**
 * The storefront listening on a free port of 127.0.0.1, with what reached it: the bodies of the remote
 * evaluations (as the schema read them) and the addresses of the payload fetches.
 */
async function serve(source: StaticFlagSource) {
  const { app, flags } = appWith(source);
  const payloadFetches: string[] = [];
  const server = http
    .createServer((req, res) => {
      if (req.method === 'GET' && req.url?.startsWith('/api/features/')) payloadFetches.push(req.url);
      app(req, res);
    })
    .listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  const evaluations = vi.spyOn(flags, 'remoteEvaluate');
  return {
    apiHost: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    flags,
    payloadFetches,
    evals: () => evaluations.mock.calls.map(([body]) => body),
  };
}

/** The SDK in remote evaluation mode for one guest, its tracking calls collected. */
async function remoteSdk(apiHost: string, options: Partial<Options> = {}) {
  const tracked: Tracked[] = [];
  const gb = new GrowthBook({
    apiHost,
    clientKey: KEY,
    remoteEval: true,
    trackingCallback: (experiment, result) => void tracked.push({ experiment, result }),
    ...options,
  });
  const init = await gb.init({ timeout: 2_000 });
  expect(init.success, init.error?.message).toBe(true);
  return { gb, tracked };
}

/** The SDK evaluating the same payload itself, as a browser did before remote evaluation. */
function localSdk(attributes: Record<string, unknown>, options: Partial<Options> = {}) {
  const tracked: Tracked[] = [];
  const gb = new GrowthBook({
    attributes,
    features: payload.features,
    savedGroups: payload.savedGroups,
    trackingCallback: (experiment, result) => void tracked.push({ experiment, result }),
    ...options,
  });
  return { gb, tracked };
}

const exposuresOf = (tracked: Tracked[]) => tracked.map((t) => `${t.experiment.key}:${t.result.variationId}`);

describe('POST /api/eval/:clientKey with GrowthBook SDK in remoteEval mode', () => {
  it("gives 200 guests the values and variations the SDK's own evaluation of the payload gives them", async () => {
    const { apiHost } = await serve(new StaticFlagSource(payload));
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const attributes = {
        id: i % 50 === 7 ? 'staff-1' : `guest-${i}`,
        deviceType: i % 3 === 0 ? 'tablet' : 'mobile',
        url: `https://tickets.example/?n=${i}`,
      };
      const remote = await remoteSdk(apiHost, { attributes, url: attributes.url });
      const local = localSdk(attributes, { url: attributes.url });
      for (const key of FEATURES) {
        const value = remote.gb.getFeatureValue(key, null as unknown);
        expect(value, `${attributes.id} ${key}`).toEqual(local.gb.getFeatureValue(key, null as unknown));
        seen.add(`${key}=${JSON.stringify(value)}`);
      }
      expect(exposuresOf(remote.tracked), attributes.id).toEqual(exposuresOf(local.tracked));
      expect(remote.tracked.map((t) => t.result.key)).toEqual(local.tracked.map((t) => t.result.key));
      remote.gb.destroy();
      local.gb.destroy();
    }
    // Every path of the payload was taken: both layouts and the staff's, each colour and none, the banner.
    for (const value of [
      'home_layout="base"',
      'home_layout="promos"',
      'home_layout="staff-only-layout"',
      'colour="red"',
      'colour="green"',
      'colour="blue"',
      'colour="grey"',
      'banner=true',
      'banner=false',
    ])
      expect(seen, value).toContain(value);
  });

  it(
    'fires the tracking callback when a remotely evaluated experiment is read, ' + 'with its key and variation',
    async () => {
      const { apiHost } = await serve(new StaticFlagSource(payload));
      // The first guest the colour test (80% coverage) takes in.
      let n = 0;
      const guest = () => ({ id: `guest-${n}`, deviceType: 'mobile' });
      let local = localSdk(guest());
      while (local.gb.getFeatureValue('colour', 'grey') === 'grey') {
        n++;
        local = localSdk(guest());
      }
      const attributes = guest();
      const expected = local.gb.getFeatureValue('colour', 'grey');
      expect(local.tracked).toHaveLength(1);

      const { gb, tracked } = await remoteSdk(apiHost, { attributes });
      expect(tracked).toEqual([]);
      expect(gb.getFeatureValue('colour', 'grey')).toBe(expected);
      expect(gb.getFeatureValue('colour', 'grey')).toBe(expected);
      expect(tracked).toHaveLength(1);
      const [{ experiment, result }] = tracked as [Tracked];
      const want = local.tracked[0]!;
      expect(experiment.key).toBe('colour-test');
      expect(experiment.name).toBe('Colour test');
      expect(result).toMatchObject({
        variationId: want.result.variationId,
        key: want.result.key,
        name: want.result.name,
        value: expected,
        inExperiment: true,
        hashUsed: true,
        hashAttribute: 'id',
        hashValue: attributes.id,
        featureId: 'colour',
      });
      expect(experiment.variations[result.variationId]).toBe(expected);
      gb.destroy();
    },
  );

  it('honours forced variations and the URL override as the SDK does, and tracks neither', async () => {
    const { apiHost, evals } = await serve(new StaticFlagSource(payload));
    for (const id of ['guest-1', 'guest-2', 'guest-3', 'guest-4']) {
      const forced = await remoteSdk(apiHost, {
        attributes: { id, deviceType: 'mobile' },
        forcedVariations: { 'home-layout': 1, 'colour-test': 2 },
      });
      expect(forced.gb.getFeatureValue('home_layout', 'base')).toBe('promos');
      expect(forced.gb.getFeatureValue('colour', 'grey')).toBe('blue');
      // The prerequisite follows the forced variation.
      expect(forced.gb.isOn('banner')).toBe(true);
      expect(forced.tracked).toEqual([]);
      forced.gb.destroy();

      const byUrl = await remoteSdk(apiHost, {
        attributes: { id, deviceType: 'mobile' },
        url: 'https://tickets.example/?home-layout=0&colour-test=1',
      });
      expect(byUrl.gb.getFeatureValue('home_layout', 'promos')).toBe('base');
      expect(byUrl.gb.getFeatureValue('colour', 'grey')).toBe('green');
      expect(byUrl.tracked).toEqual([]);
      byUrl.gb.destroy();
    }
    expect(evals()[0]).toEqual({
      attributes: { id: 'guest-1', deviceType: 'mobile' },
      forcedVariations: { 'home-layout': 1, 'colour-test': 2 },
      forcedFeatures: [],
      url: '',
    });
  });

  it(
    'answers forced features with their values and no exposure, ' + 'sent as the SDK sends its map: [key, value] pairs',
    async () => {
      const { apiHost, evals } = await serve(new StaticFlagSource(payload));
      const gb = new GrowthBook({ apiHost, clientKey: KEY, remoteEval: true, attributes: { id: 'guest-1' } });
      gb.setForcedFeatures(
        new Map<string, unknown>([
          ['home_layout', 'forced-layout'],
          ['colour', 'black'],
        ]),
      );
      await gb.init({ timeout: 2_000 });
      expect(evals()).toEqual([
        {
          attributes: { id: 'guest-1' },
          forcedVariations: {},
          forcedFeatures: [
            ['home_layout', 'forced-layout'],
            ['colour', 'black'],
          ],
          url: '',
        },
      ]);
      const answer = gb.getPayload() as RemoteEvaluation;
      expect(answer.features.home_layout).toEqual({ defaultValue: 'forced-layout' });
      expect(answer.features.colour).toEqual({ defaultValue: 'black' });
      gb.destroy();
    },
  );

  it('reaches an SDK in remoteEval and streaming mode when the flags change: it evaluates again', async () => {
    setPolyfills({ EventSource: TestEventSource });
    const source = new StaticFlagSource(payload);
    const { apiHost, flags, evals, payloadFetches } = await serve(source);
    const gb = new GrowthBook({
      apiHost,
      clientKey: KEY,
      remoteEval: true,
      attributes: { id: 'guest-5', deviceType: 'mobile' },
    });
    try {
      await gb.init({ streaming: true, timeout: 2_000 });
      const before = gb.getFeatureValue('home_layout', 'none');
      expect(['base', 'promos']).toContain(before);
      await vi.waitFor(() => expect(flags.subscriberCount).toBe(1));
      const asked = evals().length;

      source.set({
        ...payload,
        features: { ...payload.features, home_layout: { defaultValue: 'edited' } },
      });
      await vi.waitFor(() => expect(gb.getFeatureValue('home_layout', 'none')).toBe('edited'));
      expect(evals().length).toBeGreaterThan(asked);
      expect(evals().at(-1)).toMatchObject({ attributes: { id: 'guest-5', deviceType: 'mobile' } });
      // Remote evaluation throughout: the payload itself was never fetched.
      expect(payloadFetches).toEqual([]);
      expect(JSON.stringify(gb.getPayload())).not.toMatch(/weights|coverage|condition|staff/);
    } finally {
      gb.destroy({ destroyAllStreams: true });
    }
  });
});

/** The raw answer for one body, through the whole app. */
const evaluate = (app: http.RequestListener, body: unknown) =>
  request(app).post(`/api/eval/${KEY}`).set('Content-Type', 'application/json').send(JSON.stringify(body));

describe('POST /api/eval/:clientKey (the raw answer)', () => {
  it(
    'answers values, exposures and dateUpdated, and none of the rules, ' +
      'weights, coverage, conditions or other variations',
    async () => {
      const { app } = appWith(new StaticFlagSource(payload));
      for (let i = 0; i < 40; i++) {
        const id = i === 0 ? 'staff-1' : `guest-${i}`;
        const res = await evaluate(app, { attributes: { id, deviceType: 'desktop' }, url: 'https://tickets.example/' });
        expect(res.status).toBe(200);
        expect(res.headers['x-sse-support']).toBe('enabled');
        expect(res.headers['cache-control']).toBe('private, no-store');
        const text = res.text;
        for (const secret of [
          'weights',
          'coverage',
          'condition',
          'ranges',
          'seed',
          'hashVersion',
          'namespace',
          'savedGroups',
          'staff-2',
          'bucket',
        ])
          expect(text, `${id}: ${secret}`).not.toContain(secret);
        const answer = res.body as RemoteEvaluation;
        expect(Object.keys(answer).sort()).toEqual(['dateUpdated', 'features']);
        expect(answer.dateUpdated).toBe(payload.dateUpdated);
        expect(Object.keys(answer.features).sort()).toEqual([...FEATURES].sort());
        const local = localSdk({ id, deviceType: 'desktop' }, { url: 'https://tickets.example/' });
        for (const [key, feature] of Object.entries(answer.features)) {
          expect(feature.defaultValue, key).toEqual(local.gb.getFeatureValue(key, null as unknown));
          for (const rule of feature.rules ?? []) {
            expect(Object.keys(rule).sort()).toEqual(['force', 'tracks']);
            expect(rule.force).toEqual(feature.defaultValue);
            for (const { experiment, result } of rule.tracks) {
              expect(Object.keys(experiment).sort()).toEqual(['key', 'meta', 'name', 'variations']);
              // Only the assigned variation is told, at its index.
              experiment.variations.forEach((v, index) =>
                expect(v).toEqual(index === result.variationId ? result.value : null),
              );
              experiment.meta!.forEach((meta, index) =>
                index === result.variationId ? expect(meta.key).toBe(result.key) : expect(meta).toEqual({}),
              );
            }
          }
        }
        // The other variations' values and names are nowhere in the answer.
        const layout = answer.features.home_layout!.defaultValue;
        if (layout === 'base') expect(text).not.toContain('promos');
        if (layout === 'promos') expect(text).not.toMatch(/"base"/);
        const colour = answer.features.colour!.defaultValue as string;
        for (const other of ['red', 'green', 'blue', 'Red', 'Green', 'Blue'].filter((c) => c.toLowerCase() !== colour))
          expect(text, `${id} ${colour}`).not.toContain(`"${other}"`);
        local.gb.destroy();
      }
    },
  );

  it('lists an exposure with every feature it decides, a prerequisite included', async () => {
    const { app } = appWith(new StaticFlagSource(payload));
    // A guest in the promos variation: the banner is on because of it, so reading the banner is an exposure too.
    for (let i = 0; ; i++) {
      const res = await evaluate(app, { attributes: { id: `guest-${i}` } });
      const answer = res.body as RemoteEvaluation;
      if (answer.features.home_layout!.defaultValue !== 'promos') continue;
      expect(answer.features.banner!.defaultValue).toBe(true);
      const keys = (feature: string) =>
        answer.features[feature]!.rules![0].tracks.map((t) => `${t.experiment.key}:${t.result.variationId}`);
      expect(keys('home_layout')).toEqual(['home-layout:1']);
      expect(keys('banner')).toEqual(['home-layout:1']);
      break;
    }
  });

  it('answers an unknown client key with 400 "Invalid API Key", as /api/features does', async () => {
    const { app } = appWith(new StaticFlagSource(payload));
    const res = await request(app).post('/api/eval/sdk-other').send({});
    expect(res.status).toBe(400);
    expect(res.headers['x-sse-support']).toBeUndefined();
    expect(res.body).toEqual({ error: { code: 'unknown_client_key', message: 'Invalid API Key' } });
  });

  it('answers each broken body with a 400 naming the problem', async () => {
    const { app } = appWith(new StaticFlagSource(payload));
    const cases: [string, unknown, RegExp][] = [
      ['an array', [], /body must be a JSON object/],
      ['attributes as an array', { attributes: ['id'] }, /^attributes: must be a JSON object/],
      ['attributes as a string', { attributes: 'guest-1' }, /^attributes: must be a JSON object/],
      [
        'a negative variation',
        { forcedVariations: { 'home-layout': -1 } },
        /^forcedVariations\.home-layout: .*0 or more/,
      ],
      [
        'a fractional variation',
        { forcedVariations: { 'home-layout': 0.5 } },
        /^forcedVariations\.home-layout: .*whole number/,
      ],
      [
        'a variation as text',
        { forcedVariations: { 'home-layout': '1' } },
        /^forcedVariations\.home-layout: .*variation index/,
      ],
      ['forced variations as a list', { forcedVariations: [1] }, /^forcedVariations: must be a JSON object/],
      ['forced features as an object', { forcedFeatures: { plain: true } }, /^forcedFeatures: must be a JSON array/],
      [
        'a forced feature without its value',
        { forcedFeatures: [['plain']] },
        /^forcedFeatures\.0: .*\[featureKey, value\]/,
      ],
      ['a url that is no string', { url: 42 }, /^url: must be a string/],
      ['a url too long', { url: `https://x/${'a'.repeat(REMOTE_EVAL_MAX_URL_LENGTH)}` }, /^url: must be at most/],
      [
        'too many attributes',
        { attributes: Object.fromEntries(Array.from({ length: REMOTE_EVAL_MAX_ENTRIES + 1 }, (_, i) => [`a${i}`, 1])) },
        /^attributes: must hold at most/,
      ],
    ];
    for (const [what, body, message] of cases) {
      const res = await evaluate(app, body);
      expect(res.status, what).toBe(400);
      expect(res.body.error.code, what).toBe('invalid_request');
      expect(res.body.error.message, what).toMatch(message);
    }

    const malformed = await request(app)
      .post(`/api/eval/${KEY}`)
      .set('Content-Type', 'application/json')
      .send('{"attributes": {');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.message).toMatch(/JSON/);
    // JSON that is no object or array is refused by the API's JSON parser before the schema sees it.
    for (const primitive of ['"attributes"', 'null', '42']) {
      const res = await request(app).post(`/api/eval/${KEY}`).set('Content-Type', 'application/json').send(primitive);
      expect(res.status, primitive).toBe(400);
      expect(res.body.error.message, primitive).toMatch(/^The body must be a JSON object or array; this one is /);
    }

    const notJson = await request(app).post(`/api/eval/${KEY}`).set('Content-Type', 'text/plain').send('id=1');
    expect(notJson.status).toBe(415);
    expect(notJson.body.error).toEqual({
      code: 'unsupported_media_type',
      message: 'Send the body as JSON, with Content-Type: application/json; this one is "text/plain"',
    });

    // Past the API's body limit (RULES 8.3: 64 KB) the body is refused unread, as everywhere in the API.
    const huge = await evaluate(app, { attributes: { id: 'x'.repeat(70_000) } });
    expect(huge.status).toBe(413);
    expect(huge.body.error.message).toMatch(/too large/);
  });

  it('follows the CORS allow-list of /api/features, preflights included', async () => {
    const { app } = appWith(new StaticFlagSource(payload), { CORS_ORIGINS: PARTNER });
    for (const [origin, allowed] of [
      [PARTNER, true],
      ['https://evil.example.net', false],
    ] as const) {
      const features = await request(app).get(`/api/features/${KEY}`).set('Origin', origin);
      const evaluated = await evaluate(app, {}).set('Origin', origin);
      expect(evaluated.status).toBe(200);
      expect(evaluated.headers['access-control-allow-origin']).toBe(features.headers['access-control-allow-origin']);
      expect(evaluated.headers['access-control-allow-origin']).toBe(allowed ? origin : undefined);
    }
    const preflight = await request(app)
      .options(`/api/eval/${KEY}`)
      .set('Origin', PARTNER)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'Content-Type');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(PARTNER);
    expect(preflight.headers['access-control-allow-methods']).toContain('POST');
    expect(preflight.headers['access-control-allow-headers']).toContain('Content-Type');
  });

  it('counts /api/features and /api/eval against one per-client limit, with a 429 naming flag requests', async () => {
    const { app } = appWith(new StaticFlagSource(payload), {
      RATE_LIMIT_FLAGS_PER_MINUTE: '2',
      CORS_ORIGINS: PARTNER,
    });
    await request(app).get(`/api/features/${KEY}`).expect(200);
    await evaluate(app, {}).expect(200);
    for (const over of [await evaluate(app, {}), await request(app).get(`/api/features/${KEY}`)]) {
      expect(over.status).toBe(429);
      expect(over.body.error).toMatchObject({ code: 'rate_limited', message: expect.stringContaining('flag') });
      expect(over.headers.ratelimit).toMatch(/^"flags"; r=0/);
    }
    // After CORS: a page on an allowed origin can read the refusal.
    const refused = await evaluate(app, {}).set('Origin', PARTNER);
    expect(refused.status).toBe(429);
    expect(refused.headers['access-control-allow-origin']).toBe(PARTNER);
  });
});
