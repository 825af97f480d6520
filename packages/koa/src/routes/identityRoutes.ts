import { notImplemented } from './notImplemented.js'

/** ERC-8004 identities: 501 until core's identity issue lands (replace this file). */
export const identityRoutes = [
  notImplemented('post', '/identity/create', 'Register an ERC-8004 identity for a wallet', 'ERC-8004 identities'),
  notImplemented('get', '/identity/list', 'All registered identities', 'ERC-8004 identities'),
  // Declared before /identity/:agentId so "wallet" is never read as an agent id.
  notImplemented('get', '/identity/wallet/:address', 'Identities bound to a wallet', 'ERC-8004 identities'),
  notImplemented('get', '/identity/:agentId', 'Identity metadata, capabilities and proof of ownership', 'ERC-8004 identities'),
]
