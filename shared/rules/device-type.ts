import { keptReads } from '../kept-reads.js';

/** The device classes events and flag rules know. */
export type DeviceType = 'mobile' | 'tablet' | 'desktop';

const TABLET = /iPad|Tablet|PlayBook|Silk|Kindle|KF[A-Z]{2,4}\b|Nexus (?:7|9|10)\b/i;
const MOBILE = /Mobi|iPhone|iPod|Android|Windows Phone|IEMobile|BlackBerry|BB10|Opera Mini|webOS/i;

/**
 * Device class from a User-Agent header (RULES 9.7: device detection covers mobile, tablet, desktop). Android
 * without "Mobile" is a tablet, by Google's convention for the header. An iPad in desktop mode reports itself
 * as a Mac and is counted as desktop: the header alone cannot tell them apart.
 */
export function deviceTypeFromUserAgent(ua: string | undefined): DeviceType {
  if (!ua) return 'desktop';
  return classified(ua);
}

/** User-Agent headers repeat from request to request: the first 1,000 are classified once and kept. */
const classified = keptReads(classify, 1_000, 512);

function classify(ua: string): DeviceType {
  if (TABLET.test(ua)) return 'tablet';
  if (/Android/i.test(ua) && !/Mobile/i.test(ua)) return 'tablet';
  if (MOBILE.test(ua)) return 'mobile';
  return 'desktop';
}
