// The floor `npm run bench -- annotate-floor` holds `arc annotate` against: a Node.js process that does only what an
// annotation cannot skip: load the canvas library, decode the PNG, scale it to a 700 px long side, encode JPEG q80
// and write the file. Plain JavaScript, no arc code. Usage: node floor-annotate.mjs IN.png OUT.jpg
import {readFileSync, writeFileSync} from 'node:fs'

import {createCanvas, loadImage} from '@napi-rs/canvas'

const [input, output] = process.argv.slice(2)
const image = await loadImage(readFileSync(input))
const scale = Math.min(1, 700 / Math.max(image.width, image.height))
const width = Math.round(image.width * scale)
const height = Math.round(image.height * scale)
const canvas = createCanvas(width, height)
const ctx = canvas.getContext('2d')
ctx.imageSmoothingEnabled = true
ctx.imageSmoothingQuality = 'high'
ctx.drawImage(image, 0, 0, width, height)
writeFileSync(output, await canvas.encode('jpeg', 80))
