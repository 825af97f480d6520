import { createVerify, generateKeyPairSync, randomBytes } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import {
  derSignature,
  ed25519Signature,
  type FakeEd25519Key,
  type FakeHttpReply,
  type FakeSecp256k1Key,
  newFakeEd25519Key,
  newFakeKey,
  publicKeyObject,
  rsaWrappingKey,
  startFakeHttp,
} from './fakeKmsKeys.js'

/**
 * A fake Google Cloud KMS for tests: the REST paths of cloudkms.googleapis.com/v1 (what
 * @google-cloud/kms sends with `fallback: true`) for the calls the KMS vault makes — GetKeyRing,
 * CreateCryptoKey, GetCryptoKeyVersion, GetPublicKey, AsymmetricSign, CreateImportJob, GetImportJob,
 * ImportCryptoKeyVersion — over real secp256k1 keys (and Ed25519 ones: EC_SIGN_ED25519, AsymmetricSign
 * of `data`; not imported). New HSM key versions and import jobs read as
 * PENDING_GENERATION once before they are ready, as Google's are for a moment. Every request must
 * carry `Authorization: Bearer <token>` with the fake's token (no OAuth is emulated behind it).
 * `serviceAccount` is a key file whose `token_uri` is the fake's `/token`: the OAuth JWT-bearer grant
 * there checks the assertion's RS256 signature with the account's public key and hands out the token;
 * a self-signed JWT of the account (what google-auth-library sends to a custom endpoint) is checked alike.
 * Not emulated: the gRPC transport, IAM, key rotation, primary versions, CRC32C integrity fields,
 * destroy and restore, locations other than the one key ring, any other algorithm.
 */
export type FakeGcpKms = {
  url: string
  host: string
  port: number
  token: string
  /** A service account key file's JSON (GOOGLE_APPLICATION_CREDENTIALS) that gets `token` from the fake. */
  serviceAccount: string
  /** The one key ring: `projects/test/locations/global/keyRings/agents`. */
  keyRing: string
  calls: Record<string, number>
  /** While set, every request fails so: `throttle` (429 RESOURCE_EXHAUSTED), `unavailable` (503). */
  fault: 'throttle' | 'unavailable' | undefined
  /** The next N AsymmetricSign calls return a well-formed signature of another digest. */
  badSignatures: number
  close(): Promise<void>
}

// The REST transport sends enums as numbers ($alt=json;enum-encoding=int); names are accepted too.
const enums = {
  algorithm: [31, 'EC_SIGN_SECP256K1_SHA256'],
  ed25519: [40, 'EC_SIGN_ED25519'],
  purpose: [5, 'ASYMMETRIC_SIGN'],
  importMethod: [5, 'RSA_OAEP_3072_SHA256'],
} as const
const is = (value: unknown, [number, name]: readonly [number, string]) => value === number || value === name

/** A request body: JSON, with the two nested fields the fake reads. */
type Body = {
  [field: string]: unknown
  digest?: { sha256?: string }
  data?: string
  versionTemplate?: { algorithm?: unknown }
}

type Version = { material: FakeSecp256k1Key | FakeEd25519Key; imported: boolean; pendingReads: number }
const algorithmOf = (version: Version) =>
  'ed25519' in version.material ? 'EC_SIGN_ED25519' : 'EC_SIGN_SECP256K1_SHA256'
type Job = { wrapping: ReturnType<typeof rsaWrappingKey>; pendingReads: number }

