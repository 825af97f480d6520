/**
 * The explorer base URL that links a transaction to the dashboard's transaction page: explorer links
 * are `<base>/tx/<hash>`, so this base yields `<publicUrl>/dashboard/#/tx/<hash>`. Give it to a chain
 * with no explorer of its own (the devnet) as its `explorerUrl`.
 * @example dashboardExplorerUrl('http://127.0.0.1:8080') // 'http://127.0.0.1:8080/dashboard/#'
 */
export function dashboardExplorerUrl(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/dashboard/#`
}
