import {ArcCommand} from '@arc-cli/core'

/**
 * `arc version`, for users of CLIs where that is the word (`arc --version` and `arc -v` print the same line).
 * The JSON shape names each part, so a script need not split oclif's user-agent string.
 */
export default class Version extends ArcCommand {
  static override summary = 'Print the version of arc and of the Node.js running it'
  static override description =
    'The same line as `arc --version`: package/version platform-arch node-version. With --json, each part by name.'
  static override examples = ['<%= config.bin %> version', '<%= config.bin %> version --json']

  async run(): Promise<unknown> {
    await this.parse(Version)
    const data = {version: this.config.version, node: process.version, platform: process.platform, arch: process.arch}
    if (!this.jsonEnabled()) this.log(this.config.userAgent)
    return data
  }
}
