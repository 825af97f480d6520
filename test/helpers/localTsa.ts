import { webcrypto } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import * as asn1js from 'asn1js'
import * as pkijs from 'pkijs'

/** A running timestamp authority: its URL, its certificate (DER) and `close`. */
export type LocalTsa = { url: string; certificate: Uint8Array; requests: number; close(): Promise<void> }

const timeStamping = '1.3.6.1.5.5.7.3.8'

/**
 * An RFC 3161 timestamp authority on 127.0.0.1, built with pkijs (no public authority is reachable
 * from the tests): a self-signed ECDSA P-256 certificate for time stamping (critical EKU); each
 * request's imprint and nonce answered in a TSTInfo signed into a CMS SignedData token.
 * @example const tsa = await startLocalTsa(); …; await tsa.close()
 */
export async function startLocalTsa(name = 'AgentWallet test TSA'): Promise<LocalTsa> {
  const crypto = webcrypto as unknown as typeof globalThis.crypto
  pkijs.setEngine('node', new pkijs.CryptoEngine({ name: 'node', crypto }))
  const keys = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
    'sign',
    'verify',
  ])
  const cert = new pkijs.Certificate()
  cert.version = 2
  cert.serialNumber = new asn1js.Integer({ value: 1 })
  const cn = new pkijs.AttributeTypeAndValue({
    type: '2.5.4.3',
    value: new asn1js.Utf8String({ value: name }),
  })
  cert.issuer.typesAndValues.push(cn)
  cert.subject.typesAndValues.push(cn)
  cert.notBefore.value = new Date(Date.now() - 86_400_000)
  cert.notAfter.value = new Date(Date.now() + 86_400_000)
  cert.extensions = [
    new pkijs.Extension({
      extnID: '2.5.29.37',
      critical: true,
      extnValue: new pkijs.ExtKeyUsage({ keyPurposes: [timeStamping] }).toSchema().toBER(false),
    }),
  ]
  await cert.subjectPublicKeyInfo.importKey(keys.publicKey)
  await cert.sign(keys.privateKey, 'SHA-256')
  let serial = 0
  const tsa: LocalTsa = {
    url: '',
    certificate: new Uint8Array(cert.toSchema().toBER(false)),
    requests: 0,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
  const answer = async (body: Buffer): Promise<ArrayBuffer> => {
    const request = pkijs.TimeStampReq.fromBER(new Uint8Array(body))
    const info = new pkijs.TSTInfo({
      version: 1,
      policy: '1.3.6.1.4.1.99999.1',
      messageImprint: request.messageImprint,
      serialNumber: new asn1js.Integer({ value: ++serial }),
      genTime: new Date(),
      ...(request.nonce ? { nonce: request.nonce } : {}),
    })
    const signed = new pkijs.SignedData({
      version: 3,
      encapContentInfo: new pkijs.EncapsulatedContentInfo({
        eContentType: '1.2.840.113549.1.9.16.1.4',
        eContent: new asn1js.OctetString({ valueHex: info.toSchema().toBER(false) }),
      }),
      signerInfos: [
        new pkijs.SignerInfo({
          version: 1,
          sid: new pkijs.IssuerAndSerialNumber({ issuer: cert.issuer, serialNumber: cert.serialNumber }),
        }),
      ],
      certificates: [cert],
    })
    await signed.sign(keys.privateKey, 0, 'SHA-256')
    const token = new pkijs.ContentInfo({
      contentType: '1.2.840.113549.1.7.2',
      content: signed.toSchema(true),
    })
    return new pkijs.TimeStampResp({ status: new pkijs.PKIStatusInfo({ status: 0 }), timeStampToken: token })
      .toSchema()
      .toBER(false)
  }
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      tsa.requests++
      answer(Buffer.concat(chunks)).then(
        (der) => res.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end(Buffer.from(der)),
        () => res.writeHead(400).end(),
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  tsa.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/tsr`
  return tsa
}
