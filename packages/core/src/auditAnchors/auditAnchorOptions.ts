import type { Address } from 'viem'

/**
 * Where checkpoint heads are published (`createAgentWallet({ audit: { anchor } })`): the anchor
 * account (a managed wallet's address; its key in the vault, its gas the operator's), the chain
 * (default: the wallet's) and how often (every `every`-th checkpoint of a tenant; default 1).
 */
export type AuditAnchorOptions = { wallet: Address; chain?: string | undefined; every?: number | undefined }

/** An RFC 3161 timestamp authority asked to timestamp each anchored head (`audit.timestamp` entries). */
export type AuditTimestampOptions = { url: string }
