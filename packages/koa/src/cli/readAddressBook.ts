import { readFileSync } from 'node:fs'
import type { AddressBook, ChainConfig } from '@agentwallet/core'
import { CliError } from './cliError.js'
import type { ServerConfig } from './loadConfig.js'

/**
 * The chains as the operator marked them: each named in `addressBooks` given the contracts its file
 * lists (as `agentwallet devnet deploy` writes them), each in `devChains` marked a development chain
 * (the faucet funds there).
 * @example withOperatorMarks(chains, { addressBooks: { devnet: '/…/anvil.json' }, devChains: ['devnet'] })
 */
export function withOperatorMarks(
  chains: Record<string, ChainConfig>,
  { addressBooks, devChains }: Pick<ServerConfig, 'addressBooks' | 'devChains'>,
): Record<string, ChainConfig> {
  return Object.fromEntries(
    Object.entries(chains).map(([name, chain]) => {
      const file = addressBooks[name]
      return [
        name,
        {
          ...chain,
          ...(file === undefined ? {} : { contracts: readAddressBook(file) }),
          ...(devChains.includes(name) ? { devChain: true } : {}),
        },
      ]
    }),
  )
}

/** An address book file: a JSON object whose entries, where present, have the shapes core reads. */
export function readAddressBook(file: string): AddressBook {
  let book: unknown
  try {
    book = JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    throw new CliError(`Cannot read address book ${file}: ${(error as Error).message}`)
  }
  const isObject = typeof book === 'object' && book !== null && !Array.isArray(book)
  const tokens = isObject ? (book as AddressBook).tokens : undefined
  if (!isObject || (tokens !== undefined && !Array.isArray(tokens)))
    throw new CliError(`Address book ${file} must be a JSON object (as agentwallet devnet deploy writes)`)
  return book as AddressBook
}
