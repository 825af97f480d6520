import { Writable } from 'node:stream'
import { BaseError } from '@agentwallet/core'
import { createLogger, logBackgroundError } from '@agentwallet/koa'
import { expect, it } from 'vitest'

function capture() {
  const written: string[] = []
  const destination = new Writable({
    write(chunk, _encoding, done) {
      written.push(String(chunk))
      done()
    },
  })
  const log = logBackgroundError(createLogger({ destination }))
  const lines = () =>
    written
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
  return { log, lines, text: () => written.join('') }
}

it('a skipped tracker step is one warn line with its code and details, never its cause’s text', () => {
  const { log, lines, text } = capture()
  const cause = new Error('HTTP request failed. URL: https://eth.example/v2/secret-api-key')
  log(
    new BaseError(
      'chain_unavailable',
      'The tracker skipped a step (replacement_fees); a later pass does it again',
      {
        details: { step: 'replacement_fees', chain: 'devnet', transactionId: 'tx_1' },
        cause,
      },
    ),
  )
  log(cause)
  expect(lines()).toEqual([
    expect.objectContaining({
      level: 40,
      msg: 'background step failed',
      code: 'chain_unavailable',
      details: { step: 'replacement_fees', chain: 'devnet', transactionId: 'tx_1' },
    }),
    expect.objectContaining({ level: 50, msg: 'background error', errorName: 'Error' }),
  ])
  expect(text()).not.toContain('secret-api-key')
})
