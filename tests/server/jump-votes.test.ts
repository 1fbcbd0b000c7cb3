/**
 * The memory of refused jumps (server/ingest/jump-votes.ts) is bounded: past MAX_CHAINS
 * trackers, the one whose chain changed longest ago is forgotten first.
 */
import { describe, expect, it } from 'vitest';
import { JumpVotes, MAX_CHAINS } from '../../server/ingest/jump-votes';
import type { Fix } from '../../server/ingest/queries/positions';
import { loadConfig } from '../../server/platform/config';

const { ingest } = loadConfig({});
const start = Date.now() - 3600_000;
const at = (s: number, latitude: number): Fix => ({
  fixTime: new Date(start + s * 1000),
  latitude,
  longitude: -34.9,
  attributes: {},
});
/** São Paulo, the anchor every tracker's refused fix (near Recife) jumped from. */
const anchor = at(0, -23.55);

describe('the refused jumps kept in memory', () => {
  it('keeps at most MAX_CHAINS trackers, forgetting the one changed longest ago first', () => {
    expect(MAX_CHAINS).toBe(50_000);
    const votes = new JumpVotes(ingest);
    const first = votes.ballot();
    first.refused('renewed', at(10, -8.05), anchor);
    first.refused('old', at(10, -8.05), anchor);
    first.commit();
    // 'renewed' refuses another fix: its chain changed after the one of 'old'.
    const second = votes.ballot();
    second.refused('renewed', at(20, -8.0501), anchor);
    second.commit();
    const flood = votes.ballot();
    for (let i = 0; i < MAX_CHAINS - 1; i += 1) flood.refused(`t${i}`, at(10, -8.05), anchor);
    flood.commit();
    expect(votes.chains.size).toBe(MAX_CHAINS);
    expect(votes.chains.has('old')).toBe(false);
    expect(votes.chains.get('renewed')).toHaveLength(2);
    expect(votes.chains.has(`t${MAX_CHAINS - 2}`)).toBe(true);
    // One more pushes out the oldest left: 'renewed', whose chain changed before the flood's.
    const next = votes.ballot();
    next.refused('new', at(10, -8.05), anchor);
    next.commit();
    expect(votes.chains.size).toBe(MAX_CHAINS);
    expect(votes.chains.has('renewed')).toBe(false);
    expect(votes.chains.has('t0')).toBe(true);
    expect(votes.chains.has('new')).toBe(true);
  });

  it('takes nothing from a ballot that was not committed', () => {
    const votes = new JumpVotes(ingest);
    const ballot = votes.ballot();
    ballot.kept('a', anchor, undefined);
    ballot.refused('a', at(10, -8.05), anchor);
    expect(votes.chains.size).toBe(0);
    expect(votes.unsupported.size).toBe(0);
    ballot.commit();
    expect(votes.chains.get('a')).toHaveLength(1);
    expect(votes.unsupported.has('a')).toBe(true);
  });
});
