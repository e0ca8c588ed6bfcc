import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { havePostgres } from '../test/postgres.js';
import { startStack, type Stack } from '../test/stack.js';
import {
  CRASH_SCENARIO,
  crashScenario,
  crashScenarioProblems,
  type CrashScenarioReport,
  type CrashTopic,
} from '../test/crash-scenario.js';

/** One `it` per topic of the scenario's expectations: a topic without an outcome here does not compile. */
const OUTCOMES: Record<CrashTopic, string> = {
  process:
    'keeps the server process running and answering /healthz, with the crash landing while requests are in flight',
  answers:
    'answers every request: 503 store_unavailable while the database is down, ' +
    'never another 5xx, never a dropped connection',
  guests:
    'serves every guest of the burst, only those cut off by the crash may ' +
    'give up, and the next guest buys on the first try without a restart',
  orders:
    'loses no order: every order given is readable by its guest and given ' +
    'once, orders and purchased holds match one to one, tickets add up',
  charges: 'charges each order exactly once, settles every payment the crash interrupted and logs each payment step',
};

describe.skipIf(!havePostgres())(
  'PostgreSQL crashing (pg_ctl stop -m immediate) under a burst of carts and checkouts',
  () => {
    let stack: Stack | undefined;
    let report: CrashScenarioReport;

    beforeAll(async () => {
      stack = await startStack({ nodes: 1, env: CRASH_SCENARIO.env });
      // Guests each put tickets in a cart and check out with an Idempotency-Key, several at a time, retrying 503s;
      // PostgreSQL is killed in the middle of the burst and comes back while it goes on (figures: CRASH_SCENARIO).
      report = await crashScenario(stack);
    });

    afterAll(() => stack?.stop());

    for (const [topic, outcome] of Object.entries(OUTCOMES) as [CrashTopic, string][]) {
      it(outcome, () => {
        expect(crashScenarioProblems(report, topic)).toEqual([]);
      });
    }
  },
);
