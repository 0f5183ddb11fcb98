import type { TestGateway } from './start-test-gateway';

type UpstreamList = { data: { name: string; credentials: { name: string; reason: string | null }[] }[] };

/**
 * Puts every upstream credential of the gateway back in service through the admin API, as an
 * operator would: what one test taught the gateway (a key refused, a cooldown, failures counted
 * towards a circuit) does not carry over to the next test that uses the same upstream.
 */
export async function enableEveryCredential(server: TestGateway): Promise<void> {
  const headers = { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' };
  const listed = (await (await fetch(`${server.url}/admin/upstreams`, { headers })).json()) as UpstreamList;
  for (const upstream of listed.data) {
    for (const credential of upstream.credentials) {
      if (credential.reason === 'key-missing') continue;
      const answer = await fetch(`${server.url}/admin/upstreams/${encodeURIComponent(upstream.name)}/enable`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ credential: credential.name }),
      });
      if (answer.status !== 200) throw new Error(`enabling ${upstream.name}/${credential.name} answered ${answer.status}`);
    }
  }
}
