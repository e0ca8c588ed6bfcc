import type { ReactNode } from 'react';
import type { FieldName } from './checkout-validation.js';

/** What a field's control is given: its id, and whether and by what it is described as invalid. */
export interface FieldControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

interface FieldProps {
  field: FieldName;
  label: string;
  error: string | undefined;
  hint?: string;
  idPrefix: string;
  children: (props: FieldControlProps) => ReactNode;
}

/** A labelled form field with its hint and its error, tied to its control for assistive technology. */
export function Field({ field, label, error, hint, idPrefix, children }: FieldProps) {
  const id = `${idPrefix}-${field}`;
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field field--${field}${error ? ' field--invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {hint && (
        <p className="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy })}
      {error && (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}
