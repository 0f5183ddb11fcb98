import { useMemo } from 'preact/hooks';
import { formatCount, formatMicros, formatShare } from '../format';
import type { Summary } from './usage-charts';

type ModelCache = { model: string; inputTokens: number; cacheReadTokens: number; cacheWriteTokens: number; cacheSavingsMicros: number };

/** The summary's buckets added up per model (models with input only), in the order they first appear. */
function totalsByModel(summary: Summary | undefined): ModelCache[] {
  const totals = new Map<string, ModelCache>();
  for (const row of summary?.data ?? []) {
    if (!row.group) continue;
    const total = totals.get(row.group) ?? { model: row.group, inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, cacheSavingsMicros: 0 };
    total.inputTokens += row.inputTokens;
    total.cacheReadTokens += row.cacheReadTokens;
    total.cacheWriteTokens += row.cacheWriteTokens;
    total.cacheSavingsMicros += row.cacheSavingsMicros;
    totals.set(row.group, total);
  }
  return [...totals.values()].filter(total => total.inputTokens > 0);
}

/**
 * Per model, over the charts' time range: how much of the input was read from the prompt cache,
 * what was written to it, and what the cache saved (the input at its full price minus what it cost).
 */
export function CacheByModel({ byModel }: { byModel?: Summary }) {
  const totals = useMemo(() => totalsByModel(byModel), [byModel]);
  if (totals.length === 0) return null;
  return (
    <section aria-labelledby="cache-by-model-title">
      <h2 id="cache-by-model-title">Prompt cache by model</h2>
      <p class="hint">
        Over the charts' time range. Saved: what the input would have cost at its full price, minus
        what it cost with cache reads and writes.
      </p>
      <table class="cache-by-model">
        <thead>
          <tr>
            <th scope="col">Model</th>
            <th scope="col">Input tokens</th>
            <th scope="col">Read from cache</th>
            <th scope="col">Written to cache</th>
            <th scope="col">Saved by cache</th>
          </tr>
        </thead>
        <tbody>
          {totals.map(total => (
            <tr key={total.model} data-model={total.model}>
              <td>
                <code>{total.model}</code>
              </td>
              <td class="number">{formatCount(total.inputTokens)}</td>
              <td class="number">{formatShare(total.cacheReadTokens, total.inputTokens)}</td>
              <td class="number">{formatCount(total.cacheWriteTokens)}</td>
              <td class="number">{formatMicros(total.cacheSavingsMicros)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
