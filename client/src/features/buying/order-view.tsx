import { useId, useState, type ReactNode } from 'react';
import type { z } from 'zod';
import {
  ORDER_STATUS_LABELS,
  type Order,
  type OrderDetailEntrySchema,
  type OrderTicket,
} from '../../../../shared/schemas/commerce.js';
import { saveFile } from '../../lib/save-file.js';
import { buyingApi } from './buying-api.js';

type Entry = z.infer<typeof OrderDetailEntrySchema>;

/** RULES 10.8: the header titled this is followed by the entry that holds the location title. */
const EVENT_LOCATION = 'Event Location';

const timeFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

export function formatInstant(iso: string): string {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? iso : timeFormat.format(ms);
}

type RowEntry = Extract<Entry, { type: 'row' }>;
type NoteEntry = Extract<Entry, { type: 'rowSubtitle' }>;

function RowsTable({ rows }: { rows: RowEntry[] }) {
  return (
    <table className="order-rows">
      <tbody>
        {rows.map((r, i) => (
          <tr key={`${r.title}-${i}`}>
            <th scope="row">{r.title}</th>
            <td>{r.value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function NotesList({ notes }: { notes: NoteEntry[] }) {
  return (
    <dl className="order-notes">
      {notes.map((n, i) => (
        <div key={`${n.title}-${i}`}>
          <dt>{n.title}</dt>
          <dd>{n.subtitle}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * RULES 10.8 order detail: typed entries in the order the API lists them; a run of rows (or of row-subtitles) forms one
 * block.
 */
export function OrderDetail({ entries }: { entries: Entry[] }) {
  const blocks: ReactNode[] = [];
  let run: { type: 'row'; items: RowEntry[] } | { type: 'rowSubtitle'; items: NoteEntry[] } | null = null;
  let locationNext = false;
  const endRun = () => {
    if (run?.type === 'row') blocks.push(<RowsTable key={`run-${blocks.length}`} rows={run.items} />);
    if (run?.type === 'rowSubtitle') blocks.push(<NotesList key={`run-${blocks.length}`} notes={run.items} />);
    run = null;
  };
  for (const entry of entries) {
    if (entry.type === 'row') {
      if (run?.type !== 'row') endRun();
      run ??= { type: 'row', items: [] };
      (run.items as RowEntry[]).push(entry);
      continue;
    }
    if (entry.type === 'rowSubtitle') {
      if (run?.type !== 'rowSubtitle') endRun();
      run ??= { type: 'rowSubtitle', items: [] };
      (run.items as NoteEntry[]).push(entry);
      continue;
    }
    endRun();
    const key = `entry-${blocks.length}`;
    if (entry.type === 'date') {
      blocks.push(
        <p className="order-date" key={key}>
          {entry.day === '' ? (
            <strong>Date to be announced</strong>
          ) : (
            <>
              <span className="order-date__month">{entry.month}</span>
              <strong className="order-date__day">{entry.day}</strong>
              <span className="order-date__time">{entry.time}</span>
            </>
          )}
        </p>,
      );
    } else if (locationNext) {
      blocks.push(
        <p className="order-location" key={key}>
          {entry.title}
        </p>,
      );
      locationNext = false;
    } else {
      blocks.push(
        <h2 className="order-header" key={key}>
          {entry.title}
        </h2>,
      );
      locationNext = entry.title === EVENT_LOCATION;
    }
  }
  endRun();
  return <div className="order-detail">{blocks}</div>;
}

/** Newest last. */
export function Timeline({ timeline }: { timeline: Order['timeline'] }) {
  const headingId = useId();
  const steps = [...timeline].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  return (
    <section className="timeline" aria-labelledby={headingId}>
      <h2 id={headingId}>Order history</h2>
      <ol>
        {steps.map((step, i) => (
          <li key={`${step.status}-${step.at}-${i}`}>
            <strong>{ORDER_STATUS_LABELS[step.status]}</strong> <time dateTime={step.at}>{formatInstant(step.at)}</time>
            {step.note && <p>{step.note}</p>}
          </li>
        ))}
      </ol>
    </section>
  );
}

const seatText = (t: OrderTicket) =>
  `Section ${t.section}, Row ${t.row}, ${t.seat === null ? 'general admission' : `Seat ${t.seat}`}` +
  // RULES 10.16: a companion seat bought with a wheelchair space says so.
  (t.companion ? ', Companion seat' : '');

/** Each ticket with its seat and state, the in-hand rule, and the eTickets' download once they are ready. */
export function TicketList({ order, code }: { order: Order; code: string | null }) {
  const headingId = useId();
  const [downloading, setDownloading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (order.tickets.length === 0) return null;
  const download = async () => {
    setDownloading(true);
    setError(null);
    try {
      saveFile(await buyingApi.ticketsPdf(order.id, code), `tickets-${order.id}.pdf`);
    } catch (err) {
      setError(err instanceof Error ? err.message : 'The tickets could not be downloaded. Please try again.');
    } finally {
      setDownloading(false);
    }
  };
  return (
    <section className="order-tickets" aria-labelledby={headingId}>
      <h2 id={headingId}>Your tickets</h2>
      <ol className="order-tickets__list">
        {order.tickets.map((t, i) => (
          <li key={t.id} className={`order-ticket order-ticket--${t.state}`}>
            <strong>
              Ticket {i + 1}: {seatText(t)}
            </strong>
            <span>{t.stateText}</span>
          </li>
        ))}
      </ol>
      {order.delivery?.downloadable && (
        <button
          type="button"
          className="button button--primary order-tickets__download"
          onClick={() => void download()}
          disabled={downloading}
          aria-busy={downloading}
        >
          {downloading
            ? 'Preparing your eTickets…'
            : `Download eTickets (PDF, ${order.tickets.length} ${order.tickets.length === 1 ? 'page' : 'pages'})`}
        </button>
      )}
      {error && (
        <p role="alert" className="form-alert">
          {error}
        </p>
      )}
      {order.delivery && <p className="order-tickets__rule">{order.delivery.rule}</p>}
    </section>
  );
}
