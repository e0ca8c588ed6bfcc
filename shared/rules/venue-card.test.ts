import { describe, expect, it } from 'vitest';
import { venueDocument as venueDoc } from '../../server/test/documents.js';
import { VenueCardSchema } from '../schemas/cards.js';
import type { VenueDocument } from '../schemas/documents.js';
import { venueCard } from './venue-card.js';

describe('venueCard (RULES 5.7 venue card: city, then state for US or country code otherwise)', () => {
  it('builds the card', () => {
    const card = venueCard(venueDoc());
    expect(card).toEqual({
      id: 77,
      name: 'Madison Square Garden',
      address: 'New York, NY',
      url: '/venues/madison-square-garden-77',
    });
    expect(VenueCardSchema.parse(card)).toEqual(card);
  });

  it.each<[string, Partial<VenueDocument>, string]>([
    [
      'London',
      { venue_city: 'London', venue_state: '', venue_state_province_short: '', venue_country_short: 'GB' },
      'London, GB',
    ],
    [
      'Toronto shows the country, not the province',
      { venue_city: 'Toronto', venue_state: 'Ontario', venue_state_province_short: 'ON', venue_country_short: 'CA' },
      'Toronto, CA',
    ],
    ['US without a state code uses the state name', { venue_state_province_short: '' }, 'New York, New York'],
  ])('%s', (_case, extra, address) => {
    expect(venueCard(venueDoc(extra)).address).toBe(address);
  });

  it('slugs names the same way as performers (RULES 2.2)', () => {
    expect(venueCard(venueDoc({ venue_name: 'AT&T Stadium', venue_id: 5 })).url).toBe('/venues/at-and-t-stadium-5');
  });
});
