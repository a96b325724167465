/**
 * Whether arc runs in a CI job: the `CI` environment variable set to anything but empty, `false` or `0`. GitHub
 * Actions, GitLab CI, CircleCI, Travis CI, Bitbucket Pipelines and Buildkite set `CI=true` in every job; Jenkins and
 * Azure Pipelines do not, and a job there says so by setting it. `CI=false` (or `0`) says a job is not one, as Jest's
 * and ci-info's detection reads it.
 *
 * What changes on CI: no spinner (cli/terminal.ts), and `arc assert screenshot` fails on a missing baseline instead
 * of writing it (a baseline written in the job would pass every run having compared nothing).
 */
export function onCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.CI?.trim().toLowerCase()
  return value !== undefined && value !== '' && value !== 'false' && value !== '0'
}
