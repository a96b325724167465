import {tools} from '../tools/index.js'

/** `arc:tools` hook: hands the core's device tools to whoever serves them (the MCP plugin). */
export default async function arcTools() {
  return tools
}
