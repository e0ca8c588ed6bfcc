import { useEffect, useRef, useState, type KeyboardEvent } from 'react';

/** What came of a confirmed step, said in a live region: under way, done, or not done. */
export interface StepOutcome {
  kind: 'working' | 'done' | 'error';
  text: string;
}

/**
 * A step asked for twice, for what cannot be undone (a refund, an erasure): the button, then a confirmation in the
 * page whose "yes" takes the focus; Escape or "no" takes it back and the focus returns to the button. Once
 * confirmed the confirmation goes with its buttons, so the outcome's live region takes the focus at once and says
 * the step is under way, then what came of it: the keyboard is never left at the top of the page.
 */
export function useConfirmStep() {
  const [asking, setAsking] = useState(false);
  const [outcome, setOutcome] = useState<StepOutcome | null>(null);
  const askRef = useRef<HTMLButtonElement>(null);
  const yesRef = useRef<HTMLButtonElement>(null);
  const outcomeRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (asking) yesRef.current?.focus();
  }, [asking]);
  useEffect(() => {
    if (outcome) outcomeRef.current?.focus();
  }, [outcome]);

  const cancel = () => {
    setAsking(false);
    requestAnimationFrame(() => askRef.current?.focus());
  };
  return {
    asking,
    outcome,
    setOutcome,
    askRef,
    yesRef,
    outcomeRef,
    ask: () => setAsking(true),
    cancel,
    onKeyDown: (e: KeyboardEvent) => {
      if (e.key === 'Escape') cancel();
    },
    /** The step was confirmed: the confirmation closes, and the outcome says `working` until the step ends. */
    confirmed: (working: string) => {
      setAsking(false);
      setOutcome({ kind: 'working', text: working });
    },
  };
}
