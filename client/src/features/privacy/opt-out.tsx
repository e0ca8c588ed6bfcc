import { useEffect, useId, useState, useSyncExternalStore } from 'react';
import { ApiError } from '../../lib/api.js';
import { globalPrivacyControl, optedOutByChoice } from '../../lib/privacy.js';
import { readPrivacyChoice, savePrivacyChoice } from './privacy-api.js';
import './privacy.css';

/** Neither Global Privacy Control nor the cookie changes under a page: nothing to subscribe to. */
const unchanging = () => () => {};

/**
 * RULES 21.4: the "Do Not Sell or Share My Info" control on /policies#optout: the shopper's choice, stored for their
 * guest and told to every page by a cookie. With Global Privacy Control on, they are opted out whatever they chose:
 * the control says so and stays checked.
 */
export function OptOutControl() {
  const noteId = useId();
  // Read in the browser only: the server renders no choice (and no Global Privacy Control).
  const gpc = useSyncExternalStore(unchanging, globalPrivacyControl, () => false);
  const byCookie = useSyncExternalStore(unchanging, optedOutByChoice, () => null);
  // The choice as the server last said it (or as the shopper just made it); until then, the cookie's word.
  const [chosen, setOptedOut] = useState<boolean | null>(null);
  const optedOut = chosen ?? byCookie;
  const [saving, setSaving] = useState(false);
  const [message, setMessage] = useState('');

  useEffect(() => {
    let live = true;
    readPrivacyChoice()
      .then((choice) => {
        // A guest who never chose (a new one after an erasure, say) is as the cookie says.
        if (live && choice.chosenAt !== null) setOptedOut(choice.doNotSellOrShare);
      })
      .catch(() => {
        // The cookie's word stands.
      });
    return () => {
      live = false;
    };
  }, []);

  const choose = async (value: boolean) => {
    // Shown at once; put back should the server not take it.
    const before = optedOut;
    setOptedOut(value);
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
      setOptedOut(before);
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
          disabled={gpc || optedOut === null}
          // While saving it keeps the keyboard's focus (a disabled control would drop it) and ignores a second click.
          aria-disabled={saving || undefined}
          aria-describedby={noteId}
          onChange={(e) => {
            if (!saving) void choose(e.target.checked);
          }}
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
