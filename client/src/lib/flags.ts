import { GrowthBook } from '@growthbook/growthbook-react';
import { pushExposures } from './data-layer.js';
import { getStoredToken, onGuestToken, tokenClaims } from './session.js';

/** The server serves GrowthBook's API at its own origin: features at /api/features/:key, updates at /sub/:key. */
export const FLAGS_CLIENT_KEY = String(import.meta.env.VITE_FLAGS_CLIENT_KEY ?? 'sdk-storefront');

export function deviceType(): 'mobile' | 'tablet' | 'desktop' {
  const w = window.innerWidth;
  return w < 768 ? 'mobile' : w < 1024 ? 'tablet' : 'desktop';
}

/** Spec §7: the experiment service, with the guest id, viewport and URL as attributes. */
export function createGrowthBook(): GrowthBook {
  const exposed = new Set<string>();
  const gb = new GrowthBook({
    apiHost: window.location.origin,
    clientKey: FLAGS_CLIENT_KEY,
    attributes: { id: guestId(getStoredToken()), deviceType: deviceType(), url: window.location.href },
    trackingCallback: (experiment, result) => pushExposures([{ key: experiment.key, variationId: String(result.key) }], exposed),
  });
  onGuestToken((token) => void gb.setAttributes({ ...gb.getAttributes(), id: guestId(token) }));
  void gb.init({ streaming: true, timeout: 2_000 });
  return gb;
}

function guestId(token: string | null): string {
  return (token && tokenClaims(token)?.sub) || '';
}
