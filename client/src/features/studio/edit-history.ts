/**
 * Undo and redo over the form's edits, per draft file. Each step keeps the text before it and what it did, in
 * words ("moved Local Venues up"), to say what undo and redo undo and redo. Typing in one field is one step,
 * however many keys it took. The history covers the form's own edits only: once the text changes another way
 * (in the JSON view, which has its own undo, or by a discard), the file's form history starts again, so an undo
 * never takes back something the form did not do.
 */

interface Step {
  /** The text on the other side of the step: before it on the undo stack, after it on the redo stack. */
  text: string;
  label: string;
}

interface FileHistory {
  past: Step[];
  future: Step[];
  /** The text the last step left; any other text means it changed outside the form. */
  at: string | null;
  /** The field being typed in, whose next keystroke joins the last step. */
  typing: string | null;
}

/** What an undo or redo gives: the text to put back, and the step it was. */
export interface Undone {
  text: string;
  label: string;
}

export class EditHistory {
  private readonly files = new Map<string, FileHistory>();

  private of(file: string, current: string): FileHistory {
    let h = this.files.get(file);
    if (!h || h.at !== current) {
      h = { past: [], future: [], at: current, typing: null };
      this.files.set(file, h);
    }
    return h;
  }

  /** Records a form edit from `before` to `after`; edits with the same `typing` key one after another are one step. */
  record(file: string, before: string, after: string, label: string, typing?: string): void {
    if (before === after) return;
    const h = this.of(file, before);
    if (!(typing && h.typing === typing && h.past.length > 0)) h.past.push({ text: before, label });
    h.future = [];
    h.at = after;
    h.typing = typing ?? null;
  }

  /** Ends the typing step, so the next keystroke in the same field is a step of its own. */
  settle(file: string): void {
    const h = this.files.get(file);
    if (h) h.typing = null;
  }

  canUndo(file: string, current: string): boolean {
    const h = this.files.get(file);
    return !!h && h.at === current && h.past.length > 0;
  }

  canRedo(file: string, current: string): boolean {
    const h = this.files.get(file);
    return !!h && h.at === current && h.future.length > 0;
  }

  undo(file: string, current: string): Undone | null {
    if (!this.canUndo(file, current)) return null;
    const h = this.files.get(file)!;
    const step = h.past.pop()!;
    h.future.push({ text: current, label: step.label });
    h.at = step.text;
    h.typing = null;
    return { text: step.text, label: step.label };
  }

  redo(file: string, current: string): Undone | null {
    if (!this.canRedo(file, current)) return null;
    const h = this.files.get(file)!;
    const step = h.future.pop()!;
    h.past.push({ text: current, label: step.label });
    h.at = step.text;
    h.typing = null;
    return { text: step.text, label: step.label };
  }
}
