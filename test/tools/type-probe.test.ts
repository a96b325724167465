/**
 * Where a field may show only its hint (the dump before Android 16 cannot tell an empty field from one showing its
 * hint), the typing tools type one probe character and read the field back. A field whose app reformats what it holds
 * (an amount field grouping digits with commas, as PhoneNumberFormattingTextWatcher does for phone numbers) shows
 * neither "text + probe" nor "probe": the probe went in all the same and must come out again, and the error must say
 * what the field holds now. A field that dropped the probe keeps every character of the user's.
 */
import {writeFile} from 'node:fs/promises'
import path from 'node:path'

import {buildScreenModel} from '@arc-cli/core'
import {expect} from 'chai'

import {tools} from '../../src/tools/index.js'
import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {dumpXml, type NodeSpec} from '@arc-cli/test-support/dump'
import {toolContext} from '@arc-cli/test-support/tool-context'

const AMOUNT = 'com.example:id/amount'
const LOCKED = 'com.example:id/locked_amount'
const FULL = 'com.example:id/pin'

const field = (res: string, text: string, hint: string, top: number): NodeSpec => ({
  cls: 'android.widget.EditText',
  res,
  text,
  attrs: {clickable: 'true', focusable: 'true', hint},
  bounds: [40, top, 1040, top + 120],
})

/** A payment form: an amount that groups its digits, a limit that also keeps its text from deletes, a full PIN field. */
const form: NodeSpec[] = [
  {
    pkg: 'com.example',
    bounds: [0, 0, 1080, 2400],
    children: [
      field(AMOUNT, '1,234', 'Amount', 200),
      field(LOCKED, '999', 'Limit', 400),
      field(FULL, '1234', 'PIN', 600),
    ],
  },
]

describe('typing tools: the probe character never stays in a field', function () {
  this.timeout(60_000)
  const h = useEmulator(async (dir) => {
    await writeFile(path.join(dir, 'form.xml'), dumpXml(form))
    return {
      devices: [],
      scenario: {
        devices: {
          'emu-1': {
            screens: {form: path.join(dir, 'form.xml')},
            fields: [
              {resourceId: AMOUNT, format: 'group-digits'},
              {resourceId: LOCKED, format: 'group-digits', keepsText: true},
              {resourceId: FULL, maxLength: 4},
            ],
          },
        },
      },
    }
  })
  const device = () => h.emu.device('emu-1')
  beforeEach(() => device().showScreen('form'))

  async function run(name: string, input: Record<string, unknown>) {
    const tool = tools.find((t) => t.name === name)!
    const driver = await h.driver()
    const from = h.emu.commands.length
    try {
      await tool.handler(toolContext(driver), tool.input.parse(input))
      return {error: undefined, inputs: inputsSince(from)}
    } catch (error) {
      return {
        error: error as {code: string; message: string; details: Record<string, unknown>},
        inputs: inputsSince(from),
      }
    } finally {
      await driver.close()
    }
  }
  const inputsSince = (from: number) => h.argvSince(from).filter((a) => a[0] === 'input')
  async function read(res: string) {
    const model = buildScreenModel(await h.capture())
    return model.elements.find((e) => e.resId === res)!
  }
  const fast = {typing_speed: 10, typing_speed_variance: 0}

  it('insert into a field that reformats ("1,234" with the probe shows "12,340"): the probe is deleted again and the error says the field holds "1,234"', async () => {
    const {id} = await read(AMOUNT)
    const r = await run('type_insert_text', {element_id: id, text: '5', offset: 2, ...fast})
    expect((await read(AMOUNT)).text).to.equal('1,234')
    expect(r.error).to.have.property('code', 'DEVICE_COMMAND_FAILED')
    expect(r.error!.details).to.include({reason: 'PROBE_NOT_TAKEN', actual: '12,340', now: '1,234'})
    expect(r.error!.message).to.include('"12,340"')
    expect(r.error!.message).to.include('it holds "1,234" as before; nothing more was typed')
    // The probe, then one DEL right after it, and nothing more.
    expect(r.inputs.slice(-3)).to.deep.equal([
      ['input', 'keycombination', 'KEYCODE_ALT_LEFT', 'KEYCODE_DPAD_DOWN'],
      ['input', 'text', '0'],
      ['input', 'keyevent', 'KEYCODE_DEL'],
    ])
  })

  it('replace in that field: the same, nothing of the user’s text lost', async () => {
    const {id} = await read(AMOUNT)
    const r = await run('type_replace_text', {element_id: id, search: '1,2', new_text: '7', ...fast})
    expect((await read(AMOUNT)).text).to.equal('1,234')
    expect(r.error!.details).to.include({reason: 'PROBE_NOT_TAKEN', now: '1,234'})
  })

  it('a full field drops the probe: no DEL follows it (it would delete the user’s last digit)', async () => {
    const {id} = await read(FULL)
    const r = await run('type_insert_text', {element_id: id, text: '9', offset: 2, ...fast})
    expect(r.error!.details).to.include({reason: 'PROBE_NOT_TAKEN', actual: '1234', now: '1234'})
    expect(r.error!.message).to.include('it dropped the probe')
    expect(r.inputs.at(-1)).to.deep.equal(['input', 'text', '0'])
    expect((await read(FULL)).text).to.equal('1234')
  })

  it('clear of a field that keeps its text and reformats ("999" with the probe shows "9,990"): a DEL is tried on the probe, and the error says what the field holds now', async () => {
    const {id} = await read(LOCKED)
    const r = await run('type_clear_text', {element_id: id})
    expect(r.inputs.slice(-2)).to.deep.equal([
      ['input', 'text', '0'],
      ['input', 'keyevent', 'KEYCODE_DEL'],
    ])
    // Its InputFilter gives back what a delete removes, the probe's DEL too: said, never left behind unsaid.
    expect((await read(LOCKED)).text).to.equal('9,990')
    expect(r.error!.details).to.include({reason: 'NOT_CLEARED', actual: '999', now: '9,990'})
    expect(r.error!.message).to.include(
      'gave "9,990", not the probe alone; the probe was deleted again (one DEL), and it holds "9,990" now, not what it showed before'
    )
  })
})
