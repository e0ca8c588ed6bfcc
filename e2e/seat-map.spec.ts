import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from './fixtures.js';

interface ListingJson {
  id: number;
  section: string;
}

/**
 * An event of the Yankees (a ballpark) whose listings for one ticket span two sections or more, found through
 * the API as a shopper's browser would read it; answers its page address and its listings.
 */
async function eventWithSections(request: APIRequestContext): Promise<{ url: string; listings: ListingJson[] }> {
  const suggestions = await (await request.get('/api/suggest?q=yankees')).json();
  const performer =
    suggestions.performers.find((p: { name: string }) => /Yankees/.test(p.name)) ?? suggestions.performers[0];
  const slug = performer.url.split('/').at(-1);
  const page = await (await request.get(`/api/performers/${slug}`)).json();
  const events: { url: string }[] = page.events ?? page.upcomingEvents ?? [];
  for (const e of events.slice(0, 12)) {
    const eventSlug = e.url.split('/').at(-1);
    const body = await (await request.get(`/api/events/${eventSlug}/listings?quantity=1`)).json();
    const listings: ListingJson[] = body.listings ?? [];
    if (new Set(listings.map((l) => l.section)).size >= 2) return { url: e.url, listings };
  }
  throw new Error('no event with listings in two sections');
}

