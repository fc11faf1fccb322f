import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState } from 'react';
import { PAGE_SIZE, useLibrary } from '../../stores/library-store';
import { DesignCardView } from './DesignCardView';

const CARD_WIDTH = 220;
const GAP = 16;
const ROW_HEIGHT = 300;

/** Rows of cards, virtualized: only the visible rows are in the DOM, and only their pages are asked of the engine. */
export function DesignGrid({ total }: { total: number }) {
  const scroller = useRef<HTMLDivElement>(null);
  const [columns, setColumns] = useState(4);
  const pages = useLibrary((store) => store.pages);
  const ensureRange = useLibrary((store) => store.ensureRange);

  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setColumns(Math.max(1, Math.floor((entry!.contentRect.width + GAP) / (CARD_WIDTH + GAP)))));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const rows = Math.ceil(total / columns);
  const virtualizer = useVirtualizer({ count: rows, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 2 });
  const visible = virtualizer.getVirtualItems();
  const first = (visible[0]?.index ?? 0) * columns;
  const last = Math.min(total - 1, ((visible[visible.length - 1]?.index ?? 0) + 1) * columns - 1);
  useEffect(() => ensureRange(first, last), [first, last, ensureRange, pages]);

  return (
    <div ref={scroller} className="grid-scroller" tabIndex={-1}>
      <div className="grid-body" style={{ height: virtualizer.getTotalSize() }}>
        {visible.map((row) => (
          <div key={row.key} className="grid-row" role="list" style={{ transform: `translateY(${row.start}px)`, gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }}>
            {Array.from({ length: columns }, (_, column) => {
              const index = row.index * columns + column;
              if (index >= total) return null;
              const card = pages[Math.floor(index / PAGE_SIZE)]?.[index % PAGE_SIZE];
              return <div key={index} role="listitem">{card ? <DesignCardView card={card} /> : <div className="card card-loading" aria-busy="true" />}</div>;
            })}
          </div>
        ))}
      </div>
    </div>
  );
}
