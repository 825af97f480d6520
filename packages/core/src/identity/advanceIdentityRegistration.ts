import type { AgentWalletContext } from '../context.js'
import { resumeOperations } from '../operations/backgroundOperations.js'
import { driveOperation } from '../operations/driveOperation.js'
import { identityRegistration } from './identityRegistration.js'
import type { IdentityRecord } from './types.js'

export type AdvanceIdentityOptions = {
  /**
   * Foreground (the request): return the record as soon as a step pauses for approval, and throw a
   * step's error (after recording `failed`). Background: wait for the approver, record errors only.
   */
  foreground?: boolean | undefined
}

/**
 * Drives one registration (`identityRegistration`'s steps) to `registered` or `failed`. Returns the
 * record as it stands when done, paused (foreground) or aborted.
 * @example const record = await advanceIdentityRegistration(ctx, id, signal, { foreground: true })
 */
export function advanceIdentityRegistration(
  ctx: AgentWalletContext,
  id: string,
  signal: AbortSignal,
  options: AdvanceIdentityOptions = {},
): Promise<IdentityRecord | undefined> {
  return driveOperation(ctx, identityRegistration, id, signal, {
    foreground: options.foreground,
    until: options.foreground ? (record) => record.status === 'awaiting_approval' : undefined,
  })
}

/**
 * Picks up registrations a previous process left unfinished (the composition root resumes every
 * registered operation at start; this is the identity part alone).
 * @example await resumeIdentityRegistrations(ctx)
 */
export function resumeIdentityRegistrations(ctx: AgentWalletContext): Promise<void> {
  return resumeOperations(ctx, [identityRegistration])
}
