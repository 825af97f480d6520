import { Agent, request as httpRequest, type IncomingMessage } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'
import { isIP } from 'node:net'
import type { WebhookTarget } from './resolveWebhookTarget.js'
import type { WebhookAttempt } from './types.js'

/** Bytes of a reply read at most: enough to measure a receiver's answer, not to stream a service. */
const maxResponseBytes = 1024 * 1024
/** The excerpt kept of a public target's reply, in characters. */
const excerptChars = 500

/**
 * Keep-alive connection pools for deliveries, owned by the worker (`closeWebhookConnections` on stop).
 * Pools are keyed by the address connected to (and the TLS server name), never by the host name, so
 * a reused socket is always one to the address judged for this attempt.
 */
export type WebhookConnections = { http: Agent; https: HttpsAgent }

/** @example const connections = openWebhookConnections() */
export function openWebhookConnections(): WebhookConnections {
  return { http: new Agent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) }
}

/** @example closeWebhookConnections(connections) */
export function closeWebhookConnections(connections: WebhookConnections): void {
  connections.http.destroy()
  connections.https.destroy()
}

/**
 * POSTs one signed delivery to the address `resolveWebhookTarget` judged (pinned: the host is never
 * looked up again, so DNS cannot swap in another address) and reports what happened. Host header
 * and TLS server name stay the URL's host. Redirects are not followed: a 3xx is a failed attempt, so
 * a receiver cannot bounce us elsewhere. A private target's reply is counted, never kept. With
 * `connections`, a socket to the same address is reused; without, each attempt opens its own.
 * @example const attempt = await attemptDelivery({ target, body, headers, timeoutMs: 10_000, now })
 */
export async function attemptDelivery(parameters: {
  target: WebhookTarget
  body: string
  headers: Record<string, string>
  timeoutMs: number
  now: () => Date
  connections?: WebhookConnections | undefined
}): Promise<WebhookAttempt> {
  const { target } = parameters
  const at = parameters.now()
  const started = performance.now()
  const signal = AbortSignal.timeout(parameters.timeoutMs)
  const took = () => Math.round(performance.now() - started)
  let response: IncomingMessage
  try {
    response = await post(parameters, signal)
  } catch {
    const error = signal.aborted ? 'timeout' : 'network_error'
    return { at: at.toISOString(), durationMs: took(), statusCode: null, ok: false, error }
  }
  const statusCode = response.statusCode ?? 0
  const reply = await readReply(response, target.private ? 0 : excerptChars * 4)
  const excerpt = target.private ? '' : new TextDecoder().decode(reply.head).slice(0, excerptChars)
  return {
    at: at.toISOString(),
    durationMs: took(),
    statusCode,
    ok: statusCode >= 200 && statusCode < 300,
    responseBytes: reply.bytes,
    responseExcerpt: excerpt || undefined,
  }
}

function post(
  parameters: {
    target: WebhookTarget
    body: string
    headers: Record<string, string>
    connections?: WebhookConnections | undefined
  },
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const { url, address, family } = parameters.target
  const hostname = url.hostname.replace(/^\[|\]$/g, '')
  const secure = url.protocol === 'https:'
  const request = secure ? httpsRequest : httpRequest
  const pool = parameters.connections && (secure ? parameters.connections.https : parameters.connections.http)
  return new Promise((resolve, reject) => {
    const outgoing = request({
      protocol: url.protocol,
      // The judged address itself: nothing is looked up, and a pooled socket is one to this address.
      host: address,
      family,
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      headers: {
        host: url.host,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(parameters.body)),
        'user-agent': 'AgentWallet-Webhooks/1',
        ...parameters.headers,
      },
      servername: isIP(hostname) ? undefined : hostname,
      agent: pool ?? false,
      signal,
    })
    outgoing.once('response', resolve)
    outgoing.once('error', reject)
    outgoing.end(parameters.body)
  })
}

/** Counts the reply's bytes (up to `maxResponseBytes`, then hangs up) and keeps the first `keep`. */
async function readReply(response: IncomingMessage, keep: number): Promise<{ bytes: number; head: Buffer }> {
  const kept: Buffer[] = []
  let bytes = 0
  try {
    for await (const chunk of response as AsyncIterable<Buffer>) {
      if (bytes < keep) kept.push(chunk.subarray(0, keep - bytes))
      bytes += chunk.length
      if (bytes >= maxResponseBytes) break
    }
  } catch {
    // A reply cut short (timeout, reset) still has its status; what arrived is counted.
    response.destroy()
  }
  // A reply read to its end leaves the socket to its pool; one cut off at the limit was destroyed by `break`.
  return { bytes: Math.min(bytes, maxResponseBytes), head: Buffer.concat(kept) }
}
