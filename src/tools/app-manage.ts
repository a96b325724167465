import path from 'node:path'

import {defineTool, fullPermissionName, PACKAGE_NAME, PERMISSION_NAME, z} from '@arc-cli/core'

import {apkFolderOf, apkInFolder} from './apk-folder.js'

import {androidUser, SENDABLE} from './launch-input.js'

const packageId = (what: string) =>
  z
    .string()
    .trim()
    .regex(PACKAGE_NAME, 'expected a package id like com.example.app (dot-separated letters, digits and _)')
    .describe(`The package ID of the app to ${what} (e.g. com.example.app)`)

const permission = z
  .string()
  .trim()
  .transform(fullPermissionName)
  .refine((p) => PERMISSION_NAME.test(p), 'expected a permission like android.permission.CAMERA (or CAMERA)')
  .describe(
    'Permission: its full name (android.permission.CAMERA) or, for android.permission.*, the short name (CAMERA)'
  )

export const installApp = defineTool({
  name: 'install_app',
  title: 'Install an app',
  description:
    'Installs an APK from the computer running arc: pushes it to /data/local/tmp, runs `pm install` and removes the copy. With apps.apkFolder set (over MCP, the --apk-folder of arc mcp serve) only an APK inside that folder, named relative to it. --replace reinstalls over an installed version keeping its data, --grant-all grants every runtime permission, --downgrade allows an older version, --allow-test allows test-only APKs.',
  kind: 'destructive',
  needs: {apps: 'act'},
  group: 'apps',
  input: z.object({
    apk: z
      .string()
      .trim()
      .min(1)
      .describe(
        'Path of the .apk file on this computer (relative to the APK folder where one is set, else the working folder)'
      ),
    replace: z
      .boolean()
      .default(false)
      .describe('Reinstall over an installed version, keeping its data (pm install -r)'),
    grant_all: z.boolean().default(false).describe('Grant every runtime permission the app declares (pm install -g)'),
    downgrade: z.boolean().default(false).describe('Allow installing a lower version code (pm install -d)'),
    allow_test: z.boolean().default(false).describe('Allow an APK built as test-only (pm install -t)'),
  }),
  cli: {
    id: 'app install',
    positional: ['apk'],
    char: {replace: 'r', grant_all: 'g'},
    examples: ['<%= config.bin %> <%= command.id %> app-debug.apk -r -g'],
  },
  async handler({driver, cwd, config, configFile}, input) {
    const folder = apkFolderOf(config, configFile, cwd)
    const apk = folder === undefined ? path.resolve(cwd, input.apk) : await apkInFolder(folder, input.apk)
    await driver.installApp(apk, {
      replace: input.replace,
      grantAll: input.grant_all,
      downgrade: input.downgrade,
      allowTest: input.allow_test,
    })
    return {
      text: `App installed successfully: ${apk}`,
      data: {
        apk,
        replace: input.replace,
        grant_all: input.grant_all,
        downgrade: input.downgrade,
        allow_test: input.allow_test,
      },
    }
  },
})

export const uninstallApp = defineTool({
  name: 'uninstall_app',
  title: 'Uninstall an app',
  description:
    'Removes an installed app (`pm uninstall`); --keep-data keeps its data and cache for a later reinstall (`-k`).',
  kind: 'destructive',
  needs: {apps: 'act'},
  group: 'apps',
  input: z.object({
    package_id: packageId('uninstall'),
    keep_data: z.boolean().default(false).describe('Keep the app data and cache (pm uninstall -k)'),
  }),
  cli: {
    id: 'app uninstall',
    positional: ['package_id'],
    input: z.object({
      user: androidUser(
        "Remove only this Android user's copy: 10 is often a work profile (pm uninstall --user); default: every user's"
      ),
    }),
    examples: [
      '<%= config.bin %> <%= command.id %> dev.arc.demo.groceries --keep-data',
      '<%= config.bin %> <%= command.id %> com.example.app --user 10',
    ],
  },
  async handler({driver}, {package_id, keep_data, user}) {
    await driver.uninstallApp(package_id, keep_data, user)
    return {
      text: `App uninstalled successfully: ${package_id}`,
      data: {package_id, keep_data, ...(user === undefined ? {} : {user})},
    }
  },
})

