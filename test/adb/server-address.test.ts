import {expect} from 'chai'

import {parseServerSocket, resolveServerAddress} from '../../packages/core/src/driver/adb/server-address.js'

describe('adb server address', () => {
  it('reads tcp:HOST:PORT, tcp:PORT and bracketed IPv6', () => {
    expect(parseServerSocket('tcp:10.0.0.5:7401')).to.deep.equal({host: '10.0.0.5', port: 7401})
    expect(parseServerSocket('tcp:5039')).to.deep.equal({host: undefined, port: 5039})
    expect(parseServerSocket('tcp:[::1]:5037')).to.deep.equal({host: '::1', port: 5037})
  })

  it('rejects other socket kinds and bad ports with INVALID_INPUT', () => {
    for (const bad of ['localfilesystem:/tmp/adb', 'tcp:host:0', 'tcp:host:99999', 'tcp:host:x', 'host:5037']) {
      expect(() => parseServerSocket(bad), bad).to.throw().with.property('code', 'INVALID_INPUT')
    }
  })

  it('prefers flags, then ADB_SERVER_SOCKET, then ANDROID_ADB_SERVER_PORT, then 127.0.0.1:5037', () => {
    const env = {ADB_SERVER_SOCKET: 'tcp:farm:7401', ANDROID_ADB_SERVER_PORT: '6000'}
    expect(resolveServerAddress({host: 'h', port: 1, env})).to.include({host: 'h', port: 1})
    expect(resolveServerAddress({env})).to.include({host: 'farm', port: 7401, source: 'ADB_SERVER_SOCKET'})
    expect(resolveServerAddress({env: {ANDROID_ADB_SERVER_PORT: '6000'}})).to.include({host: '127.0.0.1', port: 6000})
    expect(resolveServerAddress({env: {}})).to.include({host: '127.0.0.1', port: 5037, source: 'default'})
    expect(resolveServerAddress({port: 5039, env: {ADB_SERVER_SOCKET: 'tcp:farm:7401'}})).to.include({host: 'farm', port: 5039})
  })
})
