/**
 * A dialog takes every touch on its app's window, not only those on its own bounds: the input dispatcher gives a
 * touch to a focusable window without FLAG_NOT_TOUCH_MODAL wherever it falls in its task (AOSP InputDispatcher.cpp
 * `windowAcceptsTouchAt`, WindowState.getTouchableRegion), and AlertDialog cancels on a touch outside it. So an id
 * read before the dialog opened, of a row the dialog does not lie on, must be refused: tapping it only closed the
 * dialog while arc said "Click performed". The demo app on arc emulate does as a phone does (its dialog is modal).
 */
import {useEmulator} from '@arc-cli/test-support/emulator-support'
import {runArc} from '@arc-cli/test-support/run-arc'
import {expect} from 'chai'

interface Element {
  id: string
  desc?: string
  text?: string
  bounds: {left: number; top: number; right: number; bottom: number}
}

for (const helper of ['off', 'auto'])
  describe(`click under a modal dialog (the demo app on arc emulate, helper ${helper})`, function () {
    this.timeout(120_000)
    const h = useEmulator({devices: [{serial: 'emu-1', app: 'demo'}]})
    const arc = (...args: string[]) => runArc([...args, '--device', 'emu-1'], {env: {...h.env, ARC_HELPER: helper}})

    before(() => {
      // Where a tap leads, not when the dialog shows (test/tools/read-after-action.test.ts times that).
      h.emu.device('emu-1').timing.transitionMs = 0
    })

    async function elements(): Promise<Element[]> {
      const run = await arc('screen-state', '--json')
      expect(run.code, run.stderr).to.equal(0)
      return (JSON.parse(run.stdout) as {windows: Array<{elements: Element[]}>}).windows.flatMap((w) => w.elements)
    }
    const dialogOpen = () => h.emu.device('emu-1').dumpXml().includes('text="Delete Lemons?"')

    it('refuses an id beside the dialog, naming it, and sends nothing: the dialog stays open', async () => {
      const before = await elements()
      // A row's delete button well above the dialog's bounds ([66,930][1014,1470]), and the new-item field.
      const above = before.find((e) => e.desc?.startsWith('Delete ') && e.bounds.bottom < 900)!
      expect(above, 'a delete button above the dialog').to.not.equal(undefined)
      const opened = await arc('click', '--desc', 'Delete Lemons', '--exact-match')
      expect(opened.code, opened.stderr).to.equal(0)
      expect(dialogOpen()).to.equal(true)
      const sent = h.emu.device('emu-1').inputEvents.length
      const run = await arc('click', above.id, '--json')
      const out = JSON.parse(run.stdout) as {error?: {code: string; message: string; details: {covered_by?: unknown}}}
      expect(run.code, run.stdout).to.not.equal(0)
      expect(out.error?.code).to.equal('INVALID_INPUT')
      expect(out.error?.message).to.include('behind')
      expect(JSON.stringify(out.error?.details.covered_by)).to.include('dev.arc.demo.groceries')
      expect(h.emu.device('emu-1').inputEvents.length, 'nothing was sent').to.equal(sent)
      expect(dialogOpen(), 'the dialog is still open').to.equal(true)
    })

    it('the dialog’s own buttons are clicked as before, and with it closed the same id works again', async () => {
      const cancel = await arc('click', '--text', 'Cancel', '--exact-match')
      expect(cancel.code, cancel.stderr).to.equal(0)
      expect(dialogOpen()).to.equal(false)
      const above = (await elements()).find((e) => e.desc?.startsWith('Delete ') && e.bounds.bottom < 900)!
      const run = await arc('click', above.id)
      expect(run.code, run.stderr).to.equal(0)
      expect(h.emu.device('emu-1').dumpXml()).to.include(`text="${above.desc!}?"`)
    })
  })
