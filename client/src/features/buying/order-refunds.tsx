import { useId } from 'react';
import { useConfirmStep } from '../../lib/confirm-step.js';
import type { Order, OrderRefund } from '../../../../shared/schemas/commerce.js';
import { BuyingApiError } from './buying-api.js';
import { formatMoney } from './money.js';
import { formatInstant } from './order-view.js';
import { useRefundRequest } from './use-buying.js';

const dayFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });

/** "Nov 27, 2026", the buyer's own calendar day of an instant. */
function formatDay(iso: string): string {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? iso : dayFormat.format(ms);
}

/** RULES 19.1, 19.3: where a refund stands, in words (the state is never told by colour alone). */
export function refundStateText(refund: OrderRefund): string {
  if (refund.status === 'refunded') return `Refunded on ${formatDay(refund.refundedAt ?? refund.requestedAt)}`;
  if (refund.status === 'pending') return `On its way since ${formatDay(refund.requestedAt)}`;
  return 'Delayed: our team has been told';
}

/** RULES 19.1–19.3: the money returned to the buyer (or on its way back), oldest first; nothing when there is none. */
export function RefundList({ refunds }: { refunds: Order['refunds'] }) {
  const headingId = useId();
  if (refunds.length === 0) return null;
  const ordered = [...refunds].sort((a, b) => Date.parse(a.requestedAt) - Date.parse(b.requestedAt));
  return (
    <section className="order-refunds" aria-labelledby={headingId}>
      <h2 id={headingId}>Refunds</h2>
      <table className="order-refunds__table">
        <thead>
          <tr>
            <th scope="col">Amount</th>
            <th scope="col">For</th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {ordered.map((r, i) => (
            <tr key={`${r.requestedAt}-${i}`} className={`order-refund order-refund--${r.status}`}>
              <th scope="row">{formatMoney(r.amount.value)}</th>
              <td>{r.reason}</td>
              <td>{refundStateText(r)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/**
 * RULES 19.2: the full refund a moved event offers, asked for in two steps (the button, then a confirmation in the
 * page), and what came of it. The outcome stays in a live region outside the offer, which goes once it is taken.
 */
export function RefundOffer({ order, code }: { order: Order; code: string | null }) {
  const headingId = useId();
  const questionId = useId();
  const { asking, outcome, setOutcome, askRef, yesRef, outcomeRef, ask, cancel, onKeyDown, confirmed } =
    useConfirmStep();
  const refund = useRefundRequest(order.id, code);
  const offer = order.refundOffer;
  const amount = offer ? formatMoney(offer.amount.value) : '';

  const confirm = (amount: number) => {
    confirmed('Asking for your refund…');
    refund.mutate(undefined, {
      onSuccess: () =>
        setOutcome({
          kind: 'done',
          text:
            `Your order is called off and your full refund of ${formatMoney(amount)} is on its way to your ` +
            'original payment method.',
        }),
      onError: (err) =>
        setOutcome({
          kind: 'error',
          text:
            err instanceof BuyingApiError && err.status < 500
              ? err.message
              : 'We could not ask for your refund. Please try again.',
        }),
    });
  };

  return (
    <>
      {offer && (
        <section className="notice refund-offer" aria-labelledby={headingId}>
          <h2 id={headingId}>Your event has moved</h2>
          <p>
            Your tickets stay valid. If you can’t go, you can ask for a full refund of {amount} until{' '}
            <time dateTime={offer.until}>{formatInstant(offer.until)}</time>.
          </p>
          {asking ? (
            <div className="refund-offer__confirm" role="group" aria-labelledby={questionId} onKeyDown={onKeyDown}>
              <p id={questionId}>
                Ask for a full refund of {amount}? Your order will be called off and its tickets will no longer get you
                in.
              </p>
              <button
                type="button"
                ref={yesRef}
                className="button button--primary"
                onClick={() => confirm(offer.amount.value)}
              >
                Yes, refund my order
              </button>
              <button type="button" className="button button--secondary" onClick={cancel}>
                Keep my tickets
              </button>
            </div>
          ) : (
            <button
              type="button"
              ref={askRef}
              className="button button--secondary"
              onClick={ask}
              disabled={refund.isPending}
              aria-busy={refund.isPending}
            >
              {refund.isPending ? 'Asking for your refund…' : 'Ask for a full refund'}
            </button>
          )}
        </section>
      )}
      <div className="refund-outcome" role="status" aria-live="polite" ref={outcomeRef} tabIndex={-1}>
        {outcome?.kind === 'working' && <p>{outcome.text}</p>}
        {outcome?.kind === 'done' && <p className="refund-outcome__done">{outcome.text}</p>}
        {outcome?.kind === 'error' && <p className="form-alert">{outcome.text}</p>}
      </div>
    </>
  );
}
