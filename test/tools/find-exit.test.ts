import {exitCodeFor} from '@arc-cli/core'
import {runArc} from '@arc-cli/test-support/run-arc'
import {expect} from 'chai'

/** `arc find … && next` goes on only when something matched; MCP keeps the spec's empty answer (contract test). */
describe('find and details: the exit status says whether they found it', () => {
  it('find exits 9 when nothing matches, after printing that nothing did (and the empty list with --json)', async () => {
    const none = await runArc(['find', 'text', 'No such thing', '-d', 'demo'])
    expect(none.code).to.equal(exitCodeFor('ELEMENT_NOT_FOUND'))
    expect(none.stdout).to.equal('No element matches text "No such thing".\n')
    const json = await runArc(['find', 'text', 'No such thing', '-d', 'demo', '--json'])
    expect(json.code).to.equal(exitCodeFor('ELEMENT_NOT_FOUND'))
    expect(JSON.parse(json.stdout)).to.deep.equal({elements: []})
    const some = await runArc(['find', 'text', 'ADD', '--exact-match', '-d', 'demo'])
    expect(some.code, some.stderr).to.equal(0)
  })

  it('details exits 9 when an id is not on the screen, after printing every row', async () => {
    const found = await runArc(['find', 'text', 'ADD', '--exact-match', '-d', 'demo', '--json'])
    const id = (JSON.parse(found.stdout) as {elements: Array<{id: string}>}).elements[0]!.id
    const mixed = await runArc(['details', '--ids', id, '--ids', 'node_aaaaaa', '-d', 'demo'])
    expect(mixed.code).to.equal(exitCodeFor('ELEMENT_NOT_FOUND'))
    expect(mixed.stdout).to.equal(`id\ttext\tdesc\n${id}\tADD\t-\nnode_aaaaaa\tnot_found\tnot_found\n`)
    const all = await runArc(['details', '--ids', id, '-d', 'demo'])
    expect(all.code, all.stderr).to.equal(0)
  })
})