export const clearAppData = defineTool({
  name: 'clear_app_data',
  title: "Clear an app's data",
  description:
    "Deletes an app's data and cache and stops it (`pm clear`), as a fresh install would have it. Refuses apps that are not installed.",
  kind: 'destructive',
  needs: {apps: 'act'},
  group: 'apps',
  input: z.object({package_id: packageId('reset')}),
  cli: {
    id: 'app clear',
    positional: ['package_id'],
    input: z.object({
      user: androidUser(
        "Clear this Android user's copy: 10 is often a work profile (pm clear --user); default: 0, the owner's"
      ),
    }),
    examples: [
      '<%= config.bin %> <%= command.id %> dev.arc.demo.groceries',
      '<%= config.bin %> <%= command.id %> com.example.work --user 10',
    ],
  },
  async handler({driver}, {package_id, user}) {
    await driver.clearAppData(package_id, user)
    return {
      text: `App data cleared successfully: ${package_id}`,
      data: {package_id, ...(user === undefined ? {} : {user})},
    }
  },
})

export const openUrl = defineTool({
  name: 'open_url',
  title: 'Open a URL or deep link',
  description:
    'Opens a URL or deep link (https://…, myapp://path, tel:…) with the app that handles it: `am start -a android.intent.action.VIEW -d URL`. Fails when no app handles it.',
  kind: 'action',
  needs: {apps: 'act'},
  group: 'apps',
  input: z.object({
    url: z
      .string()
      .trim()
      .regex(
        /^[A-Za-z][A-Za-z0-9+.-]*:[^\s]+$/,
        'expected a URL with a scheme and no spaces, like https://example.com or myapp://path (write spaces as %20)'
      )
      .refine(...SENDABLE)
      .describe('The URL or deep link to open (e.g. https://example.com, myapp://item/42)'),
  }),
  cli: {
    id: 'app open-url',
    positional: ['url'],
    examples: ["<%= config.bin %> <%= command.id %> 'https://example.com/?q=arc'"],
  },
  async handler({driver}, {url}) {
    await driver.openUrl(url)
    return {text: `URL opened successfully: ${url}`, data: {url}}
  },
})

function permissionTool(granted: boolean) {
  const verb = granted ? 'grant' : 'revoke'
  return defineTool({
    name: `${verb}_permission`,
    title: granted ? 'Grant a permission' : 'Revoke a permission',
    description: `${granted ? 'Grants a runtime permission to' : 'Revokes a runtime permission from'} an app (\`pm ${verb}\`, Android 6+). Only runtime ("dangerous") permissions the app declares can be changed.${granted ? '' : ' Android stops the app when it held the permission, so what it had not saved is lost.'}`,
    kind: 'destructive',
    needs: {apps: 'act'},
    group: 'apps',
    input: z.object({package_id: packageId(granted ? 'grant it to' : 'revoke it from'), permission}),
    cli: {
      id: `app ${verb}`,
      positional: ['package_id', 'permission'],
      // Android keeps runtime permissions per user: a work profile's copy has its own.
      input: z.object({
        user: androidUser(
          `${granted ? 'Grant it to' : 'Revoke it from'} this Android user's copy: 10 is often a work profile (pm ${verb} --user); default: 0, the owner's`
        ),
      }),
      examples: [
        `<%= config.bin %> <%= command.id %> dev.arc.demo.groceries CAMERA`,
        `<%= config.bin %> <%= command.id %> dev.arc.demo.groceries android.permission.ACCESS_FINE_LOCATION`,
        `<%= config.bin %> <%= command.id %> com.example.work CAMERA --user 10`,
      ],
    },
    async handler({driver}, input) {
      const {user} = input
      await driver.setPermission(input.package_id, input.permission, granted, user)
      return {
        text: `Permission ${granted ? 'granted' : 'revoked'} successfully: ${input.permission} ${granted ? 'to' : 'from'} ${input.package_id}`,
        data: {
          package_id: input.package_id,
          permission: input.permission,
          granted,
          ...(user === undefined ? {} : {user}),
        },
      }
    },
  })
}

export const grantPermission = permissionTool(true)
export const revokePermission = permissionTool(false)
