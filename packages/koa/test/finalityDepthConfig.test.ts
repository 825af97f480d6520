import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CliError } from '../src/cli/cliError.js'
import { loadConfig, parseCli } from '../src/cli/loadConfig.js'
import { openAgentWallet } from '../src/cli/openAgentWallet.js'

const dataDir = mkdtempSync(join(tmpdir(), 'agentwallet-finality-'))
const configOf = (argv: string[], env: Record<string, string> = {}) =>
  loadConfig(parseCli(['serve', '--data-dir', dataDir, ...argv]).values, env)

describe('serve --finality-depth', () => {
  it('takes a depth for every chain, per chain, or both, from the flag over the env', () => {
    expect(configOf([]).finalityDepth).toEqual({ all: undefined, byChain: {} })
    expect(configOf(['--finality-depth', '12,sepolia=64']).finalityDepth).toEqual({
      all: 12,
      byChain: { sepolia: 64 },
    })
    expect(configOf([], { AGENTWALLET_FINALITY_DEPTH: 'base=5' }).finalityDepth).toEqual({
      all: undefined,
      byChain: { base: 5 },
    })
    expect(configOf(['--finality-depth', '7'], { AGENTWALLET_FINALITY_DEPTH: '9' }).finalityDepth.all).toBe(7)
  })

  it('refuses what is not a positive number of blocks', () => {
    for (const bad of ['0', 'sepolia=', 'twelve', '-3', 'sepolia=1.5'])
      expect(() => configOf(['--finality-depth', bad])).toThrow(CliError)
  })

  it('reaches the chain the server runs on, and a name no chain has is refused', async () => {
    const config = configOf(['--storage', 'memory', '--finality-depth', '20,devnet=2'])
    const runtime = await openAgentWallet(config, {}, 'serve')
    try {
      expect(runtime.agentWallet.context.chains.get('devnet').finalityDepth).toBe(2)
      expect(runtime.agentWallet.context.options.finalityDepth).toBe(20)
    } finally {
      await runtime.close()
    }
    await expect(
      openAgentWallet(configOf(['--storage', 'memory', '--finality-depth', 'mainnet=64']), {}, 'serve'),
    ).rejects.toBeInstanceOf(CliError)
  })
})

describe('paymasters in the config file', () => {
  const signer = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
  const address = '0x9024202d5ea00324EB1a366286eE2eD888baE022'
  const withFile = (paymasters: unknown) => {
    const dir = mkdtempSync(join(tmpdir(), 'agentwallet-paymasters-'))
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ paymasters }))
    return loadConfig(parseCli(['serve', '--data-dir', dir, '--storage', 'memory']).values, {})
  }

  it('gives each tenant its paymaster per chain, and the server asks it by tenant and chain', async () => {
    expect(configOf([]).paymasters).toEqual({})
    const config = withFile({ default: { devnet: { address, signer } } })
    expect(config.paymasters).toEqual({ default: { devnet: { address, signer } } })
    const runtime = await openAgentWallet(config, {}, 'serve')
    try {
      expect(runtime.agentWallet.context.paymasterOf?.('default', 'devnet')).toEqual({ address, signer })
      expect(runtime.agentWallet.context.paymasterOf?.('other', 'devnet')).toBeUndefined()
    } finally {
      await runtime.close()
    }
  })

  it('refuses anything but tenant → chain → address and signer', () => {
    for (const bad of [
      [],
      'x',
      { default: [] },
      { default: { devnet: { address } } },
      { t: { c: { address: '0x1', signer } } },
    ])
      expect(() => withFile(bad)).toThrow(CliError)
  })
})
