import { describe, expect, it } from 'vitest'
import * as z from 'zod/mini'
import { contractList, contracts } from '../contract/contractList.js'
import { errorCodes } from '../errors/errorCodes.js'
import { pathParametersOf, toolNameOf } from '../schemas/defineContract.js'
import type { OperationDeclaration } from './defineOperation.js'
import { operationList, operations } from './operations.js'

const fields: Array<keyof OperationDeclaration> = [
  'name',
  'summary',
  'description',
  'input',
  'output',
  'roles',
  'idempotent',
  'movesValue',
  'http',
  'errors',
  'tool',
  'action',
]

/** Every problem of one declaration, as text (empty when it is whole and consistent). */
function problemsOf(operation: OperationDeclaration): string[] {
  const problems: string[] = []
  const record = operation as unknown as Record<string, unknown>
  for (const field of fields) if (record[field] === undefined) problems.push(`no ${field}`)
  if (typeof operation.action !== 'function') problems.push('action is not a function')
  if (typeof operation.name !== 'string' || !/^[a-z][A-Za-z]+$/.test(operation.name))
    problems.push('name is not camelCase')
  if (!operation.summary?.trim() || operation.summary.includes('\n')) problems.push('summary is not one line')
  if ((operation.description?.trim().length ?? 0) < 40)
    problems.push('description too short for a model to choose the tool')
  if (!(operation.input instanceof z.ZodMiniObject)) problems.push('input is not an object schema')
  if (!(operation.output instanceof z.ZodMiniType)) problems.push('output is not a schema')
  if (!Array.isArray(operation.roles) || operation.roles.length === 0) problems.push('no roles')
  for (const flag of ['idempotent', 'movesValue', 'tool'] as const)
    if (typeof operation[flag] !== 'boolean') problems.push(`${flag} is not a boolean`)
  const http = operation.http
  if (!http?.method || !http.path?.startsWith('/') || ![200, 201, 202].includes(http.status))
    problems.push('http binding incomplete')
  if (!Array.isArray(operation.errors)) problems.push('errors is not a list')
  else
    for (const code of operation.errors)
      if (!(errorCodes as readonly string[]).includes(code)) problems.push(`unknown error code ${code}`)
  if (http?.path && operation.input instanceof z.ZodMiniObject) {
    for (const name of pathParametersOf(http.path))
      if (!(name in operation.input.shape)) problems.push(`path parameter :${name} is not an input field`)
  }
  if (operation.tool && !operation.roles?.includes('agent'))
    problems.push('offered as a tool, but agents may not call it')
  return problems
}

describe('the operation table', () => {
  it('declares every field of every operation, consistently', () => {
    const problems = operationList.flatMap((operation) =>
      problemsOf(operation).map((problem) => `${operation.name}: ${problem}`),
    )
    expect(problems).toEqual([])
  })

  it('fails a declaration that lacks a field or contradicts itself', () => {
    const whole = operations.send as OperationDeclaration
    for (const field of fields) {
      const { [field]: _dropped, ...partial } = whole
      expect(problemsOf(partial as OperationDeclaration), field).toContain(`no ${field}`)
    }
    expect(problemsOf({ ...whole, roles: ['admin'] })).toContain(
      'offered as a tool, but agents may not call it',
    )
    expect(problemsOf({ ...whole, http: { ...whole.http, path: '/wallet/:nope/send' } })).toContain(
      'path parameter :nope is not an input field',
    )
  })

  it('names each operation once, with one action each, and unique routes and tool names', () => {
    const names = operationList.map((operation) => operation.name)
    expect(new Set(names).size).toBe(names.length)
    const actions = operationList.map((operation) => operation.action)
    expect(new Set(actions).size).toBe(actions.length)
    const routes = operationList.flatMap((operation) =>
      [operation.http.path, ...(operation.http.aliases ?? [])].map(
        (path) => `${operation.http.method} ${path}`,
      ),
    )
    expect(new Set(routes).size).toBe(routes.length)
    const tools = operationList.filter((operation) => operation.tool).map(toolNameOf)
    expect(new Set(tools).size).toBe(tools.length)
  })

  it('offers no tool that approves, changes policy, manages keys or webhooks, or imports keys', () => {
    const tools = operationList.filter((operation) => operation.tool).map((operation) => operation.name)
    for (const name of [
      'approve',
      'reject',
      'updatePolicyRules',
      'createApiKey',
      'listApiKeys',
      'revokeApiKey',
      'createTenant',
      'subscribeWebhook',
      'deleteWebhook',
      'importWallet',
    ])
      expect(tools).not.toContain(name)
    expect(tools).toContain('createWallet')
    expect(tools).toContain('send')
  })
})

describe('contract and binding', () => {
  it('binds every contract once, in the contract’s order, to an action, and binds nothing else', () => {
    expect(operationList.map((operation) => operation.name)).toEqual(
      contractList.map((contract) => contract.name),
    )
    for (const operation of operationList) {
      const contract = contracts[operation.name]
      const { action, ...declared } = operation
      expect(typeof action).toBe('function')
      // The binding adds the action and nothing else: the schemas are the contract's own objects.
      expect(declared).toEqual(contract)
      expect(operation.input).toBe(contract.input)
      expect(operation.output).toBe(contract.output)
    }
  })
})
