import { GrowthBook, useGrowthBook } from '@growthbook/growthbook-react';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import type { QueryParam } from '../../../shared/schemas/api-calls.js';
import { isTrackingParam } from '../../../shared/rules/tracking-params.js';
import { trackExperimentViewed } from './analytics.js';
import { pushExposures } from './data-layer.js';
import { getStoredToken, onGuestToken, tokenClaims } from './session.js';

/**
 * The server serves GrowthBook's API at its own origin: remote evaluation at /api/eval/:key, change events at
 * /sub/:key (the payload itself, at /api/features/:key, is not read by the browser).
 */
export const FLAGS_CLIENT_KEY = String(import.meta.env.VITE_FLAGS_CLIENT_KEY ?? 'sdk-storefront');

export function deviceType(): 'mobile' | 'tablet' | 'desktop' {
  const w = window.innerWidth;
  return w < 768 ? 'mobile' : w < 1024 ? 'tablet' : 'desktop';
}

/**
 * RULES 9.1: the experiment service, with the guest id, viewport and URL as attributes. It evaluates remotely
 * (`POST /api/eval/:key`): the server answers each feature's value for this guest and the exposures it makes,
 * so targeting rules, weights and the other variations never reach the browser; the stream only says when to
 * ask again. The SDK sends its `url` option, so it starts as the page's and `useGrowthBookUrl` keeps it current:
 * a page URL's `?<experiment-key>=<index>` forces client-evaluated features as it forces the layout, and the
 * `gb_force` alias goes as forced variations. A forced result is not tracked, so it is no exposure in
 * `window.dataLayer` either. An exposure is also a first-party event, unless the page's layout answer
 * lists it (the server records those).
 */
export function createGrowthBook(): GrowthBook {
  const exposed = new Set<string>();
  const url = window.location.href;
  const gb = new GrowthBook({
    apiHost: window.location.origin,
    clientKey: FLAGS_CLIENT_KEY,
    remoteEval: true,
    attributes: { id: guestId(getStoredToken()), deviceType: deviceType(), url },
    url,
    forcedVariations: gbForceVariations(window.location.search),
    trackingCallback: (experiment, result) => {
      pushExposures([{ key: experiment.key, variationId: String(result.key) }], exposed);
      trackExperimentViewed(experiment.key, String(result.key));
    },
  });
  onGuestToken((token) => void gb.setAttributes({ ...gb.getAttributes(), id: guestId(token) }));
  void gb.init({ streaming: true, timeout: 2_000 });
  return gb;
}

function guestId(token: string | null): string {
  return (token && tokenClaims(token)?.sub) || '';
}

/**
 * After each in-app navigation, tells GrowthBook the page URL (as its SDK asks of single-page apps). Each change
 * asks the server to evaluate again; made one after the other without waiting, they go as one request.
 */
export function useGrowthBookUrl(): void {
  const gb = useGrowthBook();
  const { pathname, search, hash } = useLocation();
  useEffect(() => {
    if (!gb) return;
    const url = window.location.href;
    if (gb.getAttributes().url === url) return;
    void gb.setURL(url);
    void gb.setForcedVariations(gbForceVariations(window.location.search));
    void gb.setAttributes({ ...gb.getAttributes(), url });
  }, [gb, pathname, search, hash]);
}

/** The layout API's own parameters: a page URL's are not passed on (the shopper's place is chosen in the page). */
const LAYOUT_API_PARAMS = new Set(['brand', 'lat', 'lng', 'zip']);

/**
 * The page URL's parameters, passed on to `/api/layout/*` as GrowthBook's SDK reads the page URL at each
 * evaluation: `?home-layout=1` (or the `gb_force` alias) forces the server's evaluation of the layout as it forces
 * the client's, and the server ignores every parameter that names no experiment, as the SDK does. Everything but
 * the layout API's own parameters and the tracking parameters (RULES 2.10: a per-recipient `utm_content` would
 * make every mail's page a layout of its own) goes, in the page's order. `search` is the current location's
 * (`?a=1&b=2` or empty).
 */
export function layoutPageParams(search: string): QueryParam[] {
  return [...new URLSearchParams(search)].filter(([name]) => !LAYOUT_API_PARAMS.has(name) && !isTrackingParam(name));
}

/**
 * The `gb_force=key:index[,key:index]` alias of a page URL as GrowthBook forced variations, for the client's
 * own evaluations (the SDK reads `?<experiment-key>=<index>` itself). What is not that format is ignored here,
 * as the SDK ignores an override it cannot use; the layout request, which carries it too, answers it with a 400.
 */
export function gbForceVariations(search: string): Record<string, number> {
  const forced: Record<string, number> = {};
  for (const part of (new URLSearchParams(search).get('gb_force') ?? '').split(',')) {
    const match = /^([A-Za-z0-9][A-Za-z0-9_.-]*):(0|[1-9][0-9]{0,5})$/.exec(part);
    if (match && match[1] !== '__proto__') forced[match[1]!] = Number(match[2]);
  }
  return forced;
}
