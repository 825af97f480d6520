export { openAiAgentsTools } from './openAiAgentsTools.js'
