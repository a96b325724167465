/**
 * Stale-id safety: what each element id stood for when arc last showed it, and the check an element action runs
 * before it touches anything. get_screen_state and find_elements call `rememberElements`; element actions call
 * `resolveElement`, which reads the screen again and fails with STALE_ELEMENT rather than act on an element other
 * than the one the id named (docs/screen-state.md, "Stale ids").
 */
import {createHash} from 'node:crypto'

import {ElementNotFoundError, InvalidInputError, StaleElementError, UnsupportedError} from '../errors/arc-error.js'
import type {DeviceDriver} from '../driver/device-driver.js'
import {ELEMENT_ID_PATTERN, fullElementId, isAmbiguousId} from '../screen/element-ids.js'
import {isEditable} from '../screen/node-rules.js'
import {buildScreenModel, type ScreenElement, type ScreenModel} from '../screen/screen-model.js'
import type {DeviceState, OtherDeviceStores} from './device-state.js'

/** What an id named when it was last shown. */
export interface ElementRecord {
  /** Full class name. */
  cls: string
  res: string
  /** Text at the read; for an edit field, what it held (not compared: typing changes it). */
  text: string
  desc: string
  /** Window package. */
  pkg: string
  /** Foreground activity of the element's window, when known. */
  activity?: string
  editable: boolean
  /**
   * A password field (its text hidden) at the read. An edit field keeps its id whatever it holds, and its text is not
   * compared, so only this tells a field that hides what is typed from one that now shows it (a login step that put
   * another field in its place, "show password" turned on by another client): a secret typed for the one must not
   * go in clear into the other.
   */
  password?: true
  /**
   * A checkable node's state at the read (a checkbox, switch, radio button; absent for others): a toggle's id and
   * words stay when it flips, and a tap on it does the opposite of what the caller decided on what it was shown.
   */
  checked?: boolean
  /** A look-alike's group fingerprint at the read (ScreenElement.group): its ordinal id acts only while it holds. */
  group?: string
  /**
   * A hash of the whole labels of the list items it was in (ScreenElement.context), when it was in one: its id keeps
   * only their first 38 characters, so the delete button of "Your order of Echo Dot (4th generation) has shipped"
   * has the id of the one of "…has been delivered"; this tells them apart.
   */
  ctx?: string
  /**
   * What the list items it was in showed beyond their label (ScreenElement.rowWords), each place and its words
   * hashed (8 hex digits each), when it was in one: two mails from one sender share the label, and one in the
   * other's place (a list scrolled by a row, a recycled row showing another mail) named the same ids.
   */
  row?: Record<string, string>
}

interface Records {
  /** When the screen was read (epoch ms). */
  at: number
  ids: Record<string, ElementRecord>
}

export const ELEMENT_RECORDS_KEY = 'element-ids'

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function isRecord(value: unknown): value is ElementRecord {
  return (
    isObject(value) &&
    typeof value.cls === 'string' &&
    typeof value.res === 'string' &&
    typeof value.text === 'string' &&
    typeof value.desc === 'string' &&
    typeof value.pkg === 'string' &&
    typeof value.editable === 'boolean' &&
    (value.password === undefined || value.password === true) &&
    (value.checked === undefined || typeof value.checked === 'boolean') &&
    (value.activity === undefined || typeof value.activity === 'string') &&
    (value.group === undefined || typeof value.group === 'string') &&
    (value.ctx === undefined || typeof value.ctx === 'string') &&
    (value.row === undefined || (isObject(value.row) && Object.values(value.row).every((h) => typeof h === 'string')))
  )
}

/** The remembered records in their one shape; anything else (ids null, a record of another shape) is no record. */
function isRecords(value: unknown): value is Records {
  return (
    isObject(value) && typeof value.at === 'number' && isObject(value.ids) && Object.values(value.ids).every(isRecord)
  )
}

/**
 * Where element records live: the device's store (`state`), and the caller's own (`callerState`: one MCP session,
 * one ARC_CALLER) when it has one. A caller is checked against what it was shown itself, so another caller's read
 * of the same id, showing another element, never makes this caller's id act on that one; an id the caller never
 * read itself (passed on by another caller, typed by hand) is checked against the device's record.
 */
export interface RecordStores {
  state: DeviceState
  callerState?: DeviceState
  /**
   * The caller's own stores of its other devices: an id it was shown only there is refused (`shownElsewhere`). A
   * function is called only when the id is not in this device's store (the CLI lists the cache folder then).
   */
  callerElsewhere?: OtherDeviceStores
}

/** The stores to read and write, the caller's own first; one when the caller has none of its own. */
function storesOf(stores: DeviceState | RecordStores): DeviceState[] {
  if (!('state' in stores)) return [stores]
  const {state, callerState} = stores
  return callerState && callerState !== state ? [callerState, state] : [state]
}

