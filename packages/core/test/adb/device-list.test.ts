import {expect} from 'chai'

import {parseDevicesLong} from '../../src/driver/adb/device-list.js'

// Lines as transport.cpp append_transport writes them: serial padded to 22, state, devpath (USB), details, id.
describe('host:devices-l lines', () => {
  it('reads USB, TCP, wireless-debugging and emulator devices by field prefix, devpath or not', () => {
    const text = [
      'R58M12ABCDE            device usb:1-4 product:beyond1qltesq model:SM_G973U device:beyond1q transport_id:3',
      '192.168.1.5:5555       device product:sunfish model:Pixel_4a device:sunfish transport_id:7',
      'adb-R58M12ABCDE-Qx1Yz2._adb-tls-connect._tcp. device product:p model:Pixel_7 device:panther transport_id:9',
      '[fe80::1%wlan0]:5555   unauthorized transport_id:10',
      'emulator-5554          offline transport_id:1',
      '',
    ].join('\n')
    expect(parseDevicesLong(text)).to.deep.equal([
      {serial: 'R58M12ABCDE', state: 'device', model: 'SM_G973U', product: 'beyond1qltesq', transportId: '3'},
      {serial: '192.168.1.5:5555', state: 'device', model: 'Pixel_4a', product: 'sunfish', transportId: '7'},
      {
        serial: 'adb-R58M12ABCDE-Qx1Yz2._adb-tls-connect._tcp.',
        state: 'device',
        model: 'Pixel_7',
        product: 'p',
        transportId: '9',
      },
      {serial: '[fe80::1%wlan0]:5555', state: 'unauthorized', transportId: '10'},
      {serial: 'emulator-5554', state: 'offline', transportId: '1'},
    ])
  })

  it('keeps states with spaces whole and serials with spaces whole', () => {
    const noPerm =
      'no permissions (user jo is not in the plugdev group); see [http://developer.android.com/tools/device.html]'
    const text = `0123456789ABCDEF       ${noPerm} usb:1-1 transport_id:4\n(no serial number)     device usb:2-1 product:x model:Y device:z transport_id:5\n`
    expect(parseDevicesLong(text)).to.deep.equal([
      {serial: '0123456789ABCDEF', state: noPerm, transportId: '4'},
      {serial: '(no serial number)', state: 'device', model: 'Y', product: 'x', transportId: '5'},
    ])
  })

  it('a state it does not know: first word serial, second state', () => {
    expect(parseDevicesLong('abc                    fastbootd transport_id:2\n')).to.deep.equal([
      {serial: 'abc', state: 'fastbootd', transportId: '2'},
    ])
  })
})
