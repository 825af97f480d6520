import { notImplemented } from './notImplemented.js'

/** Safe multisig wallets: 501 until core's multisig issue lands (replace this file). */
export const multisigRoutes = [
  notImplemented('post', '/multisig/deploy', 'Deploy a Safe with owners and threshold', 'Multisig wallets'),
  notImplemented('post', '/multisig/:address/propose', 'Propose a Safe transaction', 'Multisig wallets'),
  notImplemented('post', '/multisig/:address/confirm', 'Confirm a Safe transaction', 'Multisig wallets'),
]
