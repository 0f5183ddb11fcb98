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
