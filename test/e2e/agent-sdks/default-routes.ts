/**
 * Every route of the example server's default configuration that serves all three client
 * interfaces: the simulator behind a Messages upstream (with failover), and behind each upstream
 * protocol on its own. An agent SDK must complete its tool loop on each.
 */
export const DEFAULT_ROUTES = [
  'signalbox-sim',
  'sim-via-responses',
  'sim-via-messages',
  'sim-via-chat',
] as const;
