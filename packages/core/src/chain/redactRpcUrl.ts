/**
 * An RPC URL as it may be shown (health, logs): scheme and host only. viem's `getUrl` drops the
 * user and password; API keys also sit in paths (`/v2/<key>`) and queries (`?apikey=`), so those go too.
 * @example redactRpcUrl('https://user:pw@eth.example.com/v2/secret') // 'https://eth.example.com'
 */
export function redactRpcUrl(url: string): string {
  try {
    const { protocol, host } = new URL(url)
    return `${protocol}//${host}`
  } catch {
    return 'an unparsable URL'
  }
}
