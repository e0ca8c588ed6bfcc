/**
 * The mail the storefront sends buyers, and what each kind carries in the outbox (no secrets: links are made at
 * send time).
 */
export const MAIL_KINDS = [
  'order_confirmation',
  'tickets_ready',
  'refund',
  'event_cancelled',
  'event_changed',
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

/** What every order mail shows of the order. No secrets (no access codes, no card numbers). */
export interface OrderMailFacts {
  orderId: string;
  eventName: string;
  /** The venue's name and address on one line. */
  venue: string;
  /** The event's start as shoppers read it, or "Date to be announced". */
  when: string;
  quantity: number;
  section: string;
  row: string;
  /** e.g. "Seats 12–13" or "General admission". */
  seats: string;
  buyerName: string;
}

export interface MailData {
  order_confirmation: OrderMailFacts & {
    totalCents: number;
    lineItems: { label: string; cents: number }[];
    /** The delivery method's label, e.g. "eTicket". */
    delivery: string;
    /** YYYY-MM-DD the tickets are ready by (venue calendar), or null. */
    readyBy: string | null;
    /**
     * RULES 20.1: what the listing disclosed besides the seats and delivery (restrictions, face value, the notice of
     * tickets the seller does not have yet, the seller's note), one line each; absent in mail queued before.
     */
    terms?: string[];
  };
  /** The tickets PDF is attached (`MailAttachments.ticketsPdf`). */
  tickets_ready: OrderMailFacts;
  refund: OrderMailFacts & {
    amountCents: number;
    refundedCents: number;
    totalCents: number;
    reason: string;
    at: string;
  };
  /** Cancelled: the full refund is on its way. */
  event_cancelled: OrderMailFacts & { amountCents: number; at: string };
  event_changed: OrderMailFacts & {
    status: 'postponed' | 'rescheduled';
    previousWhen: string;
    /** ISO time until which the buyer may ask for a full refund on the order page. */
    refundUntil: string;
  };
}

export type OutgoingMail = {
  [K in MailKind]: { key: string; brand: string; to: string; kind: K; data: MailData[K] };
}[MailKind];

/** The addresses a mail links to, made (and signed) when it is sent, so the outbox never holds one. */
export interface MailLinks {
  order(orderId: string, brand: string): string;
  tickets(orderId: string, brand: string): string;
  /** RULES 20.4: the page of the guarantee every order is covered by. */
  guarantee(brand: string): string;
}

/** What a mail attaches, read when it is sent. */
export interface MailAttachments {
  ticketsPdf(orderId: string): Promise<{ filename: string; content: Uint8Array } | null>;
}
