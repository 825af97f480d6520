/** A failed call, classified by the server's error code (never by message text). */
export class ApiError extends Error {
  override name = 'ApiError'
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

export type Api = <T = Record<string, unknown>>(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
) => Promise<T>

/**
 * Same-origin JSON calls with the key in the `X-API-Key` header (never in the URL).
 * @example const { wallets } = await createApi(key)('GET', '/wallet/list')
 */
export function createApi(key: string): Api {
  return async <T>(method: 'GET' | 'POST', path: string, body?: unknown) => {
    let response: Response
    try {
      response = await fetch(path, {
        method,
        headers: {
          'x-api-key': key,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'omit',
        cache: 'no-store',
      })
    } catch {
      throw new ApiError(0, 'network', 'The server did not answer. Is it running?')
    }
    const json = (await response.json().catch(() => undefined)) as
      | { success?: boolean; error?: { code?: string; message?: string } }
      | undefined
    if (!response.ok || json?.success === false) {
      const code = json?.error?.code ?? 'http_' + response.status
      throw new ApiError(response.status, code, json?.error?.message ?? `HTTP ${response.status}`)
    }
    return json as T
  }
}
