/** Lowercased address sets, built once per parsed rule list so a lookup is O(1) at any list size. */
const cache = new WeakMap<readonly string[], ReadonlySet<string>>()

/**
 * The lowercase set of an address list, cached per list object.
 * @example addressIndex(rule.addresses).has(to.toLowerCase())
 */
export function addressIndex(addresses: readonly string[]): ReadonlySet<string> {
  let index = cache.get(addresses)
  if (!index) {
    index = new Set(addresses.map((address) => address.toLowerCase()))
    cache.set(addresses, index)
  }
  return index
}
