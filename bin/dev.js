#!/usr/bin/env -S node --conditions=arc-source
import {execute} from '@oclif/core'

await execute({development: true, dir: import.meta.url})
