import type * as z from 'zod/mini'
import type { ErrorCode } from '../errors/errorCodes.js'

/** A kind of chain (as `vault`'s `ChainFamily`; the contract imports no port). */
export type ChainFamily = 'evm' | 'solana'

/** `families` of an operation that serves wallets and chains of every family. */
export const everyFamily: readonly ChainFamily[] = ['evm', 'solana']

/**
 * Who may call an operation. `agent` keys act only on their own wallets and the records those
 * wallets made (another agent's are `not_found`); `approver` keys read their tenant and decide
 * approvals; `admin` keys manage their tenant; `root` is the operator's root admin key alone.
 */
export type Caller = 'agent' | 'approver' | 'admin' | 'root'

export type HttpMethod = 'get' | 'post' | 'delete'

/** Where an operation lives over HTTP. Path parameters (`:wallet`) are fields of the input. */
export type HttpBinding = {
  method: HttpMethod
  path: string
  /** Status of a success. */
  status: 200 | 201 | 202
  /** For operations that can pause for a human: the status of an answer whose `status` is `pending_approval`. */
  whenPaused?: 202 | undefined
  /** Further paths answering the same (the spec names `/webhooks/history` beside `/webhooks/logs`). */
  aliases?: readonly string[] | undefined
  /**
   * Body or query fields accepted under an older name and renamed before validation (the spec's
   * `walletAddress` for what every operation calls `wallet`). Shown in the OpenAPI description.
   */
  renamedFields?: Readonly<Record<string, string>> | undefined
}

/** What a call carries beside its input. */
export type CallOptions = {
  /** For operations declared `idempotent`: a replay under the same key answers the first call. */
  idempotencyKey?: string | undefined
}

/**
 * What an operation is, for everyone who calls it: its schemas, roles, errors and HTTP binding. No
 * action: the contract is zod only, so a browser, an edge runtime or a tool host can load it.
 */
export type OperationContractBody<
  TInput extends z.ZodMiniObject = z.ZodMiniObject,
  TOutput extends z.ZodMiniType = z.ZodMiniType,
  TErrors extends readonly ErrorCode[] = readonly ErrorCode[],
> = {
  /** One line, shown in the OpenAPI document. */
  summary: string
  /** What it does, when to use it and what it answers: written for a language model choosing a tool. */
  description: string
  /** Every field the call takes, path parameters included. Strict: an unknown field is refused. */
  input: TInput
  /** What a success answers (over HTTP, inside `{ success: true, … }`). */
  output: TOutput
  /** Deny by default: only these callers may call it (`forbidden` for the rest). */
  roles: readonly Caller[]
  /** Whether it takes an idempotency key (`Idempotency-Key` over HTTP): a replay answers the first call. */
  idempotent: boolean
  /** Whether it can move value (sign and send a transaction that spends or pays gas). */
  movesValue: boolean
  http: HttpBinding
  /** The codes it can fail with, beside those of every operation (`commonErrors`). */
  errors: TErrors
  /** Whether agents are offered it as a tool (MCP, agent frameworks). Only operations agents may call. */
  tool: boolean
  /**
   * The chain families it serves (default `['evm']`: deny by default). A call whose `chain`, or whose
   * `wallet`'s chain, is of another family is `unsupported_chain_family` (422) before its action runs.
   */
  families?: readonly ChainFamily[] | undefined
}

/** One operation's contract, named: camelCase, the session and client method; its snake_case form names the agent tool. */
export type OperationContract<
  TName extends string = string,
  TInput extends z.ZodMiniObject = z.ZodMiniObject,
  TOutput extends z.ZodMiniType = z.ZodMiniType,
  TErrors extends readonly ErrorCode[] = readonly ErrorCode[],
> = OperationContractBody<TInput, TOutput, TErrors> & { name: TName }

type AnyContractBody = OperationContractBody<z.ZodMiniObject, z.ZodMiniType<Record<string, unknown>>>

/** The contracts of `defineContracts`, each named after its key, its schemas and error codes kept literal. */
export type NamedContracts<TBodies extends Record<string, AnyContractBody>> = {
  [N in keyof TBodies & string]: OperationContract<
    N,
    TBodies[N]['input'],
    TBodies[N]['output'],
    TBodies[N]['errors']
  >
}

/**
 * Declares a domain's operations, each under its name; the literal types of names, schemas and
 * error codes flow into the session, the client and the tools.
 * @example export const walletContract = defineContracts({ getWallet: { summary: '…', description: '…', input, output, roles: ['agent'], idempotent: false, movesValue: false, http: { method: 'get', path: '/wallet/:wallet', status: 200 }, errors: ['not_found'], tool: true } })
 */
export function defineContracts<const TBodies extends Record<string, AnyContractBody>>(
  bodies: TBodies,
): NamedContracts<TBodies> {
  return Object.fromEntries(
    Object.entries(bodies).map(([name, body]) => [name, { name, ...body }]),
  ) as NamedContracts<TBodies>
}

/**
 * Codes any operation can answer: bad input, a caller without the role, a wallet or chain of a family
 * the operation does not serve (`families`), and faults.
 */
export const commonErrors = [
  'validation_failed',
  'forbidden',
  'unsupported_chain_family',
  'internal',
] as const satisfies ErrorCode[]

/** Codes of operations that read or write a chain. */
export const chainErrors = ['unsupported_chain', 'chain_unavailable'] as const satisfies ErrorCode[]

/**
 * Codes of an operation that submits an intent through the money path (`submitIntent`): its policy,
 * funds and idempotency checks, and its chain. One that signs an on-chain tx adds `transaction_failed`.
 */
export const intentErrors = [
  'policy_blocked',
  'insufficient_funds',
  'idempotency_conflict',
  'screening_unavailable',
  ...chainErrors,
] as const satisfies ErrorCode[]

/** `proposeSafeTransaction` → `propose_safe_transaction`. */
export function toolNameOf(operation: Pick<OperationContract, 'name'>): string {
  return operation.name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)
}

/** The `:name` parameters of an HTTP path, in order. */
export function pathParametersOf(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1]!)
}
