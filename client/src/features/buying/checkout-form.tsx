import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent, type InputHTMLAttributes } from 'react';
import { useNavigate } from 'react-router';
import type { Cart, Order } from '../../../../shared/schemas/commerce.js';
import { applePayAvailable } from './apple-pay.js';
import { buyingApi, BuyingApiError } from './buying-api.js';
import { Field, type FieldControlProps } from './checkout-field.js';
import { placeOrder } from './checkout-attempt.js';
import { countryOptions } from './country-options.js';
import { NOT_HELD_CONFIRMATION, NOT_HELD_NOTICE } from '../../../../shared/rules/disclosures.js';
import { formatMoney } from './money.js';
import {
  EMPTY_VALUES,
  mapServerIssues,
  validateCheckout,
  type CheckoutValues,
  type FieldErrors,
  type FieldName,
} from './checkout-validation.js';
import { trackPaymentFailure, trackPurchase, type PaymentType } from './tracking.js';
import './buying.css';

const MONTHS = Array.from({ length: 12 }, (_, i) => String(i + 1).padStart(2, '0'));
const EXPIRY_YEARS_AHEAD = 15;

export function orderUrl(order: Pick<Order, 'id' | 'accessCode'>): string {
  // The access code lets the guest come back to the order from another device or after the session ends.
  const code = order.accessCode ? `?code=${encodeURIComponent(order.accessCode)}` : '';
  return `/orders/${encodeURIComponent(order.id)}${code}`;
}

export interface CheckoutFormProps {
  cart: Cart;
  /** The hold ran out: nothing more can be sent. */
  disabled?: boolean;
  onHoldEnded: () => void;
  /** The cart priced with the promo code just applied (null: none), for the summary beside the form. */
  onPriced?: (cart: Cart | null) => void;
}

