/**
 * Which addresses download_from_url may reach without files.download.allowPrivateAddresses. On an IPv6-only network
 * DNS64 answers a site that has only IPv4 with its address behind NAT64's well-known prefix (RFC 6147, RFC 6052
 * section 2.1: 64:ff9b::/96 then the 32 bits of the IPv4 address), so such an address is as public as the IPv4
 * address it carries, and as private where that one is.
 */
import {expect} from 'chai'

import {download, isPublicAddress, parseUrl} from '../../src/tools/files/download.js'

describe('download_from_url: public and non-public addresses', () => {
  it('an address behind the NAT64 prefix is judged by the IPv4 address it carries', () => {
    // 8.8.8.8 and 140.82.112.3 (a public site) as DNS64 synthesizes them.
    for (const address of ['64:ff9b::808:808', '64:ff9b::8.8.8.8', '64:ff9b::8c52:7003'])
      expect(isPublicAddress(address), address).to.equal(true)
    // Loopback, private, link-local (instance metadata) and carrier-grade NAT addresses behind the same prefix.
    for (const address of ['64:ff9b::7f00:1', '64:ff9b::10.1.2.3', '64:ff9b::a9fe:a9fe', '64:ff9b::192.168.0.1'])
      expect(isPublicAddress(address), address).to.equal(false)
    expect(isPublicAddress('64:ff9b::100.64.0.1')).to.equal(false)
  })

  it('the ranges refused before stay refused, public addresses pass', () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:7f00:1', '::ffff:8.8.8.8', '10.0.0.1', 'fd00::1', 'fe80::1'])
      expect(isPublicAddress(address), address).to.equal(false)
    for (const address of ['8.8.8.8', '2606:4700:4700::1111']) expect(isPublicAddress(address), address).to.equal(true)
  })

  it('a download from a public IPv4 address written in the URL is not refused as non-public', async () => {
    const policy = {
      allowHttp: true,
      allowUnverifiedHttps: false,
      allowPrivateAddresses: false,
      timeoutMs: 5000,
      maxBytes: 1000,
    }
    // Cancelled before it starts: the policy is checked first, and nothing is fetched.
    const failed = await download(parseUrl('http://8.8.8.8/'), policy, AbortSignal.abort()).then(
      () => undefined,
      (error: unknown) => error as {code?: string; message: string}
    )
    expect(failed?.code, failed?.message).to.not.equal('PERMISSION_DENIED')
  })
})
