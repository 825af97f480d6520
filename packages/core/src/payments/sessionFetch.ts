import type { OperationMethods } from '../api/sessionMethods.js'
import type { CallOptions } from '../schemas/defineContract.js'
import type { PayAndFetchAnswer, PayAndFetchParameters } from './payAndFetchSchema.js'

/** What `agent.fetch` takes beside the URL and the request: the paying wallet and the cap. */
export type SessionFetchOptions = Pick<PayAndFetchParameters, 'wallet' | 'maxAmount' | 'chain'> & CallOptions

/** The subset of `RequestInit` a paid request carries: method, headers and a text body. */
export type SessionFetchInit = {
  method?: PayAndFetchParameters['method']
  headers?: Record<string, string> | [string, string][] | Headers
  body?: string
}

/**
 * `fetch` that pays x402: `payAndFetch` with a `fetch`-like signature, bound to the session.
 * @example const { response } = await agent.fetch('https://api.example/data', {}, { wallet, maxAmount: '0.10' })
 */
export function sessionFetch(
  methods: Pick<OperationMethods, 'payAndFetch'>,
): (
  url: string,
  init: SessionFetchInit | undefined,
  options: SessionFetchOptions,
) => Promise<PayAndFetchAnswer> {
  return (url, init, { idempotencyKey, ...payer }) =>
    methods.payAndFetch(
      {
        ...payer,
        url,
        ...(init?.method ? { method: init.method } : {}),
        ...(init?.headers ? { headers: Object.fromEntries(new Headers(init.headers)) } : {}),
        ...(init?.body !== undefined ? { body: init.body } : {}),
      },
      { idempotencyKey },
    )
}
