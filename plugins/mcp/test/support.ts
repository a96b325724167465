import {request} from 'node:http'

import type {AnyTool} from '@arc-cli/core'
import {collectTools, serveHttp, type HttpSettings, type StartedHttp} from '@arc-cli/plugin-mcp'
import type {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {Config} from '@oclif/core'

import {connectMcp} from '@arc-cli/test-support/mcp-client'
import {ROOT} from '@arc-cli/test-support/paths'
import {inDevelopment, sourceOptions} from '@arc-cli/test-support/source-config'

export {ROOT}

let loaded: Promise<AnyTool[]> | undefined

/** Every tool the installed plugins hand to `arc:tools`, collected the way `arc mcp serve` does. */
export function allTools(): Promise<AnyTool[]> {
  loaded ??= inDevelopment(async () => collectTools(await Config.load(await sourceOptions())))
  return loaded
}

export const TOKEN = 'test-token-0123456789abcdef0123456789'

/** An HTTP server on an ephemeral port with every tool, for a suite. */
export async function startServer(settings: Partial<HttpSettings> = {}): Promise<StartedHttp> {
  return serveHttp({tools: await allTools(), config: {}, token: TOKEN, port: 0, devices: ['demo'], ...settings})
}

/** The SDK's own client, connected over Streamable HTTP with the bearer token. */
export function connect(url: string, token = TOKEN): Promise<Client> {
  return connectMcp(url, token)
}

/** Width and height from a JPEG's start-of-frame marker. */
export function jpegSize(data: Buffer): {width: number; height: number} {
  if (data[0] !== 0xff || data[1] !== 0xd8) throw new Error('not a JPEG')
  let at = 2
  while (at < data.length) {
    if (data[at] !== 0xff) throw new Error(`bad JPEG marker at ${at}`)
    const marker = data[at + 1] as number
    const length = data.readUInt16BE(at + 2)
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return {height: data.readUInt16BE(at + 5), width: data.readUInt16BE(at + 7)}
    }
    at += 2 + length
  }
  throw new Error('no JPEG frame header')
}

export interface RawResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/**
 * A raw HTTP request (node:http, so Host and Origin are ours to set), for what the SDK client would never send. A
 * header given as undefined is not sent at all.
 */
export function raw(
  url: string,
  options: {method?: string; headers?: Record<string, string | undefined>; body?: string | Buffer} = {}
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? 'POST',
        headers: Object.fromEntries(
          Object.entries({
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            ...options.headers,
          }).filter((e): e is [string, string] => e[1] !== undefined)
        ),
      },
      (res) => {
        let body = ''
        res.on('data', (d) => (body += d))
        res.on('end', () => resolve({status: res.statusCode ?? 0, headers: res.headers, body}))
      }
    )
    // A server that refuses a large body may close the connection before reading it all.
    req.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)
    )
    req.end(options.body)
  })
}

export const LIST = JSON.stringify({jsonrpc: '2.0', id: 1, method: 'tools/list'})