/** Own keys only: an id is never looked up through the prototype (`__proto__` is not an id, but a file may say so). */
function idsOf(records: Records | undefined): Record<string, ElementRecord> | undefined {
  return records ? Object.assign(Object.create(null) as Record<string, ElementRecord>, records.ids) : undefined
}

async function readStore(state: DeviceState): Promise<Record<string, ElementRecord> | undefined> {
  return idsOf(await state.get(ELEMENT_RECORDS_KEY, isRecords))
}

/**
 * The ids remembered for this device, checked: a damaged or foreign cache entry reads as nothing remembered, so
 * the next full read rebuilds it (an id then gets the on-screen check only, never a crash). With a caller's own
 * store, what the caller was shown wins over the device's record of the same id.
 */
export async function readRecords(
  stores: DeviceState | RecordStores
): Promise<Record<string, ElementRecord> | undefined> {
  const [own, device] = await Promise.all(storesOf(stores).map(readStore))
  if (!device) return own
  return own ? Object.assign(device, own) : device
}
/**
 * True when the caller was shown `id` on another device and never on this one: the id names an element of that
 * other device (ids are content hashes, so a phone beside it running the same app may show an element with the same
 * id in another state, or another element altogether), so it must not act here. An MCP session knows the devices it
 * read; the CLI, the other devices in its cache folder (the caller's own stores there under ARC_CALLER). An id
 * shown on no device (typed from a flow, or the cache cleared) is not refused.
 */
async function shownElsewhere(stores: DeviceState | RecordStores, id: string): Promise<boolean> {
  if (!('state' in stores) || stores.callerElsewhere === undefined) return false
  const {state, callerState} = stores
  if ((await readStore(callerState ?? state))?.[id]) return false
  const listed = stores.callerElsewhere
  const elsewhere = typeof listed === 'function' ? await listed() : listed
  if (elsewhere.length === 0) return false
  const others = await Promise.all(elsewhere.map(readStore))
  return others.some((records) => records?.[id] !== undefined)
}

/**
 * The most ids kept per store: the newest shown (by any read, find or wait) are kept, the oldest dropped first. About
 * ten screens of distinct ids: enough for an id that left the screen for a few reads (a page loading) to keep its
 * record, and the store is read and written whole by every read and element action, so its size is a cost each of
 * them pays (JSON of 4,000 records is about 800 KB and 11 ms to parse, update and write back; of 1,000, 200 KB and
 * under 4 ms). The rows' words (`row`, a hash per word) add a third: the 2,546 records of the 37 real screens in
 * ../shared/fixtures/real average 216 bytes with them, 158 without.
 */
const MAX_RECORDS = 1000

/**
 * A short hash for a record: 8 hex digits, enough to tell words apart in one place of one list item. Every element of
 * a row carries the whole row's words, so one read hashes each word once per element: the hashes are kept (up to
 * SHORT_HASHES strings, then started afresh), and a read of a long feed makes a few hundred hashes, not thousands.
 */
function shortHash(value: string): string {
  let hash = shortHashes.get(value)
  if (hash === undefined) {
    if (shortHashes.size >= SHORT_HASHES) shortHashes.clear()
    hash = createHash('sha256').update(value).digest('hex').slice(0, 8)
    shortHashes.set(value, hash)
  }
  return hash
}
const SHORT_HASHES = 20_000
const shortHashes = new Map<string, string>()

function rowOf(words: ReadonlyMap<string, string>): Record<string, string> {
  const row = Object.create(null) as Record<string, string>
  // Each word of a place hashed on its own (joined by '.'), so that a place read with fewer words can be aligned.
  for (const [where, list] of words) row[shortHash(where)] = list.split('\u0000').map(shortHash).join('.')
  return row
}

export function recordOf(element: ScreenElement): ElementRecord {
  const node = element.node
  return {
    cls: node.className,
    res: node.resourceId,
    text: node.password ? '' : node.text,
    desc: node.contentDesc,
    pkg: element.window.pkg,
    ...(element.window.activity ? {activity: element.window.activity} : {}),
    editable: isEditable(node),
    ...(node.password ? {password: true as const} : {}),
    ...(node.checkable ? {checked: node.checked} : {}),
    ...(element.group === undefined ? {} : {group: element.group}),
    ...(element.context === undefined
      ? {}
      : {ctx: createHash('sha256').update(element.context).digest('hex').slice(0, 16)}),
    ...(element.rowWords === undefined ? {} : {row: rowOf(element.rowWords)}),
  }
}

/**
 * Whether a place of a list item shows other words now than then (each a '.'-joined list of word hashes). Where one
 * read holds fewer words there (a row clipped at the list's edge, a line not drawn yet), they must be the start or
 * the end of the other's: a row reused for another item with one more or one fewer line there is another row.
 */
