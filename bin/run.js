#!/usr/bin/env node
// oclif from the core's bundle, the copy every arc command extends (packages/core/src/oclif.ts).
import {execute} from '@arc-cli/core/oclif'

await execute({dir: import.meta.url})
