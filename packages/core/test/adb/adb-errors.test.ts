import {expect} from 'chai'

import {mapAdbError} from '../../src/driver/adb/map-adb-error.js'
import {selectDevice} from '../../src/driver/adb/connect.js'

describe('adb error mapping', () => {
  const ctx = {what: 'list devices', host: '10.0.0.2', port: 7401, serial: 'S1'}
  const fail = (msg: string) => Object.assign(new Error(`Failure: '${msg}'`), {name: 'FailError'})

  it('maps the adb server FAIL strings to the error model', () => {
    expect(mapAdbError(fail("device 'S1' not found"), ctx).code).to.equal('DEVICE_NOT_FOUND')
    expect(mapAdbError(fail('no devices/emulators found'), ctx).code).to.equal('DEVICE_NOT_FOUND')
    expect(mapAdbError(fail('more than one device/emulator'), ctx).code).to.equal('DEVICE_AMBIGUOUS')
    expect(mapAdbError(fail('device offline'), ctx).code).to.equal('DEVICE_UNAVAILABLE')
    const unauthorized = mapAdbError(fail("device unauthorized.\nThis adb server's $ADB_VENDOR_KEYS is not set"), ctx)
    expect(unauthorized.message).to.equal('device S1 is unauthorized')
    expect(mapAdbError(fail('closed'), ctx).code).to.equal('DEVICE_COMMAND_FAILED')
  })

  it('maps socket errors and adbkit parser errors', () => {
    const refused = mapAdbError(Object.assign(new Error('x'), {code: 'ECONNREFUSED'}), ctx)
    expect(refused.code).to.equal('DEVICE_UNAVAILABLE')
    expect(refused.message).to.equal('no adb server at 10.0.0.2:7401')
    expect(mapAdbError(Object.assign(new Error('x'), {code: 'ENOTFOUND'}), ctx).code).to.equal('DEVICE_UNAVAILABLE')
    expect(mapAdbError(Object.assign(new Error('x'), {code: 'ECONNRESET'}), ctx).code).to.equal('DEVICE_UNAVAILABLE')
    expect(mapAdbError(Object.assign(new Error('x'), {name: 'PrematureEOFError'}), ctx).code).to.equal(
      'DEVICE_UNAVAILABLE'
    )
    expect(mapAdbError(Object.assign(new Error('x'), {name: 'TimeoutError'}), ctx).code).to.equal('TIMEOUT')
    expect(mapAdbError(Object.assign(new Error('x'), {name: 'UnexpectedDataError'}), ctx).code).to.equal(
      'DEVICE_COMMAND_FAILED'
    )
  })
})

describe('device selection', () => {
  const d = (serial: string, state = 'device') => ({serial, state})
  it('picks the only ready device, even beside an offline one', () => {
    expect(selectDevice([d('a')], undefined, 'x')).to.equal('a')
    expect(selectDevice([d('a'), d('b', 'offline')], undefined, 'x')).to.equal('a')
  })
  it('throws the right errors', () => {
    expect(() => selectDevice([], undefined, 'x'))
      .to.throw()
      .with.property('code', 'DEVICE_NOT_FOUND')
    expect(() => selectDevice([d('a'), d('b')], undefined, 'x'))
      .to.throw(/a, b/)
      .with.property('code', 'DEVICE_AMBIGUOUS')
    expect(() => selectDevice([d('a', 'unauthorized')], undefined, 'x'))
      .to.throw()
      .with.property('code', 'DEVICE_UNAVAILABLE')
    expect(() => selectDevice([d('a')], 'b', 'x'))
      .to.throw()
      .with.property('code', 'DEVICE_NOT_FOUND')
  })
  it('several devices and none chosen: the advice names the way to choose on every surface, not only the CLI flag', () => {
    // An agent over MCP cannot pass --device; its tool calls take a `device` argument.
    // No serial given: adb's own 'more than one device' (one with a serial is several devices sharing it, above).
    const ctx = {what: 'list devices', host: '10.0.0.2', port: 7401, serial: undefined}
    const fail = Object.assign(new Error("Failure: 'more than one device/emulator'"), {name: 'FailError'})
    const errors = [mapAdbError(fail, ctx)]
    try {
      selectDevice([d('a'), d('b')], undefined, 'x')
    } catch (caught) {
      errors.push(caught as (typeof errors)[number])
    }
    expect(errors).to.have.length(2)
    for (const error of errors) {
      expect(error.code).to.equal('DEVICE_AMBIGUOUS')
      const advice = error.actions.join(' ')
      expect(advice).to.match(/--device (a|SERIAL)\b/)
      expect(advice).to.contain('`device` argument')
      expect(advice).to.contain('ANDROID_SERIAL')
    }
  })

  it('two devices with one serial (cheap boards ship 0123456789ABCDEF): names the shared serial and the USB-path way out', () => {
    const twins = [d('0123456789ABCDEF'), d('0123456789ABCDEF')]
    for (const serial of [undefined, '0123456789ABCDEF']) {
      let error: (Error & {code?: string; actions?: string[]}) | undefined
      try {
        selectDevice(twins, serial, 'x')
      } catch (caught) {
        error = caught as typeof error
      }
      expect(error?.code, String(serial)).to.equal('DEVICE_AMBIGUOUS')
      expect(error?.message).to.equal('2 devices share the serial 0123456789ABCDEF, so it names none of them')
      expect(error?.actions?.join(' ')).to.contain('--device usb:1-4')
    }
  })
})
