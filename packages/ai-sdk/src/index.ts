export { aiSdkTools } from './aiSdkTools.js'
