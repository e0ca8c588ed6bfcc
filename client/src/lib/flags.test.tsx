// @vitest-environment happy-dom
import {
  clearCache,
  GrowthBook as GrowthBookClass,
  GrowthBookProvider,
  setPolyfills,
  type GrowthBook,
} from '@growthbook/growthbook-react';
import { act, cleanup, render, waitFor } from '@testing-library/react';
import { BrowserRouter, useNavigate } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storeGuestToken } from '../test/render-page.js';
import { FLAGS_CLIENT_KEY, StartFlagsContext, useFlag, useGrowthBookUrl } from './flags.js';
import { createGrowthBook } from './growthbook.js';

/** A remote evaluation answer: the guest is in `home-layout`'s variation 1. */
const answer = {
  features: {
    recent_trending_search: { defaultValue: false },
    home_layout: {
      defaultValue: 'promos',
      rules: [
        {
          force: 'promos',
          tracks: [
            {
              experiment: { key: 'home-layout', variations: [null, 'promos'] },
              result: {
                value: 'promos',
                variationId: 1,
                key: '1',
                inExperiment: true,
                hashUsed: true,
                hashAttribute: 'id',
                hashValue: 'guest-1',
                featureId: 'home_layout',
              },
            },
          ],
        },
      ],
    },
  },
  dateUpdated: '2026-03-01T00:00:00.000Z',
};

/** Each GrowthBook request, as the SDK made it. */
let requests: { method: string; path: string; body: unknown }[];
const streams: string[] = [];

class FakeEventSource {
  constructor(url: string) {
    streams.push(new URL(url).pathname);
  }
  addEventListener(): void {}
  close(): void {}
}

let gb: GrowthBook | null = null;
beforeEach(() => {
  storeGuestToken();
  requests = [];
  streams.length = 0;
  window.dataLayer = [];
  setPolyfills({
    fetch: (async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = new URL(String(input));
      requests.push({
        method: init.method ?? 'GET',
        path: url.pathname,
        body: init.body ? JSON.parse(String(init.body)) : undefined,
      });
      return new Response(JSON.stringify(answer), {
        headers: { 'Content-Type': 'application/json', 'x-sse-support': 'enabled' },
      });
    }) as typeof fetch,
    EventSource: FakeEventSource as unknown as typeof EventSource,
  });
});
afterEach(() => {
  cleanup();
  gb?.destroy({ destroyAllStreams: true });
  gb = null;
  clearCache();
  localStorage.clear();
  window.history.replaceState(null, '', '/');
});

describe("the client's GrowthBook", () => {
  it("evaluates remotely with the guest's attributes, page URL and gb_force, never reading the payload", async () => {
    window.history.replaceState(null, '', '/?home-layout=0&gb_force=ab-search:1');
    const href = window.location.href;
    gb = createGrowthBook();
    await waitFor(() => expect(gb!.ready).toBe(true));
    expect(requests).toEqual([
      {
        method: 'POST',
        path: `/api/eval/${FLAGS_CLIENT_KEY}`,
        body: {
          attributes: { id: 'guest-1', deviceType: expect.any(String), url: href },
          forcedVariations: { 'ab-search': 1 },
          forcedFeatures: [],
          url: href,
        },
      },
    ]);
    expect(gb.isOn('recent_trending_search')).toBe(false);
    // The answer said the stream is there: the SDK listens on it for the next change.
    await waitFor(() => expect(streams).toEqual([`/sub/${FLAGS_CLIENT_KEY}`]));
  });

  it('pushes the exposure the server evaluated to the data layer once, when the feature is read', async () => {
    gb = createGrowthBook();
    await waitFor(() => expect(gb!.ready).toBe(true));
    expect(window.dataLayer).toEqual([]);
    expect(gb.getFeatureValue('home_layout', 'base')).toBe('promos');
    expect(gb.getFeatureValue('home_layout', 'base')).toBe('promos');
    expect(window.dataLayer).toEqual([{ event: 'experiment_viewed', experiment_id: 'home-layout', variation_id: '1' }]);
  });

  it('asks again, once, for the new URL after an in-app navigation', async () => {
    gb = createGrowthBook();
    await waitFor(() => expect(gb!.ready).toBe(true));
    let go: (to: string) => void = () => {};
    function Page() {
      useGrowthBookUrl();
      go = useNavigate();
      return null;
    }
    render(
      <GrowthBookProvider growthbook={gb}>
        <BrowserRouter>
          <Page />
        </BrowserRouter>
      </GrowthBookProvider>,
    );
    const before = requests.length;
    act(() => go('/category/concerts?gb_force=home-layout:1'));
    const href = window.location.href;
    await waitFor(() => expect(requests.length).toBeGreaterThan(before));
    expect(requests.slice(before)).toEqual([
      {
        method: 'POST',
        path: `/api/eval/${FLAGS_CLIENT_KEY}`,
        body: expect.objectContaining({
          attributes: expect.objectContaining({ url: href }),
          forcedVariations: { 'home-layout': 1 },
          url: href,
        }),
      },
    ]);
  });
});

describe('the flags of the first screen', () => {
  function Probe({ wanted }: { wanted: boolean }) {
    return <p data-testid="flag">{String(useFlag('recent_trending_search', wanted))}</p>;
  }

  it('start nothing until a feature is wanted, read as off until GrowthBook has started, then follow it', async () => {
    const start = vi.fn();
    const tree = (wanted: boolean, growthbook?: GrowthBook) => (
      <StartFlagsContext value={start}>
        <GrowthBookProvider growthbook={growthbook as GrowthBook}>
          <Probe wanted={wanted} />
        </GrowthBookProvider>
      </StartFlagsContext>
    );
    const view = render(tree(false));
    expect(view.getByTestId('flag').textContent).toBe('false');
    expect(start).not.toHaveBeenCalled();
    view.rerender(tree(true));
    expect(start).toHaveBeenCalledTimes(1);
    expect(view.getByTestId('flag').textContent).toBe('false');
    gb = new GrowthBookClass({ features: { recent_trending_search: { defaultValue: true } } });
    view.rerender(tree(true, gb));
    expect(view.getByTestId('flag').textContent).toBe('true');
    expect(start).toHaveBeenCalledTimes(1);
  });
});
