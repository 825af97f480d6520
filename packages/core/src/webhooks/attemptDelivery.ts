import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import type { WebhookTarget } from './resolveWebhookTarget.js'
import type { WebhookAttempt } from './types.js'

/** Bytes of a reply read at most: enough to measure a receiver's answer, not to stream a service. */
const maxResponseBytes = 1024 * 1024
/** The excerpt kept of a public target's reply, in characters. */
const excerptChars = 500

/**
 * POSTs one signed delivery to the address `resolveWebhookTarget` judged (pinned: the host is never
 * looked up again, so DNS cannot swap in another address) and reports what happened. Host header
 * and TLS server name stay the URL's host. Redirects are not followed: a 3xx is a failed attempt, so
 * a receiver cannot bounce us elsewhere. A private target's reply is counted, never kept.
 * @example const attempt = await attemptDelivery({ target, body, headers, timeoutMs: 10_000, now })
 */
export async function attemptDelivery(parameters: {
  target: WebhookTarget
  body: string
  headers: Record<string, string>
  timeoutMs: number
  now: () => Date
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
  parameters: { target: WebhookTarget; body: string; headers: Record<string, string> },
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const { url, address, family } = parameters.target
  const hostname = url.hostname.replace(/^\[|\]$/g, '')
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise((resolve, reject) => {
    const outgoing = request({
      protocol: url.protocol,
      hostname,
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
      lookup: pinnedLookup(address, family),
      servername: isIP(hostname) ? undefined : hostname,
      // A fresh connection per attempt: a pooled socket would be one connected to an earlier answer.
      agent: false,
      signal,
    })
    outgoing.once('response', resolve)
    outgoing.once('error', reject)
    outgoing.end(parameters.body)
  })
}

/** Answers every lookup with the judged address (in the shape asked for: one, or `all`). */
function pinnedLookup(address: string, family: 4 | 6): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }])
    else callback(null, address, family)
  }
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
  } finally {
    response.destroy()
  }
  return { bytes: Math.min(bytes, maxResponseBytes), head: Buffer.concat(kept) }
}
