/** The Claude Desktop config `arc mcp serve` prints: this same server over stdio, startable from anywhere. */
import path from 'node:path'

import {stdioCommand} from '@arc-cli/plugin-mcp'
import {expect} from 'chai'

import {ROOT} from './support.js'

describe('arc mcp serve: the stdio command printed for Claude Desktop', () => {
  const run = {execPath: '/usr/bin/node', execArgv: [], script: '/opt/arc/bin/run.js', cwd: ROOT, env: {}}

  it('keeps the selection flags, drops the HTTP ones, and makes a relative snapshot folder absolute', () => {
    const snapshot = path.relative(ROOT, path.join(ROOT, 'packages', 'core', 'demo'))
    const command = stdioCommand(
      {
        device: ['pixel=R58M12', `review=${snapshot}`, 'no-such-folder'],
        tools: ['group:screen'],
        'read-only': true,
        'apk-folder': 'apks',
        'max-body': 2048,
        'adb-port': 5038,
      },
      run
    )
    expect(command).to.deep.equal({
      command: '/usr/bin/node',
      args: [
        '/opt/arc/bin/run.js',
        'mcp',
        'serve',
        '--stdio',
        '--device',
        'pixel=R58M12',
        '--device',
        `review=${path.join(ROOT, 'packages', 'core', 'demo')}`,
        '--device',
        'no-such-folder',
        '--tools',
        'group:screen',
        '--read-only',
        '--apk-folder',
        path.join(ROOT, 'apks'),
        '--max-body',
        '2048',
        '--adb-port',
        '5038',
      ],
    })
  })

  it('carries the adb server and the device chosen through the environment', () => {
    const command = stdioCommand(
      {},
      {...run, env: {ADB_SERVER_SOCKET: 'tcp:farm:5037', ANDROID_SERIAL: 'emu-1', HOME: '/root'}}
    )
    expect(command.env).to.deep.equal({ADB_SERVER_SOCKET: 'tcp:farm:5037', ANDROID_SERIAL: 'emu-1'})
  })

  it('carries the config file and helper mode chosen through the environment, the file made absolute', () => {
    const env = {ARC_CONFIG: 'ci.arcrc.json', ARC_HELPER: 'off', ARC_HELPER_HOLD_MS: '500', HOME: '/root'}
    expect(stdioCommand({}, {...run, env}).env).to.deep.equal({
      ARC_CONFIG: path.join(ROOT, 'ci.arcrc.json'),
      ARC_HELPER: 'off',
      ARC_HELPER_HOLD_MS: '500',
    })
  })

  it('carries the adb server named by its host and port variables, as the server itself reads them', () => {
    const env = {ANDROID_ADB_SERVER_ADDRESS: 'host.docker.internal', ANDROID_ADB_SERVER_PORT: '5039', HOME: '/root'}
    expect(stdioCommand({}, {...run, env}).env).to.deep.equal({
      ANDROID_ADB_SERVER_ADDRESS: 'host.docker.internal',
      ANDROID_ADB_SERVER_PORT: '5039',
    })
  })
})
