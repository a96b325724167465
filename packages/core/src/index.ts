// The public surface of @arc-cli/core, shared by arc's oclif core and its plugins.
/**
 * zod, for every package's schemas. The built core is one bundle with zod inside (scripts/bundle-core.js), so the
 * core, the commands and the plugins must share this one copy: a schema made by another copy of zod would not be
 * one core's zod could read.
 */
export {z} from 'zod'
/** oclif's Command, Flags and Args, for every package's commands: see oclif.ts (one copy, inside the bundle). */
export {Args, Command, Flags} from './oclif.js'
export * from './errors/arc-error.js'
export * from './errors/exit-codes.js'
export {serveDespiteOutputErrors} from './errors/output-failure.js'
export {describeZodIssues} from './errors/describe-zod-issues.js'
export {checkArgumentText, environmentText, isUtf8} from './cli/argv-text.js'
export {errorJson, formatError, type ErrorStyle, type FormatOptions} from './errors/format-error.js'
export * from './driver/device-driver.js'
export {keyboardVerdict, keyboardWindowShown, type KeyboardVerdict} from './driver/keyboard-state.js'
export * from './driver/snapshot-format.js'
export {importNativeModule} from './native-module.js'
export {isProcessAlive} from './process-alive.js'
export {claimSocket, type SocketClaim} from './socket-claim.js'
export {claimNamed} from './record/record-claim.js'
export {offThreadWork, setOffThreadWork} from './off-thread-work.js'
export {sleep} from './sleep.js'
export {KEYCODES, MAX_KEYCODE, resolveKey, type ResolvedKey} from './driver/keycodes.js'
export {fullPermissionName, PACKAGE_NAME, PERMISSION_NAME} from './driver/android-names.js'
export {fileRecord, MAX_SNAPSHOT_PNG_BYTES, MAX_SNAPSHOT_XML_BYTES} from './driver/snapshot-integrity.js'
export {
  checkJpeg,
  checkPng,
  checkPngPixels,
  isPng,
  jpegSize,
  PNG_LIMITS,
  PNG_SIGNATURE,
  BLACK_LEVEL,
  pngLooksBlack,
  pngSize,
  pngSizeProblem,
} from './png.js'
export {
  NOT_RECORDED,
  openSnapshot,
  READ_ONLY_ACTIONS,
  SnapshotDriver,
  snapshotBackend,
} from './driver/snapshot-driver.js'
export {composeDriver, refusalFor, toolDriver, type Backend, type Refusal} from './driver/compose.js'
export {
  HELPER_DEX,
  HELPER_MODES,
  helperBuild,
  helperDevicePath,
  helperHoldMs,
  helperMode,
  type HelperBuild,
  type HelperMode,
} from './driver/device-helper.js'
export {findAdbDevice, listAdbDevices, type AdbConnectOptions} from './driver/adb/lazy.js'
export {deviceStringProblem, shq, shellCommand} from './driver/adb/shell-quote.js'
export {describeChars, untypable} from './driver/typable.js'
export {
  adbOptions,
  DEMO_DIR,
  isSnapshotPath,
  partialBackend,
  resolveDriver,
  selectedDevice,
  serialSetBy,
  unreachableSerial,
  type DeviceSelection,
} from './driver/resolve-device.js'
export {DEFAULT_ADB_TIMEOUT_MS, resolveServerAddress, type ServerAddress} from './driver/adb/server-address.js'
export {unavailableState} from './driver/adb/map-adb-error.js'
export {forgetScreenGeometry} from './driver/adb/screen-geometry.js'
export * from './screen/ui-node.js'
export {parseUiDump, sliceDump, walkNodes} from './screen/parse-ui-dump.js'
export {parseXml, XML_LIMITS, type XmlElement} from './screen/xml.js'
export * from './screen/node-rules.js'
export {
  assignElementIds,
  bareElementId,
  elementKey,
  ELEMENT_ID_PATTERN,
  fullElementId,
  hashKey,
  ID_ALPHABET,
  isAmbiguousId,
} from './screen/element-ids.js'
export * from './screen/screen-model.js'
export {screenElementJson, type ElementJson} from './screen/element-json.js'
export {areaOf, intersect, visibleRect, type Rect} from './screen/visible-rect.js'
export {
  coveringRects,
  coversOver,
  coversOverRect,
  windowCover,
  windowRects,
  windowsOverFocus,
  freeArea,
  reachableRect,
  touchCentre,
  windowManagerRects,
  type Cover,
  type CoverPurpose,
} from './screen/covered-area.js'
export {accessibilityType, dumpWindowType, matchWindows} from './screen/window-metadata.js'
export * from './tools/define-tool.js'
export {
  abortable,
  blackScreenshotWarning,
  cancellation,
  inputSchema,
  displayOffWarning,
  runTool,
  type CallWatcher,
  type RunDeps,
  type ToolCall,
  type ToolObserver,
} from './tools/run-tool.js'
export {elementWaitInput, POLL_MS, untilElementFound} from './tools/element-wait.js'
export {BY, elementIdString, elementMatches, elementTable, findMatching, type By} from './tools/element-match.js'
export {
  actedElement,
  actionSelectorInput,
  elementIdOmittable,
  fieldActionInput,
  fieldSelectorInput,
  foundBy,
  readSelector,
  resolveTarget,
  selectorData,
  selectorInput,
  targetId,
  type SearchedSelector,
  type SelectorSearch,
  type Target,
  type TargetInput,
  type TargetOptions,
  type TextKind,
} from './tools/element-target.js'
export {durationField, MAX_DURATION_MS, parseDuration} from './duration.js'
export {formatBytes, formatTable, printable, printableLine} from './tools/human-text.js'
export {displayWidth, padToWidth, truncateToWidth} from './tools/display-width.js'
export {
  arcCacheDir,
  arcCacheSource,
  deviceFolderName,
  FileDeviceState,
  MemoryDeviceState,
  serialFolderName,
  type DeviceState,
  type OtherDeviceStores,
} from './state/device-state.js'
export {configSchema, type ArcConfig} from './config/config-schema.js'
export * from './config/files-config.js'
export {checkConfigSections} from './config/check-sections.js'
export {CONFIG_PLACES, loadConfig, readConfigSection, type LoadedConfig} from './config/load-config.js'
export {withConfigExamplePath} from './config/config-example.js'
export {ArcCommand, deviceFlags, parseErrorMessage} from './cli/arc-command.js'
export {
  cliConfig,
  hostInterrupts,
  HostInterrupts,
  observeCliTools,
  residentCliHost,
  flowStepsHost,
  runToolFromCli,
  toolCommand,
  toolCommands,
} from './cli/tool-command.js'
export {
  FlowRecorder,
  flowWord,
  refuseOverwriteWithoutRecord,
  stepFor,
  type FlowRecorderOptions,
  type RecordedStep,
} from './record/flow-recorder.js'
export {COMMAND_DEADLINE_FACTOR, runWithDeadline} from './cli/deadline.js'
export {distance, nearest, squashName} from './cli/near-names.js'
export {
  keptMode,
  makeFolders,
  makeOutputFolders,
  outputError,
  outputKind,
  outputReason,
  removeStaleSideFiles,
  sideFile,
  writeIntoStream,
  type OutputKind,
  type OutputTarget,
} from './output-files.js'
export {transferAllowanceMs} from './driver/capabilities/files.js'
export {NAME_MAX_BYTES, sideStem} from './side-name.js'
export {describeInputIssues, flagName, inputJsonSchema, schemaFields, type SchemaField} from './cli/schema-fields.js'
export {onCi} from './ci.js'
export {checkHostPath, confineHostPaths, hostPathFolders} from './host-paths.js'
export {Spinner, cliErrorText, colorsFor, terminalOnlyWrites, writeToTerminal} from './cli/terminal.js'
export {
  checkElementId,
  checkMainDisplay,
  ELEMENT_RECORDS_KEY,
  readRecords,
  recordMismatch,
  recordOf,
  rememberElements,
  rememberScreen,
  resolveElement,
  type ElementRecord,
  type RecordStores,
  type ResolvedElement,
} from './state/element-records.js'
