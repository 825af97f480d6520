export { type FileLock, type LockFileParameters, type LockHolder, lockFile } from './lockFile.js'
export { type MigrateReturnType, migrate } from './migrate.js'
export { type Migration, migrations } from './migrations.js'
export { type SqliteStorage, type SqliteStorageOptions, sqliteStorage } from './sqliteStorage.js'
