import { describe, expect, it } from 'vitest';
import {
  addressWithoutTracking,
  isTrackingParam,
  trackingParamPattern,
  withoutTrackingParams,
} from './tracking-params.js';

describe('tracking parameters (RULES 2.10)', () => {
  it('are the campaign and click ids, by prefix or name, in any case', () => {
    for (const name of ['utm_source', 'utm_content', 'UTM_Campaign', 'gclid', 'fbclid', 'msclkid', 'mc_eid', '_ga'])
      expect(isTrackingParam(name), name).toBe(true);
    for (const name of ['home-layout', 'gb_force', 'kwds', 'page', 'quantity', 'utm', 'zip', 'ref'])
      expect(isTrackingParam(name), name).toBe(false);
  });

  it('leave an address with the rest in order, and no question mark when nothing is left', () => {
    expect(addressWithoutTracking('/?utm_source=mail&utm_content=r123')).toBe('/');
    expect(addressWithoutTracking('/?a=1&utm_source=x&b=2&gclid=9&&c')).toBe('/?a=1&b=2&c');
    expect(addressWithoutTracking('/results-general?kwds=utm_source%3Dx&utm_id')).toBe(
      '/results-general?kwds=utm_source%3Dx',
    );
    expect(addressWithoutTracking('/events/x-1')).toBe('/events/x-1');
    // Spelled percent-encoded, still known.
    expect(withoutTrackingParams('utm%5Fsource=x&q=1')).toBe('q=1');
    expect(withoutTrackingParams('%E0%A4%A=1&utm_x=2')).toBe('%E0%A4%A=1');
  });

  it('are one pattern for the shared cache that takes out exactly what the server takes out', () => {
    const pattern = new RegExp(`(^|&)${trackingParamPattern()}(?=&|$)`, 'gi');
    const strip = (search: string) =>
      search
        .replace(pattern, '')
        .split('&')
        .filter((p) => p !== '')
        .join('&');
    for (const search of [
      'utm_source=mail&utm_content=r1',
      'a=1&utm_source=x&b=2&gclid=9',
      'kwds=utm_source%3Dx&utm_id',
      'home-layout=1&fbclid=abc&msclkid=def&zip=10001',
      'utm_campaignx=1&gclidy=2',
    ])
      expect(strip(search), search).toBe(withoutTrackingParams(search));
  });
});
