import { createContext, createElement, useContext, type HTMLAttributes, type ReactNode, type Ref } from 'react';
import { preload } from 'react-dom';
import type { KeptFragment } from '../../../shared/schemas/page-render.js';

/**
 * What a server render keeps of its parts (RULES 13.13): a kept part's markup by its key, and the opening of a part
 * still to be kept. Only the server's renderer gives one; in the browser every part is drawn.
 */
export interface KeptMarkupRender {
  get(key: string): KeptFragment | undefined;
  /** Marks a part to keep once the page is written: the value its mark in the markup carries. */
  open(key: string): string;
}

export const KeptMarkupContext = createContext<KeptMarkupRender | null>(null);

/**
 * The attribute a part to keep is marked with (the render's token and the part's number), last on its element and
 * taken out before the page goes out. An attribute, not marker elements: another child would change the ids
 * `useId` gives everything inside.
 */
export const KEPT_ATTRIBUTE = 'data-kept';

type KeptElementProps = HTMLAttributes<HTMLElement> & {
  ref?: Ref<HTMLElement>;
  'data-row-id'?: string;
};

/**
 * An element whose inner markup is drawn from what `cacheKey` names alone: the key must name everything `children`
 * is drawn from, ids included (RULES 13.13), and is worked out on the server only. There, a part drawn before is
 * written as the text React wrote then, and a new one is drawn marked and kept when the page is written. In the
 * browser it is a plain element, and hydration finds the very markup it would have drawn.
 */
export function KeptMarkup({
  as,
  cacheKey,
  children,
  ...props
}: KeptElementProps & { as: 'section' | 'header' | 'footer'; cacheKey: () => string; children: ReactNode }) {
  const kept = useContext(KeptMarkupContext);
  if (!kept) return createElement(as, props, children);
  const key = cacheKey();
  const fragment = kept.get(key);
  if (fragment) {
    // React preloads the pictures it draws eagerly; a part written as text is drawn by nobody, so ask for the same
    // ones (React may list them in another order: one not of high priority goes after those that are).
    for (const { href, ...image } of fragment.images) preload(href, { as: 'image', ...image });
    return createElement(as, { ...props, dangerouslySetInnerHTML: { __html: fragment.html } });
  }
  return createElement(as, { ...props, [KEPT_ATTRIBUTE]: kept.open(key) }, children);
}
