import {expect} from 'chai'

import {parseServerSocket, resolveServerAddress} from '../../src/driver/adb/server-address.js'

describe('adb server address', () => {
  it('reads tcp:HOST:PORT, tcp:PORT and bracketed IPv6', () => {
    expect(parseServerSocket('tcp:10.0.0.5:7401')).to.deep.equal({host: '10.0.0.5', port: 7401})
    expect(parseServerSocket('tcp:5039')).to.deep.equal({host: undefined, port: 5039})
    expect(parseServerSocket('tcp:[::1]:5037')).to.deep.equal({host: '::1', port: 5037})
  })

  it('rejects other socket kinds and bad ports with INVALID_INPUT', () => {
    for (const bad of ['localfilesystem:/tmp/adb', 'tcp:host:0', 'tcp:host:99999', 'tcp:host:x', 'host:5037']) {
      expect(() => parseServerSocket(bad), bad)
        .to.throw()
        .with.property('code', 'INVALID_INPUT')
    }
  })

  it('a tcp: value of the wrong shape is named as such, not refused as another kind of socket', () => {
    for (const bad of ['tcp:', 'tcp:::1:5037', 'tcp:host:5037:1']) {
      expect(() => parseServerSocket(bad), bad)
        .to.throw()
        .with.property('message')
        .that.contains(`ADB_SERVER_SOCKET=${bad} is not tcp:HOST:PORT or tcp:PORT`)
        .and.not.contains('TCP only')
    }
    expect(() => parseServerSocket('tcp:::1:5037'))
      .to.throw()
      .with.property('actions')
      .that.satisfies((actions: string[]) => actions.some((a) => a.includes('tcp:[::1]:5037')))
  })

  it('prefers flags, then ADB_SERVER_SOCKET, then ANDROID_ADB_SERVER_PORT, then 127.0.0.1:5037', () => {
    const env = {ADB_SERVER_SOCKET: 'tcp:farm:7401', ANDROID_ADB_SERVER_PORT: '6000'}
    expect(resolveServerAddress({host: 'h', port: 1, env})).to.include({host: 'h', port: 1})
    expect(resolveServerAddress({env})).to.include({
      host: 'farm',
      port: 7401,
      hostSource: 'env ADB_SERVER_SOCKET',
      portSource: 'env ADB_SERVER_SOCKET',
    })
    expect(resolveServerAddress({env: {ANDROID_ADB_SERVER_PORT: '6000'}})).to.include({host: '127.0.0.1', port: 6000})
    expect(resolveServerAddress({env: {}})).to.include({
      host: '127.0.0.1',
      port: 5037,
      hostSource: 'default',
      portSource: 'default',
    })
    expect(resolveServerAddress({port: 5039, env: {ADB_SERVER_SOCKET: 'tcp:farm:7401'}})).to.include({
      host: 'farm',
      port: 5039,
    })
  })

  it('reads ANDROID_ADB_SERVER_ADDRESS for the host (WSL2, Docker), as adb does: only without ADB_SERVER_SOCKET', () => {
    const env = {ANDROID_ADB_SERVER_ADDRESS: 'host.docker.internal', ANDROID_ADB_SERVER_PORT: '5038'}
    expect(resolveServerAddress({env})).to.deep.equal({
      host: 'host.docker.internal',
      port: 5038,
      hostSource: 'env ANDROID_ADB_SERVER_ADDRESS',
      portSource: 'env ANDROID_ADB_SERVER_PORT',
    })
    expect(resolveServerAddress({env: {ANDROID_ADB_SERVER_ADDRESS: '[::1]'}})).to.include({host: '::1', port: 5037})
    expect(
      resolveServerAddress({configured: {host: 'cfg'}, env: {ANDROID_ADB_SERVER_ADDRESS: '172.20.2.158'}})
    ).to.include({host: '172.20.2.158'})
    expect(resolveServerAddress({host: 'flag', env})).to.include({host: 'flag'})
    expect(resolveServerAddress({env: {...env, ADB_SERVER_SOCKET: 'tcp:farm:7401'}})).to.include({
      host: 'farm',
      port: 7401,
    })
    expect(resolveServerAddress({env: {ANDROID_ADB_SERVER_ADDRESS: ' '}})).to.include({
      host: '127.0.0.1',
      hostSource: 'default',
    })
  })

  it("takes the config's adb.host/adb.port only where neither a flag nor the environment says (as docs/config.md states)", () => {
    const configured = {host: 'cfg-host', port: 6100}
    expect(resolveServerAddress({configured, env: {}})).to.deep.equal({
      host: 'cfg-host',
      port: 6100,
      hostSource: 'config',
      portSource: 'config',
    })
    expect(resolveServerAddress({configured, env: {ADB_SERVER_SOCKET: 'tcp:farm:7401'}})).to.include({
      host: 'farm',
      port: 7401,
    })
    expect(resolveServerAddress({configured, env: {ADB_SERVER_SOCKET: 'tcp:5038'}})).to.include({
      host: 'cfg-host',
      port: 5038,
      portSource: 'env ADB_SERVER_SOCKET',
    })
    expect(resolveServerAddress({configured, env: {ANDROID_ADB_SERVER_PORT: '6000'}})).to.include({port: 6000})
    expect(
      resolveServerAddress({host: 'flag', port: 1, configured, env: {ADB_SERVER_SOCKET: 'tcp:farm:7401'}})
    ).to.include({host: 'flag', port: 1, hostSource: '--adb-host'})
  })
})