async function openEvent(page: Page, url: string) {
  await page.goto(`${url}?quantity=1`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const tickets = page.getByRole('region', { name: 'Tickets' });
  await expect(tickets.getByText(/\d+ listings? for 1 ticket/)).toBeVisible();
  await expect(page.locator('.seat-map__svg')).toBeVisible();
  return tickets;
}

/** Opens the list of sections (closed when it is long) from the keyboard. */
async function openSectionList(page: Page) {
  const summary = page.getByText(/^Choose sections from a list/);
  if ((await page.locator('details.section-list').getAttribute('open')) === null) {
    await summary.focus();
    await page.keyboard.press('Enter');
  }
  await expect(page.locator('details.section-list')).toHaveAttribute('open', '');
}

const listingTitles = (page: Page) => page.getByRole('region', { name: 'Tickets' }).locator('.listing__title');
const mapSection = (page: Page, name: string) => page.locator(`.seat-map__svg [data-section="${name}"]`);

/** Presses the pan buttons until the section's label is inside the map's frame. */
async function panTo(page: Page, section: string) {
  for (let i = 0; i < 30; i++) {
    const label = (await mapSection(page, section).locator('text').first().boundingBox())!;
    const frame = (await page.locator('.seat-map__svg').boundingBox())!;
    const [x, y] = [label.x + label.width / 2, label.y + label.height / 2];
    const margin = 12;
    const direction =
      x < frame.x + margin
        ? 'Pan left'
        : x > frame.x + frame.width - margin
          ? 'Pan right'
          : y < frame.y + margin
            ? 'Pan up'
            : y > frame.y + frame.height - margin
              ? 'Pan down'
              : null;
    if (!direction) return;
    await page.getByRole('button', { name: direction }).click();
  }
  throw new Error(`could not pan to ${section}`);
}

test('the seat map filters the listings by mouse, and a listing outlines its section', async ({
  page,
  request,
}, info) => {
  const { url, listings } = await eventWithSections(request);
  const section = listings[0]!.section;
  const tickets = await openEvent(page, url);
  const total = await listingTitles(page).count();
  expect(total).toBe(listings.length);

  // On a phone the wedges are small: zoom in, then pan with the buttons until the section is in the frame.
  if (info.project.name === 'phone') {
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await panTo(page, section);
  }
  await mapSection(page, section).locator('text').first().click({ force: true });
  await expect(mapSection(page, section)).toHaveAttribute('data-selected', 'true');
  await openSectionList(page);
  await expect(tickets.getByRole('button', { name: new RegExp(`^${section}, from`) })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  const expected = listings.filter((l) => l.section === section).length;
  await expect(listingTitles(page)).toHaveCount(expected);
  for (const title of await listingTitles(page).allTextContents()) expect(title).toContain(section);
  await expect(tickets.getByText(`Showing tickets in ${section}.`)).toBeVisible();

  await tickets
    .getByRole('button', { name: `Show ${section} on the map` })
    .first()
    .click();
  await expect(mapSection(page, section)).toHaveClass(/seat-map__section--highlighted/);
  await expect(tickets.getByText(`${section} is outlined on the map.`)).toBeVisible();

  await tickets.getByRole('button', { name: 'Clear sections' }).click();
  await expect(listingTitles(page)).toHaveCount(total);
  await expect(mapSection(page, section)).toHaveAttribute('data-selected', 'false');
});

test('the section list is the keyboard path: select a section, show a listing on the map, clear', async ({
  page,
  request,
}) => {
  const { url, listings } = await eventWithSections(request);
  const sections = [...new Set(listings.map((l) => l.section))];
  const [first, second] = [sections[0]!, sections[1]!];
  const tickets = await openEvent(page, url);
  const total = await listingTitles(page).count();

  await openSectionList(page);
  const choice = tickets.getByRole('button', { name: new RegExp(`^${first}, from \\$[\\d,.]+, \\d+ listings?`) });
  await choice.focus();
  await page.keyboard.press('Enter');
  await expect(choice).toHaveAttribute('aria-pressed', 'true');
  await expect(listingTitles(page)).toHaveCount(listings.filter((l) => l.section === first).length);

  // A second section adds its listings.
  await tickets.getByRole('button', { name: new RegExp(`^${second}, from`) }).focus();
  await page.keyboard.press('Space');
  await expect(listingTitles(page)).toHaveCount(
    listings.filter((l) => l.section === first || l.section === second).length,
  );

  const show = tickets.getByRole('button', { name: `Show ${first} on the map` }).first();
  await show.focus();
  await page.keyboard.press('Enter');
  await expect(show).toHaveAttribute('aria-pressed', 'true');
  await expect(mapSection(page, first)).toHaveClass(/seat-map__section--highlighted/);

  await tickets.getByRole('button', { name: 'Clear sections' }).focus();
  await page.keyboard.press('Enter');
  await expect(listingTitles(page)).toHaveCount(total);
  await expect(choice).toHaveAttribute('aria-pressed', 'false');
});

test('zoom and pan buttons move the map, and Reset shows all of it', async ({ page, request }) => {
  const { url } = await eventWithSections(request);
  await openEvent(page, url);
  const svg = page.locator('.seat-map__svg');
  const whole = await svg.getAttribute('viewBox');
  const box = async () => (await svg.getAttribute('viewBox'))!.split(' ').map(Number);
  await page.getByRole('button', { name: 'Zoom in' }).click();
  const zoomed = await box();
  expect(zoomed[2]).toBeLessThan(Number(whole!.split(' ')[2]));
  await page.getByRole('button', { name: 'Pan right' }).click();
  expect((await box())[0]).toBeGreaterThan(zoomed[0]!);
  await page.getByRole('button', { name: 'Pan down' }).click();
  expect((await box())[1]).toBeGreaterThan(zoomed[1]!);
  await page.getByRole('button', { name: 'Zoom out' }).click();
  expect((await box())[2]).toBeGreaterThan(zoomed[2]!);
  await page.getByRole('button', { name: 'Reset' }).click();
  await expect(svg).toHaveAttribute('viewBox', whole!);
});

test('no accessibility violations on an event page with its seat map, a section chosen', async ({ page, request }) => {
  const { url, listings } = await eventWithSections(request);
  const tickets = await openEvent(page, url);
  await openSectionList(page);
  await tickets.getByRole('button', { name: new RegExp(`^${listings[0]!.section}, from`) }).click();
  await page.waitForLoadState('networkidle');
  const results = await new AxeBuilder({ page }).analyze();
  expect(
    results.violations.map(
      (v) =>
        `${v.id}: ${v.help} (${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join('; ')})`,
    ),
  ).toEqual([]);
});
