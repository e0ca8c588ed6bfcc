/** US first (most shoppers), then the rest by name. */
const OTHER_COUNTRIES = [
  'AR',
  'AU',
  'AT',
  'BE',
  'BR',
  'CA',
  'CL',
  'CN',
  'CO',
  'DK',
  'FI',
  'FR',
  'DE',
  'GR',
  'HK',
  'IN',
  'IE',
  'IL',
  'IT',
  'JP',
  'KR',
  'MX',
  'NL',
  'NZ',
  'NO',
  'PH',
  'PL',
  'PT',
  'PR',
  'SG',
  'ZA',
  'ES',
  'SE',
  'CH',
  'AE',
  'GB',
];

/** The billing countries, each with its English name: the United States first, the rest by name. */
export function countryOptions(): { code: string; name: string }[] {
  let names: Intl.DisplayNames | null = null;
  try {
    names = new Intl.DisplayNames(['en'], { type: 'region' });
  } catch {
    names = null;
  }
  const name = (code: string) => names?.of(code) ?? code;
  const rest = OTHER_COUNTRIES.map((code) => ({ code, name: name(code) })).sort((a, b) =>
    a.name.localeCompare(b.name, 'en'),
  );
  return [{ code: 'US', name: name('US') }, ...rest];
}
