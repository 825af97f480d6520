import { randomBytes } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  createKeyPairFromBytes,
  createKeyPairSignerFromBytes,
  createKeyPairSignerFromPrivateKeyBytes,
  generateKeyPair,
  getAddressFromPublicKey,
  getBase58Decoder,
  verifySignature,
  writeKeyPair,
} from '@solana/kit'
import { afterAll, describe, expect, it } from 'vitest'
import { memoryKeyVault } from './memoryKeyVault.js'
import { parseSolanaSecretKey } from './parseSolanaSecretKey.js'

const dirs: string[] = []
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true })
})

/** A key pair written by @solana/kit in the Solana CLI's keypair file format, and that file's text. */
const cliKeyPairFile = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'agentwallet-solana-key-'))
  dirs.push(dir)
  const keyPair = await generateKeyPair(true)
  const path = join(dir, 'id.json')
  await writeKeyPair(keyPair, path)
  return {
    keyPair,
    text: await readFile(path, 'utf8'),
    address: await getAddressFromPublicKey(keyPair.publicKey),
  }
}

/** The 64 bytes of a CLI keypair file, read as the CLI's users read it. */
const bytesOfFile = (text: string) => new Uint8Array(JSON.parse(text) as number[])
const base58 = (bytes: Uint8Array) => getBase58Decoder().decode(bytes)

/** Everything an error could show: message, details, cause, stack. */
const shownBy = (error: unknown) => JSON.stringify(error, Object.getOwnPropertyNames(error)) + String(error)

const parseError = (text: string): unknown => {
  try {
    parseSolanaSecretKey(text)
  } catch (error) {
    return error
  }
  return 'did not throw'
}

describe('parseSolanaSecretKey', () => {
  it('reads the Solana CLI keypair file as @solana/kit writes it, and the key signs what kit verifies', async () => {
    const { keyPair, text, address } = await cliKeyPairFile()
    expect(text.trim().startsWith('[')).toBe(true)
    const parsed = parseSolanaSecretKey(text)
    expect(parsed.address).toBe(address)
    expect(Buffer.from(parsed.secretKey).equals(Buffer.from(bytesOfFile(text)))).toBe(true)
    expect(parseSolanaSecretKey(`\n  ${text}\n`).address).toBe(address)
    const keys = memoryKeyVault().ed25519
    expect(await keys.importKey(parsed.secretKey)).toBe(address)
    const message = new Uint8Array(randomBytes(100))
    const signature = await (await keys.getSigner(address)).signBytes(message)
    expect(await verifySignature(keyPair.publicKey, signature as never, message)).toBe(true)
    expect(await verifySignature(keyPair.publicKey, signature as never, new Uint8Array(100))).toBe(false)
  })

  it('reads base58 of the 64-byte secret key, as Phantom, Solflare and Backpack export it', async () => {
    const { text, address } = await cliKeyPairFile()
    const exported = base58(bytesOfFile(text))
    expect(exported.length > 80).toBe(true)
    const parsed = parseSolanaSecretKey(exported)
    expect(parsed.address).toBe(address)
    // And kit reads what we return as the same key pair.
    expect((await createKeyPairSignerFromBytes(parsed.secretKey)).address).toBe(address)
  })

  it('reads base58 and hex (with or without 0x) of the 32-byte seed', async () => {
    const seed = new Uint8Array(randomBytes(32))
    const { address } = await createKeyPairSignerFromPrivateKeyBytes(seed)
    const hex = Buffer.from(seed).toString('hex')
    for (const spelling of [base58(seed), hex, `0x${hex}`, hex.toUpperCase()]) {
      const parsed = parseSolanaSecretKey(spelling)
      expect(parsed.address).toBe(address)
      expect(Buffer.from(parsed.secretKey.subarray(0, 32)).equals(Buffer.from(seed))).toBe(true)
    }
  })

  it('refuses anything else with validation_failed, naming the shape and never the secret', async () => {
    const { text } = await cliKeyPairFile()
    const secretKey = bytesOfFile(text)
    const other = bytesOfFile((await cliKeyPairFile()).text)
    const mismatched = new Uint8Array([...secretKey.subarray(0, 32), ...other.subarray(32)])
    const hexSeed = Buffer.from(secretKey.subarray(0, 32)).toString('hex')
    const cases: [string, string][] = [
      [JSON.stringify([...mismatched]), 'json_array'],
      [base58(mismatched), 'base58'],
      [JSON.stringify([...secretKey.subarray(0, 63)]), 'json_array'],
      [JSON.stringify([...secretKey.subarray(0, 32)]), 'json_array'],
      [JSON.stringify([...secretKey.subarray(0, 63), 256]), 'json_array'],
      [`${text.slice(0, -1)},]`, 'json_array'],
      [`0${hexSeed.slice(2)}`, 'unrecognized'],
      [`0x${hexSeed.slice(2)}`, 'unrecognized'],
      [base58(secretKey.subarray(0, 40)), 'base58'],
      ['test test test test test test test test test test test junk', 'unrecognized'],
      ['', 'unrecognized'],
    ]
    for (const [input, shape] of cases) {
      const error = parseError(input)
      expect(error).toMatchObject({ code: 'validation_failed', details: { shape } })
      const shown = shownBy(error)
      if (input.length > 0) expect(shown.includes(input.slice(1, 20))).toBe(false)
      expect(shown.includes(hexSeed)).toBe(false)
      expect(shown.includes(base58(secretKey))).toBe(false)
    }
    // Kit agrees the mismatched key is no key pair.
    await expect(createKeyPairFromBytes(mismatched)).rejects.toThrow()
  })
})
