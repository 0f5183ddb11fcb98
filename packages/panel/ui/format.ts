/** Money in currency units with up to six decimals (the ledger counts micro-units). */
export function formatMoney(units: number): string {
  return `$${units.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 6 })}`;
}

export function formatMicros(micros: number): string {
  return formatMoney(micros / 1_000_000);
}

/** An ISO time in the reader's time zone, to the second. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString('en-GB', { dateStyle: 'short', timeStyle: 'medium' });
}

export function formatCount(value: number | undefined): string {
  return value === undefined ? '—' : value.toLocaleString('en-US');
}

/** What a caught failure says, for the page's error notice. */
export function formatFailure(failure: unknown): string {
  return failure instanceof Error ? failure.message : String(failure);
}
