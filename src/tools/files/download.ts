/**
 * The host side of download_from_url: one GET with node's http/https inside the configured policy (plain http
 * and unverified https only when allowed, a time limit for the whole download, a size cap enforced while the
 * bytes arrive), following up to 5 redirects, each checked against the same policy.
 */
import dns, {type LookupAddress} from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import {BlockList, isIP, type LookupFunction} from 'node:net'

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

/**
 * Addresses that are not the public internet: this machine (loopback, the unspecified address), the networks it sits
 * in (RFC 1918 private, carrier-grade NAT, IPv6 unique local), link-local (where clouds serve instance metadata and
 * its credentials, 169.254.169.254), multicast and reserved ranges, and IPv4 written as IPv6 (mapped or compatible:
 * a socket reaches the IPv4 address). An agent served over MCP, or a flow from a repository, names the URL: without
 * this, the host fetched what only it can reach (a service on its loopback, an intranet page) onto the device, where
 * read_file returns it (OWASP's SSRF prevention cheat sheet lists the same ranges).
 */
// Two lists, one per family, each checked only with addresses of its own: a BlockList checks an IPv4 address against
// its IPv6 rules too, as the IPv4-mapped address (::ffff:a.b.c.d), so one list holding ::ffff:0:0/96 refused every
// IPv4 address, public ones included.
const NOT_PUBLIC_V4 = new BlockList()
const NOT_PUBLIC_V6 = new BlockList()
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const) {
  NOT_PUBLIC_V4.addSubnet(net, prefix, 'ipv4')
  // The same range behind NAT64's well-known prefix (RFC 6052 section 2.1: 64:ff9b::/96 followed by the IPv4
  // address), and only it: on an IPv6-only network DNS64 answers every IPv4-only site with an address under that
  // prefix (RFC 6147), so refusing the prefix whole refused every such public download.
  NOT_PUBLIC_V6.addSubnet(`64:ff9b::${net}`, 96 + prefix, 'ipv6')
}
for (const [net, prefix] of [
  ['::', 96],
  ['::ffff:0:0', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  NOT_PUBLIC_V6.addSubnet(net, prefix, 'ipv6')

/** Whether `address` (an IP address as written, without brackets) is on the public internet. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 4) return !NOT_PUBLIC_V4.check(address, 'ipv4')
  return family === 6 && !NOT_PUBLIC_V6.check(address, 'ipv6')
}

function privateRefused(url: URL, address: string): PermissionDeniedError {
  return new PermissionDeniedError(
    `download from a non-public address not allowed: ${url.host} is ${address} (loopback, private, link-local or reserved)`,
    {
      details: {url: url.href, address},
      actions: [
        'Download from a public address, or set files.download.allowPrivateAddresses: true in the config to let download_from_url reach this machine and its networks.',
      ],
    }
  )
}

/**
 * dns.lookup for a download's connection, refusing a name that resolves to a non-public address. The connection
 * goes to the addresses checked here, so a name that answers a public address to a first lookup and a private one
 * to a second (DNS rebinding) cannot slip between the check and the connect.
 */
function publicLookup(url: URL): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, {...options, all: true}, (error, found: LookupAddress[]) => {
      if (error) return callback(error, '', 0)
      const refused = found.find((a) => !isPublicAddress(a.address))
      if (refused) return callback(privateRefused(url, refused.address), '', 0)
      if (options.all) return (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, found)
      const first = found[0] as LookupAddress
      callback(null, first.address, first.family)
    })
  }
}

function checkPolicy(url: URL, policy: FilesSettings['download']): void {
  if (url.protocol === 'http:' && !policy.allowHttp) {
    throw new PermissionDeniedError(`HTTP not allowed: ${url.href} is not https`, {
      details: {url: url.href},
      actions: ['Use an https:// URL, or set files.download.allowHttp: true in the config.'],
    })
  }
  // An address written in the URL is connected to without a lookup: checked here.
  const literal = url.hostname.replace(/^\[(.*)\]$/, '$1')
  if (!policy.allowPrivateAddresses && isIP(literal) !== 0 && !isPublicAddress(literal))
    throw privateRefused(url, literal)
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
    const options = {
      signal,
      rejectUnauthorized: !policy.allowUnverifiedHttps,
      ...(policy.allowPrivateAddresses ? {} : {lookup: publicLookup(url)}),
    }
    const request = module.get(url, options, (response) => {
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
      if (
        error instanceof FileTooLargeError ||
        error instanceof DownloadFailedError ||
        error instanceof PermissionDeniedError
      )
        throw error
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
