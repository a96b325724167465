import {tools} from '../commands.js'

/** `arc:tools` hook: hands this plugin's tools to whoever serves them (the MCP plugin). */
export default async function arcTools() {
  return tools
}
