import { useId, useState } from 'react';
import { useConfirmStep } from '../../lib/confirm-step.js';
import { DATA_FILE_NAME } from '../../../../shared/schemas/privacy.js';
import { ApiError } from '../../lib/api.js';
import { forgetGuestSession } from '../../lib/session.js';
import { saveFile } from '../../lib/save-file.js';
import { downloadMyData, eraseMyData } from './privacy-api.js';
import './privacy.css';

const failed = (err: unknown, what: string) =>
  err instanceof ApiError && err.status < 500 && err.status !== 401
    ? err.message
    : `We could not ${what}. Please try again.`;

/**
 * RULES 21.1, 21.3: "Your data" on /policies#privacy: a download of what the site keeps of this guest, and its
 * erasure, asked for in two steps (the button, then a confirmation in the page). What came of either is said in a
 * live region that takes the focus.
 */
export function YourData() {
  const headingId = useId();
  const questionId = useId();
  const [busy, setBusy] = useState<'download' | 'erase' | null>(null);
  const { asking, outcome, setOutcome, askRef, yesRef, outcomeRef, ask, cancel, onKeyDown, confirmed } =
    useConfirmStep();

  const download = async () => {
    setBusy('download');
    setOutcome(null);
    try {
      saveFile(await downloadMyData(), DATA_FILE_NAME);
      setOutcome({ kind: 'done', text: `Your data was downloaded as ${DATA_FILE_NAME}.` });
    } catch (err) {
      setOutcome({ kind: 'error', text: failed(err, 'download your data') });
    } finally {
      setBusy(null);
    }
  };
  const erase = async () => {
    setBusy('erase');
    confirmed('Erasing your data…');
    try {
      await eraseMyData();
      // The erased guest's id is not used again: the next page starts a new guest.
      forgetGuestSession();
      setOutcome({
        kind: 'done',
        text:
          'Your personal data was erased. Your orders stay, with their amounts and tickets, without your name, ' +
          'address, phone number or email.',
      });
    } catch (err) {
      setOutcome({ kind: 'error', text: failed(err, 'erase your data') });
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="your-data" aria-labelledby={headingId}>
      <h3 id={headingId}>Your data</h3>
      <p>
        Download what we keep about you in this browser (your orders with the details you gave, what you viewed, and the
        site events we recorded), or erase it. Erasing removes your name, address, phone number and email from your
        orders, and what you viewed and the events we recorded; the orders themselves (amounts, dates, tickets) stay, as
        the law asks us to keep them, and still open from the link in your confirmation.
      </p>
      <div className="your-data__actions">
        <button
          type="button"
          className="button"
          onClick={() => void download()}
          disabled={busy !== null}
          aria-busy={busy === 'download'}
        >
          {busy === 'download' ? 'Preparing your data…' : 'Download my data'}
        </button>
        {!asking && (
          <button
            type="button"
            ref={askRef}
            className="button privacy-button--secondary"
            onClick={ask}
            disabled={busy !== null}
            aria-busy={busy === 'erase'}
          >
            {busy === 'erase' ? 'Erasing your data…' : 'Erase my data'}
          </button>
        )}
      </div>
      {asking && (
        <div className="your-data__confirm" role="group" aria-labelledby={questionId} onKeyDown={onKeyDown}>
          <p id={questionId}>
            Erase your personal data? Your name, address, phone number and email go from your orders, with everything
            you viewed. This cannot be undone.
          </p>
          <button type="button" ref={yesRef} className="button" onClick={() => void erase()}>
            Yes, erase my data
          </button>
          <button type="button" className="button privacy-button--secondary" onClick={cancel}>
            Keep my data
          </button>
        </div>
      )}
      <div className="privacy-outcome" role="status" aria-live="polite" ref={outcomeRef} tabIndex={-1}>
        {outcome && <p className={`privacy-outcome__${outcome.kind}`}>{outcome.text}</p>}
      </div>
    </section>
  );
}
