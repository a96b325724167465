#!/usr/bin/env node
'use strict'
// One emulated Android program (uiautomator, input, ls…) as the device's /bin/sh runs it: forwards its exact argv
// to the emulator over a Unix socket and relays the answer to stdout/stderr and the exit status.
// Frames both ways: [type u8][length u32 BE][data]. To the emulator: 0x52 request (session, cwd, environment,
// argv..., each ended by NUL; the environment is `CLASSPATH=…` where the program was given one, else empty: the one
// variable a device program here reads, app_process's class path), 0 stdin, 5 stdin EOF. From it: 1 stdout, 2 stderr, 3 exit (1 byte), 4 "send me stdin".
// device-command.pl is the same program for hosts with perl, which starts in a fraction of the time.
const fs = require('node:fs')
const net = require('node:net')

const socketPath = process.env.ARC_EMU_SOCKET
const session = process.env.ARC_EMU_SESSION
const argv = process.argv.slice(2)
if (!socketPath || !session) {
  process.stderr.write(`${argv[0] || 'command'}: not running inside arc emulate\n`)
  process.exit(126)
}

const conn = net.createConnection(socketPath)
function send(type, data) {
  const head = Buffer.alloc(5)
  head[0] = type
  head.writeUInt32BE(data.length, 1)
  conn.write(Buffer.concat([head, data]))
}

let exited = false
function finish(code) {
  exited = true
  let pending = 2
  const done = () => {
    if (--pending === 0) process.exit(code)
  }
  // Stdout failing (its reader went away) ends the program with 141, as SIGPIPE would: the stream's 'error' event
  // can come after the exit frame, but this write reports the failure.
  process.stdout.write('', (error) => {
    if (error) code = 141
    done()
  })
  process.stderr.write('', done)
}

process.stdout.on('error', () => process.exit(141))
process.stderr.on('error', () => {})

/** The working folder, which may have been deleted: getcwd() then fails, but Linux still names it (as the perl helper reads it). */
function workingFolder() {
  try {
    return process.cwd()
  } catch {
    try {
      return fs.readlinkSync('/proc/self/cwd')
    } catch {
      return '/'
    }
  }
}

const environment = process.env.CLASSPATH === undefined ? '' : `CLASSPATH=${process.env.CLASSPATH}`
conn.on('connect', () =>
  send(0x52, Buffer.from([session, workingFolder(), environment, ...argv].map((part) => `${part}\0`).join(''), 'utf8'))
)
// The bytes received and not yet handled, kept as chunks and joined only once a whole frame is there: joining on
// every chunk copied a large frame (a 10 MB screencap) over and over.
let chunks = []
let received = 0
conn.on('data', (chunk) => {
  chunks.push(chunk)
  received += chunk.length
  while (received >= 5) {
    if (chunks[0].length < 5) chunks = [Buffer.concat(chunks, received)]
    const length = chunks[0].readUInt32BE(1)
    if (received < 5 + length) break
    const buffer = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received)
    const type = buffer[0]
    const data = buffer.subarray(5, 5 + length)
    const rest = buffer.subarray(5 + length)
    chunks = rest.length > 0 ? [rest] : []
    received = rest.length
    if (type === 1) process.stdout.write(data)
    else if (type === 2) process.stderr.write(data)
    else if (type === 3) finish(data[0] || 0)
    else if (type === 4) {
      process.stdin.on('data', (d) => send(0, d))
      process.stdin.on('end', () => send(5, Buffer.alloc(0)))
      process.stdin.on('error', () => send(5, Buffer.alloc(0)))
    }
  }
})
conn.on('error', () => {})
conn.on('close', () => {
  if (!exited) process.exit(255)
})