export async function startFakeGcpKms(): Promise<FakeGcpKms> {
  const keyRing = 'projects/test/locations/global/keyRings/agents'
  const token = randomBytes(16).toString('hex')
  const cryptoKeys = new Map<string, { importOnly: boolean; versions: number }>()
  const versions = new Map<string, Version>()
  const jobs = new Map<string, Job>()

  const error = (status: number, code: string): FakeHttpReply => ({
    status,
    body: { error: { code: status, message: `fake ${code}`, status: code } },
  })
  const ok = (body: unknown): FakeHttpReply => ({ status: 200, body })
  const versionView = (name: string, version: Version) => ({
    name,
    state:
      version.pendingReads > 0 ? (version.imported ? 'PENDING_IMPORT' : 'PENDING_GENERATION') : 'ENABLED',
    algorithm: algorithmOf(version),
    protectionLevel: 'HSM',
  })

  type Route = [string, RegExp, (match: string[], query: URLSearchParams, body: Body) => FakeHttpReply]
  const name = '(projects/[^/]+/locations/[^/]+/keyRings/[^/]+'
  const routes: Route[] = [
    [
      'GetKeyRing',
      new RegExp(`^GET /v1/${name})$`),
      ([ring]) => (ring === keyRing ? ok({ name: ring }) : error(404, 'NOT_FOUND')),
    ],
    [
      'CreateCryptoKey',
      new RegExp(`^POST /v1/${name})/cryptoKeys$`),
      ([ring], query, body) => {
        const id = query.get('cryptoKeyId')
        if (ring !== keyRing || !id) return error(404, 'NOT_FOUND')
        const algorithm = body.versionTemplate?.algorithm
        const ed25519 = is(algorithm, enums.ed25519)
        if (!is(body.purpose, enums.purpose) || !(ed25519 || is(algorithm, enums.algorithm)))
          return error(400, 'INVALID_ARGUMENT')
        const keyName = `${ring}/cryptoKeys/${id}`
        const skip = query.get('skipInitialVersionCreation') === 'true'
        if (skip !== Boolean(body.importOnly)) return error(400, 'INVALID_ARGUMENT')
        cryptoKeys.set(keyName, { importOnly: skip, versions: skip ? 0 : 1 })
        if (!skip)
          versions.set(`${keyName}/cryptoKeyVersions/1`, {
            material: ed25519 ? newFakeEd25519Key() : newFakeKey(),
            imported: false,
            pendingReads: 1,
          })
        return ok({ name: keyName, purpose: 'ASYMMETRIC_SIGN', labels: body.labels ?? {} })
      },
    ],
    [
      'GetCryptoKeyVersion',
      new RegExp(`^GET /v1/(${name.slice(1)}/cryptoKeys/[^/]+/cryptoKeyVersions/[^/:]+)$`),
      ([versionName]) => {
        const version = versions.get(versionName!)
        if (!version) return error(404, 'NOT_FOUND')
        const view = versionView(versionName!, version)
        if (version.pendingReads > 0) version.pendingReads -= 1
        return ok(view)
      },
    ],
    [
      'GetPublicKey',
      new RegExp(`^GET /v1/(${name.slice(1)}/cryptoKeys/[^/]+/cryptoKeyVersions/[^/:]+)/publicKey$`),
      ([versionName]) => {
        const version = versions.get(versionName!)
        if (!version) return error(404, 'NOT_FOUND')
        if (version.pendingReads > 0) return error(400, 'FAILED_PRECONDITION')
        const pem = publicKeyObject(version.material).export({ format: 'pem', type: 'spki' })
        return ok({ name: versionName, pem, algorithm: algorithmOf(version), protectionLevel: 'HSM' })
      },
    ],
    [
      'AsymmetricSign',
      new RegExp(`^POST /v1/(${name.slice(1)}/cryptoKeys/[^/]+/cryptoKeyVersions/[^/:]+):asymmetricSign$`),
      ([versionName], _query, body) => {
        const version = versions.get(versionName!)
        if (!version) return error(404, 'NOT_FOUND')
        if (version.pendingReads > 0) return error(400, 'FAILED_PRECONDITION')
        const { material } = version
        // EC_SIGN_ED25519 signs the message itself (`data`); a digest is refused, as Google does.
        const ed25519 = 'ed25519' in material
        if (ed25519 ? body.digest !== undefined || body.data === undefined : body.data !== undefined)
          return error(400, 'INVALID_ARGUMENT')
        const input = Buffer.from(String((ed25519 ? body.data : body.digest?.sha256) ?? ''), 'base64')
        if (!ed25519 && input.length !== 32) return error(400, 'INVALID_ARGUMENT')
        const corrupt = fake.badSignatures > 0
        if (corrupt) fake.badSignatures -= 1
        const raw = ed25519
          ? ed25519Signature(material, input, corrupt)
          : derSignature(material, input, corrupt)
        const signature = Buffer.from(raw).toString('base64')
        return ok({ name: versionName, signature, verifiedDigestCrc32c: false, protectionLevel: 'HSM' })
      },
    ],
    [
      'CreateImportJob',
      new RegExp(`^POST /v1/${name})/importJobs$`),
      ([ring], query, body) => {
        const id = query.get('importJobId')
        if (ring !== keyRing || !id) return error(404, 'NOT_FOUND')
        if (!is(body.importMethod, enums.importMethod)) return error(400, 'INVALID_ARGUMENT')
        const jobName = `${ring}/importJobs/${id}`
        jobs.set(jobName, { wrapping: rsaWrappingKey(3072), pendingReads: 1 })
        return ok({ name: jobName, state: 'PENDING_GENERATION', importMethod: 'RSA_OAEP_3072_SHA256' })
      },
    ],
    [
      'GetImportJob',
      new RegExp(`^GET /v1/(${name.slice(1)}/importJobs/[^/]+)$`),
      ([jobName]) => {
        const job = jobs.get(jobName!)
        if (!job) return error(404, 'NOT_FOUND')
        if (job.pendingReads > 0) {
          job.pendingReads -= 1
          return ok({ name: jobName, state: 'PENDING_GENERATION' })
        }
        const pem = job.wrapping.publicKey.export({ format: 'pem', type: 'spki' })
        return ok({ name: jobName, state: 'ACTIVE', publicKey: { pem } })
      },
    ],
    [
      'ImportCryptoKeyVersion',
      new RegExp(`^POST /v1/(${name.slice(1)}/cryptoKeys/[^/]+)/cryptoKeyVersions:import$`),
      ([keyName], _query, body) => {
        const key = cryptoKeys.get(keyName!)
        const job = jobs.get(String(body.importJob))
        if (!key || !job) return error(404, 'NOT_FOUND')
        if (!key.importOnly || !is(body.algorithm, enums.algorithm) || job.pendingReads > 0)
          return error(400, 'FAILED_PRECONDITION')
        let material: FakeSecp256k1Key
        try {
          material = job.wrapping.unwrap(Buffer.from(String(body.wrappedKey ?? ''), 'base64'))
        } catch {
          return error(400, 'INVALID_ARGUMENT')
        }
        key.versions += 1
        const versionName = `${keyName}/cryptoKeyVersions/${key.versions}`
        const version = { material, imported: true, pendingReads: 1 }
        versions.set(versionName, version)
        return ok(versionView(versionName, version))
      },
    ],
  ]

  const account = generateKeyPairSync('rsa', { modulusLength: 2048 })
  /** A JWT signed (RS256) by the service account's key. */
  const signedByAccount = (jwt: string) => {
    const [header, payload, signature] = jwt.split('.')
    if (!signature) return false
    const verifier = createVerify('RSA-SHA256').update(`${header}.${payload}`)
    return verifier.verify(account.publicKey, Buffer.from(signature, 'base64url'))
  }
  /** The OAuth token endpoint's JWT-bearer grant, for the service account only. */
  const grant = (raw: Buffer): FakeHttpReply => {
    if (!signedByAccount(new URLSearchParams(raw.toString('utf8')).get('assertion') ?? ''))
      return { status: 400, body: { error: 'invalid_grant' } }
    fake.calls.Token = (fake.calls.Token ?? 0) + 1
    return ok({ access_token: token, expires_in: 3600, token_type: 'Bearer' })
  }
  /** The token the fake handed out, or a self-signed JWT of the service account (as Google accepts). */
  const authorized = (header: string | undefined) => {
    if (header === `Bearer ${token}`) return true
    if (!header?.startsWith('Bearer ') || !signedByAccount(header.slice('Bearer '.length))) return false
    fake.calls.SelfSignedJwt = (fake.calls.SelfSignedJwt ?? 0) + 1
    return true
  }

  const handle = (request: IncomingMessage, raw: Buffer): FakeHttpReply => {
    if (request.method === 'POST' && request.url === '/token') return grant(raw)
    if (!authorized(request.headers.authorization)) return error(401, 'UNAUTHENTICATED')
    const url = new URL(request.url ?? '/', 'http://fake')
    const line = `${request.method} ${decodeURIComponent(url.pathname)}`
    for (const [operation, pattern, run] of routes) {
      const match = pattern.exec(line)
      if (!match) continue
      fake.calls[operation] = (fake.calls[operation] ?? 0) + 1
      if (fake.fault === 'throttle') return error(429, 'RESOURCE_EXHAUSTED')
      if (fake.fault === 'unavailable') return error(503, 'UNAVAILABLE')
      const body = raw.length > 0 ? (JSON.parse(raw.toString('utf8')) as Body) : {}
      return run(match.slice(1), url.searchParams, body)
    }
    return error(404, 'NOT_FOUND')
  }

  const server = await startFakeHttp(handle)
  const { hostname, port } = new URL(server.url)
  const fake: FakeGcpKms = {
    url: server.url,
    host: hostname,
    port: Number(port),
    token,
    serviceAccount: JSON.stringify({
      type: 'service_account',
      project_id: 'test',
      private_key_id: 'fake',
      private_key: account.privateKey.export({ format: 'pem', type: 'pkcs8' }),
      client_email: 'agentwallet@test.iam.gserviceaccount.com',
      token_uri: `${server.url}/token`,
    }),
    keyRing,
    calls: {},
    fault: undefined,
    badSignatures: 0,
    close: server.close,
  }
  return fake
}
