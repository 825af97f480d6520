import { BaseError } from '@agentwallet/core'
import {
  CreateKeyCommand,
  GetParametersForImportCommand,
  GetPublicKeyCommand,
  ImportKeyMaterialCommand,
  type KMSClient,
  ListKeysCommand,
  SignCommand,
} from '@aws-sdk/client-kms'
import type { Hex } from 'viem'
import { awsKmsError } from './awsKmsError.js'
import type { KmsBackend, KmsKey } from './kmsBackend.js'
import { publicKeyFromSpki } from './publicKeyFromSpki.js'
import { wrapForImport } from './wrapForImport.js'

const keySpec = { KeySpec: 'ECC_SECG_P256K1', KeyUsage: 'SIGN_VERIFY' } as const
// Lets keys made by AgentWallet be listed in the console or by ListResourceTags, should Storage be lost.
const tags = [{ TagKey: 'agentwallet', TagValue: 'wallet' }]

export type AwsKmsBackendOptions = {
  /** Bound on `probe()`'s one ListKeys call (default 3000 ms). */
  probeTimeoutMs?: number | undefined
}

/**
 * AWS KMS calls of a KMS vault: CreateKey (ECC_SECG_P256K1, SIGN_VERIFY), GetPublicKey, Sign of a
 * DIGEST with ECDSA_SHA_256, and import through GetParametersForImport / ImportKeyMaterial.
 * @example const backend = awsKmsBackend(new KMSClient({ region: 'eu-west-1' }))
 */
export function awsKmsBackend(client: KMSClient, options: AwsKmsBackendOptions = {}): KmsBackend {
  const call = async <T>(operation: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run()
    } catch (error) {
      throw awsKmsError(error, operation)
    }
  }

  const publicKeyOf = async (keyId: string): Promise<KmsKey> => {
    const output = await call('GetPublicKey', () => client.send(new GetPublicKeyCommand({ KeyId: keyId })))
    if (!output.PublicKey) throw missing('GetPublicKey', 'PublicKey')
    return { keyId, publicKey: publicKeyFromSpki(output.PublicKey) }
  }

  const createKey = async (origin: 'AWS_KMS' | 'EXTERNAL'): Promise<string> => {
    const output = await call('CreateKey', () =>
      client.send(
        new CreateKeyCommand({
          ...keySpec,
          Origin: origin,
          Description: 'AgentWallet wallet key',
          Tags: tags,
        }),
      ),
    )
    const keyId = output.KeyMetadata?.KeyId
    if (!keyId) throw missing('CreateKey', 'KeyMetadata.KeyId')
    return keyId
  }

  return {
    service: 'aws-kms',
    async createKey() {
      return publicKeyOf(await createKey('AWS_KMS'))
    },
    async importKey(privateKey: Hex) {
      const keyId = await createKey('EXTERNAL')
      const parameters = await call('GetParametersForImport', () =>
        client.send(
          new GetParametersForImportCommand({
            KeyId: keyId,
            WrappingAlgorithm: 'RSAES_OAEP_SHA_256',
            WrappingKeySpec: 'RSA_3072',
          }),
        ),
      )
      if (!parameters.PublicKey || !parameters.ImportToken)
        throw missing('GetParametersForImport', 'PublicKey')
      const encrypted = wrapForImport(privateKey, parameters.PublicKey)
      await call('ImportKeyMaterial', () =>
        client.send(
          new ImportKeyMaterialCommand({
            KeyId: keyId,
            ImportToken: parameters.ImportToken,
            EncryptedKeyMaterial: encrypted,
            ExpirationModel: 'KEY_MATERIAL_DOES_NOT_EXPIRE',
          }),
        ),
      )
      return publicKeyOf(keyId)
    },
    async signDigest(keyId, digest) {
      const output = await call('Sign', () =>
        client.send(
          new SignCommand({
            KeyId: keyId,
            Message: digest,
            MessageType: 'DIGEST',
            SigningAlgorithm: 'ECDSA_SHA_256',
          }),
        ),
      )
      if (!output.Signature) throw missing('Sign', 'Signature')
      return output.Signature
    },
    async probe() {
      const abortSignal = AbortSignal.timeout(options.probeTimeoutMs ?? 3000)
      await call('ListKeys', () => client.send(new ListKeysCommand({ Limit: 1 }), { abortSignal }))
    },
  }
}

const missing = (operation: string, field: string) =>
  new BaseError('vault_error', 'AWS KMS answered without a field it always sends', {
    details: { service: 'aws-kms', operation, field },
  })
