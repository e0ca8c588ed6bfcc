import type { Page } from './fixtures.js';

/** Fills the checkout form as a shopper in the Bronx would, paying with `card`. */
export async function fillCheckout(page: Page, card = '4242 4242 4242 4242') {
  await page.getByLabel('Email').fill('fan@example.com');
  await page.getByLabel('Full name').fill('Pat Fan');
  await page.getByLabel('Street address').fill('1 E 161st St');
  await page.getByLabel('City').fill('Bronx');
  await page.getByLabel('State or region').fill('NY');
  await page.getByLabel('Country').selectOption('US');
  await page.getByLabel('ZIP code').fill('10451');
  await page.getByLabel('Phone number').fill('+1 718 555 0100');
  await page.getByLabel('Card number').fill(card);
  await page.getByLabel('Expiry month').selectOption('12');
  await page.getByLabel('Expiry year').selectOption(String(new Date().getFullYear() + 2));
  await page.getByLabel('Security code (CVC)').fill('123');
}
