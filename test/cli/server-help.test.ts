/** `arc server --help` names every command the server leaves to the client's own process (docs/server.md). */
import {expect} from 'chai'

import Server, {NOT_HERE} from '../../src/commands/server.js'

describe('arc server --help', () => {
  it('names every command that always runs in its own process', () => {
    const description = Server.description ?? ''
    const named = [...NOT_HERE]
      .filter((id) => id !== 'help' && !id.startsWith('server'))
      .map((id) => id.replace(':', ' '))
    expect(named).to.include.members(['batch', 'test', 'logs', 'screenrecord'])
    for (const command of named) expect(description, command).to.include(`\`${command}\``)
  })
})
