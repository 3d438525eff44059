// The V8 flags mcphost runs with (bin/run.js's shebang says them; a client entry written by
// `connect` passes them to node). A long-lived server with a small heap needs neither V8's default
// young generation of up to 3 × 16 MiB nor a pool of background threads per core, each with its own
// allocation arenas: with 2 MiB semi-spaces and one V8 worker thread a warm godot server peaks at
// about 115 MB instead of ~145 MB, and its search p95 drops (scavenges stay short). Worker threads
// (imhex's parallel search, godot's parse worker) are Node's own and not limited by the pool size.
export const NODE_FLAGS: readonly string[] = ['--max-semi-space-size=2', '--v8-pool-size=1'];