/** RULES 10.3: billing address and email, a promo code and payment; 10.4 Apple Pay; 9.8, 9.9 tracking. */
export function CheckoutForm({ cart, disabled = false, onHoldEnded, onPriced }: CheckoutFormProps) {
  const navigate = useNavigate();
  const idPrefix = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const busy = useRef(false);
  const [values, setValues] = useState<CheckoutValues>(EMPTY_VALUES);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [paymentError, setPaymentError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState<PaymentType | null>(null);
  const [focusRequest, setFocusRequest] = useState(0);
  const [noticeRead, setNoticeRead] = useState(false);
  const [noticeError, setNoticeError] = useState(false);
  // RULES 20.3: the seller does not have these tickets yet (the cart says so; a refusal naming the notice, too).
  const [noticeAsked, setNoticeAsked] = useState(false);
  const notHeldNotice = !cart.ticketsHeld || noticeAsked;
  const [pricing, setPricing] = useState(false);
  const [priceNote, setPriceNote] = useState<string | null>(null);
  const [applePay] = useState(applePayAvailable);
  const [countries] = useState(countryOptions);
  const [years] = useState(() =>
    Array.from({ length: EXPIRY_YEARS_AHEAD + 1 }, (_, i) => String(new Date().getFullYear() + i)),
  );

  useEffect(() => {
    if (focusRequest === 0) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusRequest]);

  const set = (field: FieldName) => (e: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
    const value = e.target.value;
    setValues((v) => ({ ...v, [field]: value }));
    if (errors[field]) setErrors(({ [field]: _gone, ...rest }) => rest);
  };

  const showFieldErrors = (next: FieldErrors, rest: string[]) => {
    setErrors(next);
    setFormError(rest.length > 0 ? rest.join(' ') : null);
    if (Object.keys(next).length > 0) setFocusRequest((n) => n + 1);
  };

  /**
   * Prices the cart with the promo code as typed (none when blank), so the summary and the Pay button show the
   * exact total before the shopper pays. Returns the priced cart, or null when the code was refused or the
   * price could not be had.
   */
  const applyPromo = async (): Promise<Cart | null> => {
    const code = values.promoCode.trim();
    setPricing(true);
    try {
      const priced = await buyingApi.cart(cart.id, undefined, code || undefined);
      onPriced?.(code ? priced : null);
      setErrors(({ promoCode: _gone, ...rest }) => rest);
      setPriceNote(
        code
          ? `Code ${priced.promoCode ?? code} applied: your total is now ${formatMoney(priced.totalPrice.value)}.`
          : `No promo code: your total is ${formatMoney(priced.totalPrice.value)}.`,
      );
      return priced;
    } catch (err) {
      if (err instanceof BuyingApiError && err.code === 'invalid_promo_code') {
        setErrors((e) => ({ ...e, promoCode: err.message }));
        setFocusRequest((n) => n + 1);
      } else {
        setFormError(
          err instanceof BuyingApiError
            ? err.message
            : 'We could not price your tickets. Check your connection and try again.',
        );
      }
      return null;
    } finally {
      setPricing(false);
    }
  };

  const pay = async (method: PaymentType) => {
    if (busy.current || disabled || pricing) return;
    setPaymentError(null);
    setFormError(null);
    // A code typed but not yet applied would change the total: price it and let the shopper see it first.
    if (values.promoCode.trim().toUpperCase() !== (cart.promoCode ?? '').toUpperCase()) {
      const priced = await applyPromo();
      if (priced)
        setPriceNote(
          `${priced.promoCode ? `Code ${priced.promoCode} applied` : 'Promo code removed'}: ` +
            `your total is now ${formatMoney(priced.totalPrice.value)}. Check it, ` +
            `then pay.`,
        );
      return;
    }
    const checked = validateCheckout(values, cart.id, method);
    const unconfirmed = notHeldNotice && !noticeRead;
    setNoticeError(unconfirmed);
    if (!checked.ok) {
      showFieldErrors(checked.errors, checked.rest);
      return;
    }
    if (unconfirmed) {
      setErrors({});
      setFocusRequest((n) => n + 1);
      return;
    }
    setErrors({});
    busy.current = true;
    setSubmitting(method);
    try {
      const order = await placeOrder(
        {
          ...checked.request,
          expectedTotal: cart.totalPrice.value,
          ...(notHeldNotice ? { notHeldNoticeRead: true } : {}),
        },
        { send: buyingApi.checkout },
      );
      trackPurchase(order);
      void navigate(orderUrl(order), { replace: true });
    } catch (err) {
      if (!(err instanceof BuyingApiError)) {
        setFormError('We could not reach the payment service. Check your connection and try again.');
      } else if (err.status === 402 || (err.status === 502 && err.code === 'payment_error')) {
        setPaymentError(err.message);
        trackPaymentFailure(method, err.code);
      } else if (err.status === 410) {
        onHoldEnded();
      } else if (err.status === 409 && err.code === 'price_changed') {
        setFormError(err.message);
        void applyPromo();
      } else if (err.status === 400 && err.code === 'notice_not_confirmed') {
        setNoticeAsked(true);
        setNoticeError(true);
        setFocusRequest((n) => n + 1);
      } else if (err.status === 400) {
        const { errors: mapped, rest } = mapServerIssues(err.details);
        if (err.code === 'invalid_promo_code') mapped.promoCode ??= err.message;
        showFieldErrors(mapped, Object.keys(mapped).length === 0 && rest.length === 0 ? [err.message] : rest);
      } else {
        setFormError(err.message);
      }
    } finally {
      busy.current = false;
      setSubmitting(null);
    }
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void pay('card');
  };

  const common = { idPrefix };
  const input = (field: FieldName, extra: InputHTMLAttributes<HTMLInputElement> = {}) =>
    function render(props: FieldControlProps) {
      return <input {...props} {...extra} name={field} value={values[field]} onChange={set(field)} />;
    };
  const errorCount = Object.keys(errors).length + (noticeError ? 1 : 0);

  return (
    <form ref={formRef} className="checkout-form" noValidate onSubmit={onSubmit} aria-busy={submitting !== null}>
      <fieldset className="checkout-form__all" disabled={disabled}>
        <legend className="sr-only">Checkout</legend>
        {errorCount > 0 && (
          <p className="form-alert" role="alert">
            {errorCount === 1
              ? 'Please fix the highlighted field.'
              : `Please fix the ${errorCount} highlighted fields.`}
          </p>
        )}
        {formError && (
          <p className="form-alert" role="alert">
            {formError}
          </p>
        )}

        <section className="checkout-section" aria-labelledby={`${idPrefix}-contact`}>
          <h2 id={`${idPrefix}-contact`}>Contact</h2>
          <Field
            field="email"
            label="Email"
            hint="We send your tickets and receipt here."
            error={errors.email}
            {...common}
          >
            {input('email', { type: 'email', autoComplete: 'email', required: true, spellCheck: false })}
          </Field>
        </section>

        <section className="checkout-section" aria-labelledby={`${idPrefix}-billing`}>
          <h2 id={`${idPrefix}-billing`}>Billing address</h2>
          <div className="field-grid">
            <Field field="name" label="Full name" error={errors.name} {...common}>
              {input('name', { autoComplete: 'name', required: true })}
            </Field>
            <Field field="address1" label="Street address" error={errors.address1} {...common}>
              {input('address1', { autoComplete: 'address-line1', required: true })}
            </Field>
            <Field field="city" label="City" error={errors.city} {...common}>
              {input('city', { autoComplete: 'address-level2', required: true })}
            </Field>
            <Field field="state" label="State or region" error={errors.state} {...common}>
              {input('state', { autoComplete: 'address-level1', required: true })}
            </Field>
            <Field field="countryCode" label="Country" error={errors.countryCode} {...common}>
              {(props) => (
                <select
                  {...props}
                  name="countryCode"
                  autoComplete="country"
                  required
                  value={values.countryCode}
                  onChange={set('countryCode')}
                >
                  {countries.map((c) => (
                    <option key={c.code} value={c.code}>
                      {c.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field
              field="postalCode"
              label={values.countryCode === 'US' ? 'ZIP code' : 'Postal code'}
              error={errors.postalCode}
              {...common}
            >
              {input('postalCode', {
                autoComplete: 'postal-code',
                required: true,
                inputMode: values.countryCode === 'US' ? 'numeric' : 'text',
              })}
            </Field>
            <Field field="phoneNumber" label="Phone number" error={errors.phoneNumber} {...common}>
              {input('phoneNumber', { type: 'tel', autoComplete: 'tel', required: true })}
            </Field>
          </div>
        </section>

        <section className="checkout-section" aria-labelledby={`${idPrefix}-promo`}>
          <h2 id={`${idPrefix}-promo`}>Promo code</h2>
          <Field
            field="promoCode"
            label="Promo code (optional)"
            hint="Apply a code to see your new total before you pay."
            error={errors.promoCode}
            {...common}
          >
            {(props) => (
              <span className="promo-entry">
                {input('promoCode', {
                  autoComplete: 'off',
                  autoCapitalize: 'characters',
                  spellCheck: false,
                  maxLength: 32,
                })(props)}
                <button
                  type="button"
                  className="button"
                  onClick={() => void applyPromo()}
                  disabled={pricing || submitting !== null}
                >
                  {pricing ? 'Applying…' : 'Apply'}
                </button>
              </span>
            )}
          </Field>
          <p className="promo-note" role="status">
            {priceNote}
          </p>
        </section>

        {notHeldNotice && (
          <section className="checkout-section" aria-labelledby={`${idPrefix}-notice`}>
            <h2 id={`${idPrefix}-notice`}>Before you pay</h2>
            <p className="disclosure disclosure--not_held" id={`${idPrefix}-notice-text`}>
              <strong>Notice:</strong> {NOT_HELD_NOTICE}
            </p>
            <div className={`field field--check${noticeError ? ' field--invalid' : ''}`}>
              <input
                type="checkbox"
                id={`${idPrefix}-notice-read`}
                name="notHeldNoticeRead"
                checked={noticeRead}
                onChange={(e) => {
                  setNoticeRead(e.target.checked);
                  if (e.target.checked) setNoticeError(false);
                }}
                aria-invalid={noticeError ? true : undefined}
                aria-describedby={
                  noticeError ? `${idPrefix}-notice-text ${idPrefix}-notice-error` : `${idPrefix}-notice-text`
                }
              />
              <label htmlFor={`${idPrefix}-notice-read`}>{NOT_HELD_CONFIRMATION}</label>
              {noticeError && (
                <p className="field-error" id={`${idPrefix}-notice-error`}>
                  Confirm you have read the notice to pay for these tickets
                </p>
              )}
            </div>
          </section>
        )}

        <section className="checkout-section" aria-labelledby={`${idPrefix}-payment`}>
          <h2 id={`${idPrefix}-payment`}>Payment</h2>
          {applePay && (
            <div className="express-pay">
              <button
                type="button"
                className="apple-pay-button"
                onClick={() => void pay('applepay')}
                disabled={submitting !== null}
              >
                {submitting === 'applepay' ? 'Processing…' : `Pay ${formatMoney(cart.totalPrice.value)} with Apple Pay`}
              </button>
              <p className="divider">
                <span>or pay by card</span>
              </p>
            </div>
          )}
          <div className="field-grid field-grid--card">
            <Field field="cardNumber" label="Card number" error={errors.cardNumber} {...common}>
              {input('cardNumber', {
                autoComplete: 'cc-number',
                inputMode: 'numeric',
                required: true,
                spellCheck: false,
                maxLength: 23,
              })}
            </Field>
            <Field field="expMonth" label="Expiry month" error={errors.expMonth} {...common}>
              {(props) => (
                <select
                  {...props}
                  name="expMonth"
                  autoComplete="cc-exp-month"
                  required
                  value={values.expMonth}
                  onChange={set('expMonth')}
                >
                  <option value="">MM</option>
                  {MONTHS.map((m) => (
                    <option key={m} value={String(Number(m))}>
                      {m}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field field="expYear" label="Expiry year" error={errors.expYear} {...common}>
              {(props) => (
                <select
                  {...props}
                  name="expYear"
                  autoComplete="cc-exp-year"
                  required
                  value={values.expYear}
                  onChange={set('expYear')}
                >
                  <option value="">YYYY</option>
                  {years.map((y) => (
                    <option key={y} value={y}>
                      {y}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field field="cvc" label="Security code (CVC)" error={errors.cvc} {...common}>
              {input('cvc', { autoComplete: 'cc-csc', inputMode: 'numeric', required: true, maxLength: 4 })}
            </Field>
          </div>
          {paymentError && (
            <div className="form-alert form-alert--payment" role="alert">
              <p>
                <strong>Payment not completed.</strong> {paymentError}
              </p>
              <p>Your tickets are still held. Check the details or try another card.</p>
            </div>
          )}
          <button type="submit" className="button button--primary button--wide" disabled={submitting !== null}>
            {submitting === 'card' ? 'Processing…' : `Pay ${formatMoney(cart.totalPrice.value)}`}
          </button>
        </section>
      </fieldset>
    </form>
  );
}
