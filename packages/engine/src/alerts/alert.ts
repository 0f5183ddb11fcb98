/** What an alert is about; the payload's `type`. */
export type AlertType = 'balance.below' | 'budget.spent' | 'credential.disabled' | 'circuit.open';

/**
 * One alert as its webhook carries it (JSON): a new `id` per crossing, the same on every retry of
 * its delivery. Money is in micro-units and currency units; times are ISO 8601 in UTC.
 */
export type Alert = {
  id: string;
  type: AlertType;
  /** When the threshold was crossed. */
  createdAt: string;
  /** What crossed it: ids and names, never a credential's key. */
  data: Record<string, string | number | null>;
};

/** The thresholds that raise an alert; each left out is not watched. */
export type AlertRules = {
  /** An account's balance falls below this many micro-units (after a charge). */
  balanceBelowMicros?: number;
  /** A budget's spend in its period reaches this share of its limit, in percent (1–100). */
  budgetSpentPercent?: number;
  /** An upstream credential is taken out of service (revoked, refused). */
  credentialDisabled?: boolean;
  /** An upstream's circuit (or one credential's) opens. */
  circuitOpen?: boolean;
};
