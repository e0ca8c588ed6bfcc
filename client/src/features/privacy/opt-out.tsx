import { useEffect, useId, useState } from 'react';
import { ApiError } from '../../lib/api.js';
import { globalPrivacyControl, optedOutByChoice } from '../../lib/privacy.js';
import { readPrivacyChoice, savePrivacyChoice } from './privacy-api.js';
import './privacy.css';

/**
 * RULES 20.4: the "Do Not Sell or Share My Info" control on /policies#optout: the shopper's choice, stored for their
 * guest and told to every page by a cookie. With Global Privacy Control on, they are opted out whatever they chose:
 * the control says so and stays checked.
 */
export function OptOutControl() {
  const noteId = useId();
  // Read in the browser only: the server renders no choice.
  const [gpc, setGpc] = useState(false);
  const [optedOut, setOptedOut] = useState<boolean | null>(null);
  const [saving, setSaving] = useState(false);
  const [message, setMessage] = useState('');

  useEffect(() => {
    setGpc(globalPrivacyControl());
    setOptedOut(optedOutByChoice());
    let live = true;
    readPrivacyChoice()
      .then((choice) => {
        if (live) setOptedOut(choice.doNotSellOrShare);
      })
      .catch(() => {
        // The cookie's word stands.
      });
    return () => {
      live = false;
    };
  }, []);

  const choose = async (value: boolean) => {
    setSaving(true);
    setMessage('');
    try {
      const choice = await savePrivacyChoice(value);
      setOptedOut(choice.doNotSellOrShare);
      setMessage(
        choice.doNotSellOrShare
          ? 'Saved: you are opted out. We do not collect or share your activity on this site.'
          : 'Saved: you are opted back in.',
      );
    } catch (err) {
      setMessage(
        err instanceof ApiError && err.status < 500 && err.status !== 401
          ? err.message
          : 'We could not save your choice. Please try again.',
      );
    } finally {
      setSaving(false);
    }
  };

  return (
    <div className="opt-out">
      <label className="opt-out__control">
        <input
          type="checkbox"
          checked={gpc || optedOut === true}
          disabled={gpc || saving || optedOut === null}
          aria-describedby={noteId}
          onChange={(e) => void choose(e.target.checked)}
        />
        Do Not Sell or Share My Info
      </label>
      <p id={noteId} className="opt-out__state">
        {gpc
          ? 'Your browser sends Global Privacy Control: you are opted out.'
          : optedOut
            ? 'You are opted out of the sale or sharing of your personal information.'
            : 'You have not opted out.'}
      </p>
      <p className="privacy-outcome" role="status" aria-live="polite">
        {message}
      </p>
    </div>
  );
}
