import { NotImplementedError } from '@agentwallet/core'
import { defineRoute, type HttpMethod, type RouteSpec } from './defineRoute.js'

/**
 * A placeholder endpoint for a capability core does not have yet: authenticated like the rest, and
 * answering 501 `not_implemented`, never a fake result. Replace the router file when it lands.
 * @example notImplemented('post', '/defi/swap', 'Swap tokens', 'DeFi swaps')
 */
export function notImplemented(
  method: HttpMethod,
  path: string,
  summary: string,
  feature: string,
): RouteSpec {
  return defineRoute({
    method,
    path,
    summary: `${summary} (not implemented yet: 501)`,
    handler: async () => {
      throw new NotImplementedError(feature, { details: { route: `${method.toUpperCase()} ${path}` } })
    },
  })
}
