import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { takeInputBeforeScript } from '../../lib/input-before-script.js';
import { readPrice } from './listings-filter.js';

/** The price fields whose values typed before the script ran are kept (`lib/input-before-script.ts`). */
const MIN_INPUT = 'listings-min-price';
const MAX_INPUT = 'listings-max-price';

/**
 * The all-in price range, checked before it is applied (both ends optional, the minimum not above the maximum).
 * Before the script runs it is a plain GET form carrying the address's other filters (`keep`); prices typed then
 * stay in the fields once it runs.
 */
export function PriceFilter({
  minPrice,
  maxPrice,
  onApply,
  keep = {},
}: {
  minPrice?: number;
  maxPrice?: number;
  onApply: (min?: number, max?: number) => void;
  /** The other filters in the address, sent along by the form without the script. */
  keep?: Record<string, string | readonly string[]>;
}) {
  // Uncontrolled fields (the address is their source; the panel remounts this form when it changes), so what a
  // shopper typed before the script ran is not reset when it starts.
  const minRef = useRef<HTMLInputElement>(null);
  const maxRef = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const errorId = useId();
  useEffect(() => {
    const typedMin = takeInputBeforeScript(MIN_INPUT);
    const typedMax = takeInputBeforeScript(MAX_INPUT);
    if (typedMin !== undefined && minRef.current) minRef.current.value = typedMin;
    if (typedMax !== undefined && maxRef.current) maxRef.current.value = typedMax;
  }, []);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const min = minRef.current?.value ?? '';
    const max = maxRef.current?.value ?? '';
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
    if (minRef.current) minRef.current.value = '';
    if (maxRef.current) maxRef.current.value = '';
    setError(null);
    onApply(undefined, undefined);
  };
  const describedBy = error ? errorId : undefined;
  return (
    <form className="price-filter" method="get" onSubmit={submit}>
      {Object.entries(keep).flatMap(([name, value]) =>
        (typeof value === 'string' ? [value] : value).map((v) => (
          <input key={`${name}=${v}`} type="hidden" name={name} value={v} />
        )),
      )}
      <fieldset>
        <legend>Price per ticket (fees included)</legend>
        <label>
          Min $
          <input
            type="number"
            name="minPrice"
            data-keep-input={MIN_INPUT}
            inputMode="decimal"
            min={0}
            step="any"
            ref={minRef}
            defaultValue={minPrice === undefined ? '' : String(minPrice)}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
          />
        </label>
        <label>
          Max $
          <input
            type="number"
            name="maxPrice"
            data-keep-input={MAX_INPUT}
            inputMode="decimal"
            min={0}
            step="any"
            ref={maxRef}
            defaultValue={maxPrice === undefined ? '' : String(maxPrice)}
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
