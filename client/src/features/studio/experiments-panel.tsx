import { useId, useState } from 'react';
import type { ExperimentResults, Lift } from '../../../../shared/schemas/experiment-results.js';
import { useExperimentList, useExperimentResults } from './use-studio.js';

const pct = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(2)}%`);
const signed = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x * 100).toFixed(1)}%`;
const money = (x: number) => x.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
const when = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' }) : '–';

function LiftCell({ lift }: { lift: Lift | null }) {
  if (!lift) return <td>–</td>;
  return (
    <td>
      {signed(lift.relative)}{' '}
      <span className="experiments__interval">
        ({signed(lift.low)} to {signed(lift.high)})
      </span>
    </td>
  );
}

function ResultsTable({ results }: { results: ExperimentResults }) {
  const users = results.variations.reduce((n, v) => n + v.users, 0);
  return (
    <>
      <table className="experiments__table">
        <caption>
          {results.experiment}: {users} guests exposed from {when(results.firstExposure)} to{' '}
          {when(results.lastExposure)}. Intervals are 95%.
        </caption>
        <thead>
          <tr>
            <th scope="col">Variation</th>
            <th scope="col">Weight</th>
            <th scope="col">Guests</th>
            <th scope="col">Purchasers</th>
            <th scope="col">Conversion</th>
            <th scope="col">Conversion lift</th>
            <th scope="col">Revenue per guest</th>
            <th scope="col">Revenue lift</th>
          </tr>
        </thead>
        <tbody>
          {results.variations.map((v, i) => (
            <tr key={v.id}>
              <th scope="row">
                {v.name} <span className="experiments__interval">({i === 0 ? 'control' : `id ${v.id}`})</span>
              </th>
              <td>{pct(v.weight)}</td>
              <td>{v.users}</td>
              <td>{v.purchasers}</td>
              <td>
                {pct(v.conversionRate)}{' '}
                <span className="experiments__interval">
                  ({pct(v.conversionInterval.low)} to {pct(v.conversionInterval.high)})
                </span>
              </td>
              <LiftCell lift={v.lift} />
              <td>{money(v.revenuePerUser)}</td>
              <LiftCell lift={v.revenueLift} />
            </tr>
          ))}
        </tbody>
      </table>
      {results.srm.flagged ? (
        <p role="alert" className="experiments__srm experiments__srm--flagged">
          Sample ratio mismatch (p = {results.srm.pValue.toPrecision(3)}): guests are not split as the weights say.
          Something records exposures unevenly; do not trust these results until it is found.
        </p>
      ) : (
        <p className="experiments__srm">
          The split matches the weights (sample-ratio check p = {results.srm.pValue.toPrecision(3)}).
        </p>
      )}
      {results.multipleExposures > 0 && (
        <p>{results.multipleExposures} guests saw more than one variation; each counts in the first they saw.</p>
      )}
    </>
  );
}

/**
 * RULES 17.5: the Experiments page of the studio: an experiment's guests, purchasers, conversion and revenue per
 * variation, the lift over the control with its interval, and the sample-ratio check.
 */
export function ExperimentsPanel() {
  const pickId = useId();
  const sinceId = useId();
  const list = useExperimentList();
  const [picked, setPicked] = useState<string | undefined>(undefined);
  const [since, setSince] = useState('');
  const key = picked ?? list.data?.experiments[0]?.key;
  const results = useExperimentResults(key, since);
  return (
    <section className="studio-panel experiments" aria-labelledby="experiments-heading">
      <h2 id="experiments-heading" tabIndex={-1}>
        Experiments
      </h2>
      {list.isError && <p role="alert">The experiments could not load: {list.error.message}</p>}
      {list.data && list.data.experiments.length === 0 && <p>The flags define no experiment.</p>}
      {key !== undefined && (
        <div className="experiments__controls">
          <div>
            <label htmlFor={pickId}>Experiment</label>
            <select id={pickId} value={key} onChange={(e) => setPicked(e.target.value)}>
              {list.data?.experiments.map((e) => (
                <option key={e.key} value={e.key}>
                  {e.name ? `${e.name} (${e.key})` : e.key}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor={sinceId}>Exposed since</label>
            <input id={sinceId} type="date" value={since} onChange={(e) => setSince(e.target.value)} />
          </div>
        </div>
      )}
      {results.isPending && key !== undefined && <p>Reading the results…</p>}
      {results.isError && <p role="alert">The results could not load: {results.error.message}</p>}
      {results.data && <ResultsTable results={results.data} />}
    </section>
  );
}
