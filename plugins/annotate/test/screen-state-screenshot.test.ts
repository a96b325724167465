import {expect} from 'chai'

import {openSnapshot, type ToolContext} from '@arc-cli/core'
import {toolContext} from '@arc-cli/test-support/tool-context'

import {getScreenState} from '@arc-cli/plugin-screen-state'
import {annotate} from '../src/tools/annotate.js'
import {dumpXml, makeSnapshot, solidPng} from './support.js'

const xml = dumpXml([
  {
    bounds: [0, 0, 1080, 1920],
    children: [{cls: 'android.widget.Button', text: 'OK', bounds: [100, 200, 500, 400], attrs: {clickable: 'true'}}],
  },
])

describe('get_screen_state include_screenshot (the result before the CLI saves it, as MCP returns it)', () => {
  const context = async (dir: string): Promise<ToolContext> => toolContext(await openSnapshot(dir), {cwd: dir})

  it('returns the TSV and the same annotated JPEG annotate_screenshot returns', async () => {
    const dir = await makeSnapshot({xml, png: await solidPng(1080, 1920)})
    const state = await getScreenState.handler(await context(dir), {
      include_screenshot: true,
      detail: 'full',
      max_rows: 500,
      changes: 'off',
    })
    const marked = await annotate.handler(await context(dir), {})
    expect(state.text).to.include('\tOK\t')
    expect(state.image?.mimeType).to.equal('image/jpeg')
    expect(state.image!.data.equals(marked.image!.data)).to.equal(true)
  })

  it('returns no image by default', async () => {
    const dir = await makeSnapshot({xml})
    const state = await getScreenState.handler(await context(dir), {
      include_screenshot: false,
      detail: 'full',
      max_rows: 500,
      changes: 'off',
    })
    expect(state.image).to.equal(undefined)
    expect(state.text).to.include('\tOK\t')
  })
})
