/**
 * A list in a table cell: its first items and '+N' for the rest, all of them for a screen
 * reader and on hover. Three e-mail addresses or ten plates would take a column of their own
 * and squeeze the others.
 */
import { Fragment, type ReactNode } from 'react';
import './text.css';

const joined = (items: string[], render: (item: string) => ReactNode) =>
  items.map((item, i) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: the same text may come twice; order is fixed
    <Fragment key={i}>
      {i > 0 && ', '}
      {render(item)}
    </Fragment>
  ));

export function ShortList({
  items,
  shown = 1,
  render = (item) => item,
  empty = '—',
}: {
  items: string[];
  /** How many are written out before '+N'. */
  shown?: number;
  render?: (item: string) => ReactNode;
  empty?: string;
}) {
  if (items.length === 0) return <>{empty}</>;
  if (items.length <= shown) return <>{joined(items, render)}</>;
  return (
    <span title={items.join('\n')}>
      <span aria-hidden="true">
        {joined(items.slice(0, shown), render)}{' '}
        <span className="muted nowrap">+{items.length - shown}</span>
      </span>
      <span className="visually-hidden">{items.join(', ')}</span>
    </span>
  );
}
