// @vitest-environment happy-dom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { GuaranteePage } from './info-pages.js';
import { renderAt } from '../../test/render-page.js';

afterEach(cleanup);

describe('the guarantee page (RULES 20.4)', () => {
  it('says what is covered with its figures, what is not, and how to claim', () => {
    renderAt(<GuaranteePage />, { route: '/guarantee' });
    expect(screen.getByRole('heading', { level: 1, name: '100% Money Back Guarantee' })).toBeTruthy();
    const covered = screen.getByRole('region', { name: 'What is covered' });
    // RULES 19.2: a moved event's refund window; RULES 20.3: a seller who cannot supply, refunded within 10 business
    // days.
    expect(covered.textContent).toContain('for 30 days after we tell you of the change');
    expect(covered.textContent).toContain('a full refund within 10 business days');
    expect(screen.getByRole('region', { name: 'What is not covered' }).textContent).toContain('Changing your mind');
    const claim = screen.getByRole('region', { name: 'How to claim' });
    expect(claim.textContent).toContain('within 7 days after the event date');
    expect(claim.textContent).toContain('support@tickets.example');
  });
});
