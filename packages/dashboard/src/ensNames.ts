import { AgentWalletHttpError } from '@agentwallet/client'
import type { Api } from './api.js'

/** How long an answer is kept: names rarely change, and most recipients have none. */
const ttlMs = 10 * 60_000
const answers = new Map<string, { name: string | null; at: number }>()
const asking = new Map<string, Promise<string | null | undefined>>()

/**
 * A recipient's primary ENS name (`null`: it has none), asked once per address and kept, "no name"
 * included, so reloads on every live event do not ask again (`/ens/reverse` answers 404 for no name).
 * `undefined` when the server could not tell (an error other than 404): asked again next time.
 * @example const name = await reverseName(api, tx.to)
 */
export function reverseName(api: Api, address: string): Promise<string | null | undefined> {
  const key = address.toLowerCase()
  const known = answers.get(key)
  if (known && Date.now() - known.at < ttlMs) return Promise.resolve(known.name)
  const pending = asking.get(key)
  if (pending) return pending
  const asked = api
    .reverseEnsName({ address })
    .then((body): string | null => body.name)
    .catch((error: unknown) =>
      error instanceof AgentWalletHttpError && error.status === 404 ? null : undefined,
    )
    .then((name) => {
      if (name !== undefined) answers.set(key, { name, at: Date.now() })
      asking.delete(key)
      return name
    })
  asking.set(key, asked)
  return asked
}
