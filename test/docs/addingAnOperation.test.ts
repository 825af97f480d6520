import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildOpenApi } from '@agentwallet/koa'
import { afterAll, describe, expect, it } from 'vitest'

// The worked example of docs/architecture.md ("Adding an operation"), done for real: a copy of core's
// sources gets exactly its three pieces — one contract entry, one action file, one binding line (and
// the action's import) — and nothing else. If adding an operation ever needs a fourth file, this fails.
const coreRoot = fileURLToPath(new URL('../../packages/core/', import.meta.url))
// Inside packages/core so the copy resolves core's own dependencies (zod, viem, …).
const copy = mkdtempSync(join(coreRoot, '.example-'))
cpSync(join(coreRoot, 'src'), join(copy, 'src'), { recursive: true })
afterAll(() => rmSync(copy, { recursive: true, force: true }))

function edit(file: string, anchor: string, insert: (anchor: string) => string): void {
  const path = join(copy, 'src', file)
  const text = readFileSync(path, 'utf8')
  if (!text.includes(anchor)) throw new Error(`${file} no longer has ${JSON.stringify(anchor)}`)
  writeFileSync(path, text.replace(anchor, insert(anchor)))
}

// 1. One contract entry, in the domain's contract.
edit('wallets/walletContract.ts', '  getWallet: {', (anchor) =>
  [
    '  noteWallet: {',
    "    summary: 'Echo a note about a wallet (the worked example)',",
    "    description: 'Answers the wallet and the note it was given.',",
    '    input: z.strictObject({ wallet: walletField, note: z.string().check(z.minLength(1), z.maxLength(100)) }),',
    '    output: z.object({ wallet: z.string(), note: z.string() }),',
    "    roles: ['agent', 'admin'],",
    '    idempotent: false,',
    '    movesValue: false,',
    "    http: { method: 'post', path: '/wallet/:wallet/note', status: 200 },",
    '    errors: [],',
    '    tool: true,',
    '  },',
    anchor,
  ].join('\n'),
)
// 2. One action, in its own file beside the contract.
writeFileSync(
  join(copy, 'src/wallets/noteWallet.ts'),
  [
    "import type { AgentWalletContext } from '../context.js'",
    "import type { Principal } from '../principals/types.js'",
    '',
    'export async function noteWallet(',
    '  _ctx: AgentWalletContext,',
    '  _principal: Principal,',
    '  input: { wallet: string; note: string },',
    ') {',
    '  return { wallet: input.wallet, note: input.note }',
    '}',
    '',
  ].join('\n'),
)
// 3. One binding line (and the action's import) in core's operation table.
edit(
  'api/walletOperations.ts',
  '  bindOperation(walletContract.getWallet, getWallet),',
  (anchor) => `  bindOperation(walletContract.noteWallet, noteWallet),\n${anchor}`,
)
edit(
  'api/walletOperations.ts',
  "import { walletContract } from '../wallets/walletContract.js'",
  (anchor) => `import { noteWallet } from '../wallets/noteWallet.js'\n${anchor}`,
)

describe('adding an operation (docs/architecture.md)', () => {
  it('is picked up by the contract list, the session, the tool name and OpenAPI with no other edit', async () => {
    const { contractList } = await import(join(copy, 'src/contract/contractList.ts'))
    const { operationList } = await import(join(copy, 'src/api/operations.ts'))
    const { operationMethods } = await import(join(copy, 'src/api/sessionMethods.ts'))
    const { toolNameOf } = await import(join(copy, 'src/schemas/defineContract.ts'))
    const names = (list: readonly { name: string }[]) => list.map((entry) => entry.name)
    expect(names(contractList)).toContain('noteWallet')
    expect(names(operationList)).toEqual(names(contractList))
    const noted = contractList.find((contract: { name: string }) => contract.name === 'noteWallet')
    expect(toolNameOf(noted)).toBe('note_wallet')

    const agent = { tenantId: 'default', id: 'key_1', role: 'agent' as const }
    // The kernel asks the chains' families before an action (`families`): an EVM-only server here.
    const ctx = { options: {}, chains: { list: () => [] } }
    const session = operationMethods(ctx, agent)
    const wallet = '0x52908400098527886e0f7030069857d2e4169ee7'
    await expect(session.noteWallet({ wallet, note: 'hello' })).resolves.toEqual({
      wallet: '0x52908400098527886E0F7030069857D2E4169EE7',
      note: 'hello',
    })
    // The contract's schema refuses bad input before the action runs; its roles refuse an approver.
    await expect(session.noteWallet({ wallet, note: '' })).rejects.toMatchObject({
      code: 'validation_failed',
    })
    await expect(
      operationMethods(ctx, { ...agent, role: 'approver' }).noteWallet({ wallet, note: 'x' }),
    ).rejects.toMatchObject({ code: 'forbidden' })

    const document = buildOpenApi({ operations: operationList, routes: [] }, { version: '0.0.0' }) as {
      paths: Record<string, Record<string, { operationId?: string }>>
    }
    expect(document.paths['/wallet/{wallet}/note']?.post?.operationId).toBe('noteWallet')
  })
})
