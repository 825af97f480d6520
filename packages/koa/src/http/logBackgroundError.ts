import { isAgentWalletError } from '@agentwallet/core'
import type { Logger } from 'pino'

/**
 * Core's `onBackgroundError` for the server: what a tracker pass or background work could not do, as
 * one warn line with the error's code and details (`step`, `chain`, `transactionId`, the node's
 * `reason` for a skipped tracker step). Never the cause's text, whose RPC URLs can hold API keys: an
 * error without a code is logged by its name alone.
 * @example createAgentWallet({ …, onBackgroundError: logBackgroundError(logger) })
 */
export function logBackgroundError(logger: Logger): (error: unknown) => void {
  return (error) => {
    if (isAgentWalletError(error))
      logger.warn({ code: error.code, details: error.details }, 'background step failed')
    else logger.error({ errorName: error instanceof Error ? error.name : typeof error }, 'background error')
  }
}
