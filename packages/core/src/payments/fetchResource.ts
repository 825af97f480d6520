import { BaseError, isAgentWalletError } from '../errors/baseError.js'
import { ValidationError } from '../errors/errors.js'
import { resolveWebhookTarget } from '../webhooks/resolveWebhookTarget.js'
import type { WebhookOptions } from '../webhooks/webhookOptions.js'
import type { ResourceResponse } from './payAndFetchSchema.js'

/** The request as stored with a payment, to send again with the payment header. */
export type ResourceRequest = {
  url: string
  method: string
  headers?: Record<string, string> | undefined
  body?: string | undefined
}

/** A body longer than this is cut (`truncated`): the answer and the stored record stay bounded. */
export const maxResponseBodyBytes = 1024 * 1024
/** How long one request to a resource may take. */
const requestTimeoutMs = 30_000

/** The resource's answer, with its header getter (x402 reads `PAYMENT-REQUIRED` and `PAYMENT-RESPONSE`). */
export type FetchedResource = { response: ResourceResponse; header: (name: string) => string | null }

/**
 * Sends the request (with `extraHeaders`, the payment) and reads the answer, its body cut at
 * {@link maxResponseBodyBytes}. Like a webhook, the host must not resolve to a loopback, private or
 * other special-purpose address unless the operator allows its range (`webhooks.allowPrivateTargets`):
 * `validation_failed` with `details.reason` `private_address` (SSRF). An unreachable resource is
 * `resource_unavailable`.
 * @example const { response, header } = await fetchResource({ url, method: 'GET' }, ctx.options.webhooks)
 */
export async function fetchResource(
  request: ResourceRequest,
  targets: Pick<WebhookOptions, 'allowPrivateTargets' | 'lookup'>,
  extraHeaders: Record<string, string> = {},
): Promise<FetchedResource> {
  await resolveWebhookTarget(request.url, targets).catch((error: unknown) => {
    if (!isAgentWalletError(error, 'validation_failed')) throw error
    const reason = (error.details as { reason?: string } | undefined)?.reason
    throw new ValidationError(
      reason === 'unresolvable'
        ? 'The resource host does not resolve'
        : 'Resources on loopback, private or other special-purpose addresses are refused (the operator can allow ranges)',
      { details: { origin: originOf(request.url), reason } },
    )
  })
  let answer: Response
  try {
    answer = await fetch(request.url, {
      method: request.method,
      headers: { ...request.headers, ...extraHeaders },
      body: request.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(requestTimeoutMs),
    })
  } catch (error) {
    throw new BaseError('resource_unavailable', `The resource at ${originOf(request.url)} did not answer`, {
      details: { origin: originOf(request.url) },
      cause: error,
    })
  }
  const { body, truncated } = await readBody(answer)
  const headers: Record<string, string> = {}
  answer.headers.forEach((value, name) => {
    headers[name] = value
  })
  return {
    response: { status: answer.status, headers, body, truncated },
    header: (name) => answer.headers.get(name),
  }
}

async function readBody(answer: Response): Promise<{ body: string; truncated: boolean }> {
  if (!answer.body) return { body: '', truncated: false }
  const reader = answer.body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  let truncated = false
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    chunks.push(value)
    size += value.byteLength
    if (size > maxResponseBodyBytes) {
      truncated = true
      await reader.cancel()
      break
    }
  }
  const bytes = Buffer.concat(chunks).subarray(0, maxResponseBodyBytes)
  return { body: new TextDecoder().decode(bytes), truncated }
}

function originOf(url: string): string {
  return new URL(url).origin
}
