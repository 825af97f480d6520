import { writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { deployProtocolSet, devnetAccounts, httpProvider } from '@agentwallet/devnet'
import { CliError } from './cliError.js'
import type { Env, ParsedArgs } from './loadConfig.js'
import type { Print } from './serve.js'

/**
 * `agentwallet devnet deploy --rpc <url> --out <file> [--key <hex>]`: the devnet's protocol set
 * deployed onto another dev node (anvil, hardhat; chain id 31337), paid by a funded key (default:
 * the first account of the `test … junk` mnemonic, funded on both; else `--key` or
 * `AGENTWALLET_DEPLOY_KEY`), and its address book written to `--out` for `serve --address-book`.
 * @example await devnetDeployCommand({ rpc: 'http://127.0.0.1:8545', out: 'book.json' }, process.env, console.log)
 */
export async function devnetDeployCommand(
  values: ParsedArgs['values'],
  env: Env,
  print: Print,
): Promise<void> {
  const { rpc, out } = values
  if (!rpc || !/^https?:\/\//.test(rpc))
    throw new CliError('devnet deploy needs --rpc http(s)://… : the dev node to deploy onto (e.g. anvil)')
  if (!out) throw new CliError('devnet deploy needs --out <file>: where the address book is written')
  const key = values.key ?? env.AGENTWALLET_DEPLOY_KEY ?? devnetAccounts[0]!.privateKey
  // The key itself is never echoed, right or wrong.
  if (!/^0x[0-9a-fA-F]{64}$/.test(key))
    throw new CliError('--key (or AGENTWALLET_DEPLOY_KEY) must be a private key: 0x and 64 hex digits')
  const file = resolve(out)
  const book = await deployProtocolSet(httpProvider(rpc), { fundingKey: key as `0x${string}` }).catch(
    (error: unknown) => {
      throw new CliError(`Cannot deploy the protocol set onto ${rpc}: ${(error as Error).message}`)
    },
  )
  writeFileSync(file, `${JSON.stringify(book, null, 2)}\n`)
  print(`Deployed the protocol set onto ${rpc} (chain id 31337); address book in ${file}`)
  print(`Serve with it: agentwallet serve --chain devnet=${rpc} --address-book devnet=${file}`)
}
