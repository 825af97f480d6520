import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import solc from 'solc'
import { normalizeAbi } from './normalizeAbi.js'

/** Solidity sources of the devnet's own contracts (ERC-8004, staking, feeds, test tokens, paymaster). */
const contractsDir = fileURLToPath(new URL('../contracts/', import.meta.url))
const require = createRequire(import.meta.url)

/** solc-js version and pinned compiler input; part of the artifact's identity. */
export const compilerVersion = '0.8.37'

export type CompiledContract = { abi: readonly unknown[]; bytecode: `0x${string}` }

/** Contracts whose bytecode the devnet deploys; the rest of the sources are libraries or interfaces. */
export const deployedContracts = [
  'IdentityRegistry',
  'ReputationRegistry',
  'ValidationRegistry',
  'TestToken',
  'FiatToken',
  'StakedEther',
  'PriceFeed',
  'TestNft',
  'TestMultiToken',
  'AllowanceDrainer',
  'VerifyingPaymaster',
] as const

/**
 * Compiles contracts/*.sol with solc-js and the pinned OpenZeppelin, offline.
 * The settings are part of the artifact: a change here must be followed by `pnpm compile`.
 */
export function compileContracts(): Record<string, CompiledContract> {
  const sources: Record<string, { content: string }> = {}
  for (const file of readdirSync(contractsDir)
    .filter((name) => name.endsWith('.sol'))
    .sort()) {
    sources[file] = { content: readFileSync(contractsDir + file, 'utf8') }
  }
  const input = {
    language: 'Solidity',
    sources,
    settings: {
      evmVersion: 'cancun',
      optimizer: { enabled: true, runs: 200 },
      // No metadata hash: the bytecode then depends only on the sources and settings.
      metadata: { bytecodeHash: 'none', appendCBOR: false },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  }
  const findImports = (path: string) => {
    try {
      return { contents: readFileSync(require.resolve(path), 'utf8') }
    } catch {
      return { error: `not found: ${path}` }
    }
  }
  if (!String(solc.version()).startsWith(compilerVersion))
    throw new Error(`solc ${solc.version()} is not ${compilerVersion}`)
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports }))
  const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === 'error')
  if (errors.length > 0) {
    throw new Error(errors.map((e: { formattedMessage: string }) => e.formattedMessage).join('\n'))
  }
  const result: Record<string, CompiledContract> = {}
  for (const name of deployedContracts) {
    const contract = output.contracts[`${name}.sol`]?.[name]
    if (!contract) throw new Error(`solc produced no ${name}`)
    result[name] = { abi: normalizeAbi(contract.abi), bytecode: `0x${contract.evm.bytecode.object}` }
  }
  return result
}
