import { useState, type FormEvent } from 'react';
import { ResolvedLocationSchema } from '../../../../shared/schemas/layout.js';
import { api, ApiError } from '../../lib/api.js';
import { ZIP_PATTERN, type ChosenPlace } from '../../../../shared/rules/location.js';

/** A ZIP code or the browser's location, checked before the pages use it (an unknown ZIP keeps the place). */
export function LocationForm({
  city,
  state,
  onChoose,
}: {
  city: string;
  state: string;
  onChoose: (l: ChosenPlace) => void;
}) {
  const [zip, setZip] = useState('');
  const [message, setMessage] = useState('');
  const useMine = () => {
    if (!navigator.geolocation) return setMessage('Your browser cannot share its location; enter a ZIP code instead.');
    navigator.geolocation.getCurrentPosition(
      (pos) => {
        onChoose({ lat: pos.coords.latitude, lng: pos.coords.longitude });
      },
      () => setMessage('Location is turned off; enter a ZIP code instead.'),
      { maximumAge: 600_000, timeout: 10_000 },
    );
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!ZIP_PATTERN.test(zip)) return setMessage('Enter a 5-digit ZIP code.');
    // An unknown ZIP would quietly become New York: check it first, and keep the current place if it is unknown.
    try {
      await api(`/api/location?zip=${zip}`, ResolvedLocationSchema);
    } catch (err) {
      const here = city ? `${city}${state ? `, ${state}` : ''}` : 'your current place';
      return setMessage(
        err instanceof ApiError && err.status === 404
          ? `We don’t know ZIP code ${zip}. Still showing events near ${here}.`
          : 'We could not check that ZIP code. Please try again.',
      );
    }
    setMessage('');
    onChoose({ zip });
  };
  return (
    <form onSubmit={(e) => void submit(e)} className="location-form">
      <label htmlFor="zip-input">ZIP code</label>
      <input
        id="zip-input"
        inputMode="numeric"
        autoComplete="postal-code"
        maxLength={5}
        value={zip}
        onChange={(e) => setZip(e.target.value.replace(/\D/g, ''))}
      />
      <button type="submit">Show events</button>
      <button type="button" className="link-button" onClick={useMine}>
        Use my location
      </button>
      {message && <span role="status">{message}</span>}
    </form>
  );
}
