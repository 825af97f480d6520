export type { AdvisoryLock, WithLeaderLockOptions } from './advisoryLock.js'
export type { ClaimOptions } from './claimRecords.js'
export type { PostgresConnectionOptions } from './connectionConfig.js'
export {
  defaultSchema,
  type MigrateOptions,
  type MigrateReturnType,
  migrate,
  migrateClient,
} from './migrate.js'
export { type Migration, migrations } from './migrations.js'
export { type PostgresStorage, type PostgresStorageOptions, postgresStorage } from './postgresStorage.js'
