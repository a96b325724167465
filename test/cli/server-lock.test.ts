/**
 * The lock one `arc server` per installation takes before it looks at its socket (src/server/lock.ts), in both its
 * forms: Linux's abstract namespace, and the socket file other systems (macOS) use, tried here on Linux.
 */
import {mkdtempSync, rmSync} from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import {expect} from 'chai'

import {takeServerLock} from '../../src/server/lock.js'

describe('arc server: its start lock', () => {
  let tmp: string
  before(() => (tmp = mkdtempSync(path.join(os.tmpdir(), 'arc-server-lock-'))))
  after(() => rmSync(tmp, {recursive: true, force: true}))

  for (const platform of ['linux', 'darwin'] as const) {
    it(`${platform}: one holder at a time, who tells its pid; let go, it is free again`, async () => {
      // The server's folder need not exist yet: a first start makes it (private) as it takes the lock.
      const socket = path.join(tmp, platform, `arc-${process.getuid?.()}`, 'server-0123abcd.sock')
      const first = await takeServerLock(socket, platform)
      expect(first).to.have.property('release')
      expect(await takeServerLock(socket, platform)).to.deep.equal({heldBy: process.pid})
      ;(first as {release(): void}).release()
      const again = await takeServerLock(socket, platform)
      expect(again).to.have.property('release')
      ;(again as {release(): void}).release()
    })
  }
})
