import { ErrorNotice } from '../components/error-notice';
import { formatTime } from '../format';
import { describeAlert, useAlerts } from '../use-alerts';

/** The admin console's alerts: those active now, and every webhook delivery attempt, newest first. */
export function AlertsPage() {
  const { active, deliveries, error } = useAlerts(true);
  return (
    <>
      <ErrorNotice error={error} />
      <h2>Active</h2>
      {active.length === 0 ? (
        <p class="muted">No alert is active.</p>
      ) : (
        <ul class="alerts">
          {active.map(alert => (
            <li key={alert.id} data-alert={alert.type}>
              {describeAlert(alert)} <span class="muted">since {formatTime(alert.createdAt)}</span>
            </li>
          ))}
        </ul>
      )}
      <h2>Deliveries</h2>
      <table class="deliveries">
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Alert</th>
            <th scope="col">Attempt</th>
            <th scope="col">Outcome</th>
            <th scope="col">Status</th>
            <th scope="col">Target</th>
          </tr>
        </thead>
        <tbody>
          {deliveries.map(delivery => (
            <tr key={delivery.id} data-outcome={delivery.outcome}>
              <td>{formatTime(delivery.time)}</td>
              <td>{delivery.alertType}</td>
              <td class="number">{delivery.attempt}</td>
              <td>
                <span class={`status status-${delivery.outcome}`}>{delivery.outcome}</span>
                {delivery.error && <div class="muted">{delivery.error}</div>}
              </td>
              <td class="number">{delivery.httpStatus ?? '—'}</td>
              <td>
                <code>{delivery.target}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
