import { describe, expect, it, vi } from 'vitest';

/** A fresh copy of the module, with nothing built yet. */
async function freshSeatMaps() {
  vi.resetModules();
  return import('./seat-maps.js');
}

describe('prepareSeatMapTemplate', () => {
  it('builds, slice by slice, the very template seatMapTemplate builds at once', async () => {
    const atOnce = (await freshSeatMaps()).seatMapTemplate('ballpark');
    const sliced = await freshSeatMaps();
    let turns = 0;
    const counting = setInterval(() => turns++, 0);
    await sliced.prepareSeatMapTemplate('ballpark', 0);
    clearInterval(counting);
    expect(sliced.seatMapTemplate('ballpark')).toEqual(atOnce);
    // With no time allowed per slice, the event loop turned between labels.
    expect(turns).toBeGreaterThan(0);
  });

  it('keeps a template already built', async () => {
    const seatMaps = await freshSeatMaps();
    const built = seatMaps.seatMapTemplate('theater');
    await seatMaps.prepareSeatMapTemplate('theater');
    expect(seatMaps.seatMapTemplate('theater')).toBe(built);
  });
});
