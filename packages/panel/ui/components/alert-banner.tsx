import { base } from '../api-client';
import { describeAlert, type ActiveAlert } from '../use-alerts';

/** A banner on every page while an alert is active, linking to the Alerts page. */
export function AlertBanner({ active }: { active: ActiveAlert[] }) {
  if (active.length === 0) return null;
  return (
    <div class="alert-banner" role="alert">
      <strong>{active.length === 1 ? '1 alert is active' : `${active.length} alerts are active`}:</strong>{' '}
      {active.slice(0, 3).map(describeAlert).join('; ')}
      {active.length > 3 && '; …'} <a href={`${base}/alerts`}>See alerts</a>
    </div>
  );
}
