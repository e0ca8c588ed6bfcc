import socialIcons from './social-icons.svg?no-inline';
import type { SocialNetwork } from './menu-data.js';

const common = { width: 20, height: 20, viewBox: '0 0 24 24', 'aria-hidden': true } as const;

export function ChevronIcon({ className }: { className?: string }) {
  return (
    <svg
      {...common}
      width={16}
      height={16}
      className={className}
      fill="none"
      stroke="currentColor"
      strokeWidth={2.5}
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="m6 9 6 6 6-6" />
    </svg>
  );
}

export function MenuIcon() {
  return (
    <svg {...common} width={24} height={24} fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round">
      <path d="M4 6h16M4 12h16M4 18h16" />
    </svg>
  );
}

export function CloseIcon() {
  return (
    <svg {...common} width={24} height={24} fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round">
      <path d="M6 6l12 12M18 6 6 18" />
    </svg>
  );
}

/**
 * A brand's mark in the footer, drawn from one picture file of the four marks (`social-icons.svg`, fetched once and
 * cached for good under its hashed name): the page carries a reference to it instead of each mark's paths. The
 * marks take the link's colour (`currentColor`), in forced colours too.
 */
export function SocialIcon({ network }: { network: SocialNetwork }) {
  return (
    <svg width={20} height={20} aria-hidden>
      <use href={`${socialIcons}#${network}`} />
    </svg>
  );
}
