/**
 * The host side of download_from_url: one GET with node's http/https inside the configured policy (plain http
 * and unverified https only when allowed, a time limit for the whole download, a size cap enforced while the
 * bytes arrive), following up to 5 redirects, each checked against the same policy.
 */
import http from 'node:http'
import https from 'node:https'

import {
  DownloadFailedError,
  FileTooLargeError,
  InvalidInputError,
  PermissionDeniedError,
  TimeoutError,
  type FilesSettings,
} from '@arc-cli/core'

const MAX_REDIRECTS = 5

export function parseUrl(text: string): URL {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new InvalidInputError(`invalid URL: ${JSON.stringify(text)}`, {
      details: {url: text},
      actions: ['Give an absolute http:// or https:// URL.'],
    })
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidInputError(
      `unsupported URL scheme ${url.protocol} in ${JSON.stringify(text)}: only http and https`,
      {details: {url: text}}
    )
  }
  return url
}

function checkPolicy(url: URL, policy: FilesSettings['download']): void {
  if (url.protocol === 'http:' && !policy.allowHttp) {
    throw new PermissionDeniedError(`HTTP not allowed: ${url.href} is not https`, {
      details: {url: url.href},
      actions: ['Use an https:// URL, or set files.download.allowHttp: true in the config.'],
    })
  }
}

interface Fetched {
  data: Buffer
  url: string
}

function once(
  url: URL,
  policy: FilesSettings['download'],
  signal: AbortSignal
): Promise<{status: number; location?: string; data?: Buffer}> {
  return new Promise((resolve, reject) => {
    const module = url.protocol === 'https:' ? https : http
    const request = module.get(url, {signal, rejectUnauthorized: !policy.allowUnverifiedHttps}, (response) => {
      const status = response.statusCode ?? 0
      if (status >= 300 && status < 400 && response.headers.location) {
        response.resume()
        resolve({status, location: response.headers.location})
        return
      }
      if (status < 200 || status >= 300) {
        response.resume()
        reject(
          new DownloadFailedError(
            `download failed: HTTP ${status} ${response.statusMessage ?? ''} from ${url.href}`.trim(),
            {details: {url: url.href, status}}
          )
        )
        return
      }
      const declared = Number(response.headers['content-length'])
      if (Number.isFinite(declared) && declared > policy.maxBytes) {
        response.destroy()
        reject(tooLarge(declared, policy.maxBytes, url))
        return
      }
      const chunks: Buffer[] = []
      let size = 0
      response.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > policy.maxBytes) {
          response.destroy()
          reject(tooLarge(size, policy.maxBytes, url))
          return
        }
        chunks.push(chunk)
      })
      response.on('end', () => resolve({status, data: Buffer.concat(chunks)}))
      response.on('error', reject)
      response.on('aborted', () =>
        reject(new DownloadFailedError(`download failed: the connection to ${url.host} closed mid-transfer`))
      )
    })
    request.on('error', reject)
  })
}

function tooLarge(bytes: number, limit: number, url: URL): FileTooLargeError {
  return new FileTooLargeError(
    `download from ${url.href} is over the ${limit}-byte limit (files.download.maxBytes): ${bytes} bytes or more`,
    {
      details: {url: url.href, limit},
      actions: ['Raise files.download.maxBytes in the config.'],
    }
  )
}

/** Downloads `start` within `policy`; errors are ArcErrors naming the URL. */
export async function download(start: URL, policy: FilesSettings['download'], outer?: AbortSignal): Promise<Fetched> {
  const timer = AbortSignal.timeout(policy.timeoutMs)
  const signal = outer ? AbortSignal.any([outer, timer]) : timer
  let url = start
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    checkPolicy(url, policy)
    let result
    try {
      result = await once(url, policy, signal)
    } catch (error) {
      if (error instanceof FileTooLargeError || error instanceof DownloadFailedError) throw error
      if (timer.aborted) {
        throw new TimeoutError(`download from ${start.href} timed out after ${policy.timeoutMs} ms`, {
          details: {url: start.href, timeout_ms: policy.timeoutMs},
          actions: ['Raise files.download.timeoutMs in the config.'],
        })
      }
      const err = error as NodeJS.ErrnoException
      const certificate = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(err.code ?? '')
      if (certificate) {
        throw new PermissionDeniedError(
          `unverified HTTPS not allowed: the certificate of ${url.host} does not verify (${err.code})`,
          {
            details: {url: url.href, code: err.code},
            actions: ['Fix the server certificate, or set files.download.allowUnverifiedHttps: true in the config.'],
          }
        )
      }
      throw new DownloadFailedError(`download failed from ${url.href}: ${err.code ?? err.message}`, {
        details: {url: url.href, code: err.code},
        cause: error,
      })
    }
    if (result.data) return {data: result.data, url: url.href}
    url = parseUrl(new URL(result.location as string, url).href)
  }
  throw new DownloadFailedError(`download failed from ${start.href}: more than ${MAX_REDIRECTS} redirects`, {
    details: {url: start.href},
  })
}
