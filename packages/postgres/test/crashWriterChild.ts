// The child of the conformance suite's kill -9 test: `node --import tsx crashWriterChild.ts <url> <schema> <count>`.
import { runCrashWriter } from '@agentwallet/core/testing'
import { postgresStorage } from '@agentwallet/postgres'

const [connectionString, schema, count] = process.argv.slice(2)
const storage = await postgresStorage({ connectionString: connectionString!, schema: schema!, poolSize: 4 })
await runCrashWriter(storage, Number(count), (line) => process.stdout.write(`${line}\n`))
