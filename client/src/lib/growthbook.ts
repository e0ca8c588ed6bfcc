import { GrowthBook } from '@growthbook/growthbook-react';
import { trackExperimentViewed } from './analytics.js';
import { pushExposures } from './data-layer.js';
import { deviceType, FLAGS_CLIENT_KEY, gbForceVariations } from './flags.js';
import { getStoredToken, onGuestToken, tokenClaims } from './session.js';

/**
 * RULES 9.1: the experiment service, with the guest id, viewport and URL as attributes. It evaluates remotely
 * (`POST /api/eval/:key`): the server answers each feature's value for this guest and the exposures it makes,
 * so targeting rules, weights and the other variations never reach the browser; the stream only says when to
 * ask again. The SDK sends its `url` option, so it starts as the page's and `useGrowthBookUrl` keeps it current:
 * a page URL's `?<experiment-key>=<index>` forces client-evaluated features as it forces the layout, and the
 * `gb_force` alias goes as forced variations. A forced result is not tracked, so it is no exposure in
 * `window.dataLayer` either. An exposure is also a first-party event, unless the page's layout answer
 * lists it (the server records those). Loaded on demand (`StartFlagsContext` in `./flags.ts`): the first screen
 * carries none of the SDK.
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
