import type { WebhookAttempt } from './types.js'

/**
 * POSTs one signed delivery and reports what happened. Redirects are not followed: a 3xx is a
 * failed attempt, so a receiver cannot bounce us to an address the SSRF check refused.
 */
export async function attemptDelivery(parameters: {
  url: string
  body: string
  headers: Record<string, string>
  timeoutMs: number
  now: () => Date
}): Promise<WebhookAttempt> {
  const at = parameters.now()
  const started = performance.now()
  try {
    const response = await fetch(parameters.url, {
      method: 'POST',
      body: parameters.body,
      headers: {
        'content-type': 'application/json',
        'user-agent': 'AgentWallet-Webhooks/1',
        ...parameters.headers,
      },
      redirect: 'manual',
      signal: AbortSignal.timeout(parameters.timeoutMs),
    })
    const excerpt = (await response.text().catch(() => '')).slice(0, 500)
    return {
      at: at.toISOString(),
      durationMs: Math.round(performance.now() - started),
      statusCode: response.status,
      ok: response.status >= 200 && response.status < 300,
      responseExcerpt: excerpt || undefined,
    }
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError'
    return {
      at: at.toISOString(),
      durationMs: Math.round(performance.now() - started),
      statusCode: null,
      ok: false,
      error: timedOut ? 'timeout' : 'network_error',
    }
  }
}
