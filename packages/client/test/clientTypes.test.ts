import {
  type AgentWalletClient,
  AgentWalletHttpError,
  type ClientErrorCode,
  createClient,
  type EdgeMethods,
  type OperationError,
  type OperationMethods,
  type OperationName,
} from '@agentwallet/client'
import { describe, expect, expectTypeOf, it } from 'vitest'

/*
 * The client's methods are typed as the in-process session's: the JSON body of an answer is the
 * declared output only while every output (and input) is plain JSON. These checks run in
 * `pnpm typecheck`; a declaration that answers a bigint or a Date fails there, naming its operation.
 */

type NotJson<T> = unknown extends T
  ? false
  : T extends string | number | boolean | null | undefined
    ? false
    : T extends readonly (infer E)[]
      ? NotJson<E>
      : T extends bigint | Date | symbol | ((...args: never[]) => unknown)
        ? true
        : T extends object
          ? true extends { [K in keyof T]-?: NotJson<T[K]> }[keyof T]
            ? true
            : false
          : true

type Method<N extends OperationName> = OperationMethods[N]
type AnswersNotJson = {
  [N in OperationName]: true extends NotJson<Awaited<ReturnType<Method<N>>>> ? N : never
}[OperationName]
type TakesNotJson = {
  [N in OperationName]: true extends NotJson<Parameters<Method<N>>[0]> ? N : never
}[OperationName]

const wallet = '0x000000000000000000000000000000000000dEaD'

describe('client types', () => {
  it('are the session’s, over plain JSON, beside helpers that share no name with an operation', () => {
    expectTypeOf<AnswersNotJson>().toBeNever()
    expectTypeOf<TakesNotJson>().toBeNever()
    expectTypeOf<NotJson<{ at: Date }>>().toEqualTypeOf<true>()
    expectTypeOf<keyof EdgeMethods & OperationName>().toBeNever()
    expectTypeOf<AgentWalletClient['send']>().toEqualTypeOf<OperationMethods['send']>()

    const client = createClient({ baseUrl: 'http://127.0.0.1:1', apiKey: 'k' })
    expectTypeOf(client.send).parameter(0).toMatchTypeOf<{ wallet: string; to: string; value: string }>()
    expectTypeOf(client.send)
      .parameter(1)
      .toEqualTypeOf<{ idempotencyKey?: string | undefined } | undefined>()
    expectTypeOf(client.getBalance).returns.resolves.toHaveProperty('eth').toEqualTypeOf<string>()
    expectTypeOf(client.listWallets)
      .parameter(0)
      .toEqualTypeOf<{ limit?: number | undefined; offset?: number | undefined } | undefined>()
    // @ts-expect-error a path parameter is a field of the input, not an argument of its own
    void (() => client.getBalance(wallet))
    expect(typeof client.getBalance).toBe('function')
  })

  it('type a failure’s code as the codes it can have, never plain string', () => {
    const thrown: unknown = new Error('not the client’s')
    if (thrown instanceof AgentWalletHttpError) {
      expectTypeOf(thrown.code).toEqualTypeOf<ClientErrorCode>()
      expectTypeOf(thrown.status).toEqualTypeOf<number>()
    }
    expect(thrown instanceof AgentWalletHttpError).toBe(false)
    expectTypeOf<string>().not.toExtend<ClientErrorCode>()
    // getWallet declares `not_found`; beside it only the common, edge and transport codes.
    type GetWalletCode = OperationError<'getWallet'>['code']
    expectTypeOf<'not_found'>().toExtend<GetWalletCode>()
    expectTypeOf<'validation_failed' | 'forbidden' | 'timeout'>().toExtend<GetWalletCode>()
    expectTypeOf<'policy_blocked'>().not.toExtend<GetWalletCode>()
    expectTypeOf<string>().not.toExtend<GetWalletCode>()
  })
})
