import {defineTool, formatTable, type AppInfo, z} from '@arc-cli/core'

import {androidUser, launchInput, launchOptions} from './launch-input.js'

/** What a package id may be (letters, digits, _ and dots, starting with a letter): nothing a shell or pidof reads as an option. */
export const PACKAGE_ID_PATTERN = /^[A-Za-z][\w.]*$/

export const packageId = (what: string) =>
  z
    .string()
    .trim()
    .min(1)
    .regex(PACKAGE_ID_PATTERN, 'expected a package id like com.example.app')
    .describe(`The package ID of the app to ${what} (e.g. com.example.app)`)

export const openApp = defineTool({
  name: 'open_app',
  title: 'Launch an app',
  description:
    'Launches an installed app by package id through its launcher activity. Use list_apps to find package ids. The CLI can start another activity of the app (--activity, as `am start -n PKG/ACTIVITY`) and give the intent an action, data and extras; only activities the app exports can be started from adb.',
  kind: 'action',
  needs: {apps: 'act'},
  group: 'apps',
  input: z.object({package_id: packageId('launch')}),
  cli: {
    id: 'app open',
    input: launchInput,
    positional: ['package_id'],
    examples: [
      '<%= config.bin %> <%= command.id %> com.android.settings',
      '<%= config.bin %> <%= command.id %> dev.arc.demo.groceries --activity .ListActivity',
      "<%= config.bin %> <%= command.id %> dev.arc.demo.groceries --activity dev.arc.demo.groceries/.ListActivity --extra 'title=Hello world' --extra-int id=42 --extra-bool debug=true",
    ],
  },
  async handler({driver}, input) {
    const {package_id} = input
    const launch = launchOptions(package_id, input)
    await driver.openApp(package_id, launch)
    if (launch.activity === undefined) return {text: `App opened successfully: ${package_id}`, data: {package_id}}
    return {
      text: `App opened successfully: ${package_id}/${launch.activity}`,
      data: {package_id, activity: launch.activity},
    }
  },
})

/** The CLI's table: package, version, type, and the label where the device gives one other than the package id. */
export function appTable(apps: AppInfo[]): string {
  if (apps.length === 0) return 'No apps match.'
  const named = apps.some((a) => a.name !== a.package_id)
  const version = (a: AppInfo) =>
    a.version_name !== null
      ? `${a.version_name}${a.version_code !== null ? ` (${a.version_code})` : ''}`
      : String(a.version_code ?? '')
  const rows = apps.map((a) => [a.package_id, version(a), a.is_system ? 'system' : 'user', ...(named ? [a.name] : [])])
  return formatTable(['PACKAGE', 'VERSION', 'TYPE', ...(named ? ['NAME'] : [])], rows)
}

export const listApps = defineTool({
  name: 'list_apps',
  title: 'List installed apps',
  description:
    'Lists installed apps as a JSON array [{package_id, name, version_name, version_code, is_system}]. Filters: type (all, user, system) and a case-insensitive substring of the name. The CLI prints a table (--json: {apps: [...]}). Over plain ADB the name is the package id.',
  kind: 'read',
  needs: {apps: 'read'},
  group: 'apps',
  input: z.object({
    filter: z.enum(['all', 'user', 'system']).default('all').describe('Filter by app type: all, user or system'),
    name_query: z.string().optional().describe('Filter by app name substring (case-insensitive)'),
  }),
  cli: {
    id: 'app list',
    // pm lists the system user's apps alone: a work profile's (often user 10) or a second user's need --user.
    input: z.object({
      user: androidUser(
        'List the apps of this Android user: 10 is often a work profile (pm list packages --user); default: 0'
      ),
    }),
    examples: [
      '<%= config.bin %> <%= command.id %> --filter user --name-query calc',
      '<%= config.bin %> <%= command.id %> --user 10',
    ],
  },
  async handler({driver}, {filter, name_query, user}) {
    const query = name_query?.toLowerCase()
    const apps = (await driver.listApps(filter, user)).filter(
      (app) => !query || app.name.toLowerCase().includes(query) || app.package_id.toLowerCase().includes(query)
    )
    return {text: JSON.stringify(apps), data: {apps}, cli: {human: appTable(apps)}}
  },
})

export const closeApp = defineTool({
  name: 'close_app',
  title: 'Stop an app',
  description:
    'Stops an app and its background work (`am force-stop`), in the foreground or not. System processes may restart by themselves.',
  kind: 'action',
  needs: {apps: 'act'},
  group: 'apps',
  input: z.object({package_id: packageId('close')}),
  cli: {
    id: 'app close',
    positional: ['package_id'],
    input: z.object({
      user: androidUser(
        "Stop only this Android user's copy: 10 is often a work profile (am force-stop --user); default: every user's"
      ),
    }),
    examples: [
      '<%= config.bin %> <%= command.id %> dev.arc.demo.groceries',
      '<%= config.bin %> <%= command.id %> com.example.work --user 10',
    ],
  },
  async handler({driver}, {package_id, user}) {
    await driver.closeApp(package_id, user)
    return {text: `App closed successfully: ${package_id}`, data: {package_id, ...(user === undefined ? {} : {user})}}
  },
})