function placeChanged(then: string, now: string): boolean {
  const a = then.split('.')
  const b = now.split('.')
  if (a.length === b.length) return a.some((word, i) => word !== b[i])
  const [short, long] = a.length < b.length ? [a, b] : [b, a]
  const start = short.every((word, i) => word === long[i])
  const end = short.every((word, i) => word === long[long.length - short.length + i])
  return !start && !end
}

/** The places of a list item that show other words now than then; a place in only one of the two reads is not compared. */
function changedPlaces(then: Record<string, string> | undefined, now: Record<string, string> | undefined): number {
  if (!then || !now) return 0
  let changed = 0
  for (const [where, words] of Object.entries(then))
    if (Object.hasOwn(now, where) && placeChanged(words, now[where] as string)) changed++
  return changed
}

/**
 * Remembers what the given elements' ids name now, in the caller's store and the device's. Every read adds to what
 * earlier reads showed and never forgets an id because this read does not show it: an id shown as "Follow",
 * then absent from a read (a page loading), must not act on the "Following" that comes back under it
 * (an anchored element keeps its id when its text changes). Only a read that shows the id again replaces its record.
 * Each store is updated in one step (DeviceState.update): two reads remembered at once (two MCP calls, two
 * processes) both land, so neither side's ids are left with the on-screen check only.
 */
export async function rememberElements(stores: DeviceState | RecordStores, elements: ScreenElement[]): Promise<void> {
  const shown = elements.map((element) => [element.id, recordOf(element)] as const)
  await Promise.all(
    storesOf(stores).map((state) =>
      state.update(ELEMENT_RECORDS_KEY, isRecords, (records) => {
        const ids = idsOf(records) ?? (Object.create(null) as Record<string, ElementRecord>)
        for (const [id, record] of shown) {
          // Re-added at the end: insertion order is the order ids were last shown, oldest first.
          delete ids[id]
          ids[id] = record
        }
        const keys = Object.keys(ids)
        for (const key of keys.slice(0, Math.max(0, keys.length - MAX_RECORDS))) delete ids[key]
        return {at: Date.now(), ids} satisfies Records
      })
    )
  )
}

/** The one call get_screen_state makes: remember every id it shows. */
export function rememberScreen(stores: DeviceState | RecordStores, model: ScreenModel): Promise<void> {
  return rememberElements(stores, model.elements)
}

function describe(r: ElementRecord): string {
  const cls = r.cls.slice(r.cls.lastIndexOf('.') + 1) || 'element'
  const label =
    r.text && !r.editable
      ? ` "${r.text.slice(0, 40)}"`
      : r.desc
        ? ` [${r.desc.slice(0, 40)}]`
        : r.res
          ? ` ${r.res}`
          : ''
  return `${cls}${label} in ${r.pkg || 'an unnamed window'}${r.activity ? ` (${r.activity})` : ''}`
}

const stateOf = (checked: boolean | undefined): string =>
  checked === undefined ? 'not checkable' : checked ? 'checked' : 'unchecked'

/** The differences between what an id named and what it names now; empty when it is the same element. */
export function recordMismatch(then: ElementRecord, now: ElementRecord): string[] {
  const diffs: string[] = []
  if (then.cls !== now.cls) diffs.push(`class ${then.cls} → ${now.cls}`)
  if (then.res !== now.res) diffs.push(`resource-id ${then.res || '-'} → ${now.res || '-'}`)
  if (then.desc !== now.desc) diffs.push(`content-desc ${JSON.stringify(then.desc)} → ${JSON.stringify(now.desc)}`)
  if (!then.editable && then.text !== now.text)
    diffs.push(`text ${JSON.stringify(then.text)} → ${JSON.stringify(now.text)}`)
  if (then.password !== now.password)
    diffs.push(then.password ? 'a password field → a field that shows its text' : 'a field → a password field')
  // A record from before checked states were kept has none: it is not refused for that alone.
  if (then.checked !== undefined && then.checked !== now.checked)
    diffs.push(`${stateOf(then.checked)} → ${stateOf(now.checked)}`)
  if (then.pkg !== now.pkg) diffs.push(`window ${then.pkg} → ${now.pkg}`)
  if (then.activity && now.activity && then.activity !== now.activity)
    diffs.push(`activity ${then.activity} → ${now.activity}`)
  // A record from before contexts were kept has none: it is not refused for that alone.
  if (then.ctx !== undefined && then.ctx !== now.ctx)
    diffs.push('the list item it is in: another one, whose label differs past the part the id keeps')
  else if (changedPlaces(then.row, now.row) > 0)
    diffs.push(
      'the list item it is in shows other words than when it was read: another item in its place (a list scrolled or a row reused for other content), or its content changed'
    )
  return diffs
}

const READ_AGAIN = ['Read the screen again (arc screen-state, or get_screen_state) and use the id it shows now.']

