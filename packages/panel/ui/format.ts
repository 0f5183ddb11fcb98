/**
 * Every date, number and amount the panel shows, in one place and in the browser's own locale (the
 * one its date and number inputs use too), so tables, inputs and chart axes read alike.
 */
const LOCALE = navigator.language;

/** The currency the ledger counts in: prices, costs and balances are in its units. */
const CURRENCY = 'USD';

const MONEY = new Intl.NumberFormat(LOCALE, { style: 'currency', currency: CURRENCY, minimumFractionDigits: 2, maximumFractionDigits: 6 });
const COUNT = new Intl.NumberFormat(LOCALE);
const SHARE = new Intl.NumberFormat(LOCALE, { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 });
const TIME = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'short', timeStyle: 'medium' });
const CLOCK = new Intl.DateTimeFormat(LOCALE, { timeStyle: 'medium' });
const AXIS_CLOCK = new Intl.DateTimeFormat(LOCALE, { timeStyle: 'short' });
const AXIS_DATE = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'short' });

/** Money in currency units with up to six decimals (the ledger counts micro-units); a price, a cost or a balance. */
export function formatMoney(units: number): string {
  return MONEY.format(units);
}

export function formatMicros(micros: number): string {
  return formatMoney(micros / 1_000_000);
}

/** An ISO time in the reader's time zone, to the second. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : TIME.format(date);
}

/** A time of today, to the second ("last refreshed at"). */
export function formatClock(date: Date): string {
  return CLOCK.format(date);
}

/** A chart's time axis label for a bucket starting at `seconds`: the time of day, or the date for day buckets. */
export function formatAxisTime(seconds: number, bucket: 'minute' | 'hour' | 'day'): string {
  return (bucket === 'day' ? AXIS_DATE : AXIS_CLOCK).format(seconds * 1000);
}

export function formatCount(value: number | undefined): string {
  return value === undefined ? '—' : COUNT.format(value);
}

/** `part` of `whole` as a percentage, to a tenth of a percent. */
export function formatShare(part: number, whole: number): string {
  return SHARE.format(part / whole);
}

/** An HTTP status's class for its colour: a 2xx succeeded, a 4xx is the client's mistake, a 5xx the server's or the upstream's. */
export function statusClassOf(status: number): string {
  if (status >= 500) return 'status-server-error';
  if (status >= 400) return 'status-client-error';
  if (status >= 300) return 'status-redirect';
  return 'status-success';
}

/** What a caught failure says, for the page's error notice. */
export function formatFailure(failure: unknown): string {
  return failure instanceof Error ? failure.message : String(failure);
}

/** A key's limits (or an account's ceiling) as a person reads them: "64 requests in flight, 256 waiting (30 s at most)". */
export function formatKeyLimits(limits: Record<string, number>): string {
  const window = `per ${formatCount(limits.windowSeconds ?? 60)} s`;
  const parts = [
    limits.requests !== undefined && `${formatCount(limits.requests)} requests ${window}`,
    limits.tokens !== undefined && `${formatCount(limits.tokens)} tokens ${window}`,
    limits.concurrency !== undefined && `${formatCount(limits.concurrency)} requests in flight`,
    limits.concurrency !== undefined && `${formatCount(limits.queueSize ?? 0)} waiting (${formatCount((limits.queueTimeoutMs ?? 30_000) / 1000)} s at most)`,
    limits.quotaTokens !== undefined && `${formatCount(limits.quotaTokens)} tokens per ${formatCount(limits.quotaPeriodHours ?? 720)} h`,
  ];
  const text = parts.filter(Boolean).join(', ');
  return text || 'no limits';
}
