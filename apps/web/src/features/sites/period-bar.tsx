// The day's tariff periods as a 24-hour bar, coloured by period, gaps hatched grey and overlaps hatched red.
// With a brush, pressing and dragging across the bar gives the slots under it the brush's period; from the
// keyboard the arrows move between the half-hour slots and Enter paints one.
import { useRef, useState } from 'react';
import { DAY_MINUTES, PRICE_PERIODS, type PricePeriod, type TariffRange } from '@genset/protocol';
import { useTranslation } from 'react-i18next';
import { PERIOD_HEX } from './periods.ts';
import { clockOf, daySegments, periodHours, type SegmentKind } from './tariff-ranges.ts';

export const SLOT_MINUTES = 30;
const SLOTS = DAY_MINUTES / SLOT_MINUTES;
const HOUR_MARKS = [0, 3, 6, 9, 12, 15, 18, 21, 24];

function segmentClass(kind: SegmentKind): string | undefined {
  return kind === 'gap' ? 'ems-period-gap' : kind === 'overlap' ? 'ems-period-overlap' : undefined;
}

export function PeriodBar({
  ranges,
  brush,
  onPaint,
}: {
  ranges: readonly Partial<TariffRange>[];
  /** The period painted; without one the bar only shows. */
  brush?: PricePeriod | null;
  onPaint?: (from: number, to: number, period: PricePeriod) => void;
}) {
  const { t } = useTranslation();
  const bar = useRef<HTMLDivElement>(null);
  const painting = useRef<number | null>(null);
  const [focused, setFocused] = useState(0);
  const segments = daySegments(ranges);
  const hours = periodHours(ranges);
  const editable = Boolean(brush && onPaint);

  const slotAt = (clientX: number): number => {
    const box = bar.current!.getBoundingClientRect();
    return Math.max(0, Math.min(SLOTS - 1, Math.floor(((clientX - box.left) / box.width) * SLOTS)));
  };
  const paint = (slot: number) => {
    if (!brush || !onPaint) return;
    onPaint(slot * SLOT_MINUTES, (slot + 1) * SLOT_MINUTES, brush);
  };
  const kindAt = (minute: number) => segments.find((s) => minute >= s.start && minute < s.end)?.kind ?? 'gap';
  const word = (kind: SegmentKind) =>
    kind === 'gap' ? t('ems.template.gap') : kind === 'overlap' ? t('ems.template.overlap') : t(`ems.periods.${kind}`);

  return (
    <div data-testid="period-bar">
      <div
        ref={bar}
        className="ems-period-bar"
        onPointerDown={(e) => {
          if (!editable) return;
          e.currentTarget.setPointerCapture(e.pointerId);
          painting.current = slotAt(e.clientX);
          paint(painting.current);
        }}
        onPointerMove={(e) => {
          if (painting.current === null) return;
          const slot = slotAt(e.clientX);
          if (slot === painting.current) return;
          const [from, to] = slot > painting.current ? [painting.current + 1, slot] : [slot, painting.current - 1];
          for (let s = from; s <= to; s++) paint(s);
          painting.current = slot;
        }}
        onPointerUp={() => (painting.current = null)}
        onPointerCancel={() => (painting.current = null)}
      >
        {segments.map((s) => (
          <div
            key={s.start}
            className={segmentClass(s.kind)}
            style={{
              position: 'absolute',
              top: 0,
              bottom: 0,
              left: `${(s.start / DAY_MINUTES) * 100}%`,
              width: `${((s.end - s.start) / DAY_MINUTES) * 100}%`,
              background: segmentClass(s.kind) ? undefined : PERIOD_HEX[s.kind as PricePeriod],
            }}
            data-kind={s.kind}
            data-start={clockOf(s.start)}
            data-end={clockOf(s.end)}
          />
        ))}
        {Array.from({ length: SLOTS }, (_, slot) => {
          const start = slot * SLOT_MINUTES;
          const label = t('ems.template.slot', {
            start: clockOf(start),
            end: clockOf(start + SLOT_MINUTES),
            period: word(kindAt(start)),
          });
          return (
            <button
              key={slot}
              type="button"
              className="ems-period-slot"
              style={{ position: 'relative', background: 'transparent' }}
              disabled={!editable}
              tabIndex={slot === focused ? 0 : -1}
              aria-label={label}
              title={label}
              onFocus={() => setFocused(slot)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' || e.key === ' ') {
                  e.preventDefault();
                  paint(slot);
                } else if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
                  e.preventDefault();
                  const next = Math.max(0, Math.min(SLOTS - 1, slot + (e.key === 'ArrowRight' ? 1 : -1)));
                  (e.currentTarget.parentElement?.querySelectorAll('button')[next] as HTMLButtonElement)?.focus();
                }
              }}
            />
          );
        })}
      </div>
      <div className="ems-period-hours" aria-hidden>
        {HOUR_MARKS.map((h) => (
          <span key={h}>{String(h).padStart(2, '0')}</span>
        ))}
      </div>
      <div className="ems-period-legend" data-testid="period-legend">
        {PRICE_PERIODS.map((p) => (
          <span key={p}>
            <span className="ems-period-swatch" style={{ background: PERIOD_HEX[p] }} aria-hidden />
            {t('ems.template.hours', { period: t(`ems.periods.${p}`), hours: hours[p] })}
          </span>
        ))}
        {hours.gap > 0 ? (
          <span data-testid="period-gap">
            <span className="ems-period-swatch ems-period-gap" aria-hidden />
            {t('ems.template.hours', { period: t('ems.template.gap'), hours: hours.gap })}
          </span>
        ) : null}
        {hours.overlap > 0 ? (
          <span data-testid="period-overlap">
            <span className="ems-period-swatch ems-period-overlap" aria-hidden />
            {t('ems.template.hours', { period: t('ems.template.overlap'), hours: hours.overlap })}
          </span>
        ) : null}
      </div>
    </div>
  );
}
