export {
  type AgentWalletApp,
  type CreateAppOptions,
  createApp,
  type RateLimitOptions,
  type RunningServer,
  serverVersion,
} from './createApp.js'
export { dashboardExplorerUrl } from './dashboard/dashboardExplorerUrl.js'
export {
  type DashboardOption,
  dashboardCsp,
  findDashboardDir,
  serveDashboard,
} from './dashboard/serveDashboard.js'
export { type CreateLoggerOptions, createLogger, redactPaths } from './http/createLogger.js'
export { type ErrorEnvelope, toErrorEnvelope } from './http/errorEnvelope.js'
export { HttpError } from './http/httpError.js'
export { logBackgroundError } from './http/logBackgroundError.js'
export {
  type RateLimiter,
  type SharedTokenBucketOptions,
  sharedTokenBucket,
} from './http/sharedTokenBucket.js'
export { type EdgeErrorCode, type HttpErrorCode, statusByCode } from './http/statusByCode.js'
export { type TokenBucket, type TokenBucketOptions, tokenBucket } from './http/tokenBucket.js'
export { type HttpMetrics, httpMetrics } from './metrics/httpMetrics.js'
export { type ProcessMetrics, processMetrics } from './metrics/processMetrics.js'
export { expositionContentType, renderExposition } from './metrics/renderExposition.js'
export { buildOpenApi } from './openapi/buildOpenApi.js'
export { mountOperations } from './operations/mountOperations.js'
export { type RequestInputReader, requestInput } from './operations/requestInput.js'
export { defineRoute, type RouteInput, type RouteResult, type RouteSpec } from './routes/defineRoute.js'
export { type HealthOptions, type HealthRouteOptions, healthRoutes } from './routes/healthRoutes.js'
export { type MetricsRouteOptions, metricsRoutes } from './routes/metricsRoutes.js'
export { type EventHub, eventHub, wsCloseCodes } from './ws/eventHub.js'
