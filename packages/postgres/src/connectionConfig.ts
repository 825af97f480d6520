import { BaseError } from '@agentwallet/core'
import type { PoolConfig } from 'pg'

/** Where the database is: a URL, `pg` client settings, or both (the URL wins where they overlap). */
export type PostgresConnectionOptions = {
  /** `postgres://user:pass@host:5432/db`. */
  connectionString?: string | undefined
  /** Any other `pg` connection settings (ssl, host, user, password, statement_timeout…). */
  config?: Omit<PoolConfig, 'max' | 'connectionString'> | undefined
}

/**
 * The `pg` settings for a pool or client of `size` connections.
 * @example connectionConfig({ connectionString: 'postgres://postgres@127.0.0.1/test' }, 4)
 */
export const connectionConfig = (options: PostgresConnectionOptions, size?: number): PoolConfig => {
  if (!options.connectionString && !options.config) {
    throw new BaseError('validation_failed', 'Postgres storage needs a connectionString or a config')
  }
  return {
    ...options.config,
    ...(options.connectionString ? { connectionString: options.connectionString } : {}),
    ...(size === undefined ? {} : { max: size }),
  }
}
