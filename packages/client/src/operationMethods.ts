import type { CallOptions, ContractName, ContractNamed, OperationContract } from '@agentwallet/core/contract'
import type { z } from 'zod'

/** A client method: the operation's input (optional when every field is), answering its output. */
export type OperationMethod<TContract extends OperationContract> =
  // biome-ignore lint/complexity/noBannedTypes: "every input field is optional" is `{} extends Input`
  {} extends z.input<TContract['input']>
    ? (input?: z.input<TContract['input']>, options?: CallOptions) => Promise<z.output<TContract['output']>>
    : (input: z.input<TContract['input']>, options?: CallOptions) => Promise<z.output<TContract['output']>>

/** One method per operation of the contract, named after it (the in-process session has the same). */
export type OperationMethods = { [N in ContractName]: OperationMethod<ContractNamed<N>> }
