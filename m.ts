import {SnapshotDriver, buildScreenModel} from '@arc-cli/core'
import {formatCompact} from './plugins/screen-state/src/format-compact.js'
import {createRequire} from 'node:module'
const require = createRequire(import.meta.url)
const {AndroidRobot} = require('@mobilenext/mobile-mcp/lib/android.js')
const {formatElements} = require('@mobilenext/mobile-mcp/lib/format-elements.js')
const xml = require('fast-xml-parser')
const cap = await (await SnapshotDriver.open('../shared/fixtures/real/' + process.argv[2])).captureScreen()
console.log(formatCompact(buildScreenModel(cap)))
const parsed = new xml.XMLParser({ignoreAttributes: false, attributeNamePrefix: ''}).parse(cap.xml)
console.log(formatElements(AndroidRobot.prototype.collectElements.call(Object.create(AndroidRobot.prototype), parsed.hierarchy), 'text'))
