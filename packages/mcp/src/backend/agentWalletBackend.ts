import type { CallOptions, ContractName as OperationName } from '@agentwallet/core/contract'
import type { ApprovalInstructionsOptions } from '../tools/approvalInstructions.js'

/**
 * Where the agent tools run their operations, in-process or over HTTP: "call operation `name`
 * with this input and idempotency key", nothing per operation. Both refuse operations that are
 * not tools (approve, policy changes, keys) and any key whose role is not `agent`.
 */
export type AgentWalletBackend = {
  kind: 'in-process' | 'remote'
  /** Where humans approve paused actions (shown in `howToApprove`). */
  approvals: ApprovalInstructionsOptions
  /** Resolves once the backend knows it acts as an agent; rejects (`forbidden`, `unauthorized`) when not. */
  ready(): Promise<void>
  call(
    operation: OperationName,
    input: Record<string, unknown>,
    options: CallOptions,
  ): Promise<Record<string, unknown>>
}

/** One operation as a session or client method: input and idempotency key in, the answer out. */
export type OperationCall = (input: unknown, options?: CallOptions) => Promise<Record<string, unknown>>
