/**
 * The core's bundle is compiled through `vm.Script` (packages/core/src/loader/load-bundle.ts), and code compiled
 * that way cannot call `import()`: Node 20 throws ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING unless run with
 * --experimental-vm-modules. esbuild turns an `import('./literal.js')` of a bundled module into a lazy require of
 * the module inside the bundle; what remains are imports of a computed specifier (oclif importing a command's
 * module, cosmiconfig a JavaScript config) or of a package kept outside (cosmiconfig's `typescript`). This plugin renames those to `__arcImport(...)`, which the bundle's
 * banner takes from the loader (a real `import()` in an ES module), and `checkNoDynamicImport` proves none is left.
 * Parsed with acorn, so an `import(` in a string or a comment is left alone. The loader resolves a specifier from
 * its own folder, not from the module that asked: right for what these pass (absolute file URLs, package names), not
 * for a relative path, which no bundled module computes. Plain JavaScript, like bundle-core.js.
 */
import {readFile} from 'node:fs/promises'
import path from 'node:path'

import * as acorn from 'acorn'

const PARSE = {
  ecmaVersion: 'latest',
  allowHashBang: true,
  allowAwaitOutsideFunction: true,
  allowReturnOutsideFunction: true,
  allowImportExportEverywhere: true,
}

/** acorn's program for `code`, as an ES module if it parses as one, else as a script. */
function parse(code, file) {
  try {
    return acorn.parse(code, {...PARSE, sourceType: 'module'})
  } catch {
    try {
      return acorn.parse(code, {...PARSE, sourceType: 'script'})
    } catch (error) {
      throw new Error(`${file}: cannot parse to look for import(): ${error.message}`, {cause: error})
    }
  }
}

/** Every `import(...)` expression in the program. */
function importExpressions(program) {
  const found = []
  const visit = (node) => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child)
      return
    }
    if (node === null || typeof node !== 'object' || typeof node.type !== 'string') return
    if (node.type === 'ImportExpression') found.push(node)
    for (const key of Object.keys(node)) if (key !== 'type' && key !== 'start' && key !== 'end') visit(node[key])
  }
  visit(program)
  return found
}

const isLiteral = (node) =>
  node.type === 'Literal' || (node.type === 'TemplateLiteral' && node.expressions.length === 0)

/**
 * The esbuild plugin: `import(<computed>)`, and `import('<pkg>')` of a package left outside the bundle
 * (`external`), become `__arcImport(...)` in every JavaScript input.
 */
export function dynamicImportsViaLoader(external) {
  const outside = (node) =>
    isLiteral(node.source) &&
    external.includes(node.source.type === 'Literal' ? node.source.value : node.source.quasis[0].value.cooked)
  return {
    name: 'arc-dynamic-imports-via-loader',
    setup(build) {
      build.onLoad({filter: /\.(c|m)?js$/, namespace: 'file'}, async (args) => {
        const code = await readFile(args.path, 'utf8')
        if (!/\bimport\s*\(/.test(code)) return undefined
        const computed = importExpressions(parse(code, args.path)).filter(
          (node) => !isLiteral(node.source) || outside(node)
        )
        if (computed.length === 0) return undefined
        let out = ''
        let at = 0
        for (const node of computed.sort((a, b) => a.start - b.start)) {
          out += `${code.slice(at, node.start)}__arcImport`
          at = node.start + 'import'.length
        }
        return {contents: out + code.slice(at), loader: 'js', resolveDir: path.dirname(args.path)}
      })
    },
  }
}

/** Throws unless the bundle's only `import()` is the banner's fallback (the first `allowedBefore` characters). */
export function checkNoDynamicImport(code, file, allowedBefore) {
  const left = importExpressions(parse(code, file)).filter((node) => node.start >= allowedBefore)
  if (left.length > 0) {
    const where = left.map((node) => JSON.stringify(code.slice(node.start, node.start + 60))).join(', ')
    throw new Error(`${file} still calls import() (it would throw under vm.Script): ${where}`)
  }
}
