// Preloaded with `node --require` by bench/startup.bench.ts: appends this process's CPU time (user + system,
// all threads, in ms) to $ARC_BENCH_CPU_FILE when it exits.
process.on('exit', () => {
  const u = process.cpuUsage()
  require('node:fs').appendFileSync(process.env.ARC_BENCH_CPU_FILE, `${(u.user + u.system) / 1000}\n`)
})
