/**
 * What a shopper chose in a server-rendered form before the page's script ran. React resets a hydrated select to
 * the value it renders (controlled or not), so the choice is read from the page just before hydration
 * (`keepInputBeforeScript`, called by `boot.tsx`) and taken once by the component that owns the field
 * (`takeInputBeforeScript`), which applies it.
 */

/** The attribute that marks a field whose early choice is kept; its value names the field. */
export const KEEP_INPUT_ATTRIBUTE = 'data-keep-input';

const chosen = new Map<string, string>();
/** Fields their owner has taken: from then on the owner's own handlers follow them. */
const taken = new Set<string>();

function record(el: EventTarget | null): void {
  if (!(el instanceof HTMLSelectElement || el instanceof HTMLInputElement)) return;
  const name = el.getAttribute(KEEP_INPUT_ATTRIBUTE);
  if (name !== null && !taken.has(name)) chosen.set(name, el.value);
}

/**
 * Reads the marked fields a shopper changed from what the server rendered, and goes on recording their changes until
 * their owner takes them: a page whose panel hydrates only once its chunk has loaded keeps a choice made meanwhile.
 */
export function keepInputBeforeScript(root: ParentNode = document): void {
  if (typeof document !== 'undefined' && root === document) {
    document.addEventListener('change', (e) => record(e.target), true);
    document.addEventListener('input', (e) => record(e.target), true);
  }
  for (const el of root.querySelectorAll<HTMLSelectElement | HTMLInputElement>(`[${KEEP_INPUT_ATTRIBUTE}]`)) {
    const name = el.getAttribute(KEEP_INPUT_ATTRIBUTE)!;
    // What the server rendered: the option marked `selected` (else the first), or the field's `value` attribute.
    const rendered =
      el instanceof HTMLSelectElement
        ? ([...el.options].find((o) => o.hasAttribute('selected')) ?? el.options[0])?.value
        : (el.getAttribute('value') ?? '');
    const changed = el.value !== rendered;
    if (changed) chosen.set(name, el.value);
  }
}

/** The value a shopper chose for the field before the script ran, once; undefined when none. */
export function takeInputBeforeScript(name: string): string | undefined {
  const value = chosen.get(name);
  chosen.delete(name);
  taken.add(name);
  return value;
}
