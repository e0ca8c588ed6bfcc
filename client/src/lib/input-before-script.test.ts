// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { keepInputBeforeScript, takeInputBeforeScript } from './input-before-script.js';

function page(html: string) {
  const root = document.createElement('div');
  root.innerHTML = html;
  return root;
}

describe('input chosen before the script runs', () => {
  it('keeps a select changed from what the server rendered, once', () => {
    const root = page(
      '<select data-keep-input="q"><option value="1">1</option><option value="2" selected>2</option>' +
        '<option value="3">3</option></select>',
    );
    root.querySelector('select')!.value = '3';
    keepInputBeforeScript(root);
    expect(takeInputBeforeScript('q')).toBe('3');
    expect(takeInputBeforeScript('q')).toBeUndefined();
  });

  it('keeps nothing of a field left as rendered, or not marked', () => {
    const root = page(
      '<select data-keep-input="q"><option value="1">1</option><option value="2" selected>2</option></select>' +
        '<select name="other"><option value="1" selected>1</option><option value="2">2</option></select>' +
        '<input data-keep-input="min" value="10">',
    );
    root.querySelector<HTMLSelectElement>('select[name="other"]')!.value = '2';
    keepInputBeforeScript(root);
    expect(takeInputBeforeScript('q')).toBeUndefined();
    expect(takeInputBeforeScript('other')).toBeUndefined();
    expect(takeInputBeforeScript('min')).toBeUndefined();
  });

  it('keeps a text field typed into', () => {
    const root = page('<input data-keep-input="min" value="">');
    root.querySelector('input')!.value = '40';
    keepInputBeforeScript(root);
    expect(takeInputBeforeScript('min')).toBe('40');
  });

  it('records a choice made after the first read, while the owner is not yet there, and stops once it is taken', () => {
    document.body.innerHTML =
      '<select data-keep-input="late"><option value="1" selected>1</option><option value="4">4</option></select>';
    keepInputBeforeScript(document);
    const select = document.querySelector('select')!;
    select.value = '4';
    select.dispatchEvent(new Event('change', { bubbles: true }));
    expect(takeInputBeforeScript('late')).toBe('4');
    // The owner's own handlers follow the field from here: nothing is kept for a later owner.
    select.value = '1';
    select.dispatchEvent(new Event('change', { bubbles: true }));
    expect(takeInputBeforeScript('late')).toBeUndefined();
    document.body.innerHTML = '';
  });
});
