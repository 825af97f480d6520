export { langchainTools } from './langchainTools.js'
