import { PrivacyChoiceSchema, type PrivacyChoice } from '../../../../shared/schemas/privacy.js';
import { api, apiHeaders, ApiError } from '../../lib/api.js';
import { ensureGuestSession } from '../../lib/session.js';

/** RULES 21: the guest's own data, each call with the guest's token (one is requested first when there is none). */

const ME = '/api/customers/me';

async function failure(res: Response): Promise<ApiError> {
  const body = (await res.json().catch(() => null)) as { error?: { code?: string; message?: string } } | null;
  return new ApiError(res.status, body?.error?.code ?? 'http_error', body?.error?.message ?? `${res.status}`);
}

/** RULES 21.1: the guest's data as the file the server answers (`my-data.json`). */
export async function downloadMyData(): Promise<Blob> {
  await ensureGuestSession();
  const res = await fetch(`${ME}/data`, { headers: apiHeaders(true) });
  if (!res.ok) throw await failure(res);
  return res.blob();
}

/** RULES 21.3: erases the guest's personal data on the server (204, again and again). */
export async function eraseMyData(): Promise<void> {
  await ensureGuestSession();
  const res = await fetch(ME, { method: 'DELETE', headers: apiHeaders(true) });
  if (!res.ok) throw await failure(res);
}

/** RULES 21.4: the guest's stored choice, and whether this browser sends Global Privacy Control. */
export async function readPrivacyChoice(): Promise<PrivacyChoice> {
  await ensureGuestSession();
  return api(`${ME}/privacy`, PrivacyChoiceSchema);
}

/** RULES 21.4: records the choice; the server's cookie then tells every page of it. */
export async function savePrivacyChoice(doNotSellOrShare: boolean): Promise<PrivacyChoice> {
  await ensureGuestSession();
  return api(`${ME}/privacy`, PrivacyChoiceSchema, { method: 'POST', body: JSON.stringify({ doNotSellOrShare }) });
}
