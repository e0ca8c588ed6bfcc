// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useConfirmStep } from './confirm-step.js';

function Step({ onYes }: { onYes: () => void }) {
  const { asking, outcome, askRef, yesRef, outcomeRef, ask, cancel, onKeyDown, confirmed } = useConfirmStep();
  return (
    <>
      {asking ? (
        <div role="group" aria-label="Sure?" onKeyDown={onKeyDown}>
          <button
            type="button"
            ref={yesRef}
            onClick={() => {
              confirmed('Working on it…');
              onYes();
            }}
          >
            Yes
          </button>
          <button type="button" onClick={cancel}>
            No
          </button>
        </div>
      ) : (
        <button type="button" ref={askRef} onClick={ask}>
          Do it
        </button>
      )}
      <div role="status" ref={outcomeRef} tabIndex={-1}>
        {outcome?.text}
      </div>
    </>
  );
}

afterEach(cleanup);

describe('a step asked for twice', () => {
  it('focuses "yes", goes back to the button on Escape, and once confirmed says it is under way, focused', async () => {
    const onYes = vi.fn();
    render(<Step onYes={onYes} />);
    await act(async () => screen.getByRole('button', { name: 'Do it' }).click());
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Yes' }));
    fireEvent.keyDown(screen.getByRole('button', { name: 'Yes' }), { key: 'Escape' });
    await vi.waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Do it' })));
    expect(onYes).not.toHaveBeenCalled();

    await act(async () => screen.getByRole('button', { name: 'Do it' }).click());
    await act(async () => screen.getByRole('button', { name: 'Yes' }).click());
    expect(onYes).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('group')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('Working on it…');
    expect(document.activeElement).toBe(screen.getByRole('status'));
  });
});
