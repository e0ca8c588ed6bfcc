import { CheckoutSchema, type CheckoutRequest } from '../../../../shared/schemas/commerce.js';
import { SANDBOX_APPLE_PAY_TOKEN } from './apple-pay.js';
import type { FieldIssue } from './buying-api.js';
import type { PaymentType } from './tracking.js';

/** Each form field and the path the checkout schema and the server's 400 `details` use for it. */
export const FIELD_PATHS = {
  email: 'email',
  name: 'billingAddress.name',
  address1: 'billingAddress.address1',
  city: 'billingAddress.city',
  state: 'billingAddress.state',
  countryCode: 'billingAddress.countryCode',
  postalCode: 'billingAddress.postalCode',
  phoneNumber: 'billingAddress.phoneNumber',
  promoCode: 'promoCode',
  cardNumber: 'payment.cardNumber',
  expMonth: 'payment.expMonth',
  expYear: 'payment.expYear',
  cvc: 'payment.cvc',
} as const;

export type FieldName = keyof typeof FIELD_PATHS;
export type CheckoutValues = Record<FieldName, string>;
export type FieldErrors = Partial<Record<FieldName, string>>;

const CARD_FIELDS: readonly FieldName[] = ['cardNumber', 'expMonth', 'expYear', 'cvc'];
const FIELD_BY_PATH = new Map<string, FieldName>(
  Object.entries(FIELD_PATHS).map(([field, path]) => [path, field as FieldName]),
);

export const EMPTY_VALUES: CheckoutValues = {
  email: '',
  name: '',
  address1: '',
  city: '',
  state: '',
  countryCode: 'US',
  postalCode: '',
  phoneNumber: '',
  promoCode: '',
  cardNumber: '',
  expMonth: '',
  expYear: '',
  cvc: '',
};

export function fieldForPath(path: string): FieldName | undefined {
  return FIELD_BY_PATH.get(path);
}

/** The server's field issues on the form's fields; issues on no known field come back as `rest`. */
export function mapServerIssues(details: FieldIssue[]): { errors: FieldErrors; rest: string[] } {
  const errors: FieldErrors = {};
  const rest: string[] = [];
  for (const issue of details) {
    const field = fieldForPath(issue.path);
    if (field) errors[field] ??= issue.message;
    else rest.push(issue.message);
  }
  return { errors, rest };
}

export type ValidationResult =
  { ok: true; request: CheckoutRequest } | { ok: false; errors: FieldErrors; rest: string[] };

/**
 * Checks the form with the schema the server checks the request with, so the shopper sees the same messages
 * before sending. Card fields count only when paying by card.
 */
export function validateCheckout(
  values: CheckoutValues,
  cartId: string,
  method: PaymentType,
  now = new Date(),
): ValidationResult {
  const payment =
    method === 'card'
      ? {
          method: 'card' as const,
          cardNumber: values.cardNumber.replace(/[\s-]/g, ''),
          expMonth: values.expMonth === '' ? 0 : Number(values.expMonth),
          expYear: values.expYear === '' ? 0 : Number(values.expYear),
          cvc: values.cvc.trim(),
        }
      : { method: 'applepay' as const, token: SANDBOX_APPLE_PAY_TOKEN };
  const promoCode = values.promoCode.trim();
  const input = {
    cartId,
    email: values.email.trim(),
    billingAddress: {
      name: values.name,
      address1: values.address1,
      city: values.city,
      state: values.state,
      countryCode: values.countryCode,
      postalCode: values.postalCode,
      phoneNumber: values.phoneNumber,
    },
    ...(promoCode ? { promoCode } : {}),
    payment,
  };
  const parsed = CheckoutSchema.safeParse(input);
  const errors: FieldErrors = {};
  const rest: string[] = [];
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = fieldForPath(issue.path.map(String).join('.'));
      if (field) errors[field] ??= issue.message;
      else rest.push(issue.message);
    }
  }
  if (method === 'card') {
    // Selects start empty: say what to choose rather than the schema's range message.
    if (values.expMonth === '') errors.expMonth = 'Choose the expiry month';
    if (values.expYear === '') errors.expYear = 'Choose the expiry year';
    else if (errors.expYear) errors.expYear = 'Choose a valid expiry year';
    const month = Number(values.expMonth);
    const year = Number(values.expYear);
    if (
      !errors.expMonth &&
      !errors.expYear &&
      (year < now.getFullYear() || (year === now.getFullYear() && month < now.getMonth() + 1))
    ) {
      errors.expMonth = 'This card has expired';
    }
  } else {
    for (const f of CARD_FIELDS) delete errors[f];
  }
  if (Object.keys(errors).length > 0 || rest.length > 0 || !parsed.success) return { ok: false, errors, rest };
  return { ok: true, request: parsed.data };
}