/**
 * Checks the shape of an element id, so a typo fails as INVALID_INPUT before the device is touched, and returns
 * it in full: `a3f2kq` (as `detail: compact` prints it) is `node_a3f2kq`.
 */
export function checkElementId(id: string, input = 'element_id'): string {
  const full = fullElementId(id)
  if (!ELEMENT_ID_PATTERN.test(full)) {
    throw new InvalidInputError(
      `${input} ${JSON.stringify(id)} is not an element id: ids are node_ and 6 characters (node_a3f2kq, or a3f2kq as compact screen-state prints them)`,
      {
        details: {input, value: id},
      }
    )
  }
  return full
}

export interface ResolvedElement {
  model: ScreenModel
  element: ScreenElement
}

/**
 * Reads the screen now and finds the element `id` names, refusing (never guessing) when:
 * - the id is malformed (INVALID_INPUT) or marks one of several look-alikes (INVALID_INPUT: tap its bounds);
 * - it is not on the screen: STALE_ELEMENT when arc showed it before (the screen changed), else ELEMENT_NOT_FOUND;
 * - it resolves to an element that differs from what it named when this caller was last shown it (STALE_ELEMENT).
 */
export async function resolveElement(
  driver: DeviceDriver,
  state: DeviceState | RecordStores,
  given: string,
  input = 'element_id'
): Promise<ResolvedElement> {
  const id = checkElementId(given, input)
  if (await shownElsewhere(state, id)) {
    throw new StaleElementError(
      `element ${id} was shown for another device, never for ${driver.serial}: an id names an element of the device it was read on`,
      {
        actions: [
          `Read the screen of ${driver.serial} (arc screen-state -d ${driver.serial}, or get_screen_state with its device) and use the id it shows.`,
        ],
        details: {element_id: id, reason: 'OTHER_DEVICE'},
      }
    )
  }
  const [model, records] = await Promise.all([
    driver.captureScreen().then((c) => buildScreenModel(c)),
    readRecords(state),
  ])
  const element = model.byId.get(id)
  const then = records?.[id]
  if (isAmbiguousId(id)) checkLookAlike(id, then, element)
  if (!element) {
    if (then) {
      throw new StaleElementError(
        `element ${id} is stale: the screen changed since it was read and ${describe(then)} is no longer on it`,
        {
          actions: READ_AGAIN,
          details: {element_id: id, was: then, reason: 'NOT_ON_SCREEN'},
        }
      )
    }
    throw new ElementNotFoundError(`element ${id} is not on the current screen`, {
      actions: READ_AGAIN,
      details: {element_id: id},
    })
  }
  if (then) {
    const now = recordOf(element)
    const diffs = recordMismatch(then, now)
    if (diffs.length > 0) {
      throw new StaleElementError(
        `element ${id} is stale: it named ${describe(then)} when the screen was read, and now names ${describe(now)} (${diffs.join('; ')})`,
        {
          actions: READ_AGAIN,
          details: {element_id: id, was: then, now, reason: 'CHANGED'},
        }
      )
    }
  }
  checkMainDisplay(element)
  return {model, element}
}

/**
 * A look-alike's ordinal id (`node_<hash>-<n>`) counts it among elements that differ only by their place: it names
 * the same element only while its whole group is as it was when arc showed the id (the same members, in the same
 * places). Anything else is STALE_ELEMENT, never a guess: a group that gained, lost or moved a member, or an id arc
 * never showed (nothing to compare with).
 */
function checkLookAlike(id: string, then: ElementRecord | undefined, now: ScreenElement | undefined): void {
  if (then?.group === undefined) {
    throw new StaleElementError(
      `element ${id} is one of several look-alikes, counted by their place on the screen, and arc has no record of the group it was counted in`,
      {
        actions: READ_AGAIN,
        details: {element_id: id, reason: 'LOOK_ALIKE_UNKNOWN'},
      }
    )
  }
  if (now?.group !== then.group) {
    throw new StaleElementError(
      `element ${id} is stale: it is one of several look-alike ${describe(then)} elements counted by their place, and that group changed since it was read (one arrived, left or moved), so the count may name another one now`,
      {
        actions: READ_AGAIN,
        details: {element_id: id, was: then, reason: 'LOOK_ALIKE_GROUP_CHANGED'},
      }
    )
  }
}

/** Refuses an element of another display than the main one (0): arc's taps, gestures and typing reach display 0 only. */
export function checkMainDisplay(element: ScreenElement): void {
  if (element.window.display === 0) return
  throw new UnsupportedError(
    `element ${element.id} is on display ${element.window.display}; arc's taps, gestures and typing reach the main display (0) only`,
    {
      actions: ['Act on elements of the main display, or drive the other display with arc shell (input -d DISPLAY …).'],
      details: {element_id: element.id, display: element.window.display},
    }
  )
}
