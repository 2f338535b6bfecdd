// Billing months of a SIM card's plan: a month named YYYY-MM runs from its start day (1–28) of that calendar
// month to the day before the start day of the next. Days are YYYY-MM-DD of the card's set's calendar.
const DAY = 86_400_000;

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function ym(year: number, month: number): string {
  // month may run over (0 or 13): normalised through Date
  const d = new Date(Date.UTC(year, month - 1, 1));
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}`;
}

export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);
}

/** The billing month a day belongs to. */
export function monthOf(day: string, startDay: number): string {
  const year = Number(day.slice(0, 4));
  const month = Number(day.slice(5, 7));
  return Number(day.slice(8, 10)) >= startDay ? ym(year, month) : ym(year, month - 1);
}

/** First and last day of a billing month. */
export function monthRange(month: string, startDay: number): { from: string; to: string } {
  const year = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  const from = `${month}-${pad(startDay)}`;
  const to = addDays(`${ym(year, m + 1)}-${pad(startDay)}`, -1);
  return { from, to };
}

/** `count` billing months ending with `month`, oldest first. */
export function monthsUpTo(month: string, count: number): string[] {
  const year = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  return Array.from({ length: count }, (_, i) => ym(year, m - (count - 1 - i)));
}

/** Every day from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}
