import { useId, useState, type FormEvent } from 'react';
import { readPrice } from './listings-filter.js';

/** The all-in price range, checked before it is applied (both ends optional, the minimum not above the maximum). */
export function PriceFilter({
  minPrice,
  maxPrice,
  onApply,
}: {
  minPrice?: number;
  maxPrice?: number;
  onApply: (min?: number, max?: number) => void;
}) {
  const [min, setMin] = useState(minPrice === undefined ? '' : String(minPrice));
  const [max, setMax] = useState(maxPrice === undefined ? '' : String(maxPrice));
  const [error, setError] = useState<string | null>(null);
  const errorId = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const lo = readPrice(min);
    const hi = readPrice(max);
    if ((min.trim() !== '' && lo === undefined) || (max.trim() !== '' && hi === undefined)) {
      setError('Enter prices as positive numbers');
      return;
    }
    if (lo !== undefined && hi !== undefined && lo > hi) {
      setError('The minimum price is above the maximum');
      return;
    }
    setError(null);
    onApply(lo, hi);
  };
  const clear = () => {
    setMin('');
    setMax('');
    setError(null);
    onApply(undefined, undefined);
  };
  const describedBy = error ? errorId : undefined;
  return (
    <form className="price-filter" onSubmit={submit}>
      <fieldset>
        <legend>Price per ticket (fees included)</legend>
        <label>
          Min $
          <input
            type="number"
            inputMode="decimal"
            min={0}
            step="any"
            value={min}
            onChange={(e) => setMin(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
          />
        </label>
        <label>
          Max $
          <input
            type="number"
            inputMode="decimal"
            min={0}
            step="any"
            value={max}
            onChange={(e) => setMax(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
          />
        </label>
        <button type="submit" className="button button--secondary">
          Apply
        </button>
        {(minPrice !== undefined || maxPrice !== undefined) && (
          <button type="button" className="link-button" onClick={clear}>
            Clear price
          </button>
        )}
      </fieldset>
      {error && (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      )}
    </form>
  );
}
