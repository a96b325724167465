import {defineTool, z} from '@arc-cli/core'

export const openNotifications = defineTool({
  name: 'open_notifications',
  title: 'Pull down the notification shade',
  description:
    'Pulls down the notification shade (`cmd statusbar expand-notifications`; a swipe from the top on old devices).',
  kind: 'action',
  needs: {system: 'act'},
  group: 'system',
  input: z.object({}),
  cli: {id: 'notifications', examples: ['<%= config.bin %> <%= command.id %>']},
  async handler({driver}) {
    await driver.openNotifications()
    return {text: 'Open notifications executed successfully', data: {panel: 'notifications'}}
  },
})

export const openQuickSettings = defineTool({
  name: 'open_quick_settings',
  title: 'Open the quick settings panel',
  description:
    'Opens the quick settings panel (`cmd statusbar expand-settings`; two swipes from the top on old devices).',
  kind: 'action',
  needs: {system: 'act'},
  group: 'system',
  input: z.object({}),
  cli: {id: 'quick-settings', examples: ['<%= config.bin %> <%= command.id %>']},
  async handler({driver}) {
    await driver.openQuickSettings()
    return {text: 'Open quick settings executed successfully', data: {panel: 'quick_settings'}}
  },
})
