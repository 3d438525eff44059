// The V8 flags mcphost runs with (bin/run.js's shebang says them; a client entry written by
// `connect` passes them to node). A long-lived server with a small heap does not need V8's default
// young generation of up to 3 × 16 MiB: capped at 2 MiB semi-spaces, a warm godot server peaks at
// about 120 MB instead of 145 MB, and its search p95 drops (scavenges stay short).
export const NODE_FLAGS: readonly string[] = ['--max-semi-space-size=2'];
