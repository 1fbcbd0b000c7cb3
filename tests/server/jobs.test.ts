/**
 * Leases of periodic jobs: of several claims at once one wins, a live lease is refused, an
 * expired one is taken over, and `runOnce` runs the job only for the claimant.
 */
import { describe, expect, it } from 'vitest';
import { claimLease, leaseOf } from '../../server/platform/db/leases';
import { leaseMs, runOnce } from '../../server/platform/jobs';
import { everyBackend, useServer } from './harness';

describe('the lease of a period', () => {
  it('ends a little before the next tick of the process that holds it', () => {
    expect(leaseMs(1000)).toBe(950);
    expect(leaseMs(12 * 3600_000)).toBe(12 * 3600_000 - 30_000);
  });
});

describe.each(await everyBackend())('job leases on %s', (backend) => {
  const server = useServer(backend);

  it('lets one of several claims at once win, refuses while it lasts, then hands it over', async () => {
    const { db } = server().deps.database;
    const claims = await Promise.all(
      ['a:1', 'b:2', 'c:3', 'd:4'].map((holder) => claimLease(db, 'test:job', holder, 400)),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);
    const winner = ['a:1', 'b:2', 'c:3', 'd:4'][claims.indexOf(true)];
    expect(await claimLease(db, 'test:job', 'e:5', 400)).toBe(false);
    expect(await leaseOf(db, 'test:job')).toMatchObject({ holder: winner, runs: 1 });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await claimLease(db, 'test:job', 'e:5', 400)).toBe(true);
    expect(await leaseOf(db, 'test:job')).toMatchObject({ holder: 'e:5', runs: 2 });
  });

  it('runs the job only in the process that claimed it', async () => {
    const { db } = server().deps.database;
    let ran = 0;
    const job = async () => {
      ran += 1;
    };
    expect(await runOnce(db, 'test:once', 60_000, job)).toBe(true);
    expect(await runOnce(db, 'test:once', 60_000, job)).toBe(false);
    expect(ran).toBe(1);
  });
});
