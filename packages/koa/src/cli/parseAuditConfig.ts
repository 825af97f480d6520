import type { AuditAnchorOptions } from '@agentwallet/core'
import { CliError } from './cliError.js'
import type { Env } from './loadConfig.js'

/** The trail's settings beside its key: how often it is checkpointed, and where heads are anchored. */
export type AuditConfig = {
  checkpointEvery: number | undefined
  anchor: AuditAnchorOptions | undefined
  /** An RFC 3161 timestamp authority asked to timestamp each checkpoint's head. */
  timestampUrl: string | undefined
}

/**
 * `AGENTWALLET_AUDIT_CHECKPOINT_EVERY`, `AGENTWALLET_AUDIT_ANCHOR_WALLET` (a managed wallet's address:
 * the anchor account), `AGENTWALLET_AUDIT_ANCHOR_CHAIN`, `AGENTWALLET_AUDIT_ANCHOR_EVERY`,
 * `AGENTWALLET_AUDIT_TSA_URL`, over the config file's `audit: { checkpointEvery, anchor: { wallet,
 * chain, every }, tsaUrl }`.
 * @example parseAuditConfig({ AGENTWALLET_AUDIT_ANCHOR_WALLET: '0x…' }, {})
 */
export function parseAuditConfig(env: Env, file: Record<string, unknown>): AuditConfig {
  const audit = (file.audit ?? {}) as Record<string, unknown>
  const anchor = (audit.anchor ?? {}) as Record<string, unknown>
  const wallet = env.AGENTWALLET_AUDIT_ANCHOR_WALLET || anchor.wallet
  if (wallet !== undefined && !/^0x[0-9a-fA-F]{40}$/.test(String(wallet)))
    throw new CliError(
      `AGENTWALLET_AUDIT_ANCHOR_WALLET must be a wallet's address (0x + 40 hex), not "${String(wallet)}"`,
    )
  const timestampUrl = env.AGENTWALLET_AUDIT_TSA_URL || audit.tsaUrl
  if (timestampUrl !== undefined && !/^https?:\/\//.test(String(timestampUrl)))
    throw new CliError(`AGENTWALLET_AUDIT_TSA_URL must be an http(s) URL, not "${String(timestampUrl)}"`)
  return {
    checkpointEvery: count(
      'AGENTWALLET_AUDIT_CHECKPOINT_EVERY',
      env.AGENTWALLET_AUDIT_CHECKPOINT_EVERY ?? audit.checkpointEvery,
    ),
    anchor:
      wallet === undefined
        ? undefined
        : {
            wallet: String(wallet) as `0x${string}`,
            chain: env.AGENTWALLET_AUDIT_ANCHOR_CHAIN || (anchor.chain as string | undefined),
            every: count(
              'AGENTWALLET_AUDIT_ANCHOR_EVERY',
              env.AGENTWALLET_AUDIT_ANCHOR_EVERY ?? anchor.every,
            ),
          },
    timestampUrl: timestampUrl === undefined ? undefined : String(timestampUrl),
  }
}

function count(name: string, value: unknown): number | undefined {
  if (value === undefined || value === '') return undefined
  const parsed = Number(value)
  if (!Number.isSafeInteger(parsed) || parsed < 1)
    throw new CliError(`${name} must be a whole number ≥ 1, not "${String(value)}"`)
  return parsed
}
