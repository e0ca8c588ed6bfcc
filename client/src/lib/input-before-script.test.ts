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
});
