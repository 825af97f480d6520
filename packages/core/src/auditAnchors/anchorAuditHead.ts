import { encodeAnchorData } from '../audit/auditAnchorData.js'
import type { AgentWalletContext } from '../context.js'
import { NotFoundError } from '../errors/errors.js'
import { sendTransaction } from '../transactions/sendTransaction.js'
import type { SendAnswer } from '../transactions/transactionSchemas.js'
import type { AuditAnchorOptions } from './auditAnchorOptions.js'

/**
 * Publishes a tenant's chain value through `upto` on a chain: a self-send of 0 from the anchor
 * account (a managed wallet the operator funds) whose calldata is the head (`encodeAnchorData`). It
 * goes through the money path like any send (its rules, its decision and signature in the anchor
 * wallet's tenant's trail), so the tracker follows it through reorgs to finality.
 * @example await anchorAuditHead(ctx, { wallet: '0x…' }, 'default', { upto: 101, head })
 */
export async function anchorAuditHead(
  ctx: AgentWalletContext,
  anchor: AuditAnchorOptions,
  tenantId: string,
  head: { upto: number; head: string },
): Promise<SendAnswer> {
  const [wallet] = await ctx.storage.query('wallets', { where: { address: anchor.wallet } })
  if (!wallet) throw new NotFoundError('Wallet', { details: { address: anchor.wallet } })
  const principal = { tenantId: wallet.tenantId, id: 'audit-anchor', role: 'admin' as const }
  return sendTransaction(ctx, principal, {
    wallet: wallet.address,
    to: wallet.address,
    value: '0',
    chain: anchor.chain ?? wallet.chain,
    data: encodeAnchorData(tenantId, head),
  })
}
