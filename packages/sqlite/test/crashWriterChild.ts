// The child of the conformance suite's kill -9 test: `node --import tsx crashWriterChild.ts <file> <count>`.
import { runCrashWriter } from '@agentwallet/core/testing'
import { sqliteStorage } from '@agentwallet/sqlite'

const [filename, count] = process.argv.slice(2)
await runCrashWriter(sqliteStorage({ filename: filename! }), Number(count), (line) =>
  process.stdout.write(`${line}\n`),
)
