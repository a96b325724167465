import {mkdirSync, mkdtempSync, rmSync} from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

import {expect} from 'chai'

import {serverFor, serverSocketPath, socketFolder} from '../../src/server/protocol.js'

/**
 * A command whose arguments hold U+FFFD is never handed to `arc server`: only the client's own command line tells
 * whether it stands for bytes that were not UTF-8 (core's cli/argv-text.ts), so the client runs it itself.
 */
describe('arc server and arguments holding U+FFFD', () => {
  let tmp: string
  let server: net.Server
  const before = {TMPDIR: process.env.TMPDIR, ARC_SERVER: process.env.ARC_SERVER}

  beforeEach(async function () {
    if (process.platform === 'win32') this.skip()
    tmp = mkdtempSync(path.join(os.tmpdir(), 'arc-argv-'))
    process.env.TMPDIR = tmp
    // The suite's runner turns the server off for every arc it starts (scripts/run-mocha.js); here it is asked.
    delete process.env.ARC_SERVER
    mkdirSync(socketFolder(), {mode: 0o700})
    server = net.createServer()
    await new Promise<void>((resolve) => server.listen(serverSocketPath('/arc') as string, resolve))
  })

  afterEach(async () => {
    for (const [key, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[key]
      else process.env[key] = value
    }
    await new Promise((resolve) => server?.close(resolve))
    rmSync(tmp, {recursive: true, force: true})
  })

  it('hands a command over, but not one with an argument holding U+FFFD', () => {
    expect(serverFor('/arc', ['shell', '--', 'echo', 'cafe'])).to.equal(serverSocketPath('/arc'))
    expect(serverFor('/arc', ['shell', '--', 'echo', 'caf\uFFFD'])).to.equal(undefined)
  })
})
